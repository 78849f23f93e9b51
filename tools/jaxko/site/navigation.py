"""Each page's sidebar navigation, kept between builds while the site's structure holds.

sphinx-book-theme's sidebar lists every page of the site (156 titles, about half of a
page's HTML). For each page it writes, pydata-sphinx-theme's ``generate_toctree_html``
resolves Sphinx's global toctree, renders it, and reworks the HTML with BeautifulSoup:
most of the time a page takes to write. A rebuild after a msgstr edit writes a handful
of pages whose navigation is the same as last time.

What the navigation of a page shows depends on the page (its "current" marks and
relative links), the template's arguments, and the site's structure: every page's
title and table of contents (which carries its toctrees), section numbers, the
configuration, and the versions of Sphinx, the themes and this package. The rendered
HTML is kept per page and arguments in a folder named after a digest of that structure
(``jaxko_nav_cache``, in the build's state: :mod:`jaxko.site.state`, which no checkout
may supply). A changed title, toctree or setting gives another digest: every page's
navigation is rendered again, and the folders of other digests are removed.

The theme's template calls ``generate_toctree_html``; ``templates/sbt-sidebar-nav.html``
is the theme's template calling :func:`jaxko_navigation` instead, which renders through
the theme's function and keeps the result. ``jaxko_nav_cache = ""`` (a plain
sphinx-build) renders every time, as the theme does.

Where nothing is kept (a first build, or a build after the structure changed), most of
that time is Sphinx's, not the theme's: for each page, ``global_toctree_for_doc``
resolves every toctree of the root document, copying the table of contents of every
page it lists (each section of each page) to keep only their titles. What it resolves
depends on the page only through the page's ancestors, and through them only for a
page whose table of contents holds an ``only`` node (or another node
``_toctree_copy`` does not expect), which Sphinx deep-copies unfiltered for an
ancestor; the "current" marks and relative links are added after. :class:`SharedEntries`
resolves each toctree's entries once per build (per ancestors that can matter) and
gives each page a deep copy, on which Sphinx then adds that page's marks and links
as before. The pages are byte for byte the same (``jaxko_shared_toctree = False`` is
Sphinx's own way; the tests compare whole sites). Entries whose resolution warned are
not kept, so each page warns as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import shutil
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.environment.adapters import toctree as toctree_adapters

from jaxko.catalogs import write_text_atomic
from jaxko.errors import UserError
from jaxko.memo import code_digest

TEMPLATES = Path(__file__).resolve().parent / "templates"
_FOLDER = "_jaxko_nav_folder"


def structure_digest(app) -> str:
    """What every page's navigation is rendered from (the module's text)."""
    import pydata_sphinx_theme
    import sphinx
    import sphinx_book_theme

    env = app.env
    digest = hashlib.sha256()

    def add(text: str) -> None:
        digest.update(text.encode("utf-8") + b"\0")

    build_info = app.builder.build_info
    for part in (sphinx.__version__, pydata_sphinx_theme.__version__,
                 sphinx_book_theme.__version__, code_digest(), build_info.config_hash,
                 build_info.tags_hash, app.config.root_doc):
        add(str(part))
    for doc in sorted(env.found_docs):
        add(doc)
        for node in (env.titles.get(doc), env.tocs.get(doc)):
            add(node.pformat() if node is not None else "")
        add(repr((env.toc_secnumbers.get(doc), env.toc_fignumbers.get(doc))))
    return digest.hexdigest()


def _open_folder(app, builder) -> None:
    """Writing starts (the structure is final): this build's folder; others go."""
    root = app.config.jaxko_nav_cache
    if not root or getattr(builder, "build_info", None) is None:
        setattr(app, _FOLDER, None)  # not an HTML build, or nothing kept
        return
    root = Path(root)
    folder = root / structure_digest(app)
    if root.is_dir():
        for other in root.iterdir():
            if other == folder:
                continue
            if other.is_dir():
                shutil.rmtree(other, ignore_errors=True)
            else:
                other.unlink(missing_ok=True)
    setattr(app, _FOLDER, folder)


def _key(pagename: str, kwargs: dict) -> str:
    return hashlib.sha256(json.dumps([pagename, sorted(kwargs.items())]).encode()).hexdigest()


