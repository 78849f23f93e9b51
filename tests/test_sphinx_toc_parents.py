"""The speedups' spared parents (jaxko.site.ext.speedups, ``jaxko_spare_toc_parents``):
a page listing a page read again is written again only when what it shows of that page
changed (real Sphinx, a small fixture project)."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

from conftest import write_newer
from jaxko.site.ext import speedups

# Off on a toolchain the speedups were not tested with: Sphinx's own writes, nothing to test.
pytestmark = pytest.mark.skipif(bool(speedups.untested()),
                                reason="jaxko.site.ext.speedups is off on this toolchain")
SPEEDUPS = "jaxko.site.ext.speedups"

CONF = '''
import sys
sys.path.insert(0, {tools!r})
extensions = [{SPEEDUPS!r}]
jaxko_spare_toc_parents = {spare!r}
'''

PAGE = "{title}\n{rule}\n\n{body}\n\nA section\n---------\n\nMore text.\n"


def _page(path: Path, title: str, body: str) -> None:
    write_newer(path, PAGE.format(title=title, rule="=" * (2 * len(title)), body=body))


def _project(root: Path, spare: bool) -> Path:
    src = root / "src"
    src.mkdir(parents=True)
    tools = str(Path(__file__).resolve().parents[1] / "tools")
    write_newer(src / "conf.py", CONF.format(tools=tools, SPEEDUPS=SPEEDUPS, spare=spare))
    write_newer(src / "index.rst",
                "Index\n=====\n\n.. toctree::\n   :maxdepth: 2\n\n   guide/index\n")
    (src / "guide").mkdir()
    write_newer(src / "guide" / "index.rst",
                "Guide\n=====\n\n.. toctree::\n   :maxdepth: 2\n\n   page\n   other\n")
    _page(src / "guide" / "page.rst", "Page", "The first text.")
    _page(src / "guide" / "other.rst", "Other", "Other text.")
    return src


def _build(root: Path, src: Path, out: str = "html") -> dict[str, int]:
    """One incremental build; each page's mtime afterwards."""
    assert build_main(["-q", "-b", "html", "-d", str(root / f"doctrees-{out}"), str(src),
                       str(root / out)]) == 0
    return {str(p.relative_to(root / out)): p.stat().st_mtime_ns
            for p in (root / out).rglob("*.html")}


def _written(before: dict[str, int], after: dict[str, int]) -> set[str]:
    return {page for page, mtime in after.items() if before.get(page) != mtime}


def _same_as_fresh_build(root: Path, src: Path) -> None:
    """Every page of the incremental build is byte for byte a fresh build's."""
    fresh = root / "fresh"
    _build(root, src, "fresh")
    pages = sorted(str(p.relative_to(fresh)) for p in fresh.rglob("*.html"))
    match, mismatch, errors = filecmp.cmpfiles(root / "html", fresh, pages, shallow=False)
    assert (mismatch, errors) == ([], [])


@pytest.mark.parametrize("spare, parents_written", [
    (False, True),  # Sphinx's own list, so the test can fail
    (True, False),
])
def test_a_body_edit_writes_the_parents_again_only_without_the_shim(
        tmp_path, spare, parents_written):
    src = _project(tmp_path, spare)
    first = _build(tmp_path, src)
    _page(src / "guide" / "page.rst", "Page", "The edited text.")
    written = _written(first, _build(tmp_path, src))
    parents = {"guide/index.html"}
    assert "guide/page.html" in written
    assert (parents <= written) is parents_written
    assert "The edited text." in (tmp_path / "html" / "guide" / "page.html").read_text()
    if not parents_written:
        _same_as_fresh_build(tmp_path, src)


def _edit(src: Path, change: str) -> None:
    page = src / "guide" / "page.rst"
    if change == "title":
        _page(page, "Renamed", "The first text.")
    else:
        write_newer(page, page.read_text().replace("A section\n", "A renamed section\n"))


@pytest.mark.parametrize("change", ["title", "section"])
def test_a_new_title_or_section_is_written_as_plain_sphinx_writes_it(tmp_path, change):
    """The same pages written, byte for byte, as without the shim (Sphinx itself
    leaves the grandparent's nested list and the neighbour's "next" link stale)."""
    written, html = {}, {}
    for name, spare in (("plain", False), ("ext", True)):
        root = tmp_path / name
        src = _project(root, spare)
        first = _build(root, src)
        _edit(src, change)
        written[name] = _written(first, _build(root, src))
        html[name] = {page: (root / "html" / page).read_bytes() for page in written[name]}
    assert "guide/index.html" in written["ext"]
    shown = {"title": "Renamed", "section": "A renamed section"}[change]
    assert shown in html["ext"]["guide/index.html"].decode()
    assert written["ext"] == written["plain"]
    assert html["ext"] == html["plain"]


def test_the_next_build_still_knows_the_parents(tmp_path):
    """Sparing the parents once does not lose them: a later title edit reaches them."""
    src = _project(tmp_path, True)
    _build(tmp_path, src)
    _page(src / "guide" / "page.rst", "Page", "The edited text.")
    second = _build(tmp_path, src)
    _page(src / "guide" / "page.rst", "Renamed", "The edited text.")
    written = _written(second, _build(tmp_path, src))
    assert "guide/index.html" in written
    assert "Renamed" in (tmp_path / "html" / "guide" / "index.html").read_text()
