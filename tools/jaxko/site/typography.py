"""Korean typography: the site's stylesheet (font stack, keep-all line breaking).

Sphinx already writes ``<html lang="ko">`` from ``language``; the stylesheet keys
everything on it, so an English build of the same sources is unaffected.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).parent / "static"
STYLESHEET = "jaxko-site.css"


def _builder_inited(app) -> None:
    if app.builder.format != "html":
        return
    if str(STATIC) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC))
    app.add_css_file(STYLESHEET)


def setup(app):
    app.connect("builder-inited", _builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
