"""Leftovers: English left in a msgstr, whole or in part."""

from __future__ import annotations

import re

from jaxko.check import inline
from jaxko.check.context import Context, msgid_inlines, msgstr_inlines
from jaxko.check.message import Message
from jaxko.check.registry import Hit, rule

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:[ ,;]+[A-Za-z][A-Za-z'’-]*){4,}")
_HANGUL = re.compile(r"[가-힣]")
MIN_WORDS = 5


@rule("leftover.untranslated", severity="warning")
def untranslated(message: Message, context: Context):
    """The msgstr is the English msgid copied unchanged (a long sentence, not a name or code).

    Bad::

        location: faq.md:4
        msgid: JAX arrays are immutable, unlike NumPy arrays.
        msgstr: JAX arrays are immutable, unlike NumPy arrays.

    Good::

        location: faq.md:4
        msgid: JAX arrays are immutable, unlike NumPy arrays.
        msgstr: NumPy 배열과 달리 JAX 배열은 변경할 수 없습니다.
    """
    if message.msgstr != message.msgid:
        return
    prose = inline.mask(message.msgid, msgid_inlines(message), syntax=message.syntax)
    if len(_WORD.findall(prose)) >= MIN_WORDS:
        yield Hit("the msgstr is the English msgid unchanged; translate it, or leave it "
                  "empty so the English shows")


@rule("leftover.english", severity="warning")
def english_remainder(message: Message, context: Context):
    """A translated msgstr still holds a run of five or more English words from its msgid.

    Bad::

        location: faq.md:4
        msgid: JAX arrays are immutable, unlike NumPy arrays, so you update them functionally.
        msgstr: NumPy 배열과 달리 JAX 배열은 불변이므로, so you update them functionally.

    Good::

        location: faq.md:4
        msgid: JAX arrays are immutable, unlike NumPy arrays, so you update them functionally.
        msgstr: NumPy 배열과 달리 JAX 배열은 불변이므로 함수형으로 갱신합니다.
    """
    if message.msgstr == message.msgid or not _HANGUL.search(message.msgstr):
        return
    masked = inline.mask(message.msgstr, msgstr_inlines(message), syntax=message.syntax)
    runs = _ENGLISH_RUN.findall(masked)
    if not runs:
        return
    source = " ".join(inline.mask(message.msgid, msgid_inlines(message), syntax=message.syntax).lower().split())
    for run in runs:
        words = " ".join(run.lower().split())
        if words in source:
            yield Hit(f"untranslated English left in the msgstr: `{run.strip()}`")
            return
