"""MathJax in safe mode with its extensions served locally (issue #41).

A tiny site whose page holds the overlay payload of the issue and its relatives in the
*source* (trusted text: what reaches the page whatever the gate does), built with real
Sphinx and the project's conf.py and opened in Chromium: no formula covers the page,
carries a style, class or id of its own, or links anywhere but http, https or mailto;
every formula of the page renders, the ones using ``\\href`` (MathJax's html
extension) included. ``jaxko check`` refusing the same payloads in a msgstr is
tests/test_check_math.py's. The site is built in conftest's warm Sphinx process, without
Kiwi's nouns in the search index (search is not what this tests).
"""

from __future__ import annotations

import json
import shutil

import polib
import pytest

from conftest import FIXTURES
from jaxko.site import build as site_build
from jaxko.sphinxext.offline_math import SAFE_CONFIG, safe_config
from test_site_browser import CHROMIUM, CHROMIUM_ARGS, serve

pytestmark = pytest.mark.browser

OVERLAY = (r'$\mmlToken{mtext}[href="https://evil.example/x" style="position:fixed;top:0;'
           r'left:0;width:100vw;height:100vh;z-index:99999"]{로그인}$')
PAYLOADS = [
    OVERLAY,
    r"$\newcommand{\js}{javascript}\href{\js:alert(1)}{클릭}$",
    r"$\href{javascript:alert(2)}{클릭}$",
    r"$\style{position:fixed;top:0;left:0;width:100vw;height:100vh}{덮개}$",
    r"$\class{bd-header}{가짜}$ and $\cssId{main-content}{가짜}$",
    r"$\href{https://jax.dev}{jax}$",
]
FORMULAS = len(PAYLOADS) + 2  # the \class/\cssId line has two, and $x^2$ below


@pytest.fixture(scope="module")
def site(tmp_path_factory, warm_sphinx):
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} missing: run `make system-deps` (.ci/system-deps.sh)")
    tmp = tmp_path_factory.mktemp("math-safe")
    docs = tmp / "docs"
    (docs / "_static").mkdir(parents=True)
    shutil.copy(FIXTURES / "site" / "docs" / "_static" / "jax_logo_250px.png", docs / "_static")
    (docs / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   math\n", encoding="utf-8")
    body = "\n\n".join(["# Math page", "A plain formula $x^2$.", *PAYLOADS]) + "\n"
    (docs / "math.md").write_text(body, encoding="utf-8")
    catalog = tmp / "locale" / "ko" / "LC_MESSAGES" / "math.po"
    catalog.parent.mkdir(parents=True)
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    po.append(polib.POEntry(msgid="Math page", msgstr="수식 페이지"))
    po.save(str(catalog))
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp / "html",
                              locale_dir=tmp / "locale", sphinx=warm_sphinx,
                              overrides={"jaxko_search_morphology": "0"})
    yield from serve(result.outdir)


@pytest.fixture(scope="module")
def page(site):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                     args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        failed: list[str] = []
        dialogs: list[str] = []
        page.on("requestfailed", lambda request: failed.append(request.url))
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(f"{site}/math.html")
        page.wait_for_function(
            "n => document.querySelectorAll('mjx-container').length >= n", arg=FORMULAS,
            timeout=30_000)
        page.wait_for_timeout(500)
        yield page, failed, dialogs
        browser.close()


def test_every_formula_renders_and_every_extension_is_local(page):
    page, failed, _dialogs = page
    assert page.locator("mjx-container").count() == FORMULAS
    assert page.locator("mjx-merror, mjx-container [data-mjx-error]").count() == 0
    assert failed == []  # no 404 of an extension, nothing from another host


def test_no_formula_covers_the_page_or_styles_itself(page):
    page, _failed, _dialogs = page
    found = page.evaluate("""() => [...document.querySelectorAll('mjx-container *')].map(e => ({
        position: getComputedStyle(e).position, style: e.getAttribute('style') || '',
        cls: e.getAttribute('class') || '', id: e.id,
        big: e.getBoundingClientRect().width > 600 }))""")
    assert not [f for f in found if f["position"] == "fixed" or f["big"]]
    assert not [f for f in found if "position" in f["style"] or "100vw" in f["style"]]
    assert not [f for f in found if "bd-header" in f["cls"] or f["id"] == "main-content"]
    # the page's own element keeps its id: nothing from a formula took it
    assert page.evaluate("document.querySelectorAll('#main-content').length") <= 1


def test_links_only_with_safe_schemes(page):
    page, _failed, dialogs = page
    hrefs = page.locator("mjx-container a").evaluate_all("els => els.map(e => e.href)")
    assert hrefs and all(h.startswith(("https:", "http:", "mailto:")) for h in hrefs), hrefs
    assert "https://jax.dev/" in hrefs
    assert dialogs == []


def test_the_safe_settings_reach_the_page(site):
    import urllib.request

    html = urllib.request.urlopen(f"{site}/math.html").read().decode("utf-8")
    assert json.dumps(SAFE_CONFIG["options"]["safeOptions"]["allow"]) in html
    assert '"ui/safe"' in html


def test_a_project_config_cannot_loosen_safe_mode():
    loose = {"options": {"safeOptions": {"allow": {"styles": "all"}}}, "tex": {"tags": "ams"}}
    merged = safe_config(loose)
    assert merged["options"]["safeOptions"]["allow"]["styles"] == "none"
    assert merged["tex"] == {"tags": "ams"} and "ui/safe" in merged["loader"]["load"]
