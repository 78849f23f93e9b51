"""URLs compared as a URL parser reads them (issue #41, #43).

``https:/ko//jax.dev/guide`` is a host-less URL a browser opens on host ``ko``: it
must differ from ``https://jax.dev/guide`` for every rule that compares links
(safety.structure, safety.new-url, markup.link). A page localised from ``/en/`` to
``/ko/`` (or given a ``/ko/`` segment) of the same scheme and host is the same link.
"""

from __future__ import annotations

import pytest

from jaxko.check.examples import run_example
from jaxko.check.inline import normalise_url
from jaxko.check.registry import RULES
from jaxko.check.runner import load_rules_modules
from jaxko.check.structure import added

GUIDE = "https://jax.dev/guide"
RETARGETED = [
    "https:/ko//jax.dev/guide",       # no host: the browser's host is `ko`
    "https://ko//jax.dev/guide",      # host `ko`
    "https://jax.dev@evil.example/guide",
    "https://jax.dev.evil.example/guide",
    "http://jax.dev/guide",           # another scheme
    "https://jax.dev/ko/other",       # another page of the site
]
SAME = [
    "https://jax.dev/guide/",
    "https://JAX.dev/guide",
    "https://jax.dev/ko/guide",
]


@pytest.mark.parametrize("url", RETARGETED)
def test_retargeted_url_differs(url):
    assert normalise_url(url) != normalise_url(GUIDE)


@pytest.mark.parametrize("url", SAME)
def test_same_page_compares_equal(url):
    assert normalise_url(url) == normalise_url(GUIDE)


def test_en_localised_to_ko_is_the_same_link():
    assert normalise_url("https://jax.dev/ko/guide") == normalise_url("https://jax.dev/en/guide")
    assert normalise_url("https://docs.python.org/ko/3.12/x.html") == \
        normalise_url("https://docs.python.org/3.12/x.html")
    # a relative link is a path of the project: compared as written
    assert normalise_url("ko/guide.md") != normalise_url("guide.md")


def _cases(url: str) -> list[tuple[str, str, str]]:
    return [("rst", f"See `the guide <{GUIDE}>`_.", f"`안내 <{url}>`_\\ 를 보세요."),
            ("myst", f"See [the guide]({GUIDE}).", f"[안내]({url})를 보세요.")]


@pytest.mark.parametrize("url", RETARGETED)
def test_structure_finds_the_retargeted_link(url):
    for syntax, msgid, msgstr in _cases(url):
        assert "link" in {part.kind for part in added(msgid, msgstr, (syntax,))}, (syntax, url)


@pytest.mark.parametrize("url", SAME + ["https://jax.dev/en/guide"])
def test_structure_accepts_the_same_page(url):
    for syntax, msgid, msgstr in _cases(url):
        assert not added(msgid, msgstr, (syntax,)), (syntax, url)


def _example(syntax: str, msgid: str, msgstr: str) -> dict:
    suffix = "rst" if syntax == "rst" else "md"
    return {"location": f"guide.{suffix}:3", "msgid": msgid, "msgstr": msgstr}


@pytest.mark.parametrize("name", ["safety.new-url", "markup.link", "safety.structure"])
def test_rules_see_the_host_less_url(name):
    load_rules_modules()
    for syntax, msgid, msgstr in _cases("https:/ko//jax.dev/guide"):
        assert run_example(RULES[name], _example(syntax, msgid, msgstr)), (name, syntax)
    for syntax, msgid, msgstr in _cases("https://jax.dev/ko/guide"):
        assert not run_example(RULES[name], _example(syntax, msgid, msgstr)), (name, syntax)
