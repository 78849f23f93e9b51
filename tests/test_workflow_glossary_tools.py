"""jaxko glossary rename / suggest / export on fixture catalogs and a fixture glossary."""

from __future__ import annotations

import csv
import io
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from jaxko import glossary
from jaxko.cli import main
from jaxko.workflow import glossary_tools

from conftest import FIXTURES, run_jaxko

GLOSSARY = FIXTURES / "workflow" / "glossary" / "ko.yaml"
RENAME = FIXTURES / "workflow" / "rename"


@pytest.fixture
def work(tmp_path) -> Path:
    shutil.copytree(RENAME, tmp_path / "po")
    shutil.copy(GLOSSARY, tmp_path / "ko.yaml")
    return tmp_path


def replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_rename_fixes_particles_and_touches_nothing_else(work, capsys):
    conv = work / "po" / "conv.po"
    array_before = (work / "po" / "array.po").read_bytes()
    expected = conv.read_text(encoding="utf-8")
    for old, new in [
        ('msgstr "컨볼루션을 계산합니다."', 'msgstr "합성곱을 계산합니다."'),
        ('msgstr "컨볼루션는 선형 연산입니다."', 'msgstr "합성곱은 선형 연산입니다."'),   # 는 -> 은
        ('msgstr "콘볼루션과 풀링."', 'msgstr "합성곱과 풀링."'),                      # forbidden one
        ('"``컨볼루션`` 함수는 컨볼루션을', '"``컨볼루션`` 함수는 합성곱을'),           # code kept
        ('역컨볼루션과 컨볼루션층을', '역컨볼루션과 합성곱층을'),                       # word start only
        ('배열의 컨볼루션으로, [문서](https://ko.wikipedia.org/wiki/컨볼루션)',
         '배열의 합성곱으로, [문서](https://ko.wikipedia.org/wiki/컨볼루션)'),           # URL kept
        ('msgstr "컨볼루션이 중요합니다."', 'msgstr "합성곱이 중요합니다."'),            # fuzzy too
        ('#~ msgstr "옛 컨볼루션 문단이 있었습니다."', '#~ msgstr "옛 합성곱 문단이 있었습니다."'),
    ]:
        expected = replace_once(expected, old, new)
    glossary_expected = replace_once(GLOSSARY.read_text(encoding="utf-8"),
                                     "    ko: 컨볼루션\n    forbidden: [콘볼루션]\n",
                                     "    ko: 합성곱\n    forbidden: [콘볼루션, 컨볼루션]\n")

    assert main(["glossary", "rename", "convolution", "--to", "합성곱", "--glossary",
                 str(work / "ko.yaml"), "--catalogs", str(work / "po")]) == 0
    out = capsys.readouterr().out
    assert "-컨볼루션는 선형 연산입니다.\n+합성곱은 선형 연산입니다.\n" in out
    assert "+    ko: 합성곱\n" in out
    assert "rewrote 8 messages in 1 catalogs: 컨볼루션, 콘볼루션 -> 합성곱" in out
    assert conv.read_text(encoding="utf-8") == expected                     # byte-compare the rest
    assert (work / "po" / "array.po").read_bytes() == array_before
    assert (work / "ko.yaml").read_text(encoding="utf-8") == glossary_expected
    assert glossary.validate(work / "ko.yaml") == []


