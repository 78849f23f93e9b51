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
    if app.builder.format != "html":
        return
    app.add_css_file(STYLESHEET)
    static = Path(app.outdir) / "_static"
    if static.is_file():
        # Left by an earlier failed build (see _static_folder): remove, or every page
        # fails to render with NotADirectoryError.
        static.unlink()


def _static_folder(app, exception) -> None:
    """Make sure ``_static`` is a folder before pydata-sphinx-theme copies the logo.

    The theme copies logo images into ``<outdir>/_static`` at build-finished, even when
    the build failed before Sphinx created that folder (a notebook that failed to
    execute): the logo is then written as a *file* named ``_static``, and the next
    build breaks on it. Connected with a priority that runs before the theme's handler.
    """
    if app.builder.format == "html":
        static = Path(app.outdir) / "_static"
        if not static.is_file():
            static.mkdir(parents=True, exist_ok=True)


def _copy_stylesheet(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        copy_asset_file(STATIC / STYLESHEET, Path(app.outdir) / "_static" / STYLESHEET,
                        force=True)


def setup(app):
    app.connect("builder-inited", _builder_inited)
    app.connect("build-finished", _static_folder, priority=100)
    app.connect("build-finished", _copy_stylesheet)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
