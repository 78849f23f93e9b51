"""Notebooks that need extra modules (scope.REQUIREMENTS) and cells that raise known
upstream errors (scope.KNOWN_ERRORS), verified on real kernels in the sandbox.

Small notebook projects built here (an "upstream" notebook, no translation needed,
`jaxko notebooks build`, then `verify`); the extra module is a tiny package put on
PYTHONPATH, with its own dist-info so that its version can change. One verify run
covers the planted faults (a module missing, another exception in a known-error cell,
a known-error cell that no longer raises) and the clean case beside them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from xml.etree import ElementTree

import nbformat
import pytest

from jaxko import scope
from jaxko.notebooks import build, verify

ROOT = Path(__file__).resolve().parents[1]
MODULE = "jaxko_extra_probe"  # importable only from the folder a test puts on PYTHONPATH
ABSENT = "jaxko_absent_probe"  # importable nowhere

REQUIREMENTS = (
    scope.Requirement("needs_absent.*", (ABSENT,), "pip install jaxko-absent-probe"),
    scope.Requirement("known_ok.*", (MODULE,), "pip install jaxko-extra-probe"),
)
KNOWN = (
    scope.KnownError("known_ok.*", "cell-2", "OverflowError", "upstream's code, planted"),
    # Planted faults: the cell raises another exception, or none.
    scope.KnownError("known_other.*", "cell-2", "KeyError", "planted: raises ValueError"),
    scope.KnownError("known_gone.*", "cell-2", "KeyError", "planted: raises nothing"),
    scope.KnownError("known_unrun.*", "cell-2", "KeyError", "planted: never runs"),
)
NOTEBOOKS = {
    "needs_absent": [f"import {ABSENT}"],
    "known_ok": [f"import {MODULE}\nprint({MODULE}.VALUE)", "raise OverflowError('too big')",
                 "print('after the known error')"],
    "known_other": ["print('start')", "raise ValueError('another one')", "print('after')"],
    "known_gone": ["print('start')", "x = {}.get('k')", "print('after')"],
    "known_unrun": ["print('start')", ("raise KeyError('k')", ["skip-execution"])],
}


def _docs(root: Path, notebooks: dict[str, list], name_ids=None) -> Path:
    """Upstream notebooks (name -> code cells: a source, or (source, tags); ids cell-1,
    cell-2, ...); returns docs/."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "index.rst").write_text("Extras\n======\n", encoding="utf-8")
    for name, cells in notebooks.items():
        notebook = nbformat.v4.new_notebook()
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                           "language": "python"}
        for number, source in enumerate(cells, start=1):
            source, tags = source if isinstance(source, tuple) else (source, [])
            cell = nbformat.v4.new_code_cell(source)
            if tags:
                cell.metadata["tags"] = tags
            cell.id = (name_ids or {}).get(number, f"cell-{number}")
            notebook.cells.append(cell)
        path = docs / f"{name}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, str(path))
    (root / "locale" / "ko" / "LC_MESSAGES").mkdir(parents=True)
    build.build(srcdir=docs, locale_dir=root / "locale",
                out_dir=root / "_build" / "notebooks" / "ko")
    return docs


def _extra_module(folder: Path, version: str) -> None:
    """The extra module, installed as pip --target would: the module and its dist-info."""
    for old in folder.glob("*.dist-info"):
        for path in old.iterdir():
            path.unlink()
        old.rmdir()
    folder.mkdir(exist_ok=True)
    (folder / f"{MODULE}.py").write_text(f"VALUE = 'extra {version}'\n", encoding="utf-8")
    info = folder / f"{MODULE}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: jaxko-extra-probe\n"
                                   f"Version: {version}\n", encoding="utf-8")
    (info / "top_level.txt").write_text(MODULE + "\n", encoding="utf-8")


def _on_pythonpath(monkeypatch, folder: Path) -> None:
    kept = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(folder), *kept]))


def _verify(docs: Path, **kwargs
            ) -> tuple[verify.VerifyReport, dict[str, verify.NotebookResult]]:
    report = verify.verify(srcdir=docs, workers=1, requirements=REQUIREMENTS,
                           known_errors=KNOWN, **kwargs)
    return report, {r.notebook: r for r in report.results}


