"""What every rule may read besides the message: the compiled glossary, the options."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from jaxko import korean
from jaxko.check import inline
from jaxko.check.message import Message
from jaxko.check.terms import TermMatcher
from jaxko.glossary import Glossary


@dataclass
class Context:
    """Shared, read-only state of one check run (built before the workers fork)."""

    glossary: Glossary = field(default_factory=Glossary)
    # The rules of this run: a rule may leave a defect to another that says it (one
    # defect, one finding) only when that one runs too.
    rules: frozenset[str] = frozenset()

    @cached_property
    def matcher(self) -> TermMatcher:
        return TermMatcher(self.glossary.checked)  # `check: false` entries: not looked for

    @cached_property
    def recorded_matcher(self) -> TermMatcher:
        """The renderings of the ``check: false`` entries, for the particle rule."""
        return TermMatcher(self.glossary.recorded)

    @cached_property
    def readings(self) -> dict[str, str]:
        return self.glossary.readings

    @cached_property
    def _memos(self) -> dict[str, dict]:
        return {}

    def memo(self, name: str) -> dict:
        """A per-run memo table (each worker fills its own after the fork)."""
        return self._memos.setdefault(name, {})

    def ending(self, word: str) -> str | None:
        """:func:`jaxko.korean.ending_of` with the glossary readings, memoised: the same
        words (terms, `jax.numpy`) come back thousands of times."""
        endings = self.memo("ending")
        if word not in endings:
            endings[word] = korean.ending_of(word, self.readings)
        return endings[word]


# Per-message derived data, computed on first use by whichever rule needs it.


def msgid_inlines(message: Message) -> tuple[inline.Inline, ...]:
    return inline.parse(message.msgid, message.syntax)


def msgstr_inlines(message: Message) -> tuple[inline.Inline, ...]:
    return inline.parse(message.msgstr, message.syntax)


def msgid_masked(message: Message) -> str:
    """The msgid with code, targets, URLs and math blanked (see :func:`inline.mask`)."""
    cache = message.cache
    if "msgid_masked" not in cache:
        cache["msgid_masked"] = inline.mask(message.msgid, msgid_inlines(message), syntax=message.syntax)
    return cache["msgid_masked"]


def msgstr_masked(message: Message) -> str:
    cache = message.cache
    if "msgstr_masked" not in cache:
        cache["msgstr_masked"] = inline.mask(message.msgstr, msgstr_inlines(message), syntax=message.syntax)
    return cache["msgstr_masked"]


def cached(message: Message, key: str, compute):
    """A value derived from the message, computed once however many rules ask."""
    cache = message.cache
    if key not in cache:
        cache[key] = compute()
    return cache[key]
