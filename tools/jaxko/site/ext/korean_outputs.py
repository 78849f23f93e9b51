"""Notebook pages show what the *Korean* notebook printed when it ran.

MyST-NB executes (or takes from its cache) the page's own source, the English upstream
notebook, before Sphinx's i18n step translates the code: a cell ``print("첫 번째
호출:", ...)`` would show ``First call: 4.0``. The Korean notebooks are executed once,
by ``jaxko notebooks verify`` (with its cache keyed on their code), which leaves each
executed notebook in ``_build/notebooks/executed/<doc>.ipynb``. With
``jaxko_executed_notebooks_dir`` set (``jaxko site build`` does, and turns MyST-NB's
own execution off), the page's notebook is read as MyST-NB reads it, each code cell
takes the outputs of the same cell (by position) of the executed Korean notebook, and
MyST-NB renders the result as it renders stored outputs. Nothing runs twice.

The executed notebook must match the Korean notebook offered for download
(``jaxko_notebooks_dir``) cell for cell, code included; a stale or mismatched one is
a warning (a note in a build that executes nothing: the run is due, not wrong) and
the page keeps its stored outputs. Notebooks upstream does not execute
have no executed Korean copy and keep upstream's stored outputs.

The executed notebook is the page's dependency whether it exists, is used or not: a
build that executes nothing (``jaxko site watch``) has the same settings as one that
does, so a page read before its notebook ran (or ran again) is read again once it did.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import nbformat
from docutils import nodes
from myst_nb.core.read import create_nb_reader
from sphinx.util import logging

from jaxko.site.ext.i18n import TranslatedMessageParser, is_translated_fragment
from jaxko.notebooks.build import code_cells, stale
from jaxko.site.ext import speedups
from jaxko.site.ext.gate import clean_html

logger = logging.getLogger(__name__)
# The environment's set of pages that show stored outputs although their notebook has a
# Korean run: a run of other code (its translation changed since), so one is due. The
# page's banner says so (jaxko.site.ext.status).
DUE_RUNS = "jaxko_due_runs"


def _due(env) -> set[str]:
    if not hasattr(env, DUE_RUNS):
        setattr(env, DUE_RUNS, set())
    return getattr(env, DUE_RUNS)


# Output types a page would embed as active content: translated strings can flow into
# them (a header list joined into `display(HTML(...))`), so the Korean run's outputs
# keep none of them; `text/html` passes the site gate's sanitizer instead.
_ACTIVE_OUTPUTS = ("application/javascript", "text/javascript", "text/markdown",
                   "application/vnd.jupyter.widget-view+json")


def sanitize_output(output: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """An output of the Korean run as a page may show it: active types dropped (the
    plain-text form stays), HTML through the gate's allowlist sanitizer (nh3)."""

    data = output.get("data")
    if not isinstance(data, dict):
        return output
    for kind in _ACTIVE_OUTPUTS:
        data.pop(kind, None)
    if "text/html" in data:
        html = data["text/html"]
        data["text/html"] = clean_html("".join(html) if isinstance(html, list) else str(html))
    return output


def merge_outputs(notebook: nbformat.NotebookNode, executed: nbformat.NotebookNode) -> str:
    """Give each code cell of ``notebook`` the outputs of ``executed``'s, sanitized
    (:func:`sanitize_output`); '' or why not."""
    ours, theirs = code_cells(notebook), code_cells(executed)
    if len(ours) != len(theirs):
        return (f"the executed Korean notebook has {len(theirs)} code cells, the page "
                f"{len(ours)}")
    for cell, ran in zip(ours, theirs):
        cell.outputs = [sanitize_output(o) for o in ran.get("outputs", [])]
        cell.execution_count = ran.get("execution_count")
    return ""


def executed_notebook(config, docname: str) -> tuple[nbformat.NotebookNode | None, str]:
    """The executed Korean notebook of a page (or None) and why it is not used, if so."""
    directory = getattr(config, "jaxko_executed_notebooks_dir", "")
    if not directory:
        return None, ""
    path = Path(directory) / f"{docname}.ipynb"
    if not path.is_file():
        return None, ""
    executed = nbformat.read(str(path), as_version=4)
    downloads = getattr(config, "jaxko_notebooks_dir", "")
    if downloads and stale(executed, Path(downloads) / f"{docname}.ipynb"):
        return None, (f"{path} ran other code than the Korean notebook; run `jaxko notebooks "
                      "verify` (the page keeps its stored outputs)")
    return executed, ""


class KoreanOutputsParser(TranslatedMessageParser):
    """The site's notebook parser; whole notebooks take the Korean execution's outputs."""

    def parse(self, inputstring: str, document: nodes.document) -> None:
        env = getattr(document.settings, "env", None)
        if env is None or is_translated_fragment(document):
            return super().parse(inputstring, document)
        executed, problem = executed_notebook(env.config, env.docname)
        directory = getattr(env.config, "jaxko_executed_notebooks_dir", "")
        if directory:
            # Used or not, and even while missing: a later run of the notebook reads the
            # page again (a build that executes nothing shows the last run; Sphinx sets
            # no missing file aside, jaxko.sphinxext.missing_deps does).
            env.note_dependency(str(Path(directory) / f"{env.docname}.ipynb"))
        if problem and env.config.jaxko_executes_notebooks:
            logger.warning(problem, location=env.docname, type="jaxko", subtype="outputs")
        elif problem:  # a build that executes nothing: the run is due, not wrong
            logger.info(f"{env.docname}: {problem}")
        if problem:
            _due(env).add(env.docname)
        if executed is None:
            return super().parse(inputstring, document)
        path = str(env.doc2path(env.docname))
        reader = create_nb_reader(path, env.myst_config, env.mystnb_config, inputstring)
        if reader is None:
            return super().parse(inputstring, document)
        notebook = reader.read(inputstring)
        problem = merge_outputs(notebook, executed)
        if problem:
            logger.warning(f"{problem}; the page keeps its stored outputs", location=env.docname,
                           type="jaxko", subtype="outputs")
            _due(env).add(env.docname)
            return super().parse(inputstring, document)
        text = nbformat.writes(notebook)
        if path.endswith(".ipynb"):
            return super().parse(text, document)
        # A MyST text notebook, now with outputs: read back as .ipynb for this page only.
        with speedups.ipynb_reader(env, Path(path).suffix) as reads_ipynb:
            if reads_ipynb:
                return super().parse(text, document)
        logger.warning("MyST-NB %s was not tested with jaxko.site.ext.speedups.ipynb_reader "
                       "(READER_TESTED): the page keeps its stored outputs",
                       metadata.version("myst-nb"), location=env.docname, type="jaxko",
                       subtype="outputs", once=True)
        _due(env).add(env.docname)
        return super().parse(inputstring, document)


def _purge(app, env, docname: str) -> None:
    _due(env).discard(docname)


def _merge(app, env, docnames, other) -> None:
    _due(env).update(_due(other) & set(docnames))


def setup(app):
    app.setup_extension("jaxko.site.ext.i18n")
    app.setup_extension("jaxko.sphinxext.missing_deps")
    app.add_config_value("jaxko_executed_notebooks_dir", "", "env", types=[str])
    # Whether this build ran verify first (a stale run is then a warning). It changes
    # what is logged, never a page: no rebuild, so switching modes reads nothing again.
    app.add_config_value("jaxko_executes_notebooks", False, "", types=[bool])
    app.add_source_parser(KoreanOutputsParser, override=True)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
