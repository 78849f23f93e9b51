"""Translation memory: reuse what the catalogs already say.

* **Exact**: an untranslated message whose msgid (English) is translated anywhere in
  the catalogs, obsolete entries included, gets that translation and counts as
  translated. Text that moved from one page to another keeps its translation: the old
  page's entry became obsolete (``#~``), the new page's entry is filled from it.
* **Near**: otherwise, the most similar translated msgid (rapidfuzz ratio at or above a
  threshold) is offered as a *fuzzy* suggestion: its translation, the fuzzy flag, its
  English as the previous msgid (``#|``, so Poedit shows what differs) and a translator
  comment naming where it came from. A suggestion is never marked translated. For code
  (multi-line messages) the suggestion is this message's own code with the other
  cell's translated comments carried onto it (:mod:`jaxko.workflow.codesync`), never
  the other cell's code.
* **Form**: between the two, a msgid that differs from a translated one only in its
  numbers, dates and URLs (a changelog's version heading, its commit-link line) gets
  that translation with those parts substituted, dates written "YYYY년 M월 D일"
  (:mod:`jaxko.workflow.tmforms`). Translated only when the substitution is exact;
  otherwise a fuzzy suggestion with a translator comment saying why.

Only reviewed text is remembered: fuzzy entries are never a source. Nothing that has a
msgstr or a fuzzy flag is ever touched.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import polib

from jaxko import catalogs
from jaxko.workflow import codesync, tmforms

DEFAULT_THRESHOLD = 0.8
# Near matches for very short messages ("Returns", "Example") are noise.
MIN_NEAR_WORDS = 4
COMMENT_PREFIX = "tm:"


@dataclass(frozen=True)
class Unit:
    """One remembered translation and where it was found."""

    msgid: str
    msgstr: str
    catalog: Path
    where: str          # "jit-compilation.md:45" or "jit-compilation.po (obsolete)"
    obsolete: bool


@dataclass
class Memory:
    """Translations by msgid, best first, plus a length-sorted list for near matches."""

    by_msgid: dict[str, list[Unit]] = field(default_factory=dict)
    forms: tmforms.Forms = field(default_factory=tmforms.Forms)
    _near: list[tuple[int, str]] = field(default_factory=list)

    def add(self, unit: Unit) -> None:
        self.by_msgid.setdefault(unit.msgid, []).append(unit)
        self.forms.add(unit)

    def best(self, msgid: str) -> Unit | None:
        """The translation to reuse: active before obsolete, then the most common text."""
        units = self.by_msgid.get(msgid)
        if not units:
            return None
        active = [u for u in units if not u.obsolete] or units
        votes = Counter(u.msgstr for u in active)
        text = max(votes, key=lambda s: (votes[s], -min(i for i, u in enumerate(active) if u.msgstr == s)))
        return next(u for u in active if u.msgstr == text)

    def freeze(self) -> None:
        self._near = sorted((len(msgid), msgid) for msgid in self.by_msgid)

    def nearest(self, msgid: str, threshold: float) -> tuple[Unit, float] | None:
        """The most similar remembered msgid with ratio >= threshold (0..1), if any."""
        if not self._near:
            return None
        # ratio = 2*common/(la+lb) <= 2*min/(la+lb): bound the lengths worth comparing.
        length = len(msgid)
        low = int(length * threshold / (2 - threshold))
        high = int(length * (2 - threshold) / threshold) + 1
        start = bisect.bisect_left(self._near, (low, ""))
        stop = bisect.bisect_right(self._near, (high, "\U0010ffff"))
        choices = [text for _, text in self._near[start:stop] if text != msgid]
        if not choices:
            return None
        from rapidfuzz import fuzz, process   # C++ edit distance; imported when first needed

        found = process.extractOne(msgid, choices, scorer=fuzz.ratio, processor=None,
                                   score_cutoff=threshold * 100)
        if found is None:
            return None
        text, score, _ = found
        return self.best(text), score / 100


def _where(entry: polib.POEntry, catalog: Path, root: Path | None) -> str:
    if entry.occurrences and not entry.obsolete:
        name, line = entry.occurrences[0]
        return f"{name}:{line}" if line else name
    try:
        shown = catalog.relative_to(root) if root else catalog
    except ValueError:
        shown = catalog
    return f"{shown.as_posix()} (obsolete)" if entry.obsolete else shown.as_posix()


def remembered(entry: polib.POEntry) -> bool:
    """Whether an entry is reviewed text the memory may reuse (obsolete ones included)."""
    return bool(entry.msgid) and bool(entry.msgstr) and not entry.msgid_plural \
        and "fuzzy" not in entry.flags


def build_memory(paths: Iterable[Path], root: Path | None = None,
                 loaded: dict[Path, polib.POFile] | None = None) -> Memory:
    """Every reviewed translation in the catalogs under ``paths``."""
    memory = Memory()
    for path in catalogs.iter_catalogs(paths):
        catalog = loaded[path] if loaded and path in loaded else catalogs.load(path)
        for entry in catalog:
            if remembered(entry):
                memory.add(Unit(entry.msgid, entry.msgstr, path,
                                _where(entry, path, root), entry.obsolete))
    memory.freeze()
    return memory


@dataclass
class Fill:
    """One filled entry, for the report."""

    catalog: Path
    location: str        # the entry's own first location, e.g. "index.rst:43"
    msgid: str
    kind: str            # "exact", "form" (translated), "form-fuzzy" or "near"
    ratio: float
    source: str


@dataclass
class FillResult:
    fills: list[Fill] = field(default_factory=list)
    changed: list[Path] = field(default_factory=list)
    catalogs: int = 0

    def count(self, kind: str) -> int:
        return sum(1 for f in self.fills if f.kind == kind)


def _fillable(entry: polib.POEntry) -> bool:
    return (bool(entry.msgid) and not entry.obsolete and not entry.msgstr
            and not entry.msgid_plural and "fuzzy" not in entry.flags)


def fill_catalog(catalog: polib.POFile, memory: Memory, *, near: bool = True,
                 threshold: float = DEFAULT_THRESHOLD, forms: bool = True,
                 only=None) -> list[Fill]:
    """Fill one loaded catalog in place; returns what was filled."""
    path = Path(catalog.fpath)
    fills = []
    for entry in catalog:
        if not _fillable(entry) or (only is not None and not only(entry)):
            continue
        location = (f"{entry.occurrences[0][0]}:{entry.occurrences[0][1]}"
                    if entry.occurrences else f"{path.name}:{entry.linenum}")
        unit = memory.best(entry.msgid)
        if unit is not None:
            entry.msgstr = unit.msgstr
            fills.append(Fill(path, location, entry.msgid, "exact", 1.0, unit.where))
            continue
        found_form = memory.forms.match(entry.msgid) if forms else None
        if found_form is not None:
            unit, made = found_form
            if made.exact:
                entry.msgstr = made.msgstr
                fills.append(Fill(path, location, entry.msgid, "form", 1.0, unit.where))
                continue
            if not near:   # --exact-only: no fuzzy suggestion of any kind
                continue
            entry.msgstr = made.msgstr
            entry.flags.append("fuzzy")
            entry.previous_msgid = unit.msgid
            note = (f"{COMMENT_PREFIX} same form as {unit.where}, numbers/dates/URLs "
                    f"substituted; check: {made.reason}")
            entry.tcomment = f"{entry.tcomment}\n{note}" if entry.tcomment else note
            fills.append(Fill(path, location, entry.msgid, "form-fuzzy", 1.0, unit.where))
            continue
        if not near or len(entry.msgid.split()) < MIN_NEAR_WORDS:
            continue
        found = memory.nearest(entry.msgid, threshold)
        if found is None:
            continue
        unit, ratio = found
        suggestion = unit.msgstr
        if "\n" in entry.msgid or "\n" in unit.msgid:
            # Code: never offer another cell's code; carry its translated comments onto
            # this cell's own code, or offer nothing.
            suggestion = codesync.carry(unit.msgid, entry.msgid, unit.msgstr)
            if suggestion is None:
                continue
        entry.msgstr = suggestion
        entry.flags.append("fuzzy")
        entry.previous_msgid = unit.msgid
        note = f"{COMMENT_PREFIX} {ratio:.0%} match from {unit.where}"
        entry.tcomment = f"{entry.tcomment}\n{note}" if entry.tcomment else note
        fills.append(Fill(path, location, entry.msgid, "near", ratio, unit.where))
    return fills


def fill(targets: Iterable[Path], memory_paths: Iterable[Path], *, near: bool = True,
         threshold: float = DEFAULT_THRESHOLD, dry_run: bool = False,
         root: Path | None = None, progress: bool = False, forms: bool = True,
         only=None) -> FillResult:
    """Fill every catalog under ``targets`` from the memory of ``memory_paths``
    (with ``only``, a predicate on an entry, only the entries it accepts)."""
    target_paths = list(catalogs.iter_catalogs(targets))
    loaded = {path: catalogs.load(path) for path in target_paths}
    memory = build_memory(memory_paths, root, loaded)
    result = FillResult(catalogs=len(target_paths))
    items: Iterable[Path] = target_paths
    if progress and len(target_paths) > 1:
        from tqdm import tqdm
        items = tqdm(target_paths, desc="tm fill", unit="file", leave=False)
    for path in items:
        fills = fill_catalog(loaded[path], memory, near=near, threshold=threshold,
                             forms=forms, only=only)
        if fills:
            result.fills.extend(fills)
            if dry_run or catalogs.save(loaded[path], path):
                result.changed.append(path)
    return result
