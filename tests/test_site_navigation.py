"""jaxko.site.ext.navigation: each page's sidebar navigation kept between builds while the
site's titles and toctrees hold (real Sphinx and sphinx-book-theme, a small project)."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

from conftest import write_newer
from jaxko.site.ext import speedups

# The shared toctree entries are a speedup: on versions it was not tested with it is off.
needs_speedups = pytest.mark.skipif(bool(speedups.untested()),
                                    reason="jaxko.site.ext.speedups is off on this toolchain")

CONF = '''
import sys
sys.path.insert(0, {tools!r})
extensions = {extensions!r}
html_theme = "sphinx_book_theme"
'''


def _page(src: Path, title: str, body: str) -> None:
    write_newer(src / "guide" / "page.rst", f"{title}\n{'=' * len(title)}\n\n{body}\n")


def _project(root: Path, extensions: list[str]) -> Path:
    src = root / "src"
    tools = str(Path(__file__).resolve().parents[1] / "tools")
    write_newer(src / "conf.py", CONF.format(tools=tools, extensions=extensions))
    write_newer(src / "index.rst", "Index\n=====\n\n.. toctree::\n\n   guide/index\n   other\n")
    write_newer(src / "guide" / "index.rst", "Guide\n=====\n\n.. toctree::\n\n   page\n")
    write_newer(src / "other.rst", "Other\n=====\n\nText.\n")
    _page(src, "Page", "The first text.")
    return src


def _build(root: Path, src: Path, *, kept: Path | None) -> None:
    options = ["-D", f"jaxko_nav_cache={kept}"] if kept else []
    assert build_main(["-q", "-b", "html", *options, "-d", str(root / "doctrees"), str(src),
                       str(root / "html")]) == 0


def _pages(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root / "html")) for p in (root / "html").rglob("*.html"))


def _same_pages(a: Path, b: Path) -> None:
    pages = _pages(a)
    assert pages == _pages(b)
    match, mismatch, errors = filecmp.cmpfiles(a / "html", b / "html", pages, shallow=False)
    assert (mismatch, errors) == ([], [])


def _twin_projects(tmp_path: Path):
    """The same project twice: the theme's own navigation, and jaxko's kept one."""
    plain_root, kept_root = tmp_path / "plain", tmp_path / "kept"
    plain, kept = _project(plain_root, []), _project(kept_root, ["jaxko.site.ext.navigation"])
    folder = tmp_path / "nav"
    _build(plain_root, plain, kept=None)
    _build(kept_root, kept, kept=folder)
    return (plain_root, plain), (kept_root, kept), folder


def test_pages_are_the_themes_byte_for_byte_and_the_navigation_is_kept(tmp_path):
    (plain_root, _), (kept_root, _), folder = _twin_projects(tmp_path)
    _same_pages(plain_root, kept_root)
    [digest] = list(folder.iterdir())
    with_nav = [page for page in _pages(kept_root)
                if 'class="bd-links bd-docs-nav"' in (kept_root / "html" / page).read_text()]
    assert "other.html" in with_nav and "search.html" in with_nav
    assert len(list(digest.glob("*.html"))) == len(with_nav)  # one per page


def test_a_body_edit_reuses_the_kept_navigation(tmp_path):
    """A planted mark in every kept navigation shows on the rewritten page: it was
    taken from the folder, not rendered again."""
    _, (kept_root, kept), folder = _twin_projects(tmp_path)
    [digest] = list(folder.iterdir())
    for path in digest.glob("*.html"):
        path.write_text(path.read_text() + "<!--kept-->")
    _page(kept, "Page", "The edited text.")
    _build(kept_root, kept, kept=folder)
    html = (kept_root / "html" / "guide" / "page.html").read_text()
    assert "The edited text." in html and "<!--kept-->" in html
    assert list(folder.iterdir()) == [digest]


def test_a_new_title_renders_the_navigation_again(tmp_path):
    """Same edit in both twins: the pages written are the theme's, byte for byte, and
    the folder of the old structure is gone."""
    (plain_root, plain), (kept_root, kept), folder = _twin_projects(tmp_path)
    [old] = list(folder.iterdir())
    for path in old.glob("*.html"):
        path.write_text(path.read_text() + "<!--kept-->")
    for root, src, keep in ((plain_root, plain, None), (kept_root, kept, folder)):
        _page(src, "Renamed", "The first text.")
        _build(root, src, kept=keep)
    html = (kept_root / "html" / "guide" / "page.html").read_text()
    assert "Renamed" in html.split('class="bd-links bd-docs-nav"')[1]
    assert "<!--kept-->" not in html
    _same_pages(plain_root, kept_root)
    assert old not in list(folder.iterdir())


def test_without_a_folder_every_page_is_rendered(tmp_path):
    """``jaxko_nav_cache = ""`` (a plain sphinx-build): nothing kept, pages the theme's."""
    plain_root, off_root = tmp_path / "plain", tmp_path / "off"
    for root, extensions in ((plain_root, []), (off_root, ["jaxko.site.ext.navigation"])):
        _build(root, _project(root, extensions), kept=None)
    _same_pages(plain_root, off_root)