def _outputs(root: Path, name: str) -> list[tuple[list[str], str]]:
    """(tags, text of the outputs) of each cell of the executed notebook."""
    notebook = nbformat.read(str(root / "_build" / "notebooks" / "executed" / f"{name}.ipynb"),
                             as_version=4)
    return [(cell.metadata.get("tags", []),
             "".join(o.get("text", "") or f"{o.get('ename')}: {o.get('evalue')}"
                     for o in cell.outputs)) for cell in notebook.cells]


def test_extras_and_known_upstream_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    docs = _docs(tmp_path, NOTEBOOKS)
    extras = tmp_path / "extras"
    _extra_module(extras, "1.0")
    _on_pythonpath(monkeypatch, extras)

    report, results = _verify(docs)
    # A module the kernel's Python cannot import: skipped, naming it and the install.
    absent = results["needs_absent.ipynb"]
    assert (absent.status, absent.executed) == ("skipped", False)
    assert absent.error == (f"extra requirements: the kernel's Python cannot import {ABSENT}; "
                            "install them: pip install jaxko-absent-probe")
    # The module on PYTHONPATH: run in the kernel; the declared error is allowed and shown.
    ok = results["known_ok.ipynb"]
    assert (ok.status, ok.executed) == ("passed", True), ok.error
    assert ok.requirements == {MODULE: "jaxko-extra-probe 1.0"}
    assert ok.known_errors == [{"cell": 2, "cell_id": "cell-2", "exception": "OverflowError",
                                "reason": "upstream's code, planted"}]
    cells = _outputs(tmp_path, "known_ok")
    assert cells[0] == ([], "extra 1.0\n")
    assert cells[1] == ([], "OverflowError: too big")  # the run's tag is not kept
    assert cells[2][1] == "after the known error\n"
    built = tmp_path / "_build" / "notebooks" / "ko" / "known_ok.ipynb"
    assert "raises-exception" not in built.read_text(encoding="utf-8")
    # Another exception in a known-error cell fails, as does a cell that stopped raising.
    other = results["known_other.ipynb"]
    assert (other.status, other.cell) == ("failed", 2)
    assert other.error == ("ValueError: another one (the known upstream error of this cell "
                           "is KeyError; any other exception fails)")
    gone = results["known_gone.ipynb"]
    assert (gone.status, gone.cell) == ("failed", 2)
    assert gone.error.startswith("known upstream error no longer raised: KeyError was "
                                 "declared for this cell; remove it from KNOWN_ERRORS")
    # A declared cell the run skipped (skip-execution) checked nothing: no pass either.
    unrun = results["known_unrun.ipynb"]
    assert (unrun.status, unrun.cell) == ("failed", 2)
    assert unrun.error == ("known upstream error not checked: the cell did not run, KeyError "
                           "was declared for it")
    # The reports say the pass had known errors, naming the cells; never a clean pass.
    table = verify.format_table(report)
    row = next(line for line in table.splitlines() if line.startswith("known_ok.ipynb"))
    assert "1 known upstream error (scope.KNOWN_ERRORS): cell 2 OverflowError" in row
    assert "1 passed, 0 cached (1 with known upstream errors, not clean passes)" in table
    data = json.loads(json.dumps(report.as_dict()))
    assert data["passed_with_known_errors"] == 1
    [shown] = [r for r in data["results"] if r["notebook"] == "known_ok.ipynb"]
    assert shown["known_errors"][0]["cell"] == 2 and shown["status"] == "passed"
    verify.write_junit(report, tmp_path / "junit.xml")
    junit = ElementTree.parse(tmp_path / "junit.xml").getroot()
    case = next(c for c in junit.iter("testcase") if c.get("name") == "known_ok.ipynb")
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert properties["known-upstream-errors"] == \
        "1 known upstream error (scope.KNOWN_ERRORS): cell 2 OverflowError"

    # Nothing changed: cached, still with its known errors.
    _, again = _verify(docs, only=["known_ok"])
    assert again["known_ok.ipynb"].status == "cached"
    assert again["known_ok.ipynb"].known_errors == ok.known_errors
    # Another version of the extra is another cache key: run again.
    _extra_module(extras, "2.0")
    _, bumped = _verify(docs, only=["known_ok"])
    assert (bumped["known_ok.ipynb"].status, bumped["known_ok.ipynb"].executed) == ("passed", True)
    assert bumped["known_ok.ipynb"].requirements == {MODULE: "jaxko-extra-probe 2.0"}
    assert _outputs(tmp_path, "known_ok")[0][1] == "extra 2.0\n"
    # Off PYTHONPATH, the same notebook is skipped, naming the module.
    rest = os.environ["PYTHONPATH"].split(os.pathsep)[1:]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(rest))
    _, gone_extra = _verify(docs, only=["known_ok"])
    assert gone_extra["known_ok.ipynb"].status == "skipped"
    assert f"cannot import {MODULE};" in gone_extra["known_ok.ipynb"].error


