"""`jaxko notebooks verify`: the Korean fixture notebooks executed on real JAX with nbmake.

Each test builds into its own project root (JAXKO_ROOT), so caches never mix; the
fixture notebooks take a few seconds each (kernel start and `import jax`). The run of
the fixture notebooks with a planted failing cell (``planted_run``) is made once per
module, by the CLI, and read by the tests about it; they never change its project.

The other tests' kernels run with ``JAX_TRACEBACK_FILTERING=quiet_remove_frames`` (the
kernel sees the caller's ``JAX_`` variables): a JAX error keeps its type, message and
cell, but IPython no longer formats JAX's unfiltered stack, chained to it, with source
context (seconds of CPU for tiny.ipynb's raising cell). These tests read the error's
last line; ``planted_run`` keeps JAX's default, so that one run formats its errors as
users' runs do.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from jaxko import catalogs
from jaxko.errors import UserError
from jaxko.notebooks import build, verify

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "notebooks"
DOCS = FIXTURES / "docs"


from conftest import run_jaxko  # noqa: E402
from notebook_project import build_fixture_notebooks as _build, project  # noqa: F401,E402


def _plant_raising_cell(docs: Path) -> None:
    """Untag tiny.ipynb's cell 4, which raises on purpose: it now fails the notebook."""
    text = (docs / "tiny.ipynb").read_text(encoding="utf-8")
    (docs / "tiny.ipynb").write_text(text.replace('"raises-exception"', '"some-other-tag"'),
                                     encoding="utf-8")


QUIET_TRACEBACKS = "quiet_remove_frames"


@pytest.fixture(autouse=True)
def _quiet_jax_tracebacks(monkeypatch):
    monkeypatch.setenv("JAX_TRACEBACK_FILTERING", QUIET_TRACEBACKS)


