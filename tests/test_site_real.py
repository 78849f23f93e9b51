"""The real Korean site, as a reader meets it, in headless Chromium.

The pinned upstream (../shared/upstream) staged into a temporary folder and built with
the committed catalogs and glossary (`jaxko site build --no-execute`, the same
Sphinx, extensions and theme as `make html`), served on a local port. One build for
the module: searching (an excerpt for every result, its words highlighted), requests
(nothing from another host), the glossary page at phone and desktop widths, the
index's title. Screenshots go to _build/test-artifacts/.

``JAXKO_TEST_SITE=_build/html`` reuses a site built by `make html` instead (quick
runs while working on the site; the test suite builds its own).
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import pytest

from conftest import ROOT, SHARED_UPSTREAM
from test_site_browser import ARTIFACTS, browser, serve  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def real_site(tmp_path_factory) -> Path:
    reuse = os.environ.get("JAXKO_TEST_SITE")
    if reuse:
        return Path(reuse).resolve()
    if not (SHARED_UPSTREAM / "docs").is_dir():
        pytest.fail(f"pinned upstream copy missing at {SHARED_UPSTREAM}")
    from jaxko import upstream
    from jaxko.site import build as site_build

    tmp = tmp_path_factory.mktemp("real-site")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JAXKO_ROOT", str(tmp))
        staged = tmp / "upstream"
        upstream.sync(str(SHARED_UPSTREAM), root=ROOT, dest=staged)
        result = site_build.build(execute=False, root=ROOT, srcdir=staged / "docs",
                                  outdir=tmp / "html")
    return result.outdir


@pytest.fixture(scope="module")
def served(real_site):
    yield from serve(real_site)


@pytest.fixture
def page(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ko-KR")
    page = context.new_page()
    yield page
    context.close()


# ------------------------------------------------------------------------------ search

# Finished: searchtools.js replaces the title "Searching" and its pulsing dots (a span)
# by "Search Results"; then every result's excerpt arrives with its fetched page.
EXCERPTS_DONE = """() => {
  const title = document.querySelector('#search-results h2');
  const items = [...document.querySelectorAll('#search-results ul.search li')];
  return title && !title.querySelector('span') && items.length > 0
    && items.every(li => li.querySelector('p.context'));
}"""

RESULTS = """() => [...document.querySelectorAll('#search-results ul.search li')].map(li => {
  const context = li.querySelector('p.context');
  return {href: li.querySelector('a').getAttribute('href'),
          text: context ? context.innerText : '',
          marked: context ? [...context.querySelectorAll('.highlighted')].map(s => s.innerText) : []};
})"""


def search(page, served: str, query: str) -> list[dict]:
    page.goto(f"{served}/search.html?q={query}")
    page.wait_for_function(EXCERPTS_DONE, timeout=60_000)
    return page.evaluate(RESULTS)


def test_search_says_how_many_pages_it_found(served, page):
    """Sphinx's Korean catalog has an empty translation of this message (no count)."""
    results = search(page, served, "배열")
    status = page.locator("#search-results p.search-summary").inner_text()
    assert f"{len(results)}개" in status, status


@pytest.mark.parametrize("query, words", [
    ("배열", ["배열"]),
    ("함수", ["함수"]),
    ("배열을", ["배열"]),
    ("함수의", ["함수"]),
    ("자동 미분", ["자동", "미분"]),
    ("합성곱", ["합성곱"]),
    ("vmap", ["vmap"]),
])
def test_every_result_has_an_excerpt_with_the_query_highlighted(served, page, query, words):
    results = search(page, served, query)
    assert len(results) >= 3, results
    without = [r["href"] for r in results if not r["text"].strip(" .…")]
    assert not without, f"{len(without)} of {len(results)} results without an excerpt: {without[:5]}"
    unmarked = [(r["href"], r["text"][:80]) for r in results
                if not any(w in m.lower() for m in r["marked"] for w in words)]
    assert not unmarked, f"{len(unmarked)} of {len(results)} excerpts without the query: {unmarked[:3]}"
    chrome = [r["href"] for r in results if re.search(r"System Settings|Light\s+Dark", r["text"])]
    assert not chrome, chrome
    if query == "배열":
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "real-site-search.png"), full_page=False)
