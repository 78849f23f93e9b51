"""Glossary rules: agreed renderings, forbidden ones, kept terms, spacing variants.

Terms are looked for in the msgid outside inline code, role targets, URLs and math
(``:func:`jax.grad``` is not "gradient"); renderings in the msgstr outside code too.
The examples use the glossary of :mod:`jaxko.check.examples`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jaxko import korean
from jaxko.check.context import Context, cached, msgid_masked, msgstr_masked
from jaxko.check.message import Message
from jaxko.check.registry import Edit, Hit, family, rule
from jaxko.check.terms import matched_text

FAMILY = family("glossary", "용어집 (glossary)", order=1)


@dataclass(frozen=True)
class TermAnalysis:
    """The glossary's view of one message, shared by the glossary and particle rules."""

    msgid_terms: dict[int, str]        # term index -> English words in the msgid
    msgstr_masked: str
    korean_matches: list               # re.Match objects over msgstr_masked
    renderings: set[str]               # renderings found in the msgstr


def analyse(message: Message, context: Context) -> TermAnalysis:
    def compute() -> TermAnalysis:
        matcher = context.matcher
        masked = msgstr_masked(message)
        matches = matcher.korean_matches(masked)
        return TermAnalysis(matcher.english_terms(msgid_masked(message)), masked, matches,
                            matcher.found_renderings(matches))

    return cached(message, "terms", compute)


def _hangul_before(text: str, index: int) -> bool:
    return index > 0 and "가" <= text[index - 1] <= "힣"


# Words before an English word that make it a noun ("the set", "a list of"): a term
# that declares no part of speech is only looked for where one of these says it is the
# noun, unless its ending alone says so (convolution, parameter) or it has several words.
NOUN_CUES = frozenset("""the a an this that these those each every any some no its their
your our my his her of new one two three all another which whose same given
following""".split())
# Words before an English word that make it a verb ("to set", "you can list").
VERB_CUES = frozenset("""to can cannot will would may might must should shall could you we
i they also not please then and""".split())
_NOUN_ENDINGS = ("tion", "sion", "ment", "ness", "ity", "ism", "ance", "ence", "ure",
                 "ter", "tor", "ler", "ser", "ian", "ogy", "phy", "ics", "ary", "ory")


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _joins(ch: str) -> bool:
    return ch.isalnum() or ch == "_" or ch == "-"


def _occurs(word: str, text: str, left=_joins, right=_joins) -> list[int]:
    """Where ``word`` stands in ``text`` with no character that ``left``/``right`` says
    joins it on either side (a word, not part of one: "set" in "the set", not "subset").
    String search, not a pattern per word: there are hundreds of terms and cue words."""
    found, size, at = [], len(word), text.find(word)
    while at >= 0:
        end = at + size
        if not (at and left(text[at - 1])) and not (end < len(text) and right(text[end])):
            found.append(at)
        at = text.find(word, at + 1)
    return found


def _in_sense(term, words: str, msgid: str) -> bool:
    """Whether the term's English words are used in the term's sense somewhere in the msgid.

    ``senses:`` cue words, when the term declares them, must occur in the msgid. A
    one-word term is checked where the word before it says it is the part of speech the
    term declares: a noun (``pos: noun`` or none) not after "to"/"can"/..., and a term
    with no ``pos`` only after a determiner ("the set", "a list") unless its ending makes
    it a noun whatever the context (convolution, parameter).
    """
    lowered = msgid.lower()
    if term.senses and not any(_occurs(cue.lower(), lowered, _word_char, _word_char)
                               for cue in term.senses):
        return False
    if " " in words or "-" in words or term.pos in ("verb", "adjective", "adverb", "phrase", "name"):
        return True
    lowered_words, en = words.lower(), term.en.lower()
    if lowered_words != en and lowered_words.endswith(("ed", "ing")) and not en.endswith(("ed", "ing")):
        return False  # a verb form (sharded, listed) of a noun term
    if term.pos is None and en.endswith(_NOUN_ENDINGS):
        return True
    for start in _occurs(words.lower(), lowered):
        before = re.findall(r"[a-z]+", lowered[max(0, start - 30):start])
        previous = before[-1] if before else ""
        if term.pos == "noun" and previous not in VERB_CUES:
            return True
        if previous in NOUN_CUES:
            return True
    return False


