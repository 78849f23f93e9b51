"""`jaxko check --fix` and `--diff` on planted catalogs (reST and MyST): each fix's Bad →
Good, only the fixed msgstrs change (byte for byte everywhere else, and polib agrees),
`--diff` writes nothing, a second `--fix` changes nothing, and the findings after a fix
are the findings before it less the fixed ones. What must never be fixed is not."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import polib
import pytest

from jaxko import catalogs
from jaxko.check import fix as fixing
from jaxko.check.registry import Edit
from jaxko.check.runner import Options, run
from jaxko.cli import main

GLOSSARY = """\
terms:
  - en: convolution
    ko: 합성곱
    forbidden: [컨볼루션]
  - en: array
    ko: 배열
    forbidden: [어레이]
    pos: noun
  - en: gradient
    ko: 기울기
    variants: [그레이디언트]
    forbidden: [구배]
  - en: parameter
    ko: 매개변수
  - en: just-in-time compilation
    ko: 적시 컴파일
  - en: JAX
    keep: true
    reading: 잭스
    case_sensitive: true
"""

HEADER = ('# Korean translation of the planted pages.\n# Copyright nobody.\n#\n'
          'msgid ""\nmsgstr ""\n"Project-Id-Version: planted\\n"\n'
          '"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: ko\\n"\n\n')

# reST: (msgid lines, msgstr lines before, msgstr lines after, the rules that fix it).
REST = [
    ('"Wrap the function with :func:`jax.jit` first."',
     '"먼저 함수를 :func:`jax.jit`으로 감쌉니다."',
     '"먼저 함수를 :func:`jax.jit`\\\\ 으로 감쌉니다."', ["markup.hangul-after-markup"]),
    # A msgstr over several lines with escapes: only the changed characters move.
    ('""\n"Each parameter has a default, and ``f`` is a convolution of an \\"array\\"."',
     '""\n"각 매개 변수에는 기본값이 있고, ``f``는 "\n"\\"어레이\\"의 컨볼루션입니다.\\n"',
     '""\n"각 매개변수에는 기본값이 있고, ``f``\\\\ 는 "\n"\\"배열\\"의 합성곱입니다.\\n"',
     ["glossary.spacing", "markup.hangul-after-markup", "glossary.forbidden"]),
    ('"JAX computes the convolution of an array."',
     '"JAX을 써서 어레이를 합성곱를 계산합니다."',
     '"JAX를 써서 배열을 합성곱을 계산합니다."',
     ["particle.agreement", "glossary.forbidden"]),
]
# MyST: no escaped space is needed; the glossary and particle fixes are the same.
MYST = [
    ('"Use the `grad` of the array."',
     '"`grad` 함수로 어레이의 구배를 구합니다."',
     '"`grad` 함수로 배열의 구배를 구합니다."', ["glossary.forbidden"]),
    # The spacing fix reveals a particle that no longer agrees: fixed in the next round.
    ('"A parameter of JAX."',
     '"JAX의 매개 변수과 기본값."',
     '"JAX의 매개변수와 기본값."', ["glossary.spacing", "particle.agreement"]),
]
# Entries that must come out exactly as they went in, each with why.
UNTOUCHED = """\
#: api.rst:90
#, fuzzy
msgid "Each parameter is fuzzy."
msgstr "각 매개 변수는 퍼지입니다."

# jaxko: ignore markup.hangul-after-markup -- the translator's choice
#: api.rst:91
msgid "See :func:`jax.grad` here."
msgstr "여기서 :func:`jax.grad`를 보세요."

#: api.rst:92
msgid "See :func:`jax.grad` now."
msgstr "지금 :func:`jax.vmap`를 보세요. :raw-html:`<b>x</b>`"

#: api.rst:93
msgid "One array"
msgid_plural "%d arrays"
msgstr[0] "어레이 %d개"

