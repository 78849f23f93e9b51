"""Math renders offline: MathJax from a Python package, not from a CDN.

``sphinx.ext.mathjax`` points every page with math at jsDelivr. The PyPI package
``sphinx-mathjax-offline`` ships MathJax 3 (its ``static/mathjax``); this extension
copies from it only what the TeX-to-CommonHTML component loads (``tex-chtml.js``,
its fonts, the TeX extensions its macros autoload, such as ``html`` for ``\\href``,
and the ``ui/safe`` extension) into ``_static/mathjax/`` and points ``mathjax_path``
there. Unchanged files are not copied again on a rebuild.

MathJax runs in safe mode (:data:`SAFE_CONFIG`, merged into ``mathjax3_config``): a
formula's links may only be http, https or mailto, and ``style``, ``class`` and ``id``
from a formula (``\\style``, ``\\class``, ``\\cssId``, ``\\mmlToken[style=…]``) are
dropped, so no formula can cover the page or dress itself as the page's own parts.
With every extension served locally, a formula using one (``\\href``) no longer stops
every formula of its page from rendering (a 404 of the extension did).
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from sphinx.errors import ExtensionError

PACKAGE = "sphinx-mathjax-offline"  # the import name has dashes, as the package ships it
COMPONENT = "tex-chtml.js"
FONTS = Path("output") / "chtml" / "fonts" / "woff-v2"
TEX_EXTENSIONS = Path("input") / "tex" / "extensions"
SAFE = Path("ui") / "safe.js"

# MathJax 3's safe extension: what a formula may put into the page.
SAFE_CONFIG = {
    "loader": {"load": ["ui/safe"]},
    "options": {"safeOptions": {
        "allow": {"URLs": "safe", "classes": "none", "cssIDs": "none", "styles": "none"},
        "safeProtocols": {"http": True, "https": True, "mailto": True, "file": False,
                          "javascript": False, "data": False},
    }},
}


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
    copy_if_changed(source / SAFE, dest / SAFE)
    for font in sorted((source / FONTS).glob("*.woff")):
        copy_if_changed(font, dest / FONTS / font.name)
    for extension in sorted((source / TEX_EXTENSIONS).glob("*.js")):
        copy_if_changed(extension, dest / TEX_EXTENSIONS / extension.name)


def safe_config(config: dict | None) -> dict:
    """``config`` (a project's ``mathjax3_config``) with safe mode in force: the project
    may add settings, never loosen :data:`SAFE_CONFIG`'s."""
    merged = dict(config or {})
    loader = dict(merged.get("loader") or {})
    loader["load"] = [*(loader.get("load") or []),
                      *(x for x in SAFE_CONFIG["loader"]["load"] if x not in (loader.get("load") or []))]
    merged["loader"] = loader
    options = dict(merged.get("options") or {})
    options["safeOptions"] = {**(options.get("safeOptions") or {}),
                              **SAFE_CONFIG["options"]["safeOptions"]}
    merged["options"] = options
    return merged


def _safe_mode(app, config) -> None:
    config.mathjax3_config = safe_config(config.mathjax3_config)


def setup(app):
    app.setup_extension("sphinx.ext.mathjax")
    mathjax_dir()  # fail early, with one line, when the package is missing
    app.config.mathjax_path = f"mathjax/{COMPONENT}"
    app.connect("config-inited", _safe_mode)
    app.connect("build-finished", copy_mathjax)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
