"""Shared fixtures: the repository root, the pinned upstream copy, a CLI runner, and
builds made once per test session (``shared_build``) for the tests that only read them."""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
SHARED_UPSTREAM = ROOT.parent / "shared" / "upstream" / "jax-v0.10.2"

# The integration tier: files whose tests run real Sphinx builds, notebooks on JAX
# (kernels in the sandbox included), Chromium, or the word aligner (eflomal with Kiwi),
# and the tests marked integration, browser or slow anywhere (sweeps over the committed
# catalogs). `make test-fast` runs everything else.
INTEGRATION = frozenset({
    "test_catalogs", "test_lossless", "test_notebooks_build", "test_notebooks_interpret",
    "test_notebooks_verify", "test_pipeline", "test_review_browser", "test_upstream",
    "test_workflow_review", "test_sphinx_missing_deps", "test_sphinx_toc_parents",
    "test_terms", "test_notebooks_sandbox", "test_notebooks_landlock", "test_notebooks_extras",
})


# The files that take longest, longest first (BENCHMARKS.md, "Test suite time"). xdist
# (`--dist loadfile --no-loadscope-reorder`, as `make test` runs it) hands out one file
# at a time in this order to whichever worker is free, so the long files start early
# and the short ones fill in at the end: both workers finish at about the same time.
# test_site_real builds the shared real site (``real_site_build``) first thing;
# test_site_korean_outputs, which reads it too, comes late enough to find it built (the
# other worker takes the next files meanwhile).
LONGEST_FIRST = (
    "test_site_real", "test_bump", "test_notebooks_interpret", "test_site_watch",
    "test_notebooks_verify", "test_terms", "test_site_state", "test_site_mode_switch",
    "test_site_check", "test_pipeline", "test_check_structure", "test_site_cell_toggles",
    "test_site", "test_site_korean_outputs", "test_site_gate", "test_notebooks_sandbox",
    "test_check_prefilter",
    "test_site_kiwi_process", "test_site_search_escape", "test_site_translated_markup",
    "test_upstream", "test_notebooks_extras", "test_site_browser", "test_site_early_sphinx",
    "test_site_i18n_costs", "test_lossless", "test_review_person", "test_site_doctest_flags",
    "test_site_inputs", "test_workflow_stats", "test_notebooks_build", "test_bad_inputs",
    "test_site_holes",
)


def pytest_collection_modifyitems(config, items):
    rank = {stem: number for number, stem in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(rank)))  # stable: files stay whole
    for item in items:
        stem = item.path.stem
        if (stem in INTEGRATION or stem.startswith("test_site")
                or item.get_closest_marker("browser") or item.get_closest_marker("slow")):
            item.add_marker(pytest.mark.integration)


def shared_build(tmp_path_factory, name: str, make):
    """What ``make(folder)`` builds into ``folder``, made once per test session.

    The first caller, in whichever xdist worker, runs ``make`` under a file lock in the
    session's temp folder that all workers share; every later caller waits for the lock
    and gets the same folder and ``make``'s (pickled) return value. A build that raised
    leaves nothing behind: the next caller tries again and sees the same error. Tests
    read what is shared; a test that changes it works on a copy."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # popen-gwN's parent: the session's folder, one per run
    folder = base / f"shared-{name}"
    with open(base / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = folder / ".made.pickle"
        if not made.is_file():
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir()
            made.with_suffix(".tmp").write_bytes(pickle.dumps(make(folder)))
            made.with_suffix(".tmp").rename(made)
        return pickle.loads(made.read_bytes())


@pytest.fixture(autouse=True)
def _own_check_cache(tmp_path_factory, monkeypatch):
    """Every test gets its own `jaxko check` result cache, never the checkout's."""
    monkeypatch.setenv("JAXKO_CACHE_DIR", str(tmp_path_factory.mktemp("jaxko-cache")))


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def shared_upstream() -> Path:
    if not (SHARED_UPSTREAM / "docs").is_dir():
        pytest.fail(f"pinned upstream copy missing at {SHARED_UPSTREAM} (CI clones beside shared/)")
    return SHARED_UPSTREAM


def write_newer(path: Path, text: str) -> None:
    """Write ``text`` with an mtime later than the file's last one, so Sphinx, which
    compares mtimes, sees the change even within the filesystem's clock resolution."""
    later = path.stat().st_mtime_ns + 10_000_000_000 if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if later:
        os.utime(path, ns=(later, later))


def processes_mentioning(text: str) -> list[int]:
    """Every other process on the machine whose command line has ``text`` (a forked
    process keeps its parent's): what a build left running."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if text.encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
        except (OSError, ValueError):
            continue
    return [pid for pid in found if pid != os.getpid()]


def run_jaxko(*args: str, cwd: Path | None = None, env: dict | None = None,
              check: bool = False) -> subprocess.CompletedProcess:
    """Run the real CLI in a subprocess (exit codes and stderr as a user sees them)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "jaxko", *args], cwd=cwd or ROOT,
                          env=full_env, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"jaxko {' '.join(args)} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture
def jaxko():
    return run_jaxko


@pytest.fixture
def fixture_docs(tmp_path: Path) -> Path:
    """A writable copy of the pipeline fixture docs (rst, MyST, MyST-NB, ipynb)."""
    dest = tmp_path / "docs"
    shutil.copytree(FIXTURES / "pipeline" / "docs", dest)
    return dest


GOTCHAS = "notebooks/Common_Gotchas_in_JAX"


