"""Hangul facts: final consonants (받침), particles (조사) and readings of Latin terms.

A Korean particle has two shapes and the word before it picks one: 합성곱**을** but
배열**을**/함수**를**, JAX**를** (read 잭스), jit**을** (read 짓), 파일**로** (ㄹ takes
로). Everything here is table-driven, so the tables are the documentation:

* :data:`LETTER_READINGS`, :data:`DIGIT_READINGS`: how letters and digits are read;
* :data:`COMMON_READINGS`: readings of frequent Latin words of the JAX docs, used when
  the glossary gives none (the glossary's ``reading:`` values take precedence);
* :data:`PARTICLES`: the particle pairs, and which shape follows ㄹ.

``None`` means "cannot tell": a Latin word whose pronunciation the tables do not know.
Callers (the particle rule) stay silent then instead of guessing.
"""

from __future__ import annotations

from functools import lru_cache
import re
from dataclasses import dataclass
from typing import Mapping

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
_JONGSEONG_COUNT = 28
_RIEUL = 8  # index of ㄹ among the final consonants
_NIEUN = 4  # index of ㄴ

# Kinds of ending of a word, as the particle sees it.
VOWEL = "vowel"          # no final consonant: 를, 는, 가, 와, 로
RIEUL = "rieul"          # final ㄹ: 을, 은, 이, 과, but 로
CONSONANT = "consonant"  # any other final consonant: 을, 은, 이, 과, 으로

LETTER_READINGS: Mapping[str, str] = {
    "a": "에이", "b": "비", "c": "씨", "d": "디", "e": "이", "f": "에프", "g": "지",
    "h": "에이치", "i": "아이", "j": "제이", "k": "케이", "l": "엘", "m": "엠", "n": "엔",
    "o": "오", "p": "피", "q": "큐", "r": "알", "s": "에스", "t": "티", "u": "유",
    "v": "브이", "w": "더블유", "x": "엑스", "y": "와이", "z": "지",
}

DIGIT_READINGS: Mapping[str, str] = {
    "0": "영", "1": "일", "2": "이", "3": "삼", "4": "사", "5": "오", "6": "육", "7": "칠",
    "8": "팔", "9": "구",
}
# Powers of ten within a group of four digits, and the names of the groups.
_SMALL_UNITS = ("", "십", "백", "천")
_LARGE_UNITS = ("", "만", "억", "조", "경")

# Readings of Latin words that appear everywhere in the JAX docs. The glossary's
# `reading:` values override these; keys are lower case.
COMMON_READINGS: Mapping[str, str] = {
    "jax": "잭스", "jit": "짓", "xla": "엑스엘에이", "api": "에이피아이", "numpy": "넘파이",
    "scipy": "사이파이", "python": "파이썬", "vmap": "브이맵", "pmap": "피맵", "grad": "그래드",
    "jaxpr": "잭스피알", "pytree": "파이트리", "pytrees": "파이트리", "lax": "랙스",
    "pallas": "팔라스", "cpu": "씨피유", "gpu": "지피유", "tpu": "티피유", "cuda": "쿠다",
    "jnp": "제이엔피", "np": "엔피", "dtype": "디타입", "shard_map": "샤드맵", "scan": "스캔",
    "stablehlo": "스테이블에이치엘오", "hlo": "에이치엘오", "mlir": "엠엘아이알",
    "flax": "플랙스", "optax": "옵택스", "pytorch": "파이토치", "tensorflow": "텐서플로",
    "colab": "코랩", "github": "깃허브", "jupyter": "주피터", "pip": "핍", "conda": "콘다",
    "linux": "리눅스", "macos": "맥오에스", "windows": "윈도", "json": "제이슨",
    "float": "플로트", "int": "인트", "bool": "불", "none": "논", "true": "트루",
    "false": "폴스", "array": "어레이", "key": "키", "prng": "피알엔지", "rng": "알엔지",
    "check": "체크",  # the loanword: `check`는, `checkify.check`를 (not 첵)
    "type": "타입",  # unlike shape 셰이프, pipe 파이프 (the "pe" ending): `x.type`을
}


