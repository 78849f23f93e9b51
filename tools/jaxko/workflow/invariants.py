"""The parts of a message a translation copies verbatim: code, role targets, URLs.

A message is split into *prose* (what a translator rewrites) and *invariants* (what a
translation keeps as is): inline literals (````x```` and MyST ```x```), role targets
(``:func:`jax.jit```, ``{doc}`target```, the ``<target>`` of a titled role or link), link
targets (``[title](url)``) and bare URLs. A role's name stays in the prose skeleton, so
``:func:`` becoming ``:class:`` is a prose change, not an invariant one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ROLE = r"(?::[\w.+-]+(?::[\w.+-]+)*:|\{[\w.+:-]+\})"
_TOKEN = re.compile(
    r"(?P<literal>``(?:[^`]|`(?!`))+?``)"
    rf"|(?P<titled>(?P<t_role>{_ROLE})?`(?P<t_title>[^`<]*?)\s*(?P<t_target><[^`<>]+>)`(?P<t_end>__?)?)"
    rf"|(?P<role>{_ROLE}`[^`]+`)"
    r"|(?P<mdlink>\[(?P<m_title>[^\]\n]*)\](?P<m_target>\([^()\s]+(?:\([^()\s]*\)[^()\s]*)*\)))"
    r"|(?P<code>`[^`\n]+`(?!_))"
    r"|(?P<url>https?://[^\s<>`\"'\])]*[^\s<>`\"'\]).,;:!?])"
)


@dataclass(frozen=True)
class Invariant:
    """One verbatim piece: its kind, text, and span in the message."""

    kind: str        # literal, role, target, code, url
    text: str
    start: int
    end: int
    word_end: bool   # a particle after the token attaches to this text (not to a title)


@dataclass(frozen=True)
class Split:
    """A message as a prose skeleton with the invariants taken out."""

    prose: tuple[str, ...]          # prose pieces between invariants (and role names)
    invariants: tuple[Invariant, ...]


def split(text: str, *, normalise_space: bool = True) -> Split:
    """Split a message into prose and invariants."""
    prose: list[str] = []
    invariants: list[Invariant] = []
    pending = []
    position = 0

    def flush_prose() -> None:
        piece = "".join(pending)
        prose.append(" ".join(piece.split()) if normalise_space else piece)
        pending.clear()

    for match in _TOKEN.finditer(text):
        pending.append(text[position:match.start()])
        kind = match.lastgroup
        if kind == "titled":
            # role name, opening backtick and title are prose; the <target> is invariant
            pending.append(text[match.start():match.start("t_target")])
            flush_prose()
            invariants.append(Invariant("target", match.group("t_target"),
                                        match.start("t_target"), match.end("t_target"), False))
            pending.append(text[match.end("t_target"):match.end()])
        elif kind == "mdlink":
            pending.append(text[match.start():match.start("m_target")])
            flush_prose()
            invariants.append(Invariant("target", match.group("m_target"),
                                        match.start("m_target"), match.end("m_target"), False))
        elif kind == "role":
            token = match.group()
            name_end = token.index("`") + 1
            pending.append(token[:name_end])
            flush_prose()
            invariants.append(Invariant("role", token[name_end:-1], match.start() + name_end,
                                        match.end() - 1, True))
            pending.append("`")
        else:
            flush_prose()
            invariants.append(Invariant(kind, match.group(), match.start(), match.end(), True))
        position = match.end()
    pending.append(text[position:])
    flush_prose()
    return Split(tuple(prose), tuple(invariants))


def word_of(token: Invariant) -> str:
    """The text a following particle is read after: a literal's content, a URL as is."""
    return token.text.strip("`")
