"""No silent holes (jaxko.site.ext.holes): real Sphinx and CLI, the fixture site plus a page
that includes and loads files the tree lacks, as fault_tolerance does in the offline
upstream copy; and the page in Chromium (no failed request, no script error).

Built as published (placeholders, banner line, the summary naming page and files) and
with ``jaxko_missing_placeholders=0``, where the same page is silently incomplete.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run_jaxko
from jaxko.site import build as site_build
from test_site_browser import browser, serve  # noqa: F401

SITE = FIXTURES / "site"

HOLES_RST = """\
.. raw:: html

    <link href="_static/viz/viz.css" rel="stylesheet" />
    <script src="_static/viz/viz.js"></script>

Holes
=====

A listing that exists:

.. literalinclude:: _static/present.py

A listing that does not:

.. literalinclude:: _static/viz/gone.py
   :language: python

A tagged block whose file does not exist:

.. tagged-block:: _static/viz/companion.py setup

The visualization:

.. raw:: html

    <div class="cluster" id="cluster_1"></div>
    <script>
      init_cluster("cluster_1", {});
    </script>

The end.
"""

HOLES_PO = r'''msgid ""
msgstr ""
"Language: ko\n"
"Content-Type: text/plain; charset=UTF-8\n"

#: holes.rst:7
msgid "Holes"
msgstr "구멍"

#: holes.rst:24
msgid "The end."
msgstr "끝."
'''


def _tree(tmp: Path) -> Path:
    docs = tmp / "docs"
    shutil.copytree(SITE / "docs", docs)
    (docs / "holes.rst").write_text(HOLES_RST, encoding="utf-8")
    (docs / "_static" / "present.py").write_text("present = 1\n", encoding="utf-8")
    index = docs / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").rstrip("\n") + "\n   holes\n",
                     encoding="utf-8")
    shutil.copytree(SITE / "locale", tmp / "locale")
    (tmp / "locale" / "ko" / "LC_MESSAGES" / "holes.po").write_text(HOLES_PO, encoding="utf-8")
    return tmp


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = _tree(tmp_path_factory.mktemp("holes"))
    proc = run_jaxko("site", "build", "--no-execute", "--no-notebooks",
                     "--srcdir", str(tmp / "docs"), "--outdir", str(tmp / "html"),
                     "--locale-dir", str(tmp / "locale"),
                     "--glossary", str(SITE / "glossary.yaml"), cwd=tmp)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return tmp / "html", proc.stdout


@pytest.fixture(scope="module")
def silent(tmp_path_factory) -> Path:
    tmp = _tree(tmp_path_factory.mktemp("holes-off"))
    return site_build.build(execute=False, srcdir=tmp / "docs", outdir=tmp / "html",
                            locale_dir=tmp / "locale", glossary=SITE / "glossary.yaml",
                            overrides={"jaxko_missing_placeholders": "0"}).outdir


def _article(site: Path) -> str:
    html = (site / "holes.html").read_text(encoding="utf-8")
    return re.search(r"<article.*?</article>", html, re.S).group(0)


def test_each_missing_part_shows_a_korean_placeholder_linking_upstream(built):
    body = _article(built[0])
    notes = re.findall(r'<div class="[^"]*\bjaxko-missing\b[^"]*">.*?</div>', body, re.S)
    assert len(notes) == 3, notes
    for note, file in zip(notes, ["_static/viz/gone.py", "_static/viz/companion.py",
                                  "_static/viz/viz.js"]):
        assert "빠진 내용" in note and file in note
        assert 'href="https://docs.jax.dev/en/latest/holes.html"' in note  # not made local
    assert "이 자리에 있어야 할 코드는" in notes[0] and "대화형 시각화는" in notes[2]
    assert "present" in body  # the listing that exists is shown as before
    assert "# source file" not in body  # tagged-block's own note gave way


def test_nothing_loads_a_missing_file_or_calls_its_script(built):
    html = (built[0] / "holes.html").read_text(encoding="utf-8")
    assert "_static/viz/viz.js" not in re.sub(r"<code.*?</code>", "", html, flags=re.S)
    assert 'href="_static/viz/viz.css"' not in html
    assert "init_cluster(" not in html


def test_the_banner_and_the_summary_say_what_is_missing(built):
    site, out = built
    banner = re.search(r'<div class="jaxko-status.*?</div>', _article(site), re.S).group(0)
    assert "jaxko-missing-note" in banner and "원본 파일 4개" in banner
    assert "1 pages lack files the staged upstream does not have" in out
    assert ("  holes: _static/viz/companion.py, _static/viz/gone.py, _static/viz/viz.css, "
            "_static/viz/viz.js") in out
    # a page with everything it needs has no such line
    assert "jaxko-missing-note" not in (site / "guide.html").read_text(encoding="utf-8")


def test_without_placeholders_the_hole_is_silent(silent):
    body = _article(silent)
    assert "jaxko-missing" not in body and "빠진 내용" not in body
    assert "init_cluster(" in (silent / "holes.html").read_text(encoding="utf-8")


@pytest.mark.browser
def test_the_page_requests_no_missing_file_and_logs_no_error(built, browser):  # noqa: F811
    served = serve(built[0])
    url = next(served)
    page = browser.new_page()
    failed, errors = [], []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(f"{m.text} {m.location.get('url', '')}")
            if m.type == "error" else None)
    try:
        page.goto(f"{url}/holes.html")
        page.wait_for_load_state("networkidle")
        assert page.locator("article .jaxko-missing").count() == 3
        assert page.locator(".jaxko-missing-note").is_visible()
        assert not failed, failed
        # (the browser's own /favicon.ico request is no page's: the fixture has no icon)
        # no console error at all: none from the missing script, none from the theme
        # ("Got invalid theme mode", before conf.py set its default_mode)
        assert not [e for e in errors if not e.endswith("/favicon.ico")], errors
    finally:
        page.close()
        next(served, None)
