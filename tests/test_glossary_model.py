"""The glossary model: loading with line numbers, validation, and `jaxko glossary validate`."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from jaxko import glossary
from jaxko.cli import main
from jaxko.errors import UserError

FIXTURE = Path(__file__).parent / "fixtures" / "check" / "glossary.yaml"


def problems_of(text: str) -> list[tuple[int, str]]:
    _, problems = glossary.parse(textwrap.dedent(text), "g.yaml")
    return [(p.line, p.message) for p in problems]


def test_fixture_loads_as_frozen_terms():
    loaded = glossary.load(FIXTURE)
    assert len(loaded) == 14
    convolution = loaded.terms[0]
    assert (convolution.en, convolution.ko, convolution.forbidden) == (
        "convolution", "합성곱", ("컨볼루션", "콘볼루션"))
    assert convolution.line == 3
    assert loaded.readings["JAX"] == "잭스" and "jax" not in loaded.readings  # case-sensitive
    assert loaded.readings["pytree"] == "파이트리"
    with pytest.raises(AttributeError):
        convolution.ko = "x"  # frozen


def test_valid_glossary_has_no_problems():
    assert problems_of("""\
        terms:
          - en: array
            ko: 배열
          - en: JAX
            keep: true
            reading: 잭스
    """) == []


@pytest.mark.parametrize("text, line, fragment", [
    ("terms:\n  - en: array\n    ko: [배열\n", 4, "YAML syntax error"),
    ("- en: array\n", 1, "mapping with a `terms:` list"),
    ("terms: {}\n", 1, "must be a list"),
    ("words: []\nterms: []\n", 1, "unknown top-level key `words`"),
    ("", 1, "empty glossary"),
    ("terms:\n  - en: array\n    kor: 배열\n", 3, "did you mean `ko`"),
    ("terms:\n  - ko: 배열\n", 2, "without `en:`"),
    ("terms:\n  - en: array\n", 2, "has no `ko:`"),
    ("terms:\n  - en: array\n    ko: ''\n", 3, "`ko` is empty"),
    ("terms:\n  - en: array\n    ko: 배열\n    variants: []\n", 4, "`variants` is empty"),
    ("terms:\n  - en: array\n    ko: 배열\n    keep: yes please\n", 4, "`keep` must be true or false"),
    ("terms:\n  - en: array\n    ko: 배열\n    variants: 어레이\n", 4, "`variants` must be a list"),
    ("terms:\n  - en: array\n    ko: 배열\n    variants: [1]\n", 4, "must be text"),
    ("terms:\n  - en: array\n    ko: 배열\n    ko: 어레이\n", 4, "duplicate key `ko`"),
    ("terms:\n  - en: array\n    ko: 배열\n  - en: Array\n    ko: 어레이\n", 4, "duplicate term `Array`"),
    ("terms:\n  - en: conv\n    ko: 합성곱\n    forbidden: [합성곱]\n", 4, "both forbidden and accepted"),
    ("terms:\n  - en: a\n    ko: 가\n  - en: b\n    ko: 나\n    forbidden: [가]\n", 4,
     "forbidden for `b` but accepted for `a`"),
    ("terms:\n  - en: JAX\n    keep: true\n    reading: jacks\n", 4, "`reading` must be Hangul"),
    ("terms:\n  - en: JAX\n    keep: true\n    ko: 잭스\n", 4, "kept in English"),
    ("terms:\n  - en: array\n    ko: 배열\n    pos: thing\n", 4, "`pos` must be one of"),
    ("terms:\n  - en: array\n    ko: 배열\n    variants: [어레이, 어레이]\n", 4, "listed twice"),
    ("terms:\n  - en: array\n    ko: 배열\n    forms: [배열들]\n", 4, "is not English"),
    ("terms:\n  - en: array\n    ko: 배열\n    variants: [배열]\n", 4, "repeated in `variants`"),
    ("terms:\n  - array\n", 2, "must be a mapping"),
    ("terms:\n  - en: array\n    ko: 배열\n    check: maybe\n", 4, "`check` must be true or false"),
    ("terms:\n  - en: array\n    ko: 배열\n    check: false\n    forbidden: [어레이]\n", 5,
     "has `check: false` (not checked) but `forbidden`"),
])
def test_each_problem_is_reported_at_its_line(text, line, fragment):
    found = problems_of(text)
    assert any(got_line == line and fragment in message for got_line, message in found), found


def test_same_english_with_different_pos_is_allowed():
    assert problems_of("""\
        terms:
          - en: map
            ko: 매핑
            pos: noun
          - en: map
            ko: 매핑하다
            pos: verb
    """) == []


def test_case_sensitive_terms_are_distinct():
    assert problems_of("""\
        terms:
          - en: Array
            ko: 배열 타입
            case_sensitive: true
          - en: array
            ko: 배열
    """) == []


def test_load_raises_one_line_user_error(tmp_path):
    bad = tmp_path / "ko.yaml"
    bad.write_text("terms:\n  - en: array\n    kor: 배열\n  - en: x\n", encoding="utf-8")
    with pytest.raises(UserError) as info:
        glossary.load(bad)
    assert info.value.format().startswith(f"{bad}:3: unknown key `kor`")
    assert "1 more" in info.value.format()
    with pytest.raises(UserError, match="not found"):
        glossary.load(tmp_path / "missing.yaml")
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes("terms:\n  - en: caf\xe9\n".encode("latin-1"))
    with pytest.raises(UserError, match="UTF-8") as info:
        glossary.load(latin1)
    assert info.value.line == 2


def test_validate_command_ok(capsys):
    assert main(["glossary", "validate", str(FIXTURE)]) == 0
    assert "14 terms, valid" in capsys.readouterr().out


def test_validate_command_reports_every_problem(tmp_path, capsys):
    bad = tmp_path / "ko.yaml"
    bad.write_text("terms:\n  - en: array\n    kor: 배열\n  - en: x\n", encoding="utf-8")
    assert main(["glossary", "validate", str(bad)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{bad}:3: unknown key `kor`; did you mean `ko`?"
    assert out[1].startswith(f"{bad}:4: term `x` has no `ko:`")
    assert main(["glossary", "validate", "--format", "json", str(bad)]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is False and data["problems"][0]["line"] == 3


def test_validate_command_missing_file(tmp_path, capsys):
    assert main(["glossary", "validate", str(tmp_path / "nope.yaml")]) == 2
    assert "glossary not found" in capsys.readouterr().err


def test_glossary_without_action_shows_help(capsys):
    assert main(["glossary"]) == 2
    assert "validate" in capsys.readouterr().out


def test_project_glossary_is_valid():
    path = glossary.default_path()
    assert path.is_file(), path  # the project ships its glossary: a missing one is a fault
    assert glossary.validate(path) == []
    assert len(glossary.load(path)) >= 150


def test_check_false_records_the_renderings_but_leaves_the_term_out_of_the_checked_glossary():
    loaded, problems = glossary.parse(textwrap.dedent("""\
        terms:
          - en: correspond
            ko: 대응
            variants: [해당]
            check: false
            note: 둘 다 씁니다.
          - en: array
            ko: 배열
    """), "g.yaml")
    assert problems == []
    correspond, array = loaded.terms
    assert (correspond.check, correspond.renderings, array.check) == (False, ("대응", "해당"), True)
    assert [t.en for t in loaded.checked.terms] == ["array"]
    everything = glossary.from_terms([array])
    assert everything.checked is everything  # nothing to leave out: the same glossary
