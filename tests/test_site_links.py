"""Links to upstream's docs stay on the Korean site (jaxko.site.ext.links), real Sphinx.

The fixture site gets one more page whose translation keeps upstream's absolute URLs,
as the style guide asks: links to pages this site builds (with an anchor, on the
older host, the bare host), to a page it does not build (the API reference) and to a
pinned older version. Built twice: as published, and with ``jaxko_local_links=0``
(what upstream's URLs do on their own), where the same scan finds the links that
leave the site.
"""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import FIXTURES
from jaxko.site import build as site_build
from jaxko.site.ext.links import (ENGLISH_CLASS, local_target, redirects, upstream_page)

SITE = FIXTURES / "site"

LINKS_MD = """\
# Links

Read [the guide](https://docs.jax.dev/en/latest/guide.html#guide-to-arrays) first.

The [plain page](https://jax.readthedocs.io/en/latest/plain.html) and [home](https://docs.jax.dev/).

The [API of jit](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html) is upstream's.

An [old guide](https://docs.jax.dev/en/v0.4.30/guide.html) stays pinned.

[![Open in Colab](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/jax-ml/jax/blob/main/docs/notebook.ipynb) [![Open in Kaggle](https://kaggle.com/static/images/open-in-kaggle.svg)](https://kaggle.com/kernels/welcome?src=https://github.com/jax-ml/jax/blob/main/docs/notebook.ipynb) [![Colab, no Korean notebook](https://colab.research.google.com/assets/colab-badge.svg)](https://colab.research.google.com/github/jax-ml/jax/blob/main/docs/other.ipynb)
"""

LINKS_PO = r'''msgid ""
msgstr ""
"Language: ko\n"
"Content-Type: text/plain; charset=UTF-8\n"

#: links.md:1
msgid "Links"
msgstr "링크"

#: links.md:3
msgid "Read [the guide](https://docs.jax.dev/en/latest/guide.html#guide-to-arrays) first."
msgstr "먼저 [안내서](https://docs.jax.dev/en/latest/guide.html#guide-to-arrays)를 읽으세요."

#: links.md:5
msgid "The [plain page](https://jax.readthedocs.io/en/latest/plain.html) and [home](https://docs.jax.dev/)."
msgstr "[reST 문서](https://jax.readthedocs.io/en/latest/plain.html)와 [첫 페이지](https://docs.jax.dev/)."

#: links.md:7
msgid "The [API of jit](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html) is upstream's."
msgstr "[jit의 API](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html)는 원본 사이트에 있습니다."

#: links.md:9
msgid "An [old guide](https://docs.jax.dev/en/v0.4.30/guide.html) stays pinned."
msgstr "[옛 안내서](https://docs.jax.dev/en/v0.4.30/guide.html)는 그 버전을 가리킵니다."
'''


class _Anchors(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[dict] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        values = {name: value or "" for name, value in attrs}
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "a" and "href" in values:
            self.links.append(values)


def read_page(path: Path) -> _Anchors:
    parsed = _Anchors()
    parsed.feed(path.read_text(encoding="utf-8"))
    return parsed


def built_docnames(site: Path) -> set[str]:
    """Documents the site has a page for (a redirect stub of rediraffe counts: its
    target is built here)."""
    return {path.relative_to(site).with_suffix("").as_posix() for path in site.rglob("*.html")}


def upstream_links_to_built(site: Path) -> list[tuple[str, str]]:
    """(page, href) of every link in the site's HTML to upstream's docs for a page
    this site builds; the banner's link to the page's English original and a
    placeholder's link to the original of a part the page lacks are meant."""
    built = built_docnames(site)
    found = []
    for path in sorted(site.rglob("*.html")):
        for link in read_page(path).links:
            target = upstream_page(link["href"])
            classes = link.get("class", "").split()
            if target and target[0] in built and not {"jaxko-upstream-link",
                                                      "jaxko-upstream-original"} & set(classes):
                found.append((path.relative_to(site).as_posix(), link["href"]))
    return found


def missing_local_anchors(site: Path) -> list[tuple[str, str]]:
    """(page, href) of every internal link whose #anchor the target page lacks."""
    pages: dict[Path, set[str]] = {}
    missing = []
    for path in sorted(site.rglob("*.html")):
        for link in read_page(path).links:
            href = link["href"]
            if "://" in href or "#" not in href or href.startswith(("#", "mailto:")):
                continue
            file, anchor = href.split("#", 1)
            target = (path.parent / file).resolve()
            if not target.is_file() or not anchor:
                continue
            if target not in pages:
                pages[target] = read_page(target).ids
            if anchor not in pages[target]:
                missing.append((path.relative_to(site).as_posix(), href))
    return missing


def _build(tmp: Path, **overrides) -> Path:
    docs = tmp / "docs"
    shutil.copytree(SITE / "docs", docs)
    (docs / "links.md").write_text(LINKS_MD, encoding="utf-8")
    index = docs / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").rstrip("\n") + "\n   links\n",
                     encoding="utf-8")
    locale = tmp / "locale"
    shutil.copytree(SITE / "locale", locale)
    (locale / "ko" / "LC_MESSAGES" / "links.po").write_text(LINKS_PO, encoding="utf-8")
    notebooks = tmp / "notebooks-ko"  # the Korean notebooks a published site offers
    notebooks.mkdir()
    (notebooks / "notebook.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, '
                                              '"nbformat_minor": 5}\n', encoding="utf-8")
    overrides = {"jaxko_notebooks_dir": str(notebooks),
                 "jaxko_github_repo": "jax-docs-ko/jax-docs-ko", **overrides}
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp / "html",
                              locale_dir=locale, glossary=SITE / "glossary.yaml",
                              overrides=overrides)
    assert result.unexpected == [], result.warnings  # (a newer toolchain's speedups notice is accepted)
    return result.outdir


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("links"))


