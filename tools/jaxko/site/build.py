"""Stage 4: build the Korean site (``jaxko site build``, ``make html``).

``sphinx-build -b html -D language=ko`` over the staged upstream with the root conf.py
and ``locale/`` (Sphinx compiles each changed ``.po`` into a ``.mo`` itself). Notebook
outputs come from real execution through MyST-NB's cache (``JAXKO_EXECUTE=cache``,
cache under ``_build/jupyter_cache``): a rebuild with unchanged code executes nothing,
and the notebooks of ``scope.myst_nb_execution_excludes()`` keep their stored outputs.
``execute=False`` executes nothing (fast; ``jaxko site watch``, development and tests).

For the Korean site, execution is ``jaxko notebooks verify``'s: it runs the Korean
notebooks (only those whose code changed since their last pass), the pages show those
outputs (``jaxko.site.ext.korean_outputs``) and the downloadable Korean ``.ipynb``
files carry them; MyST-NB executes nothing. ``language="en"`` keeps MyST-NB's cache.
A Korean build that does not execute shows the outputs of the last run too (stored
outputs where there is none, or where it ran other code than the Korean notebook), so
both give Sphinx the same settings: switching between ``make html`` and ``make watch``
reads again only the pages that changed, not every page. A page read before its
notebook's Korean run existed is read again once it does (the executed notebook is
the page's dependency even while missing: ``jaxko.sphinxext.missing_deps``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from jaxko import paths
from jaxko.errors import UserError
from jaxko.extract import accepted_reason, run_sphinx, sphinx_env
from jaxko.catalogs import write_text_atomic
from jaxko.memo import refuse_tracked
from jaxko.site.early_sphinx import EarlySphinx
from jaxko.site.state import BuildState

# Warnings of Sphinx's i18n step: a translated message whose references differ from
# the original's, or a msgstr that failed to parse (its location ends in <translated>).
_I18N = re.compile(r"inconsistent .*references in translated message|<translated>")


def is_i18n_warning(line: str) -> bool:
    """A warning a translation caused; one the English build has and docs/build-warnings.md
    accepts (a translation that keeps the msgid's link to a missing companion file warns
    again, as `<translated>`) is not the translation's fault."""
    return bool(_I18N.search(line)) and accepted_reason(line) is None


@dataclass
class SiteResult:
    outdir: Path
    language: str
    seconds: float
    pages: int
    warnings: list[str] = field(default_factory=list)
    notebooks: int = 0            # Korean notebooks written for download
    notebook_errors: list[str] = field(default_factory=list)
    blocked: list = field(default_factory=list)  # site_gate.Blocked: kept off the site
    stopped: bool = False         # strict: the gate refused a translation; nothing was built
    verify: object = None         # the VerifyReport whose executions the pages show
    # `jaxko check` over the catalogs the build read: its errors (check Findings) and
    # how many warnings it had (Korean builds only).
    check_errors: list = field(default_factory=list)
    check_warnings: int = 0
    # warning line -> the catalog entries ("file.po:line") of the translated message
    # it is about, where its location names one (:func:`catalog_locations`).
    translated_at: dict = field(default_factory=dict)
    # of ``warnings``: kept from an earlier build, for pages this build did not read again
    kept_warnings: int = 0
    # page -> files of the staged upstream it includes or loads but lacks (jaxko.site.ext.holes)
    missing: dict = field(default_factory=dict)
    # the documents Sphinx read in this build (docnames: every one, or what changed)
    documents_read: list = field(default_factory=list)
    pages_written: int = 0

    @property
    def i18n_warnings(self) -> list[str]:
        return [w for w in self.warnings if is_i18n_warning(w)]

    @property
    def unexpected(self) -> list[str]:
        return [w for w in self.warnings if accepted_reason(w) is None]


def check_catalogs(locale_dir: Path, language: str, glossary: Path | None, srcdir: Path,
                   cache_dir: Path | None):
    """``jaxko check`` over the build's catalogs (the same rules, glossary and source
    tree): its result, whose errors the build summary lists and ``--strict`` fails on."""
    from jaxko.check import runner

    options = runner.Options(paths=[locale_dir / language / "LC_MESSAGES"],
                             glossary=glossary, source_dir=srcdir, cache_dir=cache_dir)
    return runner.run(options)


