"""jaxko assign and locale/ko/assignments.yaml: editing, validation, the real file."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from jaxko.cli import main
from jaxko.workflow import assignments, documents

from conftest import FIXTURES, ROOT, run_jaxko

STATS = FIXTURES / "workflow" / "stats" / "locale"


@pytest.fixture
def locale(tmp_path) -> Path:
    target = tmp_path / "locale"
    shutil.copytree(STATS, target)
    return target


def known(locale: Path) -> dict[str, documents.Document]:
    return {d.docname: d for d, _ in documents.scan_documents(locale / "ko" / "LC_MESSAGES")}


def test_real_file_is_valid_and_lists_the_documents_in_progress():
    path = ROOT / "locale" / "ko" / "assignments.yaml"
    table, problems = assignments.parse(path, known(ROOT / "locale"))
    assert problems == []
    expected = {
        "index.rst", "installation.md", "notebooks/thinking_in_jax.ipynb",
        "notebooks/Common_Gotchas_in_JAX.ipynb", "key-concepts.md", "glossary.rst",
        "jax-101.rst", "jit-compilation.md", "automatic-vectorization.md",
        "automatic-differentiation.md", "pytrees.md", "random-numbers.md", "parallel.ipynb",
        "control-flow.md", "tracing.md", "stateful-computations.md",
    }
    assert expected <= set(table.entries)
    # The file is in canonical form: what `jaxko assign` would write.
    assert assignments.render(table) == path.read_text(encoding="utf-8")


def test_reserve_then_review_then_done(locale, capsys):
    yaml_path = locale / "ko" / "assignments.yaml"
    before = yaml_path.read_bytes()
    assert main(["assign", "jep/263-prng.po", "--translator", "yoon",
                 "--locale-dir", str(locale), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["document"] == "jep/263-prng.md" and out["before"] is None
    assert out["after"]["status"] == "reserved" and out["after"]["translators"] == ["yoon"]
    table = assignments.load(yaml_path, known(locale))
    assert table.entries["jep/263-prng.md"].since == dt.date.today()
    # the other documents' entries are unchanged in content
    old = assignments.parse(Path(_write(locale.parent / "old.yaml", before)))[0]
    for key, entry in old.entries.items():
        assert table.entries[key].as_dict() == entry.as_dict()

    assert main(["assign", "jep/263-prng", "--status", "in review", "--reviewer", "han",
                 "--locale-dir", str(locale)]) == 0
    assert "status in-review" in capsys.readouterr().out
    assert main(["assign", "jep/263-prng.md", "--status", "done", "--locale-dir", str(locale)]) == 0
    entry = assignments.load(yaml_path).entries["jep/263-prng.md"]
    assert (entry.translators, entry.reviewers, entry.status) == (("yoon",), ("han",), "done")


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_taking_over_needs_force(locale, capsys):
    yaml_path = locale / "ko" / "assignments.yaml"
    before = yaml_path.read_bytes()
    assert main(["assign", "index", "--translator", "yoon", "--locale-dir", str(locale)]) == 2
    err = capsys.readouterr().err
    assert "index.rst already has translator kim (since 2025-06-01)" in err and "--force" in err
    assert yaml_path.read_bytes() == before
    # the same translator again is not a take-over
    assert main(["assign", "index.rst", "--translator", "kim", "--locale-dir", str(locale)]) == 0
    capsys.readouterr()
    assert main(["assign", "index.rst", "--translator", "yoon", "--force",
                 "--locale-dir", str(locale)]) == 0
    assert assignments.load(yaml_path).entries["index.rst"].translators == ("yoon",)


def test_release_and_show(locale, capsys):
    assert main(["assign", "notebooks/thinking_in_jax.ipynb", "--locale-dir", str(locale)]) == 0
    assert "translator choi, kim" in capsys.readouterr().out
    assert main(["assign", "notebooks/thinking_in_jax", "--release", "--locale-dir", str(locale)]) == 0
    capsys.readouterr()
    table = assignments.load(locale / "ko" / "assignments.yaml")
    assert "notebooks/thinking_in_jax.ipynb" not in table.entries and "index.rst" in table.entries


def test_unknown_document(locale, capsys):
    assert main(["assign", "nope.md", "--translator", "x", "--locale-dir", str(locale)]) == 2
    assert "no catalog for document 'nope.md'" in capsys.readouterr().err


BAD = """\
index.rst:
  translator: kim
  status: finished
index.rst:
  translator: lee
  status: done
missing.md:
  translator: kim
  status: reserved
notebooks/thinking_in_jax.md:
  translator: kim
  status: translating
  colour: blue
jep/263-prng.md:
  status: reserved
  since: last week
"""


def test_check_lists_every_problem_with_lines(locale):
    bad = locale / "ko" / "assignments.yaml"
    bad.write_text(BAD, encoding="utf-8")
    proc = run_jaxko("assign", "--check", "--locale-dir", str(locale))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stdout.splitlines()
    assert f"{bad}:3: index.rst: unknown status 'finished'" in lines[0]
    assert any(f"{bad}:4: index.rst is listed twice (first at line 1)" in line for line in lines)
    assert any(f"{bad}:7: missing.md: no catalog" in line for line in lines)
    assert any(f"{bad}:10: notebooks/thinking_in_jax.md: the built source is "
               "notebooks/thinking_in_jax.ipynb" in line for line in lines)
    assert any(f"{bad}:13: notebooks/thinking_in_jax.md: unknown field 'colour'" in line for line in lines)
    assert any(f"{bad}:16: jep/263-prng.md: since must be a date" in line for line in lines)
    assert any(f"{bad}:14: jep/263-prng.md: status reserved needs a translator" in line for line in lines)
    # a clean look-alike passes
    shutil.copy(STATS / "ko" / "assignments.yaml", bad)
    assert run_jaxko("assign", "--check", "--locale-dir", str(locale)).returncode == 0


def test_yaml_syntax_error_is_one_line(locale):
    (locale / "ko" / "assignments.yaml").write_text("index.rst:\n  translator: [kim\n", encoding="utf-8")
    proc = run_jaxko("stats", "--locale-dir", str(locale))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "assignments.yaml:3: YAML syntax error" in proc.stderr


@pytest.mark.parametrize("name", ["yes", "null", "1.5", "a: b", "#x", "[x]", "김철수", "kim-lee_2"])
def test_render_round_trips_awkward_names(tmp_path, name):
    table = assignments.Table(tmp_path / "a.yaml")
    table.entries["index.rst"] = assignments.Assignment(
        "index.rst", translators=(name, "second"), reviewers=(name,), status="in-review",
        since=dt.date(2025, 1, 2), note='quote " and: colon')
    assignments.save(table)
    again = assignments.load(table.path)
    assert again.entries["index.rst"].as_dict() == table.entries["index.rst"].as_dict()
