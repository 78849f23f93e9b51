"""Particle agreement (조사): 합성곱을, 배열로, 파일로, JAX를, jit을, ``x``\\ 를.

A particle is checked only where the word before it is known: a glossary rendering,
a Latin word with a reading (glossary ``reading:``, the tables of
:mod:`jaxko.korean`), or inline markup (code, roles, links, emphasis) whose shown text
has a known ending. The Hangul after the word must be a whole particle (을, 으로서,
와의, 이라는 ...), so 함수형 or 배열들 are never taken for particles. In reST the
escaped space between markup and particle (``:func:`jax.jit`\\ 을``) is skipped.
A parenthesised gloss at the end of a link's text does not count (the Korean head word
before it decides), and code ending in a bracket (``f(x)``) is not judged at all. A
rendering of one syllable counts only as a whole word followed by a case particle (적을,
열로): in 적고, 적은 or 열면 it is a syllable of a verb.
"""

from __future__ import annotations

import re

from jaxko import korean
from jaxko.check import inline
from jaxko.check.context import Context, msgstr_inlines
from jaxko.check.glossary_rules import analyse
from jaxko.check.message import Message
from jaxko.check.registry import Edit, Hit, family, rule
from jaxko.check.terms import matched_text

FAMILY = family("particle", "조사 (particle)", order=2)

_HANGUL_RUN = re.compile(r"[가-힣]+")
_LATIN_BEFORE_HANGUL = re.compile(r"(?<![A-Za-z0-9_.\-])([A-Za-z0-9](?:[A-Za-z0-9_.+\-]*[A-Za-z0-9])?)(?=[가-힣])")
_GLOSS = re.compile(r"([가-힣])\(([^()\n]{1,80})\)(?=[가-힣])")
_TRAILING_GLOSS = re.compile(r"(?<=[가-힣])\s*\([^()\n]*\)$")
_SHOWN_KINDS = frozenset({inline.LITERAL, inline.ROLE, inline.LINK, inline.REFERENCE,
                          inline.STRONG, inline.EMPHASIS})


def _particle_after(text: str, position: int):
    """(particle, form used, rest, end) of the particle at ``position``, or None."""
    match = _HANGUL_RUN.match(text, position)
    if match is None:
        return None
    found = korean.split_particle(match.group(0))
    if found is None:
        return None
    particle, form, rest = found
    return particle, form, rest, match.end()


def _pronounceable_acronym(word: str, context: Context) -> bool:
    """An upper-case word of four or more letters with a vowel (IDLE, HMAC, INET, JSON)
    may be read as a word (아이들, 에이치맥) or by its letters: the ending is not known
    unless the glossary gives its reading."""
    if not (word.isalpha() and word.isupper()) or word in context.readings \
            or word.lower() in context.readings:
        return False
    if len(word) == 3:  # GET, TOP, POP: consonant-vowel-consonant reads as a word
        return word[1] in "AEIOU" and word[0] not in "AEIOU" and word[2] not in "AEIOU"
    return len(word) >= 4 and any(v in word for v in "AEIOU")


def _judge(word: str, shown_word: str, text: str, position: int, context: Context):
    found = _particle_after(text, position)
    if found is None:
        return None
    particle, form, rest, end = found
    if end < len(text) and (text[end] == "-" or text[end].isdigit()):
        return None  # 모듈라-3: the syllables are part of a name, not a particle
    if _pronounceable_acronym(word, context):
        return None
    if form == "다" and position and korean.ends_in_nieun(text[position - 1]):
        return None  # 주어진다, 된다: the verb ending -ㄴ다, not the copula after a noun
    ending = context.ending(word)
    if ending is None or particle.accepts(form, ending):
        return None
    right = particle.form_for(ending)
    # The fix only where the ending is a fact, not a guess: a Hangul syllable, or a
    # reading the glossary gives (JAX → 잭스); never a word read by its spelling.
    certain = korean.is_hangul_syllable(word[-1]) or word in context.readings \
        or word.lower() in context.readings
    return Hit(f"`{shown_word}{form}{rest}`: after `{word}` the particle is `{right}`, not `{form}`",
               f"{shown_word}{right}{rest}",
               fix=(Edit(position, position + len(form), right),) if certain else ())


@rule("particle.agreement", severity="error", fix="sometimes",
      explanation=(
          "조사가 앞말의 받침과 맞지 않습니다. 받침이 있으면 을/은/이/과/으로, 없으면 를/는/가/와/로를 "
          "쓰고, ㄹ 받침 뒤에는 로를 씁니다(파일로). 영어 용어는 용어집의 `reading`(JAX → 잭스, jit → 짓)"
          "으로, 인라인 코드는 읽는 소리(`x` → 엑스)로 판단합니다. 이름이 여러 낱말이면 마지막 낱말만 "
          "들립니다: `debug_check`를(체크), `block_shape`와(셰이프), `KernelType`과(타입). "
          "판단할 수 없는 단어는 건너뜁니다. "
          "괄호 속 원어는 무시합니다: 합성곱(convolution)을. "
          "한 음절 번역어(적, 열)는 뒤에 격조사가 붙은 온전한 낱말일 때만 봅니다: 적고, 열면은 동사입니다. "
          "`--fix`는 앞말의 받침이 확실할 때(한글 낱말, 용어집에 `reading`이 있는 영어)만 고치고, 코드나 "
          "철자로 읽은 영어 뒤의 조사는 번역자에게 맡깁니다."))
