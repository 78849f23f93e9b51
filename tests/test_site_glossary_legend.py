"""The glossary page explains the source abbreviations its 참고 column cites (TFK, PYK,
JKR1, ...), from the table in the glossary's README (jaxko.site.ext.pages.source_legend)."""

from __future__ import annotations

from conftest import ROOT
from jaxko.site.ext.pages import legend_nodes, source_legend


def test_the_legend_comes_from_the_readme_table():
    rows = dict(source_legend(ROOT / "glossary" / "README.md"))
    assert rows["TFK"].startswith("TensorFlow 한국어 문서")
    assert "JKR1" in " ".join(rows)
    # every abbreviation the glossary's notes cite most is explained
    cited = " ".join(rows)
    for abbreviation in ("TFK", "PTK", "PYK", "LJK", "JKR1", "JKR2", "D2L", "CS231", "PSL", "GMLG"):
        assert abbreviation in cited, abbreviation


def test_no_table_no_legend(tmp_path):
    assert source_legend(tmp_path / "README.md") == []
    readme = tmp_path / "README.md"
    readme.write_text("# Glossary\n\n| term | note |\n|---|---|\n| a | b |\n", encoding="utf-8")
    assert source_legend(readme) == [] and legend_nodes([]) == []
    readme.write_text("x\n\n| 약어 | 자료 |\n|---|---|\n| AB | 어떤 자료 |\n| CD | 다른 자료 |\n\n끝\n",
                      encoding="utf-8")
    assert source_legend(readme) == [("AB", "어떤 자료"), ("CD", "다른 자료")]
