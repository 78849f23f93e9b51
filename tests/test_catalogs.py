"""catalogs.py: the one parser and writer every tool goes through."""

from __future__ import annotations

import pytest

from conftest import ROOT
from jaxko import catalogs
from jaxko.errors import UserError

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def test_unterminated_string_is_rejected_with_its_line(tmp_path):
    # polib would accept this and silently drop the last character of the msgstr
    path = tmp_path / "bad.po"
    path.write_text(HEADER + 'msgid "a"\nmsgstr "unterminated\n\nmsgid "b"\nmsgstr "c"\n')
    with pytest.raises(UserError) as err:
        catalogs.load(path)
    assert err.value.format().startswith(f"{path}:6: ")


@pytest.mark.parametrize("body", [
    'msgid "a"\nmsgstr "an \\" escaped quote"\n',
    'msgid "a"\nmsgstr ""\n"continued"  \n',
    '#, fuzzy\n#| msgid "previous"\nmsgid "a"\nmsgstr "b"\n',
    '#~ msgid "old"\n#~ msgstr "kept"\n',
])
def test_closed_strings_pass(tmp_path, body):
    path = tmp_path / "ok.po"
    path.write_text(HEADER + body)
    catalogs.load(path)


def test_crlf_catalog_loads(tmp_path):
    path = tmp_path / "crlf.po"
    path.write_bytes((HEADER + 'msgid "a"\nmsgstr "b"\n').replace("\n", "\r\n").encode())
    assert [(e.msgid, e.msgstr) for e in catalogs.load(path)] == [("a", "b")]


def test_vertical_tab_in_a_message_is_refused_with_its_line(tmp_path):
    """docutils reads \v as a line break and the checker does not: no catalog holds one."""
    path = tmp_path / "vt.po"
    path.write_text(HEADER + 'msgid "x = 1\x0b  y = 2"\nmsgstr ""\n', encoding="utf-8")
    with pytest.raises(UserError) as err:
        catalogs.load(path)
    assert f"{path}:5: control character U+000B" in err.value.format()


def test_upstream_text_with_a_control_character_is_not_extracted(tmp_path):
    """The one upstream code block holding a vertical tab (async_note.md) stays out of
    the templates, so no catalog is refused for upstream's text; the rest is extracted."""
    from jaxko import extract

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(
        "# Title\n\nA paragraph.\n\n```python\nx = 1\x0b  y = 2\n```\n\n```python\nz = 3\n```\n",
        encoding="utf-8")
    result = extract.extract(root=ROOT, srcdir=docs, outdir=tmp_path / "pot")
    text = (result.pot_dir / "index.pot").read_text(encoding="utf-8")
    assert 'msgid "A paragraph."' in text and 'msgid "z = 3\\n"' in text
    assert "x = 1" not in text


def test_invalid_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.po"
    path.write_bytes(HEADER.encode() + b'msgid "a"\nmsgstr "caf\xe9"\n')
    with pytest.raises(UserError) as err:
        catalogs.load(path)
    assert f"{path}:6:" in err.value.format()


def test_missing_catalog_is_a_user_error(tmp_path):
    with pytest.raises(UserError):
        catalogs.load(tmp_path / "nope.po")


def test_save_is_atomic_and_skips_identical_content(tmp_path):
    path = tmp_path / "a.po"
    path.write_text(HEADER + 'msgid "a"\nmsgstr "b"\n')
    po = catalogs.load(path)
    assert catalogs.save(po) is True  # first save normalises the format
    mtime = path.stat().st_mtime_ns
    assert catalogs.save(catalogs.load(path)) is False
    assert path.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.po"]  # no temp files left


def test_merge_prefers_one_to_one_fuzzy_matches():
    import polib
    po = polib.POFile()
    po.append(polib.POEntry(msgid="The quick brown fox jumps over the lazy dog.", msgstr="여우"))
    pot = polib.POFile()
    pot.append(polib.POEntry(msgid="The quick brown fox jumps over the lazy cat."))
    pot.append(polib.POEntry(msgid="The quick brown fox jumps over the lazy cow."))
    merged, stats = catalogs.merge(po, pot)
    fuzzy = [e for e in merged if e.fuzzy]
    assert len(fuzzy) == 1 and fuzzy[0].previous_msgid == "The quick brown fox jumps over the lazy dog."
    assert (stats.fuzzy, stats.obsolete, stats.new) == (1, 0, 1)
