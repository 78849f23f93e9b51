"""Every registered rule: its documented Bad example fires, its Good example stays clean,
and the translator guide (docs/checks.md) lists it with those examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxko.check.examples import fix_example, run_example
from jaxko.check.registry import FAMILIES, RULES, rule
from jaxko.check.runner import load_rules_modules

load_rules_modules()
GUIDE = Path(__file__).resolve().parents[1] / "docs" / "checks.md"


@pytest.mark.parametrize("name", sorted(RULES))
def test_bad_example_fires(name):
    rule_ = RULES[name]
    examples = rule_.examples("Bad")
    assert examples, f"{name} has no Bad:: example"
    for example in examples:
        # The exact findings, as sphinx-lint's expectation lines: the rule, each message,
        # how many.
        assert "expect" in example, f"{name}: a Bad example needs `expect:` (its messages)"
        found = run_example(rule_, example)
        assert {f.rule for f in found} <= {name}
        assert [f.message for f in found] == example["expect"], f"{name}: {example}"


@pytest.mark.parametrize("name", sorted(RULES))
def test_good_example_stays_clean(name):
    rule_ = RULES[name]
    examples = rule_.examples("Good")
    assert examples, f"{name} has no Good:: example"
    for example in examples:
        assert run_example(rule_, example) == [], f"{name}: Good example has findings"


@pytest.mark.parametrize("name", sorted(RULES))
def test_a_fix_turns_bad_into_good(name):
    """A rule that fixes: its Bad example, fixed, is its Good example (the fix's expected
    output); with fix="always", every Bad example is fixed. A rule that never fixes
    changes nothing."""
    rule_ = RULES[name]
    goods = {(str(entry.get("location", "example.md:1")), str(entry["msgid"])): str(entry["msgstr"])
             for example in rule_.examples("Good") for entry in example.get("entries", [example])}
    fixed_any = False
    for example in rule_.examples("Bad"):
        changed = fix_example(rule_, example)
        if not rule_.fixable:
            assert changed == {}, f"{name} declares fix='never' and changed {changed}"
            continue
        if rule_.fix == "always":
            assert changed, f"{name} declares fix='always' and did not fix {example}"
        for key, msgstr in changed.items():
            assert key in goods, f"{name}: no Good example for the fixed {key}"
            assert msgstr == goods[key], f"{name}: Bad fixed to {msgstr!r}, Good is {goods[key]!r}"
            fixed_any = True
    if rule_.fixable:
        assert fixed_any, f"{name} declares a fix and fixes none of its Bad examples"


def test_families_cover_the_issues():
    families = {r.family for r in RULES.values()}
    assert {"glossary", "particle", "markup", "safety", "code", "consistency", "leftover",
            "syntax"} <= families


def test_safety_and_project_rules_cannot_declare_a_fix():
    with pytest.raises(ValueError, match="never fix"):
        rule("safety.fixes-a-refusal", fix="always")
    with pytest.raises(ValueError, match="never fix"):
        rule("consistency.fixes", scope="project", fix="sometimes")
    with pytest.raises(ValueError, match="fix of"):
        rule("markup.maybe", fix="perhaps")
    assert all(not r.fixable for r in RULES.values() if r.family == "safety" or r.scope == "project")


def test_a_rule_declares_its_explanation_and_family():
    doc = """Something.

    Bad::

        msgid: a
        msgstr: b

    Good::

        msgid: a
        msgstr: a
    """

    def undeclared(message, context):
        yield from ()
    undeclared.__doc__ = doc
    with pytest.raises(ValueError, match="Korean explanation"):
        rule("markup.no-explanation")(undeclared)
    with pytest.raises(ValueError, match="declare its family"):
        rule("nofamily.rule", explanation="설명")(undeclared)
    assert all(r.explanation and r.family in FAMILIES for r in RULES.values())


def test_the_markup_language_test_is_metadata():
    """The three safety rules that read only markup code blocks say so in their
    declaration; the runner applies it (a Python block with `.. raw::` in a string is
    code.tokens' to judge)."""
    from jaxko.check.safety import MARKUP_LANGUAGES

    declared = {name for name, r in RULES.items() if r.code_languages == MARKUP_LANGUAGES}
    assert declared == {"safety.raw", "safety.file", "safety.directive"}

    from jaxko import glossary
    from jaxko.check.message import CODE, Message
    from jaxko.check.runner import Checker, Options

    checker = Checker(Options(source_dir=GUIDE.parent / "no-such-folder",
                              select=["safety.raw", "safety.directive"]), glossary.Glossary())
    msgid = "x = 1\n"
    msgstr = "x = 1\n.. raw:: html\n"

    def fired(language):
        message = Message("x.po", 3, msgid, msgstr, syntax="rst", block=CODE, language=language)
        return sorted({f.rule for f in checker.check([message]).findings})

    assert fired("python") == []
    assert fired("rst") == fired(None) == ["safety.directive", "safety.raw"]


def test_a_rule_without_examples_cannot_register():
    with pytest.raises(ValueError, match="Bad:: and Good::"):
        @rule("test.no-examples")
        def undocumented(message, context):
            """Nothing to show."""
            yield from ()
    with pytest.raises(ValueError, match="family.name"):
        rule("NoDot")


@pytest.mark.parametrize("name", sorted(RULES))
def test_guide_lists_rule_with_its_examples(name):
    text = GUIDE.read_text(encoding="utf-8")
    assert f"`{name}`" in text, f"docs/checks.md does not list {name}; run `python -m jaxko.check.guide`"
    for kind in ("Bad", "Good"):
        for example in RULES[name].examples(kind):
            for entry in example.get("entries", [example]):
                assert str(entry["msgstr"]).splitlines()[0] in text


def test_guide_is_up_to_date():
    from jaxko.check.guide import prose_of, render

    text = GUIDE.read_text(encoding="utf-8")
    assert text == render(prose_of(text)), \
        "docs/checks.md is stale; run `.venv/bin/python -m jaxko.check.guide`"


def test_guide_without_its_marker_is_left_alone(tmp_path):
    from jaxko.check.guide import main

    page = tmp_path / "checks.md"
    page.write_text("# 번역 검사 규칙\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=f"{page}: the line .* is missing"):
        main([str(page)])
    assert page.read_text(encoding="utf-8") == "# 번역 검사 규칙\n"


@pytest.mark.parametrize("msgstr, shown", [
    ("추가했습니다\\ ({jax-issue}`#1`).", 1),          # reST's escaped space, in Markdown
    ("`x`\\를 씁니다.", 1),                             # before Hangul
    ("경로는 C:\\\\ 드라이브입니다.", 0),               # an escaped backslash, then a space
    ("수식 $a\\ b$와 코드 `a\\ b`를 봅니다.", 0),        # LaTeX's space, code: not prose
    ("별표는 \\*로 씁니다.", 0),                        # a real Markdown escape
])
def test_markup_backslash_reads_what_markdown_shows(msgstr, shown):
    example = {"location": "pallas/CHANGELOG.md:392", "msgid": "Some text.", "msgstr": msgstr}
    assert len(run_example(RULES["markup.backslash"], example)) == shown
