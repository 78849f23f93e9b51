"""The documents being translated: one catalog each, named by docname and built source.

A document is what Sphinx calls a docname (``notebooks/thinking_in_jax``); its catalog is
``locale/ko/LC_MESSAGES/<docname>.po`` and its built source the file Sphinx reads
(``notebooks/thinking_in_jax.ipynb``; for a notebook with a MyST twin, the ``.ipynb``).
The source is read from the catalog's own locations (``#: parallel.ipynb:20002``), so no
upstream checkout is needed; the staged docs are consulted only when no location names it.

A document's :class:`Counts` (for ``jaxko stats`` and the site's progress pages) are read
with the fast catalog reader (:func:`jaxko.catalogs.parse`) and follow polib exactly (the
tests compare both on the real catalogs):

* the header (``msgid ""`` without context) is not a message;
* translated = not obsolete, not fuzzy, msgstr (every plural form) non-empty;
* fuzzy = not obsolete and flagged fuzzy (even with an empty msgstr);
* untranslated = the rest of the non-obsolete entries;
* words = whitespace-separated words of the unescaped msgid;
* translated_prose = translated messages whose msgstr differs from the msgid (a code
  block or a name copied unchanged is translated but not prose a reader sees in Korean).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path, PurePosixPath

from jaxko import catalogs, paths
from jaxko.errors import UserError

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


@dataclass
class Counts:
    """Messages and msgid words by state (obsolete entries are counted apart)."""

    messages: int = 0
    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0
    words: int = 0
    words_translated: int = 0
    words_fuzzy: int = 0
    words_untranslated: int = 0
    obsolete: int = 0
    # translated messages whose msgstr differs from the msgid: prose a reader sees in
    # Korean; the rest of ``translated`` are code blocks or names copied unchanged
    translated_prose: int = 0

    def add(self, other: "Counts") -> "Counts":
        for item in fields(self):
            setattr(self, item.name, getattr(self, item.name) + getattr(other, item.name))
        return self

    @property
    def percent(self) -> float:
        """Translated messages in percent (100 for a catalog without messages)."""
        return 100.0 * self.translated / self.messages if self.messages else 100.0

    @property
    def percent_words(self) -> float:
        return 100.0 * self.words_translated / self.words if self.words else 100.0

    @property
    def translated_copied(self) -> int:
        """Translated messages whose msgstr equals the msgid (code, names)."""
        return self.translated - self.translated_prose

    @property
    def percent_prose(self) -> float:
        """Translated messages whose Korean differs from the English, in percent."""
        return 100.0 * self.translated_prose / self.messages if self.messages else 100.0

    @property
    def complete(self) -> bool:
        return self.translated == self.messages


@dataclass
class CatalogScan:
    """What one scan found: counts and the documents its locations name."""

    counts: Counts
    sources: dict[str, int]   # location file -> occurrences, e.g. {"parallel.ipynb": 80}


def scan(path: str | Path) -> CatalogScan:
    """Count one catalog's messages and words by state; one-line error if it is malformed."""
    path = Path(path)
    text = catalogs.read_text(path)
    counts = Counts(obsolete=catalogs.count_obsolete(text))
    sources: dict[str, int] = {}
    for entry in catalogs.parse(text, path):
        for line in entry.locations:
            for location in line.split():
                name = location.rsplit(":", 1)[0] if ":" in location else location
                sources[name] = sources.get(name, 0) + 1
        if not entry.msgid and entry.msgctxt is None:
            continue  # the header
        words = len(entry.msgid.split())
        counts.messages += 1
        counts.words += words
        if "fuzzy" in entry.flags:
            counts.fuzzy += 1
            counts.words_fuzzy += words
        elif entry.msgstr and not entry.empty_form:
            counts.translated += 1
            counts.words_translated += words
            if entry.plural or entry.msgstr != entry.msgid:
                counts.translated_prose += 1
        else:
            counts.untranslated += 1
            counts.words_untranslated += words
    return CatalogScan(counts, sources)


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


def scan_documents(catalogs_dir: Path, progress: bool = False) -> list[tuple[Document, Counts]]:
    """Every catalog under ``catalogs_dir`` as a document with its counts, sorted by docname."""
    found = catalog_files(catalogs_dir)
    staged = staged_or_none()
    items = found
    if progress:
        from tqdm import tqdm
        items = tqdm(found, desc="catalogs", unit="file", leave=False)
    result = []
    for catalog in items:
        scanned = scan(catalog)
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
