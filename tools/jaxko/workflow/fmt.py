"""``jaxko fmt``: rewrap catalogs to the project's one format, changing no content.

Poedit, Lokalize and hand edits wrap strings their own way; a catalog saved by one of
them would otherwise show a diff on every wrapped line. Formatting is load + save
through :mod:`jaxko.catalogs`, then a guard re-reads the result and refuses to write if
any message, flag, comment, location or header field differs.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import polib

from jaxko import catalogs
from jaxko.errors import UserError


def content(catalog: polib.POFile) -> tuple:
    """Everything a catalog says, independent of wrapping, header field order and where
    obsolete entries stand (polib writes them after the active ones, as msgmerge does)."""
    entries = tuple(
        (e.msgctxt, e.msgid, e.msgid_plural, e.msgstr, tuple(sorted(e.msgstr_plural.items())),
         e.obsolete, tuple(e.flags), e.tcomment) + (() if e.obsolete else (
             # polib does not write these for obsolete entries: nothing a translator wrote
             e.comment, tuple(e.occurrences), e.previous_msgctxt, e.previous_msgid,
             e.previous_msgid_plural))
        for e in sorted(catalog, key=lambda e: e.obsolete))  # stable: order kept within each
    return (catalog.header, tuple(sorted(catalog.metadata.items())),
            catalog.metadata_is_fuzzy, entries)


def _parse_text(text: str) -> polib.POFile:
    # Parse from a file, as catalogs.load does (polib's string parsing splits at \v, \f).
    fd, tmp = tempfile.mkstemp(suffix=".po")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        return polib.pofile(tmp, wrapwidth=catalogs.WRAP_WIDTH, encoding="utf-8")
    finally:
        os.unlink(tmp)


@dataclass
class FmtResult:
    path: Path
    changed: bool          # reformatted (or, with check, would be)
    merged: int = 0        # duplicate entries merged into their first (--merge-duplicates)


def _load(path: Path, current: bytes, merge_duplicates: bool = False) -> polib.POFile:
    """Load a catalog; Windows line ends (an editor's choice, not content) are read as LF."""
    if b"\r\n" not in current:
        return catalogs.load(path, allow_duplicates=merge_duplicates)
    # catalogs.load reads `"...\r` as an unterminated string; parse an LF copy instead.
    fd, tmp = tempfile.mkstemp(suffix=".po")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(current.replace(b"\r\n", b"\n"))
        try:
            catalog = catalogs.load(tmp, allow_duplicates=merge_duplicates)
        except UserError as err:
            raise UserError(err.message, path, err.line) from None
    finally:
        os.unlink(tmp)
    catalog.fpath = str(path)
    return catalog


def format_catalog(path: Path, *, check: bool = False, merge_duplicates: bool = False) -> FmtResult:
    """Rewrap one catalog; with ``check``, only report whether it would change.

    ``merge_duplicates`` merges entries with the same msgid (see
    :func:`jaxko.catalogs.merge_duplicates`: no translation is dropped)."""
    try:
        current = path.read_bytes()
    except FileNotFoundError:
        raise UserError("catalog not found", path) from None
    except OSError as err:
        raise UserError(f"cannot read: {err.strerror}", path) from None
    if not current.strip():
        raise UserError("empty catalog; restore it from git or run `jaxko update`", path)
    catalog = _load(path, current, merge_duplicates)
    if not catalog.metadata:
        raise UserError("catalog has no header entry (msgid \"\" with Content-Type); "
                        "restore it from git or run `jaxko update`", path, 1)
    merged = catalogs.merge_duplicates(catalog) if merge_duplicates else 0
    text = catalogs.render(catalog)
    if current == text.encode("utf-8"):
        return FmtResult(path, False)
    if merged:
        if not check:
            catalogs.write_text_atomic(path, text)
        return FmtResult(path, True, merged)
    if content(_parse_text(text)) != content(catalog):
        raise UserError("polib cannot write this catalog back with the same content (an "
                        "unusual comment?); not written: keep the file as it is", path)
    if check:
        return FmtResult(path, True)
    catalogs.write_text_atomic(path, text)
    return FmtResult(path, True)


def format_paths(paths: Iterable[str | os.PathLike], *, check: bool = False,
                 progress: bool = False, merge_duplicates: bool = False) -> list[FmtResult]:
    """Format every catalog under the given files and folders."""
    found = list(catalogs.iter_catalogs(paths))
    items: Iterable[Path] = found
    if progress and len(found) > 1:
        from tqdm import tqdm
        items = tqdm(found, desc="fmt", unit="file", leave=False)
    return [format_catalog(path, check=check, merge_duplicates=merge_duplicates)
            for path in items]
