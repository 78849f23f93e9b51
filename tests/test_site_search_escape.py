"""Translated text reaches the search page as text, never as HTML (issue #41).

A tiny site (one reST page, one MyST page, written here) whose catalogs translate a
section title to ``<img src=x onerror=alert(1)> 제목`` (plain text to docutils), a MyST
heading to ``&lt;img …&gt;`` (entities MyST turns into the same characters), built with real Sphinx and opened in Chromium on the crafted
``search.html?q=…`` links. Sphinx keeps those texts raw in searchindex.js and its
Sphinx 8.2's searchtools.js shows result titles with innerHTML;
``jaxko-search-escape.js`` (in language_data.js) escapes them as the index loads. Sphinx
9's searchtools.js escapes them itself and the site adds nothing
(``jaxko.site.ext.search.index_titles_are_text``). With the escape removed (the fault
planted: the site's on 8.2, searchtools.js's own on 9) the same link runs the payload;
with one escape too many the reader sees ``&lt;``: the tests see both.
"""

from __future__ import annotations

import html
import urllib.parse
from pathlib import Path

import polib
import pytest

from jaxko.site import build as site_build
from jaxko.site.ext.search import (JS_ESCAPE_TITLES, JS_STEMMER, SEARCHTOOLS_ESCAPES,
                               index_titles_are_text)
from test_site_browser import CHROMIUM, browser, serve  # noqa: F401  (browser: the fixture)

pytestmark = pytest.mark.browser

REST_TITLE = "<img src=x onerror=alert(1)> 제목"
MYST_TITLE = "&lt;img src=x onerror=alert(2)&gt; 마크다운 제목"
MYST_SHOWN = "<img src=x onerror=alert(2)> 마크다운 제목"
QUERIES = [REST_TITLE, MYST_SHOWN]
IDS = ["rest-title", "myst-entity"]


def _catalog(path: Path, pairs: list[tuple[str, str]]) -> None:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    for msgid, msgstr in pairs:
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    path.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(path))


@pytest.fixture(scope="module")
def site(tmp_path_factory, warm_sphinx):
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} missing: run `make system-deps` (.ci/system-deps.sh)")
    tmp = tmp_path_factory.mktemp("search-escape")
    docs = tmp / "docs"
    docs.mkdir()
    (docs / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   rest\n   markdown\n",
                                    encoding="utf-8")
    (docs / "rest.rst").write_text(
        "Rest page\n=========\n\nAn introduction to the page.\n\n"
        "Section heading\n---------------\n\nA paragraph about titles.\n", encoding="utf-8")
    (docs / "markdown.md").write_text(
        "# Markdown page\n\nAn introduction.\n\n## Markdown heading\n\nA paragraph.\n",
        encoding="utf-8")
    locale = tmp / "locale" / "ko" / "LC_MESSAGES"
    _catalog(locale / "rest.po", [
        ("Rest page", "reST 페이지"), ("An introduction to the page.", "페이지 소개입니다."),
        ("Section heading", REST_TITLE), ("A paragraph about titles.", "제목에 관한 문단입니다.")])
    _catalog(locale / "markdown.po", [
        ("Markdown page", "마크다운 페이지"), ("An introduction.", "소개입니다."),
        ("Markdown heading", MYST_TITLE), ("A paragraph.", "문단입니다.")])
    # Built as published (Korean search with Kiwi), in conftest's warm Sphinx process.
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp / "html",
                              locale_dir=tmp / "locale", sphinx=warm_sphinx)
    yield from serve(result.outdir)


def _rewrite(old: str, new: str):
    """A route handler serving the file with ``old`` (which it must hold) made ``new``."""

    def handler(route) -> None:
        response = route.fetch()
        body = response.text()
        assert old in body
        route.fulfill(response=response, body=body.replace(old, new))

    return handler


def _without_the_escape():
    """(file, handler): the page's search with nothing escaping the titles. On Sphinx
    8.2 language_data.js without the site's escape (searchtools.js alone, as on an
    English site); on Sphinx 9, where searchtools.js escapes them itself and the site
    adds nothing, searchtools.js with its escape removed."""
    if index_titles_are_text():
        return "searchtools.js", _rewrite(SEARCHTOOLS_ESCAPES, "innerHTML = title")
    return "language_data.js", _rewrite(JS_ESCAPE_TITLES, "")


def _escaped_twice():
    """(file, handler): one more title escape in language_data.js than the page needs."""
    return "language_data.js", _rewrite(JS_STEMMER, JS_STEMMER + "\n" + JS_ESCAPE_TITLES)


