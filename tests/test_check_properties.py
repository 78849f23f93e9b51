"""Property tests: no rule crashes on arbitrary msgid/msgstr text, in any syntax or block kind."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from jaxko import glossary
from jaxko.check.message import CODE, MATH, MYST, RST, TEXT, Message
from jaxko.check.registry import RULES, Finding
from jaxko.check.runner import Checker, Options, load_rules_modules

load_rules_modules()
GLOSSARY = glossary.load(Path(__file__).parent / "fixtures" / "check" / "glossary.yaml")

# Text with a bias towards what the rules look for: markup, Hangul, particles, terms.
pieces = st.sampled_from([
    "`", "``", "*", "**", ":func:", "{func}", "`jax.jit`", "<", ">", "<script>", "[", "](", ")",
    "$", "$$", "|", "_", "\\ ", "\n", " ", "을", "를", "으로", "합성곱", "배열", "JAX", "jit",
    "convolution", "arrays", "https://x.y", "javascript:", ".. raw::", "{raw}", "[#]_", "[^1]",
    "(", "컨볼루션", "매개 변수", "parameter", "x = 1", "print(\"a\")", "#", "\t",
])
texts = st.lists(st.one_of(pieces, st.text(max_size=8)), max_size=25).map("".join)


# Every rule, no source documents (the heuristics tell code from text).
CHECKER = Checker(Options(source_dir=Path(__file__).parent / "no-such-folder"), GLOSSARY)


@settings(max_examples=300, deadline=None)
@given(msgid=texts, msgstr=texts, syntax=st.sampled_from([MYST, RST]),
       block=st.sampled_from([TEXT, CODE, MATH]), comment=st.sampled_from(["", "jaxko: ignore markup"]))
def test_no_rule_crashes(msgid, msgstr, syntax, block, comment):
    from jaxko.check.message import ignored_rules

    message = Message("x.po", 3, msgid, msgstr, syntax=syntax, block=block, language="python",
                      tcomment=comment, ignored=ignored_rules(comment, ""))
    outcome = CHECKER.check([message])
    findings, checked = outcome.findings, outcome.checked
    assert checked == 1
    for finding in findings:
        assert isinstance(finding, Finding) and finding.rule in RULES
        assert finding.message and "\n" not in finding.rule


english = texts.filter(lambda t: not any("가" <= ch <= "힣" for ch in t))


@settings(max_examples=100, deadline=None)
@given(msgid=english)
def test_identical_translation_is_clean_apart_from_leftovers(msgid):
    """A msgstr equal to its (English) msgid keeps every piece of markup: only leftover.*
    and glossary.* may fire."""
    for syntax in (MYST, RST):
        message = Message("x.po", 3, msgid, msgid, syntax=syntax)
        findings = CHECKER.check([message]).findings
        assert {f.rule.split(".")[0] for f in findings} <= {"leftover", "glossary"}
