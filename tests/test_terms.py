"""`jaxko terms`: drift, spacing, glossary violations and candidates found by word
alignment (real eflomal, real Kiwi) on small catalog trees written here.

Each tree is two pages (four in one test) of short sentences built from a small vocabulary with fixed
renderings, so the aligner has enough co-occurrence to learn from; the planted fault
is one term rendered another way on some messages.

The reports are read from `jaxko terms` run in this process (no interpreter start per
run, the Kiwi that checks rendering shapes loaded once), and the runs of the file share
one analysis cache, keyed by the content analysed (messages and the words taught to
Kiwi): a tree another test already analysed with the same glossary words is not
aligned twice. The exit-2 and --help tests run the real command in a subprocess, where
the process boundary is what they check.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import run_jaxko, run_jaxko_in_process

# English noun -> Korean rendering; every sentence uses two of them.
VOCABULARY = {
    "compiler": "컴파일러", "tracer": "트레이서", "buffer": "버퍼", "kernel": "커널",
    "gradient": "그레이디언트", "checkpoint": "체크포인트", "mesh": "메시",
    "device": "장치", "pipeline": "파이프라인", "subset": "부분 집합", "scheduler": "스케줄러",
    "profiler": "프로파일러",
}
PATTERNS = (
    ("The {a} reads the {b}.", "{A}는 {B}를 읽습니다."),
    ("Each {a} keeps one {b}.", "각 {A}는 {B} 하나를 가집니다."),
    ("A {a} needs a {b} first.", "{A}에는 먼저 {B}가 필요합니다."),
    ("Send the {a} to the {b}.", "{A}를 {B}로 보냅니다."),
)
HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Language: ko\\n"\n\n')


def _josa(word: str, consonant: str, vowel: str) -> str:
    last = word[-1]
    has_final = "가" <= last <= "힣" and (ord(last) - 0xAC00) % 28 != 0
    return consonant if has_final else vowel


def _korean(pattern: str, a: str, b: str) -> str:
    """The Korean sentence with particles agreeing with the renderings."""
    text = pattern.replace("{A}는", a + _josa(a, "은", "는")).replace("{A}를", a + _josa(a, "을", "를"))
    text = text.replace("{B}를", b + _josa(b, "을", "를")).replace("{B}가", b + _josa(b, "이", "가"))
    text = text.replace("{B}로", b + ("로" if b[-1] in "러퍼널" else _josa(b, "으로", "로")))
    return text.replace("{A}", a).replace("{B}", b)


def _pairs(page: int, override: dict[str, str] | None = None, spacing: str | None = None,
           vocabulary: dict[str, str] = VOCABULARY):
    """Sentences of one page: every word pairs with two others in each pattern."""
    words = list(vocabulary)
    pairs = []
    for i, a in enumerate(words):
        for step in (1 + page, 3 + page, 5 + page, 7 + page):
            b = words[(i + step) % len(words)]
            en_pattern, ko_pattern = PATTERNS[(i + step + page) % len(PATTERNS)]
            ko_a = (override or {}).get(a, vocabulary[a])
            ko_b = (override or {}).get(b, vocabulary[b])
            english = en_pattern.format(a=a, b=b)
            pairs.append((english[0].upper() + english[1:], _korean(ko_pattern, ko_a, ko_b)))
    if spacing:
        pairs = [(en, ko.replace("부분 집합", spacing)) for en, ko in pairs]
    return pairs


def write_catalog(path: Path, pairs) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = HEADER
    for number, (msgid, msgstr) in enumerate(pairs, 1):
        body += (f"#: ../../{path.stem}.md:{number}\nmsgid {json.dumps(msgid)}\n"
                 f"msgstr {json.dumps(msgstr, ensure_ascii=False)}\n\n")
    path.write_text(body, encoding="utf-8")


def write_glossary(path: Path, terms: dict[str, str]) -> Path:
    path.write_text("terms:\n" + "".join(f"  - en: {en}\n    ko: {ko}\n" for en, ko in terms.items()),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def _terms_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("terms-cache")


@pytest.fixture(autouse=True)
def _shared_terms_cache(_own_check_cache, _terms_cache, monkeypatch):
    """One `jaxko terms` analysis cache for the file (after conftest gave each test its
    own): text and JSON runs of one tree agree, and a tree is aligned once."""
    monkeypatch.setenv("JAXKO_CACHE_DIR", str(_terms_cache))


def terms(tree: Path, *args: str) -> subprocess.CompletedProcess:
    """`jaxko terms TREE` in this process; see the module docstring for the cache."""
    return run_jaxko_in_process("terms", str(tree), *args, cwd=tree)


def terms_process(tree: Path, *args: str) -> subprocess.CompletedProcess:
    """`jaxko terms TREE` as a user runs it: a subprocess (exit codes and stderr)."""
    return run_jaxko("terms", str(tree), *args, cwd=tree)


def report(tree: Path, *args: str) -> dict:
    proc = terms(tree, "--format", "json", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def drift_of(data: dict, term: str) -> dict | None:
    return next((d for d in data["drift"] if d["term"] == term), None)


@pytest.fixture
def glossary(tmp_path: Path) -> Path:
    return write_glossary(tmp_path / "glossary.yaml", {"device": "장치"})


def write_planted(tree: Path) -> None:
    """Four pages, checkpoint 체크포인트 on a and c, 검사점 on b and d (each on 16
    messages). On two pages the aligner now and then left checkpoint unaligned on over
    half of its messages (1 of 90 direct analyses, and one CI run), and the drift was
    not reported."""
    for page, name in enumerate("abcd"):
        write_catalog(tree / f"{name}.po",
                      _pairs(page, override={"checkpoint": "검사점"} if page % 2 else None))


def test_planted_drift_is_reported_with_both_renderings_and_locations(tmp_path, glossary):
    tree = tmp_path / "LC_MESSAGES"
    write_planted(tree)
    data = report(tree, "--glossary", str(glossary))
    found = drift_of(data, "checkpoint")
    assert found is not None, data["drift"]
    shown = {r["rendering"]: r for r in found["renderings"]}
    assert set(shown) == {"체크포인트", "검사점"}
    assert all(r["count"] >= 2 for r in shown.values())
    assert all(loc.startswith(("a.po:", "c.po:")) for loc in shown["체크포인트"]["locations"])
    assert all(loc.startswith(("b.po:", "d.po:")) for loc in shown["검사점"]["locations"])
    # Nothing else drifts: every other word kept its one rendering.
    assert [d["term"] for d in data["drift"]] == ["checkpoint"]

    text = terms(tree, "--glossary", str(glossary)).stdout
    assert "drift: checkpoint: " in text and "체크포인트" in text and "검사점" in text
    assert "b.po:" in text


def test_consistent_tree_reports_nothing(tmp_path, glossary):
    tree = tmp_path / "LC_MESSAGES"
    write_catalog(tree / "a.po", _pairs(0))
    write_catalog(tree / "b.po", _pairs(1))
    data = report(tree, "--glossary", str(glossary))
    assert data["drift"] == [] and data["spacing"] == [] and data["violations"] == []
    assert data["messages"] == 96 and data["catalogs"] == 2
    text = terms(tree, "--glossary", str(glossary)).stdout
    assert text.startswith("0 drifting terms, 0 spacing variants, 0 glossary terms")


def test_spacing_variant_is_reported_as_spacing_not_drift(tmp_path, glossary):
    tree = tmp_path / "LC_MESSAGES"
    write_catalog(tree / "a.po", _pairs(0))
    write_catalog(tree / "b.po", _pairs(1, spacing="부분집합"))
    data = report(tree, "--glossary", str(glossary))
    assert drift_of(data, "subset") is None
    spacing = [s for s in data["spacing"] if s["term"] == "subset"]
    assert spacing, data
    assert set(spacing[0]["renderings"][0]["spellings"]) == {"부분 집합", "부분집합"}
    text = terms(tree, "--glossary", str(glossary)).stdout
    assert "spacing: subset: " in text


def test_glossary_violation_where_the_glossary_rendering_is_absent(tmp_path):
    tree = tmp_path / "LC_MESSAGES"
    write_catalog(tree / "a.po", _pairs(0, override={"device": "디바이스"}))
    write_catalog(tree / "b.po", _pairs(1, override={"device": "디바이스"}))
    glossary = write_glossary(tmp_path / "glossary.yaml", {"device": "장치"})
    data = report(tree, "--glossary", str(glossary))
    found = [v for v in data["violations"] if v["term"] == "device"]
    assert found and found[0]["glossary"] == "장치"
    assert found[0]["renderings"][0]["rendering"] == "디바이스"
    text = terms(tree, "--glossary", str(glossary)).stdout
    assert "glossary: device: glossary says 장치, rendered as 디바이스" in text

    # An accepted variant recorded in the glossary is neither a violation nor drift.
    (tmp_path / "glossary.yaml").write_text(
        "terms:\n  - en: device\n    ko: 장치\n    variants: [디바이스]\n", encoding="utf-8")
    data = report(tree, "--glossary", str(glossary))
    assert data["violations"] == [] and drift_of(data, "device") is None


def test_accepted_variant_is_not_drift(tmp_path):
    tree = tmp_path / "LC_MESSAGES"
    write_catalog(tree / "a.po", _pairs(0))
    write_catalog(tree / "b.po", _pairs(1, override={"checkpoint": "검사점"}))
    glossary = tmp_path / "glossary.yaml"
    glossary.write_text("terms:\n  - en: checkpoint\n    ko: 체크포인트\n    variants: [검사점]\n",
                        encoding="utf-8")
    data = report(tree, "--glossary", str(glossary))
    assert drift_of(data, "checkpoint") is None and data["violations"] == []


def test_entries_with_one_english_term_accept_each_others_renderings(tmp_path):
    """register: 등록 (verb) and 레지스터 (noun) are two entries of one English term; a
    rendering either accepts is accepted, even where the other entry's senses hold."""
    tree = tmp_path / "LC_MESSAGES"
    write_planted(tree)
    glossary = tmp_path / "glossary.yaml"
    both = ("terms:\n  - en: checkpoint\n    ko: 체크포인트\n    pos: noun\n"
            "  - en: checkpoint\n    ko: 검사점\n    pos: verb\n    senses: [restore]\n")
    glossary.write_text(both, encoding="utf-8")
    assert run_jaxko_in_process("glossary", "validate", str(glossary)).returncode == 0
    data = report(tree, "--glossary", str(glossary))
    assert drift_of(data, "checkpoint") is None and data["violations"] == [], data

    # One entry only: the other rendering is drift from the glossary's, and a violation.
    glossary.write_text(both.split("  - en: checkpoint\n    ko: 검사점")[0], encoding="utf-8")
    data = report(tree, "--glossary", str(glossary))
    found = drift_of(data, "checkpoint")
    assert found is not None and found["kind"] == "glossary", data["drift"]
    assert {r["rendering"] for r in found["renderings"]} == {"체크포인트", "검사점"}
    assert [v["term"] for v in data["violations"]] == ["checkpoint"]