def _install(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    folder = getattr(app, _FOLDER, None)

    def jaxko_navigation(**kwargs) -> str:
        # The theme's function, looked up at call time: the theme adds it to the
        # context after this handler (html-page-context, priority 500).
        render = context["generate_toctree_html"]
        if folder is None:
            return str(render(**kwargs))
        kept = folder / f"{_key(pagename, kwargs)}.html"
        try:
            return kept.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass
        html = str(render(**kwargs))
        try:
            write_text_atomic(kept, html)
        except (UserError, OSError):
            pass  # a folder that cannot be written costs speed, not the page
        return html

    context["jaxko_navigation"] = jaxko_navigation


# ``_toctree_copy`` walks these, copies references, titles and toctrees as ``deepcopy``
# does, and treats any other node (``only``, above all) otherwise.
_TOC_BRANCHES = (nodes.bullet_list, nodes.list_item, addnodes.compact_paragraph)
_TOC_LEAVES = (nodes.reference, nodes.title, addnodes.toctree)


def _copies_alike(node: nodes.Element) -> bool:
    """Whether ``_toctree_copy`` of this table of contents is what ``deepcopy`` gives."""
    for child in node.children:
        if isinstance(child, _TOC_BRANCHES):
            if not _copies_alike(child):
                return False
        elif not isinstance(child, _TOC_LEAVES):
            return False
    return True


_SHARED = "_jaxko_shared_toctree"
# Sphinx's own (this module, imported again, must not take its own wrapper for it).
_SPHINX_ENTRIES = getattr(toctree_adapters._entries_from_toctree, "jaxko_wraps",
                          toctree_adapters._entries_from_toctree)


class SharedEntries:
    """The resolved entries of each toctree, for one build's writing (module docstring).

    Kept under a key of the toctree's attributes, the resolution's switches and those
    of the page's ancestors whose copy differs (:attr:`sensitive`); only for
    ``collapse=False`` (with collapse, an ancestor's subtree is kept and another's is
    not) and for the top of a toctree, as ``_resolve_toctree`` asks."""

    def __init__(self, env) -> None:
        self.sensitive = frozenset(
            doc for doc, toc in env.tocs.items()
            if env.metadata.get(doc, {}).get("tocdepth", 0) <= 0 and not _copies_alike(toc))
        self.kept: dict[tuple, nodes.Element] = {}

    def entries(self, env, prune, titles_only, collapse, includehidden, tags,
                toctree_ancestors, included, excluded, toctreenode, parents,
                subtree=False):
        args = (env, prune, titles_only, collapse, includehidden, tags, toctree_ancestors,
                included, excluded, toctreenode, parents)
        if collapse or subtree or parents:
            return _SPHINX_ENTRIES(*args, subtree=subtree)
        key = (tuple(sorted((name, repr(value)) for name, value in toctreenode.attributes.items())),
               prune, titles_only, includehidden, self.sensitive & frozenset(toctree_ancestors))
        kept = self.kept.get(key)
        if kept is None:
            with _warnings_seen() as seen:
                resolved = _SPHINX_ENTRIES(*args)
            if seen or len(resolved) != 1:
                return resolved  # each page warns again, as without this
            kept = self.kept[key] = resolved[0].deepcopy()
        return [kept.deepcopy()]


@contextlib.contextmanager
def _warnings_seen():
    """Whether Sphinx's toctree code warned in the block. Its logger is asked at the call:
    while writing, Sphinx holds warnings back and counts them only at the end."""
    seen: list[logging.LogRecord] = []

    def note(record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            seen.append(record)
        return True

    logger = toctree_adapters.logger.logger
    logger.addFilter(note)
    try:
        yield seen
    finally:
        logger.removeFilter(note)


def _entries_from_toctree(env, *args, **kwargs):
    """Sphinx's ``_entries_from_toctree``, through this build's :class:`SharedEntries`
    while one is writing."""
    shared = getattr(env, _SHARED, None)
    if shared is None:
        return _SPHINX_ENTRIES(env, *args, **kwargs)
    return shared.entries(env, *args, **kwargs)


_entries_from_toctree.jaxko_wraps = _SPHINX_ENTRIES


def _share_entries(app, builder) -> None:
    """Writing starts: the tables of contents are final."""
    setattr(app.env, _SHARED, SharedEntries(app.env) if app.config.jaxko_shared_toctree else None)


def _stop_sharing(app, exc) -> None:
    if hasattr(app.env, _SHARED):
        delattr(app.env, _SHARED)


def _templates_first(app, config) -> None:
    # A new list: the default one is shared by every Sphinx application in the process.
    config.templates_path = [str(TEMPLATES), *config.templates_path]


def setup(app):
    # "" renders every page's navigation (a plain sphinx-build; jaxko site build keeps it).
    app.add_config_value("jaxko_nav_cache", "", "", types=[str])
    app.connect("config-inited", _templates_first)
    app.connect("write-started", _open_folder)
    app.connect("html-page-context", _install, priority=400)
    # False: Sphinx resolves every toctree anew for each page (the tests compare).
    app.add_config_value("jaxko_shared_toctree", True, "", types=[bool])
    toctree_adapters._entries_from_toctree = _entries_from_toctree
    app.connect("write-started", _share_entries)
    app.connect("build-finished", _stop_sharing)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
