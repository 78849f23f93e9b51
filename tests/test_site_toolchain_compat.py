"""One site on Sphinx 8.2 and 9.x: what the newer Sphinx reads differently in a
translation, made the same (real Sphinx, the project's build, small fixture pages).

* Sphinx 9 extracts a line that ends in a backslash without it ("a b", 8.2: "a\\ b"):
  the gated catalogs carry the message under both keys (``gate.line_end_aliases``).
* Sphinx 9 compares named references by their text: the translation Sphinx's docs
  recommend, `` `번역 <Name_>`_ ``, warned "inconsistent references"; the same target
  is not a warning (``i18n.same_named_references``), a different one still is.

These tests run on whatever toolchain is installed: `make test` (8.2.3),
`make test-newest` (the newest 9.x) and `make test-oldest` (8.2.0) all run them."""

from __future__ import annotations

import logging

import polib
import pytest

from jaxko.site import build as site_build
from jaxko.site.gate import line_end_aliases
from jaxko.site.ext.i18n import SameReferencesFilter, same_named_references

RST = """Page
====

.. _Target page: https://example.com/target

See `Target page`_ for more.

Then `Target page`_ again, and `Other page`_.

.. _Other page: https://example.com/other
"""

MYST = "# Notes\n\n* Added support for kernels\\\n  in this release.\n* Another item.\n"

MESSAGES = {
    "page": {"Page": "페이지",
             "See `Target page`_ for more.": "자세한 내용은 `대상 페이지 <Target page_>`_ 를 보세요.",
             "Then `Target page`_ again, and `Other page`_.": "다시 `대상 <Target page_>`_, 그리고 `다른 쪽 <Other page_>`_."},
    # The msgid as Sphinx 8.2 extracts it (jaxko extract on the default toolchain).
    "notes": {"Notes": "메모", "Added support for kernels\\ in this release.": "이번 릴리스에서 커널을 지원합니다.",
              "Another item.": "다른 항목입니다."},
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> site_build.SiteResult:
    tmp = tmp_path_factory.mktemp("compat")
    docs = tmp / "docs"
    docs.mkdir()
    (docs / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   page\n   notes\n",
                                    encoding="utf-8")
    (docs / "page.rst").write_text(RST, encoding="utf-8")
    (docs / "notes.md").write_text(MYST, encoding="utf-8")
    folder = tmp / "locale" / "ko" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    for domain, messages in MESSAGES.items():
        catalog = polib.POFile()
        catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
        for msgid, msgstr in messages.items():
            catalog.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
        catalog.save(str(folder / f"{domain}.po"))
    return site_build.build(execute=False, srcdir=docs, outdir=tmp / "html",
                            locale_dir=tmp / "locale",
                            overrides={"jaxko_search_morphology": "0"})


def test_a_line_end_backslash_message_is_translated(site):
    html = (site.outdir / "notes.html").read_text(encoding="utf-8")
    assert "이번 릴리스에서 커널을 지원합니다." in html
    assert "Added support for kernels" not in html


def test_a_named_reference_with_its_name_as_alias_does_not_warn(site):
    page = (site.outdir / "page.html").read_text(encoding="utf-8")
    assert 'href="https://example.com/target">대상 페이지</a>' in page
    assert 'href="https://example.com/other">다른 쪽</a>' in page
    assert site.unexpected == []  # (the speedups-off warning of a newer toolchain is accepted)


def _record(original: list[str], translated: list[str]) -> logging.LogRecord:
    """A warning as Sphinx's ``compare_references`` logs it."""
    record = logging.LogRecord("sphinx.sphinx.transforms.i18n", logging.WARNING, __file__, 1,
                               "inconsistent references in translated message. original: {0}, "
                               "translated: {1}".format(original, translated), None, None)
    record.subtype = "inconsistent_references"
    return record


def test_the_filter_drops_only_the_same_targets():
    same = _record(["`Target page`_"], ["`대상 페이지 <Target page_>`_"])
    other = _record(["`Target page`_"], ["`다른 쪽 <Other page_>`_"])
    assert not SameReferencesFilter().filter(same)
    assert SameReferencesFilter().filter(other)  # a retargeted reference still warns
    unrelated = logging.LogRecord("x", logging.WARNING, __file__, 1, "other warning", None, None)
    assert SameReferencesFilter().filter(unrelated)


@pytest.mark.parametrize("original, translated, same", [
    (["`Target`_"], ["`대상 <Target_>`_"], True),
    (["`JAX AI\nStack`_"], ["`JAX AI Stack`_"], True),   # the name's whitespace
    (["`A`_", "`B`_"], ["`나 <B_>`_", "`가 <A_>`_"], True),  # reordered by the translation
    (["`A`_"], ["`가 <B_>`_"], False),                      # another target
    (["`A`_", "`B`_"], ["`가 <A_>`_"], False),              # one dropped
    (["`A`_"], ["`가 <A_>`_", "`나 <A_>`_"], False),        # one added
    (["`A`_"], ["`가 <https://evil.example/>`_"], False),   # a URL, not the name
])
def test_same_named_references(original, translated, same):
    assert same_named_references(original, translated) is same


def test_line_end_aliases():
    assert line_end_aliases("kernels\\ (#1).") == ["kernels (#1)."]
    assert line_end_aliases("a \\ b") == ["a b"]
    assert sorted(line_end_aliases("a\\ b\\ c")) == ["a b c", "a b\\ c", "a\\ b c"]
    assert line_end_aliases("no backslash") == []
    assert line_end_aliases("x\\y") == []  # not before a blank: no line end there
