"""jaxko stats: the fast scanner agrees with polib; filters, formats and errors."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import polib
import pytest

from jaxko import catalogs
from jaxko.cli import main
from jaxko.workflow import documents, stats

from conftest import FIXTURES, ROOT, run_jaxko

STATS = FIXTURES / "workflow" / "stats" / "locale"


def polib_counts(path: Path) -> dict:
    """Counts computed independently with polib's own entry lists."""
    po = polib.pofile(str(path))
    active = [e for e in po if not e.obsolete]
    words = lambda entries: sum(len(e.msgid.split()) for e in entries)  # noqa: E731
    return {
        "messages": {"total": len(active), "translated": len(po.translated_entries()),
                     "fuzzy": len(po.fuzzy_entries()),
                     "untranslated": len(po.untranslated_entries())},
        "words": {"total": words(active), "translated": words(po.translated_entries()),
                  "fuzzy": words(po.fuzzy_entries()),
                  "untranslated": words(po.untranslated_entries())},
        "obsolete": len(po.obsolete_entries()),
    }


def stats_json(capsys, *args: str) -> dict:
    assert main(["stats", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
def test_real_catalogs_match_polib(tmp_path, capsys):
    # A snapshot of the real catalogs, so both counts read the same files even while
    # translators save catalogs in this tree.
    shutil.copytree(ROOT / "locale" / "ko", tmp_path / "locale" / "ko")
    data = stats_json(capsys, "--locale-dir", str(tmp_path / "locale"))
    catalogs_dir = tmp_path / "locale" / "ko" / "LC_MESSAGES"
    # sphinx.po overrides Sphinx's own messages; it is no document
    expected = {p.relative_to(catalogs_dir).with_suffix("").as_posix(): polib_counts(p)
                for p in sorted(catalogs_dir.rglob("*.po")) if p.name != "sphinx.po"
                or p.parent != catalogs_dir}
    assert len(data["documents"]) == len(expected) >= 140
    for doc in data["documents"]:
        want = expected[doc["document"]]
        got = {key: doc[key] for key in ("messages", "words", "obsolete")}
        assert got == want, doc["document"]
    total = data["total"]["messages"]
    assert total["total"] == sum(e["messages"]["total"] for e in expected.values())
    assert total["translated"] + total["fuzzy"] + total["untranslated"] == total["total"]


def test_scanner_matches_polib_on_mixed_states(tmp_path):
    """Real catalogs with seeded random translated/fuzzy/obsolete/plural states."""
    rng = random.Random(9)
    source_dir = ROOT / "locale" / "ko" / "LC_MESSAGES"
    chosen = sorted(source_dir.rglob("*.po"))[::12]
    for number, path in enumerate(chosen):
        po = catalogs.load(path)
        for entry in po:
            roll = rng.random()
            if roll < 0.3:
                entry.msgstr = "번역 \"인용\" \\ 문장\n다음 줄"
            elif roll < 0.45:
                entry.msgstr = "퍼지 제안"
                entry.flags.append("fuzzy")
                entry.previous_msgid = "old text"
            elif roll < 0.5:
                entry.flags.append("fuzzy")
            elif roll < 0.55:
                entry.obsolete = True
                entry.msgstr = "폐기"
            elif roll < 0.6:
                entry.msgctxt = "ctx"
        out = tmp_path / f"{number}.po"
        catalogs.save(po, out)
        got = documents.scan(out).counts
        want = polib_counts(out)
        assert (got.messages, got.translated, got.fuzzy, got.untranslated, got.obsolete) == (
            want["messages"]["total"], want["messages"]["translated"], want["messages"]["fuzzy"],
            want["messages"]["untranslated"], want["obsolete"]), path
        assert (got.words, got.words_translated, got.words_fuzzy) == (
            want["words"]["total"], want["words"]["translated"], want["words"]["fuzzy"]), path


def test_fixture_counts_and_assignments(capsys):
    data = stats_json(capsys, "--locale-dir", str(STATS))
    docs = {d["document"]: d for d in data["documents"]}
    index = docs["index"]
    # header, plural with an empty form, fuzzy without msgstr, obsolete (fuzzy or not)
    assert index["messages"] == {"total": 8, "translated": 3, "fuzzy": 2, "untranslated": 3}
    assert index["obsolete"] == 2
    assert index == {**index, "source": "index.rst", "section": "getting-started",
                     "translators": ["kim"], "reviewers": ["lee", "park"],
                     "status": "in-review", "since": "2025-06-01"}
    for name in docs:
        assert {k: docs[name][k] for k in ("messages", "words", "obsolete")} == \
            polib_counts(STATS / "ko" / "LC_MESSAGES" / f"{name}.po")
    assert docs["notebooks/thinking_in_jax"]["translators"] == ["choi", "kim"]
    assert docs["jep/263-prng"]["status"] is None
    assert [s["section"] for s in data["sections"]] == ["getting-started", "jep"]
    assert data["total"]["messages"]["total"] == 13


def test_filters(capsys):
    names = lambda *a: [d["document"] for d in stats_json(capsys, "--locale-dir", str(STATS), *a)["documents"]]  # noqa: E731
    assert names("--todo") == ["index", "notebooks/thinking_in_jax", "jep/263-prng"]
    assert names("--available") == ["jep/263-prng"]
    assert names("--section", "jep") == ["jep/263-prng"]
    assert names("--section", "시작하기") == ["index", "notebooks/thinking_in_jax"]
    assert names("--assignee", "LEE") == ["index"]
    assert names("--assignee", "kim") == ["index", "notebooks/thinking_in_jax"]
    assert names("--sort", "percent") == ["notebooks/thinking_in_jax", "index", "jep/263-prng"]


def test_complete_document_is_not_todo(tmp_path, capsys):
    locale = tmp_path / "locale"
    shutil.copytree(STATS, locale)
    (locale / "ko" / "assignments.yaml").unlink()
    po = catalogs.load(locale / "ko" / "LC_MESSAGES" / "jep" / "263-prng.po")
    for entry in po:
        entry.msgstr = "번역"
    catalogs.save(po)
    assert main(["stats", "--locale-dir", str(locale), "--todo", "--format", "json"]) == 0
    todo = [d["document"] for d in json.loads(capsys.readouterr().out)["documents"]]
    assert todo == ["index", "notebooks/thinking_in_jax"]


def test_text_and_markdown(capsys):
    assert main(["stats", "--locale-dir", str(STATS)]) == 0
    text = capsys.readouterr().out
    assert "# Getting started (시작하기)" in text
    assert "index.rst" in text and "kim reviewer assigned: lee, park (in-review)" in text
    assert "Total of all 3 documents: 5/13 messages translated" in text
    assert main(["stats", "--locale-dir", str(STATS), "--format", "markdown"]) == 0
    markdown = capsys.readouterr().out
    assert "| 시작하기 | `index.rst` | 3 | 2 | 3 | 37.5% | 0.0% | 0.0% | kim | lee, park (예정) | 검토 중 |" in markdown


def test_document_stats_for_the_site():
    result = stats.document_stats(STATS)
    index = result["index"]
    assert index.counts.translated == 3 and index.counts.fuzzy == 2
    assert index.translators == ("kim",) and index.reviewers == ("lee", "park")
    assert index.section.title_ko == "시작하기"
    assert result["jep/263-prng"].status is None


@pytest.mark.parametrize("text, where", [
    ('msgid "a"\nmsgstr "b\n', ":2:"),
    ('msgid "a"\nmsgstr "b"\nbogus "x"\n', ":3:"),
])
def test_malformed_catalog_is_one_line(tmp_path, text, where):
    bad = tmp_path / "locale" / "ko" / "LC_MESSAGES" / "index.po"
    bad.parent.mkdir(parents=True)
    bad.write_text(text, encoding="utf-8")
    proc = run_jaxko("stats", "--locale-dir", str(tmp_path / "locale"))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and f"index.po{where}" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unknown_section_and_bad_assignments(tmp_path, capsys):
    assert main(["stats", "--locale-dir", str(STATS), "--section", "nope"]) == 2
    assert "unknown section 'nope'" in capsys.readouterr().err
    bad = tmp_path / "a.yaml"
    bad.write_text("index.rst:\n  translator: kim\n  status: finished\n", encoding="utf-8")
    assert main(["stats", "--locale-dir", str(STATS), "--assignments", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:3: index.rst: unknown status 'finished'" in err


def test_prose_counts_exclude_messages_copied_unchanged(tmp_path, capsys):
    # honest coverage: a code block whose msgstr equals its msgid is translated but no
    # Korean prose; stats reports it apart
    catalogs_dir = tmp_path / "locale" / "ko" / "LC_MESSAGES"
    catalogs_dir.mkdir(parents=True)
    (catalogs_dir / "doc.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#: doc.md:1\nmsgid "Hello world"\nmsgstr "안녕하세요"\n\n'
        '#: doc.md:2\nmsgid "x = jnp.ones(3)"\nmsgstr "x = jnp.ones(3)"\n\n'
        '#: doc.md:3\nmsgid "`jax.jit`"\nmsgstr "`jax.jit`"\n\n'
        '#: doc.md:4\nmsgid "Untranslated"\nmsgstr ""\n', encoding="utf-8")
    data = stats_json(capsys, "--locale-dir", str(tmp_path / "locale"))
    (doc,) = data["documents"]
    assert doc["messages"]["translated"] == 3
    assert doc["translated_prose"] == 1 and doc["translated_copied"] == 2
    assert doc["percent_prose"] == 25.0
    assert main(["stats", "--locale-dir", str(tmp_path / "locale")]) == 0
    assert "Prose: 1/4 translated messages whose Korean differs from the English" \
        in capsys.readouterr().out


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
def test_prose_counts_match_polib_on_real_catalogs(tmp_path, capsys):
    shutil.copytree(ROOT / "locale" / "ko", tmp_path / "locale" / "ko")
    data = stats_json(capsys, "--locale-dir", str(tmp_path / "locale"))
    catalogs_dir = tmp_path / "locale" / "ko" / "LC_MESSAGES"
    want = 0
    for doc in data["documents"]:
        po = polib.pofile(str(catalogs_dir / f"{doc['document']}.po"))
        prose = sum(1 for e in po.translated_entries() if e.msgstr != e.msgid)
        assert doc["translated_prose"] == prose, doc["document"]
        want += prose
    assert data["total"]["translated_prose"] == want
    assert data["total"]["translated_copied"] == data["total"]["messages"]["translated"] - want
