"""The glossary compiled for matching: English terms in msgids, renderings in msgstrs.

Built once per run, before the worker processes fork, and then read-only.

* English side: words are found with one ``findall`` and looked up in a dictionary of
  every term's forms (regular plurals and verb forms generated, irregular ones from
  ``forms:``), longest phrase first. The cost per message depends on its length, not
  on the number of terms.
* Korean side: every accepted and forbidden rendering goes into one Aho-Corasick
  automaton (pyahocorasick), so one pass over a msgstr finds
  them all, whatever the number of terms. Particles after a rendering (배열**을**) are
  simply the text after the match; a second automaton over the renderings without spaces
  finds spacing variants (매개 변수 for 매개변수) when the exact rendering is missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from jaxko.glossary import Glossary, Term

WORD = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")

# English phrases in which a glossary word is not the term (the "instance" of "for
# instance"): matched like terms, longest first, and then ignored.
IDIOMS = ("for instance", "key thing", "key things", "key point", "key points", "key idea",
          "key ideas", "key insight", "key difference", "key differences", "key concept",
          "key concepts", "key feature", "key features", "key part", "key parts", "key takeaway", "key takeaways",
          "in order to", "a number of", "on the other hand", "in terms of",
          "in place of", "a host of", "as a function of", "state of the art")
# Regular inflections that are other words, not the term's verb forms: "floating" is
# not a float, "layering" not a layer, "threading state through" not a thread.
NOT_INFLECTIONS = frozenset({"floating", "floated", "layering", "layered", "threaded",
                             "threading"})
_IGNORED_TERM = -1
_SPACES = re.compile(" {2,}")


def matched_text(match: re.Match) -> str:
    """The rendering a Korean match stands for (runs of spaces read as one)."""
    text = match.group(0)
    return _SPACES.sub(" ", text) if "  " in text else text
_VOWELS = "aeiou"


def inflections(word: str, pos: str | None) -> set[str]:
    """Regular English forms of a word: plurals, and verb forms unless it is a noun."""
    forms = {word}
    if not word.isalpha() or len(word) < 2:
        return forms
    lower = word.lower()
    upper = word.isupper()

    def add(suffix_form: str) -> None:
        forms.add(suffix_form.upper() if upper and not suffix_form.endswith("s") else suffix_form)

    nounish = pos in (None, "noun", "phrase", "name")
    verbish = pos in (None, "verb")
    if nounish or verbish:
        if lower.endswith(("s", "x", "z", "ch", "sh")):
            add(word + "es")
        elif lower.endswith("y") and lower[-2] not in _VOWELS:
            add(word[:-1] + "ies")
        else:
            add(word + "s")
    if verbish:
        base = word[:-1] if lower.endswith("e") else word
        add(base + "ed")
        add(base + "ing")
        if lower.endswith("y") and lower[-2] not in _VOWELS:
            add(word[:-1] + "ied")
        if (len(lower) >= 3 and lower[-1] not in _VOWELS + "wxy" and lower[-2] in _VOWELS
                and lower[-3] not in _VOWELS):
            add(word + word[-1] + "ed")
            add(word + word[-1] + "ing")
    return forms


@dataclass(frozen=True)
class _Phrase:
    words: tuple[str, ...]   # lower case unless the term is case-sensitive
    term: int                # index into TermMatcher.terms
    case_sensitive: bool


_PARTICLE_FINALS = ("이", "가", "은", "는", "을", "를", "의", "에", "로", "와", "과", "도", "만")


def _particle_split(written: str) -> bool:
    """Whether a word before a space in ``written`` ends in a particle (모듈이 제거: 모듈 +
    이, then the space), so the spaced text is two words, not a spaced term. By the last
    syllable, not a morpheme analyser: this runs inside the check, where loading one costs
    more than the whole run (a spaced term whose first word ends in 이, 넘파이 배열, is
    missed rather than a particle reported as spacing)."""
    words = written.split()
    return any(len(word) >= 2 and word.endswith(_PARTICLE_FINALS) for word in words[:-1])


class Found(NamedTuple):
    """A match of :class:`Strings`: what the rules read of an ``re.Match``."""

    begin: int
    stop: int
    text: str

    def start(self) -> int:
        return self.begin

    def end(self) -> int:
        return self.stop

    def group(self, index: int = 0) -> str:
        return self.text


_SPACES = re.compile(r" {2,}")


class Strings:
    """Finds any of many strings in text, leftmost and longest, a space in a string
    matching a run of spaces (markup blanked out of a msgstr, ``*순방향 모드* 자동 미분``,
    leaves two spaces where one was written): an Aho-Corasick automaton
    (pyahocorasick), built on first use."""

    def __init__(self, strings: list[str]):
        self.strings = strings

    @cached_property
    def _automaton(self):
        import ahocorasick

        automaton = ahocorasick.Automaton()
        for text in self.strings:
            text = _SPACES.sub(" ", text)
            automaton.add_word(text, len(text))
        automaton.make_automaton()
        return automaton

    def __bool__(self) -> bool:
        return bool(self.strings)

    def finditer(self, text: str) -> list[Found]:
        if not self.strings:
            return []
        if "  " not in text:
            return [Found(end + 1 - size, end + 1, text[end + 1 - size:end + 1])
                    for end, size in self._automaton.iter_long(text)]
        # Runs of spaces read as one; positions are mapped back to ``text``.
        origin: list[int] = []
        at = 0
        for match in _SPACES.finditer(text):
            origin.extend(range(at, match.start() + 1))
            at = match.end()
        origin.extend(range(at, len(text)))
        squeezed = _SPACES.sub(" ", text)
        found = []
        for end, size in self._automaton.iter_long(squeezed):
            begin, stop = origin[end + 1 - size], origin[end] + 1
            found.append(Found(begin, stop, text[begin:stop]))
        return found


class TermMatcher:
    """Finds glossary terms in English text and renderings in Korean text."""

    def __init__(self, glossary: Glossary):
        self.glossary = glossary
        self.terms: tuple[Term, ...] = glossary.terms
        self.readings = glossary.readings
        self._index: dict[str, list[_Phrase]] = {}
        for number, term in enumerate(self.terms):
            for phrase in self._phrases(term):
                self._index.setdefault(phrase.words[0].lower(), []).append(
                    _Phrase(phrase.words, number, term.case_sensitive))
        for idiom in IDIOMS:
            words = tuple(WORD.findall(idiom))
            self._index.setdefault(words[0], []).append(_Phrase(words, _IGNORED_TERM, False))
        for phrases in self._index.values():  # longest first; an idiom wins a tie
            phrases.sort(key=lambda p: (-len(p.words), p.term != _IGNORED_TERM))
        self._first_words = frozenset(self._index)

        # Korean strings: accepted renderings and forbidden ones, with their terms.
        self.rendering_terms: dict[str, list[int]] = {}
        self.forbidden_terms: dict[str, list[int]] = {}
        for number, term in enumerate(self.terms):
            if term.keep:
                continue
            for rendering in term.renderings:
                self.rendering_terms.setdefault(rendering, []).append(number)
            for item in term.forbidden:
                self.forbidden_terms.setdefault(item, []).append(number)
        for number, term in enumerate(self.terms):
            if term.keep:
                for item in term.forbidden:
                    self.forbidden_terms.setdefault(item, []).append(number)
        korean = sorted(set(self.rendering_terms) | set(self.forbidden_terms))
        self.korean_strings = Strings(korean)
        # A rendering that contains another (합성곱 신경망 ⊃ 신경망) counts for both.
        known = set(korean)
        self.contained: dict[str, tuple[str, ...]] = {}
        for text in korean:
            inner = {text[i:j] for i in range(len(text)) for j in range(i + 1, len(text) + 1)}
            inner &= known
            inner.discard(text)
            if inner:
                self.contained[text] = tuple(sorted(inner))
        spaceless: dict[str, list[str]] = {}
        for rendering in self.rendering_terms:
            spaceless.setdefault(rendering.replace(" ", ""), []).append(rendering)
        self.spaceless_renderings = spaceless
        self.spaceless_strings = Strings(sorted(spaceless))

    @staticmethod
    def _phrases(term: Term):
        seen = set()
        texts = [term.en, *term.forms]
        for text in texts:
            words = WORD.findall(text)
            if not words:
                continue
            if text != term.en:
                lasts = {words[-1]}
            elif term.keep:  # kept names take plurals only (floats, not floating)
                lasts = inflections(words[-1], "noun")
            else:
                lasts = {w for w in inflections(words[-1], term.pos)
                         if w == words[-1] or w.lower() not in NOT_INFLECTIONS}
            for last in lasts:
                phrase = tuple(words[:-1]) + (last,)
                if not term.case_sensitive:
                    phrase = tuple(w.lower() for w in phrase)
                if phrase not in seen:
                    seen.add(phrase)
                    yield _Phrase(phrase, -1, term.case_sensitive)

    # ----------------------------------------------------------------- English side

    def english_terms(self, text: str) -> dict[int, str]:
        """Terms whose English form occurs in ``text``: term index -> the words found."""
        index = self._index
        if not index:
            return {}
        lowered = WORD.findall(text.lower()) if text.isascii() else [w.lower() for w in WORD.findall(text)]
        # Most messages hold no term at all: one set operation in C says so; else only
        # the positions of words that start a phrase are visited.
        starts = self._first_words.intersection(lowered)
        if not starts:
            return {}
        words: list[str] | None = None  # as written, for case-sensitive terms
        found: dict[int, str] = {}
        n = len(lowered)
        free = 0  # words before this one are part of a phrase already found
        for i in [i for i, word in enumerate(lowered) if word in starts]:
            if i < free:
                continue
            for phrase in index[lowered[i]]:
                size = len(phrase.words)
                if i + size > n:
                    continue
                if phrase.case_sensitive:
                    if words is None:
                        words = WORD.findall(text)
                        if len(words) != n:  # lower-casing changed the words: be exact
                            words = lowered
                    window = words[i:i + size]
                else:
                    window = lowered[i:i + size]
                if tuple(window) == phrase.words:
                    if phrase.term != _IGNORED_TERM:
                        found.setdefault(phrase.term, " ".join(window))
                    free = i + size
                    break
        return found

    # ------------------------------------------------------------------ Korean side

    def korean_matches(self, text: str) -> list:
        """Leftmost-longest matches of known renderings (accepted or forbidden): objects
        with ``start()``, ``end()`` and ``group(0)``, as ``re.Match`` has."""
        return self.korean_strings.finditer(text)

    def found_renderings(self, matches: list[re.Match]) -> set[str]:
        """The renderings present, those contained in longer matches included."""
        found = set()
        contained = self.contained
        for match in matches:
            text = match.group(0)
            if "  " in text:
                text = _SPACES.sub(" ", text)
            found.add(text)
            inner = contained.get(text)
            if inner:
                found.update(inner)
        return found

    @staticmethod
    def occurs(rendering: str, text: str) -> bool:
        """Whether ``rendering`` occurs anywhere in ``text``, overlapping other matches
        (JIT 컴파일러: the leftmost-longest match is JIT 컴파일, 컴파일러 is there too)."""
        if rendering in text:
            return True
        if "  " in text and " " in rendering:
            return rendering in _SPACES.sub(" ", text)
        return False

    def spacing_variants(self, text: str) -> dict[str, str]:
        """Renderings present with other spacing: agreed rendering -> text as written."""
        if not self.spaceless_strings:
            return {}
        compact = text.replace(" ", "")
        matches = self.spaceless_strings.finditer(compact)
        if not matches:  # most messages: no rendering at all, spaced or not
            return {}
        positions = [index for index, ch in enumerate(text) if ch != " "]
        found = {}
        for match in matches:
            start = positions[match.start()]
            end = positions[match.end() - 1] + 1
            if start > 0 and "가" <= text[start - 1] <= "힣":
                continue  # starts inside a word: 모듈이 제거 is not 이제 spaced
            written = text[start:end]
            if " " in written and _particle_split(written):
                continue  # 모듈이 제거: a particle ends the word before the space
            for rendering in self.spaceless_renderings.get(match.group(0), ()):
                if written != rendering:
                    found.setdefault(rendering, written)
        return found
