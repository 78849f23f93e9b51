"""Korean notebooks from the upstream notebooks and the catalogs.

For each notebook Sphinx builds, the Korean notebook gets every translated (non-fuzzy)
message of the notebook's catalog: markdown blocks via :mod:`jaxko.notebooks.markdown`,
code cells by their whole source (the msgid of a code cell is its source). Cell
ids (deterministic: :func:`jaxko.notebooks.sources.stable_cell_ids`), cell metadata,
tags and the kernelspec stay; outputs are cleared. A translated code cell
(or code block) must pass the static check (:func:`jaxko.codetokens.first_difference`;
for code cells also :func:`jaxko.notebooks.literals.changed_literal`: no changed string
passed to a file, OS, import or eval API) or the notebook is not written.

Outputs: ``_build/notebooks/ko/<rel>.ipynb`` for every notebook, plus the MyST
``<rel>.md`` for MyST-NB sources (the upstream text with the cell sources replaced, so
front matter, cell options and layout stay as upstream wrote them).
"""

from __future__ import annotations

import copy
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import polib

from jaxko import catalogs, paths
from jaxko.codetokens import first_difference
from jaxko.errors import UserError
from jaxko.notebooks import markdown, sources
from jaxko.notebooks.literals import changed_literal, notebook_aliases


@dataclass(frozen=True)
class Finding:
    """One line a person reads: ``path:line: message``."""

    path: str
    line: int | None
    message: str

    def format(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"

    def as_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "message": self.message}


@dataclass
class NotebookBuild:
    """What building one Korean notebook did."""

    rel: str
    translated: int = 0  # translated messages of this notebook in its catalog
    applied: int = 0  # of those, how many were put in place
    code_cells: int = 0  # code cells that got a translated source
    outputs: list[str] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    errors: list[Finding] = field(default_factory=list)

    @property
    def written(self) -> bool:
        return bool(self.outputs)

    def as_dict(self) -> dict:
        return {"notebook": self.rel, "translated": self.translated, "applied": self.applied,
                "code_cells": self.code_cells, "outputs": self.outputs,
                "warnings": [w.as_dict() for w in self.warnings],
                "errors": [e.as_dict() for e in self.errors]}


@dataclass
class BuildSummary:
    out_dir: Path
    notebooks: list[NotebookBuild] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [e for nb in self.notebooks for e in nb.errors]

    @property
    def warnings(self) -> list[Finding]:
        return [w for nb in self.notebooks for w in nb.warnings]

    def as_dict(self) -> dict:
        return {"out_dir": str(self.out_dir),
                "notebooks": [nb.as_dict() for nb in self.notebooks],
                "translated": sum(nb.translated for nb in self.notebooks),
                "applied": sum(nb.applied for nb in self.notebooks),
                "errors": len(self.errors), "warnings": len(self.warnings)}


def output_dir(root: Path | None = None, language: str = "ko") -> Path:
    return paths.build_dir(root) / "notebooks" / language


def select(found: list[sources.NotebookSource], only: list[str] | None) -> list[sources.NotebookSource]:
    """The notebooks named by ``only`` (paths or docnames, glob patterns allowed)."""
    if not only:
        return found
    import fnmatch

    chosen = []
    for source in found:
        names = (source.rel, source.docname, source.ipynb_rel, Path(source.docname).name)
        if any(fnmatch.fnmatch(name, pattern.strip("/")) for pattern in only for name in names):
            chosen.append(source)
    if not chosen:
        raise UserError(f"no notebook matches {' '.join(only)}; "
                        "see `jaxko notebooks list` for the notebooks in scope")
    return chosen


def build(*, srcdir: Path | None = None, locale_dir: Path | None = None,
          out_dir: Path | None = None, language: str = "ko", static_check: bool = True,
          only: list[str] | None = None, progress: bool = False) -> BuildSummary:
    """Write the Korean notebooks; returns what was applied, warned and refused."""
    root = paths.repo_root()
    srcdir = srcdir or paths.staged_docs(root)
    locale_dir = locale_dir or paths.locale_dir(root)
    out_dir = out_dir or output_dir(root, language)
    catalog_dir = locale_dir / language / "LC_MESSAGES"
    if not locale_dir.is_dir():
        raise UserError("locale directory not found", locale_dir)
    chosen = select(sources.find_notebooks(srcdir), only)
    summary = BuildSummary(out_dir)
    for source in _progress(chosen, progress, "notebooks"):
        summary.notebooks.append(build_one(source, catalog_dir, out_dir,
                                           static_check=static_check))
    return summary


def _progress(items, enabled: bool, unit: str):
    if not enabled:
        return items
    from tqdm import tqdm

    return tqdm(items, unit=unit, leave=False)


def translations_for(source: sources.NotebookSource, catalog_dir: Path
                     ) -> tuple[Path, dict[str, polib.POEntry]]:
    """The translated (non-fuzzy) entries of the notebook's catalog that occur in it."""
    path = catalog_dir / f"{source.docname}.po"
    if not path.is_file():
        return path, {}
    catalog = catalogs.load(path)
    entries = {}
    for entry in catalog:
        if not catalogs.is_translated(entry):
            continue
        if entry.occurrences and not any(name == source.rel for name, _ in entry.occurrences):
            continue
        entries[entry.msgid] = entry
    return path, entries


