"""A message: one translated entry as every rule sees it, parsed once.

The source syntax comes from the entry's ``#:`` location: ``.md`` and ``.ipynb`` are
MyST, ``.rst`` and Python docstrings are reStructuredText. Whether the message is a
code block (a literal block or a notebook code cell) or a math block decides which
rules apply; :mod:`jaxko.check.sources` tells, from the staged source when it can.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

MYST = "myst"
RST = "rst"
SYNTAXES = (MYST, RST)

TEXT = "text"
CODE = "code"
MATH = "math"

_LOCATION = re.compile(r"(\S+?\.(?:md|ipynb|rst|txt|py))(?::(?:docstring\b)?[^\s]*)?", re.I)
_SUPPRESS = re.compile(r"jaxko:\s*ignore\b(.*)", re.I)
_RULE_NAME = re.compile(r"^(?:all|[a-z]+(?:\.[a-z0-9-]+)?)$")


class MessageKey(NamedTuple):
    """One entry's identity, the same everywhere (findings, the site gate, review
    refusals): its catalog file, msgctxt and msgid, as gettext keys an entry."""

    catalog: str
    msgctxt: str | None
    msgid: str


@dataclass(slots=True, eq=False)
class Message:
    """One translated, non-fuzzy entry of a catalog (read-only by convention: a plain
    slotted class, because ~75,000 are made per run and a frozen dataclass costs
    several times more to create)."""

    path: str                    # the catalog file
    line: int                    # line of the entry's msgstr (where findings point)
    msgid: str
    msgstr: str
    msgctxt: str | None = None
    flags: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()   # `#:` lines as written
    tcomment: str = ""
    comment: str = ""
    syntax: str = MYST           # MYST or RST
    block: str = TEXT            # TEXT, CODE or MATH
    language: str | None = None  # language of a code block, when known
    # Rules suppressed on this entry (`jaxko: ignore RULE` comments).
    ignored: frozenset[str] = field(default=frozenset())
    heading: bool = False        # a section title in its source document
    document: str | None = None  # source document of the first `#:` location
    # The syntax Sphinx will parse the msgstr with: the translated document's, when the
    # staged source is at hand (never the `#:` claim alone), else `syntax`.
    parsed_as: str | None = None
    # Reference names of the catalog's translated entries (docutils-normalised msgid ->
    # normalised msgstrs): Sphinx's i18n gives a translated section title its
    # translated name, so `번역된 제목`_ may stand for `Title`_ (see ``safety.structure``).
    names: dict | None = None
    # Values derived by rules (parsed markup, terms found), shared between rules.
    cache: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    @property
    def key(self) -> MessageKey:
        return MessageKey(self.path, self.msgctxt, self.msgid)

    def suppressed(self, rule: str) -> bool:
        """Whether a `jaxko: ignore` comment on the entry covers ``rule``."""
        return is_suppressed(self.ignored, rule)


# A translator comment is written by the same hand as the msgstr: it can never lift a
# safety decision (docs/threat-model.md).
UNSUPPRESSIBLE = ("safety.",)
# Rules about the `jaxko: ignore` comments themselves (``ignore.unused``): a comment never
# hides the finding about itself, not even a bare `jaxko: ignore`.
SELF_REPORTING = ("ignore.",)


def reference_name(text: str) -> str:
    """A text as docutils normalises a reference name: whitespace collapsed, lower case."""
    return " ".join(text.split()).lower()


def translated_names(entries) -> dict[str, frozenset[str]]:
    """Reference names of the translated, non-fuzzy one-line entries of a catalog (its
    section titles among them): name of the msgid -> names of its msgstr."""
    names: dict[str, set[str]] = {}
    for entry in entries:
        if entry.msgid and entry.msgstr and "fuzzy" not in entry.flags \
                and "\n" not in entry.msgid and len(entry.msgid) <= 200:
            names.setdefault(reference_name(entry.msgid), set()).add(reference_name(entry.msgstr))
    return {name: frozenset(found) for name, found in names.items()}


def is_suppressed(ignored: frozenset[str], rule: str) -> bool:
    """Whether ``jaxko: ignore`` names (:func:`ignored_rules`) cover ``rule``; never a
    safety rule, nor a rule about the comments themselves."""
    if not ignored or rule.startswith(UNSUPPRESSIBLE) or rule.startswith(SELF_REPORTING):
        return False
    if "all" in ignored or rule in ignored:
        return True
    return any(rule.startswith(name + ".") for name in ignored)


def first_location(locations: tuple[str, ...]) -> tuple[str, int] | None:
    """(document, line) of the first ``#:`` reference, as Sphinx writes them."""
    for text in locations:
        for token in text.split():
            name, _, line = token.rpartition(":")
            if name and line.lstrip("-").isdigit():
                return name, int(line)
            if not name and token:
                return token, 0
    return None


def syntax_of(locations: tuple[str, ...], default: str = RST) -> str:
    """MYST for .md/.ipynb sources, RST for .rst and docstrings; ``default`` otherwise."""
    for text in locations:
        lowered = text.lower()
        if ".ipynb" in lowered or ".md:" in lowered or lowered.endswith(".md"):
            return MYST
        if ".rst" in lowered or ":docstring" in lowered or ".py" in lowered or ".txt" in lowered:
            return RST
    return default


def ignored_rules(tcomment: str, comment: str) -> frozenset[str]:
    """Rule names from ``jaxko: ignore a.b, c -- reason`` in translator or extracted comments.

    A bare ``jaxko: ignore`` ignores every rule on the entry.
    """
    names: set[str] = set()
    for text in (tcomment, comment):
        if not text or "jaxko" not in text:
            continue
        for line in text.split("\n"):
            match = _SUPPRESS.search(line)
            if not match:
                continue
            # `jaxko: ignore a.b, c -- why`: names up to the first word that is not one.
            found = []
            for token in re.split(r"[\s,]+", match.group(1).strip()):
                if not token:
                    continue
                if not _RULE_NAME.match(token):
                    break
                found.append(token)
            names.update(found or ["all"])
    return frozenset(names)
