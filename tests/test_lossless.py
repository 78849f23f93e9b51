"""Nothing a translator wrote is lost, and every command agrees on what a valid catalog is.

Duplicate msgids, plural entries and symlinked catalogs through `update`, `fmt` and
`stats` (the real CLI); then one table of malformed catalogs, each given to every
command that reads catalogs: the same one-line `file:line` error, exit 2, no
traceback, and the file's bytes unchanged.

The commands run in this process (``jaxko.cli.main``, stdout and stderr captured at
the file descriptors, an escaping exception fails the test); one test gives a malformed
catalog to every command as a real process, where exit status and stderr are the
user's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import polib
import pytest

from conftest import run_jaxko, run_jaxko_in_process

HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Plural-Forms: nplurals=1; plural=0;\\n"\n\n')
POT_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


@pytest.fixture
def jaxko():
    """The CLI in this process (conftest's ``jaxko`` is a subprocess)."""
    return run_jaxko_in_process


def _project(tmp_path: Path, po_body: str, pot_body: str) -> tuple[Path, Path, Path]:
    """A pot dir and a locale dir with one catalog, doc.po."""
    pot_dir = tmp_path / "gettext"
    pot_dir.mkdir()
    (pot_dir / "doc.pot").write_text(POT_HEADER + pot_body, encoding="utf-8")
    catalogs = tmp_path / "locale" / "ko" / "LC_MESSAGES"
    catalogs.mkdir(parents=True)
    po = catalogs / "doc.po"
    po.write_text(HEADER + po_body, encoding="utf-8")
    return pot_dir, tmp_path / "locale", po


def _update(jaxko, pot_dir: Path, locale: Path, tmp_path: Path):
    return jaxko("update", "--pot-dir", str(pot_dir), "--locale-dir", str(locale),
                 "--srcdir", str(tmp_path), "--format", "json")


def test_duplicate_msgid_stops_update_and_fmt_merges_keeping_both(tmp_path, jaxko):
    body = ('#: doc.md:1\nmsgid "Hello"\nmsgstr "안녕"\n\n'
            '#: doc.md:9\nmsgid "Hello"\nmsgstr "안녕하세요"\n\n'
            'msgid "Bye"\nmsgstr "잘 가"\n\nmsgid "Bye"\nmsgstr "잘 가"\n')
    pot_dir, locale, po = _project(tmp_path, body, 'msgid "Hello"\nmsgstr ""\n\n'
                                                   'msgid "Bye"\nmsgstr ""\n')
    before = po.read_bytes()
    for proc in (_update(jaxko, pot_dir, locale, tmp_path), jaxko("fmt", str(po)),
                 jaxko("check", str(po)),
                 jaxko("stats", "--locale-dir", str(locale))):
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert proc.stderr.strip() == (f"jaxko: {po}:10: duplicate msgid (also at line 6); merge "
                                       f"them with `jaxko fmt --merge-duplicates {po}`")
    assert po.read_bytes() == before

    proc = jaxko("fmt", "--merge-duplicates", str(po), check=True)
    assert "2 duplicate entries merged" in proc.stdout
    merged = polib.pofile(str(po))
    [hello] = [e for e in merged if e.msgid == "Hello"]
    [bye] = [e for e in merged if e.msgid == "Bye"]
    assert hello.fuzzy and hello.msgstr == "안녕" and "안녕하세요" in hello.tcomment
    assert ("doc.md", "9") in hello.occurrences
    assert not bye.fuzzy and bye.msgstr == "잘 가"  # equal translations merge silently
    assert _update(jaxko, pot_dir, locale, tmp_path).returncode == 0
    assert "안녕하세요" in po.read_text(encoding="utf-8")


def test_plural_entries_survive_update_and_fmt_and_are_counted(tmp_path, jaxko):
    plural = 'msgid "one file"\nmsgid_plural "%d files"\nmsgstr[0] "파일 %d개"\n'
    gone = 'msgid "one dir"\nmsgid_plural "%d dirs"\nmsgstr[0] "폴더 %d개"\n'
    pot_dir, locale, po = _project(tmp_path, plural + "\n" + gone,
                                   'msgid "one file"\nmsgid_plural "%d files"\n'
                                   'msgstr[0] ""\nmsgstr[1] ""\n')
    proc = _update(jaxko, pot_dir, locale, tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert (summary["translated_kept"], summary["obsolete"]) == (1, 1)
    catalog = polib.pofile(str(po))
    [kept] = [e for e in catalog if e.msgid == "one file"]
    assert kept.msgid_plural == "%d files" and kept.msgstr_plural == {0: "파일 %d개"}
    [obsolete] = [e for e in catalog if e.msgid == "one dir"]
    assert obsolete.obsolete and obsolete.msgstr_plural == {0: "폴더 %d개"}

    before = po.read_text(encoding="utf-8")
    assert jaxko("fmt", str(po), check=True).returncode == 0
    assert "파일 %d개" in po.read_text(encoding="utf-8") and "폴더 %d개" in before
    assert _update(jaxko, pot_dir, locale, tmp_path).returncode == 0
    assert po.read_text(encoding="utf-8") == before  # a second update changes nothing

    stats = json.loads(jaxko("stats", "--locale-dir", str(locale), "--format", "json",
                             check=True).stdout)
    text = json.dumps(stats)
    assert '"translated": 1' in text and '"obsolete": 1' in text


def test_plural_entries_survive_tm_glean_and_the_site(tmp_path, jaxko):
    """tm and glean leave plural entries as they are; the site builds with them and
    shows the singular messages' translations."""
    plural = ('msgid "one file"\nmsgid_plural "%d files"\nmsgstr[0] "파일 %d개"\n\n'
              '#, fuzzy\n#| msgid "one dir"\nmsgid "one folder"\nmsgid_plural "%d folders"\n'
              'msgstr[0] "폴더 %d개"\n\nmsgid "Text."\nmsgstr "본문입니다."\n\n'
              'msgid "Other text."\nmsgstr ""\n\n#~ msgid "gone"\n#~ msgid_plural "gones"\n'
              '#~ msgstr[0] "사라짐"\n')
    _, locale, po = _project(tmp_path, plural, "")
    jaxko("fmt", str(po), check=True)
    before = po.read_bytes()
    jaxko("tm", "fill", str(po), check=True)
    jaxko("glean", str(po), check=True)
    assert po.read_bytes() == before
    catalog = polib.pofile(str(po))
    assert {e.msgid: e.msgstr_plural for e in catalog if e.msgid_plural} == {
        "one file": {0: "파일 %d개"}, "one folder": {0: "폴더 %d개"}, "gone": {0: "사라짐"}}
    stats = json.loads(jaxko("stats", "--locale-dir", str(locale), "--format", "json",
                             check=True).stdout)
    text = json.dumps(stats)
    assert '"translated": 2' in text and '"fuzzy": 1' in text and '"obsolete": 1' in text
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "doc.rst").write_text("Title\n=====\n\nText.\n\nOther text.\n", encoding="utf-8")
    (docs / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   doc\n", encoding="utf-8")
    jaxko("site", "build", "--no-execute", "--no-notebooks", "--srcdir", str(docs), "--outdir",
          str(tmp_path / "html"), "--locale-dir", str(locale), check=True)
    assert "본문입니다." in (tmp_path / "html" / "doc.html").read_text(encoding="utf-8")
    assert po.read_bytes() == before


def test_plural_entry_new_in_the_template_gets_plural_slots(tmp_path, jaxko):
    pot_dir, locale, po = _project(tmp_path, "", 'msgid "one"\nmsgid_plural "many"\n'
                                                 'msgstr[0] ""\nmsgstr[1] ""\n')
    assert _update(jaxko, pot_dir, locale, tmp_path).returncode == 0
    text = po.read_text(encoding="utf-8")
    assert 'msgid_plural "many"\nmsgstr[0] ""\n' in text
    assert jaxko("check", str(po)).returncode == 0


def test_symlinked_catalog_stays_a_symlink_with_its_mode(tmp_path, jaxko):
    pot_dir, locale, po = _project(tmp_path, 'msgid "a"\nmsgstr "가"\n',
                                   'msgid "a"\nmsgstr ""\n\nmsgid "b"\nmsgstr ""\n')
    target = tmp_path / "elsewhere.po"
    po.rename(target)
    po.symlink_to(target)
    os.chmod(target, 0o600)
    assert _update(jaxko, pot_dir, locale, tmp_path).returncode == 0
    assert po.is_symlink() and 'msgid "b"' in target.read_text(encoding="utf-8")
    target.write_text(target.read_text(encoding="utf-8").replace('msgstr "가"', 'msgstr ""\n"가"'),
                      encoding="utf-8")
    assert jaxko("fmt", str(po), check=True).returncode == 0
    assert po.is_symlink() and 'msgstr "가"' in target.read_text(encoding="utf-8")
    assert target.stat().st_mode & 0o777 == 0o600


def test_a_catalog_linked_to_a_system_file_is_named_not_quoted(tmp_path, jaxko):
    """A pull request can commit a link to any file of the CI machine: the one-line
    error names the catalog and line, and never prints the linked file's content."""
    pot_dir, locale, po = _project(tmp_path, 'msgid "a"\nmsgstr "가"\n', 'msgid "a"\nmsgstr ""\n')
    secret = tmp_path / "secret"
    secret.write_text("s3cr3t:x:0:0:s3cr3t:/s3cr3t:/bin/bash\nline two\n", encoding="utf-8")
    po.unlink()
    po.symlink_to(secret)
    for args in (("check", str(po)), ("stats", "--locale-dir", str(locale)),
                 ("fmt", str(po))):
        proc = jaxko(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert f"{po}:1: not a gettext line" in proc.stderr, proc.stderr
        assert "s3cr3t" not in proc.stderr and "bash" not in proc.stderr, proc.stderr
    assert secret.read_text(encoding="utf-8").startswith("s3cr3t:x")


# One verdict: each malformed catalog, given to every command that reads catalogs.
MALFORMED = {
    "bad-escape": (HEADER + 'msgid "a"\nmsgstr "b\\q"\n', 7, "invalid escape sequence"),
    "duplicate": (HEADER + 'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n', 9,
                  "duplicate msgid (also at line 6)"),
    "nul-byte": (HEADER + 'msgid "a"\nmsgstr "b\0"\n', 7, "NUL byte"),
    "wrong-charset": (HEADER.replace("UTF-8", "ISO-8859-1") + 'msgid "a"\nmsgstr "b"\n', 3,
                      "charset 'ISO-8859-1'"),
    "bogus-charset": (HEADER.replace("UTF-8", "CHARSET") + 'msgid "a"\nmsgstr "b"\n', 3,
                      "charset 'CHARSET'"),
    "plural-forms": (HEADER.replace("nplurals=1; plural=0;", "nplurals=banana") +
                     'msgid "a"\nmsgstr "b"\n', 4, "malformed Plural-Forms"),
    "plural-index": (HEADER + 'msgid "a"\nmsgid_plural "as"\nmsgstr[5] "b"\n', 8,
                     "msgstr[5] but the header allows 1"),
    "unterminated-obsolete": (HEADER + '#~ msgid "a\n#~ msgstr "b"\n', 6, "unterminated string"),
    "unterminated": (HEADER + 'msgid "a"\nmsgstr "b\n', 7, "unterminated string"),
    "bom": ("\ufeff" + HEADER + 'msgid "a"\nmsgstr "b"\n', 1, "byte order mark"),
    "unescaped-quote": (HEADER + 'msgid "a"\nmsgstr "b"c"\n', 7, "unescaped double quote"),
    "comment-marker": (HEADER + '#,fuzzy\nmsgid "a"\nmsgstr "b"\n', 6,
                       "needs a space after its marker"),
    "bare-obsolete-marker": (HEADER + 'msgid "a"\nmsgstr "b"\n\n#~\n', 9, "not a gettext line"),
    "unknown-keyword": (HEADER + 'msgid "a"\nmsgtext "b"\n', 7, "not a gettext line"),
    "obsolete-without-msgstr": (HEADER + 'msgid "a"\nmsgstr "b"\n\n#~ msgid "x"\n'
                                '#~ msgid "y"\n#~ msgstr "z"\n', 9, "entry without msgstr"),
    "plural-plain-msgstr": (HEADER + 'msgid "a"\nmsgid_plural "as"\nmsgstr "b"\n', 6,
                            "with a plain msgstr"),
    "index-without-plural": (HEADER + 'msgid "a"\nmsgstr[0] "b"\n', 6,
                             "msgstr[n] without msgid_plural"),
    "trailing-comment": (HEADER + 'msgid "a"\nmsgstr "b"\n\n# 나중에 볼 것\n', 9,
                         "comment after the last entry"),
    "obsolete-duplicate": (HEADER + 'msgid "a"\nmsgstr "b"\n\n#~ msgid "x"\n#~ msgstr "1"\n\n'
                           '#~ msgid "x"\n#~ msgstr "2"\n', 12, "duplicate msgid (also at line 9)"),
    "second-header": (HEADER + 'msgid "a"\nmsgstr "b"\n\nmsgid ""\nmsgstr "x"\n', 9,
                      "duplicate msgid (also at line 1)"),
    "blank-inside-entry": (HEADER + 'msgid "a"\n\nmsgstr "b"\n', 6, "line out of place"),
    "bad-utf8": (None, 7, "not valid UTF-8"),
    # Line breaks only some readers see (docutils and polib split at str.splitlines()'s).
    "line-separator": (HEADER + 'msgid "a"\nmsgstr "b\u2028.. plot::"\n', 7, "U+2028"),
    "paragraph-separator": (HEADER + 'msgid "a"\nmsgstr "b\u2029c"\n', 7, "U+2029"),
    "next-line": (HEADER + 'msgid "a"\nmsgstr "b\u0085c"\n', 7, "U+0085"),
    "file-separator": (HEADER + 'msgid "a"\nmsgstr "b\x1cc"\n', 7, "U+001C"),
    "lone-cr-in-comment": (HEADER + '# note\rmsgid "x"\nmsgid "a"\nmsgstr "b"\n', 6, "U+000D"),
    "form-feed-escape": (HEADER + 'msgid "a"\nmsgstr "b\\f.. plot::"\n', 7, "escape `\\f`"),
    "vertical-tab-escape": (HEADER + 'msgid "a"\nmsgstr "b\\vc"\n', 7, "escape `\\v`"),
    "backspace-escape": (HEADER + 'msgid "a"\nmsgstr "b\\bc"\n', 7, "escape `\\b`"),
    "cr-escape": (HEADER + 'msgid "a"\nmsgstr "b\\rc"\n', 7, "escape `\\r`"),
}


def _malformed_project(tmp_path: Path, kind: str) -> tuple[Path, dict[str, tuple[str, ...]]]:
    """``kind``'s malformed catalog as locale/ko/LC_MESSAGES/doc.po, a template and a
    one-page site beside it, and the arguments of every command that reads catalogs."""
    text, _, _ = MALFORMED[kind]
    catalogs = tmp_path / "locale" / "ko" / "LC_MESSAGES"
    catalogs.mkdir(parents=True)
    po = catalogs / "doc.po"
    if text is None:
        po.write_bytes(HEADER.encode() + b'msgid "a"\nmsgstr "\xff"\n')
    else:
        po.write_bytes(text.encode("utf-8"))
    pot_dir = tmp_path / "gettext"
    pot_dir.mkdir()
    (pot_dir / "doc.pot").write_text(POT_HEADER + 'msgid "a"\nmsgstr ""\n', encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.rst").write_text("Title\n=====\n\nText.\n", encoding="utf-8")
    commands = {
        "check": ("check", str(po)),
        "fmt": ("fmt", str(po)),
        "update": ("update", "--pot-dir", str(pot_dir), "--locale-dir", str(tmp_path / "locale"),
                   "--srcdir", str(tmp_path)),
        "stats": ("stats", "--locale-dir", str(tmp_path / "locale")),
        "tm": ("tm", "fill", str(po)),
        "glean": ("glean", str(po)),
        "terms": ("terms", str(po), "--no-cache"),
        "site": ("site", "build", "--no-execute", "--no-notebooks", "--srcdir", str(docs),
                 "--outdir", str(tmp_path / "html"), "--locale-dir", str(tmp_path / "locale")),
    }
    return po, commands


def _assert_same_verdict(tmp_path: Path, kind: str, run) -> None:
    _, line, what = MALFORMED[kind]
    po, commands = _malformed_project(tmp_path, kind)
    before = po.read_bytes()
    for name, args in commands.items():
        proc = run(*args)
        assert proc.returncode == 2, (name, proc.stdout, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in proc.stderr, (name, proc.stderr)
        assert lines[0].startswith(f"jaxko: {po}:{line}: ") and what in lines[0], (name, lines)
        assert po.read_bytes() == before, name
    assert not (tmp_path / "html").exists()  # the site build stopped before Sphinx


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_every_command_gives_the_same_verdict(tmp_path, jaxko, kind):
    _assert_same_verdict(tmp_path, kind, jaxko)


@pytest.mark.parametrize("kind", ["bad-utf8", "unterminated"])
def test_every_command_as_a_process_gives_the_same_verdict(tmp_path, kind):
    """The same, each command a real `jaxko` process: exit 2 and one stderr line as
    the user sees them (one kind the reader finds while decoding, one while parsing)."""
    _assert_same_verdict(tmp_path, kind, run_jaxko)


def test_a_directory_named_like_a_catalog_is_skipped_by_stats(tmp_path, jaxko):
    catalogs = tmp_path / "locale" / "ko" / "LC_MESSAGES"
    (catalogs / "x.po").mkdir(parents=True)
    (catalogs / "doc.po").write_text(HEADER + 'msgid "a"\nmsgstr "가"\n', encoding="utf-8")
    proc = jaxko("stats", "--locale-dir", str(tmp_path / "locale"), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert jaxko("check", str(catalogs)).returncode == 0


@pytest.mark.parametrize("text, message", [
    ("", "empty catalog"),
    ('msgid "a"\nmsgstr "b"\n', "no header entry"),
])
def test_fmt_on_empty_or_headerless_catalog_is_one_plain_line(tmp_path, jaxko, text, message):
    po = tmp_path / "x.po"
    po.write_text(text, encoding="utf-8")
    proc = jaxko("fmt", str(po))
    assert proc.returncode == 2 and message in proc.stderr
    assert "report" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert po.read_text(encoding="utf-8") == text


def test_readers_agree_on_mutated_catalogs(tmp_path):
    """One verdict, found by a fuzzer: random line edits of a catalog with every kind of
    entry (previous msgids, contexts, plurals, obsolete ones). polib (fmt, update), the
    fast reader (check) and the statistics scan accept the same files, and refuse the
    others with the same file:line message."""
    import random

    from jaxko import catalogs
    from jaxko.errors import UserError
    from jaxko.workflow import documents, fmt as fmt_mod

    base = (HEADER + '#: a.md:1\n#, fuzzy\n#| msgid "old text"\nmsgid "new text"\nmsgstr "새 글"\n\n'
            'msgctxt "ctx"\nmsgid "one"\nmsgid_plural "many"\nmsgstr[0] "여럿"\n\n'
            '#. extracted\n# translator\nmsgid ""\n"long "\n"text"\nmsgstr ""\n"긴 "\n"글"\n\n'
            '#~ msgid "gone"\n#~ msgstr "사라짐"\n\n#~ msgctxt "c"\n#~ msgid "gone2"\n'
            '#~ msgid_plural "gones"\n#~ msgstr[0] "사라짐2"\n').split("\n")
    pieces = ['"', '\\', '#', '#~ ', '#,', 'msgstr[0] ', 'msgid_plural "x"', 'msgctxt "c"', '\\q',
              '\t', ' ', '', 'msgid "a"', 'msgstr "b"', '#| msgid "o"', 'msgid ""']
    rng = random.Random(20)
    path = tmp_path / "x.po"

    def verdict(read) -> str:
        try:
            read(path)
        except UserError as err:
            return err.format()
        return "ok"

    refused = 0
    for _ in range(400):
        lines = list(base)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(lines))
            kind = rng.randrange(4)
            if kind == 0:
                del lines[i]
            elif kind == 1:
                lines.insert(i, rng.choice(pieces))
            elif kind == 2:
                j = rng.randint(0, len(lines[i]))
                lines[i] = lines[i][:j] + rng.choice(pieces) + lines[i][j:]
            else:
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
        path.write_text("\n".join(lines), encoding="utf-8")
        found = {"polib": verdict(catalogs.load), "check": verdict(catalogs.read),
                 "stats": verdict(documents.scan)}
        formatted = verdict(lambda p: fmt_mod.format_catalog(p, check=True))
        if "no header entry" not in formatted:
            found["fmt"] = formatted
        assert len(set(found.values())) == 1, ("\n".join(lines), found)
        refused += found["polib"] != "ok"
    assert 100 < refused < 350  # both kinds are well represented


def _five_catalogs(tmp_path: Path) -> tuple[Path, Path, dict[Path, bytes]]:
    """Five catalogs, each of which `update` will change (a new message in every .pot)."""
    pot_dir, locale = tmp_path / "gettext", tmp_path / "locale"
    out = locale / "ko" / "LC_MESSAGES"
    pot_dir.mkdir()
    out.mkdir(parents=True)
    for i in range(5):
        (pot_dir / f"doc{i}.pot").write_text(POT_HEADER + f'msgid "a{i}"\nmsgstr ""\n\n'
                                             f'msgid "new{i}"\nmsgstr ""\n', encoding="utf-8")
        (out / f"doc{i}.po").write_text(HEADER + f'msgid "a{i}"\nmsgstr "가{i}"\n', encoding="utf-8")
    return pot_dir, locale, {p: p.read_bytes() for p in out.glob("*.po")}


def _ctrl_c_on_third_call(monkeypatch, module, name: str) -> None:
    """Ctrl-C as the third call of ``module.name`` begins (the first two run)."""
    real, calls = getattr(module, name), []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, interrupted)


def test_ctrl_c_while_merging_leaves_every_catalog_as_it_was(tmp_path, monkeypatch):
    from jaxko import catalogs as cat
    from jaxko import update

    pot_dir, locale, before = _five_catalogs(tmp_path)
    _ctrl_c_on_third_call(monkeypatch, cat, "merge")
    with pytest.raises(KeyboardInterrupt):
        update.update(pot_dir=pot_dir, locale_dir=locale, srcdir=tmp_path, progress=False)
    assert {p: p.read_bytes() for p in before} == before


def test_ctrl_c_while_writing_names_exactly_the_catalogs_written(tmp_path, monkeypatch):
    from jaxko import catalogs as cat
    from jaxko import update
    from jaxko.errors import Interrupted

    pot_dir, locale, before = _five_catalogs(tmp_path)
    _ctrl_c_on_third_call(monkeypatch, cat, "write_text_atomic")
    with pytest.raises(Interrupted) as caught:
        update.update(pot_dir=pot_dir, locale_dir=locale, srcdir=tmp_path, progress=False)
    changed = sorted(p.name for p in before if p.read_bytes() != before[p])
    assert changed == ["doc0.po", "doc1.po"]
    assert "2 of 5 catalogs written (doc0.po, doc1.po)" in caught.value.format()
    assert caught.value.exit_code == 130