GENERAL = {**{k: v for k, v in VOCABULARY.items() if k not in ("profiler", "scheduler")},
           "report": "보고서", "time step": "시간 단계"}


def test_general_english_word_is_left_out_unless_asked_in_the_glossary_or_in_a_phrase(
        tmp_path, glossary):
    """report (common in general English) drifting alone is left out of the default
    report and listed with --all-words or when the glossary has it; checkpoint (rare in
    general English) is listed; time and step are listed as words of a drifting phrase."""
    from jaxko.workflow.terms import is_general

    assert is_general("report") and is_general("time") and is_general("step")
    assert not is_general("checkpoint") and not is_general("time step")
    tree = tmp_path / "LC_MESSAGES"
    # Four pages, two in each voice: each rendering of the phrase is on 16 messages.
    # On so few sentences grow-diag alone often leaves both words of the phrase
    # unaligned; a phrase reads the final-and links too (test_terms_evidence.py).
    override = {"report": "리포트", "checkpoint": "검사점", "time step": "타임 스텝"}
    for page, name in enumerate("abcd"):
        write_catalog(tree / f"{name}.po",
                      _pairs(page, vocabulary=GENERAL, override=override if page % 2 else None))
    data = report(tree, "--glossary", str(glossary))
    assert drift_of(data, "report") is None and data["left_out"] == ["report"], data
    assert drift_of(data, "checkpoint") is not None
    phrase = drift_of(data, "time step")
    assert phrase is not None and phrase["kind"] == "phrase", data["drift"]
    assert {r["rendering"] for r in phrase["renderings"]} == {"시간 단계", "타임 스텝"}
    # time and step drift as words of the drifting phrase (when the aligner links them
    # alone too): listed, never left out.
    assert all(not d["general"] for d in data["drift"])
    text = terms(tree, "--glossary", str(glossary)).stdout
    assert "drift: report" not in text
    assert text.rstrip().endswith("; 1 drifting general English words not listed "
                                  "(--all-words lists them)")

    data = report(tree, "--glossary", str(glossary), "--all-words")
    found = drift_of(data, "report")
    assert found is not None and found["general"] is True and data["left_out"] == []
    assert {r["rendering"] for r in found["renderings"]} == {"보고서", "리포트"}
    text = terms(tree, "--glossary", str(glossary), "--all-words").stdout
    assert "drift: report (general English word): " in text

    in_glossary = write_glossary(tmp_path / "with-report.yaml", {"device": "장치", "report": "보고서"})
    data = report(tree, "--glossary", str(in_glossary))
    found = drift_of(data, "report")
    assert found is not None and found["kind"] == "glossary" and data["left_out"] == []

    # A consistent tree leaves nothing out.
    clean = tmp_path / "clean" / "LC_MESSAGES"
    write_catalog(clean / "a.po", _pairs(0, vocabulary=GENERAL))
    write_catalog(clean / "b.po", _pairs(1, vocabulary=GENERAL))
    data = report(clean, "--glossary", str(glossary))
    assert data["drift"] == [] and data["left_out"] == [], data


