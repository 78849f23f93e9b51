"""False positives and negatives the translators reported on the real catalogs.

Each case plants the reported message and, where one exists, its clean look-alike
(the same construction where the rule must still fire).
"""

from __future__ import annotations

import polib
import pytest

from jaxko.check.runner import Options, run

GLOSSARY = """\
terms:
  - en: compiler
    ko: 컴파일러
  - en: JIT compilation
    ko: JIT 컴파일
  - en: static
    ko: 정적
    pos: adjective
  - en: Hessian
    ko: 헤세 행렬
  - en: dictionary
    ko: 딕셔너리
  - en: float
    keep: true
    reading: 플로트
  - en: layer
    ko: 레이어
  - en: in-place
    ko: 제자리
    forms: [in place]
    pos: adjective
  - en: host
    ko: 호스트
  - en: function
    ko: 함수
  - en: thread
    ko: 스레드
  - en: state
    ko: 상태
  - en: trace
    ko: 트레이스
    pos: verb
  - en: key
    ko: 키
  - en: multilayer perceptron
    ko: 다층 퍼셉트론
  - en: automatic differentiation
    ko: 자동 미분
  - en: TPU
    keep: true
  - en: Google Cloud
    keep: true
  - en: VM
    keep: true
"""


def findings(tmp_path, rule, msgid, msgstr, location="page.md:1"):
    (tmp_path / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    catalogs = tmp_path / "catalogs"
    catalogs.mkdir(exist_ok=True)
    (tmp_path / "sources").mkdir(exist_ok=True)
    catalog = polib.POFile(wrapwidth=79)
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    name, _, line = location.rpartition(":")
    catalog.append(polib.POEntry(msgid=msgid, msgstr=msgstr, occurrences=[(name, line)]))
    path = catalogs / "page.po"
    catalog.save(str(path))
    result = run(Options(paths=[catalogs], glossary=tmp_path / "glossary.yaml", select=[rule],
                         source_dir=tmp_path / "sources", jobs=1))
    return [f.message for f in result.findings if f.rule == rule]


# 1. Overlapping renderings: JIT 컴파일 (JIT compilation) must not hide 컴파일러.

def test_overlapping_rendering_counts(tmp_path):
    assert findings(tmp_path, "glossary.missing", "We want the JIT compiler to be free.",
                    "JIT 컴파일러가 자유로워야 합니다.") == []


def test_missing_rendering_still_reported(tmp_path):
    assert findings(tmp_path, "glossary.missing", "We want the JIT compiler to be free.",
                    "JIT 컴파일이 자유로워야 합니다.") != []


# 2. URLs of badge images and code as link text are not prose.

@pytest.mark.parametrize("msgid, msgstr", [
    ("[![Open in Kaggle](https://kaggle.com/static/images/open-in-kaggle.svg)]"
     "(https://kaggle.com/kernels/welcome)",
     "[![Kaggle에서 열기](https://kaggle.com/static/images/open-in-kaggle.svg)]"
     "(https://kaggle.com/kernels/welcome)"),
    ("See [`jax.hessian`](https://jax.readthedocs.io/hessian) for details.",
     "자세한 내용은 [`jax.hessian`](https://jax.readthedocs.io/hessian)을 보세요."),
    ("A [`dict`](https://docs.python.org/dict) works.",
     "[`dict`](https://docs.python.org/dict)도 됩니다."),
])
def test_link_markup_is_masked(tmp_path, msgid, msgstr):
    assert findings(tmp_path, "glossary.missing", msgid, msgstr) == []


def test_prose_link_text_is_still_checked(tmp_path):
    assert findings(tmp_path, "glossary.missing",
                    "See [the Hessian](https://jax.readthedocs.io/hessian).",
                    "[헤시안](https://jax.readthedocs.io/hessian)을 보세요.") != []


# 3. Inflections and idioms that are not the term.

@pytest.mark.parametrize("rule, msgid, msgstr", [
    ("glossary.keep", "Use floating point numbers.", "부동 소수점 수를 쓰세요."),
    ("glossary.missing", "The layering of APIs matters.", "API의 계층 구조가 중요합니다."),
    ("glossary.missing", "Pass a tracer in place of an integer.", "정수 대신 트레이서를 넘깁니다."),
    ("glossary.missing", "There are a host of options.", "선택지가 많습니다."),
    ("glossary.missing", "The key part is the trace.", "핵심은 트레이스입니다."),
    ("glossary.missing", "Output shardings as a function of input shardings.",
     "입력 샤딩에 따라 정해지는 출력 샤딩."),
    ("glossary.missing", "State is threaded in and out.", "상태를 넘겨주고 돌려받습니다."),
    ("glossary.missing", "Threading the mesh throughout.", "메시를 계속 전달합니다."),
    ("glossary.missing", "It reaches the state of the art.", "최고 수준에 이릅니다."),
])
def test_not_the_term(tmp_path, rule, msgid, msgstr):
    assert findings(tmp_path, rule, msgid, msgstr) == []


@pytest.mark.parametrize("rule, msgid, msgstr", [
    ("glossary.keep", "Convert it to floats.", "플로트로 변환합니다."),
    ("glossary.missing", "Add a layer.", "층을 추가합니다."),
    ("glossary.missing", "Update the array in place.", "배열을 그 자리에서 갱신합니다."),
    ("glossary.missing", "Copy it to the host.", "그것을 주 장치로 복사합니다."),
    ("glossary.missing", "Call the function.", "그것을 호출합니다."),
    ("glossary.missing", "Each thread runs.", "각 실이 실행됩니다."),
    ("glossary.missing", "The function is traced once.", "함수는 한 번 추적됩니다."),
    ("glossary.missing", "The state of the loop.", "루프의 형편."),
])
def test_still_the_term(tmp_path, rule, msgid, msgstr):
    assert findings(tmp_path, rule, msgid, msgstr) != []


# 4. Particles after a link ending in a gloss, and after code ending in a bracket.

@pytest.mark.parametrize("msgstr", [
    "[다층 퍼셉트론(multilayer perceptron, MLP)](https://example.com/mlp)을 학습합니다.",
    "자동 미분(automatic differentiation, autodiff)을 씁니다.",
    "`@auto_axes(out_sharding=...)`로 감쌉니다.",
    "`f(x)`를 계산합니다.",
])
def test_particle_silent_or_right(tmp_path, msgstr):
    assert findings(tmp_path, "particle.agreement", "We train it.", msgstr) == []


@pytest.mark.parametrize("msgstr", [
    "[다층 퍼셉트론(multilayer perceptron, MLP)](https://example.com/mlp)를 학습합니다.",
    "자동 미분(automatic differentiation, autodiff)를 씁니다.",
    "`auto_axes`으로 감쌉니다.",
])
def test_particle_still_checked(tmp_path, msgstr):
    assert findings(tmp_path, "particle.agreement", "We train it.", msgstr) != []


# 5. Underscore emphasis right before Hangul shows literally.

@pytest.mark.parametrize("msgid, msgstr, fix", [
    ("The _key_ is new.", "_키_는 새롭습니다.", "*키*는"),
    ("__JAX__ is fast.", "__JAX__는 빠릅니다.", "**JAX**는"),
    ("Keep the _state_ around.", "_상태_를 유지합니다.", "*상태*를"),
])
def test_underscore_emphasis_before_hangul(tmp_path, msgid, msgstr, fix):
    found = findings(tmp_path, "syntax.parse", msgid, msgstr)
    assert len(found) == 1 and fix in found[0]


@pytest.mark.parametrize("msgid, msgstr", [
    ("The _key_ is new.", "*키*는 새롭습니다."),
    ("The _key_ is new.", "_키는_ 새롭습니다."),
    ("The _key_ is new.", "_키_ 는 새롭습니다."),
    ("Use `a_b_c`.", "`_b_는`을 씁니다."),
    ("Set the snake_case_name.", "snake_case_name은 변수입니다."),
])
def test_underscore_emphasis_that_works(tmp_path, msgid, msgstr):
    assert findings(tmp_path, "syntax.parse", msgid, msgstr) == []


# 6. Names only, copied unchanged, are not untranslated sentences.

def test_names_only_entry_is_not_untranslated(tmp_path):
    text = "**TPU (Google Cloud TPU VM)**"
    assert findings(tmp_path, "leftover.untranslated", text, text) == []


@pytest.mark.parametrize("text", [
    "**TPU (runs on a cloud VM)**",
    "Getting Started With TPU VM",
])
def test_copied_prose_is_untranslated(tmp_path, text):
    assert findings(tmp_path, "leftover.untranslated", text, text) != []


def test_windows_reads_as_the_glossary_says():
    from jaxko import korean
    from jaxko.glossary import load

    readings = load().readings
    assert korean.reading_of("Windows", readings) == "윈도"
    assert korean.reading_of("windows", readings) == korean.reading_of("WINDOWS") == "윈도"