@pytest.fixture(scope="module")
def upstream_urls(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("links-off"), jaxko_local_links="0")


def links_of(site: Path, name: str) -> dict[str, dict]:
    """Link text -> attributes, in the page's article."""
    html = (site / f"{name}.html").read_text(encoding="utf-8")
    body = re.search(r"<article.*?</article>", html, re.S).group(0)
    return {re.sub(r"<[^>]+>", "", m.group(2)): dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
            for m in re.finditer(r"<a ([^>]*)>(.*?)</a>", body, re.S)}


# ------------------------------------------------------------------------- the URLs


@pytest.mark.parametrize("url, expected", [
    ("https://docs.jax.dev/en/latest/notebooks/thinking_in_jax.html#to-jit-or-not-to-jit",
     ("notebooks/thinking_in_jax", "to-jit-or-not-to-jit")),
    ("https://jax.readthedocs.io/en/latest/parallel.html", ("parallel", "")),
    ("http://docs.jax.dev/en/latest/jep/index.html", ("jep/index", "")),
    ("https://docs.jax.dev/en/latest/#ecosystem", ("index", "ecosystem")),
    ("https://docs.jax.dev/en/latest", ("index", "")),
    ("https://docs.jax.dev", ("index", "")),
    ("https://docs.jax.dev/en/latest/pallas/", ("pallas/index", "")),
    ("https://docs.jax.dev/en/latest/quickstart", ("quickstart", "")),
    ("https://docs.jax.dev/en/v0.4.30/quickstart.html", None),   # a pinned version
    ("https://docs.jax.dev/en/latest/../../x.html", None),
    ("https://docs.jax.dev/en/latest/search.html?q=jit", None),
    ("https://github.com/jax-ml/jax/blob/main/docs/quickstart.md", None),
    ("https://docs.jax.dev.example.com/en/latest/quickstart.html", None),
    ("https://evil.example/?u=https://docs.jax.dev/en/latest/quickstart.html", None),
    ("javascript:alert(1)//docs.jax.dev/en/latest/x.html", None),
])
def test_upstream_page_reads_the_url_structure(url, expected):
    assert upstream_page(url) == expected


def test_redirected_pages_resolve_to_their_new_document():
    moved = redirects({"notebooks/external_callbacks.md": "external-callbacks.md"})
    built = {"external-callbacks", "index"}
    assert local_target("https://docs.jax.dev/en/latest/notebooks/external_callbacks.html#x",
                        built, moved) == ("external-callbacks", "x")
    assert local_target("https://docs.jax.dev/en/latest/jax.numpy.html", built, moved) is None


# ----------------------------------------------------------------------- the pages