def test_known_error_of_a_cell_the_notebook_lacks_fails_unrun(tmp_path, monkeypatch):
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    docs = _docs(tmp_path, {"known_gone": ["print('one cell')"]})
    _, results = _verify(docs)
    result = results["known_gone.ipynb"]
    assert (result.status, result.executed) == ("failed", False)
    assert result.error == ("known upstream error declared for cell id cell-2, which the "
                            "notebook lacks: update KNOWN_ERRORS in tools/jaxko/scope.py")


def test_the_jep_notebook_is_skipped_without_its_extras_naming_them(tmp_path, jaxko):
    """The real declarations (scope.py) through the CLI, on a stand-in notebook with the
    JEP's path and cell ids, whose extras this Python lacks (PYTHONPATH emptied)."""
    ids = {23: "JNpNwSwjihCb", 69: "U2demrM6da9Y"}
    docs = _docs(tmp_path, {"jep/9407-type-promotion": ["print(1)"] * 69}, ids)
    env = {"JAXKO_ROOT": str(tmp_path), "PYTHONPATH": str(ROOT / "tools")}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", env["PYTHONPATH"])
        if all(verify.importable(list(scope.requirement("jep/9407-type-promotion.ipynb")
                                      .modules), "cpu").values()):
            pytest.skip("this venv has the notebook extras installed: nothing is missing")
    proc = jaxko("notebooks", "verify", "--srcdir", str(docs), "--format", "json", env=env)
    assert proc.returncode == 0, proc.stderr
    [result] = json.loads(proc.stdout)["results"]
    assert result["status"] == "skipped"
    assert result["error"].startswith("extra requirements: the kernel's Python cannot import ")
    # Which of the four are missing depends on this venv; each named one is declared.
    named = result["error"].split("cannot import ", 1)[1].split(";", 1)[0].split(", ")
    assert set(named) <= {"networkx", "pandas", "tensorflow", "torch"} and named
    assert "pip install -e '.[notebook-extras]'" in result["error"]


def test_jep_declarations_match_the_pinned_notebook(shared_upstream):
    """The JEP runs in verify (not excluded), MyST-NB never executes it, and each known
    error names a cell of the pinned upstream notebook holding the code it describes."""
    rel = "jep/9407-type-promotion.ipynb"
    assert scope.execution_excluded(rel) is None
    assert "jep/9407-type-promotion.*" in scope.myst_nb_execution_excludes()
    assert scope.requirement(rel).modules == ("networkx", "pandas", "tensorflow", "torch")
    notebook = nbformat.read(str(shared_upstream / "docs" / rel), as_version=4)
    by_id = {cell.metadata.get("id"): cell.source for cell in notebook.cells}
    code = {entry.exception: by_id[entry.cell_id] for entry in scope.known_errors(rel)}
    assert "dtype='int8'" in code["OverflowError"] and "1000" in code["OverflowError"]
    assert "import torch" in code["KeyError"]


@pytest.mark.parametrize("declared", [scope.REQUIREMENTS, scope.KNOWN_ERRORS])
def test_every_declaration_names_a_built_notebook(declared, shared_upstream):
    from jaxko.notebooks import sources

    found = [s.rel for s in sources.find_notebooks(shared_upstream / "docs")]
    for entry in declared:
        assert any(scope.matches(rel, entry.pattern) for rel in found), entry.pattern


def test_site_banner_names_the_known_error_cells():
    """A page whose Korean run passed with known upstream errors says so, naming the
    cells (the run's record as `jaxko site build` writes it); a clean pass does not."""
    from jaxko.site.ext import status

    _state, clean = status.run_text({"status": "passed", "mode": "native", "known_errors": []})
    assert clean == "실행 확인: 한국어 노트북의 모든 코드 셀이 CPU에서 실행되었습니다."
    _state, line = status.run_text({"status": "cached", "mode": "native",
                                    "known_errors": [23, 69]})
    assert line.startswith(clean + " 다만 셀 2개(23, 69번째 셀)는 원문 코드가 지금의 라이브러리에서 "
                                   "내는 오류를 그대로 냅니다")