def particle_agreement(message: Message, context: Context):
    """A particle does not agree with the final consonant of the word before it.

    Fixed where the word's ending is certain: a Hangul word (a glossary rendering, the
    head of a gloss, emphasised or linked Korean) or a word the glossary gives a
    ``reading``; code and other Latin words are left to the translator.

    Bad::

        location: notebooks/convolutions.ipynb:30002
        msgid: JAX computes the convolution with jit.
        msgstr: JAX을 써서 jit로 합성곱를 계산합니다.
        expect:
          - '`합성곱를`: after `합성곱` the particle is `을`, not `를`'
          - '`JAX을`: after `JAX` the particle is `를`, not `을`'
          - '`jit로`: after `jit` the particle is `으로`, not `로`'

    Good::

        location: notebooks/convolutions.ipynb:30002
        msgid: JAX computes the convolution with jit.
        msgstr: JAX를 써서 jit으로 합성곱을 계산합니다.
    """
    text = message.msgstr
    if not _has_hangul(text):
        return
    seen: set[int] = set()
    # 1. Inline markup followed by a particle: `x`를, :func:`jax.jit`\ 을, **배열**을.
    for item in msgstr_inlines(message):
        if item.kind not in _SHOWN_KINDS or not item.text:
            continue
        position = item.end
        if text.startswith("\\ ", position):
            position += 2
        shown = shown_word(item.kind == inline.LITERAL, item.text)
        if shown is None:
            continue
        hit = _judge(shown, text[item.start:position], text, position, context)
        if hit is not None and position not in seen:
            seen.add(position)
            yield hit
    analysis = analyse(message, context)
    masked = analysis.msgstr_masked
    # 2. Glossary renderings: 합성곱를, 파일으로 (those of `check: false` entries too: 명세을).
    recorded = context.recorded_matcher
    extra = recorded.korean_matches(masked) if recorded.terms else []
    for match in [*analysis.korean_matches, *extra]:
        word = matched_text(match)
        if match.end() in seen:
            continue
        if len(word) == 1 and not _whole_word(masked, match.start(), match.end()):
            continue  # 적 in 적고 (the verb 적다): a syllable of another word
        hit = _judge(word, word, masked, match.end(), context)
        if hit is not None:
            seen.add(match.end())
            yield hit
    # 3. Latin words with a known reading: JAX을, XLA으로, 1를.
    for match in _LATIN_BEFORE_HANGUL.finditer(masked):
        word = match.group(1)
        if match.end() in seen:
            continue
        if not _readable(word, context):
            continue
        if word.isdigit() and match.start() > 0 and masked[match.start() - 1] in "/:":
            continue  # 2/3, 3:00: read as a fraction or a time, not digit by digit
        hit = _judge(word, word, masked, match.end(), context)
        if hit is not None:
            seen.add(match.end())
            if not word.isdigit() and word not in context.readings \
                    and word.lower() not in context.readings:
                # A bare Latin word without a glossary reading (pip, OR, dir, o3): how
                # it is read is a guess, so the verdict is a hint.
                hit = Hit(hit.message, hit.suggestion, "info")
            yield hit
    # 4. A gloss in parentheses does not count: 합성곱(convolution)을 agrees with 합성곱.
    for match in _GLOSS.finditer(masked):
        position = match.end()
        if position in seen:
            continue
        head = match.group(1)
        hit = _judge(head, masked[match.start():position], masked, position, context)
        if hit is not None:
            seen.add(position)
            yield hit


# Particles that no verb or adjective ending looks like: after a one-syllable rendering
# only these make it a word of its own (적을, 열로); 적고, 적은, 적다, 열면 are verbs.
_CASE_PARTICLES = frozenset(p for p in korean.PARTICLES
                            if p.after_consonant in ("을", "이", "과", "으로"))


def _whole_word(text: str, start: int, end: int) -> bool:
    """Whether the one-syllable rendering ``text[start:end]`` is a word of its own: no
    Hangul before it, and a case particle (or nothing) after it."""
    if start > 0 and korean.is_hangul_syllable(text[start - 1]):
        return False
    run = _HANGUL_RUN.match(text, end)
    if run is None:
        return True
    split = korean.split_particle(run.group(0))
    return split is not None and split[0] in _CASE_PARTICLES