def test_links_to_built_pages_open_the_korean_page(site):
    links = links_of(site, "links")
    assert links["안내서"]["href"] == "guide.html#guide-to-arrays"
    assert links["reST 문서"]["href"] == "plain.html"
    assert links["첫 페이지"]["href"] == "index.html"
    for text in ("안내서", "reST 문서", "첫 페이지"):
        assert "internal" in links[text]["class"] and ENGLISH_CLASS not in links[text]["class"]
    assert missing_local_anchors(site) == []
    # the guide's own reference-style link to the docs' home
    assert links_of(site, "guide")["JAX 웹사이트"]["href"] == "index.html"


def test_links_to_pages_not_built_here_say_they_are_english(site):
    links = links_of(site, "links")
    api = links["jit의 API"]
    assert api["href"] == "https://docs.jax.dev/en/latest/_autosummary/jax.jit.html"
    assert ENGLISH_CLASS in api["class"] and "영어 원문" in api["title"]
    pinned = links["옛 안내서"]
    assert pinned["href"] == "https://docs.jax.dev/en/v0.4.30/guide.html"
    assert ENGLISH_CLASS in pinned["class"]
    css = (site / "_static" / "jaxko-site.css").read_text(encoding="utf-8")
    assert re.search(r"a\.jaxko-english::after\s*\{[^}]*content:\s*\"영문\"", css)


def test_no_link_leaves_the_site_for_a_page_built_here(site, upstream_urls):
    assert upstream_links_to_built(site) == []
    # Without the rewrite the same scan finds upstream's URLs (the planted fault).
    left = upstream_links_to_built(upstream_urls)
    assert ("links.html", "https://docs.jax.dev/en/latest/guide.html#guide-to-arrays") in left
    assert ("guide.html", "https://docs.jax.dev/") in left
    assert len(left) == 4, left
    # the banner's link to the English original stays, and is not counted
    assert 'class="jaxko-upstream-link" href="https://docs.jax.dev/en/latest/guide.html"' in \
        (site / "guide.html").read_text(encoding="utf-8")


def test_missing_anchor_scan_sees_a_missing_anchor(tmp_path):
    (tmp_path / "a.html").write_text('<a href="b.html#here">x</a><a href="b.html#gone">y</a>',
                                     encoding="utf-8")
    (tmp_path / "b.html").write_text('<h1 id="here">b</h1>', encoding="utf-8")
    assert missing_local_anchors(tmp_path) == [("a.html", "b.html#gone")]


# ------------------------------------------------------------------- notebook badges


KOREAN_COLAB = ("https://colab.research.google.com/github/jax-docs-ko/jax-docs-ko/blob/"
                "gh-pages/_downloads/ko/notebook.ipynb")
KOREAN_KAGGLE = ("https://kaggle.com/kernels/welcome?src=https://github.com/jax-docs-ko/"
                 "jax-docs-ko/blob/gh-pages/_downloads/ko/notebook.ipynb")


def test_badges_open_the_korean_notebook_where_one_is_published(site, upstream_urls):
    links = links_of(site, "links")
    assert links["Open in Colab"]["href"] == KOREAN_COLAB
    assert links["Open in Kaggle"]["href"] == KOREAN_KAGGLE
    # no Korean notebook of that page: the badge opens upstream's, as before
    assert links["Colab, no Korean notebook"]["href"] == \
        "https://colab.research.google.com/github/jax-ml/jax/blob/main/docs/other.ipynb"
    assert links_of(upstream_urls, "links")["Open in Colab"]["href"] == \
        "https://colab.research.google.com/github/jax-ml/jax/blob/main/docs/notebook.ipynb"


@pytest.mark.parametrize("url, doc", [
    ("https://colab.research.google.com/github/jax-ml/jax/blob/main/docs/notebooks/quickstart.ipynb",
     "notebooks/quickstart"),
    ("https://kaggle.com/kernels/welcome?src=https://github.com/jax-ml/jax/blob/main/docs/jep/9407-type-promotion.ipynb",
     "jep/9407-type-promotion"),
    ("https://colab.research.google.com/assets/colab-badge.svg", None),
    ("https://colab.research.google.com/github/evil/jax/blob/main/docs/x.ipynb", None),
    ("https://kaggle.com/kernels/welcome?src=https://evil.example/jax-ml/jax/blob/main/docs/x.ipynb", None),
    ("http://colab.research.google.com/github/jax-ml/jax/blob/main/docs/x.ipynb", None),
])
def test_badge_notebook_reads_the_url_structure(url, doc):
    from jaxko.site.ext.links import badge_notebook

    assert badge_notebook(url) == doc
