"""Hangul facts, table-driven, with the examples of the glossary issue."""

from __future__ import annotations

import pytest

from jaxko import korean
from jaxko.korean import (CONSONANT, RIEUL, VOWEL, ending_of, fix_particle, has_final_consonant,
                          is_rieul_final, number_reading, particle_for, reading_of,
                          split_particle)

GLOSSARY_READINGS = {"JAX": "잭스", "jax": "잭스", "pytree": "파이트리", "Pallas": "팔라스"}


@pytest.mark.parametrize("text, final", [
    ("합성곱", True), ("배열", True), ("함수", False), ("파일", True), ("값", True),
    ("JAX", False),          # 잭스
    ("jit", True),           # 짓
    ("XLA", False),          # 엑스엘에이
    ("API", False),          # 에이피아이
    ("1", True),             # 일
    ("2", False),            # 이
    ("10", True),            # 십
    ("x64", False),          # 엑스육십사
    ("float32", False),      # 플로트삼십이
    ("`jax.numpy`", False),  # 잭스넘파이, markup ignored
    ('"배열"', True),        # quotes ignored
    ("f(x)", False),         # the x is read
    ("file", True),          # 파일
    ("model", True),         # 모델: English spelling, ㄹ
    ("string", True),        # 스트링
    ("list", False),         # 리스트
    # only the last word of an identifier is heard, read as the tables read it alone
    ("`debug_check`", False),     # ...체크, not the spelling's 첵
    ("`out_shape`", False),       # ...셰이프
    ("`x.type`", True),           # ...타입
    ("`KernelType`", True),       # camel case: ...타입
    ("`SemaphoreType`", True),
    ("`BlockShape`", False),      # ...셰이프
    ("`jax.make_jaxpr`", True),   # ...잭스피알 (ㄹ)
])
def test_has_final_consonant(text, final):
    assert has_final_consonant(text, GLOSSARY_READINGS) is final


@pytest.mark.parametrize("text", ["", "   ", "...", "lax.fori_loop", "jax.grab", "ㄱ"])
def test_unknown_endings_are_none(text):
    assert has_final_consonant(text) is None


@pytest.mark.parametrize("text, rieul", [
    ("파일", True), ("배열", True), ("합성곱", False), ("함수", False), ("1", True),
    ("7", True), ("8", True), ("XLA", False), ("MLIR", True), ("kernel", True),
])
def test_is_rieul_final(text, rieul):
    assert is_rieul_final(text) is rieul


@pytest.mark.parametrize("word, given, expected", [
    ("합성곱", "를", "을"), ("합성곱", "을", "을"), ("합성곱", "로", "으로"),
    ("JAX", "을", "를"), ("jit", "를", "을"), ("파일", "으로", "로"), ("배열", "로", "로"),
    ("함수", "은", "는"), ("함수", "이", "가"), ("배열", "가", "이"), ("함수", "과", "와"),
    ("합성곱", "와", "과"), ("함수", "이나", "나"), ("배열", "나", "이나"),
    ("합성곱", "라", "이라"), ("함수", "이라", "라"), ("파일", "과", "과"),
    ("XLA", "으로", "로"), ("Pallas", "을", "를"), ("pytree", "은", "는"),
    ("check", "은", "는"), ("checkify.check", "을", "를"),  # 체크, the loanword
])
def test_particle_for(word, given, expected):
    assert particle_for(word, given, GLOSSARY_READINGS) == expected


def test_particle_for_unknown_ending_is_none():
    assert particle_for("lax.fori_loop", "을") is None


def test_particle_for_rejects_non_particles():
    with pytest.raises(ValueError, match="unknown particle"):
        particle_for("배열", "에서")


@pytest.mark.parametrize("word, particle, fixed", [
    ("합성곱", "를", "합성곱을"), ("JAX", "을", "JAX를"), ("jit", "를", "jit을"),
    ("파일", "으로", "파일로"), ("함수", "으로", "함수로"), ("lax.fori_loop", "을", "lax.fori_loop을"),
])
def test_fix_particle(word, particle, fixed):
    assert fix_particle(word, particle, GLOSSARY_READINGS) == fixed


