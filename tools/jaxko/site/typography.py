"""Korean typography: the site's stylesheet (font stack, keep-all line breaking).

Sphinx already writes ``<html lang="ko">`` from ``language``; the stylesheet keys
everything on it, so an English build of the same sources is unaffected. The file is
copied into ``_static`` when the build finishes, rather than by adding our folder to
``html_static_path``: changing a config value in an extension makes Sphinx report a
changed configuration on every incremental build.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.util.fileutil import copy_asset_file

STATIC = Path(__file__).parent / "static"
STYLESHEET = "jaxko-site.css"


def _builder_inited(app) -> None:
    if app.builder.format == "html":
        app.add_css_file(STYLESHEET)


def _copy_stylesheet(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        copy_asset_file(STATIC / STYLESHEET, Path(app.outdir) / "_static" / STYLESHEET,
                        force=True)


def setup(app):
    app.connect("builder-inited", _builder_inited)
    app.connect("build-finished", _copy_stylesheet)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
