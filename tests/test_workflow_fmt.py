"""jaxko fmt: a Poedit-wrapped catalog comes back in our format with identical content."""

from __future__ import annotations

import json
import shutil

import polib
import pytest

from jaxko import catalogs
from jaxko.cli import main
from jaxko.workflow import fmt

from conftest import FIXTURES, ROOT, run_jaxko

POEDIT = FIXTURES / "workflow" / "fmt" / "poedit.po"


def test_poedit_catalog_round_trips(tmp_path, capsys):
    target = tmp_path / "poedit.po"
    shutil.copy(POEDIT, target)
    clean = tmp_path / "clean.po"
    clean.write_text(catalogs.render(catalogs.load(POEDIT)), encoding="utf-8")
    clean_bytes, clean_mtime = clean.read_bytes(), clean.stat().st_mtime_ns

    assert main(["fmt", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"would reformat: {target}" in out and "clean.po" not in out
    assert target.read_bytes() == POEDIT.read_bytes()  # --check writes nothing

    assert main(["fmt", str(tmp_path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["changed"] == [str(target)]
    assert fmt.content(polib.pofile(str(target))) == fmt.content(polib.pofile(str(POEDIT)))
    assert target.read_bytes() == clean_bytes
    assert clean.read_bytes() == clean_bytes and clean.stat().st_mtime_ns == clean_mtime
    # idempotent
    assert main(["fmt", "--check", str(tmp_path)]) == 0


def test_poedit_fixture_really_differs_in_wrapping():
    text = POEDIT.read_text(encoding="utf-8")
    assert any(len(line) > catalogs.WRAP_WIDTH for line in text.splitlines())
    assert '"the line breaks fall elsewhere' in text  # broken before column 79


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
def test_real_catalogs_are_formatted():
    results = fmt.format_paths([ROOT / "locale" / "ko"], check=True)
    assert len(results) >= 140
    assert [r.path for r in results if r.changed] == []


def test_broken_catalog_is_one_line_and_untouched(tmp_path):
    bad = tmp_path / "bad.po"
    bad.write_text('msgid "a"\nmsgstr "b"\nmsgstr "c"\n', encoding="utf-8")
    data = bad.read_bytes()
    proc = run_jaxko("fmt", str(bad))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert str(bad) in proc.stderr and "Traceback" not in proc.stderr
    assert bad.read_bytes() == data
    assert list(tmp_path.iterdir()) == [bad]  # no temporary files left behind


def test_crlf_catalog_round_trips(tmp_path):
    """A catalog saved with Windows line ends comes back with LF and the same content."""
    target = tmp_path / "crlf.po"
    target.write_bytes(POEDIT.read_bytes().replace(b"\n", b"\r\n"))
    assert fmt.format_catalog(target).changed
    assert b"\r" not in target.read_bytes()
    assert fmt.content(polib.pofile(str(target))) == fmt.content(polib.pofile(str(POEDIT)))
