"""Progress of a quiet (``-q``) Sphinx build, for ``jaxko site build`` to show.

With ``$JAXKO_PROGRESS_FILE`` set, one line is appended per event: ``read N`` once
(the documents to read), ``doc DOCNAME`` per document read, ``page PAGENAME`` per HTML
page written. The parent process polls the file (:class:`jaxko.site.build.Progress`).
"""

from __future__ import annotations

import os


def _append(line: str) -> None:
    path = os.environ.get("JAXKO_PROGRESS_FILE")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


def _before_read(app, env, docnames) -> None:
    _append(f"read {len(docnames)}")


def _doctree_read(app, doctree) -> None:
    _append(f"doc {app.env.docname}")


def _page(app, pagename, templatename, context, doctree) -> None:
    _append(f"page {pagename}")


def setup(app):
    if os.environ.get("JAXKO_PROGRESS_FILE"):
        app.connect("env-before-read-docs", _before_read)
        app.connect("doctree-read", _doctree_read)
        app.connect("html-page-context", _page)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