def build_one(source: sources.NotebookSource, catalog_dir: Path, out_dir: Path, *,
              static_check: bool = True) -> NotebookBuild:
    """Build one Korean notebook (and its MyST twin for MyST sources)."""
    result = NotebookBuild(source.rel)
    read = sources.read(source)
    catalog_path, entries = translations_for(source, catalog_dir)
    catalog_name = _display(catalog_path)
    translations = {msgid: entry.msgstr for msgid, entry in entries.items()}
    result.translated = len(entries)

    notebook = copy.deepcopy(read.notebook)
    placed: set[str] = set()
    language = read.language
    aliases = None  # the notebook's imports, parsed when a code cell is translated
    for index, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type == "markdown":
            new_source, cell_placed, literals = markdown.apply(cell.source, translations)
            placed |= cell_placed
            for slot, msgstr in literals:
                found = first_difference(slot.msgid, msgstr, slot.language or "")
                if found:
                    result.errors.append(_code_finding(source, index, "code block", found,
                                                       catalog_name, entries, slot.msgid))
            cell.source = new_source
        elif cell.cell_type == "code":
            key = _code_key(cell.source, translations)
            if key is not None:
                placed.add(key)
                msgstr = _match_ending(translations[key], cell.source)
                found = first_difference(cell.source, msgstr, language)
                if found:
                    result.errors.append(_code_finding(source, index, "code cell", found,
                                                       catalog_name, entries, key))
                else:
                    if aliases is None:
                        aliases = notebook_aliases(read.notebook, language)
                    used = changed_literal(cell.source, msgstr, language, aliases)
                    if used:
                        result.errors.append(_code_finding(
                            source, index, "code cell", used, catalog_name, entries, key,
                            problem="changes a string that code uses"))
                cell.source = msgstr
                result.code_cells += 1
            cell.outputs = []
            cell.execution_count = None
    result.applied = len(placed & entries.keys())
    for msgid, entry in entries.items():
        if msgid not in placed:
            result.warnings.append(Finding(
                catalog_name, entry.linenum,
                f"translated message not placed in {source.rel}: {_short(msgid)}"))

    targets = [out_dir / source.ipynb_rel]
    if source.kind == "myst":
        targets.append(out_dir / source.rel)
    if result.errors and static_check:
        for target in targets:  # never leave an older, now wrong, Korean notebook behind
            target.unlink(missing_ok=True)
        return result
    if not static_check:
        result.warnings.extend(result.errors)
        result.errors = []
    catalogs.write_text_atomic(targets[0], ipynb_text(notebook))
    result.outputs.append(source.ipynb_rel)
    if source.kind == "myst":
        text = myst_text(read, notebook)
        if text is None:
            result.warnings.append(Finding(source.rel, None, "MyST text not written: a cell "
                                           "could not be found in the upstream text; the "
                                           ".ipynb is complete"))
            targets[1].unlink(missing_ok=True)
        else:
            catalogs.write_text_atomic(targets[1], text)
            result.outputs.append(source.rel)
    return result


def _code_key(code: str, translations: dict[str, str]) -> str | None:
    """The msgid of a code cell: its source (Sphinx strips nothing but line ends)."""
    for key in (code, code.strip("\n"), code.rstrip(), code + "\n"):
        if key and key in translations:
            return key
    return None


def _match_ending(msgstr: str, source: str) -> str:
    """The msgstr with the source's trailing newline (or lack of it)."""
    body = msgstr.rstrip("\n")
    return body + source[len(source.rstrip("\n")):]


def _code_finding(source, index: int, what: str, found: str, catalog_name: str,
                  entries: dict[str, polib.POEntry], msgid: str,
                  problem: str = "differs from upstream beyond comments and strings") -> Finding:
    entry = entries.get(msgid) or entries.get(msgid + "\n")
    where = f" (msgstr at {catalog_name}:{entry.linenum})" if entry is not None else ""
    return Finding(source.rel, None, f"cell {index}: translated {what} {problem}: {found}{where}")


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(paths.repo_root()).as_posix()
    except ValueError:
        return str(path)


def _short(text: str, width: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= width else flat[: width - 1] + "…")


def ipynb_text(notebook: nbformat.NotebookNode) -> str:
    """The notebook as Jupyter writes it (one-space indent, UTF-8 kept)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # Upstream's schema slips are kept as they are, not logged on every write.
        text = nbformat.writes(notebook, version=sources.NOTEBOOK_VERSION,
                               capture_validation_error={})
    return text if text.endswith("\n") else text + "\n"


def myst_text(read: sources.ReadNotebook, notebook: nbformat.NotebookNode) -> str | None:
    """The upstream MyST text with each cell's source replaced by the Korean one.

    Cell sources are verbatim runs of the upstream text, found in order from each
    cell's first line; None when one cannot be found (never guess).
    """
    text = read.text
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    pieces: list[str] = []
    position = 0
    for index, (old, new) in enumerate(zip(read.notebook.cells, notebook.cells)):
        if old.source == new.source or not old.source:
            continue
        first_line = 0
        if read.cell_lines and index < len(read.cell_lines):
            first_line = min(read.cell_lines[index], len(lines))
        at = text.find(old.source, max(position, starts[first_line]))
        if at < 0:
            at = text.find(old.source, position)
        if at < 0:
            return None
        pieces.append(text[position:at])
        pieces.append(new.source)
        position = at + len(old.source)
    pieces.append(text[position:])
    return "".join(pieces)


def code_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def stale(executed: nbformat.NotebookNode, korean: Path) -> bool:
    """Whether the executed notebook ran other code than the current Korean notebook."""
    if not korean.is_file():
        return False
    current = nbformat.read(str(korean), as_version=4)
    return [c.source for c in code_cells(current)] != [c.source for c in code_cells(executed)]