def _aligned(catalog: str, line: int, english: str, korean: str, links=None):
    """One analysed message whose words are linked in order (word i to morpheme i, or
    the links given): the report's rules on a fixed alignment."""
    from jaxko.workflow.terms import Analysed, Morph, Pair

    morphs, start = [], 0
    for word in korean.split():
        morphs.append(Morph(word, word, True, start, start + len(word)))
        start += len(word) + 1
    words = english.split()
    return Analysed(Pair(catalog, line, english, korean, "myst"), words, [0] * len(words),
                    morphs, links or {(i, i) for i in range(len(words))}, korean)


def test_general_word_is_listed_as_a_word_of_a_drifting_phrase_and_left_out_alone():
    from jaxko.workflow.terms import build_report

    phrase = [_aligned("a.po", 1, "time step", "시간 단계"), _aligned("a.po", 2, "time step", "시간 단계"),
              _aligned("b.po", 1, "time step", "타임 스텝"), _aligned("b.po", 2, "time step", "타임 스텝")]
    found = build_report(phrase, None, catalogs=2)
    assert {r.term for r in found.drift} == {"time step", "time", "step"}
    assert not any(r.general for r in found.drift) and found.left_out == []

    alone = [_aligned("a.po", 1, "time", "시간"), _aligned("a.po", 2, "time", "시간"),
             _aligned("b.po", 1, "time", "타임"), _aligned("b.po", 2, "time", "타임")]
    found = build_report(alone, None, catalogs=2)
    assert found.drift == [] and [r.term for r in found.left_out] == ["time"]
    found = build_report(alone, None, catalogs=2, all_words=True)
    assert [(r.term, r.general) for r in found.drift] == [("time", True)]