@pytest.fixture(scope="module")
def planted_run(tmp_path_factory) -> dict:
    """The fixture notebooks, tiny.ipynb's cell 4 planted to fail, built and verified
    once by the CLI (`verify -n 1 --report whole.json --junit-xml whole.xml`): ``root``
    (its project), ``docs`` (the planted sources), ``whole`` (the finished process)."""
    root = tmp_path_factory.mktemp("planted")
    shutil.copytree(FIXTURES / "locale", root / "locale")
    docs = root / "docs"
    shutil.copytree(DOCS, docs)
    _plant_raising_cell(docs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JAXKO_ROOT", str(root))
        patch.delenv("JAX_TRACEBACK_FILTERING", raising=False)  # JAX's default
        build.build(srcdir=docs, locale_dir=root / "locale",
                    out_dir=root / "_build" / "notebooks" / "ko")
        whole = run_jaxko("notebooks", "verify", "--srcdir", str(docs), "-n", "1",
                          "--report", str(root / "whole.json"),
                          "--junit-xml", str(root / "whole.xml"), env={"JAXKO_ROOT": str(root)})
    return {"root": root, "docs": docs, "whole": whole}


def _verify(**kwargs) -> verify.VerifyReport:
    kwargs.setdefault("workers", 1)
    return verify.verify(srcdir=DOCS, **kwargs)


def _by_name(report: verify.VerifyReport) -> dict[str, verify.NotebookResult]:
    return {r.notebook: r for r in report.results}


def _edit_msgstr(project: Path, msgid_part: str, old: str, new: str) -> None:
    path = project / "locale" / "ko" / "LC_MESSAGES" / "tiny.po"
    po = catalogs.load(path)
    entry = next(e for e in po if msgid_part in e.msgid)
    entry.msgstr = entry.msgstr.replace(old, new)
    catalogs.save(po, path)


def test_translated_notebooks_pass_and_the_pass_is_cached(project):
    _build(project)
    first = _verify(workers=2)  # the parallel path (pytest-xdist)
    results = _by_name(first)
    assert results["tiny.ipynb"].status == "passed"  # its raises-exception cell raised
    assert results["myst_tiny.md"].status == "passed"
    assert results["tiny.ipynb"].executed and results["tiny.ipynb"].seconds > 0
    # Excluded notebooks are reported, with upstream's reason, and never run.
    skipped = results["notebooks/convolutions.ipynb"]
    assert (skipped.status, skipped.executed) == ("skipped", False)
    assert skipped.error.startswith("network:")
    assert not first.failed

    again = _by_name(_verify())
    assert again["tiny.ipynb"].status == "cached"
    assert again["myst_tiny.md"].status == "cached"

    # A changed code cell (a new comment translation) invalidates that notebook only.
    _edit_msgstr(project, "def add_one", "# 모든 원소에 1을 더합니다.", "# 각 원소에 1을 더합니다.")
    _build(project)
    third = _by_name(_verify())
    assert third["tiny.ipynb"].status == "passed" and third["tiny.ipynb"].executed
    assert third["myst_tiny.md"].status == "cached"

    forced = _by_name(_verify(force=True, only=["myst_tiny"]))
    assert forced["myst_tiny.md"].status == "passed"

    # Other options are other cache keys.
    other = _by_name(_verify(timeout=300, only=["myst_tiny"]))
    assert other["myst_tiny.md"].status == "passed"


def test_planted_identifier_change_fails_static_check_then_execution(project, jaxko):
    _edit_msgstr(project, "def add_one", "def add_one", "def 하나_더하기")
    _build(project, static_check=False)  # written anyway, to be executed

    env = {"JAXKO_ROOT": str(project)}
    proc = jaxko("notebooks", "verify", "--srcdir", str(DOCS), "-n", "1", "tiny", env=env)
    assert proc.returncode == 1
    row = next(line for line in proc.stdout.splitlines() if line.startswith("tiny.ipynb"))
    assert row.split()[:3] == ["tiny.ipynb", "failed", "2"]  # not executed: no seconds
    assert "static check: line 4: 'add_one' became '하나_더하기'" in row

    proc = jaxko("notebooks", "verify", "--srcdir", str(DOCS), "-n", "1", "--allow-unchecked-code",
                 "tiny", env=env)
    assert proc.returncode == 1
    report = json.loads((project / "_build" / "notebooks" / "report.json").read_text())
    [result] = report["results"]
    assert (result["status"], result["cell"], result["executed"]) == ("failed", 2, True)
    assert result["error"] == "NameError: name 'add_one' is not defined"
    junit = ElementTree.parse(project / "_build" / "notebooks" / "junit.xml").getroot()
    [failure] = junit.iter("failure")
    assert failure.get("message") == "cell 2: NameError: name 'add_one' is not defined"
    # The executed notebook, with the error output, is kept for inspection.
    executed = project / "_build" / "notebooks" / "executed" / "tiny.ipynb"
    assert "NameError" in executed.read_text(encoding="utf-8")


def test_cell_that_raises_without_the_tag_fails_naming_the_cell(planted_run):
    assert planted_run["whole"].returncode == 1, planted_run["whole"].stderr
    report = json.loads((planted_run["root"] / "whole.json").read_text(encoding="utf-8"))
    [result] = [r for r in report["results"] if r["notebook"] == "tiny.ipynb"]
    assert (result["status"], result["cell"], result["executed"]) == ("failed", 4, True)
    assert result["error"].startswith("TypeError: add got incompatible shapes")


def test_not_built_is_a_failure_and_no_build_dir_is_exit_2(project, jaxko):
    proc = jaxko("notebooks", "verify", "--srcdir", str(DOCS), env={"JAXKO_ROOT": str(project)})
    assert proc.returncode == 2
    [line] = proc.stderr.strip().splitlines()
    assert "run `jaxko notebooks build` first" in line
    _build(project, only=["myst_tiny"])
    [result] = _verify(only=["tiny"]).results
    assert (result.status, result.executed) == ("failed", False)
    assert "not built" in result.error


def test_gpu_platform_without_a_gpu_is_a_clear_error(project):
    import jax

    if any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("this machine has a GPU")
    _build(project, only=["myst_tiny"])
    with pytest.raises(UserError, match=r"--platform gpu: JAX sees no GPU .*jax\[cuda12\]"):
        _verify(platform="gpu", only=["myst_tiny"])


def test_bad_options_are_exit_2(project, jaxko):
    env = {"JAXKO_ROOT": str(project)}
    for args in (["--platform", "tpu"], ["--timeout", "0"], ["--workers", "many"]):
        _build(project, only=["myst_tiny"])
        proc = jaxko("notebooks", "verify", "--srcdir", str(DOCS), *args, env=env)
        assert proc.returncode == 2, args
        assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_old_no_static_check_flag_is_refused_naming_the_new_one(jaxko):
    for action in ("build", "verify"):
        proc = jaxko("notebooks", action, "--no-static-check")
        assert proc.returncode == 2
        assert "--allow-unchecked-code" in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1


def test_unchecked_code_is_reported_unchecked_in_a_scrubbed_environment(project, jaxko):
    """A notebook run with --allow-unchecked-code that succeeds is 'unchecked', never
    'passed'; its kernel sees no secret of the caller and a temporary home."""
    _edit_msgstr(project, "def add_one", "def add_one",
                 "import os\nprint('SECRET=' + os.environ.get('JAXKO_TEST_TOKEN', 'absent'))\n"
                 "print('HOME=' + os.environ['HOME'])\ndef add_one")
    _build(project, static_check=False)
    env = {"JAXKO_ROOT": str(project), "JAXKO_TEST_TOKEN": "hunter2"}
    proc = jaxko("notebooks", "verify", "--srcdir", str(DOCS), "-n", "1",
                 "--allow-unchecked-code", "tiny", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((project / "_build" / "notebooks" / "report.json").read_text())
    [result] = report["results"]
    assert result["status"] == "unchecked"
    assert report["counts"]["passed"] == 0 and report["counts"]["unchecked"] == 1
    assert "UNCHECKED" in proc.stdout
    executed = (project / "_build" / "notebooks" / "executed" / "tiny.ipynb").read_text(
        encoding="utf-8")
    assert "SECRET=absent" in executed and "hunter2" not in executed
    assert f"HOME={Path.home()}" not in executed


# ------------------------------------------------------------------ sharded verification

from jaxko.notebooks import shards  # noqa: E402


def test_shards_partition_the_notebooks_exactly_and_deterministically(tmp_path):
    notebooks = []
    for i in range(10):
        path = tmp_path / f"nb{i}.ipynb"
        path.write_text("x" * (100 * (i + 1)), encoding="utf-8")
        notebooks.append((f"nb{i}.ipynb", path))
    everything = {rel for rel, _ in notebooks}
    for durations in ({}, {"nb0.ipynb": 500.0, "nb9.ipynb": 1.0}):
        weight = shards.weights(notebooks, durations)
        parts = shards.split(weight, 3)
        assert len(parts) == 3
        assert set().union(*parts) == everything
        assert sum(len(p) for p in parts) == len(everything)  # no overlap
        assert shards.split(weight, 3) == parts  # the same on every runner
        loads = [sum(weight[r] for r in p) for p in parts]
        assert max(loads) - min(loads) <= max(weight.values())  # LPT's bound
    # Recorded seconds move a notebook: the slow one gets a shard of its own.
    recorded = {rel: 1.0 for rel, _ in notebooks} | {"nb0.ipynb": 100.0}
    parts = shards.split(shards.weights(notebooks, recorded), 3)
    assert ["nb0.ipynb"] in parts


def _table_rows(text: str) -> list[str]:
    """The rows of the verify table, seconds masked (the summary line is timing), and
    runs of spaces made one (the seconds column is as wide as its longest figure)."""
    rows = [line for line in text.strip().splitlines()][:-1]
    return [re.sub(r" +", " ", re.sub(r"\d+\.\d", "#", row)) for row in rows]


def test_sharded_ci_path_end_to_end_equals_an_unsharded_run(planted_run, jaxko, tmp_path):
    """The notebooks workflow's jobs, each in its own project root as on its own runner:
    build once; verify --shard I/3 on three "runners" from the built notebooks; their
    report, JUnit XML and executed/ moved as artifacts; report merge; then the site
    build's verify in the merging root runs nothing that passed. The unsharded run to
    compare with is ``planted_run``'s (tiny.ipynb's cell 4 planted to raise)."""
    project, docs, whole = planted_run["root"], planted_run["docs"], planted_run["whole"]
    verify_args = ("notebooks", "verify", "--srcdir", str(docs), "-n", "1")
    assert whole.returncode == 1, whole.stderr

    merger = tmp_path / "merger"
    reports = []
    for index in (1, 2, 3):
        runner = tmp_path / f"runner{index}"
        out = runner / "_build" / "notebooks"
        shutil.copytree(project / "_build" / "notebooks" / "ko", out / "ko")  # the build artifact
        proc = jaxko(*verify_args, "--shard", f"{index}/3",
                     "--report", str(out / f"shard-{index}.json"),
                     "--junit-xml", str(out / f"shard-{index}.xml"),
                     env={"JAXKO_ROOT": str(runner)})
        assert proc.returncode in (0, 1), proc.stderr
        artifact = merger / "shards" / f"notebooks-shard-{index}"  # upload, then download
        artifact.mkdir(parents=True)
        for name in (f"shard-{index}.json", f"shard-{index}.xml", "executed"):
            if (out / name).is_dir():
                shutil.copytree(out / name, artifact / name)
            elif (out / name).is_file():
                shutil.copy(out / name, artifact / name)
        reports.append(artifact / f"shard-{index}.json")
    shard_rows = [json.loads(p.read_text())["results"] for p in reports]
    names = [row["notebook"] for rows in shard_rows for row in rows]
    assert sorted(names) == sorted(set(names)) == [
        "myst_tiny.md", "notebooks/convolutions.ipynb", "tiny.ipynb"]  # an exact partition

    env = {"JAXKO_ROOT": str(merger)}
    merged = jaxko("notebooks", "report", "merge", *map(str, reports), env=env)
    assert merged.returncode == 1, merged.stderr  # the planted failure fails the merge too
    expected = json.loads((project / "whole.json").read_text())
    got = json.loads((merger / "_build" / "notebooks" / "report.json").read_text())

    def outcome(report):
        return [(r["notebook"], r["status"], r["cell"], r["error"], r["executed"])
                for r in report["results"]]

    assert outcome(got) == outcome(expected)
    assert ("tiny.ipynb", "failed", 4) == tuple(outcome(got)[2][:3])
    assert got["counts"] == expected["counts"]
    assert _table_rows(merged.stdout) == _table_rows(whole.stdout)

    def junit(path):
        root = ElementTree.parse(path).getroot()
        return ({k: root.get(k) for k in ("tests", "failures", "skipped")},
                [(c.get("name"), [(f.tag, f.get("message")) for f in c]) for c in root])

    assert junit(merger / "_build" / "notebooks" / "junit.xml") == junit(project / "whole.xml")

    # The shards' executed notebooks, combined: what the site build shows.
    executed = merger / "_build" / "notebooks" / "executed"
    assert sorted(p.name for p in executed.iterdir()) == ["myst_tiny.ipynb", "tiny.ipynb"]
    assert "some-other-tag" in (executed / "tiny.ipynb").read_text(encoding="utf-8")
    # Publishing builds the Korean notebooks again and verifies: the pass is not re-run.
    build.build(srcdir=docs, locale_dir=project / "locale",
                out_dir=merger / "_build" / "notebooks" / "ko")
    again = jaxko(*verify_args, "--format", "json", "myst_tiny", env=env)
    [result] = json.loads(again.stdout)["results"]
    assert (result["status"], result["executed"]) == ("cached", False), again.stderr

    # Refused with one line: a shard missing, a shard given twice, a shard's artifact
    # without the executed notebook of a pass.
    missing = jaxko("notebooks", "report", "merge", *map(str, reports[:2]), env=env)
    twice = jaxko("notebooks", "report", "merge", *map(str, reports), str(reports[0]), env=env)
    owner = next(p for p, rows in zip(reports, shard_rows)
                 if any(r["status"] == "passed" for r in rows))
    shutil.rmtree(owner.parent / "executed")
    (owner.parent / "executed").mkdir()
    incomplete = jaxko("notebooks", "report", "merge", *map(str, reports), env=env)
    for proc, words in ((missing, "in no shard report"), (twice, "in two shard reports"),
                        (incomplete, "the executed notebook of myst_tiny.md is not in")):
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert words in proc.stderr and "Traceback" not in proc.stderr


def test_gpu_platform_attempts_the_notebooks_skipped_only_for_lack_of_a_gpu():
    from jaxko import scope

    attempted = {pattern for pattern, reason in scope.EXECUTION_EXCLUDES
                 if scope.attempted_on(reason, "gpu")}
    assert {"pallas/quickstart.*", "pallas/gpu/pipelining.*", "notebooks/cute_dsl_jax.*",
            "notebooks/host-offloading.*"} <= attempted
    # TPU-only, network and extra requirements stay skipped on a GPU; nothing is on CPU.
    assert not attempted & {"pallas/tpu/matmul.*", "notebooks/layout.*",
                            "notebooks/convolutions.*", "jep/9407-type-promotion.*"}
    assert not any(scope.attempted_on(reason, "cpu") for _, reason in scope.EXECUTION_EXCLUDES)
