"""The real Korean site, as a reader meets it, in headless Chromium.

The pinned upstream (../shared/upstream) staged into a temporary folder and built with
the committed catalogs and glossary (conftest's ``real_site_build``: the same Sphinx,
extensions and theme as `make html`, one build for the test session, which
test_site_korean_outputs reads too), served on a local port. The tests: searching (an excerpt for every result, its words highlighted), requests
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

from conftest import ROOT
from test_site_browser import ARTIFACTS, browser, serve  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def real_site(request) -> Path:
    reuse = os.environ.get("JAXKO_TEST_SITE")
    if reuse:
        return Path(reuse).resolve()
    return request.getfixturevalue("real_site_build")["result"].outdir


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


@pytest.fixture(scope="module")
def searched(served, browser):  # noqa: F811
    """``searched(query)``: the search page opened on ``query`` once for the module (each
    search fetches every result's page for its excerpt; several tests read one query),
    in a fresh page, once its excerpts are in and the network is idle: ``results``
    (RESULTS), ``summary`` (the line that counts them), ``requests`` (every URL the page
    asked for). The search for 배열 leaves a screenshot in ARTIFACTS."""
    done: dict[str, dict] = {}

    def searched(query: str) -> dict:
        if query not in done:
            context = browser.new_context(viewport={"width": 1280, "height": 900},
                                          locale="ko-KR")
            try:
                page = context.new_page()
                requests: list[str] = []
                page.on("request", lambda request: requests.append(request.url))
                results = search(page, served, query)
                page.wait_for_load_state("networkidle")
                summary = page.locator("#search-results p.search-summary").inner_text()
                if query == "배열":
                    ARTIFACTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(ARTIFACTS / "real-site-search.png"), full_page=False)
            finally:
                context.close()
            done[query] = {"results": results, "summary": summary, "requests": requests}
        return done[query]

    return searched


def test_search_says_how_many_pages_it_found(searched):
    """Sphinx's Korean catalog has an empty translation of this message (no count)."""
    found = searched("배열")
    status = found["summary"]
    assert f"{len(found['results'])}개" in status, status


@pytest.mark.parametrize("query, words", [
    ("배열", ["배열"]),
    ("함수", ["함수"]),
    ("배열을", ["배열"]),
    ("함수의", ["함수"]),
    ("자동 미분", ["자동", "미분"]),
    ("합성곱", ["합성곱"]),
    ("vmap", ["vmap"]),
])
def test_every_result_has_an_excerpt_with_the_query_highlighted(searched, query, words):
    results = searched(query)["results"]
    assert len(results) >= 3, results
    without = [r["href"] for r in results if not r["text"].strip(" .…")]
    assert not without, f"{len(without)} of {len(results)} results without an excerpt: {without[:5]}"
    unmarked = [(r["href"], r["text"][:80]) for r in results
                if not any(w in m.lower() for m in r["marked"] for w in words)]
    assert not unmarked, f"{len(unmarked)} of {len(results)} excerpts without the query: {unmarked[:3]}"
    chrome = [r["href"] for r in results if re.search(r"System Settings|Light\s+Dark", r["text"])]
    assert not chrome, chrome


# ---------------------------------------------------------------- other hosts: none

# Pages a reader opens first, and the pages with what used to come from elsewhere:
# mermaid (the-training-cookbook; search and genindex imported it too), notebook
# badges and a remote logo (Neural_Network_and_Data_Loading), a YouTube player
# (beginner_guide), remote diagrams (pallas/tpu/distributed).
PAGES = ["index.html", "search.html?q=배열", "genindex.html",
         "notebooks/Neural_Network_and_Data_Loading.html", "translation/glossary.html",
         "translation/progress.html", "the-training-cookbook.html", "beginner_guide.html",
         "pallas/tpu/distributed.html", "key-concepts.html"]


@pytest.mark.parametrize("name", PAGES)
def test_page_requests_nothing_from_another_host(served, page, searched, name):
    if name.startswith("search.html?q="):  # the search page, its excerpts fetched
        requests = searched(name.removeprefix("search.html?q="))["requests"]
    else:
        requests = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(f"{served}/{name}")
        page.wait_for_load_state("networkidle")
    local = urlparse(served).netloc
    foreign = sorted({url for url in requests
                      if urlparse(url).scheme not in ("data", "blob", "about")
                      and urlparse(url).netloc != local})
    assert requests and not foreign, foreign


def test_mermaid_diagram_renders_from_the_local_copy(served, page):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(urlparse(request.url).path))
    page.goto(f"{served}/the-training-cookbook.html")
    page.locator("pre.mermaid svg, div.mermaid svg, .mermaid svg").first.wait_for(
        state="attached", timeout=30_000)
    assert any(path.endswith("_static/mermaid/mermaid.esm.min.mjs") for path in requests)


