"""A fast, read-only scan of a catalog: counts only, no entry objects.

``jaxko stats`` reads every catalog on each run; polib builds a full object per entry
and wraps nothing we need, so a line scanner that only tracks msgid, "has a msgstr",
fuzzy and obsolete is several times faster. Counting follows polib exactly (the test
compares both on the real catalogs):

* the header (``msgid ""`` without context) is not a message;
* translated = not obsolete, not fuzzy, msgstr (every plural form) non-empty;
* fuzzy = not obsolete and flagged fuzzy (even with an empty msgstr);
* untranslated = the rest of the non-obsolete entries;
* words = whitespace-separated words of the unescaped msgid;
* translated_prose = translated messages whose msgstr differs from the msgid (a code
  block or a name copied unchanged is translated but not prose a reader sees in Korean).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from pathlib import Path

from jaxko import poverdict
from jaxko.errors import UserError

_UNESCAPE = re.compile(r'\\(\\|n|t|r|")')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"'}


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    return _UNESCAPE.sub(lambda m: _ESCAPES[m.group(1)], text)


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


class _Entry:
    __slots__ = ("msgctxt", "msgid", "msgstrs", "fuzzy", "obsolete", "field", "has_msgstr",
                 "line")

    def __init__(self) -> None:
        self.msgctxt: list[str] | None = None
        self.msgid: list[str] = []
        self.msgstrs: list[list[str]] = []
        self.fuzzy = False
        self.obsolete = False
        self.field: list[str] | None = None
        self.has_msgstr = False
        self.line = 0


def scan(path: str | Path) -> CatalogScan:
    """Count one catalog's messages and words by state; one-line error if it is malformed."""
    path = Path(path)
    text = poverdict.read_catalog_text(path)
    counts = Counts()
    sources: dict[str, int] = {}
    keys: list[tuple[tuple, int]] = []
    entry = _Entry()
    started = False

    def flush() -> None:
        nonlocal entry, started
        if started:
            keys.append(((entry.obsolete, entry.msgctxt and "".join(entry.msgctxt),
                          "".join(entry.msgid)), entry.line))
            _count(entry, counts)
        entry = _Entry()
        started = False

    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line:
            continue
        if not entry.line:
            entry.line = number  # the entry's first line, as polib and the checker count
        obsolete = False
        if line.startswith("#~"):
            line = line[2:].lstrip()
            obsolete = True
            if line.startswith("|"):
                continue  # previous msgid of an obsolete entry
        elif line[0] == "#":
            if entry.has_msgstr:
                flush()
                entry.line = number
            if line.startswith("#,"):
                if "fuzzy" in (flag.strip() for flag in line[2:].split(",")):
                    entry.fuzzy = True
            elif line.startswith("#:"):
                for location in line[2:].split():
                    name = location.rsplit(":", 1)[0] if ":" in location else location
                    sources[name] = sources.get(name, 0) + 1
            continue
        if line[0] == '"':
            if entry.field is None:
                raise UserError("syntax error in catalog: a string outside an entry", path, number)
            entry.field.append(_string(line, path, number))
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and entry.has_msgstr:
            flush()
            entry.line = number
        started = True
        if obsolete:
            entry.obsolete = True
        value = _string(rest.strip(), path, number)
        if keyword == "msgid":
            entry.msgid = [value]
            entry.field = entry.msgid
        elif keyword == "msgctxt":
            entry.msgctxt = [value]
            entry.field = entry.msgctxt
        elif keyword == "msgid_plural":
            entry.field = [value]   # plural source: not counted, like polib's words
        elif keyword == "msgstr" or keyword.startswith("msgstr["):
            entry.has_msgstr = True
            entry.msgstrs.append([value])
            entry.field = entry.msgstrs[-1]
        else:
            raise UserError(f"syntax error in catalog: unknown keyword {keyword!r}", path, number)
    flush()
    poverdict.check_duplicates(keys, path)
    return CatalogScan(counts, sources)


def _string(token: str, path: Path, number: int) -> str:
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise UserError("syntax error in catalog: expected a quoted string", path, number)
    return token[1:-1]


def _count(entry: _Entry, counts: Counts) -> None:
    msgid = "".join(entry.msgid)
    if not msgid and entry.msgctxt is None:
        return  # the header
    if entry.obsolete:
        counts.obsolete += 1
        return
    words = len(_unescape(msgid).split())
    counts.messages += 1
    counts.words += words
    if entry.fuzzy:
        counts.fuzzy += 1
        counts.words_fuzzy += words
    elif entry.msgstrs and all("".join(part) for part in entry.msgstrs):
        counts.translated += 1
        counts.words_translated += words
        if len(entry.msgstrs) != 1 or "".join(entry.msgstrs[0]) != msgid:
            counts.translated_prose += 1
    else:
        counts.untranslated += 1
        counts.words_untranslated += words
