"""The built fixture site makes no request to another host (headless Chromium).

Math is typeset by the MathJax that `jaxko.sphinxext.offline_math` copies from the
sphinx-mathjax-offline package into _static, not by a CDN's.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from test_site_browser import browser, page, serve  # noqa: F401

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(fixture_site):  # the fixture site with a math page (conftest)
    yield from serve(fixture_site)


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