# `path:line: WARNING`, `path:line:<translated>:n: WARNING` (Sphinx's location forms).
_WARNING_AT = re.compile(r"^(?P<path>[^\n]+?):(?P<line>\d+):(?:<translated>:\d+:)?\s*"
                         r"(?:WARNING|ERROR|CRITICAL|SEVERE)\b")


def catalog_locations(warnings: list[str], srcdir: Path, locale_dir: Path,
                      language: str) -> dict[str, list[str]]:
    """warning -> ``catalog.po:line`` of each translated entry extracted from the
    warning's source location (``#: doc.md:37``), for warnings about the pages' text.
    Warnings without a location in the docs tree, or whose location no translated
    message comes from, are left out."""
    from jaxko.catalogs import read as read_catalog

    catalogs = locale_dir / language / "LC_MESSAGES"
    read: dict[Path, dict[str, list[int]]] = {}
    found: dict[str, list[str]] = {}
    for warning in warnings:
        match = _WARNING_AT.match(warning)
        if not match:
            continue
        try:
            rel = Path(match.group("path")).resolve().relative_to(srcdir.resolve())
        except ValueError:
            continue
        catalog = catalogs / rel.with_suffix(".po")
        if catalog not in read:
            read[catalog] = {}
            if catalog.is_file():
                try:
                    entries = read_catalog(catalog)
                except UserError:
                    entries = []  # check_inputs reported it already
                for entry in entries:
                    if entry.translated:
                        for line in entry.locations:
                            for location in line.split():
                                read[catalog].setdefault(location, []).append(entry.msgstr_line)
        lines = read[catalog].get(f"{rel.as_posix()}:{match.group('line')}")
        if lines:
            shown = shown_path(catalog)
            found[warning] = [f"{shown}:{line}" for line in sorted(set(lines))]
    return found


def shown_path(path: Path) -> str:
    """``path`` relative to the working directory when it is under it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


# The source file a warning names first (`doc.rst:9:<translated>.rst: WARNING` -> doc.rst).
_SOURCE_AT = re.compile(r"^(?P<path>[^\n]*?\.(?:rst|md|ipynb)):[^\n]*?\b(?:WARNING|ERROR|CRITICAL)\b")


def warning_docname(warning: str, srcdir: Path) -> str | None:
    """The document a warning is located in (its path under ``srcdir``), or None."""
    match = _SOURCE_AT.match(warning)
    if not match:
        return None
    try:
        rel = Path(match.group("path")).resolve().relative_to(srcdir.resolve())
    except (ValueError, OSError):
        return None
    docname = rel.with_suffix("").as_posix()
    return docname if _has_source(srcdir, docname) else None


def _has_source(srcdir: Path, docname: str) -> bool:
    return any((srcdir / f"{docname}{suffix}").is_file() for suffix in (".rst", ".md", ".ipynb"))


def remember_warnings(path: Path, warnings: list[str], read: set[str],
                      srcdir: Path) -> tuple[list[str], int]:
    """The warnings of the whole site after this build, and how many of them were kept
    from earlier builds: a page Sphinx did not read again warns now only of what it
    found while writing, so the warnings it gave when last read are kept (``path``,
    JSON, docname -> warnings). A page read again replaces its own."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        kept = kept if isinstance(kept, dict) else {}
    except (OSError, ValueError):
        kept = {}
    now: dict[str, list[str]] = {}
    other = []
    for warning in warnings:
        docname = warning_docname(warning, srcdir)
        if docname is None:
            other.append(warning)
        else:
            now.setdefault(docname, []).append(warning)
    merged: dict[str, list[str]] = {}
    carried = 0
    for docname in sorted(set(kept) | set(now)):
        if docname in read or docname not in kept:
            merged[docname] = now.get(docname, [])
            continue
        new = now.get(docname, [])
        old = [w for w in kept[docname] if isinstance(w, str) and w not in new]
        carried += len(old)
        merged[docname] = new + old
    # a page whose source is gone takes its kept warnings with it
    merged = {d: w for d, w in merged.items() if w and (d in now or _has_source(srcdir, d))}
    write_text_atomic(path, json.dumps(merged, ensure_ascii=False, indent=0, sort_keys=True) + "\n")
    return [w for d in sorted(merged) for w in merged[d]] + other, carried