def is_hangul_syllable(ch: str) -> bool:
    """Whether ``ch`` is one precomposed Hangul syllable (가-힣)."""
    return HANGUL_FIRST <= ord(ch) <= HANGUL_LAST


def ends_in_nieun(ch: str) -> bool:
    """Whether the Hangul syllable ``ch`` has the final ㄴ (진, 된, 한): before 다 it ends a
    verb (주어진다), not a noun taking the copula."""
    return is_hangul_syllable(ch) and (ord(ch) - HANGUL_FIRST) % _JONGSEONG_COUNT == _NIEUN


def _syllable_ending(ch: str) -> str:
    index = (ord(ch) - HANGUL_FIRST) % _JONGSEONG_COUNT
    if index == 0:
        return VOWEL
    return RIEUL if index == _RIEUL else CONSONANT


# ------------------------------------------------------------------------- readings


def number_reading(digits: str) -> str:
    """Sino-Korean reading of a whole number: ``"64"`` -> 육십사, ``"1000"`` -> 천."""
    digits = digits.lstrip("0")
    if not digits:
        return DIGIT_READINGS["0"]
    groups = []
    while digits:
        groups.append(digits[-4:])
        digits = digits[:-4]
    if len(groups) > len(_LARGE_UNITS):  # beyond 경: read digit by digit
        return "".join(DIGIT_READINGS[d] for d in "".join(reversed(groups)))
    words = []
    for power, group in reversed(list(enumerate(groups))):
        group_words = []
        for place, digit in enumerate(group.zfill(4)):
            unit = _SMALL_UNITS[3 - place]
            if digit == "0":
                continue
            # 십, 백, 천 without 일 (십 not 일십), but 일 alone stays.
            group_words.append(("" if digit == "1" and unit else DIGIT_READINGS[digit]) + unit)
        if group_words:
            prefix = "".join(group_words)
            if power == 1 and prefix == "일":
                prefix = ""  # 만 not 일만
            words.append(prefix + _LARGE_UNITS[power])
    return "".join(words)


def _decimal_reading(token: str) -> str:
    whole, _, fraction = token.partition(".")
    text = number_reading(whole) if whole else "영"
    if fraction:
        text += "점" + "".join(DIGIT_READINGS[d] for d in fraction)
    return text


_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_LATIN_TOKEN = re.compile(r"[A-Za-z]+|[0-9]+(?:\.[0-9]+)?")
_SPLIT_IDENTIFIER = re.compile(r"[A-Za-z0-9]+")


def _joined_reading(parts, readings):
    """The readings of the parts one after another, or None if one part has none."""
    out = []
    for part in parts:
        part_reading = reading_of(part, readings)
        if part_reading is None:
            return None
        out.append(part_reading)
    return "".join(out)


def reading_of(latin: str, readings: Mapping[str, str] | None = None) -> str | None:
    """Hangul reading of a Latin term, or None when the tables cannot tell.

    ``readings`` (the glossary's ``reading:`` values, keyed by the term as written
    and in lower case) come first, then :data:`COMMON_READINGS`, then: digits read as
    numbers (``x64`` -> 엑스육십사), single letters and short upper-case acronyms
    spelled letter by letter (``XLA`` -> 엑스엘에이).
    """
    text = latin.strip()
    if not text:
        return None
    found = _lookup(text, readings)
    if found is not None:
        return found
    if _DECIMAL.fullmatch(text):
        return _decimal_reading(text)
    # An identifier like jax.numpy or lax.fori_loop: the parts read one after another.
    parts = _SPLIT_IDENTIFIER.findall(text)
    if not parts:
        return None
    if len(parts) > 1 or parts[0] != text:
        return _joined_reading(parts, readings)
    # A single alphanumeric run: letters and digits alternate (x64, float32, bf16).
    pieces = _LATIN_TOKEN.findall(text)
    if len(pieces) > 1:
        return _joined_reading(pieces, readings)
    if text[0].isdigit():
        return _decimal_reading(text)
    if len(text) == 1:
        return LETTER_READINGS.get(text.lower())
    # Acronyms: XLA, API; and lower-case letter runs without a vowel: np, bf.
    if (text.isupper() and len(text) <= 5) or (len(text) <= 4 and not _VOWEL_LETTERS.search(text)):
        return "".join(LETTER_READINGS[ch] for ch in text.lower())
    return None


