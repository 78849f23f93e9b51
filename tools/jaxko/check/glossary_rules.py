"""Glossary rules: agreed renderings, forbidden ones, kept terms, spacing variants.

Terms are looked for in the msgid outside inline code, role targets, URLs and math
(``:func:`jax.grad``` is not "gradient"); renderings in the msgstr outside code too.
The examples use the glossary of :mod:`jaxko.check.examples`.
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxko.check.context import Context, cached, msgid_masked, msgstr_masked
from jaxko.check.message import Message
from jaxko.check.registry import Hit, rule
from jaxko.check.terms import matched_text


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


@rule("glossary.missing", severity="warning")
def missing_rendering(message: Message, context: Context):
    """An English term of the msgid is in the msgstr in neither its agreed rendering nor a variant.

    Bad::

        location: autodidax.md:12
        msgid: We compute the convolution of two arrays.
        msgstr: 두 배열의 컨벌루션 연산을 계산합니다.

    Good::

        location: autodidax.md:12
        msgid: We compute the convolutions of two arrays.
        msgstr: 두 배열의 합성곱을 계산합니다.
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
        if any(f in analysis.renderings for f in term.forbidden):
            continue  # glossary.forbidden reports it, with the fix
        if spacing is None:
            spacing = matcher.spacing_variants(analysis.msgstr_masked)
        if any(r in spacing for r in term.renderings):
            continue  # glossary.spacing reports it
        shown = " or ".join(f"`{r}`" for r in term.renderings)
        yield Hit(f"`{words}` is translated without its agreed rendering {shown}", term.ko)


@rule("glossary.forbidden", severity="error")
def forbidden_rendering(message: Message, context: Context):
    """The msgstr uses a rendering the glossary forbids (wherever it appears).

    Bad::

        location: notebooks/convolutions.ipynb:20003
        msgid: Convolutions are everywhere in deep learning.
        msgstr: 컨볼루션은 딥러닝 어디에나 있습니다.

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
            yield Hit(f"`{found}` is forbidden for `{term.en}`; use `{agreed}`", agreed)


@rule("glossary.keep", severity="error")
def kept_term(message: Message, context: Context):
    """A term the glossary keeps in English (JAX, XLA, pytree) is missing from the msgstr.

    Bad::

        location: quickstart.md:5
        msgid: JAX runs on CPU, GPU and TPU.
        msgstr: 잭스는 CPU, GPU, TPU에서 실행됩니다.

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


@rule("glossary.spacing", severity="warning")
def spacing_variant(message: Message, context: Context):
    """The agreed rendering is written with other spacing (매개 변수 for 매개변수).

    Bad::

        location: api.rst:7
        msgid: Each parameter has a default value.
        msgstr: 각 매개 변수에는 기본값이 있습니다.

    Good::

        location: api.rst:7
        msgid: Each parameter has a default value.
        msgstr: 각 매개변수에는 기본값이 있습니다.
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
                yield Hit(f"`{spacing[rendering]}` is spaced differently from the agreed "
                          f"`{rendering}`", rendering)
                break