def read_missing(path: Path) -> dict[str, list[str]]:
    """What the build's ``jaxko_missing_report`` says its pages lack (the Sphinx
    extension jaxko.site.ext.holes writes it): page -> files; {} when nothing."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def check_inputs(locale_dir: Path, language: str, assignments: Path | None,
                 glossary: Path | None = None, stats_cache: Path | None = None) -> None:
    """Fail early, with one line, on inputs the pages read: the catalogs, assignments and
    review records (banners, progress page) and the glossary (glossary page, search)."""

    if language == "en":
        return
    from jaxko import glossary as glossary_model
    from jaxko.workflow import stats

    catalogs = locale_dir / language / "LC_MESSAGES"
    if not catalogs.is_dir():
        raise UserError(f"no {language} catalogs here; run `jaxko update` or pass --locale-dir",
                        catalogs)
    stats.document_stats(locale_dir, language, assignments_path=assignments, cache=stats_cache)
    if glossary is not None:
        glossary_model.load(glossary)


class Progress:
    """Stages of a build on stderr: live bars on a terminal; otherwise (a CI log, a pipe)
    one line per stage and, while a long stage runs, a line with its counts at least
    every :data:`INTERVAL` seconds (``$JAXKO_PROGRESS_INTERVAL`` sets another)."""

    INTERVAL = 10.0

    def __init__(self, enabled: bool, stream=None, interval: float | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.live = enabled and self.stream.isatty()
        if interval is None:
            interval = float(os.environ.get("JAXKO_PROGRESS_INTERVAL") or self.INTERVAL)
        self.interval = interval

    def say(self, line: str) -> None:
        print(line, file=self.stream, flush=True)

    def done(self, stage: str, started: float, detail: str = "") -> None:
        if self.enabled:
            took = time.perf_counter() - started
            self.say(f"{stage}: {detail + ', ' if detail else ''}{took:.1f} s")

    def start(self, stage: str) -> float:
        if self.live:
            self.say(f"{stage}...")
        return time.perf_counter()

    @contextlib.contextmanager
    def heartbeat(self, stage: str, describe):
        """Not on a terminal: ``stage: <describe()>, N s`` every interval while it runs."""
        if not self.enabled or self.live:
            yield
            return
        stop = threading.Event()
        started = time.perf_counter()

        def beat() -> None:
            while not stop.wait(self.interval):
                self.say(f"{stage}: {describe()}, {time.perf_counter() - started:.0f} s")

        thread = threading.Thread(target=beat, daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()

    @contextlib.contextmanager
    def notebooks(self):
        """Progress of the notebook run: a bar on a terminal, else heartbeat lines.

        Yields what to pass as ``verify(progress=...)``: True (its own bar) or a
        callable ``(executed, total)`` that keeps the counts for the heartbeat."""
        if self.live or not self.enabled:
            yield self.live
            return
        counts = {"done": 0, "total": None}

        def update(done: int, total: int) -> None:
            counts.update(done=done, total=total)

        def describe() -> str:
            if counts["total"] is None:
                return "checking which notebooks changed"
            return f"{counts['done']}/{counts['total']} notebooks executed"

        with self.heartbeat("executing Korean notebooks", describe):
            yield update

    @contextlib.contextmanager
    def sphinx(self, env: dict):
        """Count documents read and pages written (jaxko.sphinxext.build_progress);
        ``counts["docs"]``: the documents read, whether progress is shown or not."""
        counts = {"read": 0, "doc": 0, "page": 0, "docs": set()}
        with tempfile.TemporaryDirectory(prefix="jaxko-progress-") as tmp:
            events = Path(tmp) / "events"
            events.touch()
            env["JAXKO_PROGRESS_FILE"] = str(events)
            stop = threading.Event()
            watcher = None
            if self.enabled:
                watcher = threading.Thread(target=self._watch, args=(events, counts, stop),
                                           daemon=True)
                watcher.start()
            try:
                yield counts
            finally:
                stop.set()
                if watcher is not None:
                    watcher.join()
                self._count(events, counts)
                env.pop("JAXKO_PROGRESS_FILE", None)

    @staticmethod
    def _count(events: Path, counts: dict) -> None:
        counts.update(doc=0, page=0)
        docs = set()
        for line in events.read_text(encoding="utf-8").splitlines():
            kind, _, value = line.partition(" ")
            if kind == "read":
                counts["read"] = int(value)
            elif kind in ("doc", "page"):
                counts[kind] += 1
                if kind == "doc":
                    docs.add(value)
        counts["docs"] = docs

    @staticmethod
    def _sphinx_line(counts: dict) -> str:
        if not counts["read"] and not counts["page"]:
            return "loading the extensions and the environment"
        return (f"{counts['doc']}/{counts['read']} documents read, "
                f"{counts['page']} pages written")

    def _watch(self, events: Path, counts: dict, stop: threading.Event) -> None:
        if not self.live:
            started = time.perf_counter()
            while not stop.wait(self.interval):
                self._count(events, counts)
                self.say(f"Sphinx: {self._sphinx_line(counts)}, "
                         f"{time.perf_counter() - started:.0f} s")
            return
        from tqdm import tqdm

        reading = writing = None
        while not stop.wait(0.5):
            self._count(events, counts)
            if counts["read"] and reading is None:
                reading = tqdm(total=counts["read"], unit="doc", desc="reading", leave=False)
            if reading is not None:
                reading.update(counts["doc"] - reading.n)
            if counts["page"] and writing is None:
                writing = tqdm(unit="page", desc="writing pages", leave=False)
            if writing is not None:
                writing.update(counts["page"] - writing.n)
        for bar in (reading, writing):
            if bar is not None:
                bar.close()


def verify_mod():
    from jaxko.notebooks import verify

    return verify


def run_korean_notebooks(srcdir: Path, notebooks_dir: Path, progress=False):
    """Execute the Korean notebooks (verify: only those whose code changed) and put
    each run's outputs into the notebook offered for download. ``progress``: as
    ``verify``'s (a bar when True, or a callable given the executed and total counts)."""
    import nbformat

    from jaxko.notebooks.build import stale

    verify = verify_mod()
    report = verify.verify(srcdir=srcdir, notebooks_dir=notebooks_dir, progress=progress)
    failed = [r for r in report.results if r.status == "failed"]
    if failed:
        names = ", ".join(f"{r.notebook} (cell {r.cell}: {r.error})" if r.cell else
                          f"{r.notebook} ({r.error})" for r in failed[:3])
        raise UserError(f"{len(failed)} Korean notebook(s) failed: {names}; run "
                        "`jaxko notebooks verify` for details", notebooks_dir)
    executed_dir = verify.executed_dir()
    for result in report.results:
        if result.status not in ("passed", "cached") or result.mode == "interpret":
            continue  # an interpret-mode run's outputs are a CPU simulation's: not the page's
        rel = Path(result.notebook).with_suffix(".ipynb")
        executed, download = executed_dir / rel, notebooks_dir / rel
        if executed.is_file() and download.is_file():
            ran = nbformat.read(str(executed), as_version=4)
            if not stale(ran, download):
                write_text_atomic(download, executed.read_text(encoding="utf-8"))
    return report