# A site whose navigation depends on the page in every way Sphinx knows: pages in
# folders (relative links), a title with markup, a caption, a hidden toctree, a link
# and a 'self' entry, a page with :tocdepth:, a toctree under ``only`` (a page's own
# navigation lists it, another's does not: Sphinx copies an ancestor's table of
# contents without evaluating ``only``), and a page without a title (a warning for
# every page whose navigation resolves the toctree that lists it: that toctree is
# resolved for each page, the other is kept).
SHARED_PAGES = {
    "index.rst": "Index\n=====\n\n.. toctree::\n   :caption: Guides\n\n   guide/index\n"
                 "   cond\n   https://example.org/\n\n"
                 ".. toctree::\n   :hidden:\n\n   deep\n   self\n   notitle\n",
    "guide/index.rst": "Guide\n=====\n\n.. toctree::\n\n   page\n   sub/leaf\n",
    "guide/page.rst": "The ``page`` page\n=================\n\nSection\n-------\n\nText.\n",
    "guide/sub/leaf.rst": ":tocdepth: 1\n\nLeaf\n====\n\nPart\n----\n\n.. toctree::\n\n   ../page\n",
    "cond.rst": "Cond\n====\n\n.. only:: latex\n\n   .. toctree::\n\n      latex_only\n",
    "latex_only.rst": "Latex only\n==========\n\nText.\n",
    "notitle.rst": "Only text.\n",
    "deep.rst": "Deep\n====\n\nOne\n---\n\nTwo\n~~~\n\nThree\n^^^^^\n\nText.\n",
}


def _shared_project(root: Path, shared: bool) -> Path:
    src = root / "src"
    tools = str(Path(__file__).resolve().parents[1] / "tools")
    write_newer(src / "conf.py", CONF.format(
        tools=tools, extensions=["jaxko.site.ext.navigation", "jaxko.site.ext.speedups"])
        + f"jaxko_shared_toctree = {shared}\n")
    for name, text in SHARED_PAGES.items():
        write_newer(src / name, text)
    assert build_main(["-q", "-b", "html", "-d", str(root / "doctrees"), "-w",
                       str(root / "warnings.txt"), str(src), str(root / "html")]) == 0
    return root


def _warnings(root: Path) -> list[str]:
    return (root / "warnings.txt").read_text().replace(str(root), "ROOT").splitlines()


def _navigation(root: Path, page: str) -> str:
    html = (root / "html" / page).read_text()
    return html.split('class="bd-links bd-docs-nav"')[1].split("</nav>")[0]


def test_toctrees_resolved_once_give_sphinxs_pages_and_warnings(tmp_path):
    plain, shared = _shared_project(tmp_path / "plain", False), _shared_project(tmp_path / "shared", True)
    _same_pages(plain, shared)
    assert _warnings(shared) == _warnings(plain)
    assert sum("notitle" in w for w in _warnings(shared)) >= len(SHARED_PAGES)
    # What the site tests: ``only`` reaches the navigation of the page itself...
    assert "latex_only.html" in _navigation(shared, "cond.html")
    assert "latex_only.html" not in _navigation(shared, "deep.html")
    # ... and a page in a folder links to the others relatively.
    assert 'href="../../cond.html"' in _navigation(shared, "guide/sub/leaf.html")


@needs_speedups
def test_without_the_ancestors_that_matter_a_page_differs(tmp_path, monkeypatch):
    """Planted: every table of contents taken as copied alike (no ancestor keys the
    kept entries), and the pages are no longer Sphinx's."""
    from jaxko.site.ext import speedups

    plain = _shared_project(tmp_path / "plain", False)
    monkeypatch.setattr(speedups, "_copies_alike", lambda toc: True)
    shared = _shared_project(tmp_path / "shared", True)
    match, mismatch, errors = filecmp.cmpfiles(plain / "html", shared / "html", _pages(plain),
                                               shallow=False)
    assert mismatch


@needs_speedups
def test_entries_that_warned_are_resolved_for_each_page(tmp_path, monkeypatch):
    """Planted: warnings go unseen, the entries that warned are kept, and the pages
    after the first no longer warn as Sphinx's do."""
    import contextlib

    from jaxko.site.ext import speedups

    plain = _shared_project(tmp_path / "plain", False)
    monkeypatch.setattr(speedups, "_warnings_seen", lambda: contextlib.nullcontext([]))
    shared = _shared_project(tmp_path / "shared", True)
    assert len(_warnings(shared)) < len(_warnings(plain))