def _english_kept(words: str, masked: str, term) -> bool:
    """The English of the term kept in the msgstr (alone or with a Korean gloss:
    ``리스트(list)``, ``list(목록)``): the translator chose to show it."""
    if not re.search("[가-힣]", masked):
        return False  # an untranslated copy keeps everything: not a choice
    lowered = masked.lower()
    return any(_occurs(w.lower(), lowered, left=lambda ch: "a" <= ch <= "z", right=lambda ch: False)
               for w in {words, term.en, *term.forms})


@rule("glossary.missing", severity="warning",
      explanation=(
          "msgid의 영어 용어(인라인 코드, 역할 대상, URL, 수식 밖)가 msgstr에 용어집의 합의된 번역"
          "(`ko`)으로도, 허용 변형(`variants`)으로도 나오지 않습니다. 복수형과 활용형(arrays, traced)도 "
          "같은 용어로 봅니다. 문맥상 다른 뜻이면(예: machine learning *methods* → 기법) 항목에 "
          "`# jaxko: ignore glossary.missing -- 이유`를 답니다."))
def missing_rendering(message: Message, context: Context):
    """An English term of the msgid is in the msgstr in neither its agreed rendering nor a variant.

    A warning for terms whose entry records a decision (``pos``, ``senses``, ``variants``
    or ``forbidden``); for a bare ``en``/``ko`` pair, an ``info`` hint (``--show-info``).

    Bad::

        location: autodidax.md:12
        msgid: We compute the convolution of two arrays.
        msgstr: 두 배열의 컨벌루션 연산을 계산합니다.
        expect:
          - '`convolution` is translated without its agreed rendering `합성곱`'

    Good::

        location: autodidax.md:12
        msgid: We compute the convolutions of two arrays.
        msgstr: 두 배열의 합성곱을 계산합니다.

    Bad::

        location: api.rst:9
        msgid: Each function returns a set of names.
        msgstr: 각 함수는 이름 모음을 반환합니다.
        expect:
          - '`set` is translated without its agreed rendering `집합`'

    Good::

        location: api.rst:9
        msgid: You can set the names of each function.
        msgstr: 각 함수의 이름을 정할 수 있습니다.

    Good::

        location: api.rst:10
        msgid: Each function returns a set of names.
        msgstr: 각 함수는 이름의 set(집합)을 반환합니다.
    """
    analysis = analyse(message, context)
    if not analysis.msgid_terms:
        return
    matcher = context.matcher
    spacing = None
    for number, words in analysis.msgid_terms.items():
        term = matcher.terms[number]
        if term.keep or not term.renderings:
            continue
        if any(r in analysis.renderings for r in term.renderings):
            continue
        if any(matcher.occurs(r, analysis.msgstr_masked) for r in term.renderings):
            continue  # overlapped by a longer match (JIT 컴파일러)
        if _english_kept(words, analysis.msgstr_masked, term):
            continue  # English kept, or kept with a gloss
        if not _in_sense(term, words, msgid_masked(message)):
            continue  # another sense or part of speech ("to set" for 집합)
        if any(f in analysis.renderings for f in term.forbidden):
            continue  # glossary.forbidden reports it, with the fix
        if spacing is None:
            spacing = matcher.spacing_variants(analysis.msgstr_masked)
        if any(r in spacing for r in term.renderings):
            continue  # glossary.spacing reports it
        shown = " or ".join(f"`{r}`" for r in term.renderings)
        # A term whose entry records a decision (part of speech, sense cues, variants,
        # forbidden renderings) is a warning; a bare word-to-word entry only a hint.
        curated = term.pos or term.senses or term.variants or term.forbidden
        yield Hit(f"`{words}` is translated without its agreed rendering {shown}", term.ko,
                  None if curated else "info")


@rule("glossary.forbidden", severity="error", fix="sometimes",
      explanation=(
          "용어집이 금지한 번역(`forbidden`)이 msgstr에 있습니다. msgid와 상관없이 어디에 있든 오류입니다. "
          "다른 단어의 일부(하이퍼파라미터 안의 파라미터)는 그 단어의 항목이 따로 다룹니다. "
          "그 용어의 번역이 하나뿐이면(`variants` 없음) `--fix`가 그 번역으로 바꾸고 뒤의 조사도 맞춥니다"
          "(어레이를 → 배열을)."))
