"""Leftovers: English left in a msgstr, whole or in part."""

from __future__ import annotations

import re

from jaxko.check import inline
from jaxko.check.context import Context, msgid_inlines, msgstr_inlines
from jaxko.check.message import Message
from jaxko.check.registry import Hit, family, rule

FAMILY = family("leftover", "남은 영어 (leftover)", order=7)

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:[ ,;]+[A-Za-z][A-Za-z'’-]*){4,}")
_HANGUL = re.compile(r"[가-힣]")
MIN_WORDS = 5
# Prose has a run of lower-case words separated by single spaces ("are immutable, unlike");
# a command line, a header or a list of codec names has not.
_SENTENCE = re.compile(r"(?<![\w.:/-])[A-Za-z][a-z]*(?: [A-Za-z][a-z]*){2,}(?![\w:=/(-])")
# Attribution and credit lines are names and references, not prose to translate:
# "(Contributed by Name in :gh:`123`.)", "(Patch by A and B.)".
_ATTRIBUTION = re.compile(
    r"\((?:[A-Za-z]+ ){0,3}(?:contributed|written|patch(?:es)?|implemented|suggested|reported|"
    r"designed|fixed|reviewed|developed|added|originally|initial|based|by)\b[^()]*\)",
    re.I)
# The same as a whole message: "Contributed by Name in :issue:`1`.", "Copyright © 2001 PSF."
_CREDIT_LINE = re.compile(r"^\s*(?:(?:contributed|written|patch(?:es)?|implemented|originally "
                          r"contributed) by\b|copyright\b).*$", re.I | re.S)


def _prose(text: str, inlines, syntax: str, titles: bool = True) -> str:
    """``text`` with markup and attribution lines blanked out (same length); without
    ``titles``, the display text of roles and links too (an API or book title)."""
    masked = inline.mask(text, inlines, syntax=syntax)
    if not titles:
        for item in inlines:
            if item.explicit_title and item.kind in (inline.ROLE, inline.LINK, inline.REFERENCE):
                masked = masked[:item.start] + " " * (item.end - item.start) + masked[item.end:]
    masked = _CREDIT_LINE.sub(lambda m: " " * len(m.group(0)), masked)
    return _ATTRIBUTION.sub(lambda m: " " * len(m.group(0)), masked)


@rule("leftover.untranslated", severity="info",
      explanation=(
          "긴 영어 문장을 msgstr에 그대로 복사했습니다(경고). 번역하거나, 영어를 그대로 보이려면 "
          "msgstr을 비워 둡니다."))
def untranslated(message: Message, context: Context):
    """The msgstr is the English msgid copied unchanged (a long sentence, not names or code).

    Bad::

        location: faq.md:4
        msgid: JAX arrays are immutable, unlike NumPy arrays.
        msgstr: JAX arrays are immutable, unlike NumPy arrays.
        expect:
          - 'the msgstr is the English msgid unchanged; translate it, or leave it empty so the English shows'

    Good::

        location: faq.md:4
        msgid: JAX arrays are immutable, unlike NumPy arrays.
        msgstr: NumPy 배열과 달리 JAX 배열은 변경할 수 없습니다.

    Good::

        location: whatsnew/3.8.rst:40
        msgid: "(Contributed by Raymond Hettinger in :gh:`12345`.)"
        msgstr: "(Contributed by Raymond Hettinger in :gh:`12345`.)"
    """
    if message.msgstr != message.msgid:
        return
    # Titles of references and roles copied unchanged are names (a book title, an API).
    prose = _prose(message.msgid, msgid_inlines(message), message.syntax, titles=False)
    words = _WORD.findall(prose)
    if len(words) >= MIN_WORDS and _SENTENCE.search(prose) and not _names_only(words, context):
        yield Hit("the msgstr is the English msgid unchanged; translate it, or leave it "
                  "empty so the English shows")


def _kept_words(context: Context) -> tuple[frozenset[str], frozenset[str]]:
    """Words of the terms kept in English: (as written, lower-cased for case-blind terms)."""
    memo = context.memo("kept-words")
    if not memo:
        exact, blind = set(), set()
        for term in context.glossary.terms:
            if term.keep:
                for text in (term.en, *term.forms):
                    for word in _WORD.findall(text):
                        (exact if term.case_sensitive else blind).add(
                            word if term.case_sensitive else word.lower())
        memo["words"] = (frozenset(exact), frozenset(blind))
    return memo["words"]


def _names_only(words: list[str], context: Context) -> bool:
    """Whether every word is a name: a kept glossary term, an acronym or CamelCase name
    (TPU, NumPy, ROCm), or a capitalised word past the first (Google Cloud)."""
    exact, blind = _kept_words(context)
    for position, word in enumerate(words):
        if word in exact or word.lower() in blind:
            continue
        if any(ch.isupper() for ch in word[1:]):
            continue
        if position > 0 and word[0].isupper():
            continue
        return False
    return True


def _kept_on_purpose(run: str, text: str, whole_msgid: str) -> bool:
    """English a translator keeps on purpose: a list of names or fields (time, priority,
    action), a title or names (Creative Commons Public Domain Dedication, Guido van
    Rossum), a quoted message ("Protocol or cipher suite mismatch"), or the whole
    msgid shown with its translation (No space left on device -- 장치에 ...)."""
    words = _WORD.findall(run)
    if run.count(",") >= len(words) - 2:
        return True
    if sum(1 for w in words if w[0].isupper()) * 3 >= len(words) * 2:
        return True
    at = text.find(run)
    if at > 0 and text[at - 1] in "\"'“‘(":
        return True
    return " ".join(w.lower() for w in words) == whole_msgid


@rule("leftover.english", severity="info",
      explanation=(
          "번역한 msgstr에 msgid의 영어 단어가 다섯 개 이상 이어서 남아 있습니다(경고). 책 제목처럼 "
          "영어로 두는 것이 맞으면 `# jaxko: ignore leftover.english -- 이유`를 답니다."))
def english_remainder(message: Message, context: Context):
    """A translated msgstr still holds a run of five or more English words from its msgid.

    Bad::

        location: faq.md:4
        msgid: JAX arrays are immutable, unlike NumPy arrays, so you update them functionally.
        msgstr: NumPy 배열과 달리 JAX 배열은 불변이므로, so you update them functionally.
        expect:
          - 'untranslated English left in the msgstr: `so you update them functionally`'

    Good::

        location: faq.md:4
        msgid: JAX arrays are immutable, unlike NumPy arrays, so you update them functionally.
        msgstr: NumPy 배열과 달리 JAX 배열은 불변이므로 함수형으로 갱신합니다.

    Good::

        location: whatsnew/3.8.rst:41
        msgid: The function now accepts a timeout. (Contributed by Steve Dower in :issue:`23668`.)
        msgstr: 이제 함수가 시간제한을 받습니다. (Contributed by Steve Dower in :issue:`23668`.)
    """
    if message.msgstr == message.msgid or not _HANGUL.search(message.msgstr):
        return
    masked = _prose(message.msgstr, msgstr_inlines(message), message.syntax)
    runs = _ENGLISH_RUN.findall(masked)
    if not runs:
        return
    source = " ".join(inline.mask(message.msgid, msgid_inlines(message), syntax=message.syntax).lower().split())
    whole = " ".join(_WORD.findall(source))
    for run in runs:
        words = " ".join(run.lower().split())
        if _kept_on_purpose(run, masked, whole):
            continue
        if words in source:
            yield Hit(f"untranslated English left in the msgstr: `{run.strip()}`")
            return