def test_rendering_nested_in_the_glossary_rendering_is_no_drift():
    """상태 inside the glossary's 상태 비저장 is the aligner's partial link, not a second
    word, even where it is not the less used of the two."""
    from jaxko.glossary import Glossary, Term
    from jaxko.workflow.terms import build_report

    whole = [_aligned("a.po", n, "stateless", "상태 비저장", {(0, 0), (0, 1)}) for n in (1, 2)]
    part = [_aligned("b.po", n, "stateless", "상태") for n in (1, 2)]
    other = [_aligned("c.po", n, "stateless", "무상태") for n in (1, 2)]
    glossary = Glossary((Term("stateless", "상태 비저장"),))
    assert build_report(whole + part, glossary, catalogs=2).drift == []
    found = build_report(whole + part + other, glossary, catalogs=3).drift
    assert [(r.term, sorted(v.key for v in r.variants)) for r in found] == \
        [("stateless", ["무상태", "상태비저장"])]


def test_suggest_writes_entries_that_glossary_validate_accepts(tmp_path, glossary):
    tree = tmp_path / "LC_MESSAGES"
    write_catalog(tree / "a.po", _pairs(0))
    write_catalog(tree / "b.po", _pairs(1))
    proc = terms(tree, "--glossary", str(glossary), "--suggest-only")
    assert proc.returncode == 0, proc.stderr
    suggested = tmp_path / "suggested.yaml"
    suggested.write_text(proc.stdout, encoding="utf-8")
    entries = {t["en"]: t for t in yaml.safe_load(proc.stdout)["terms"]}
    assert entries["checkpoint"]["ko"] == "체크포인트"
    # The aligner samples: a stray minority rendering may be named after the counts.
    assert re.match(r"jaxko terms: 체크포인트 in 1[0-6] of 1[0-6] messages(?: \(also [^)]*\))?$",
                    entries["checkpoint"]["note"])
    assert "device" not in entries  # already in the glossary
    valid = run_jaxko_in_process("glossary", "validate", str(suggested))
    assert valid.returncode == 0, valid.stdout + valid.stderr
    # Pasted after the project's entries, the glossary stays valid.
    merged = tmp_path / "merged.yaml"
    merged.write_text(glossary.read_text(encoding="utf-8")
                      + proc.stdout.split("terms:\n", 1)[1], encoding="utf-8")
    assert run_jaxko_in_process("glossary", "validate", str(merged)).returncode == 0
    text = terms(tree, "--glossary", str(glossary), "--suggest").stdout
    assert "  - en: \"checkpoint\"" in text