def test_badges_and_remote_images_become_links(served, page):
    page.goto(f"{served}/notebooks/Neural_Network_and_Data_Loading.html")
    badges = page.locator("article a.jaxko-offsite, article a:has(.jaxko-offsite)")
    texts = badges.evaluate_all("els => els.map(e => e.innerText.trim())")
    assert "Colab에서 열기" in texts and any("Kaggle" in t for t in texts), texts
    logo = page.locator("article img[alt='JAX']")  # the remote logo, from _static instead
    assert logo.count() == 1 and "/_static/jax_logo_250px.png" in logo.evaluate("e => e.src")
    assert logo.evaluate("e => e.naturalWidth") > 0
    page.goto(f"{served}/beginner_guide.html")
    video = page.locator("article a.jaxko-offsite", has_text="동영상 보기")
    assert video.get_attribute("href") == "https://www.youtube.com/watch?v=WdTeDXsOSj4"


class _Loads(HTMLParser):
    """What a page loads (not links a reader may follow): sources of images, scripts,
    frames, media and stylesheets, and module imports in inline scripts."""

    SOURCES = {"img": ("src", "srcset"), "script": ("src",), "iframe": ("src",),
               "frame": ("src",), "embed": ("src",), "object": ("data",),
               "video": ("src", "poster"), "audio": ("src",), "source": ("src", "srcset"),
               "track": ("src",), "input": ("src",)}

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self._script = False

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name in self.SOURCES.get(tag, ()):
            if values.get(name):
                self.urls.append(values[name].split(",")[0].split()[0])
        if tag == "link" and values.get("href") and set((values.get("rel") or "").split()) & {
                "stylesheet", "preload", "modulepreload", "icon", "prefetch", "manifest"}:
            self.urls.append(values["href"])
        self._script = tag == "script"

    def handle_data(self, data):
        if self._script:
            self.urls += re.findall(r"""\bimport\b[^"'()]*?["']([^"']+)["']""", data)
            self.urls += re.findall(r"""\bimport\(\s*["']([^"']+)["']""", data)

    def handle_endtag(self, tag):
        self._script = False


def foreign_loads(html: str) -> list[str]:
    parser = _Loads()
    parser.feed(html)
    return [url for url in parser.urls if re.match(r"\s*(https?:)?//", url, re.I)]


def test_foreign_load_detector_on_a_known_page():
    """The scanner below finds each kind of load, and no plain link."""
    html = ('<a href="https://example.org/">link</a>'
            '<img src="https://a.example/x.png"><iframe src="//b.example/v"></iframe>'
            '<script type="module">import m from "https://c.example/m.mjs";</script>'
            '<link rel="stylesheet" href="https://d.example/s.css"><img src="_static/x.png">')
    assert foreign_loads(html) == ["https://a.example/x.png", "//b.example/v",
                                   "https://c.example/m.mjs", "https://d.example/s.css"]


def test_no_page_of_the_site_loads_anything_from_another_host(real_site):
    pages = sorted(real_site.rglob("*.html"))
    assert len(pages) > 140
    found = {str(p.relative_to(real_site)): loads for p in pages
             if (loads := foreign_loads(p.read_text(encoding="utf-8")))}
    assert not found, {k: found[k] for k in list(found)[:5]}
    styles = [p for p in (real_site / "_static").rglob("*.css")
              if re.search(r"""(url\(\s*["']?|@import\s+["'])(https?:)?//""",
                           p.read_text(encoding="utf-8", errors="replace"))]
    assert not styles, styles


# ------------------------------------------------------------------------- glossary

