"""MyST-NB's hidden-cell toggles on the Korean site: real Sphinx and MyST-NB builds of
a one-notebook fixture written here, once as published and once with the site's
string overrides off (``jaxko_theme_messages=0``: what MyST-NB writes on its own)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import FIXTURES
from jaxko.site import build as site_build
from jaxko.site.ext import theme

SITE = FIXTURES / "site"


def _cell(source: str, tags: list[str]) -> dict:
    return {"cell_type": "code", "execution_count": 1, "id": f"c{abs(hash(source)) % 10**8}",
            "metadata": {"tags": tags}, "source": source,
            "outputs": [{"name": "stdout", "output_type": "stream", "text": "6\n"}]}


def _docs(tmp: Path) -> Path:
    docs = tmp / "docs"
    docs.mkdir()
    (docs / "index.rst").write_text("Cells\n=====\n\n.. toctree::\n\n   cells\n",
                                    encoding="utf-8")
    notebook = {"cells": [
        {"cell_type": "markdown", "id": "m0", "metadata": {},
         "source": "# Hidden cells\n\nThree cells, each hidden a different way."},
        _cell("print(sum([1, 2, 3]))  # hide-input", ["hide-input"]),
        _cell("print(sum([1, 2, 3]))  # hide-output", ["hide-output"]),
        _cell("print(sum([1, 2, 3]))  # hide-cell", ["hide-cell"]),
        _cell("print(sum([1, 2, 3]))  # shown", []),
    ], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                   "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}
    (docs / "cells.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    return docs


def _build(tmp: Path, **overrides: str) -> str:
    notebooks = tmp / "notebooks-ko"
    notebooks.mkdir()
    result = site_build.build(
        execute=False, srcdir=_docs(tmp), outdir=tmp / "html", locale_dir=SITE / "locale",
        glossary=SITE / "glossary.yaml",
        overrides={"jaxko_notebooks_dir": str(notebooks), **overrides})
    assert result.unexpected == []  # the speedups-off warning of a newer toolchain is accepted
    return (result.outdir / "cells.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, str]:
    return {"site": _build(tmp_path_factory.mktemp("toggles-site")),
            "baseline": _build(tmp_path_factory.mktemp("toggles-baseline"),
                               jaxko_theme_messages="0")}


def summaries(html: str) -> list[tuple[str, str]]:
    """(shown when collapsed, shown when expanded) for each toggle, in page order."""
    return re.findall(r'<p class="collapsed admonition-title">(.*?)</p>\s*'
                      r'<p class="expanded admonition-title">(.*?)</p>', html, re.S)


def test_hidden_cells_toggle_in_korean(pages):
    assert summaries(pages["site"]) == [("코드 보기", "코드 숨기기"),
                                        ("출력 보기", "출력 숨기기"),
                                        ("코드 셀 보기", "코드 셀 숨기기")]
    assert "Show code cell" not in pages["site"] and "Hide code cell" not in pages["site"]
    # the cells' code is still on the page, inside its toggle
    for tag in ("hide-input", "hide-output", "hide-cell", "shown"):
        assert f"# {tag}" in pages["site"], tag


def test_myst_nb_alone_writes_english_toggles(pages):
    """What the override fixes (if this fails, MyST-NB's English changed: update the table)."""
    assert summaries(pages["baseline"]) == [
        ("Show code cell source", "Hide code cell source"),
        ("Show code cell output", "Hide code cell output"),
        ("Show code cell content", "Hide code cell content")]


def test_every_myst_nb_default_prompt_has_a_korean_override():
    """Each {type} MyST-NB fills in, for both prompts, is in the Korean table."""
    from myst_nb.core.config import NbParserConfig

    korean = theme.MESSAGES["ko"]
    for field in ("code_prompt_show", "code_prompt_hide"):
        default = NbParserConfig.__dataclass_fields__[field].default
        for kind in ("source", "output", "outputs", "content"):
            text = default.replace("{type}", kind)
            assert text in korean and not re.search("[A-Za-z]", korean[text]), text


def test_a_projects_own_prompt_is_left_alone(tmp_path):
    html = _build(tmp_path, nb_code_prompt_show="펼치기 ({type})")
    assert "펼치기 (source)" in html and "펼치기 (content)" in html
    assert "코드 숨기기" in html   # the hide prompt is still MyST-NB's default
