"""The screen of jaxko check (jaxko.check.screen and its native kernel).

1. The kernel parses and masks many messages joined into one text exactly as
   inline.parse and inline.mask do each message.
2. The screen never leaves out a group of rules that would report on a message: on
   generated messages, planted faults and real catalogs, the findings of the rules run
   where the screen says are the findings of every rule run on every message.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jaxko.check import inline, pofile, screen

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not screen.available(), reason="native kernel not built")

# Markup pieces, so that constructs start and end at message boundaries too.
markup = st.sampled_from([
    "`", "``", "*", "**", ":func:", "{func}", "{math}", "`jax.jit`", "`~jax.numpy.sum`",
    "<", ">", "<b>", "</b>", "<!--", "-->", "[", "](", "]", ")", "(", "][", "![", "$", "$$",
    "|", "_", "__", "\\", "\\ ", "\n", " ", "  ", "{", "}", "{{", "}}", "!", "[#]_", "[^1]",
    ":", "~", "'", '"', "을", "를", "으로", "합성곱", "배열", "JAX", "x", "1", "<t>",
    "https://x.y/z", "<https://a.b>", "`a <b>`_", ":ref:`t <x>`",
])
texts = st.lists(st.one_of(markup, st.text(max_size=4)), max_size=16).map("".join)


def split(parsed, starts: list[int], texts: list[str]):
    """Per message: its inlines with local positions, its masked text."""
    per: list[list] = [[] for _ in texts]
    index = 0
    for item in parsed.inlines:
        while index + 1 < len(texts) and item[1] >= starts[index + 1]:
            index += 1
        offset = starts[index]
        assert item[2] <= offset + len(texts[index]), "a construct spans a separator"
        per[index].append((item[0], item[1] - offset, item[2] - offset, *item[3:]))
    masked = [parsed.masked[s:s + len(t)] for s, t in zip(starts, texts)]
    return per, masked


def assert_parsed_as_one_by_one(texts: list[str], syntax: str) -> None:
    parsed, starts = screen.parse(texts, syntax)
    assert len(parsed.masked) == len(parsed.text)
    per, masked = split(parsed, starts, texts)
    for text, found, masked_text in zip(texts, per, masked):
        expected = inline.parse(text, syntax)
        assert [tuple(i) for i in expected] == found, text
        assert masked_text == inline.mask(text, expected, syntax=syntax), text


@settings(max_examples=500, deadline=None)
@given(st.lists(texts.filter(lambda t: "\x00" not in t), min_size=1, max_size=6),
       st.sampled_from(["rst", "myst"]))
def test_kernel_parses_as_inline_does(texts, syntax):
    assert_parsed_as_one_by_one(texts, syntax)


def test_kernel_parses_the_project_catalogs_as_inline_does():
    for path in sorted((ROOT / "locale" / "ko").rglob("*.po")):
        entries = [e for e in pofile.read(path) if e.msgid]
        for syntax in ("rst", "myst"):
            assert_parsed_as_one_by_one([e.msgid for e in entries], syntax)
            assert_parsed_as_one_by_one([e.msgstr for e in entries], syntax)


def test_the_kernel_joins_with_the_separator_and_refuses_nul():
    parsed, starts = screen.parse(["a", "bc", ""], "rst")
    assert parsed.text == inline.SEPARATOR.join(["a", "bc", ""]) and starts == [0, 4, 9]
    assert screen.parse(["a", "b\x00c"], "rst") is None
    assert screen.groups(STATE.screen, ["a", "b"], ["가", "나\x00"], "rst") == [screen.ALL] * 2


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["://", "http", "https", "ftp", "x", ".", " ", "/", "a",
                                           "(", ")", "`", "_", "é", "1"]), st.text(max_size=3)),
                max_size=20).map("".join))
def test_bare_urls_finds_what_the_pattern_finds(text):
    assert ([m.span() for m in inline.bare_urls(text)]
            == [m.span() for m in inline._BARE_URL.finditer(text)])


# ------------------------------------------------------------------- soundness

from jaxko import glossary as glossary_model  # noqa: E402
from jaxko.check.message import MYST, RST, TEXT  # noqa: E402
from jaxko.check.runner import Options, build_state, check_messages, describe_all, run, screened  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "check"
STATE = build_state(Options(source_dir=ROOT / "no-such-folder"),
                    glossary_model.load(FIXTURES / "glossary.yaml"))

# English and Korean with what the rules look at: terms (the fixture glossary's),
# kept names, markup of both syntaxes, renderings followed by right and wrong particles.
english = st.sampled_from([
    "convolution", "convolutions", "array", "arrays", "parameter", "gradient", "file", "function",
    "automatic differentiation", "just-in-time compilation", "index", "indices", "JAX", "jit",
    "pytree", "XLA", "trace", "traced", "for instance", "the", "of", "we", "compute", " ", ". ",
    ", ", "`x`", "``x``", ":func:`jax.jit`", "{func}`jax.jit`", ":ref:`the guide <guide>`",
    "[link](https://jax.dev)", "`link <https://jax.dev>`_", "**bold**", "*it*", "$x^2$",
    ":math:`x`", "|version|", "[#f1]_", "[^1]", "<b>", "https://x.org/a", "one two three four five",
])
korean = st.sampled_from([
    "합성곱", "배열", "매개변수", "매개 변수", "파라미터", "기울기", "그레이디언트", "파일", "함수",
    "자동 미분", "적시 컴파일", "JIT 컴파일", "인덱스", "추적", "컨볼루션", "잭스", "JAX", "jit",
    "pytree", "XLA", "을", "를", "은", "는", "이", "가", "으로", "로", "과", "와", "의", "이다",
    "입니다", " ", ". ", ", ", "\\ ", "`x`", "``x``", ":func:`jax.jit`", "{func}`jax.jit`",
    ":ref:`안내 <guide>`", "[링크](https://jax.dev)", "`링크 <https://jax.dev>`_", "**굵게**",
    "*기울임*", "$x^2$", ":math:`x`", "|version|", "[#f1]_", "[^1]", "<b>", "<script>",
    "javascript:x", "https://evil.example", ".. raw:: html", "(convolution)", "one two three four five",
    "numpy", "x64", "1", "f(x)", "**\"JAX\"**", "_키_", "** ", " **", "* ", "` ", "`` ",
    "합성곱(convolution)을", "합성곱(convolution)를", "함수(function)가", "함수(function)이",
])
msgids = st.lists(english, min_size=1, max_size=10).map("".join)
msgstrs = st.lists(korean, min_size=1, max_size=10).map("".join)


class Entry:
    """What the runner reads of a catalog entry."""

    def __init__(self, line: int, msgid: str, msgstr: str, syntax: str, comment: str = ""):
        self.line, self.msgid, self.msgstr, self.msgctxt = line, msgid, msgstr, None
        self.flags, self.tcomment, self.comment = (), comment, ""
        self.locations = (f"doc.{'rst' if syntax == RST else 'md'}:{line}",)


def findings_both_ways(entries: list[Entry]):
    """(findings with the screen, findings of every rule on every message)."""
    descriptions = describe_all(entries, STATE)
    with_screen = check_messages(screened(Path("x.po"), entries, descriptions, STATE), STATE)[0]
    saved, STATE.screen = STATE.screen, None
    try:
        everything = check_messages(screened(Path("x.po"), entries, descriptions, STATE), STATE)[0]
    finally:
        STATE.screen = saved
    return sorted(with_screen), sorted(everything)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(msgids, msgstrs), min_size=1, max_size=5), st.sampled_from([RST, MYST]))
def test_screen_never_drops_a_finding(pairs, syntax):
    entries = [Entry(10 + 4 * i, msgid, msgstr, syntax) for i, (msgid, msgstr) in enumerate(pairs)]
    with_screen, everything = findings_both_ways(entries)
    assert [(f.line, f.rule, f.message) for f in with_screen] == \
        [(f.line, f.rule, f.message) for f in everything]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=4), st.sampled_from([RST, MYST]))
def test_screen_never_drops_a_finding_on_arbitrary_text(pairs, syntax):
    entries = [Entry(10 + 4 * i, msgid, msgstr, syntax) for i, (msgid, msgstr) in enumerate(pairs)
               if "\x00" not in msgid + msgstr]
    with_screen, everything = findings_both_ways(entries)
    assert with_screen == everything


def test_screen_clears_what_is_clean_and_names_the_group_at_fault():
    cases = {  # msgstr -> the group the screen must name (msgid: see below)
        "합성곱을 JAX로 계산합니다.": 0,
        "합성곱를 JAX로 계산합니다.": screen.PARTICLE,
        "컨볼루션을 JAX로 계산합니다.": screen.GLOSSARY,
        "합성곱을 잭스로 계산합니다.": screen.GLOSSARY,
        "합성곱을 JAX로 계산합니다. <script>": screen.MARKUP | screen.SYNTAX,
    }
    msgid = "JAX computes the convolution."
    found = screen.groups(STATE.screen, [msgid] * len(cases), list(cases), MYST)
    for (msgstr, group), bits in zip(cases.items(), found):
        assert bits & group == group, msgstr
        if group == 0:
            assert bits == 0, msgstr


def test_screen_agrees_with_every_rule_on_the_fixture_and_project_catalogs(tmp_path):
    for paths, glossary in ([[FIXTURES / "catalogs"], FIXTURES / "glossary.yaml"],
                            [[ROOT / "locale" / "ko"], ROOT / "glossary" / "ko.yaml"]):
        options = dict(paths=paths, glossary=glossary, jobs=1)
        with_screen = run(Options(screen=True, **options))
        everything = run(Options(screen=False, **options))
        assert with_screen.findings == everything.findings
        assert with_screen.summary() == everything.summary()


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.one_of(msgids, texts), st.one_of(msgstrs, texts)), min_size=1, max_size=4),
       st.sampled_from([RST, MYST]))
def test_syntax_group_whenever_the_rule_would_parse(pairs, syntax):
    """The kernel's pre-test for syntax.parse holds wherever syntax.worth_parsing does
    (so the parsers run on every message they would have run on)."""
    from jaxko.check.message import Message
    from jaxko.check.syntax import _MARKUP_CHARS, worth_parsing

    pairs = [(i, s) for i, s in pairs if "\x00" not in i + s]
    if not pairs:
        return
    found = screen.groups(STATE.screen, [i for i, _ in pairs], [s for _, s in pairs], syntax)
    for (msgid, msgstr), bits in zip(pairs, found):
        needs = any(ch in msgid + msgstr for ch in _MARKUP_CHARS)
        if needs and worth_parsing(Message("x.po", 1, msgid, msgstr, syntax=syntax)):
            assert bits & screen.SYNTAX, (msgid, msgstr)


def test_a_failing_screen_costs_speed_not_findings(monkeypatch, capsys):
    def broken(*args):
        raise RuntimeError("planted")

    monkeypatch.setattr(screen, "groups", broken)
    result = run(Options(paths=[FIXTURES / "catalogs"], glossary=FIXTURES / "glossary.yaml", jobs=1))
    everything = run(Options(paths=[FIXTURES / "catalogs"], glossary=FIXTURES / "glossary.yaml",
                             jobs=1, screen=False))
    assert result.findings == everything.findings
    assert "the screen failed (RuntimeError: planted); every rule checks this catalog" in capsys.readouterr().err


def test_screen_agrees_with_every_rule_on_synthetic_catalogs(tmp_path):
    """A slice of the benchmark's python-docs-ko-sized set: generated catalogs with roles,
    literals, links, code blocks, glossary terms and a planted particle mistake in about
    one term of a hundred, checked against a 300-term glossary."""
    import importlib.util
    import random

    spec = importlib.util.spec_from_file_location("bench_check", ROOT / "benchmarks" / "bench_check.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    terms = bench.make_terms(random.Random(bench.SEED), 300)
    bench.generate(tmp_path / "catalogs", terms, files=60, entries=9000)
    bench.write_glossary(tmp_path / "glossary.yaml", terms)
    options = dict(paths=[tmp_path / "catalogs"], glossary=tmp_path / "glossary.yaml", jobs=1,
                   source_dir=tmp_path / "none")
    with_screen = run(Options(screen=True, **options))
    everything = run(Options(screen=False, **options))
    assert with_screen.findings == everything.findings
    assert len(with_screen.findings) > 100  # the planted mistakes are there to be found
    # ... and the screen spares the rules most messages (else it is only slow, not wrong).
    state = build_state(Options(source_dir=tmp_path / "none"), glossary_model.load(tmp_path / "glossary.yaml"))
    sent = total = 0
    for path in sorted((tmp_path / "catalogs").rglob("*.po")):
        entries = [e for e in pofile.read(path) if e.msgid and e.msgstr]
        for syntax in (RST, MYST):
            chosen = [e for e, d in zip(entries, describe_all(entries, state)) if d[:2] == (syntax, TEXT)]
            found = screen.groups(state.screen, [e.msgid for e in chosen], [e.msgstr for e in chosen], syntax)
            sent += sum(1 for bits in found if bits)
            total += len(found)
    assert sent < total * 0.05, (sent, total)


# ----------------------------------------------------------- the kernel's trie

from jaxko.check import terms  # noqa: E402

KOREAN_STRINGS = sorted({*STATE.context.matcher.korean_strings.strings, "매개 변수", "자동  미분",
                         "a b", "a  b c", "ab", "x  y"})


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from([*KOREAN_STRINGS, " ", "  ", "을", "변", "a", "b", "c", "x"]),
                max_size=14).map("".join))
@example("a   b c")   # " +" gives a space back for the double space of "a  b c"
@example("자동   미분을")
@example("x   y")    # ... and for "x  y", where no single-space string catches it
def test_trie_finds_what_the_trie_regex_finds(text):
    regex = terms._trie_regex(KOREAN_STRINGS)
    expected = [(m.start(), m.end(), m.group(0)) for m in regex.finditer(text)]
    found = terms.Strings(KOREAN_STRINGS).finditer(text)
    assert [(m.start(), m.end(), m.group(0)) for m in found] == expected


def test_trie_finds_what_the_trie_regex_finds_with_the_project_glossary():
    matcher = build_state(Options(), glossary_model.load(ROOT / "glossary" / "ko.yaml")).context.matcher
    strings = matcher.korean_strings.strings
    regex = terms._trie_regex(strings)
    for path in sorted((ROOT / "locale" / "ko").rglob("*.po"))[:80]:
        for entry in pofile.read(path):
            expected = [(m.start(), m.end()) for m in regex.finditer(entry.msgstr)]
            assert [(m.start(), m.end()) for m in matcher.korean_matches(entry.msgstr)] == expected