_VOWEL_LETTERS = re.compile(r"[aeiouyAEIOUY]")


def _lookup(text: str, readings: Mapping[str, str] | None) -> str | None:
    if readings:
        found = readings.get(text)
        if found is None:
            found = readings.get(text.lower())
        if found is not None:
            return found
    return COMMON_READINGS.get(text.lower())


# How an English word ends when written in Hangul (외래어 표기법), by its last letters.
# Only endings whose Hangul spelling is regular; anything else is "cannot tell".
_ENGLISH_ENDINGS: tuple[tuple[str, str], ...] = (
    ("ng", CONSONANT),            # string 스트링, padding 패딩
    ("ll", RIEUL), ("le", RIEUL),  # cell 셀, file 파일, module 모듈, tuple 튜플
    ("l", RIEUL),                 # model 모델, kernel 커널
    ("me", CONSONANT), ("m", CONSONANT),  # name 네임, time 타임, program 프로그램
    ("ne", CONSONANT), ("n", CONSONANT),  # line 라인, function 펑션, token 토큰
    ("ck", CONSONANT),            # stack 스택, block 블록
    ("st", VOWEL), ("ct", VOWEL), ("nt", VOWEL), ("pt", VOWEL), ("ft", VOWEL),
    ("lt", VOWEL), ("rt", VOWEL), ("xt", VOWEL),  # list 리스트, dict 딕트, print 프린트
    ("ee", VOWEL), ("ue", VOWEL), ("oe", VOWEL),
    ("de", VOWEL), ("se", VOWEL), ("ce", VOWEL), ("te", VOWEL), ("ke", VOWEL),
    ("pe", VOWEL),                # shape 셰이프, pipe 파이프, scope 스코프 (type: COMMON_READINGS)
    ("ge", VOWEL), ("ve", VOWEL), ("ze", VOWEL), ("re", VOWEL), ("he", VOWEL),
    ("sh", VOWEL), ("ch", VOWEL), ("th", VOWEL), ("ph", VOWEL),  # hash 해시, batch 배치
    ("er", VOWEL), ("or", VOWEL), ("ar", VOWEL), ("ir", VOWEL), ("ur", VOWEL),
    ("a", VOWEL), ("i", VOWEL), ("o", VOWEL), ("u", VOWEL), ("y", VOWEL),
    ("s", VOWEL), ("x", VOWEL), ("z", VOWEL), ("f", VOWEL), ("v", VOWEL), ("d", VOWEL),
)


def english_ending(word: str) -> str | None:
    """VOWEL, RIEUL or CONSONANT for an English word by its spelling, or None."""
    word = word.lower()
    if not word.isascii() or not word.isalpha():
        return None
    for suffix, ending in _ENGLISH_ENDINGS:
        if word.endswith(suffix):
            return ending
    return None


# --------------------------------------------------------------------- final consonant

_TRAILING_NOISE = " \t\n`*_'\"’”)]}>.,:;!?|\\"
_LAST_UNIT = re.compile(r"([가-힣]|[A-Za-z0-9_]+(?:\.[0-9]+)?)[^가-힣A-Za-z0-9_]*$")


