"""A translated sphinx-design card title keeps its icon (jaxko.site.ext.card_icons), real
Sphinx on the fixture site plus a page of cards like the home page's; built with
``jaxko_card_icons=0`` the translated title loses its icon (the bug on the home page).
Both builds run in conftest's warm Sphinx process and skip Kiwi's nouns in the search
index (search is not what they test)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES
from jaxko.site import build as site_build

SITE = FIXTURES / "site"

CARDS_RST = """\
Cards
=====

.. grid:: 2

    .. grid-item-card:: :material-regular:`laptop_chromebook;2em` Installation

        Install it.

    .. grid-item-card:: :material-regular:`rocket_launch;2em` Getting started

        Start here.
"""

CARDS_PO = r'''msgid ""
msgstr ""
"Language: ko\n"
"Content-Type: text/plain; charset=UTF-8\n"

#: cards.rst:1
msgid "Cards"
msgstr "카드"

#: cards.rst:6
msgid "Installation"
msgstr "설치"

#: cards.rst:8
msgid "Install it."
msgstr "설치하세요."
'''


def _build(tmp: Path, sphinx, **overrides) -> Path:
    docs = tmp / "docs"
    shutil.copytree(SITE / "docs", docs)
    (docs / "cards.rst").write_text(CARDS_RST, encoding="utf-8")
    index = docs / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").rstrip("\n") + "\n   cards\n",
                     encoding="utf-8")
    shutil.copytree(SITE / "locale", tmp / "locale")
    (tmp / "locale" / "ko" / "LC_MESSAGES" / "cards.po").write_text(CARDS_PO, encoding="utf-8")
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp / "html",
                              locale_dir=tmp / "locale", glossary=SITE / "glossary.yaml",
                              overrides={"jaxko_search_morphology": "0", **overrides},
                              sphinx=sphinx)
    return result.outdir


def titles(site: Path) -> list[str]:
    html = (site / "cards.html").read_text(encoding="utf-8")
    return re.findall(r'<div class="sd-card-title[^"]*">(.*?)</div>', html, re.S)


@pytest.fixture(scope="module")
def sites(tmp_path_factory, warm_sphinx):
    return (_build(tmp_path_factory.mktemp("cards"), warm_sphinx),
            _build(tmp_path_factory.mktemp("cards-off"), warm_sphinx, jaxko_card_icons="0"))


def test_translated_card_title_keeps_its_icon(sites):
    site, _ = sites
    installation, started = titles(site)
    assert "설치" in installation and "<svg" in installation
    assert "Installation" not in installation
    # an untranslated title keeps its icon as it always did
    assert "Getting started" in started and "<svg" in started
    assert installation.index("<svg") < installation.index("설치")  # in front, as upstream


def test_without_the_fix_the_translated_title_loses_it(sites):
    _, off = sites
    installation, started = titles(off)
    assert "설치" in installation and "<svg" not in installation
    assert "<svg" in started
