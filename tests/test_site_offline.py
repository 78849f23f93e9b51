"""The built fixture site makes no request to another host (headless Chromium).

Math is typeset by the MathJax that `jaxko.sphinxext.offline_math` copies from the
sphinx-mathjax-offline package into _static, not by a CDN's.
"""

from __future__ import annotations

import shutil
from urllib.parse import urlparse

import pytest

from conftest import FIXTURES
from jaxko.site import build as site_build
from test_site_browser import browser, page, serve  # noqa: F401

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("offline")
    docs = tmp / "docs"
    shutil.copytree(FIXTURES / "site" / "docs", docs)
    (docs / "math.md").write_text("# Math\n\nInline $x^2$ and a block:\n\n$$\n\\int_0^1 f(x)\\,dx\n$$\n",
                                  encoding="utf-8")
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp / "html",
                              locale_dir=FIXTURES / "site" / "locale",
                              glossary=FIXTURES / "site" / "glossary.yaml")
    yield from serve(result.outdir)


@pytest.mark.parametrize("name", ["math", "notebook", "guide", "index"])
def test_page_requests_nothing_from_another_host(served, page, name):
    hosts = []
    page.on("request", lambda request: hosts.append(urlparse(request.url).netloc))
    page.goto(f"{served}/{name}.html")
    page.wait_for_load_state("networkidle")
    local = urlparse(served).netloc
    assert hosts and set(hosts) - {local} == set(), sorted(set(hosts))
    if name == "math":
        page.locator("mjx-container").first.wait_for(state="attached", timeout=15000)
        assert page.locator("mjx-container").count() == 2
