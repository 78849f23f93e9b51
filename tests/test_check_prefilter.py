"""The prefilters of jaxko check only spare work, never a finding.

Each rule declares when it has nothing to do (``needs``: a substring; ``markup``:
msgid and msgstr differ in inline markup). On generated messages, planted faults, the
fixture and project catalogs and a slice of the benchmark's synthetic set, the
findings with the prefilters are the findings of every rule run on every message.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jaxko import glossary as glossary_model
from jaxko import catalogs as pofile
from jaxko.check import terms
from jaxko.check.message import MYST, RST
from jaxko.check.runner import Checker, Options, run

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "check"
CHECKER = Checker(Options(source_dir=ROOT / "no-such-folder"),
                  glossary_model.load(FIXTURES / "glossary.yaml"))

# Markup pieces, so that constructs start and end at message boundaries too.
markup = st.sampled_from([
    "`", "``", "*", "**", ":func:", "{func}", "{math}", "`jax.jit`", "`~jax.numpy.sum`",
    "<", ">", "<b>", "</b>", "<!--", "-->", "[", "](", "]", ")", "(", "][", "![", "$", "$$",
    "|", "_", "__", "\\", "\\ ", "\n", " ", "  ", "{", "}", "{{", "}}", "!", "[#]_", "[^1]",
    ":", "~", "'", '"', "을", "를", "으로", "합성곱", "배열", "JAX", "x", "1", "<t>",
    "https://x.y/z", "<https://a.b>", "`a <b>`_", ":ref:`t <x>`",
])
texts = st.lists(st.one_of(markup, st.text(max_size=4)), max_size=16).map("".join)


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
        self.msgstr_line = line + 1
        self.flags, self.tcomment, self.comment = (), comment, ""
        self.locations = (f"doc.{'rst' if syntax == RST else 'md'}:{line}",)




def findings_both_ways(entries: list[Entry]):
    """(findings with the prefilters, findings of every rule on every message)."""
    with_prefilter = CHECKER.check(CHECKER.messages(Path("x.po"), entries)).findings
    CHECKER.prefilter = False
    try:
        everything = CHECKER.check(CHECKER.messages(Path("x.po"), entries)).findings
    finally:
        CHECKER.prefilter = True
    return sorted(with_prefilter), sorted(everything)


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
@settings(max_examples=1000, deadline=None)
@given(st.lists(st.tuples(msgids, msgstrs), min_size=1, max_size=5), st.sampled_from([RST, MYST]))
def test_prefilters_never_drop_a_finding(pairs, syntax):
    entries = [Entry(10 + 4 * i, msgid, msgstr, syntax) for i, (msgid, msgstr) in enumerate(pairs)]
    with_prefilter, everything = findings_both_ways(entries)
    assert with_prefilter == everything


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=4), st.sampled_from([RST, MYST]))
def test_prefilters_never_drop_a_finding_on_arbitrary_text(pairs, syntax):
    entries = [Entry(10 + 4 * i, msgid, msgstr, syntax) for i, (msgid, msgstr) in enumerate(pairs)]
    with_prefilter, everything = findings_both_ways(entries)
    assert with_prefilter == everything


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
def test_prefilters_agree_with_every_rule_on_the_fixture_and_project_catalogs():
    for paths, glossary in ([[FIXTURES / "catalogs"], FIXTURES / "glossary.yaml"],
                            [[ROOT / "locale" / "ko"], ROOT / "glossary" / "ko.yaml"]):
        options = dict(paths=paths, glossary=glossary, jobs=1)
        with_prefilter = run(Options(prefilter=True, **options))
        everything = run(Options(prefilter=False, **options))
        assert with_prefilter.findings == everything.findings
        assert with_prefilter.summary() == everything.summary()
    assert run(Options(paths=[FIXTURES / "catalogs"], glossary=FIXTURES / "glossary.yaml",
                       jobs=1)).findings  # the planted faults are there to be found


def test_prefilters_agree_with_every_rule_on_synthetic_catalogs(tmp_path):
    """A slice of the benchmark's python-docs-ko-sized set: generated catalogs with roles,
    literals, links, code blocks, glossary terms and a planted particle mistake in about
    one term of a hundred, checked against a 300-term glossary."""
    import importlib.util
    import random

    spec = importlib.util.spec_from_file_location("bench_check", ROOT / "benchmarks" / "bench_check.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    terms_ = bench.make_terms(random.Random(bench.SEED), 300)
    bench.generate(tmp_path / "catalogs", terms_, files=30, entries=4000)
    bench.write_glossary(tmp_path / "glossary.yaml", terms_)
    options = dict(paths=[tmp_path / "catalogs"], glossary=tmp_path / "glossary.yaml", jobs=1,
                   source_dir=tmp_path / "none")
    with_prefilter = run(Options(prefilter=True, **options))
    everything = run(Options(prefilter=False, **options))
    assert with_prefilter.findings == everything.findings
    assert len(with_prefilter.findings) > 50  # the planted mistakes are there to be found


# ------------------------------------------- the Korean side of the glossary scan

def reference(strings: list[str]) -> re.Pattern:
    """Leftmost-longest by brute force: every string as an alternative, longest first,
    a space matching a run of spaces."""
    squeezed = sorted({" ".join(s.split(" ")) for s in strings}, key=len, reverse=True)
    return re.compile("|".join(" +".join(map(re.escape, re.split(" +", s))) for s in squeezed))


KOREAN_STRINGS = sorted({*CHECKER.context.matcher.korean_strings.strings, "매개 변수", "자동 미분",
                         "a b", "a b c", "ab", "x y"})


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from([*KOREAN_STRINGS, " ", "  ", "을", "변", "a", "b", "c", "x"]),
                max_size=14).map("".join))
@example("a   b c")
@example("자동   미분을")
@example("x   y")
def test_automaton_finds_leftmost_longest_with_runs_of_spaces(text):
    expected = [(m.start(), m.end(), m.group(0)) for m in reference(KOREAN_STRINGS).finditer(text)]
    found = terms.Strings(KOREAN_STRINGS).finditer(text)
    assert [(m.start(), m.end(), m.group(0)) for m in found] == expected


def test_automaton_finds_what_the_reference_finds_with_the_project_glossary():
    matcher = Checker(Options(), glossary_model.load(ROOT / "glossary" / "ko.yaml")).context.matcher
    pattern = reference(matcher.korean_strings.strings)
    for path in sorted((ROOT / "locale" / "ko").rglob("*.po"))[:80]:
        for entry in pofile.read(path):
            expected = [(m.start(), m.end()) for m in pattern.finditer(entry.msgstr)]
            assert [(m.start(), m.end()) for m in matcher.korean_strings.finditer(entry.msgstr)] == expected


def test_a_math_block_reaches_the_math_rule_without_dollar_or_math():
    """Code and math blocks are compared whole: a changed math block without `$` or
    `math` in it is still caught (a `needs` prefilter on it hid such a finding)."""
    msgid = "\\frac{a}{b}\n= c"
    entries = [Entry(10, msgid, "\\frac{a}{b}\n= d", MYST)]
    assert CHECKER.messages(Path("x.po"), entries)[0].block == "math"
    with_prefilter, everything = findings_both_ways(entries)
    assert [f.rule for f in with_prefilter] == [f.rule for f in everything] == ["markup.math"]