# Every run of letters or digits in the glossary table: on more than one line, it was
# broken inside (a line break at a space, a hyphen or between words is fine).
BROKEN_WORDS = """() => {
  const broken = [];
  const cells = document.querySelectorAll('table.jaxko-glossary th, table.jaxko-glossary td');
  for (const cell of cells) {
    if (!cell.offsetParent) continue;  // not shown at this width
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement.offsetParent) continue;
      for (const match of node.nodeValue.matchAll(/[\\p{L}\\p{N}_]+/gu)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""

# The texts that label columns: the header cells, or on a phone each cell's label.
LABELS_ON_ONE_LINE = """() => {
  const labels = [...document.querySelectorAll(
    'table.jaxko-glossary th, table.jaxko-glossary .jaxko-label')].filter(e => e.offsetParent);
  const lines = (e) => {  // the line tops of the element's text
    const tops = new Set();
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.nodeValue.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
    }
    return tops.size;
  };
  return {shown: labels.length, stacked: labels.filter(e => lines(e) > 1).map(e => e.innerText)};
}"""


@pytest.mark.parametrize("width", [375, 1280])
def test_glossary_is_readable_at_phone_and_desktop_widths(served, browser, width):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="ko-KR")
    page = context.new_page()
    try:
        page.goto(f"{served}/translation/glossary.html")
        page.locator("table.jaxko-glossary").wait_for(state="visible")
        rows = page.locator("table.jaxko-glossary tbody tr")
        assert rows.count() > 400
        broken = page.evaluate(BROKEN_WORDS)
        assert not broken, f"{len(broken)} words broken inside, e.g. {broken[:10]}"
        labels = page.evaluate(LABELS_ON_ONE_LINE)
        assert labels["shown"] >= (5 if width > 800 else 400), labels["shown"]
        assert not labels["stacked"], labels["stacked"][:10]
        # neither the page nor the table scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
        table = page.locator("table.jaxko-glossary")
        assert table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth + 1")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"real-site-glossary-{width}.png"))
    finally:
        context.close()


def test_glossary_filters_by_english_or_korean(served, page):
    page.goto(f"{served}/translation/glossary.html")
    box = page.locator("#jaxko-glossary-filter")
    box.wait_for(state="visible")
    shown = "() => [...document.querySelectorAll('table.jaxko-glossary tbody tr')]" \
            ".filter(r => r.offsetParent).map(r => r.cells[0].innerText.trim())"
    total = len(page.evaluate(shown))
    box.fill("Array")
    english = page.evaluate(shown)
    assert english and len(english) < total
    # Every row kept holds the query somewhere (term, renderings or note), none without it.
    rows = "() => [...document.querySelectorAll('table.jaxko-glossary tbody tr')]" \
           ".filter(r => r.offsetParent).map(r => r.innerText.toLowerCase())"
    assert all("array" in text for text in page.evaluate(rows))
    assert any(e.lower().startswith("array") for e in english), english[:5]
    box.fill("배열")
    korean = page.evaluate(shown)
    assert any(e.lower().startswith("array") for e in korean) and len(korean) < total
    assert "개 중" in page.locator(".jaxko-glossary-count").inner_text()
    box.fill("zzzz-없는-용어")
    assert page.evaluate(shown) == []
    box.fill("")
    assert len(page.evaluate(shown)) == total


# ---------------------------------------------------------------------------- index


def test_index_shows_its_title_once(served, page):
    page.goto(f"{served}/index.html")
    title = page.locator("article h1").first.inner_text().replace("#", "").strip()
    assert title == "JAX: 고성능 배열 계산"
    # innermost visible elements that read exactly the title
    shown = page.evaluate("""title => {
      const same = [...document.querySelectorAll('article *')].filter(e => e.offsetParent
        && e.innerText && e.innerText.replace('#', '').trim() === title);
      return same.filter(e => !same.some(o => o !== e && e.contains(o))).map(e => e.tagName);
    }""", title)
    assert shown == ["H1"], shown


def _tag_by_tag(text: str):
    from jaxko.site.audit import _PageText

    parser = _PageText()
    parser.feed(text)
    parser.close()
    return parser


def test_the_audit_reads_every_page_as_it_would_tag_by_tag(real_site):
    """The audit takes the navigation and highlighted code as one piece of text each
    (jaxko.site.audit.read_page): on every page of the real site, the text and the
    prose elements are those of reading the whole page tag by tag."""
    from jaxko.site.audit import read_page

    pages = sorted(real_site.rglob("*.html"))
    assert len(pages) > 100
    for path in pages:
        text = path.read_text(encoding="utf-8")
        fast, slow = read_page(text), _tag_by_tag(text)
        assert "".join(fast.chunks) == "".join(slow.chunks), path
        assert fast.prose == slow.prose, path


# --------------------------------------------------------- links to upstream's docs

# Anchors that upstream's own pages no longer have (its English site lands on the top
# of the page for them as well); a translation cannot change a section's id.
UPSTREAM_DEAD_ANCHORS = {
    ("benchmarking.html", "notebooks/thinking_in_jax.html#to-jit-or-not-to-jit"),
    ("config_options.html", "export/shape_poly.html#calling-convention-versions"),
    ("export/export.html", "../config_options.html#jax_debug_log_modules"),
    ("export/shape_poly.html", "../pytrees.html#applying-optional-parameters-to-pytrees"),
    ("faq.html", "control-flow.html#Structured-control-flow-primitives"),
    ("faq.html", "notebooks/thinking_in_jax.html#jit-mechanics-tracing-and-static-variables"),
    ("faq.html", "external-callbacks.html#exploring-jax-experimental-io-callback"),
    ("notebooks/layout.html", "../faq.html#controlling-data-and-computation-placement-on-devices"),
    ("notebooks/thinking_in_jax.html", "../key-concepts.html#jax-arrays-jax-array"),
}


def test_no_link_to_upstreams_docs_for_a_page_built_here(real_site, monkeypatch):
    """Upstream's absolute URLs to its own pages (145 on 47 pages before jaxko.site.ext.links)
    open the Korean page; the others are marked English."""
    import functools

    import test_site_links
    from test_site_links import missing_local_anchors, upstream_links_to_built

    # Both scans read every page's links and ids: each page is parsed once for the two.
    monkeypatch.setattr(test_site_links, "read_page", functools.cache(test_site_links.read_page))

    left = upstream_links_to_built(real_site)
    assert not left, f"{len(left)} links, e.g. {left[:5]}"
    missing = set(missing_local_anchors(real_site))
    assert missing <= UPSTREAM_DEAD_ANCHORS, sorted(missing - UPSTREAM_DEAD_ANCHORS)[:5]
    english = [p for p in real_site.rglob("*.html")
               if "jaxko-english reference external" in p.read_text(encoding="utf-8")]
    assert len(english) > 10


def test_a_korean_link_opens_the_korean_page(served, page):
    page.goto(f"{served}/notebooks/thinking_in_jax.html")
    api = page.locator("article a.jaxko-english").first  # the API reference: upstream's
    assert api.get_attribute("href").startswith("https://docs.jax.dev/en/latest/")
    assert "영문" in api.evaluate("a => getComputedStyle(a, '::after').content")
    link = page.locator("article p a", has_text="🔪 JAX - 주의할 점 🔪").first
    with page.expect_navigation():
        link.click()
    assert page.url.startswith(served) and "Common_Gotchas_in_JAX.html" in page.url
    assert page.locator("html").get_attribute("lang") == "ko"


# ------------------------------------------------------- search: the page named first


@pytest.mark.parametrize("query, first", [
    ("vmap", "automatic-vectorization.html"),  # through the glossary: 자동 벡터화
    ("jit", "jit-compilation.html"),
    ("grad", "automatic-differentiation.html"),
    ("pallas", "pallas/index.html"),
    ("shard_map", "notebooks/shard_map.html"),
    ("자동 미분", "automatic-differentiation.html"),
])
def test_search_lists_the_page_titled_by_the_query_first(searched, query, first):
    results = searched(query)["results"]
    assert results[0]["href"].split("#")[0].endswith(first), [r["href"] for r in results[:5]]


def test_search_ranking_benchmark_has_the_expected_page_first(real_site):
    """benchmarks/search_ranking.py's 20 queries, run by the site's own search code."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from search_ranking import QUERIES, rank, rankings

    found = rankings(real_site, list(QUERIES))
    firsts = [q for q, expected in QUERIES.items() if rank(found[q], expected) == 1]
    assert len(firsts) >= 18, sorted(set(QUERIES) - set(firsts))