@pytest.mark.parametrize("latin, reading", [
    ("JAX", "잭스"), ("jit", "짓"), ("XLA", "엑스엘에이"), ("API", "에이피아이"), ("1", "일"),
    ("64", "육십사"), ("100", "백"), ("1000", "천"), ("10000", "만"), ("12345", "만이천삼백사십오"),
    ("100000000", "일억"), ("0", "영"), ("1.5", "일점오"), ("x64", "엑스육십사"),
    ("bf16", "비에프십육"), ("jax.numpy", "잭스넘파이"), ("np", "엔피"), ("x", "엑스"),
])
def test_reading_of(latin, reading):
    assert reading_of(latin) == reading


def test_glossary_readings_take_precedence():
    assert reading_of("JAX", {"JAX": "자악스"}) == "자악스"
    assert reading_of("pallas") == "팔라스"
    assert reading_of("frobnicate") is None


@pytest.mark.parametrize("n", [0, 1, 9, 10, 11, 19, 20, 99, 100, 101, 110, 999, 1000, 1001,
                               9999, 10000, 10001, 20000, 110000, 100000000, 123456789])
def test_number_reading_round_trip(n):
    # Read back the Korean number and compare: an independent decoder.
    units = {"십": 10, "백": 100, "천": 1000}
    big = {"만": 10**4, "억": 10**8, "조": 10**12}
    digits = {v: int(k) for k, v in korean.DIGIT_READINGS.items()}
    total = section = current = 0
    for ch in number_reading(str(n)):
        if ch in digits:
            current = digits[ch]
        elif ch in units:
            section += (current or 1) * units[ch]
            current = 0
        else:
            total += ((section + current) or 1) * big[ch]
            section = current = 0
    assert total + section + current == n


@pytest.mark.parametrize("suffix, form, rest", [
    ("을", "을", ""), ("를", "를", ""), ("으로서", "으로", "서"), ("로부터", "로", "부터"),
    ("와의", "와", "의"), ("이라는", "이라", "는"), ("다", "다", ""),
])
def test_split_particle(suffix, form, rest):
    particle, got_form, got_rest = split_particle(suffix)
    assert (got_form, got_rest) == (form, rest)
    assert form in (particle.after_consonant, particle.after_vowel)


@pytest.mark.parametrize("suffix", ["에서", "의", "형", "들", "하는", "이름"])
def test_split_particle_ignores_other_endings(suffix):
    assert split_particle(suffix) is None


def test_copula_keeps_i_after_vowel():
    copula = split_particle("이다")[0]
    assert copula.accepts("이다", VOWEL) and copula.accepts("다", VOWEL)
    assert not copula.accepts("다", CONSONANT)
    object_marker = split_particle("을")[0]
    assert not object_marker.accepts("을", VOWEL)
    instrumental = split_particle("로")[0]
    assert instrumental.accepts("로", RIEUL) and not instrumental.accepts("으로", RIEUL)


def test_pairs_are_listed():
    assert ("을", "를") in korean.PARTICLE_PAIRS and ("으로", "로") in korean.PARTICLE_PAIRS
    assert ending_of("파일") == RIEUL


@pytest.mark.parametrize("syllable, nieun", [
    ("진", True), ("된", True), ("한", True), ("간", True),
    ("지", False), ("일", False), ("곱", False), ("a", False), ("1", False),
])
def test_ends_in_nieun(syllable, nieun):
    assert korean.ends_in_nieun(syllable) is nieun


@pytest.mark.parametrize("run, particles", [
    ("을", True), ("으로서", True), ("에는", True), ("에서도", True), ("까지의", True),
    ("의", True), ("에게서", True), ("만", True),
    ("간에", False), ("도구", False), ("만들어", False), ("하는", False), ("기간", False),
])
def test_is_particle_run(run, particles):
    assert korean.is_particle_run(run) is particles
