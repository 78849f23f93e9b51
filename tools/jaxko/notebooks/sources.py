"""The upstream notebooks Sphinx builds, read the way MyST-NB reads them.

A notebook is an ``.ipynb`` file, or a MyST-NB ``.md`` file (jupytext MyST front
matter) that is not the twin of an ``.ipynb``. MyST sources are read with MyST-NB's own
reader, so the cells are exactly the ones Sphinx extracts messages from.

Cells are numbered from 1 in every message, as in the catalogs' locations
(``notebooks/x.ipynb:30004`` is line 4 of cell 3).

Cell ids are deterministic (:func:`stable_cell_ids`): an ``.ipynb``'s own ids are kept,
and a cell that has none (every MyST cell: the format stores no ids, and the reader
would make up random ones) gets one derived from the document's path and the cell's
position, so reading the same notebook twice gives the same notebook.
"""

from __future__ import annotations

import hashlib
import json
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import nbformat

from jaxko import scope
from jaxko.errors import UserError

NOTEBOOK_VERSION = 4
CELL_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")  # nbformat 4.5's cell id pattern


@dataclass(frozen=True)
class NotebookSource:
    """One upstream notebook: where it is and in which format."""

    rel: str  # docs-relative path: "notebooks/thinking_in_jax.ipynb", "pytrees.md"
    path: Path
    kind: str  # "ipynb" or "myst"

    @property
    def docname(self) -> str:
        return self.rel.rsplit(".", 1)[0]

    @property
    def ipynb_rel(self) -> str:
        return self.docname + ".ipynb"


@dataclass
class ReadNotebook:
    """A notebook as nbformat cells, with the MyST text and cell start lines if any."""

    source: NotebookSource
    notebook: nbformat.NotebookNode
    text: str
    cell_lines: list[int] | None = None  # 0-based first line of each cell (MyST only)

    @property
    def language(self) -> str:
        """The language of the code cells (the kernel's), ``python`` when unnamed."""
        meta = self.notebook.get("metadata", {})
        for value in (meta.get("language_info", {}).get("pygments_lexer"),
                      meta.get("language_info", {}).get("name"),
                      meta.get("kernelspec", {}).get("language")):
            if value:
                return str(value)
        return "python"


def is_myst_notebook(path: Path) -> bool:
    from myst_nb.core.read import is_myst_markdown_notebook

    try:
        with path.open(encoding="utf-8") as handle:
            head = handle.read(4096)
    except (OSError, UnicodeDecodeError):
        return False
    if not head.startswith("---"):
        return False
    return is_myst_markdown_notebook(path.read_text(encoding="utf-8"))


def find_notebooks(srcdir: Path) -> list[NotebookSource]:
    """Every notebook Sphinx builds from ``srcdir``, sorted by path."""
    from sphinx.util.matching import Matcher

    if not srcdir.is_dir():
        raise UserError("upstream docs not staged; run `jaxko upstream sync`", srcdir)
    excluded = Matcher([*scope.ALWAYS_EXCLUDED, *scope.notebook_twins(srcdir)])
    found = []
    for path in sorted(srcdir.rglob("*")):
        if path.suffix not in (".ipynb", ".md") or not path.is_file():
            continue
        rel = path.relative_to(srcdir).as_posix()
        if excluded(rel) or ".ipynb_checkpoints" in path.parts:
            continue
        if path.suffix == ".ipynb":
            found.append(NotebookSource(rel, path, "ipynb"))
        elif is_myst_notebook(path):
            found.append(NotebookSource(rel, path, "myst"))
    return found


def read(source: NotebookSource) -> ReadNotebook:
    """Read one notebook; a broken one is a one-line error naming file and line."""
    try:
        text = source.path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UserError("not valid UTF-8", source.path) from None
    except OSError as err:
        raise UserError(f"cannot read: {err.strerror}", source.path) from None
    if source.kind == "ipynb":
        read_notebook = ReadNotebook(source, read_ipynb_text(text, source.path), text)
    else:
        read_notebook = _read_myst(source, text)
    stable_cell_ids(read_notebook.notebook, source.rel, keep=source.kind == "ipynb")
    return read_notebook


def read_ipynb_file(path: Path) -> nbformat.NotebookNode:
    """A built .ipynb (a Korean notebook), as :func:`read_ipynb_text` reads it; a file
    that cannot be read or is not UTF-8 is a one-line error too."""
    try:
        data = path.read_bytes()
        return read_ipynb_text(data.decode("utf-8"), path)
    except UnicodeDecodeError as err:
        raise UserError("not valid UTF-8", path, data[: err.start].count(b"\n") + 1) from None
    except OSError as err:
        raise UserError(f"cannot read: {err.strerror}", path) from None