# Words of an identifier, camel case split: KernelType -> Kernel, Type; XLAOp -> XLA, Op.
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def ending_of(text: str, readings: Mapping[str, str] | None = None) -> str | None:
    """VOWEL, RIEUL or CONSONANT for the end of ``text``, or None when unknown.

    The last Hangul syllable decides; a trailing Latin word or number is read with
    :func:`reading_of` (glossary readings first), else by its English spelling.
    Closing brackets, quotes and markup after the word are ignored: ``f(x)`` ends
    like ``x``, ``"배열"`` like 배열.
    """
    match = _LAST_UNIT.search(text)
    if match is None:
        return None
    unit = match.group(1)
    if is_hangul_syllable(unit[0]):
        return _syllable_ending(unit)
    # The whole trailing identifier (jax.numpy, lax.scan) for the glossary lookup.
    start = match.start(1)
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._") and text[start - 1].isascii():
        start -= 1
    identifier = text[start:match.end(1)].strip("._")
    for candidate in (identifier, unit):
        reading = reading_of(candidate, readings) if candidate else None
        if reading is not None and is_hangul_syllable(reading[-1]):
            return _syllable_ending(reading[-1])
    last_word = _WORDS.findall(unit)
    if last_word and last_word[-1].isalpha():
        # Only the last word is heard before the particle: `debug_check` ends like
        # check (체크), `KernelType` like type (타입), whatever the words before it are.
        reading = _lookup(last_word[-1], readings)
        if reading is not None and is_hangul_syllable(reading[-1]):
            return _syllable_ending(reading[-1])
        return english_ending(last_word[-1])
    return None


def has_final_consonant(text: str, readings: Mapping[str, str] | None = None) -> bool | None:
    """Whether ``text`` ends in a final consonant (받침) as read aloud; None if unknown."""
    ending = ending_of(text, readings)
    return None if ending is None else ending != VOWEL


def is_rieul_final(text: str, readings: Mapping[str, str] | None = None) -> bool | None:
    """Whether ``text`` ends in ㄹ (the final that takes 로, not 으로); None if unknown."""
    ending = ending_of(text, readings)
    return None if ending is None else ending == RIEUL


# -------------------------------------------------------------------------- particles


@dataclass(frozen=True)
class Particle:
    """A particle's two shapes: after a final consonant and after a vowel.

    ``rieul_takes_vowel_form``: ㄹ behaves like a vowel (파일로, not 파일으로).
    ``vowel_accepts_both``: forms of the copula 이다 (이나, 이라, 이며, ...) may keep
    their 이 after a vowel (함수이다 is as correct as 함수다).
    ``continuations``: what may follow the particle inside the same word (으로**서**,
    와**의**, 이라**는**), so that 으로서 is recognised as 으로 + 서.
    """

    after_consonant: str
    after_vowel: str
    rieul_takes_vowel_form: bool = False
    vowel_accepts_both: bool = False
    continuations: tuple[str, ...] = ("",)

    def form_for(self, ending: str) -> str:
        """The right shape after a word with this ending."""
        if ending == VOWEL or (ending == RIEUL and self.rieul_takes_vowel_form):
            return self.after_vowel
        return self.after_consonant

    def accepts(self, form: str, ending: str) -> bool:
        if form == self.form_for(ending):
            return True
        return ending == VOWEL and self.vowel_accepts_both and form == self.after_consonant


PARTICLES: tuple[Particle, ...] = (
    Particle("을", "를"),
    Particle("은", "는"),
    Particle("이", "가"),
    Particle("과", "와", continuations=("", "의", "는", "도", "만")),
    Particle("으로", "로", rieul_takes_vowel_form=True,
             continuations=("", "서", "써", "부터", "는", "도", "의", "만", "서의", "써의",
                            "부터의", "서는", "써는")),
    Particle("이나", "나", vowel_accepts_both=True),
    Particle("이라", "라", vowel_accepts_both=True,
             continuations=("", "는", "고", "면", "서", "도")),
    Particle("이다", "다", vowel_accepts_both=True),
    Particle("이며", "며", vowel_accepts_both=True),
    Particle("이고", "고", vowel_accepts_both=True),
    Particle("이면", "면", vowel_accepts_both=True),
    Particle("이든", "든", vowel_accepts_both=True, continuations=("", "지")),
    Particle("이랑", "랑", vowel_accepts_both=True),
    Particle("이란", "란", vowel_accepts_both=True),
    Particle("이지만", "지만", vowel_accepts_both=True),
    Particle("이에요", "예요"),
)