def shown_word(literal: bool, text: str) -> str | None:
    """The word whose ending picks the particle after inline markup showing ``text``,
    or None when it is not judged."""
    shown = text.strip()
    if literal:
        if shown.endswith((")", "]", "}")):
            return None  # `f(x)`, `@auto_axes(out_sharding=...)`: how it is read is unknowable
        return shown
    # [다층 퍼셉트론(multilayer perceptron, MLP)](url)을 agrees with 퍼셉트론
    return _TRAILING_GLOSS.sub("", shown)


def _has_hangul(text: str) -> bool:
    return _HANGUL_RUN.search(text) is not None


def _readable(word: str, context: Context) -> bool:
    """Whether a plain Latin word's reading is known (tables, glossary, English spelling)."""
    memo = context.memo("readable")
    if word not in memo:
        memo[word] = korean.reading_of(word, context.readings) is not None or _known_english(word)
    return memo[word]


def _known_english(word: str) -> bool:
    """Plain English words whose Hangul ending the spelling tables know."""
    return word.isalpha() and word.islower() and len(word) > 2 and korean.english_ending(word) is not None


# Emphasis whose text ends in a particle: **슬픔과**, __슬픔과__, *슬픔과*.
_EMPHASIS = re.compile(r"(?<![*_\w])(\*\*|__|\*|_)(?=\S)([^*_\n]*?[가-힣])\1(?![*_\w])")
# Case and conjunctive particles only: an emphasised adverbial (*동시에*, *임시로*,
# *대부분의*, *뒤에*) is one word rendering an emphasised English adverb or determiner.
_PARTICLE_SYLLABLES = frozenset("은는이가을를과와")


def _ends_in_particle(text: str) -> str | None:
    """The particle ``text`` ends in (슬픔과: 과), or None. The word before it must have
    two syllables or more and agree with the particle, or end in a Latin letter or digit
    (src를): 사과, 결과 and 무언가 are words, not 사 + 과. By the syllables, not a morpheme analyser, which would cost
    more to load than the whole check."""
    stem = text[:-1].rstrip()
    if not stem:
        return None
    last_word = stem.split()[-1]
    if last_word[-1].isascii() and last_word[-1].isalnum():
        return text[-1]
    hangul = sum(1 for ch in last_word if "가" <= ch <= "힣")
    particle = text[-1]
    if hangul < 2 or particle in "은는":  # 표시되는, 반환하는: a verb's modifier ending
        return None
    # The particle must agree with the syllable before it, or it is part of the word:
    # 무언가 (가 after a final consonant), 사과 (과 after a vowel).
    final = korean.has_final_consonant(last_word[-1])
    if final is None or (particle in "을이과") != final:
        return None
    return particle


@rule("particle.emphasis", severity="info", needs=("*", "_"),
      explanation=(
          "강조(`**…**`, `__…__`, `*…*`) 안에 조사가 들어 있습니다. 강조는 단어에만 하고 조사는 밖에 "
          "붙입니다: `**슬픔과**`가 아니라 `**슬픔**과`(reST는 `**슬픔**\\ 과`). 조사인지는 앞 음절과의 "
          "호응으로 판단하므로 `**사과**`, `*무언가*`처럼 낱말의 끝 글자는 건너뜁니다."))
def particle_inside_emphasis(message: Message, context: Context):
    """A particle is inside emphasis (**슬픔과**): the emphasis covers the word only, the particle follows it.

    Bad::

        location: thinking_in_jax.md:40
        msgid: "**Sorrow** and joy."
        msgstr: "**슬픔과** 기쁨."
        expect:
          - 'the particle `과` is inside the emphasis `**슬픔과**`; emphasise the word only'

    Good::

        location: thinking_in_jax.md:40
        msgid: "**Sorrow** and joy."
        msgstr: "**슬픔**과 기쁨."

    Bad::

        location: thinking_in_jax.md:41
        msgid: "__Sorrow__ and joy."
        msgstr: "__슬픔과__ 기쁨."
        expect:
          - 'the particle `과` is inside the emphasis `__슬픔과__`; emphasise the word only'

    Good::

        location: thinking_in_jax.md:42
        msgid: "**An apple** is red."
        msgstr: "**사과**는 빨갛습니다."

    Good::

        location: asyncio.rst:42
        msgid: Run two coroutines *concurrently*.
        msgstr: 두 코루틴을 *동시에* 실행합니다.
    """
    text = message.msgstr
    if "*" not in text and "_" not in text:
        return
    for match in _EMPHASIS.finditer(text):
        body = match.group(2)
        if body[-1] not in _PARTICLE_SYLLABLES or len(body) < 2:
            continue
        particle = _ends_in_particle(body)
        if not particle:
            continue
        word = body[: -len(particle)].rstrip()
        marker = "**" if match.group(1) in ("**", "__") else "*"
        glue = "\\ " if message.syntax == "rst" else ""
        yield Hit(f"the particle `{particle}` is inside the emphasis `{match.group(0)}`; "
                  f"emphasise the word only",
                  f"{marker}{word}{marker}{glue}{particle}")