def _title_query(query: str, extra_escapes: int = 0) -> str:
    """The query that finds a section title by all its characters: the title as the
    index holds it once the page loaded it (escaped by the site on Sphinx 8.2; as
    written on Sphinx 9), with ``extra_escapes`` more escapes planted."""
    for _ in range(extra_escapes + (0 if index_titles_are_text() else 1)):
        query = html.escape(query, quote=False)
    return query


def _search(browser, site: str, query: str, *, fault=None):
    """Open search.html?q=query; the titles of the results and the dialogs that opened
    (and the images the page asked for: an <img> made from the title fetches x).
    ``fault``: (static file, route handler) serving that file changed."""
    context = browser.new_context(locale="ko-KR")
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    if fault is not None:
        name, handler = fault
        page.route(f"**/_static/{name}", handler)
    page.goto(f"{site}/search.html?q={urllib.parse.quote(query)}")
    page.wait_for_function(
        "() => { const s = document.querySelector('#search-results p.search-summary');"
        " return s && s.textContent.trim().length > 0; }", timeout=20_000)
    page.wait_for_timeout(300)  # an onerror handler runs after the image fails
    titles = page.locator("#search-results ul.search li > a").all_inner_texts()
    images = page.locator("#search-results img").count()
    context.close()
    return titles, dialogs, images


def test_raw_titles_reach_the_index(site):
    """The payloads are in searchindex.js as Sphinx writes them: the page must escape."""
    import json
    import urllib.request

    text = urllib.request.urlopen(f"{site}/searchindex.js").read().decode("utf-8")
    index = json.loads(text.removeprefix("Search.setIndex(").removesuffix(")"))
    assert {REST_TITLE, MYST_SHOWN} <= set(index["alltitles"])


@pytest.mark.parametrize("query", QUERIES, ids=IDS)
def test_crafted_search_link_runs_nothing(browser, site, query):
    _titles, dialogs, images = _search(browser, site, query)
    assert dialogs == [] and images == 0


@pytest.mark.parametrize("query", QUERIES, ids=IDS)
def test_title_shows_as_the_text_the_translator_wrote(browser, site, query):
    """Searching for the title shows it, as text, after its page's title."""
    titles, dialogs, images = _search(browser, site, _title_query(query))
    assert dialogs == [] and images == 0
    assert any(title.endswith(f" > {query}") for title in titles), titles


@pytest.mark.parametrize("query", QUERIES, ids=IDS)
def test_without_the_escape_the_link_runs_the_payload(browser, site, query):
    """The planted fault: nothing escapes the titles, the same link opens a dialog."""
    _titles, dialogs, images = _search(browser, site, query, fault=_without_the_escape())
    assert dialogs or images


def test_a_title_escaped_twice_shows_entities(browser, site):
    """The planted fault of the other side: one escape too many (the site's on top of
    Sphinx 9's own) shows the reader ``&lt;`` instead of the title's text."""
    query = REST_TITLE
    titles, dialogs, images = _search(browser, site, _title_query(query, extra_escapes=1),
                                      fault=_escaped_twice())
    assert dialogs == [] and images == 0
    assert not any(title.endswith(f" > {query}") for title in titles), titles
    assert any("&lt;img" in title for title in titles), titles


def test_normal_search_still_finds_the_pages(browser, site):
    titles, dialogs, _images = _search(browser, site, "제목")
    assert dialogs == []
    assert any("reST 페이지" in title for title in titles), titles
    titles, _dialogs, _images = _search(browser, site, "문단")
    assert any("마크다운 페이지" in title for title in titles), titles


def test_results_have_excerpts_with_the_query_highlighted(browser, site):
    """jaxko-search.js writes each result's excerpt with the query's words marked, on
    Sphinx 8.2 (language_data.js's stopwords an array) and 9 (a Set) alike."""
    context = browser.new_context(locale="ko-KR")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(error.stack or str(error)))
    page.goto(f"{site}/search.html?q={urllib.parse.quote('문단을 the')}")
    page.wait_for_function(
        "() => { const items = [...document.querySelectorAll('#search-results ul.search li')];"
        " return items.length > 0 && items.every(li => li.querySelector('p.context')); }",
        timeout=20_000)
    marked = page.locator("#search-results p.context .highlighted").all_inner_texts()
    context.close()
    # the search's own scripts threw nothing (an older theme's scripts may, elsewhere)
    search_scripts = ("jaxko-search", "searchtools", "language_data")
    assert not [e for e in errors if any(name in e for name in search_scripts)], errors
    assert "문단" in marked, marked
    assert "the" not in [m.lower() for m in marked], marked  # a stopword is not marked