def test_rename_consonant_to_vowel(work, capsys):
    assert main(["glossary", "rename", "array", "--to", "어레이", "--glossary",
                 str(work / "ko.yaml"), "--catalogs", str(work / "po"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    after = {c["before"]: c["after"] for c in report["changes"]}
    assert after["배열은 불변입니다. 배열을 jit에 넘기거나 배열과 리스트를 비교하세요."] == \
        "어레이는 불변입니다. 어레이를 jit에 넘기거나 어레이와 리스트를 비교하세요."
    assert after["배열로 바꾸면 배열이 반환됩니다."] == "어레이로 바꾸면 어레이가 반환됩니다."
    # the new rendering was forbidden: it leaves `forbidden`, the old one takes its place
    term = glossary_tools.find_term(glossary.load(work / "ko.yaml"), "array")
    assert (term.ko, term.forbidden) == ("어레이", ("배열",))


def test_rename_dry_run_writes_nothing(work, capsys):
    before = {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}
    assert main(["glossary", "rename", "convolution", "--to", "합성곱", "--dry-run",
                 "--glossary", str(work / "ko.yaml"), "--catalogs", str(work / "po")]) == 0
    assert "would rewrite 8 messages" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in work.rglob("*") if p.is_file()} == before


def test_rename_errors_are_one_line(work):
    for args, message in [
        (["nonexistent", "--to", "x"], "no term 'nonexistent' in the glossary"),
        (["convolutoin", "--to", "x"], "did you mean 'convolution'?"),
        (["JIT", "--to", "짓"], "kept in English"),
    ]:
        proc = run_jaxko("glossary", "rename", *args, "--glossary", str(work / "ko.yaml"),
                         "--catalogs", str(work / "po"))
        assert proc.returncode == 2 and message in proc.stderr, proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_rewrite_unit():
    assert glossary_tools.rewrite("컨볼루션와 배열", ["컨볼루션"], "합성곱") == "합성곱과 배열"
    assert glossary_tools.rewrite("컨볼루션으로서", ["컨볼루션"], "어레이") == "어레이로서"
    assert glossary_tools.rewrite("역컨볼루션", ["컨볼루션"], "합성곱", inside_words=True) == "역합성곱"
    # an old rendering inside the new one is not rewritten again
    assert glossary_tools.rewrite("합성곱과 곱", ["곱"], "합성곱") == "합성곱과 합성곱"


def test_suggest(capsys):
    assert main(["glossary", "suggest", str(FIXTURES / "workflow" / "tm"), "--glossary",
                 str(GLOSSARY), "--min-count", "2", "--format", "json"]) == 0
    found = {c["key"]: c for c in json.loads(capsys.readouterr().out)}
    # frequent across documents and not in the glossary; plurals grouped under the singular
    assert {"vectorize", "jax transformation", "pure function"} <= set(found)
    assert found["pure function"]["phrase"] == "pure functions"
    pure = found["pure function"]
    assert pure["documents"] >= 2 and pure["contexts"]
    # words the glossary covers (array, arrays) and stop words are not suggested
    assert not any(w in ("array", "arrays", "the", "and", "or") for p in found for w in p.split())


def test_suggest_renderings_from_translations(tmp_path, capsys):
    po = tmp_path / "a.po"
    verbs = ["쓰세요", "고르세요", "정하세요", "살피세요"]
    pairs = [("Use sharding number {i} with care.", "{i}번 샤딩을 조심해서 {verb}."),
             ("Handle the buffer {i} with care.", "{i}번 버퍼를 조심해서 다루세요."),
             ("Read the file {i} with care.", "{i}번 파일을 조심해서 읽으세요.")]
    entries = "".join(
        f'#: a.md:{i}{k}\nmsgid "{en.format(i=i)}"\nmsgstr "{ko.format(i=i, verb=verbs[i])}"\n\n'
        for i in range(4) for k, (en, ko) in enumerate(pairs))
    po.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' + entries,
                  encoding="utf-8")
    shutil.copy(po, tmp_path / "b.po")
    assert main(["glossary", "suggest", str(tmp_path), "--glossary", str(GLOSSARY),
                 "--format", "json"]) == 0
    found = {c["phrase"]: c for c in json.loads(capsys.readouterr().out)}
    assert found["sharding"]["renderings"][0] == {"text": "샤딩", "messages": 8}


def test_export_formats(capsys):
    terms = glossary.load(GLOSSARY)
    assert main(["glossary", "export", "--format", "csv", "--glossary", str(GLOSSARY)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["source"] for r in rows] == [t.en for t in terms.terms]
    assert rows[0]["target"] == "컨볼루션" and rows[0]["forbidden"] == "콘볼루션"
    assert rows[2]["target"] == "JIT" and rows[2]["keep"] == "true"
    assert rows[3]["developer_comments"] == '쉼표, 따옴표"와 <꺾쇠> & 앰퍼샌드가 든 메모'

    assert main(["glossary", "export", "--format", "tbx", "--glossary", str(GLOSSARY)]) == 0
    root = ET.fromstring(capsys.readouterr().out.split("\n", 2)[2])
    entries = root.findall("./text/body/termEntry")
    assert len(entries) == len(terms.terms)
    gradient = entries[3]
    assert gradient.find("note").text.startswith("쉼표, 따옴표")
    ko = [(tig.find("term").text, tig.find("termNote").text)
          for tig in gradient.findall("langSet")[1].findall("tig")]
    assert ko == [("기울기", "preferredTerm-admn-sts"), ("그레이디언트", "admittedTerm-admn-sts")]

    assert main(["glossary", "export", "--format", "json", "--glossary", str(GLOSSARY)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["terms"][2] == {"en": "JIT", "keep": True, "reading": "짓", "forms": ["jitted"]}


def test_export_to_file(tmp_path, capsys):
    out = tmp_path / "glossary.csv"
    assert main(["glossary", "export", "--glossary", str(GLOSSARY), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("source,target,")


# ------------------------------------------------------------------------------ sort

UNSORTED = """\
# A header comment stays on top.
terms:
  # --- Group B ---
  - en: zeta
    ko: 제타

  # a comment about beta moves with it
  - en: beta
    ko: 베타
    note: two
      lines

  - en: Alpha
    keep: true

  # --- Group A ---
  - en: yak
    ko: 야크

  - en: xylophone
    ko: 실로폰
"""

SORTED = """\
# A header comment stays on top.
terms:
  # --- Group B ---
  - en: Alpha
    keep: true

  # a comment about beta moves with it
  - en: beta
    ko: 베타
    note: two
      lines

  - en: zeta
    ko: 제타

  # --- Group A ---
  - en: xylophone
    ko: 실로폰

  - en: yak
    ko: 야크
"""


def test_sort_orders_each_group_and_moves_whole_entries(tmp_path, capsys):
    path = tmp_path / "ko.yaml"
    path.write_text(UNSORTED, encoding="utf-8")
    assert main(["glossary", "sort", "--check", "--glossary", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == UNSORTED  # --check writes nothing
    assert main(["glossary", "sort", "--glossary", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == SORTED  # groups kept, not merged
    assert main(["glossary", "sort", "--check", "--glossary", str(path)]) == 0
    assert main(["glossary", "sort", "--glossary", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("already sorted")


def test_sort_refuses_a_broken_glossary_and_a_lossy_result(tmp_path, capsys, monkeypatch):
    from jaxko.workflow import glossary_order

    path = tmp_path / "ko.yaml"
    path.write_text(UNSORTED.replace("    ko: 야크\n", "    kor: 야크\n"), encoding="utf-8")
    before = path.read_bytes()
    assert main(["glossary", "sort", "--glossary", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"jaxko: {path}:")
    assert path.read_bytes() == before
    # If the block sorter ever dropped a line, the re-parse notices: nothing written.
    path.write_text(UNSORTED, encoding="utf-8")
    real = glossary_order.sorted_text
    monkeypatch.setattr(glossary_order, "sorted_text",
                        lambda text: real(text).replace("    ko: 베타\n", ""))
    assert main(["glossary", "sort", "--glossary", str(path)]) == 2
    assert "would change the terms" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == UNSORTED


def test_project_glossary_is_sorted():
    assert run_jaxko("glossary", "sort", "--check").returncode == 0


def test_export_json_keeps_check_false(tmp_path, capsys):
    """A recorded-only entry (`check: false`) says so in the JSON export; a checked one
    has no `check` key."""
    path = tmp_path / "ko.yaml"
    path.write_text("terms:\n  - en: correspond\n    ko: 대응\n    variants: [해당]\n"
                    "    check: false\n  - en: array\n    ko: 배열\n", encoding="utf-8")
    assert main(["glossary", "export", "--format", "json", "--glossary", str(path)]) == 0
    terms = json.loads(capsys.readouterr().out)["terms"]
    assert terms[0] == {"en": "correspond", "ko": "대응", "variants": ["해당"], "keep": False,
                        "check": False}
    assert "check" not in terms[1]
