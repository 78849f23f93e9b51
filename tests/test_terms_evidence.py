"""jaxko terms: a message that holds the term's main rendering is no evidence of another.

The report's rule on fixed alignments (no aligner run): where the aligner links *define*
to 데코레이터 in 데코레이터를 정의합니다, 정의 is in the sentence and nothing drifts."""

from __future__ import annotations

from test_terms import _aligned


def test_a_message_holding_the_main_rendering_shows_no_other():
    from jaxko.workflow.terms import build_report

    main = [_aligned("a.po", n, "define", "정의") for n in (1, 2, 3)]
    # the aligner's slip: define linked to 데코레이터, while 정의 is in the message
    slips = [_aligned("b.po", n, "define x", "데코레이터 정의", {(0, 0), (1, 1)}) for n in (1, 2)]
    assert build_report(main + slips, None, catalogs=2, all_words=True).drift == []
    # planted: the other word alone, where 정의 is absent, is drift
    other = [_aligned("c.po", n, "define", "선언") for n in (1, 2)]
    found = build_report(main + slips + other, None, catalogs=3, all_words=True).drift
    assert [(r.term, [(v.key, v.places) for v in r.variants]) for r in found] == [
        ("define", [("정의", ["a.po:1", "a.po:2", "a.po:3"]),
                    ("선언", ["c.po:1", "c.po:2"])])]
    # one message of evidence left is under --min-messages 2: no drift
    mixed = other[:1] + [_aligned("d.po", 1, "define", "선언 정의")]
    assert build_report(main + mixed, None, catalogs=3, all_words=True).drift == []


def test_a_rendering_holding_the_glossary_rendering_is_that_rendering():
    from jaxko.glossary import Glossary, Term
    from jaxko.workflow.terms import build_report

    glossary = Glossary((Term("recompute", "재계산"),))
    before = [_aligned("a.po", n, "recompute x", "그때그때 재계산", {(0, 0), (0, 1)}) for n in (1, 2)]
    after = [_aligned("b.po", n, "recompute x", "재계산 사이", {(0, 0), (0, 1)}) for n in (1, 2)]
    assert build_report(before + after, glossary, catalogs=2).drift == []
    # planted: a rendering without 재계산 still drifts from them
    other = [_aligned("c.po", n, "recompute", "다시 계산", {(0, 0), (0, 1)}) for n in (1, 2)]
    found = build_report(before + after + other, glossary, catalogs=3).drift
    assert [(r.term, sorted(v.key for v in r.variants)) for r in found] == \
        [("recompute", ["그때그때재계산", "다시계산"])]


def test_a_term_rendered_by_a_noun_in_under_half_its_messages_does_not_drift():
    """keep, rendered 가집니다 (a verb: no rendering), linked now and then to a noun
    beside it: slips, not drift."""
    from jaxko.workflow.terms import build_report

    verbs = [_aligned("a.po", n, "keep it", "가집니다 그것", {(1, 1)}) for n in range(1, 7)]
    slips = [_aligned("b.po", n, "keep", "하나") for n in (1, 2)] + \
        [_aligned("c.po", n, "keep", "장치") for n in (1, 2)]
    assert build_report(verbs + slips, None, catalogs=3, all_words=True).drift == []
    # planted: the same renderings on most of its messages drift
    found = build_report(verbs[:3] + slips, None, catalogs=3, all_words=True).drift
    assert [(r.term, sorted(v.key for v in r.variants)) for r in found] == \
        [("keep", ["장치", "하나"])]


def test_a_message_keeping_the_english_term_has_no_rendering_of_it():
    """Prologue kept in English (a book's section title) beside 논거: the aligner's link
    to 논거 is no rendering."""
    from jaxko.workflow.terms import build_report

    rendered = [_aligned("a.po", n, "prologue", "서문") for n in (1, 2, 3)]
    kept = [_aligned("b.po", n, "prologue x", "Prologue 그 논거", {(0, 2), (1, 1)})
            for n in (1, 2)]
    assert build_report(rendered + kept, None, catalogs=2, all_words=True).drift == []
    # planted: the same link without the English kept is drift
    other = [_aligned("c.po", n, "prologue x", "그 논거", {(0, 1), (1, 0)}) for n in (1, 2)]
    found = build_report(rendered + other, None, catalogs=2, all_words=True).drift
    assert [(r.term, sorted(v.key for v in r.variants)) for r in found] == \
        [("prologue", ["논거", "서문"])]


def test_a_message_holding_any_accepted_rendering_shows_no_other():
    """The glossary accepts 안내 beside 프롬프트; 안내 is used once only, so it is no
    cluster of its own, yet a message holding it is no evidence of a third word."""
    from jaxko.glossary import Glossary, Term
    from jaxko.workflow.terms import build_report

    glossary = Glossary((Term("prompt", "프롬프트", variants=("안내",)),))
    main = [_aligned("a.po", n, "prompt", "프롬프트") for n in (1, 2, 3)]
    slips = [_aligned("b.po", n, "prompt x", "화면 안내", {(0, 0), (1, 1)}) for n in (1, 2)]
    assert build_report(main + slips, glossary, catalogs=2).drift == []
    other = [_aligned("c.po", n, "prompt", "화면") for n in (1, 2)]
    found = build_report(main + slips + other, glossary, catalogs=3).drift
    assert [(r.term, sorted(v.key for v in r.variants)) for r in found] == \
        [("prompt", ["프롬프트", "화면"])]


