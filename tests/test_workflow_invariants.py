"""glean and the glossary rename read markup with the checker's one grammar
(:func:`jaxko.check.inline.parse`, through :mod:`jaxko.workflow.invariants`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxko import catalogs
from jaxko.check import inline
from jaxko.check.message import syntax_of
from jaxko.workflow import glean, glossary_tools, invariants

ROOT = Path(__file__).resolve().parents[1]


def kinds(text: str, syntax: str) -> list[tuple[str, str]]:
    found = invariants.split(text, syntax=syntax).invariants
    assert all(text[t.start:t.end] == t.text for t in found)
    return [(t.kind, t.text) for t in found]


@pytest.mark.parametrize("syntax, text, expected", [
    ("rst", "See :func:`jax.jit` and ``x`` at https://jax.dev.",
     [("role", "jax.jit"), ("literal", "``x``"), ("url", "https://jax.dev")]),
    ("rst", ":doc:`안내서 <jit>`\\ 를", [("target", "<jit>")]),
    ("rst", "`JAX <https://jax.dev>`_ 참고", [("target", "<https://jax.dev>")]),
    ("rst", "`jax.jit`\\ 은 `Name`_", [("role", "jax.jit")]),      # a reference is prose
    ("rst", "|version| [1]_", [("substitution", "|version|"), ("footnote", "[1]_")]),
    ("myst", "[`jax.jit`](https://x) 와 {func}`jax.grad` $x^2$ <br> *강조 `c`*",
     [("literal", "`jax.jit`"), ("target", "(https://x)"), ("role", "jax.grad"),
      ("math", "$x^2$"), ("html", "<br>"), ("literal", "`c`")]),
    ("myst", "{doc}`제목 <a/b>` ![그림](img.png)", [("target", "<a/b>"), ("target", "(img.png)")]),
    ("myst", "<https://a.b/c>", [("url", "https://a.b/c")]),
    # the same text read as MyST: a code span, as MyST renders it
    ("myst", "`JAX <https://jax.dev>`_ 참고", [("literal", "`JAX <https://jax.dev>`")]),
    ("myst", "그냥 글", []),
])
def test_invariants_by_syntax(syntax, text, expected):
    assert kinds(text, syntax) == expected


def test_every_invariant_is_a_construct_the_checker_reads():
    """On every message of the committed catalogs: each invariant lies inside one
    construct of the checker's parse, in the message's syntax."""
    seen = 0
    for path in sorted((ROOT / "locale" / "ko").rglob("*.po")):
        for entry in catalogs.read(path):
            syntax = syntax_of(entry.locations)
            for text in (entry.msgid, entry.msgstr):
                spans = [(i.start, i.end) for i in inline.parse(text, syntax)]
                for token in invariants.split(text, syntax=syntax).invariants:
                    seen += 1
                    assert any(a <= token.start and token.end <= b for a, b in spans), \
                        (path.name, entry.line, token)
    assert seen > 1000


def test_rename_keeps_code_math_and_html_and_renames_prose():
    rewrite = glossary_tools.rewrite
    assert rewrite("[`컨볼루션`](a.md)의 컨볼루션", ["컨볼루션"], "합성곱", syntax="myst") == \
        "[`컨볼루션`](a.md)의 합성곱"
    assert rewrite('<span title="컨볼루션">컨볼루션</span>', ["컨볼루션"], "합성곱",
                   syntax="myst") == '<span title="컨볼루션">합성곱</span>'
    assert rewrite("$컨볼루션$ 컨볼루션", ["컨볼루션"], "합성곱", syntax="myst") == "$컨볼루션$ 합성곱"
    # a titled role's title is prose, its target is not
    assert rewrite(":doc:`컨볼루션 <컨볼루션>`", ["컨볼루션"], "합성곱") == ":doc:`합성곱 <컨볼루션>`"


def test_glean_reads_the_message_in_its_syntax():
    previous, msgid = "See `JAX <https://old.dev>`_.", "See `JAX <https://new.dev>`_."
    outcome = glean.glean_message(previous, msgid, "`JAX <https://old.dev>`_ 참고.", syntax="rst")
    assert outcome.gleaned and outcome.changes == (("<https://old.dev>", "<https://new.dev>"),)
    # the title is prose in reST: a changed title is a prose change
    assert not glean.glean_message(previous, "See `Jax <https://new.dev>`_.",
                                   "`JAX <https://old.dev>`_ 참고.", syntax="rst").gleaned


@pytest.mark.parametrize("syntax, previous, msgid, msgstr, expected", [
    ("rst", "Use `jit` now.", "Use `grad` now.", "`jit`\\ 을 쓰세요.", "`grad`\\ 를 쓰세요."),
    ("rst", "Use :func:`jit`.", "Use :func:`grad`.", ":func:`jit`\\ 을 쓰세요.",
     ":func:`grad`\\ 를 쓰세요."),
    ("myst", "Use {func}`jit`.", "Use {func}`grad`.", "{func}`jit`을 쓰세요.", "{func}`grad`를 쓰세요."),
])
def test_glean_rechooses_the_particle_after_a_role(syntax, previous, msgid, msgstr, expected):
    outcome = glean.glean_message(previous, msgid, msgstr, syntax=syntax)
    assert outcome.gleaned and outcome.msgstr == expected
