"""Counts of a catalog by state, for ``jaxko stats``: read with the one read-only
.po reader (:mod:`jaxko.check.pofile`, also ``jaxko check``'s). Counting follows
polib exactly (the test compares both on the real catalogs):

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
from pathlib import Path

from jaxko.check import pofile


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
    text = pofile.read_text(path)
    counts = Counts(obsolete=pofile.count_obsolete(text))
    sources: dict[str, int] = {}
    for entry in pofile.parse(text, path):
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
