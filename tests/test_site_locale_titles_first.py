"""jaxko.site.i18n.TitlesFirst: Sphinx's i18n step parses a translated message once,
not twice, and the pages are byte for byte what plain Sphinx's two parses give (real
Sphinx, the project's conf.py, a small reST site with the cases Locale's first pass is
for: a section title that a reference names, and a glossary term)."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

from jaxko.site import build as site_build

PAGE = """Page title
==========

First section
-------------

A paragraph that links to `First section`_.

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
    "array": "배열",
    "A block of numbers.": "숫자의 묶음입니다.",
    "A paragraph with :term:`array`.": ":term:`array` 가 있는 문단입니다.",
    # Emphasis that never ends: docutils warns while parsing the msgstr.
    "Another paragraph.": "*끝나지 않는 강조 문단입니다.",
}
BROKEN = "Inline emphasis start-string without end-string"


def _build(tmp: Path, titles_first: bool) -> site_build.SiteResult:
    docs = tmp / "docs"
    docs.mkdir(parents=True)
    (docs / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   page\n",
                                    encoding="utf-8")
    (docs / "page.rst").write_text(PAGE, encoding="utf-8")
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    for msgid, msgstr in MESSAGES.items():
        catalog.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    folder = tmp / "locale" / "ko" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog.save(str(folder / "page.po"))
    return site_build.build(
        execute=False, srcdir=docs, outdir=tmp / "html", locale_dir=tmp / "locale",
        overrides={"jaxko_locale_titles_first": "1" if titles_first else "0",
                   "jaxko_search_morphology": "0"})


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[bool, site_build.SiteResult]:
    return {on: _build(tmp_path_factory.mktemp(f"titles-first-{on}"), on)
            for on in (True, False)}


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.name != ".buildinfo"}


def test_the_pages_are_plain_sphinxs(builds):
    ours, theirs = _files(builds[True].outdir), _files(builds[False].outdir)
    assert sorted(ours) == sorted(theirs)
    assert [name for name in ours if ours[name] != theirs[name]] == []
    page = ours["page.html"].decode("utf-8")
    # What Locale's first pass is for: the translated title keeps its reference...
    assert "첫째 절" in page and 'href="#first-section"' in page
    # ... and the term its entry; every other message is translated in the second pass.
    assert "숫자의 묶음입니다." in page and "가 있는 문단입니다." in page


def test_a_msgstr_that_does_not_parse_is_warned_about_once(builds):
    ours = [w for w in builds[True].warnings if BROKEN in w]
    theirs = [w for w in builds[False].warnings if BROKEN in w]
    assert len(theirs) == 2  # plain Sphinx parses it in both passes
    assert len(ours) == 1
    assert "page.rst" in ours[0]