def forbidden_rendering(message: Message, context: Context):
    """The msgstr uses a rendering the glossary forbids (wherever it appears).

    Fixed when the entry names one rendering (no ``variants``), the forbidden word
    stands alone (not inside a longer rendering) and a particle after it can be made to
    agree with the rendering (컨볼루션을 → 합성곱을, 어레이를 → 배열을).

    Bad::

        location: notebooks/convolutions.ipynb:20003
        msgid: Convolutions are everywhere in deep learning.
        msgstr: 컨볼루션은 딥러닝 어디에나 있습니다.
        expect:
          - '`컨볼루션` is forbidden for `convolution`; use `합성곱`'

    Good::

        location: notebooks/convolutions.ipynb:20003
        msgid: Convolutions are everywhere in deep learning.
        msgstr: 합성곱은 딥러닝 어디에나 있습니다.
    """
    analysis = analyse(message, context)
    if not analysis.korean_matches:
        return
    matcher = context.matcher
    text = analysis.msgstr_masked
    reported = set()
    for match in analysis.korean_matches:
        whole = matched_text(match)
        for found in (whole, *matcher.contained.get(whole, ())):
            numbers = matcher.forbidden_terms.get(found)
            if not numbers or found in reported:
                continue
            start = match.start() + max(0, whole.find(found))
            if _hangul_before(text, start):
                continue  # part of a longer word (하이퍼파라미터 is its own term)
            reported.add(found)
            term = matcher.terms[numbers[0]]
            agreed = term.en if term.keep else term.ko
            one = len(numbers) == 1 and (term.keep or len(term.renderings) == 1)
            yield Hit(f"`{found}` is forbidden for `{term.en}`; use `{agreed}`", agreed,
                      fix=_replace_all(message, analysis, found, agreed, context) if one else ())


_HANGUL_RUN = re.compile(r"[가-힣]+")
# First syllables of the particles whose shape follows the word before (을/를, 으로/로...).
_VARIABLE_STARTS = frozenset(form[0] for particle in korean.PARTICLES
                             for form in (particle.after_consonant, particle.after_vowel))


def _replacement(text: str, start: int, end: int, new: str, context: Context) -> Edit | None:
    """``text[start:end]`` replaced by the word ``new``, with the particle after it made
    to agree (컨볼루션은 → 합성곱은, 어레이를 → 배열을); None when what follows may be
    a particle whose shape cannot be told."""
    run = _HANGUL_RUN.match(text, end)
    if run is None:
        return Edit(start, end, new)
    ending = context.ending(new)
    if ending is None:
        return None
    split = korean.split_particle(run.group(0))
    if split is not None:
        particle, form, _ = split
        if particle.accepts(form, ending):
            return Edit(start, end, new)
        return Edit(start, end + len(form), new + particle.form_for(ending))
    if run.group(0)[0] not in _VARIABLE_STARTS or context.ending(text[start:end]) == ending:
        return Edit(start, end, new)  # 에서, 의, a compound (컨볼루션층): the same after any word
    return None


def _replace_all(message: Message, analysis: TermAnalysis, found: str, new: str,
                 context: Context) -> tuple[Edit, ...]:
    """Edits replacing every standalone ``found`` of the msgstr by ``new``; none when
    any of them is ambiguous (inside a longer match, inside markup, an unknown ending)."""
    text, edits = analysis.msgstr_masked, []
    for match in analysis.korean_matches:
        whole = matched_text(match)
        start = match.start() + max(0, whole.find(found))
        if whole != found:
            if found in whole and not _hangul_before(text, start):
                return ()  # inside a longer rendering: which word is meant is not ours to say
            continue
        if _hangul_before(text, start):
            continue
        end = match.end()
        if message.msgstr[start:end] != text[start:end]:
            return ()  # masked markup inside the match
        edit = _replacement(text, start, end, new, context)
        if edit is None:
            return ()
        edits.append(edit)
    return tuple(edits)


@rule("glossary.keep", severity="error",
      explanation=(
          "`keep: true`인 용어(JAX, XLA, pytree 등)는 영어 그대로 둡니다. msgstr에 영어 표기가 없으면 "
          "오류이고, 읽는 소리(잭스)로 바꿔 쓴 경우에는 그렇게 알려 줍니다."))
