"""The documents being translated: one catalog each, named by docname and built source.

A document is what Sphinx calls a docname (``notebooks/thinking_in_jax``); its catalog is
``locale/ko/LC_MESSAGES/<docname>.po`` and its built source the file Sphinx reads
(``notebooks/thinking_in_jax.ipynb``; for a notebook with a MyST twin, the ``.ipynb``).
The source is read from the catalog's own locations (``#: parallel.ipynb:20002``), so no
upstream checkout is needed; the staged docs are consulted only when no location names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from jaxko import paths
from jaxko.errors import UserError
from jaxko.workflow import poscan

SOURCE_SUFFIXES = (".ipynb", ".md", ".rst")

# Catalogs in LC_MESSAGES that are not documents: ``sphinx.po`` overrides Sphinx's own
# messages (its gettext domain), it translates no page.
NOT_DOCUMENTS = frozenset({"sphinx"})


@dataclass(frozen=True)
class Document:
    """One translated document."""

    docname: str          # "notebooks/thinking_in_jax"
    source: str           # "notebooks/thinking_in_jax.ipynb" (docname alone when unknown)
    catalog: Path         # the .po file


def docname_of(catalog: Path, catalogs_dir: Path) -> str:
    """``<catalogs_dir>/notebooks/x.po`` -> ``notebooks/x``."""
    return catalog.relative_to(catalogs_dir).with_suffix("").as_posix()


def source_of(docname: str, sources: dict[str, int], staged: Path | None = None) -> str:
    """The built source of a document from its catalog's locations (most frequent wins)."""
    candidates = [name for name in sources
                  if name.endswith(SOURCE_SUFFIXES)
                  and str(PurePosixPath(name).with_suffix("")) == docname]
    if candidates:
        return max(candidates, key=lambda name: (sources[name], name.endswith(".ipynb")))
    if staged is not None:
        for suffix in SOURCE_SUFFIXES:
            if (staged / f"{docname}{suffix}").is_file():
                return f"{docname}{suffix}"
    return docname


def catalogs_dir_for(locale_dir: Path | None, language: str) -> Path:
    """``<locale_dir>/<language>/LC_MESSAGES``; the repository's when ``locale_dir`` is None."""
    return (locale_dir or paths.locale_dir()) / language / "LC_MESSAGES"


def catalog_files(catalogs_dir: Path) -> list[Path]:
    """The documents' catalogs under ``catalogs_dir``, sorted."""
    if not catalogs_dir.is_dir():
        raise UserError("no catalogs here; run `jaxko update` or pass --locale-dir", catalogs_dir)
    return sorted(p for p in catalogs_dir.rglob("*.po")
                  if p.is_file() and docname_of(p, catalogs_dir) not in NOT_DOCUMENTS)


def staged_or_none() -> Path | None:
    """The staged docs (for documents no location names), None before `upstream sync`."""
    staged = paths.staged_docs()
    return staged if staged.is_dir() else None


def scan_documents(catalogs_dir: Path, progress: bool = False) -> list[tuple[Document, poscan.Counts]]:
    """Every catalog under ``catalogs_dir`` as a document with its counts, sorted by docname."""
    found = catalog_files(catalogs_dir)
    staged = staged_or_none()
    items = found
    if progress:
        from tqdm import tqdm
        items = tqdm(found, desc="catalogs", unit="file", leave=False)
    result = []
    for catalog in items:
        scanned = poscan.scan(catalog)
        docname = docname_of(catalog, catalogs_dir)
        result.append((Document(docname, source_of(docname, scanned.sources, staged), catalog),
                       scanned.counts))
    return result


def resolve(name: str, documents: dict[str, Document]) -> Document:
    """A document from what a person types: docname, source file, catalog path."""
    text = name.strip().replace("\\", "/")
    for prefix in ("./", "docs/"):
        if text.startswith(prefix):
            text = text[len(prefix):]
    if "LC_MESSAGES/" in text:
        text = text.split("LC_MESSAGES/", 1)[1]
    candidates = [text]
    for suffix in (*SOURCE_SUFFIXES, ".po", ".pot"):
        if text.endswith(suffix):
            candidates.append(text[: -len(suffix)])
    for candidate in candidates:
        if candidate in documents:
            return documents[candidate]
    raise UserError(f"no catalog for document {name!r}; `jaxko stats` lists the documents")