def write_notebook_runs(report, path: Path) -> Path:
    """docname -> how verify ran its Korean notebook, for the pages' banners
    (:func:`jaxko.site.ext.status.run_text`)."""
    runs = {str(Path(r.notebook).with_suffix("")): {
        "status": r.status, "mode": r.mode, "platform": report.platform, "error": r.error,
        "known_errors": [row["cell"] for row in r.known_errors or ()]}
        for r in report.results}
    write_text_atomic(path, json.dumps(runs, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    return path


def notebook_runs_path() -> Path:
    """Where a build that executes writes how verify ran each Korean notebook:
    beside verify's executed notebooks."""
    return verify_mod().executed_dir().parent / "site-runs.json"


def notebook_outputs_defines() -> dict[str, str]:
    """The settings that give notebook pages the last Korean run's outputs: the same
    for a build that executes and one that does not (they are Sphinx "env" and "html"
    settings; a different value makes Sphinx read, or write, every page again)."""
    return {"jaxko_executed_notebooks_dir": str(verify_mod().executed_dir()),
            "jaxko_notebook_runs": str(notebook_runs_path())}


def build(*, execute: bool = True, language: str = "ko", scope: str = "narrative",
          root: Path | None = None, srcdir: Path | None = None, outdir: Path | None = None,
          locale_dir: Path | None = None, glossary: Path | None = None,
          assignments: Path | None = None, jobs: str | None = "1", notebooks: bool = False,
          overrides: dict[str, str] | None = None, progress: bool = False,
          strict: bool = False, sphinx=None) -> SiteResult:
    """Build the site into ``outdir`` (default ``_build/html``; ``_build/html-en`` for en).

    ``progress``: show the stages on stderr (Korean notebooks, their execution, Sphinx).
    ``strict``: a translation the security gate refuses stops the build before Sphinx
    (or any notebook) reads anything; the result says so (``stopped``).
    ``jobs``: Sphinx's ``-j``; None picks one more than the cores when there is no
    environment of an earlier build (every page is read: Sphinx's main process hands out
    the pages and merges, and ``-j N`` reads and writes in N - 1 workers) and ``1`` when
    there is (a rebuild).
    ``sphinx``: what runs sphinx-build (default a process started with the build, which
    imports Sphinx while the inputs are checked: :class:`jaxko.site.early_sphinx.
    EarlySphinx`; ``jaxko site watch`` passes a :class:`jaxko.site.watch.WarmSphinx`)."""
    shown = Progress(progress)
    root = root or paths.repo_root()
    default_out = "html" if language == "ko" else f"html-{language}"
    outdir = (outdir or paths.build_dir(root) / default_out).resolve()
    state = BuildState(outdir)
    refuse_tracked(state.trusted(root))
    srcdir = (srcdir or paths.staged_docs(root)).resolve()
    if not (srcdir / "index.rst").is_file() and not any(srcdir.glob("index.*")):
        raise UserError("no staged docs here; run `jaxko upstream sync` (make upstream) first",
                        srcdir)
    locale_dir = (locale_dir or paths.locale_dir(root)).resolve()
    if glossary is not None and not glossary.is_file():
        raise UserError("glossary not found; pass --glossary FILE", glossary)
    # The glossary checked here is the one the pages read (not conf.py's default, which
    # follows $JAXKO_ROOT rather than ``root``).
    glossary = (glossary or root / "glossary" / "ko.yaml").resolve()
    korean_outputs = execute and language != "en"
    mode = "korean" if korean_outputs else ("cache" if execute else "off")
    env = sphinx_env(scope, mode, srcdir)
    # Sphinx's process starts now: its imports run while the inputs are checked and the
    # catalogs gated (jaxko.site.early_sphinx).
    if jobs is None:
        rebuild = (state.doctrees / "environment.pickle").is_file()
        jobs = "1" if rebuild else str((os.cpu_count() or 1) + 1)
    early = EarlySphinx(env, state.folder / "sphinx-modules.txt",
                        confdir=root) if sphinx is None else None
    sphinx = sphinx or early
    try:
        # Imported once that process runs: their imports overlap its own.
        from jaxko.notebooks import build as notebooks_build
        from jaxko.site import gate as site_gate

        check_inputs(locale_dir, language, assignments, glossary, state.file("stats"))
        defines = {"language": language, "locale_dirs": str(locale_dir),
                   "jaxko_glossary_path": str(glossary),
                   # One file for both readings: a gated copy of a catalog the gate
                   # refused nothing in is the same bytes (and so the same key) as the
                   # catalog.
                   "jaxko_stats_cache": str(state.file("stats")),
                   "jaxko_template_cache": str(state.folder / "templates"),
                   "jaxko_nav_cache": str(state.folder / "nav"),
                   "jaxko_missing_report": str(state.file("missing"))}
        if assignments is not None:
            defines["jaxko_assignments_path"] = str(assignments.resolve())
        checked = None
        original_locale = locale_dir
        if language != "en":
            # What `jaxko check` says of the same catalogs goes into the summary.
            checked = check_catalogs(locale_dir, language, glossary, srcdir,
                                     state.folder / "check")
        if language != "en":
            # The security gate: Sphinx reads a copy of the catalogs without the messages
            # the safety rules refuse (jaxko.site.gate); the build reports each one.
            gate = site_gate.gate_catalogs(locale_dir, language, state.gated, srcdir,
                                           state=state.folder / "gate")
            gate_blocked = gate.blocked
            locale_dir = gate.locale_dir
            defines["locale_dirs"] = str(locale_dir)
            if strict and gate_blocked:
                return SiteResult(outdir, language, 0.0, 0, blocked=gate_blocked,
                                  stopped=True)
        else:
            gate_blocked = []
        notebook_summary = None
        if korean_outputs:
            notebooks = True  # the executed notebooks are the Korean ones
        if notebooks and language != "en":
            # The downloads: Korean notebooks from the same catalogs (no execution here).

            started = shown.start("Korean notebooks")
            notebook_summary = notebooks_build.build(srcdir=srcdir, locale_dir=locale_dir,
                                                     language=language)
            shown.done("Korean notebooks", started,
                       f"{len(notebook_summary.notebooks)} written")
            defines["jaxko_notebooks_dir"] = str(notebook_summary.out_dir)
        report = None
        if korean_outputs:
            started = shown.start("executing Korean notebooks (jaxko notebooks verify)")
            with shown.notebooks() as notebook_progress:
                report = run_korean_notebooks(srcdir, notebook_summary.out_dir,
                                              notebook_progress)
            ran = [r for r in report.results if r.executed]
            shown.done("executed Korean notebooks", started,
                       f"{len(ran)} run, {report.count('cached')} unchanged (cached), "
                       f"{report.count('skipped')} keep upstream's outputs")
            write_notebook_runs(report, notebook_runs_path())
            defines["jaxko_executes_notebooks"] = "1"
        if language != "en":
            # Executed or not (`--no-execute`, `jaxko site watch`), the pages take the
            # outputs of the last Korean run, so both builds give Sphinx the same settings
            # and a switch between them reads again only what changed (see the module's
            # text).
            defines.update(notebook_outputs_defines())
        defines.update(overrides or {})
        extra = [arg for key, value in defines.items() for arg in ("-D", f"{key}={value}")]
        start = shown.start("Sphinx")
        with shown.sphinx(env) as counts:
            status, warnings = run_sphinx("html", srcdir, outdir, confdir=root, env=env,
                                          extra=extra, jobs=jobs, run=sphinx)
        seconds = time.perf_counter() - start
        shown.done("Sphinx", start,
                   f"{counts['doc']} documents read, {counts['page']} pages written")
        if status != 0:
            raise UserError(
                f"sphinx-build -b html failed (exit {status}); see the messages above", srcdir)
        pages = sum(1 for _ in outdir.rglob("*.html"))
        warnings, carried = remember_warnings(state.file("warnings"), warnings,
                                              counts["docs"], srcdir)
        write_text_atomic(state.folder / "warnings.txt", "".join(w + "\n" for w in warnings))
        result = SiteResult(outdir, language, seconds, pages, warnings, blocked=gate_blocked)
        result.kept_warnings = carried
        result.documents_read, result.pages_written = sorted(counts["docs"]), counts["page"]
        result.verify = report
        if language != "en":
            result.missing = read_missing(state.file("missing"))
        if checked is not None:
            result.check_errors = [f for f in checked.findings if f.severity == "error"]
            result.check_warnings = sum(1 for f in checked.findings if f.severity == "warning")
            result.translated_at = catalog_locations(
                [w for w in warnings if accepted_reason(w) is None], srcdir, original_locale,
                language)
        if notebook_summary is not None:
            result.notebooks = sum(1 for _ in notebook_summary.out_dir.rglob("*.ipynb"))
            result.notebook_errors = [e.format() for e in notebook_summary.errors]
        return result
    finally:
        if early is not None:
            early.close()
