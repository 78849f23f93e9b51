"""What Sphinx's i18n step costs, cut without changing a page (jaxko.site.ext.i18n):
``TitlesFirst`` parses a translated message once, not twice;
``drop_fragment_documents`` keeps each msgstr's own parsed document (and the build
environment its settings hold) out of the pickled doctree. The pages are byte for byte
plain Sphinx's (real Sphinx, the project's conf.py, a small site with the cases
Locale's first pass is for: a section title that a reference and a target name, a
title that holds a target, and a glossary term; and a MyST page)."""

from __future__ import annotations

import pickle
from pathlib import Path

import polib
import pytest

from docutils import nodes

from jaxko.extract import doctrees_dir
from jaxko.site import build as site_build
from jaxko.site.ext import speedups

PAGE = """Page title
==========

First section
-------------

A paragraph that links to `First section`_.

.. _alias: `First section`_

A paragraph that links through alias_.

_`Second` section
-----------------

A paragraph under a title that holds a target.

.. glossary::

   array
      A block of numbers.

A paragraph with :term:`array`.

Another paragraph.
"""

MESSAGES = {
    "Page title": "페이지 제목",
    "First section": "첫째 절",
    "A paragraph that links to `First section`_.": "`첫째 절`_ 로 가는 문단입니다.",
    "A paragraph that links through alias_.": "alias_ 를 거쳐 가는 문단입니다.",
    "_`Second` section": "_`둘째` 절",
    "A paragraph under a title that holds a target.": "대상을 품은 제목 아래의 문단입니다.",
    "array": "배열",
    "A block of numbers.": "숫자의 묶음입니다.",
    "A paragraph with :term:`array`.": ":term:`array` 가 있는 문단입니다.",
    # Emphasis that never ends: docutils warns while parsing the msgstr.
    "Another paragraph.": "*끝나지 않는 강조 문단입니다.",
}
BROKEN = "Inline emphasis start-string without end-string"

# A MyST page: MyST's renderer gives every node it makes the document it renders into.
MARKDOWN = """# Markdown page

A paragraph with *emphasis* and `code`.

- An item with a [link](https://example.org/).
"""
MARKDOWN_MESSAGES = {
    "Markdown page": "마크다운 페이지",
    "A paragraph with *emphasis* and `code`.": "*강조*와 `code`가 있는 문단입니다.",
    "An item with a [link](https://example.org/).": "[링크](https://example.org/)가 있는 항목입니다.",
}


def _build(tmp: Path, ours: bool) -> site_build.SiteResult:
    docs = tmp / "docs"
    docs.mkdir(parents=True)
    (docs / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   page\n   markdown\n",
                                    encoding="utf-8")
    (docs / "page.rst").write_text(PAGE, encoding="utf-8")
    (docs / "markdown.md").write_text(MARKDOWN, encoding="utf-8")
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    for msgid, msgstr in MESSAGES.items():
        catalog.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    folder = tmp / "locale" / "ko" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog.save(str(folder / "page.po"))
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    for msgid, msgstr in MARKDOWN_MESSAGES.items():
        catalog.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    catalog.save(str(folder / "markdown.po"))
    return site_build.build(
        execute=False, srcdir=docs, outdir=tmp / "html", locale_dir=tmp / "locale",
        overrides={"jaxko_locale_titles_first": "1" if ours else "0",
                   "jaxko_drop_fragment_documents": "1" if ours else "0",
                   "jaxko_search_morphology": "0"})


# TitlesFirst and the dropped fragment documents are speedups: off on untested versions.
needs_speedups = pytest.mark.skipif(bool(speedups.untested()),
                                    reason="jaxko.site.ext.speedups is off on this toolchain")


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[bool, site_build.SiteResult]:
    return {ours: _build(tmp_path_factory.mktemp(f"i18n-ours-{ours}"), ours)
            for ours in (True, False)}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.name != ".buildinfo"}


def test_the_pages_are_plain_sphinxs(builds):
    ours, theirs = _files(builds[True].outdir), _files(builds[False].outdir)
    assert sorted(ours) == sorted(theirs)
    assert [name for name in ours if ours[name] != theirs[name]] == []
    page = ours["page.html"].decode("utf-8")
    # What Locale's first pass is for: the translated title keeps its reference, and
    # the target that names it (alias) still leads there...
    assert "첫째 절" in page and page.count('href="#first-section"') >= 2
    assert "둘째" in page
    # ... and the term its entry; every other message is translated in the second pass.
    assert "숫자의 묶음입니다." in page and "가 있는 문단입니다." in page


@needs_speedups
def test_a_msgstr_that_does_not_parse_is_warned_about_once(builds):
    ours = [w for w in builds[True].warnings if BROKEN in w]
    theirs = [w for w in builds[False].warnings if BROKEN in w]
    assert len(theirs) == 2  # plain Sphinx parses it in both passes
    assert len(ours) == 1
    assert "page.rst" in ours[0]


def _documents_in(result: site_build.SiteResult, page: str) -> int:
    """How many documents the pickled doctree of ``page`` holds besides its own."""
    doctree = pickle.loads((doctrees_dir(result.outdir) / f"{page}.doctree").read_bytes())
    found = {id(node.__dict__["_document"]) for node in doctree.findall(nodes.Node)
             if node.__dict__.get("_document") not in (None, doctree)}
    return len(found)


@needs_speedups
@pytest.mark.parametrize("page", ["markdown", "page"])
def test_the_pickled_doctree_holds_only_the_page(builds, page):
    if page == "markdown":  # plain Sphinx: one per translated paragraph
        assert _documents_in(builds[False], page) >= 2
    assert _documents_in(builds[True], page) == 0


@needs_speedups
def test_a_translated_markdown_page_pickles_smaller(builds):
    ours = (doctrees_dir(builds[True].outdir) / "markdown.doctree").stat().st_size
    theirs = (doctrees_dir(builds[False].outdir) / "markdown.doctree").stat().st_size
    assert ours < theirs / 2
    assert "강조" in (builds[True].outdir / "markdown.html").read_text(encoding="utf-8")