# ------------------------------------------------------------- progress page on phones

# Table cells whose text stands one character per line (a column squeezed to a letter).
ONE_CHARACTER_CELLS = """() => {
  const lines = (e) => {
    const tops = new Set();
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.nodeValue.trim() || !n.parentElement.offsetParent) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const rect of range.getClientRects()) if (rect.width) tops.add(Math.round(rect.top));
    }
    return tops.size;
  };
  return [...document.querySelectorAll('article th, article td')].filter(c => c.offsetParent)
    .filter(c => { const t = c.innerText.replace(/\\s+/g, ''); return t.length > 1 && lines(c) >= t.length; })
    .map(c => c.innerText.trim());
}"""

CHART_TEXT_HEIGHTS = """() => [...document.querySelectorAll('.jaxko-chart svg text')]
  .map(t => t.getBoundingClientRect().height).filter(h => h > 0)"""


@pytest.mark.parametrize("width", [375, 1280])
def test_progress_page_reads_on_a_phone(served, browser, width):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="ko-KR")
    page = context.new_page()
    try:
        page.goto(f"{served}/translation/progress.html")
        page.wait_for_load_state("load")
        # the sections' pages are folded: the page is a few screens, not 57,000 px
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < 6000, height
        heights = page.evaluate(CHART_TEXT_HEIGHTS)
        assert len(heights) > 10 and min(heights) >= 14, heights  # 13 px letters, not 6
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"real-site-progress-{width}.png"))
        sections = page.locator("details.jaxko-progress-section")
        assert sections.count() > 5
        sections.first.locator("summary").click()
        assert sections.first.evaluate("d => d.open")
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        rows = page.locator("table.jaxko-progress tbody tr")
        assert rows.count() > 140
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        squeezed = page.evaluate(ONE_CHARACTER_CELLS)
        assert not squeezed, f"{len(squeezed)} cells one character per line: {squeezed[:5]}"
        if width < 768:  # each page's figures are labelled on its card
            label = page.locator("table.jaxko-progress td .jaxko-label").first
            assert label.is_visible() and label.inner_text() == "번역됨"
    finally:
        context.close()