def _build_real_site(folder: Path) -> dict:
    from jaxko import upstream
    from jaxko.notebooks import build as notebooks_build
    from jaxko.notebooks import verify
    from jaxko.site import build as site_build

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JAXKO_ROOT", str(folder))
        staged = folder / "upstream"
        upstream.sync(str(SHARED_UPSTREAM), root=ROOT, dest=staged)
        docs = staged / "docs"
        summary = notebooks_build.build(srcdir=docs, locale_dir=ROOT / "locale")
        report = verify.verify(srcdir=docs, notebooks_dir=summary.out_dir, workers=1,
                               only=[GOTCHAS])
        result = site_build.build(
            execute=False, root=ROOT, srcdir=docs, outdir=folder / "html",
            overrides={"jaxko_executed_notebooks_dir": str(verify.executed_dir()),
                       "jaxko_notebooks_dir": str(summary.out_dir)})
        return {"result": result, "docs": docs, "report": report,
                "executed": verify.executed_dir()}


@pytest.fixture(scope="session")
def real_site_build(tmp_path_factory) -> dict:
    """The real Korean site, once per test session: the pinned upstream staged, its
    Korean notebooks built from the committed catalogs, the Sharp Bits notebook executed
    (as verify does for `jaxko site build`), and the site built with those (Sphinx with
    stored outputs elsewhere). Keys: ``result`` (SiteResult), ``docs`` (the staged
    sources), ``report`` (the VerifyReport), ``executed`` (the executed notebooks)."""
    if not (SHARED_UPSTREAM / "docs").is_dir():
        pytest.fail(f"pinned upstream copy missing at {SHARED_UPSTREAM}")
    return shared_build(tmp_path_factory, "real-site", _build_real_site)


MATH_PAGE = "# Math\n\nInline $x^2$ and a block:\n\n$$\n\\int_0^1 f(x)\\,dx\n$$\n"


def _build_fixture_site(folder: Path) -> Path:
    from jaxko.site import build as site_build

    docs = folder / "docs"
    shutil.copytree(FIXTURES / "site" / "docs", docs)
    (docs / "math.md").write_text(MATH_PAGE, encoding="utf-8")
    return site_build.build(execute=False, srcdir=docs, outdir=folder / "html",
                            locale_dir=FIXTURES / "site" / "locale",
                            glossary=FIXTURES / "site" / "glossary.yaml").outdir


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    """The fixture site (tests/fixtures/site) with one more page, an untranslated
    ``math.md`` (inline and block math), built as published, once per test session: its
    output folder. The browser tests read it (test_site_browser, test_site_offline)."""
    return shared_build(tmp_path_factory, "fixture-site", _build_fixture_site)


def run_jaxko_in_process(*args: str, cwd: Path | None = None, env: dict | None = None,
                         check: bool = False) -> subprocess.CompletedProcess:
    """``run_jaxko`` without the process start: ``jaxko.cli.main`` in this process, in
    ``cwd`` (the repository root unless told) with ``env`` added, its stdout and stderr
    captured at the file-descriptor level (what a child process writes too). Same result
    type as ``run_jaxko``; an exception escaping ``main`` (a traceback a user would see)
    propagates and fails the test. For tests not about the process boundary; keep one
    ``run_jaxko`` test per command where the exit status or stderr of the real process
    is the point."""
    import tempfile

    from jaxko.cli import main

    saved_cwd, saved_env = os.getcwd(), dict(os.environ)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        saved_fds = os.dup(1), os.dup(2)
        saved_streams = sys.stdout, sys.stderr
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
        try:
            os.chdir(cwd or ROOT)
            os.environ.update(env or {})
            try:
                code = main(list(args))
            except SystemExit as exit_:  # argparse: --help, bad options
                code = exit_.code if isinstance(exit_.code, int) else (
                    0 if exit_.code is None else 1)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            sys.stdout, sys.stderr = saved_streams
            os.dup2(saved_fds[0], 1)
            os.dup2(saved_fds[1], 2)
            os.close(saved_fds[0])
            os.close(saved_fds[1])
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    proc = subprocess.CompletedProcess(["jaxko", *args], code, stdout, stderr)
    if check and proc.returncode != 0:
        raise AssertionError(f"jaxko {' '.join(args)} -> {proc.returncode}\n{stdout}\n{stderr}")
    return proc


_WARM: dict = {}


def pytest_sessionstart(session):
    """The warm Sphinx process of ``warm_sphinx`` is forked here, before any test runs:
    a fork after a test has imported JAX (whose threads make a later fork unsafe) or
    patched anything in this process would carry those into every build."""
    from jaxko.site.watch import WarmSphinx

    _WARM["sphinx"] = WarmSphinx()


def pytest_sessionfinish(session, exitstatus):
    sphinx = _WARM.pop("sphinx", None)
    if sphinx is not None:
        sphinx.close()


@pytest.fixture(scope="session")
def warm_sphinx():
    """One warm Sphinx process per test worker (:class:`jaxko.site.watch.WarmSphinx`, the
    one `jaxko site watch` runs its builds in), to pass as ``site_build.build(sphinx=...)``
    or ``run_sphinx(run=...)``: each build runs the real sphinx-build in a fresh fork of
    it, which has Sphinx, MyST-NB, the theme and the extensions imported already (after
    the first build). It was forked when the session started (``pytest_sessionstart``),
    so no test's imports or patches reach it."""
    return _WARM["sphinx"]
