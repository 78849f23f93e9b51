"""A Python console block with a doctest flag shows its translation.

Sphinx trims ``# doctest: +FLAG`` comments in a post-transform, so the gettext builder
extracts the trimmed block as the msgid, while its i18n step (a read-time transform)
looks the block up untrimmed and keeps the English (export.md, shape_poly.md and
transfer_guard.rst had six such blocks). A tiny site, one MyST page and one reST page,
built twice with real Sphinx and the project's conf.py: with ``jaxko_i18n_fixes`` off
the pages keep the English (the bug is real); with it on (the site as published) they
show the Korean, and the flags are still trimmed.
"""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import polib
import pytest

from jaxko.site import audit
from jaxko.site import build as site_build

# What the gettext builder extracts (flags trimmed) and what a translator writes.
CONSOLE = ">>> x = jnp.arange(3)  # Make an array\n>>> x.sum()\nArray(3, dtype=int32)"
CONSOLE_KO = ">>> x = jnp.arange(3)  # 배열을 만듭니다\n>>> x.sum()\nArray(3, dtype=int32)"
# As the page's source has it.
FLAGGED = ">>> x = jnp.arange(3)  # Make an array\n>>> x.sum()  # doctest: +SKIP\nArray(3, dtype=int32)"
# A console block without a flag (always found).
PLAIN = ">>> z = 1  # One"
PLAIN_KO = ">>> z = 1  # 하나"


def _indent(text: str) -> str:
    return "\n".join("   " + line for line in text.split("\n"))


def _catalog(path: Path, title: str, entries: list[tuple[str, str]]) -> None:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    po.append(polib.POEntry(msgid=title, msgstr=title.replace("page", "페이지")))
    for msgid, msgstr in entries:
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    path.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(path))


def _build(tmp: Path, fixes: bool) -> Path:
    docs = tmp / "docs"
    docs.mkdir()
    (docs / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   markdown\n   rest\n",
                                    encoding="utf-8")
    (docs / "markdown.md").write_text(
        f"# Markdown page\n\n```python\n{FLAGGED}\n```\n\n```python\n{PLAIN}\n```\n",
        encoding="utf-8")
    (docs / "rest.rst").write_text(
        f"Rest page\n=========\n\n.. code-block:: python\n\n{_indent(FLAGGED)}\n\n"
        f".. code-block:: python\n\n{_indent(PLAIN)}\n",
        encoding="utf-8")
    locale = tmp / "locale" / "ko" / "LC_MESSAGES"
    # MyST code blocks end with a newline; reST literal blocks do not.
    _catalog(locale / "markdown.po", "Markdown page",
             [(CONSOLE + "\n", CONSOLE_KO + "\n"), (PLAIN + "\n", PLAIN_KO + "\n")])
    _catalog(locale / "rest.po", "Rest page",
             [(CONSOLE, CONSOLE_KO), (PLAIN, PLAIN_KO)])
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp / "html",
                              locale_dir=tmp / "locale",
                              overrides={"jaxko_i18n_fixes": "1" if fixes else "0"})
    return result.outdir


def _text(outdir: Path, page: str) -> str:
    html = (outdir / f"{page}.html").read_text(encoding="utf-8")
    return html_lib.unescape(re.sub(r"<[^>]+>", "", html))


@pytest.fixture(scope="module")
def fixed(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("fixed"), fixes=True)


@pytest.fixture(scope="module")
def unfixed(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("unfixed"), fixes=False)


def test_flagged_console_blocks_keep_the_english_without_the_fix(unfixed):
    markdown, rest = _text(unfixed, "markdown"), _text(unfixed, "rest")
    assert "# Make an array" in markdown and "# 배열을 만듭니다" not in markdown
    assert "# Make an array" in rest and "# 배열을 만듭니다" not in rest
    # A reST block without a flag was always translated (a MyST code block needs the
    # parser fix that the same switch turns off).
    assert "# 하나" in rest


@pytest.mark.parametrize("page", ["markdown", "rest"])
def test_flagged_console_blocks_show_the_translation(fixed, page):
    text = _text(fixed, page)
    assert "# 배열을 만듭니다" in text and "# Make an array" not in text
    assert "# 하나" in text
    assert "doctest:" not in text  # the flags are trimmed as before


def test_audit_finds_every_console_block_shown(fixed):
    result = audit.audit(fixed, fixed.parent / "locale", srcdir=fixed.parent / "docs")
    assert result.findings == []
    assert result.messages == 6  # two titles, four code blocks