def test_a_phrase_rendered_in_under_half_its_messages_still_drifts():
    """A phrase is a noun phrase: its rendering is found only where the aligner linked
    each of its words, so few links say nothing of a verb. time step, 시간 단계 on two
    messages and 타임 스텝 on two, on six rendered by a pronoun, drifts."""
    from jaxko.workflow.terms import build_report

    old = [_aligned("a.po", n, "the time step", "그 시간 단계") for n in (1, 2)]
    new = [_aligned("b.po", n, "the time step", "그 타임 스텝") for n in (1, 2)]
    unlinked = [_aligned("c.po", n, "the time step", "이것", set()) for n in range(1, 7)]
    found = build_report(old + new + unlinked, None, catalogs=3, all_words=True).drift
    phrase = {r.term: sorted(v.key for v in r.variants) for r in found}.get("time step")
    assert phrase == ["시간단계", "타임스텝"], found
    # a single word so rarely rendered by a noun does not drift (the rule above)
    words = [_aligned("a.po", n, "the step", "그 단계") for n in (1, 2)] + \
        [_aligned("b.po", n, "the step", "그 스텝") for n in (1, 2)] + \
        [_aligned("c.po", n, "the step", "이것", set()) for n in range(1, 7)]
    assert build_report(words, None, catalogs=3, all_words=True).drift == []


def test_final_and_adds_a_link_only_where_both_words_are_unaligned():
    from jaxko.workflow.terms import _final_and, _grow_diag

    # The directions disagree on time step / 타임 스텝: grow-diag keeps neither word.
    forward, backward = {(0, 1), (1, 0)}, {(0, 0), (1, 1)}
    grown = _grow_diag(forward, backward)
    assert grown == set()
    added = _final_and(grown, forward, backward)
    # one link per unaligned word, the forward direction first; never a link to a word
    # grow-diag aligned already
    assert added == {(0, 1), (1, 0)}
    assert _final_and({(0, 0), (1, 1)}, {(0, 1), (1, 0)}, set()) == set()


def test_a_phrase_reads_the_final_and_links_and_a_single_word_does_not():
    """Where grow-diag left both words of time step unaligned and final-and linked them,
    the phrase has its rendering; a single word linked by final-and alone has none
    (final-and on single words adds more wrong links than right ones)."""
    from jaxko.workflow.terms import rendering_of

    item = _aligned("a.po", 1, "time step here", "타임 스텝 여기", {(2, 2)})
    assert rendering_of(item, range(0, 2)) is None  # grow-diag only: no rendering
    item.final_and = {(0, 0), (1, 1)}
    assert rendering_of(item, range(0, 2)).shown == "타임 스텝"
    assert rendering_of(item, range(0, 1)) is None and rendering_of(item, range(1, 2)) is None


def test_a_phrase_rendered_as_its_word_is_the_words_drift_listed_once():
    """checkpoint read (read a verb, linked to the noun beside it): its renderings are
    checkpoint's, so only checkpoint drifts. A phrase with renderings of its own (time
    step) is listed beside its words (test_terms.py)."""
    from jaxko.workflow.terms import build_report

    words = [_aligned("a.po", n, "checkpoint", "체크포인트") for n in (1, 2)] + \
        [_aligned("b.po", n, "checkpoint", "검사점") for n in (1, 2)]
    phrase = [_aligned("a.po", n, "checkpoint read", "체크포인트", {(0, 0), (1, 0)}) for n in (3, 4)] + \
        [_aligned("b.po", n, "checkpoint read", "검사점", {(0, 0), (1, 0)}) for n in (3, 4)]
    found = build_report(words + phrase, None, catalogs=2)
    assert [r.term for r in found.drift] == ["checkpoint"]
    # planted: the phrase alone, its word not drifting, is listed
    found = build_report(phrase, None, catalogs=2)
    assert [r.term for r in found.drift] == ["checkpoint read"]


def test_a_message_holding_a_drifting_rendering_shows_no_less_used_one():
    """checkpoint: 검사점 and 체크포인트 on as many messages each (the main is 검사점, by
    its key); the aligner's slip to 필요 in 체크포인트가 필요합니다 is no third rendering."""
    from jaxko.workflow.terms import build_report

    main = [_aligned("a.po", n, "checkpoint", "검사점") for n in (1, 2, 3)]
    other = [_aligned("b.po", n, "checkpoint", "체크포인트") for n in (1, 2, 3)]
    slips = [_aligned("c.po", n, "checkpoint need", "체크포인트 필요", {(0, 1), (1, 0)})
             for n in (1, 2)]
    found = build_report(main + other + slips, None, catalogs=3)
    assert [(r.term, sorted(v.key for v in r.variants)) for r in found.drift] == \
        [("checkpoint", ["검사점", "체크포인트"])]
    # planted: the slip where 체크포인트 is absent is a third rendering
    alone = [_aligned("d.po", n, "checkpoint", "필요") for n in (1, 2)]
    found = build_report(main + other + alone, None, catalogs=3)
    assert [(r.term, sorted(v.key for v in r.variants)) for r in found.drift] == \
        [("checkpoint", ["검사점", "체크포인트", "필요"])]
