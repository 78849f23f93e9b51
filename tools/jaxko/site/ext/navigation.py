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

Where nothing is kept (a first build, or a build after the structure changed), Sphinx
resolves the root document's toctrees for each page; :mod:`jaxko.site.ext.speedups` does
that once per build where the versions it was tested with are installed.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import weakref
from pathlib import Path

from jaxko.catalogs import write_text_atomic
from jaxko.errors import UserError
from jaxko.memo import code_digest

TEMPLATES = Path(__file__).resolve().parent / "templates"
# Each build's (each Sphinx application's) folder of kept navigation, once writing
# starts; kept here, not on Sphinx's objects (forked writers see their parent's).
_FOLDERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


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
        _FOLDERS[app] = None  # not an HTML build, or nothing kept
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
    _FOLDERS[app] = folder


def _key(pagename: str, kwargs: dict) -> str:
    return hashlib.sha256(json.dumps([pagename, sorted(kwargs.items())]).encode()).hexdigest()


def _install(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    folder = _FOLDERS.get(app)

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


def _templates_first(app, config) -> None:
    # A new list: the default one is shared by every Sphinx application in the process.
    config.templates_path = [str(TEMPLATES), *config.templates_path]


def setup(app):
    # "" renders every page's navigation (a plain sphinx-build; jaxko site build keeps it).
    app.add_config_value("jaxko_nav_cache", "", "", types=[str])
    app.connect("config-inited", _templates_first)
    app.connect("write-started", _open_folder)
    app.connect("html-page-context", _install, priority=400)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
