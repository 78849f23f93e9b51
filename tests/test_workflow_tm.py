"""jaxko tm fill: exact matches (obsolete included) translate; near matches stay fuzzy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polib
import pytest

from jaxko.cli import main

from conftest import FIXTURES

TM = FIXTURES / "workflow" / "tm"
MOVED = "Pure functions always return the same output for the same input and have no side effects."
NEAR = ("JAX transformations such as jit and vmap compose with one another, so you can "
        "vectorize a compiled function or compile a vectorised one.")
NEAR_SOURCE = NEAR.replace("vectorised", "vectorized")
RANDOM = "Random numbers in JAX need explicit PRNG keys."
SHARDING = "Sharding splits an array across devices so each device holds a piece of it."


@pytest.fixture
def work(tmp_path) -> Path:
    shutil.copytree(TM, tmp_path / "tm")
    return tmp_path / "tm"


def entries(path: Path) -> dict[str, polib.POEntry]:
    return {e.msgid: e for e in polib.pofile(str(path)) if not e.obsolete}


def test_moved_paragraph_and_near_match(work, capsys):
    (work / "kept.po").unlink()
    old_bytes = (work / "old_page.po").read_bytes()
    assert main(["tm", "fill", str(work / "new_page.po"), "--memory", str(work),
                 "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["exact"], report["near"]) == (1, 2)

    new = entries(work / "new_page.po")
    # the paragraph that moved here is refilled from the old page's obsolete entry: translated
    moved = new[MOVED]
    assert moved.msgstr == "순수 함수는 같은 입력에 항상 같은 출력을 돌려주며 부수 효과가 없습니다."
    assert moved.translated() and not moved.fuzzy and not moved.tcomment
    # a near match is offered as fuzzy with the English it translated and its source
    near = new[NEAR]
    assert near.fuzzy and not near.translated()
    assert near.msgstr.startswith("jit, vmap 같은 JAX 변환은")
    assert near.previous_msgid == NEAR_SOURCE
    assert near.tcomment.startswith("tm: ") and "old_page.md:3" in near.tcomment
    # a fuzzy (unreviewed) translation is never a source
    assert new[RANDOM].msgstr == "" and not new[RANDOM].fuzzy
    # a clean look-alike with nothing similar stays untouched
    assert new[SHARDING].msgstr == "" and not new[SHARDING].fuzzy
    # the memory's own catalog is not written
    assert (work / "old_page.po").read_bytes() == old_bytes


def test_never_overwrites(work, capsys):
    kept_bytes = (work / "kept.po").read_bytes()
    old_bytes = (work / "old_page.po").read_bytes()
    assert main(["tm", "fill", str(work), "--memory", str(work)]) == 0
    out = capsys.readouterr().out
    assert "filled 1 exact (translated) and 2 near (fuzzy) in 1 of 3 catalogs" in out
    # translated, fuzzy-with-suggestion and fuzzy-without-msgstr entries stay as they were
    assert (work / "kept.po").read_bytes() == kept_bytes
    assert (work / "old_page.po").read_bytes() == old_bytes
    # an active translation is preferred to an obsolete one
    assert entries(work / "new_page.po")[MOVED].msgstr.startswith("순수 함수는 입력이 같으면")


def test_dry_run_and_exact_only(work, capsys):
    before = {p.name: p.read_bytes() for p in work.iterdir()}
    assert main(["tm", "fill", str(work), "--memory", str(work), "--dry-run"]) == 0
    assert "would fill 1 exact (translated) and 2 near (fuzzy)" in capsys.readouterr().out
    assert {p.name: p.read_bytes() for p in work.iterdir()} == before
    assert main(["tm", "fill", str(work), "--memory", str(work), "--exact-only", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["near"] == 0
    assert entries(work / "new_page.po")[NEAR].msgstr == ""


def test_threshold(work, capsys):
    assert main(["tm", "fill", str(work), "--memory", str(work), "--threshold", "1.0", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["near"] == 0
    assert main(["tm", "fill", str(work), "--threshold", "3"]) == 2
    assert "out of range" in capsys.readouterr().err


def test_code_near_match_carries_comments_onto_this_code(work, capsys):
    assert main(["tm", "fill", str(work / "new_page.po"), "--memory", str(work)]) == 0
    by_line = {e.occurrences[0][1]: e for e in polib.pofile(str(work / "new_page.po"))
               if e.occurrences[0][0] == "new_page.ipynb"}
    squares, ones = by_line["20002"], by_line["30002"]
    # this cell's own code (arange(12)), the other cell's translated comments, still fuzzy
    assert squares.msgstr == "# 숫자 몇 개의 제곱을 계산합니다\nx = jnp.arange(12)\ny = x ** 2  # 원소별"
    assert squares.fuzzy and squares.tcomment.startswith("tm: ")
    # the similar cell's translation added a comment: nothing safe to carry, no suggestion
    assert ones.msgstr == "" and not ones.fuzzy