#: api.rst:94
msgid "The gradient is kept."
msgstr "구배(gradient)와 그레이디언트는 다릅니다."

#: api.rst:95
msgid "Call :func:`f` quickly."
msgstr ":func:`f`\\\\ 를 빨리 호출합니다."

#~ msgid "Old array"
#~ msgstr "옛 어레이를"
"""


def _catalog(entries, suffix: str, ctx_twin: bool = False) -> tuple[str, str]:
    """(planted text, expected text after --fix)."""
    before, after = [HEADER], [HEADER]
    for number, (msgid, bad, good, _) in enumerate(entries):
        block = f"#: page.{suffix}:{10 * number + 1}\nmsgid {msgid}\nmsgstr "
        before.append(block + bad + "\n\n")
        after.append(block + good + "\n\n")
    if ctx_twin:
        # The same msgid under a msgctxt, already right: found by its key, left alone.
        msgid, _, good, _ = entries[0]
        twin = f"#: page.{suffix}:80\nmsgctxt \"twin\"\nmsgid {msgid}\nmsgstr {good}\n\n"
        before.append(twin)
        after.append(twin)
    if suffix == "rst":
        before.append(UNTOUCHED)
        after.append(UNTOUCHED)
    return "".join(before).rstrip("\n") + "\n", "".join(after).rstrip("\n") + "\n"


@pytest.fixture
def planted(tmp_path):
    folder = tmp_path / "catalogs"
    folder.mkdir()
    (tmp_path / "sources").mkdir()
    glossary = tmp_path / "glossary.yaml"
    glossary.write_text(GLOSSARY, encoding="utf-8")
    texts = {}
    for name, entries, suffix in (("rest.po", REST, "rst"), ("myst.po", MYST, "md")):
        before, after = _catalog(entries, suffix, ctx_twin=suffix == "rst")
        (folder / name).write_text(before, encoding="utf-8")
        texts[folder / name] = (before, after)
    return folder, glossary, tmp_path / "sources", texts


def jaxko_check(planted, *args: str) -> int:
    folder, glossary, sources, _ = planted
    return main(["check", "--no-cache", "--glossary", str(glossary), "--source-dir",
                 str(sources), *args, str(folder)])


def findings(planted) -> list[tuple]:
    folder, glossary, sources, _ = planted
    result = run(Options(paths=[folder], glossary=glossary, source_dir=sources, jobs=1))
    return sorted((f.path, f.msgctxt, f.msgid, f.rule, f.message) for f in result.findings)


def test_fix_gives_each_good_and_changes_nothing_else(planted, capsys):
    _, _, _, texts = planted
    assert jaxko_check(planted, "--fix") == 1  # the safety finding remains an error
    out = capsys.readouterr().out
    for path, (before, after) in texts.items():
        assert path.read_text(encoding="utf-8") == after, path.name
        # polib agrees: every entry as it was, but the fixed msgstrs.
        old, new = polib.pofile(before), polib.pofile(path.read_text(encoding="utf-8"))
        assert len(old) == len(new) and old.metadata == new.metadata
        assert [e.obsolete for e in old] == [e.obsolete for e in new]
        for a, b in zip(old, new):
            assert (a.msgctxt, a.msgid, a.msgid_plural, a.msgstr_plural, a.flags,
                    a.occurrences, a.tcomment, a.comment, a.obsolete) == \
                   (b.msgctxt, b.msgid, b.msgid_plural, b.msgstr_plural, b.flags,
                    b.occurrences, b.tcomment, b.comment, b.obsolete)
        changed = {a.msgid for a, b in zip(old, new) if a.msgstr != b.msgstr}
        expected = {polib.unescape(m.replace('"\n"', "").strip('"'))
                    for m, *_ in (REST if path.name == "rest.po" else MYST)}
        assert changed == expected
    # One line per change and rule: the catalog and the line of the fixed msgstr, saying
    # it was fixed (not to be read as a finding still there), then how many.
    printed = [line for line in out.splitlines() if ": fixed " in line]
    rest, myst = (p for p in texts)
    lines = {path: [n + 1 for n, line in enumerate(after.splitlines()) if line.startswith("msgstr")]
             for path, (_, after) in texts.items()}
    expected_lines = []
    for path, entries in ((rest, REST), (myst, MYST)):
        for number, (*_, rules) in enumerate(entries):
            expected_lines += [f"{path}:{lines[path][number + 1]}: fixed {rule}" for rule in rules]
    assert sorted(printed) == sorted(expected_lines)
    assert f"fixed {len(REST) + len(MYST)} entries in 2 catalogs; what is left:" in out


def test_diff_shows_the_fixes_and_writes_nothing(planted, capsys):
    _, _, _, texts = planted
    stamps = {path: (path.stat().st_mtime_ns, path.read_bytes()) for path in texts}
    assert jaxko_check(planted, "--diff") == 1
    out = capsys.readouterr().out
    expected = "".join(
        "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                     f"a/{str(path).lstrip('/')}", f"b/{str(path).lstrip('/')}"))
        for path, (before, after) in sorted(texts.items(), key=lambda item: str(item[0])))
    assert out == expected
    assert {path: (path.stat().st_mtime_ns, path.read_bytes()) for path in texts} == stamps


def test_a_second_fix_changes_nothing(planted, capsys):
    _, _, _, texts = planted
    jaxko_check(planted, "--fix")
    fixed = {path: path.read_bytes() for path in texts}
    capsys.readouterr()
    jaxko_check(planted, "--fix")
    assert {path: path.read_bytes() for path in texts} == fixed
    assert not [line for line in capsys.readouterr().out.splitlines() if line.count(" ") == 1]
    assert jaxko_check(planted, "--diff") == 0
    assert capsys.readouterr().out == ""


def test_findings_after_fix_are_those_before_less_the_fixed(planted, capsys):
    folder, glossary, sources, _ = planted
    before = run(Options(paths=[folder], glossary=glossary, source_dir=sources, jobs=1))
    refused = {f.key for f in before.findings if f.rule.startswith("safety.")}
    plural = {f.key for f in before.findings if f.msgid == "One array"}  # never fixed
    fixed = [f for f in before.findings
             if f.fix and f.severity != "info" and f.key not in refused | plural]
    assert len(fixed) == 10
    jaxko_check(planted, "--fix")
    expected = sorted((f.path, f.msgctxt, f.msgid, f.rule, f.message)
                      for f in before.findings if not any(f is g for g in fixed))
    assert findings(planted) == expected
    # The entry with a safety finding has a fixable finding too, and is left as written.
    assert any(f.fix for f in before.findings if f.key in refused)


def test_select_fixes_only_those_rules(planted, capsys):
    _, _, _, texts = planted
    assert jaxko_check(planted, "--fix", "--select", "glossary.spacing") == 0
    rest = next(p for p in texts if p.name == "rest.po")
    text = rest.read_text(encoding="utf-8")
    assert "매개변수에는" in text and "``f``는" in text and "컨볼루션" in text


def test_a_fix_that_would_bring_a_finding_is_left(tmp_path, capsys):
    """적시컴파일(just-in-time compilation) respaced would become a gloss after the term's
    first use without one: the gloss-position rule would report it, so the entry keeps
    its spacing finding."""
    (tmp_path / "g.yaml").write_text(GLOSSARY, encoding="utf-8")
    (tmp_path / "sources").mkdir()
    page = tmp_path / "page.po"
    text = (HEADER + '#: page.md:1\nmsgid "JAX uses just-in-time compilation."\n'
            'msgstr "JAX는 적시 컴파일을 씁니다."\n\n'
            '#: page.md:9\nmsgid "Just-in-time compilation traces code."\n'
            'msgstr "적시컴파일(just-in-time compilation)은 코드를 추적합니다."\n')
    page.write_text(text, encoding="utf-8")
    args = ["check", "--no-cache", "--glossary", str(tmp_path / "g.yaml"), "--source-dir",
            str(tmp_path / "sources"), "--show-info", str(page)]
    assert main([*args, "--fix"]) == 0
    assert page.read_text(encoding="utf-8") == text
    assert "glossary.spacing" in capsys.readouterr().out


@pytest.mark.parametrize("msgid, msgstr, rule", [
    # A forbidden word whose entry names two renderings: which one is not ours to say.
    ("The gradient.", "구배입니다.", "glossary.forbidden"),
    # A particle after a Latin word read by its spelling, not by the glossary.
    ("Use pip.", "pip를 씁니다.", "particle.agreement"),
    # After code: how `x[0]` is read is a guess.
    ("Use ``y`` here.", "``y``\\ 을 씁니다.", "particle.agreement"),
    # A spaced variant that ends inside another word (기간, not 기): python-docs-ko.
    ("Copy state between parameters.", "매개 변수간에 상태를 복사합니다.", "glossary.spacing"),
    # A variant with markup inside it.
    ("Each parameter.", "각 *매개* 변수.", "glossary.spacing"),
])
def test_an_ambiguous_case_keeps_its_finding(tmp_path, capsys, msgid, msgstr, rule):
    (tmp_path / "g.yaml").write_text(GLOSSARY, encoding="utf-8")
    (tmp_path / "sources").mkdir()
    page = tmp_path / "page.po"
    entry = polib.POEntry(msgid=msgid, msgstr=msgstr, occurrences=[("page.rst", "1")])
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    catalog.append(entry)
    catalog.save(str(page))
    before = page.read_bytes()
    main(["check", "--no-cache", "--show-info", "--glossary", str(tmp_path / "g.yaml"),
          "--source-dir", str(tmp_path / "sources"), "--fix", str(page)])
    assert page.read_bytes() == before
    assert rule in capsys.readouterr().out


def test_splice_keeps_every_other_byte():
    """Escapes, several string lines, CRLF line ends: only the edited characters move."""
    text = 'msgid "x"\r\nmsgstr ""\r\n"a\\"b\\\\c "\r\n"\\td"\r\n'
    (start, end, line), = catalogs.msgstr_spans(text).values()
    assert line == 2
    value = 'a"b\\c \td'
    assert fixing.splice(text, (start, end), [Edit(1, 2, "“")]) == \
        'msgid "x"\r\nmsgstr ""\r\n"a“b\\\\c "\r\n"\\td"\r\n'
    assert fixing.splice(text, (start, end), [Edit(len(value), len(value), "\\ ")]) == \
        'msgid "x"\r\nmsgstr ""\r\n"a\\"b\\\\c "\r\n"\\td\\\\ "\r\n'
    # An edit across two string lines joins them.
    assert fixing.splice(text, (start, end), [Edit(5, 7, "")]) == \
        'msgid "x"\r\nmsgstr ""\r\n"a\\"b\\\\cd"\r\n'
    assert fixing.differences("매개 변수를", "매개변수를") == [Edit(2, 3, "")]


def test_a_catalog_that_cannot_be_read_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.po"
    bad.write_text('msgid "a"\nmsgstr "b\n', encoding="utf-8")
    assert main(["check", "--no-cache", "--no-glossary", "--fix", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"jaxko: {bad}:")
    assert bad.read_text(encoding="utf-8") == 'msgid "a"\nmsgstr "b\n'


def test_help_names_the_options(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "--fix" in out and "--diff" in out and "file:line: fixed rule" in out


def test_fix_is_atomic_per_catalog(planted, capsys):
    """The catalogs are replaced, not rewritten in place: no temporary file is left."""
    folder, _, _, texts = planted
    jaxko_check(planted, "--fix")
    assert sorted(os.listdir(folder)) == sorted(p.name for p in texts)
