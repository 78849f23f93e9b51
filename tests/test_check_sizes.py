"""A message too long to check is one line of error, before any parser reads it (#41).

The rules' parsers take memory many times a text's size (BENCHMARKS.md has the
figures of a 2 MB msgstr), in `jaxko check` and in the site gate, which runs it. Now
such a msgstr, or any string over the absolute limit, is refused as bad input
(`file:line: what; what to do`, exit 2). The committed catalogs stay well inside.
"""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

from conftest import ROOT
from jaxko import catalogs as pofile
from jaxko.cli import main


def _catalog(tmp_path: Path, msgid: str, msgstr: str) -> Path:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    po.append(polib.POEntry(msgid="Before.", msgstr="앞입니다.", occurrences=[("page.md", "1")]))
    po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, occurrences=[("page.md", "3")]))
    path = tmp_path / "page.po"
    po.save(str(path))
    return path


def _run(capsys, path: Path) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["check", "--no-glossary", "--no-cache", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_hostile_msgstr_is_refused_with_its_line(tmp_path, capsys):
    msgstr = "가나다 `코드` *강조* [링크](https://x.y) " * 60_000
    path = _catalog(tmp_path, "A short sentence.", msgstr)
    text = path.read_text(encoding="utf-8").splitlines()
    # the reader refuses the file, so the msgstr's line is found by hand: the last one
    line = max(n for n, t in enumerate(text, 1) if t.startswith("msgstr"))
    code, out, err = _run(capsys, path)
    assert code == 2 and "Traceback" not in err and out == ""
    assert f"{path}:{line}: msgstr is {len(msgstr):,} characters, over the limit of " in err
    assert len(err.strip().splitlines()) == 1


def test_a_hostile_msgid_is_refused(tmp_path, capsys):
    path = _catalog(tmp_path, "x" * (pofile.MAX_STRING + 1), "가")
    code, _out, err = _run(capsys, path)
    assert code == 2 and f"msgid is {pofile.MAX_STRING + 1:,} characters" in err


@pytest.mark.parametrize("extra", [0, pofile.MSGSTR_EXTRA])
def test_a_long_translation_of_a_long_message_passes(tmp_path, capsys, extra):
    msgid = "word " * 2000
    path = _catalog(tmp_path, msgid, "낱말 " * 2000 + "가" * extra)
    code, _out, err = _run(capsys, path)
    assert code == 0, err


def test_the_committed_catalogs_are_inside_the_limits():
    for path in sorted((ROOT / "locale" / "ko" / "LC_MESSAGES").rglob("*.po")):
        pofile.read(path)   # raises on a message over the limit
