"""The parts of a message a translation copies verbatim: code, role targets, URLs.

A message is split into *prose* (what a translator rewrites) and *invariants* (what a
translation keeps as is), read with the checker's one grammar of inline markup
(:func:`jaxko.check.inline.parse`, MyST or reST as the message's source is), so
``jaxko glean``, the glossary rename and ``jaxko check`` see the same markup:

* inline literals (````x```` in reST, ```x``` and ````x```` in MyST), kind ``literal``;
* a role's target (``:func:`jax.jit```, ``{doc}`target```, reST's default role
  ```jax.jit```), kind ``role``; the role's name stays in the prose skeleton, so
  ``:func:`` becoming ``:class:`` is a prose change, not an invariant one;
* the ``<target>`` of a titled role or reST link and the ``(url)`` of a MyST link or
  image, kind ``target``: the title is prose, and a particle after the link attaches
  to the title;
* URLs (bare, or inside an autolink's ``<...>``), kind ``url``;
* math, substitutions, footnote labels, HTML tags and comments, under the checker's
  kind names (``math``, ``substitution``, ``footnote``, ``html``, ``comment``).

Emphasis and a MyST link's text are prose, with the markup inside them read in turn
(``*see `jax.jit`*``). A reST reference (```Name`_``) is prose: it is text the reader sees.
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxko.check import inline
from jaxko.check.message import MYST, RST, syntax_of


@dataclass(frozen=True)
class Invariant:
    """One verbatim piece: its kind, text, and span in the message."""

    kind: str        # literal, role, target, url, math, substitution, footnote, html, comment
    text: str
    start: int
    end: int
    word_end: bool   # a particle after the token attaches to this text (not to a title)


@dataclass(frozen=True)
class Split:
    """A message as a prose skeleton with the invariants taken out."""

    prose: tuple[str, ...]          # prose pieces between invariants (and role names)
    invariants: tuple[Invariant, ...]


def split(text: str, *, syntax: str = RST, normalise_space: bool = True) -> Split:
    """Split a message (``syntax``: ``"rst"`` or ``"myst"``) into prose and invariants."""
    found = _invariants(text, syntax, 0)
    prose: list[str] = []
    position = 0
    for token in found:
        piece = text[position:token.start]
        prose.append(" ".join(piece.split()) if normalise_space else piece)
        position = token.end
    piece = text[position:]
    prose.append(" ".join(piece.split()) if normalise_space else piece)
    return Split(tuple(prose), tuple(found))


def _invariants(text: str, syntax: str, offset: int) -> list[Invariant]:
    """The invariants of ``text`` (a message, or the inside of emphasis or a link text at
    ``offset`` in the message), in order."""
    found: list[Invariant] = []
    for item in inline.parse(text, syntax):
        start, end = item.start, item.end
        span = text[start:end]
        kind = item.kind
        if kind == inline.LITERAL:
            found.append(_token("literal", text, start, end, offset, True))
        elif kind in (inline.ROLE, inline.MATH) and item.role is not None:
            body_start, body_end = _role_body(span, syntax)
            body = span[body_start:body_end]
            opener = _title_target(body) if item.explicit_title else -1
            if opener >= 0:
                found.append(_token("target", text, start + body_start + opener,
                                    start + body_end, offset, False))
            else:
                found.append(_token("role", text, start + body_start, start + body_end,
                                    offset, True))
        elif kind == inline.MATH:
            found.append(_token("math", text, start, end, offset, True))
        elif kind in (inline.LINK, inline.IMAGE):
            if syntax == MYST:
                shown_at = start + (2 if kind == inline.IMAGE else 1)
                paren = shown_at + len(item.text) + 1
                if kind == inline.LINK and item.text:
                    found.extend(_invariants(item.text, syntax, offset + shown_at))
                found.append(_token("target", text, paren, end, offset, False))
            else:  # `title <url>`_
                close = span.rindex("`")
                opener = span.rfind("<", 0, close)
                found.append(_token("target", text, start + opener, start + close, offset, False))
        elif kind == inline.URL:
            if span.startswith("<") and span.endswith(">"):
                start, end = start + 1, end - 1
            found.append(_token("url", text, start, end, offset, True))
        elif kind in (inline.STRONG, inline.EMPHASIS):
            if syntax == MYST:  # reST's inline markup does not nest
                inner = 2 if kind == inline.STRONG else 1
                found.extend(_invariants(item.text, syntax, offset + start + inner))
        elif kind in (inline.SUBSTITUTION, inline.FOOTNOTE):
            found.append(_token(kind, text, start, end, offset, True))
        elif kind in (inline.HTML, inline.COMMENT):
            found.append(_token(kind, text, start, end, offset, False))
        # inline.REFERENCE: prose
    return found


def _token(kind: str, text: str, start: int, end: int, offset: int, word_end: bool) -> Invariant:
    return Invariant(kind, text[start:end], offset + start, offset + end, word_end)


def _role_body(span: str, syntax: str) -> tuple[int, int]:
    """(start, end) of the text between a role's backticks, within its span: MyST
    ``{name}`body``` (any run of backticks), reST ``:name:`body```, ```body`:name:``."""
    opening = span.index("`")
    if syntax == MYST:
        ticks = len(span) - len(span[opening:].lstrip("`")) - opening
        return opening + ticks, len(span) - ticks
    return opening + 1, span.rindex("`")


def _title_target(body: str) -> int:
    """Where the ``<target>`` of a titled role body starts (``title <target>``), as
    Sphinx's ``ReferenceRole`` splits it: the first unescaped ``<`` after the title's
    first character, with the body ending in ``>``; -1 when there is none."""
    if not body.endswith(">"):
        return -1
    at = body.find("<", 1)
    while at > 0 and body[at - 1] == "\\":
        at = body.find("<", at + 1)
    return at


def syntax_of_entry(entry) -> str:
    """The markup syntax of a polib entry's source: ``"myst"`` for .md/.ipynb, ``"rst"``
    otherwise (:func:`jaxko.check.message.syntax_of`, as ``jaxko check`` reads it)."""
    return syntax_of(tuple(f"{name}:{line}" if line else name for name, line in entry.occurrences))


def word_of(token: Invariant) -> str:
    """The text a following particle is read after: a literal's content, a URL as is."""
    return token.text.strip("`")
