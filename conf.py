"""Sphinx configuration of the Korean JAX docs.

Used as ``sphinx-build -c . _build/upstream/docs OUT``: the sources are the pinned
upstream docs staged by ``jaxko upstream sync``; this file mirrors upstream's
configuration, and ``tools/jaxko/sphinxext`` reimplements upstream's local extensions.

Environment switches (set by ``jaxko``; defaults suit a plain sphinx-build):

* ``JAXKO_SCOPE``: ``narrative`` (default) or ``full`` (adds the ~1,600 autosummary
  API pages generated from docstrings: ~24,000 more messages, ten times the build time).
* ``JAXKO_EXECUTE``: ``off`` (default; gettext never executes), ``cache`` (MyST-NB
  executes notebooks once and caches the outputs under ``_build``: the English build)
  or ``korean`` (the Korean site: MyST-NB executes nothing; notebook pages show the
  outputs of the Korean notebooks ``jaxko notebooks verify`` ran, see
  ``jaxko.site.ext.korean_outputs``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tools"))

from jaxko import scope  # noqa: E402

SCOPE = os.environ.get("JAXKO_SCOPE", "narrative")
EXECUTE = os.environ.get("JAXKO_EXECUTE", "off")

# -- Project -----------------------------------------------------------------------
project = "JAX"
author = "The JAX authors"
copyright = "2024, The JAX Authors. NumPy and SciPy documentation are copyright the respective authors"
version = ""
release = ""

# -- Extensions (upstream's list; local ones reimplemented in jaxko.sphinxext) -------
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx.ext.napoleon",
    "myst_nb",
    "sphinx_remove_toctrees",
    "sphinx_copybutton",
    "sphinx_design",
    "sphinxext.rediraffe",
    "sphinxcontrib.mermaid",
    "jaxko.sphinxext.jax_roles",
    "jaxko.sphinxext.config_options",
    "jaxko.sphinxext.tagged_block",
    "jaxko.sphinxext.strict_include",
    "jaxko.sphinxext.missing_deps",  # a missing included file does not re-read its page each build
    "jaxko.sphinxext.gettext_filters",
    "jaxko.sphinxext.notebook_defaults",
    "jaxko.sphinxext.api_links",
    # The Korean site: i18n fixes, banner, search, glossary/progress pages (jaxko/site/ext).
    "jaxko.site.ext",
    "jaxko.site.ext.speedups",  # build speed only; off (with a warning) on untested versions
    "jaxko.site.ext.korean_outputs",
    "jaxko.sphinxext.build_progress",
    "jaxko.sphinxext.offline_math",  # MathJax from PyPI (sphinx-mathjax-offline), no CDN
    "jaxko.sphinxext.offline_mermaid",  # mermaid from the npm registry (make setup), no CDN
]
if SCOPE == "full":
    extensions.append("sphinx.ext.viewcode")

# The build never needs network: no inventories are fetched. Cross-references to
# Python/NumPy/SciPy objects render as plain code, as in any offline build.
intersphinx_mapping: dict = {}

templates_path: list[str] = []

# .ipynb before .md: for jupytext pairs the .ipynb (with stored outputs) is read.
source_suffix = {".rst": "restructuredtext", ".ipynb": "myst-nb", ".md": "myst-nb"}
main_doc = "index"
language = "en"

_SRCDIR = Path(os.environ.get("JAXKO_SRCDIR", ROOT / "_build" / "upstream" / "docs"))

# matplotlib's `plot` directive, on upstream's list, loads only where a source uses it:
# no staged page does, and importing matplotlib is a fixed cost of every build. A page
# that starts using it loads it again (a missed use would be an "Unknown directive type"
# error, which `jaxko site build --strict` stops on).
def _uses_plot(data: bytes) -> bool:
    return b"plot::" in data or b"{plot}" in data  # reST `.. plot::`, MyST ```{plot}


if SCOPE == "full" or any(_uses_plot(path.read_bytes()) for path in _SRCDIR.rglob("*")
                          if path.suffix in (".rst", ".md", ".ipynb", ".txt", ".inc")
                          and path.is_file()):
    extensions.append("matplotlib.sphinxext.plot_directive")

exclude_patterns = [*scope.ALWAYS_EXCLUDED, *scope.notebook_twins(_SRCDIR)]
# The API reference: hand-written jax*.rst pages whose content is autodoc/autosummary.
API_PAGES = ["jax.rst", "jax.*.rst"]
if SCOPE != "full":
    exclude_patterns += ["_autosummary/**", *API_PAGES]
    jaxko_api_pages = API_PAGES  # references into them link to upstream (api_links)
jaxko_upstream_docs_url = "https://docs.jax.dev/en/latest/"

pygments_style = None
suppress_warnings = [
    "ref.citation",  # duplicated citations in NumPy/SciPy docstrings (upstream suppresses too)
    "ref.footnote",  # unreferenced footnotes in NumPy/SciPy docstrings
    "misc.highlighting_failure",  # shell transcripts in code-blocks marked python
    # Accepted upstream content issues (see docs/build-warnings.md):
    "myst.header",  # 21 skipped heading levels in upstream pages; renders fine
    "toc.excluded",  # narrative scope: index/toctrees list the excluded API pages
    "myst-nb.lexer",  # cause handled: jaxko.sphinxext.notebook_defaults sets ipython3
]

# -- Autodoc / autosummary -----------------------------------------------------------
autosummary_generate = SCOPE == "full"
napoleon_use_rtype = False
autodoc_typehints = "none"

# -- Internationalisation ------------------------------------------------------------
locale_dirs = [str(ROOT / "locale")]
gettext_compact = False
gettext_uuid = False
gettext_location = True
gettext_last_translator = "jax-docs-ko"
gettext_language_team = "jax-docs-ko"
# Code blocks and notebook code cells become messages, so comments and strings in
# code can be translated (stored outputs are filtered out by gettext_filters).
gettext_additional_targets = ["literal-block"]

# -- MyST / MyST-NB ------------------------------------------------------------------
myst_heading_anchors = 3
# As upstream: only dollarmath. amsmath would let an unclosed $\begin{...} in
# complex-differentiation.md swallow the code cells after it; deflist would turn the
# ":"-ruled table of pallas/tpu/sparsecore.md into a definition list.
myst_enable_extensions = ["dollarmath"]
myst_footnote_transition = False
nb_execution_mode = "cache" if EXECUTE == "cache" else "off"
nb_execution_cache_path = str(ROOT / "_build" / "jupyter_cache")
nb_execution_allow_errors = False
nb_execution_raise_on_error = True
nb_execution_timeout = 600
nb_execution_excludepatterns = scope.myst_nb_execution_excludes()
# A notebook whose support files (scope.SUPPORT_FILES, e.g. ffi/) the staged tree lacks
# cannot run; it keeps its stored outputs, as `jaxko notebooks verify` skips it.
nb_execution_excludepatterns += [
    pattern for pattern, needed in scope.SUPPORT_FILES
    if not all((_SRCDIR / Path(pattern).parent / name).exists() for name in needed)]
nb_merge_streams = True
nb_mime_priority_overrides: list = []

# -- HTML ----------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "JAX 문서"
html_theme_options = {
    "show_toc_level": 2,
    "repository_url": "https://github.com/jax-ml/jax",
    "use_repository_button": True,
    "navigation_with_keys": False,
    "logo": {"image_light": "_static/jax_logo_250px.png", "image_dark": "_static/jax_logo_250px.png"},
}
# pydata-sphinx-theme reads the colour mode from the template context; without one its
# script logs "Got invalid theme mode: . Resetting to auto." on every page.
html_context = {"default_mode": "auto"}
html_favicon = str(_SRCDIR / "_static" / "favicon.png") if (_SRCDIR / "_static" / "favicon.png").exists() else None
html_static_path = [str(_SRCDIR / "_static")] if (_SRCDIR / "_static").is_dir() else []
html_last_updated_fmt = None
htmlhelp_basename = "JAXdoc"

# Remove auto-generated API docs from sidebars (they take too long to build).
remove_from_toctrees = ["_autosummary/*"]

# Redirects of pages upstream moved (only targets that exist in this release).
rediraffe_redirects: dict[str, str] = {}
_REDIRECTS = {
    "jax-101/index.rst": "jax-101.rst",
    "jax-101/01-jax-basics.md": "key-concepts.md",
    "jax-101/02-jitting.md": "jit-compilation.md",
    "jax-101/03-vectorization.md": "automatic-vectorization.md",
    "jax-101/04-advanced-autodiff.md": "automatic-differentiation.md",
    "jax-101/05-random-numbers.md": "random-numbers.md",
    "jax-101/05.1-pytrees.md": "pytrees.md",
    "jax-101/07-state.md": "stateful-computations.md",
    "notebooks/external_callbacks.md": "external-callbacks.md",
    "notebooks/How_JAX_primitives_work.md": "jax-primitives.md",
}
for _old, _new in _REDIRECTS.items():
    _target = _SRCDIR / _new
    if _target.exists() or _target.with_suffix(".ipynb").exists():
        rediraffe_redirects[_old] = _new

mermaid_output_format = "raw"