def kept_term(message: Message, context: Context):
    """A term the glossary keeps in English (JAX, XLA, pytree) is missing from the msgstr.

    Bad::

        location: quickstart.md:5
        msgid: JAX runs on CPU, GPU and TPU.
        msgstr: 잭스는 CPU, GPU, TPU에서 실행됩니다.
        expect:
          - '`JAX` stays in English; the msgstr has `잭스`'

    Good::

        location: quickstart.md:5
        msgid: JAX runs on CPU, GPU and TPU.
        msgstr: JAX는 CPU, GPU, TPU에서 실행됩니다.
    """
    analysis = analyse(message, context)
    if not analysis.msgid_terms:
        return
    matcher = context.matcher
    kept = [n for n in analysis.msgid_terms if matcher.terms[n].keep]
    if not kept:
        return
    in_msgstr = matcher.english_terms(analysis.msgstr_masked)
    for number in kept:
        words = analysis.msgid_terms[number]
        term = matcher.terms[number]
        if number in in_msgstr:
            continue
        if any(v in analysis.msgstr_masked for v in term.variants):
            continue
        if term.reading and term.reading in analysis.msgstr_masked:
            yield Hit(f"`{term.en}` stays in English; the msgstr has `{term.reading}`", term.en)
        else:
            yield Hit(f"`{words}` stays in English (`keep: true`) but is not in the msgstr", term.en)


@rule("glossary.spacing", severity="warning", fix="sometimes",
      explanation=(
          "합의된 번역을 띄어쓰기만 다르게 썼습니다(매개 변수 ↔ 매개변수). 용어집 표기대로 고치거나, "
          "그 띄어쓰기도 허용하려면 용어집의 `variants`에 추가합니다. "
          "`--fix`는 띄어쓰기만 다른 곳을 용어집 표기로 고칩니다. 사이에 마크업이 있거나 변형이 다른 낱말 "
          "안에서 끝나면(구문 분석 기간) 고치지 않습니다."))
def spacing_variant(message: Message, context: Context):
    """The agreed rendering is written with other spacing (매개 변수 for 매개변수).

    Fixed wherever the variant is plain text (only spaces change) and ends a word (a
    particle or nothing after it); a variant that spans markup or ends inside another
    word (구문 분석 기간 for 구문 분석기) is left to the translator.

    Bad::

        location: api.rst:7
        msgid: Each parameter has a default value.
        msgstr: 각 매개 변수에는 기본값이 있습니다.
        expect:
          - '`매개 변수` is spaced differently from the agreed `매개변수`'

    Good::

        location: api.rst:7
        msgid: Each parameter has a default value.
        msgstr: 각 매개변수에는 기본값이 있습니다.

    Good::

        location: api.rst:8
        msgid: The parameter is removed; the module keeps its parameter.
        msgstr: 매개변수가 제거되었습니다. 모듈이 제 매개변수를 유지합니다.
    """
    analysis = analyse(message, context)
    if not analysis.msgid_terms:
        return
    matcher = context.matcher
    spacing = None
    for number in analysis.msgid_terms:
        term = matcher.terms[number]
        if term.keep or any(r in analysis.renderings for r in term.renderings):
            continue
        if any(matcher.occurs(r, analysis.msgstr_masked) for r in term.renderings):
            continue
        if spacing is None:
            spacing = matcher.spacing_variants(analysis.msgstr_masked)
        for rendering in term.renderings:
            if rendering in spacing:
                written = spacing[rendering]
                yield Hit(f"`{written}` is spaced differently from the agreed "
                          f"`{rendering}`", rendering,
                          fix=_respace(message, analysis.msgstr_masked, written, rendering))
                break


def _respace(message: Message, masked: str, written: str, rendering: str) -> tuple[Edit, ...]:
    """Edits writing every plain-text ``written`` as ``rendering`` (only spaces differ)."""
    if written.replace(" ", "") != rendering.replace(" ", "") or "  " in written:
        return ()
    edits, at = [], masked.find(written)
    while at >= 0:
        end = at + len(written)
        if not _hangul_before(masked, at):  # as spacing_variants: not inside a word
            if message.msgstr[at:end] != written:
                return ()  # markup blanked inside: not plain text
            after = _HANGUL_RUN.match(masked, end)
            if after is not None and not korean.is_particle_run(after.group(0)):
                return ()  # 구문 분석 기간: the variant ends inside another word
            edits.append(Edit(at, end, rendering))
        at = masked.find(written, end)
    return tuple(edits)


_TITLE_WORDS = 6


_BRACKETED = re.compile(r"[(（]\s*([^()（）\n]*?)\s*[)）]")


def _english_word(text: str, english: set[str]) -> bool:
    """``text`` (lower case) is one of the English forms, or its plural (-s, -es)."""
    return (text in english or (text[-1:] == "s" and text[:-1] in english)
            or (text[-2:] == "es" and text[:-2] in english))


