"""What every rule may read besides the message: the compiled glossary, the options."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from jaxko.check import inline
from jaxko.check.message import Message
from jaxko.check.terms import TermMatcher
from jaxko.glossary import Glossary


@dataclass
class Context:
    """Shared, read-only state of one check run (built before the workers fork)."""

    glossary: Glossary = field(default_factory=Glossary)

    @cached_property
    def matcher(self) -> TermMatcher:
        return TermMatcher(self.glossary)

    @cached_property
    def readings(self) -> dict[str, str]:
        return self.glossary.readings


# Per-message derived data, computed on first use by whichever rule needs it.


def msgid_inlines(message: Message) -> tuple[inline.Inline, ...]:
    return inline.parse(message.msgid, message.syntax)


def msgstr_inlines(message: Message) -> tuple[inline.Inline, ...]:
    return inline.parse(message.msgstr, message.syntax)


def cached(message: Message, key: str, compute):
    """A value derived from the message, computed once however many rules ask."""
    cache = message.cache
    if key not in cache:
        cache[key] = compute()
    return cache[key]