# ------------------------------------------------------------------- no silent holes


def test_pages_missing_upstream_files_say_so(served, page):
    """fault_tolerance lacks its 16 listings and its visualization's CSS and JS in the
    offline copy, the-training-cookbook its .py companion: each part shows the Korean
    placeholder, the banner says so, and the page requests nothing that is not there."""
    failed, errors = [], []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    for name, least in (("fault_tolerance", 16 + 5), ("the-training-cookbook", 10)):
        page.goto(f"{served}/{name}.html")
        page.wait_for_load_state("networkidle")
        notes = page.locator("article .jaxko-missing")
        assert notes.count() >= least, (name, notes.count())
        link = notes.first.locator("a.jaxko-upstream-original")
        assert link.get_attribute("href") == f"https://docs.jax.dev/en/latest/{name}.html"
        assert "빠져 있습니다" in page.locator(".jaxko-status .jaxko-missing-note").inner_text()
    assert not [u for u in failed if not u.endswith("/favicon.ico")], failed
    assert not errors, errors


# ------------------------------------------------------------ the banner on a phone


@pytest.mark.parametrize("width", [375, 1280])
def test_banner_folds_its_details_on_a_phone(served, browser, width):  # noqa: F811
    """A Pallas page's banner (progress, review, credits, download, how its notebook
    ran) used to fill a phone's first screen; there the details fold behind a toggle."""
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="ko-KR")
    page = context.new_page()
    try:
        page.goto(f"{served}/pallas/quickstart.html")
        banner = page.locator(".jaxko-status")
        more = banner.locator(".jaxko-status-more")
        toggle = banner.locator("label.jaxko-status-toggle-label")
        assert "번역" in banner.locator(".jaxko-status-line").inner_text()
        if width < 768:
            assert toggle.is_visible() and not more.is_visible()
            folded = banner.bounding_box()["height"]
            assert folded < 200, folded
            toggle.click()
            assert more.is_visible() and "번역:" in more.inner_text()
        else:
            assert not toggle.is_visible() and more.is_visible()
    finally:
        context.close()


def test_glossary_page_explains_the_source_abbreviations(served, page):
    page.goto(f"{served}/translation/glossary.html")
    legend = page.locator("details.jaxko-glossary-legend")
    assert "자료 약어" in legend.locator("summary").inner_text()
    legend.locator("summary").click()
    text = legend.inner_text()
    assert "TFK: TensorFlow 한국어 문서" in text and "JKR1" in text


def test_home_page_cards_keep_their_icons(real_site):
    html = (real_site / "index.html").read_text(encoding="utf-8")
    titles = re.findall(r'<div class="sd-card-title[^"]*">(.*?)</div>', html, re.S)
    for korean in ("설치", "시작하기"):
        title = next(t for t in titles if korean in t)
        assert "<svg" in title, (korean, title[:200])
