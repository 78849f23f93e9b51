"""The built fixture site in a real headless browser (Debian's Chromium via Playwright).

The site is conftest's ``fixture_site``: one build for the test session, which
test_site_offline reads too.

A translated page shows Korean text and the status banner; searching for 배열, a
two-syllable noun that only ever appears with a particle attached (배열은, 배열을 ...),
returns that page; the browser's stemmer agrees with the one that built the index.
Screenshots go to _build/test-artifacts/.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

from conftest import ROOT
from jaxko.site.ext.search import stem

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "_build" / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]
STEM_WORDS = ["배열", "배열을", "값", "손실이", "배열들을", "함수입니다", "파일로", "추가", "추가를", "속도가",
              "길이", "나이", "JAX를", "jit을", "컴파일을", "자동미분에서는", "arrays", "compiled",
              "running", "generalization", "operational", "sharding", "vectorized", "hopefulness"]


@pytest.fixture(scope="module")
def served_site(fixture_site):
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} missing: run `make system-deps` (.ci/system-deps.sh)")
    yield from serve(fixture_site)


def serve(outdir: Path):
    """Serve a built site on a free local port for the module's tests."""
    handler = functools.partial(QuietHandler, directory=str(outdir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                      args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ko-KR")
    page = context.new_page()
    yield page
    context.close()


def test_translated_page_shows_korean_and_the_banner(served_site, page):
    page.goto(f"{served_site}/guide.html")
    banner = page.locator(".jaxko-status")
    banner.wait_for(state="visible")
    assert "번역 83%" in banner.inner_text()
    assert "영어 원문으로 표시됩니다" in banner.inner_text()
    assert page.locator("h1").first.inner_text().startswith("배열에 대한 안내")
    code = page.locator("div.highlight pre").first.inner_text()
    assert "# 항목이 세 개인 배열을 만듭니다" in code
    assert page.evaluate("document.documentElement.lang") == "ko"
    # the stylesheet applies: Korean words are not broken
    assert page.evaluate("getComputedStyle(document.querySelector('article p')).wordBreak") == "keep-all"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site-guide.png"), full_page=True)


def test_search_for_a_noun_that_only_appears_with_particles(served_site, page):
    page.goto(f"{served_site}/search.html?q=배열")
    results = page.locator("#search-results ul.search li")
    results.first.wait_for(state="visible", timeout=20_000)
    links = page.locator("#search-results ul.search li a").evaluate_all(
        "els => els.map(e => e.getAttribute('href'))")
    found = {href.split("?")[0].split("#")[0] for href in links}
    assert {"guide.html", "mystnb.html", "notebook.html", "plain.html"} <= found
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "site-search.png"), full_page=True)


def test_query_with_a_particle_finds_the_same_pages(served_site, page):
    page.goto(f"{served_site}/search.html?q=배열을")
    page.locator("#search-results ul.search li").first.wait_for(state="visible", timeout=20_000)
    links = page.locator("#search-results ul.search li a").evaluate_all(
        "els => els.map(e => e.getAttribute('href').split('?')[0])")
    assert "guide.html" in links


def test_browser_stemmer_matches_the_index_stemmer(served_site, page):
    page.goto(f"{served_site}/search.html")
    keys = page.evaluate("words => words.map(w => new Stemmer().stemWord(w))", STEM_WORDS)
    assert keys == [stem(word) for word in STEM_WORDS]


def test_short_korean_word_is_required_next_to_a_longer_one(served_site, page):
    """searchtools.js makes terms of <= 2 characters optional; Korean nouns must count."""
    page.goto(f"{served_site}/search.html?q=nested 배열")
    page.locator("#search-results ul.search li").first.wait_for(state="visible", timeout=20_000)
    links = page.locator("#search-results ul.search li a").evaluate_all(
        "els => els.map(e => e.getAttribute('href').split('?')[0].split('#')[0])")
    assert set(links) == {"notebook.html"}