# Every pair as (after consonant, after vowel), for documentation and tools.
PARTICLE_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (p.after_consonant, p.after_vowel) for p in PARTICLES)


def _suffix_table() -> dict[str, tuple[Particle, str, str]]:
    table: dict[str, tuple[Particle, str, str]] = {}
    for particle in PARTICLES:
        for form in (particle.after_consonant, particle.after_vowel):
            for rest in particle.continuations:
                # The first particle listed wins a clash (이라 + 고 vs 이고: distinct).
                table.setdefault(form + rest, (particle, form, rest))
    return table


# A whole word ending (the Hangul after a term up to the next space or punctuation)
# -> (particle, the shape used, what follows it).
PARTICLE_SUFFIXES: Mapping[str, tuple[Particle, str, str]] = _suffix_table()


def split_particle(suffix: str) -> tuple[Particle, str, str] | None:
    """``"으로서"`` -> (the 으로/로 particle, ``"으로"``, ``"서"``); None if not a particle."""
    return PARTICLE_SUFFIXES.get(suffix)


# Particles of one shape whatever the word before (에, 에서, 의, 도...): longest first.
INVARIANT_PARTICLES: tuple[str, ...] = (
    "에게서", "으로부터", "에서", "에게", "께서", "한테", "까지", "부터", "처럼", "보다", "마다",
    "조차", "마저", "밖에", "만큼", "대로", "에", "의", "도", "만")


def is_particle_run(run: str) -> bool:
    """Whether the Hangul after a noun is particles only: 을, 으로서, 에는, 에서도, 까지의
    (not 간에 or 도구, the rest of another word)."""
    rest = run
    while rest:
        if split_particle(rest) is not None:
            return True
        for particle in INVARIANT_PARTICLES:
            if rest.startswith(particle):
                rest = rest[len(particle):]
                break
        else:
            return False
    return True


def _particle_named(particle: str) -> Particle:
    for candidate in PARTICLES:
        if particle in (candidate.after_consonant, candidate.after_vowel):
            return candidate
    raise ValueError(f"unknown particle {particle!r}; known: "
                     + ", ".join(f"{a}/{b}" for a, b in PARTICLE_PAIRS))


def particle_for(word_or_reading: str, particle: str,
                 readings: Mapping[str, str] | None = None) -> str | None:
    """The shape of ``particle`` (either shape may be given) that follows the word.

    ``particle_for("합성곱", "를")`` -> ``"을"``; ``particle_for("JAX", "을")`` -> ``"를"``;
    ``particle_for("파일", "으로")`` -> ``"로"``. None when the word's ending is unknown.
    Raises ValueError for a string that is not a known particle.
    """
    found = _particle_named(particle)
    ending = ending_of(word_or_reading, readings)
    if ending is None:
        return None
    return found.form_for(ending)


def fix_particle(word: str, particle: str, readings: Mapping[str, str] | None = None) -> str:
    """The word followed by the right shape of ``particle``: 합성곱 + 를 -> 합성곱을.

    When the ending cannot be told, the particle is kept as given.
    """
    right = particle_for(word, particle, readings)
    return word + (right if right is not None else particle)


# ------------------------------------------------------------------ term shape (kiwipiepy)