def _gloss_of(term, msgstr: str) -> bool:
    """Whether ``msgstr`` glosses the term: its rendering with the English in brackets
    (적시 컴파일(just-in-time compilation), 자동 미분(autodiff)) or the English with
    the rendering (JIT(적시 컴파일)). The bracket holds the term itself: 연결
    리스트(linked list) glosses another term."""
    english = {e.lower() for e in (term.en, *term.forms)}
    for match in _BRACKETED.finditer(msgstr):
        inside = match.group(1)
        before = msgstr[:match.start()].rstrip()
        if _english_word(inside.lower(), english) and before.endswith(term.renderings):
            return True
        if inside in term.renderings:
            lowered = before.lower()
            for e in english:
                for plural in ("", "s", "es"):
                    word = e + plural
                    if lowered.endswith(word) and not (len(lowered) > len(word)
                                                       and _joins(lowered[-len(word) - 1])):
                        return True
    return False


@rule("glossary.gloss-position", severity="info",
      explanation=(
          "용어의 병기(번역어(영어 원어))는 한 페이지에 한 번, 그 용어가 처음 나오는 곳에 씁니다. 먼저 병기 없이 "
          "쓰고 나중에 병기했거나, 같은 용어를 두 번 병기하면 알립니다. 제목(짧고 마침표가 없는 msgid)은 "
          "첫 사용으로 치지 않습니다."))
def gloss_position(message: Message, context: Context):
    """A term is glossed (rendering with its English in brackets) only once per page, at its first use.

    The page is the catalog; its messages are read in order. Headings (titles in the
    source document; without it, short msgids without a final stop) and index entries
    count neither as the first use nor as a gloss.

    Bad::

        entries:
          - location: thinking_in_jax.md:10
            msgid: JAX uses just-in-time compilation to speed up code.
            msgstr: JAX는 적시 컴파일로 코드를 빠르게 합니다.
          - location: thinking_in_jax.md:90
            msgid: Just-in-time compilation traces the function once.
            msgstr: 적시 컴파일(just-in-time compilation)은 함수를 한 번 추적합니다.
        expect:
          - '`just-in-time compilation` is glossed here but first used without a gloss on line 9: move the gloss to its first use'

    Bad::

        entries:
          - location: thinking_in_jax.md:10
            msgid: JAX uses just-in-time compilation to speed up code.
            msgstr: JAX는 적시 컴파일(just-in-time compilation)로 코드를 빠르게 합니다.
          - location: thinking_in_jax.md:90
            msgid: Just-in-time compilation traces the function once.
            msgstr: 적시 컴파일(just-in-time compilation)은 함수를 한 번 추적합니다.
        expect:
          - '`just-in-time compilation` is glossed again; it was glossed on line 9 of this page: keep only the first gloss'

    Good::

        entries:
          - location: thinking_in_jax.md:3
            msgid: Just-in-time compilation
            msgstr: 적시 컴파일
          - location: thinking_in_jax.md:10
            msgid: JAX uses just-in-time compilation to speed up code.
            msgstr: JAX는 적시 컴파일(just-in-time compilation)로 코드를 빠르게 합니다.
          - location: thinking_in_jax.md:90
            msgid: Just-in-time compilation traces the function once.
            msgstr: 적시 컴파일은 함수를 한 번 추적합니다.
    """
    pages = context.memo("gloss-position")
    page = pages.get(message.path)
    if page is None or message.line <= page["last"]:  # a new pass over this catalog
        page = pages[message.path] = {"used": {}, "glossed": {}, "last": 0}
    page["last"] = message.line
    terms = analyse(message, context).msgid_terms
    if not terms:
        return
    matcher = context.matcher
    msgid = message.msgid.strip()
    # A title in the source document; without the source, a short msgid without a stop.
    heading = message.heading or (len(msgid.split()) <= _TITLE_WORDS
                                  and not msgid.endswith((".", ":", "?", "!")))
    for number, words in terms.items():
        term = matcher.terms[number]
        if "(" in message.msgstr and not heading and not term.keep and _gloss_of(term, message.msgstr):
            if number in page["glossed"]:
                yield Hit(f"`{term.en}` is glossed again; it was glossed on line "
                          f"{page['glossed'][number]} of this page: keep only the first gloss",
                          term.ko)
            elif number in page["used"]:
                yield Hit(f"`{term.en}` is glossed here but first used without a gloss on line "
                          f"{page['used'][number]}: move the gloss to its first use")
                page["glossed"][number] = message.line
            else:
                page["glossed"][number] = message.line
        if not heading and number not in page["used"] and _in_sense(term, words, msgid_masked(message)):
            page["used"][number] = message.line  # a use in another sense ("to shard") is not one
