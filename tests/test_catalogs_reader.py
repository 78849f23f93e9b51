"""The fast .po reader (:func:`jaxko.catalogs.read`) agrees with polib (:func:`jaxko.catalogs.load`),
and rejects what polib rejects."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jaxko import catalogs as pofile
from jaxko.errors import UserError

ROOT = Path(__file__).resolve().parents[1]


def as_polib(entry: pofile.PoEntry) -> tuple:
    return (entry.msgid, entry.msgstr, entry.msgctxt, list(entry.flags), entry.tcomment,
            entry.comment, entry.first_line)


def from_polib(entry: polib.POEntry) -> tuple:
    # A plural entry stands for its first form in the reader (what the rules check).
    msgstr = entry.msgstr_plural.get(0, "") if entry.msgid_plural else entry.msgstr
    return (entry.msgid, msgstr, entry.msgctxt, entry.flags, entry.tcomment,
            entry.comment, entry.linenum)


def assert_agree(path: Path) -> None:
    ours = [e for e in pofile.read(path) if e.msgid]
    catalog = polib.pofile(str(path))
    theirs = [e for e in catalog if not e.obsolete and e.msgid]
    assert [as_polib(e) for e in ours] == [from_polib(e) for e in theirs]
    # what `jaxko stats` reads besides: obsolete entries, plural forms left empty
    assert pofile.count_obsolete(pofile.read_text(path)) == len(catalog.obsolete_entries())
    assert [e.empty_form for e in ours] == [
        bool(e.msgstr_plural) and not all(e.msgstr_plural.values()) for e in theirs]


def test_agrees_on_every_committed_catalog():
    catalogs = sorted((ROOT / "locale" / "ko").rglob("*.po"))
    assert catalogs
    for path in catalogs:
        assert_agree(path)


def test_msgid_line_is_the_msgid_keyword(tmp_path):
    path = tmp_path / "a.po"
    path.write_text('msgid ""\nmsgstr ""\n"Language: ko\\n"\n\n# note\n#: a.md:1\n#, fuzzy\n'
                    'msgid "A"\nmsgstr "가"\n', encoding="utf-8")
    entry = pofile.read(path)[1]
    assert (entry.first_line, entry.line, entry.last_line) == (5, 8, 9)
    assert entry.msgstr_line == 9   # where `jaxko check` and `jaxko review queue` point
    assert entry.flags == ("fuzzy",) and entry.tcomment == "note" and entry.locations == ("a.md:1",)


# Control characters and line separators other than LF are refused by the verdict
# (test_lossless.py); everything else is fair game.
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"),
                                       whitelist_characters="\n\t"),
                max_size=120)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(st.tuples(texts.filter(bool), texts, st.booleans(), texts,
                                  st.one_of(st.none(), texts.filter(bool))),
                        min_size=1, max_size=6, unique_by=lambda t: (t[4], t[0])),
       obsolete=st.booleans())
def test_agrees_on_generated_catalogs(tmp_path, entries, obsolete):
    catalog = polib.POFile(wrapwidth=79)
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for msgid, msgstr, fuzzy, comment, msgctxt in entries:
        entry = polib.POEntry(msgid=msgid, msgstr=msgstr, msgctxt=msgctxt,
                              occurrences=[("doc.md", "3")], tcomment=comment.replace("\n", " ").strip(),
                              flags=["fuzzy"] if fuzzy else [])
        if fuzzy:
            entry.previous_msgid = msgid + " old"
        catalog.append(entry)
    if obsolete:
        catalog.append(polib.POEntry(msgid="gone", msgstr="사라짐", obsolete=True))
    path = tmp_path / "gen.po"
    catalog.save(str(path))
    assert_agree(path)


@pytest.mark.parametrize("text, line, polib_rejects", [
    # polib silently accepts these two; msgfmt rejects them, and so do we.
    ('msgid "a"\nmsgstr "b"\nmsgid "c"\n', 3, False),              # entry without msgstr
    ('msgid "a"\nmsgstr "b\n', 2, False),                           # unterminated string
    ('msgid "a"\nmsgstr "b"c"\n', 2, True),                         # unescaped quote
    ('msgid "a"\nmsgstr "b"\ngarbage\n', 3, True),                  # unknown keyword
    ('msgstr "b"\n', 1, True),                                      # msgstr without msgid
    ('"stray"\n', 1, True),                                         # continuation outside an entry
])
def test_broken_catalogs_are_one_line_errors(tmp_path, text, line, polib_rejects):
    path = tmp_path / "bad.po"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as info:
        pofile.read(path)
    assert info.value.line == line and info.value.path == str(path)
    if polib_rejects:
        with pytest.raises((OSError, ValueError)):
            polib.pofile(str(path))


def test_bad_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.po"
    path.write_bytes('msgid "a"\nmsgstr "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(UserError, match="UTF-8") as info:
        pofile.read(path)
    assert info.value.line == 2


# Lines of every kind, shuffled into catalogs: wherever the verdict accepts the text,
# the reader reads it as polib does (the verdict's refusals are tests/test_lossless.py's).
catalog_lines = st.sampled_from([
    'msgid "a"', 'msgstr "b"', 'msgid ""', 'msgstr ""', '"cont"', '"x\\"y"', '"x\\\\"',
    '"bad"quote"', '"a\\nb\\t\\\\z\\q"', 'msgctxt "c"', '#: doc.md:3', '#: a.md:1 b.rst:2',
    '#, fuzzy', '#, fuzzy, python-format', '#. extracted', '# translator', '#', '#~ msgid "old"',
    '#~ msgstr "옛"', '#| msgid "prev"', '#x odd', '', '  ', 'msgid  "two spaces"', 'msgstr[0] "p"',
    'msgstr[1] "q"', 'msgid_plural "ps"', 'garbage', '"unterminated', '"합성곱을"',
    'msgstr "배열\\"을\\""', '  msgid "indented"', 'msgstr "b"  ',
])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(catalog_lines, max_size=30))
def test_reader_reads_what_polib_reads(tmp_path, lines):
    text = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + "\n".join(lines) + "\n"
    try:
        pofile.parse(text, "gen.po")
    except UserError:
        return
    path = tmp_path / "gen.po"
    path.write_text(text, encoding="utf-8")
    assert_agree(path)


@pytest.mark.parametrize("text", [
    'msgid ""\nmsgstr ""\n"Language: ko\\n"\n\n#: a.md:1\nmsgctxt "ctx"\n"more"\nmsgid "A"\nmsgstr "가"\n',
    'msgid ""\nmsgstr ""\n\n# note\n#, fuzzy\nmsgctxt "c"\nmsgid ""\n"long "\n"text"\nmsgstr "x\\\\y\\"z\\n"\n\n\n\nmsgid "B"\nmsgstr "나"',
    'msgid ""\nmsgstr ""\n\n#: a.md:1\nmsgid "A"\nmsgstr "가"\n\n#~ msgid "old"\n#~ msgstr "옛"\n\n#| msgid "prev"\nmsgid "C"\nmsgstr "다"\n',
    'msgid ""\r\nmsgstr ""\r\n"Language: ko\\n"\r\n\r\n#: a.md:1\r\nmsgid "A"\r\nmsgstr "가"\r\n',
    'msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgid_plural "as"\nmsgstr[0] "가"\nmsgstr[1] ""\n',
    # translator comments as polib joins them: a leading lone `#` is lost, `##` is one
    'msgid ""\nmsgstr ""\n\n#\n# translator\n## two\n#\n#  three\nmsgid "a"\nmsgstr "b"\n',
])
def test_reader_reads_contexts_plurals_and_odd_blocks_as_polib(tmp_path, text):
    path = tmp_path / "odd.po"
    path.write_bytes(text.encode("utf-8"))
    assert_agree(path)


def test_msgid_line_after_a_context():
    text = 'msgid ""\nmsgstr ""\n"Language: ko\\n"\n\n#: a.md:1\nmsgctxt "ctx"\n"more"\nmsgid "A"\nmsgstr "가"\n'
    entry = pofile.parse(text, "gen.po")[1]
    assert (entry.first_line, entry.line, entry.last_line, entry.msgctxt) == (5, 8, 9, "ctxmore")


def test_msgstr_line_is_the_msgstr_keyword():
    text = ('msgid ""\nmsgstr ""\n\n#: a.md:1\nmsgid ""\n"long "\n"text"\nmsgstr ""\n"x"\n\n'
            'msgid "a"\nmsgid_plural "as"\nmsgstr[0] "가"\nmsgstr[1] ""\n')
    long, plural = pofile.parse(text, "gen.po")[1:]
    lines = text.split("\n")
    assert lines[long.msgstr_line - 1] == 'msgstr ""' and long.line == 5
    assert lines[plural.msgstr_line - 1] == 'msgstr[0] "가"'