def test_code_literals_and_urls_never_count(tmp_path, glossary):
    tree = tmp_path / "LC_MESSAGES"
    pairs = _pairs(0)
    # The same English word as code and as a link target, the Korean keeping the code.
    for en, ko in (("tracer", "트레이서"), ("buffer", "버퍼"), ("kernel", "커널")):
        pairs += [(f"Call `checkpoint` on the {en}.", f"{ko}에서 `checkpoint`를 호출합니다."),
                  (f"See [the {en}](https://example.org/checkpoint).",
                   f"[{ko}](https://example.org/checkpoint)를 보세요."),
                  (f"Use {{func}}`checkpoint` with the {en}.",
                   f"{ko}와 함께 {{func}}`checkpoint`를 씁니다.")]
    write_catalog(tree / "a.po", pairs)
    write_catalog(tree / "b.po", _pairs(1))
    data = report(tree, "--glossary", str(glossary))
    assert data["drift"] == [], data["drift"]


@pytest.mark.parametrize("syntax, text, words", [
    ("myst", "Call `checkpoint` on [the tracer](https://example.org/kernel_docs).",
     ["call", "on", "the", "tracer"]),
    ("myst", "Use {func}`jax.checkpoint` or {ref}`the kernel guide <kernel-guide>`.",
     ["use", "or", "the", "kernel", "guide"]),
    ("rst", "Set ``mode='fast'`` and see `the mesh <https://example.org/buffer>`_ at https://x.org/a.",
     ["set", "and", "see", "the", "mesh", "at"]),
    ("myst", "The $checkpoint_x$ math and <b>buffer</b> tags and jax.numpy.sum code.",
     ["the", "math", "and", "buffer", "tag", "and", "code"]),
])
def test_only_prose_words_are_aligned(syntax, text, words):
    """Code, literals, role and link targets, URLs, math, HTML tags and dotted names
    are blanked before alignment; link and role texts the reader sees stay."""
    from jaxko.workflow.terms import english_words

    assert english_words(text, syntax)[0] == words