def stable_cell_ids(notebook: nbformat.NotebookNode, rel: str, *, keep: bool = True) -> None:
    """Give every cell of a notebook format 4.5+ notebook a unique, deterministic id.

    With ``keep`` (``.ipynb`` sources), a valid id is kept as it is; only a cell with no
    id, an invalid one or the repeat of an earlier cell's gets a new one. Without it
    (MyST sources, whose ids the reader made up at random) every cell gets a new one.
    A new id is derived from ``rel`` (the docs-relative path) and the cell's number,
    so it is the same on every build and machine, and never one another cell has.
    Notebooks older than 4.5 have no ids in their format and are left as they are
    (upstream's stray ids in such notebooks stay).
    """
    if (notebook.get("nbformat", 0), notebook.get("nbformat_minor", 0)) < (4, 5):
        return
    taken: set[str] = set()
    kept: list[bool] = []
    for cell in notebook.cells:
        cell_id = cell.get("id") if keep else None
        valid = (isinstance(cell_id, str) and CELL_ID.fullmatch(cell_id) is not None
                 and cell_id not in taken)
        if valid:
            taken.add(cell_id)
        kept.append(valid)
    for index, (cell, valid) in enumerate(zip(notebook.cells, kept), start=1):
        if valid:
            continue
        salt = 0
        while (cell_id := _derived_id(rel, index, salt)) in taken:
            salt += 1
        cell["id"] = cell_id
        taken.add(cell_id)


def _derived_id(rel: str, index: int, salt: int) -> str:
    """12 hex digits of SHA-256 over the document path and the cell number."""
    key = f"{rel}\n{index}" + (f"\n{salt}" if salt else "")
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]


def read_ipynb_text(text: str, path: Path | str) -> nbformat.NotebookNode:
    """Parse an .ipynb; checks what building needs, not every schema detail.

    Upstream notebooks carry small schema slips (cell ids in a 4.4 notebook) that
    Jupyter, Colab and MyST-NB accept, so full schema validation would reject them.
    Cell ids are the file's own: nbformat fills a missing (or repeats a repaired) id of
    a 4.5 notebook with a random one, which is undone here (see :func:`stable_cell_ids`).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise UserError(f"not a valid notebook (JSON: {err.msg})", path, err.lineno) from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise UserError("not a valid notebook (no list of cells)", path, 1)
    for index, cell in enumerate(data["cells"], start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
            raise UserError(f"not a valid notebook (cell {index} has no valid cell_type)",
                            path, _cell_line(text, index))
        if not isinstance(cell.get("source", ""), (str, list)):
            raise UserError(f"not a valid notebook (cell {index} source is not text)",
                            path, _cell_line(text, index))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # Schema slips are captured, not logged (see above).
            notebook = nbformat.reads(text, as_version=NOTEBOOK_VERSION,
                                      capture_validation_error={})
    except Exception as err:  # nbformat raises assorted errors on odd structures
        raise UserError(f"not a valid notebook ({err})", path) from None
    if len(notebook.cells) == len(data["cells"]):
        for cell, raw in zip(notebook.cells, data["cells"]):
            if "id" in raw:
                cell["id"] = raw["id"]
            else:
                cell.pop("id", None)
    return notebook


def _cell_line(text: str, index: int) -> int | None:
    """The line where the index-th (1-based) cell starts, roughly: its cell_type key."""
    position = -1
    for _ in range(index):
        position = text.find('"cell_type"', position + 1)
        if position < 0:
            return None
    return text.count("\n", 0, position) + 1


def _read_myst(source: NotebookSource, text: str) -> ReadNotebook:
    from myst_nb.core.read import MystMetadataParsingError, read_myst_markdown_notebook
    from myst_parser.config.main import MdParserConfig

    # Cells are split with MyST's core syntax only, as jupytext (upstream's tool for
    # these files) splits them: with the amsmath extension that conf.py enables, a
    # `\begin{...}` whose `$` never closes swallows the following {code-cell}s
    # (complex-differentiation.md), and the notebook would lose code.
    try:
        notebook = read_myst_markdown_notebook(text, MdParserConfig(), add_source_map=True,
                                               path=source.path)
    except MystMetadataParsingError as err:
        line = _line_in_message(str(err))
        raise UserError(f"not a valid MyST notebook ({err})", source.path, line) from None
    except Exception as err:  # YAML errors and the like from the reader
        raise UserError(f"not a valid MyST notebook ({err})", source.path) from None
    cell_lines = list(notebook.metadata.pop("source_map", []))
    return ReadNotebook(source, notebook, text, cell_lines)


def _line_in_message(message: str) -> int | None:
    import re

    match = re.search(r"at line (\d+)", message)
    return int(match.group(1)) if match else None
