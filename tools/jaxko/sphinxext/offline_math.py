"""Math renders offline: MathJax from a Python package, not from a CDN.

``sphinx.ext.mathjax`` points every page with math at jsDelivr. The PyPI package
``sphinx-mathjax-offline`` ships MathJax 3 (its ``static/mathjax``); this extension
copies from it only what the TeX-to-CommonHTML component loads (``tex-chtml.js``
and its fonts) into ``_static/mathjax/`` and points ``mathjax_path`` there. Unchanged
files are not copied again on a rebuild.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from sphinx.errors import ExtensionError

PACKAGE = "sphinx-mathjax-offline"  # the import name has dashes, as the package ships it
COMPONENT = "tex-chtml.js"
FONTS = Path("output") / "chtml" / "fonts" / "woff-v2"


def mathjax_dir() -> Path:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise ExtensionError(f"{PACKAGE} is not installed; run `make setup` "
                             "(pip install sphinx-mathjax-offline)")
    return Path(spec.origin).parent / "static" / "mathjax"


def copy_if_changed(source: Path, dest: Path) -> None:
    """Copy a vendored static file unless ``dest`` already has it (same size: these are
    versioned release files, so a rebuild copies nothing)."""
    if dest.is_file() and dest.stat().st_size == source.stat().st_size:
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, dest)


def copy_mathjax(app, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    source = mathjax_dir()
    dest = Path(app.outdir) / "_static" / "mathjax"
    copy_if_changed(source / COMPONENT, dest / COMPONENT)
    for font in sorted((source / FONTS).glob("*.woff")):
        copy_if_changed(font, dest / FONTS / font.name)


def setup(app):
    app.setup_extension("sphinx.ext.mathjax")
    mathjax_dir()  # fail early, with one line, when the package is missing
    app.config.mathjax_path = f"mathjax/{COMPONENT}"
    app.connect("build-finished", copy_mathjax)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