def test_broken_catalog_is_one_line_and_exit_2(tmp_path, glossary):
    tree = tmp_path / "LC_MESSAGES"
    write_catalog(tree / "a.po", _pairs(0))
    (tree / "b.po").write_text(HEADER + 'msgid "x"\nmsgstr "y\n', encoding="utf-8")
    proc = terms_process(tree, "--glossary", str(glossary))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "b.po:" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_bad_glossary_and_bad_option_are_one_line_and_exit_2(tmp_path):
    tree = tmp_path / "LC_MESSAGES"
    write_catalog(tree / "a.po", _pairs(0))
    broken = tmp_path / "glossary.yaml"
    broken.write_text("terms:\n  - en: [unclosed\n", encoding="utf-8")
    proc = terms_process(tree, "--glossary", str(broken))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "glossary.yaml:" in proc.stderr
    proc = terms_process(tree, "--min-messages", "0")
    assert proc.returncode == 2 and "--help" in proc.stderr
    proc = run_jaxko("terms", str(tmp_path / "missing"), cwd=tmp_path)
    assert proc.returncode == 2 and "missing" in proc.stderr and "Traceback" not in proc.stderr


def test_help():
    proc = run_jaxko("terms", "--help")
    assert proc.returncode == 0
    for option in ("--format", "--suggest", "--glossary", "--min-messages", "--all-words"):
        assert option in proc.stdout


def test_check_false_entry_accepts_its_renderings():
    """An entry recorded with `check: false` (a general word: correspond) is accepted as
    the glossary's renderings: no drift, no violation; without the entry, drift."""
    from jaxko.glossary import Glossary, Term
    from jaxko.workflow.terms import build_report

    found = [_aligned("a.po", n, "correspond", "대응") for n in (1, 2)] + \
        [_aligned("b.po", n, "correspond", "해당") for n in (1, 2)]
    drift = build_report(found, None, catalogs=2, all_words=True).drift
    assert [(r.term, sorted(v.key for v in r.variants)) for r in drift] == \
        [("correspond", ["대응", "해당"])]
    recorded = Glossary((Term("correspond", "대응", variants=("해당",), check=False),))
    report = build_report(found, recorded, catalogs=2)
    assert report.drift == [] and report.violations == [] and report.left_out == []

    # A third wording on one message: a violation of an enforced entry only; a recorded
    # (`check: false`) entry says which renderings are right, not that one must be used.
    third = found + [_aligned("c.po", 1, "correspond", "상응")]
    assert build_report(third, recorded, catalogs=3).violations == []
    enforced = Glossary((Term("correspond", "대응", variants=("해당",)),))
    assert [(r.term, [v.key for v in r.variants])
            for r in build_report(third, enforced, catalogs=3).violations] == \
        [("correspond", ["상응"])]


def test_word_inside_a_longer_glossary_term_is_that_term():
    """condition in "race condition" (경쟁 상태) is the glossary's phrase, not a word
    rendered 상태 against 조건 elsewhere; where no glossary phrase holds it, it drifts."""
    from jaxko.glossary import Glossary, Term
    from jaxko.workflow.terms import build_report

    race = [_aligned("a.po", n, "race condition", "경쟁 상태") for n in (1, 2)]
    plain = [_aligned("b.po", n, "condition", "조건") for n in (1, 2)]
    glossary = Glossary((Term("race condition", "경쟁 상태"), Term("condition", "조건")))
    assert build_report(race + plain, glossary, catalogs=2).drift == []
    without = Glossary((Term("condition", "조건"),))
    found = build_report(race + plain, without, catalogs=2).drift
    assert [(r.term, sorted(v.key for v in r.variants)) for r in found] == \
        [("condition", ["상태", "조건"])]


def test_rendering_without_a_korean_letter_is_no_rendering():
    """The English kept in the msgstr (float for floating) or a name the aligner linked
    (MNIST for specify) is no second rendering; a Korean one still drifts."""
    from jaxko.workflow.terms import build_report

    korean = [_aligned("a.po", n, "specify", "지정") for n in (1, 2)]
    latin = [_aligned("b.po", n, "specify", "MNIST") for n in (1, 2)]
    assert build_report(korean + latin, None, catalogs=2, all_words=True).drift == []
    other = [_aligned("c.po", n, "specify", "명시") for n in (1, 2)]
    found = build_report(korean + latin + other, None, catalogs=3, all_words=True).drift
    assert [(r.term, sorted(v.key for v in r.variants)) for r in found] == \
        [("specify", ["명시", "지정"])]