_NOUN_TAGS = ("NNG", "NNP", "NNB", "NR", "NP", "SL", "SN", "SH", "XSN", "XR", "W_")
_TAG_NAMES = {"MAG": "an adverb", "MAJ": "an adverb", "VV": "a verb", "VA": "an adjective",
              "XSV": "a verb", "XSA": "an adjective", "EF": "a sentence ending",
              "EC": "a connective ending", "ETM": "a modifier (관형형)", "ETN": "a nominal ending",
              "EP": "a verb ending", "JKS": "a particle", "JKO": "a particle", "JKB": "a particle",
              "JX": "a particle", "JKG": "a particle", "MM": "a determiner", "IC": "an interjection",
              "VCP": "a copula (이다)"}


@lru_cache(maxsize=1)
def _kiwi():
    from kiwipiepy import Kiwi  # imported here: model loading takes a second

    return Kiwi()


def kiwi_with_words(words) -> object:
    """A fresh Kiwi analyser that knows ``words`` (one-word Korean renderings such as
    컴파일) as proper nouns, so that they stay one morpheme (Kiwi alone reads 컴/파일)."""
    from kiwipiepy import Kiwi  # imported here: model loading takes a second

    analyser = Kiwi()
    for word in sorted(set(words)):
        if word and " " not in word and all(is_hangul_syllable(ch) for ch in word):
            analyser.add_user_word(word, "NNP")
    return analyser


_PARTICLE_FINALS = ("을", "를", "에", "의", "은", "는", "과", "와", "이", "가", "로")
_VERB_TAGS = frozenset({"VV", "VA", "XSV", "XSA", "VCP"})
# How conjugated verbs and modifiers end (반환됩니다, 발생합니, 지정된, 같은, 사용하여).
_CONJUGATED_ENDINGS = ("다", "니", "된", "한", "는", "은", "운", "게", "고", "서", "며", "면", "여")


def is_modifier(word: str) -> bool:
    """Whether Kiwi reads ``word`` as ending in a modifier or final ending or a particle
    (구체적인, 지정된, 배열의): an inflected word, not a noun."""
    tokens = _kiwi().tokenize(word)
    return bool(tokens) and (tokens[-1].tag in ("ETM", "EF") or tokens[-1].tag.startswith("J"))


def term_shape_problem(text: str, pos: str | None = None) -> str | None:
    """Why ``text`` cannot be a glossary rendering, or None.

    A rendering is a noun phrase (배열, 자동 미분, 리스트) or, for a term declared a verb
    or adjective, its stem (컴파일 for compile, 정적 for static). Rejected: conjugated
    forms (반환됩니다, 발생합니, 지정된, 같은) and a lone adverb (이제, 또한) unless the term
    declares ``pos: adverb``. Kiwi's analysis confirms the surface ending, so loanwords it
    misreads (불리언, 토폴로지) pass."""
    if pos in ("adverb", "phrase", "verb", "adjective"):
        return None
    tokens = _kiwi().tokenize(text)
    if not tokens:
        return None
    shown = "+".join(f"{t.form}/{t.tag}" for t in tokens)
    if len(tokens) == 1 and tokens[0].tag in ("MAG", "MAJ"):
        return (f"`{text}` is an adverb ({shown}), not a term; remove it, or declare "
                f"`pos: adverb` if the glossary really means the adverb")
    if text.endswith(_PARTICLE_FINALS) and len(tokens) >= 2 and tokens[-1].tag.startswith("J") \
            and not tokens[-2].tag.startswith("J"):
        return (f"`{text}` ends in the particle `{tokens[-1].form}` ({shown}); write the term "
                f"without it (`{text[: -len(tokens[-1].form)]}`)")
    verbal = any(t.tag in _VERB_TAGS for t in tokens)
    if text.endswith(("니다", "합니", "됩니", "습니")) or (
            verbal and text.endswith(_CONJUGATED_ENDINGS) and tokens[-1].tag.startswith("E")):
        return (f"`{text}` is a conjugated verb or modifier ({shown}), not a term; write "
                f"its noun (반환, not 반환됩니다)")
    return None
