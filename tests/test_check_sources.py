"""Telling code blocks and math blocks from text: from the staged source, else by heuristics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxko.check.message import CODE, MATH, MYST, RST, TEXT, first_location, ignored_rules, syntax_of
from jaxko.check.sources import SourceIndex, guess


@pytest.fixture()
def srcdir(tmp_path: Path) -> Path:
    (tmp_path / "page.md").write_text(
        "# Title\n\nSome text with `code`.\n\n```python\nimport jax\n```\n\n"
        "```{code-cell} ipython3\n:tags: [hide-input]\n\nx = 1\n```\n\n"
        "$$\nx^2 + y^2\n$$\n\n```\npip install jax\n```\n", encoding="utf-8")
    (tmp_path / "page.rst").write_text(
        "Title\n=====\n\nRun this::\n\n   make html\n\n.. code-block:: bash\n   :caption: x\n\n"
        "   echo hi\n\n.. math::\n\n   a = b\n\nText after.\n", encoding="utf-8")
    notebook = {"metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4,
                "cells": [{"cell_type": "markdown", "source": ["Intro\n", "```\nls -l\n```"]},
                          {"cell_type": "code", "source": ["type(x)"]}]}
    (tmp_path / "nb.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("msgid, document, expected", [
    ("import jax", "page.md", (CODE, "python")),
    ("x = 1", "page.md", (CODE, "ipython3")),
    ("x^2 + y^2", "page.md", (MATH, None)),
    ("pip install jax", "page.md", (CODE, "python")),  # unknown language: compared as Python
    ("Some text with `code`.", "page.md", (TEXT, None)),
    ("make html", "page.rst", (CODE, "python")),
    ("echo hi", "page.rst", (CODE, "bash")),
    ("a = b", "page.rst", (MATH, None)),
    ("Text after.", "page.rst", (TEXT, None)),
    ("type(x)", "nb.ipynb", (CODE, "python")),
    ("ls -l", "nb.ipynb", (CODE, "python")),
    ("Intro", "nb.ipynb", (TEXT, None)),
])
def test_classify_from_source(srcdir, msgid, document, expected):
    assert SourceIndex(srcdir).classify(msgid, document)[:2] == expected


@pytest.mark.parametrize("msgid, document, heading", [
    ("Title", "page.md", True), ("Title", "page.rst", True),
    ("Some text with `code`.", "page.md", False), ("Text after.", "page.rst", False),
    ("Run this::", "page.rst", False),
])
def test_headings_from_source(srcdir, msgid, document, heading):
    """Titles are told from prose by the source (a long title is not the first use of a
    term: glossary.gloss-position), MyST `#` lines and reST underlined lines."""
    assert SourceIndex(srcdir).classify(msgid, document).heading is heading


@pytest.mark.parametrize("msgid, block", [
    ("import numpy as np\nx = np.ones(3)", CODE),
    ("\\frac{a}{b} = \\sum_i x_i\n\\\\ y", MATH),
    ("type(x_np)", CODE),
    (">>> jnp.ones(3)", CODE),
    ("Installation", TEXT),
    ("JAX arrays (like NumPy arrays) are immutable.", TEXT),
    ("See jax.jit for details.", TEXT),
    ("Conda (community-supported)", TEXT),  # parses as a call; a heading in a fresh clone
    ("jnp.sum(x)", CODE),
])
def test_heuristics_without_source(msgid, block):
    assert guess(msgid)[0] == block
    assert SourceIndex(None).classify(msgid, "missing.md")[0] == block


def test_syntax_from_locations():
    assert syntax_of(("notebooks/thinking_in_jax.ipynb:20002",)) == MYST
    assert syntax_of(("index.md:3",)) == MYST
    assert syntax_of(("index.rst:43",)) == RST
    assert syntax_of(("../jax/errors.py:docstring of jax.errors.ConcretizationTypeError:29",)) == RST
    assert first_location(("index.rst:43 other.rst:2",)) == ("index.rst", 43)


@pytest.mark.parametrize("comment, names", [
    ("jaxko: ignore glossary.missing -- 'methods' means 기법 here", {"glossary.missing"}),
    ("jaxko: ignore glossary.missing, leftover.english -- titles", {"glossary.missing", "leftover.english"}),
    ("jaxko: ignore glossary", {"glossary"}),
    ("jaxko: ignore", {"all"}),
    ("just a note", set()),
])
def test_suppression_comments(comment, names):
    assert ignored_rules(comment, "") == names
    assert ignored_rules("", comment) == names


def test_unstaged_checkout_reads_the_pinned_offline_copy(tmp_path, monkeypatch, shared_upstream):
    """A fresh clone has no _build/upstream: the checker falls back to shared/upstream/<tag>."""
    from jaxko.check import runner

    monkeypatch.setattr("jaxko.paths.staged_docs", lambda root=None: tmp_path / "not-staged")
    found = runner._default_source_dir()
    assert found is not None and found.resolve() == (shared_upstream / "docs").resolve()
