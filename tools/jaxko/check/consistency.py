"""Consistency: the same msgid translated differently in different catalogs.

A project-wide rule (``scope="project"``): the runner keeps a
:class:`~jaxko.check.registry.Record` (hashes of the key and of the msgstr) of every
checked message, and calls :func:`same_translation` once over all of them at the end;
it reads the texts of the few entries whose hashes disagree and decides on them
(:func:`find_inconsistent`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import NamedTuple

from jaxko import catalogs
from jaxko.check.registry import RULES, Finding, Hit, family, rule

FAMILY = family("consistency", "일관성 (consistency)", order=6)

RULE = "consistency.translation"


@rule(RULE, severity="info", scope="project", blocks=("text", "code", "math"),
      explanation=(
          "같은 msgid를 카탈로그마다 다르게 번역했습니다. 제목, 이름표, 용어처럼 문장이 아닌 msgid는 "
          "다른 낱말로 옮겼을 때 알립니다(띄어쓰기, 조사와 어미, 괄호 속 영어 병기, 원문 영어를 그대로 둔 "
          "것의 차이는 알리지 않습니다). 문장(\"For example:\"처럼 뒤를 이끄는 구절 포함)은 그 안의 "
          "용어집 용어를 다르게 옮겼을 때만 알립니다. 가장 많이 쓴 번역을 제안하고 변형을 모두 보여 줍니다. "
          "`--since`로 돌리면 읽은 카탈로그끼리만 비교합니다."))
def same_translation(records, context, severity: str):
    """The same msgid is translated differently in different catalogs; the variants are listed.

    Reported for a label (a title or term of a few words, not a sentence) whose renderings
    use different words, and for a sentence whose glossary terms are rendered differently.
    Not reported: two wordings of one sentence that agree on its terms; differences of
    spacing, particles and endings (분석/분석하기, 및/와), an English gloss added in
    brackets, or the English kept as it is.

    Bad::

        entries:
          - location: jit.md:3
            msgid: Just-in-time compilation
            msgstr: 적시 컴파일
          - location: faq.md:9
            msgid: Just-in-time compilation
            msgstr: JIT 컴파일
        expect:
          - 'translated differently elsewhere: `JIT 컴파일` (1×); `적시 컴파일` (1×)'

    Good::

        entries:
          - location: jit.md:3
            msgid: Just-in-time compilation
            msgstr: 적시 컴파일
          - location: faq.md:9
            msgid: Just-in-time compilation
            msgstr: 적시 컴파일

    Bad::

        entries:
          - location: thinking_in_jax.md:3
            msgid: Rule of thumb
            msgstr: 경험칙
          - location: sharp_bits.md:9
            msgid: Rule of thumb
            msgstr: 경험 법칙
        expect:
          - 'translated differently elsewhere: `경험 법칙` (1×); `경험칙` (1×)'

    Good::

        entries:
          - location: a.md:3
            msgid: Parsing arguments and building values
            msgstr: 인자 구문 분석 및 값 만들기
          - location: b.md:9
            msgid: Parsing arguments and building values
            msgstr: 인자(arguments) 구문 분석과 값 만들기
          - location: c.md:9
            msgid: Parsing arguments and building values
            msgstr: Parsing arguments and building values

    Good::

        entries:
          - location: a.md:3
            msgid: Cookie Objects
            msgstr: 쿠키 객체
          - location: b.md:9
            msgid: Cookie Objects
            msgstr: Cookie 객체
          - location: c.md:5
            msgid: "For example:"
            msgstr: "예를 들면:"
          - location: d.md:5
            msgid: "For example:"
            msgstr: "예를 들어:"

    Good::

        entries:
          - location: a.md:3
            msgid: This function returns an array of the same shape as its input array.
            msgstr: 이 함수는 입력 배열과 모양이 같은 배열을 반환합니다.
          - location: b.md:9
            msgid: This function returns an array of the same shape as its input array.
            msgstr: 이 함수는 입력 배열과 같은 모양의 배열을 돌려줍니다.

    Bad::

        entries:
          - location: a.md:3
            msgid: This function returns an array of the same shape as its input array.
            msgstr: 이 함수는 입력 배열과 모양이 같은 배열을 반환합니다.
          - location: b.md:9
            msgid: This function returns an array of the same shape as its input array.
            msgstr: 이 함수는 입력 어레이와 모양이 같은 어레이를 반환합니다.
        expect:
          - 'translated differently elsewhere: `이 함수는 입력 배열과 모양이 같은 배열을 반환합니다` (1×); `이 함수는 입력 어레이와 모양이 같은 어레이를 반환합니다` (1×)'
    """
    # One pass over every record: a key with two different msgstr hashes may disagree
    # (find_inconsistent decides, on the real texts, across catalogs).
    first: dict[int, int] = {}
    conflicting: set[int] = set()
    for record in records:
        if first.setdefault(record.key, record.text) != record.text:
            conflicting.add(record.key)
    if not conflicting:
        return []
    # The texts: on the record when its catalog was read in this run, else (a catalog
    # whose results came from the cache) read again from the catalog.
    wanted: dict[str, set[int]] = {}
    for record in records:
        if record.key in conflicting and record.texts is None:
            wanted.setdefault(record.path, set()).add(record.line)
    texts = {}
    for name, lines in wanted.items():
        for entry in catalogs.read(name):
            if entry.msgstr_line in lines:  # a record's line is its message's: the msgstr's
                texts[(name, entry.msgstr_line)] = (entry.msgctxt, entry.msgid, entry.msgstr)
    renderings = []
    for record in records:
        if record.key not in conflicting:
            continue
        found = record.texts if record.texts is not None else texts.get((record.path, record.line))
        if found is not None:
            msgctxt, msgid, msgstr = found
            # A `jaxko: ignore` comment is applied by the runner, which counts what it
            # suppresses (and ignore.unused sees it used).
            renderings.append(Rendering((msgctxt, msgid), msgstr, record.path, record.line, msgid))
    return find_inconsistent(renderings, context.matcher, severity)


SHORT_WORDS = 6  # a msgid this short is a title, label or term: one rendering everywhere
_WORDS = re.compile(r"[A-Za-z0-9]+")
_INDEX_ENTRY = re.compile(r"[a-z][a-z0-9_.-]*")
_ESCAPED_SPACE = re.compile(r"\\\s")
_SPACE_BEFORE_HANGUL = re.compile(r"(?<=[`*)\]])\s+(?=[가-힣])")
_SPACES = re.compile(r"\s+")


# What a label's rendering may vary in without using other words: particles and endings
# at the end of a word, a few function words, an English gloss in brackets.
_ENDINGS = ("하기", "으로", "에서", "의", "을", "를", "은", "는", "이", "가", "와", "과", "로", "에")
_FUNCTION_WORDS = frozenset({"및", "그리고", "또는", "혹은", "사항"})  # 변경/변경 사항
_GLOSS = re.compile(r"\s*[(（][^()（）가-힣]*[)）]|[A-Za-z][^()（）가-힣]*?\s*[(（](?=[^()（）]*[가-힣])|[)）]")
_HANGUL_WORD = re.compile(r"[가-힣]+")
_LATIN = re.compile(r"[A-Za-z]{2,}")


def _words(msgstr: str) -> tuple[str, ...] | None:
    """The letters of a label's Korean words, in order of code point: spacing, word
    order, endings and glosses set aside (명령 줄/명령줄, 튜플(Tuples)/튜플, 분석하기/분석);
    None when it has no Hangul (the English kept: a choice, not an inconsistency)."""
    text = _GLOSS.sub(" ", msgstr)
    words = []
    for word in _HANGUL_WORD.findall(text):
        for _ in range(2):  # 에서+의, 으로+의
            ending = next((e for e in _ENDINGS if word.endswith(e)), None)
            if ending is None:
                break
            word = word[: -len(ending)]  # a particle alone (API와) leaves nothing
        if word and word not in _FUNCTION_WORDS:
            words.append(word)
    return tuple(sorted("".join(words))) if words else None


def _is_sentence(msgid: str) -> bool:
    """A sentence or a phrase leading into what follows ("For example:", "Equivalent
    to::"), not a title, label or term ("Examples", "Example::")."""
    words = len(_WORDS.findall(msgid))
    end = msgid.rstrip()
    return (words > SHORT_WORDS or (words >= 3 and end.endswith((".", "!", "?")))
            or (words >= 2 and end.endswith(":")))


def _differ(a: tuple[str, ...], b: tuple[str, ...], latin: dict) -> bool:
    """Whether two labels use other words: not when one keeps a word of the msgid in
    English where the other writes it in Korean (``Cookie 객체``/``쿠키 객체``), its Korean
    letters a part of the other's."""
    if a == b:
        return False
    for small, large in ((a, b), (b, a)):
        if latin[small] and not Counter(small) - Counter(large):
            return False
    return True


def _normal(msgstr: str) -> str:
    """A rendering with what the reader does not see as a difference removed: ``\\ ``
    escapes, a space between markup and its particle, runs of spaces, a final stop."""
    text = _ESCAPED_SPACE.sub("", msgstr)
    text = _SPACE_BEFORE_HANGUL.sub("", text)
    return _SPACES.sub(" ", text).strip().rstrip(".:;").strip()


def _term_renderings(msgid: str, msgstr: str, matcher) -> frozenset[str]:
    """The glossary renderings (accepted or forbidden) of the msgid's terms in a msgstr."""
    wanted = set()
    for number in matcher.english_terms(msgid):
        term = matcher.terms[number]
        if term.pos or term.senses or term.variants or term.forbidden:  # a recorded decision
            wanted.update(term.renderings, term.forbidden)
    if not wanted:
        return frozenset()
    return frozenset(matcher.found_renderings(matcher.korean_matches(msgstr)) & wanted)


class Rendering(NamedTuple):
    """One checked entry's translation, as the consistency rule compares them."""

    key: tuple                  # (msgctxt, msgid)
    msgstr: str
    path: str
    line: int
    msgid: str


def find_inconsistent(renderings: list[Rendering], matcher=None,
                      severity: str | None = None) -> list[Finding]:
    """Findings for msgids with several translations in different catalogs.

    Renderings that differ only in spacing or escapes are the same. A label (a title or
    term, not a sentence) is reported where its renderings use other words; a sentence
    only where the glossary terms it renders differ (``matcher``): paraphrases of one
    sentence are not a problem a reviewer fixes. Entries that use the most common
    translation are not reported; each other one is, with every variant and how often
    it is used.
    """
    by_key: dict = defaultdict(list)
    for rendering in renderings:
        by_key[rendering.key].append(rendering)
    findings = []
    severity = severity or RULES[RULE].severity
    for group in by_key.values():
        if len(group) < 2 or len({r.path for r in group}) < 2:
            continue
        normal = {r.msgstr: _normal(r.msgstr) for r in group}
        counts = Counter(normal[r.msgstr] for r in group)
        if len(counts) < 2:
            continue
        msgid = group[0].msgid
        if _INDEX_ENTRY.fullmatch(msgid.strip()):
            continue  # an index entry or term name (class, signal): glossed or not by context
        if _is_sentence(msgid):
            if matcher is None:
                continue
            terms = {_term_renderings(msgid, m, matcher) for m in normal.values()}
            if len(terms) < 2:
                continue
        else:
            english = {w.lower() for w in _LATIN.findall(msgid)}
            latin: dict = {}  # letters -> whether a word of the msgid is kept in English
            for m in normal.values():
                letters = _words(m)
                if letters is not None:
                    kept = any(w.lower() in english for w in _LATIN.findall(_GLOSS.sub(" ", m)))
                    latin[letters] = latin.get(letters, False) or kept
            if not any(_differ(a, b, latin) for a in latin for b in latin):
                continue
        # The majority translation, ties broken by first appearance (sorted paths).
        group.sort(key=lambda r: (r.path, r.line))
        order_seen = [normal[r.msgstr] for r in group]
        order = {text: i for i, (text, _) in enumerate(
            sorted(counts.items(), key=lambda item: (-item[1], order_seen.index(item[0]))))}
        majority = min(order, key=order.get)
        majority_text = next(r.msgstr for r in group if normal[r.msgstr] == majority)
        start = _common_prefix(list(counts))
        shown = "; ".join(f"`{_short(m, start)}` ({c}×)" for m, c in
                          sorted(counts.items(), key=lambda item: order[item[0]]))
        for r in group:
            if normal[r.msgstr] != majority:
                findings.append(Finding(r.path, r.line, RULE, severity,
                                        f"translated differently elsewhere: {shown}",
                                        r.msgid, majority_text, r.msgstr, r.key[0]))
    return findings


def _common_prefix(texts: list[str]) -> int:
    first, last = min(texts), max(texts)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return size


def _short(text: str, start: int = 0, limit: int = 60) -> str:
    """A variant in one line; long ones from a little before where the variants differ."""
    text = " ".join(text.split())
    cut = max(0, start - 15) if start > 30 else 0
    text = ("…" if cut else "") + text[cut:]
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["find_inconsistent", "same_translation", "Hit"]
