"""Reading, merging and writing gettext catalogs: one parser, one writer, one width.

Every tool that saves a catalog goes through :func:`save`, so a catalog written by
``jaxko update``, ``jaxko tm fill`` or ``jaxko fmt`` is byte-identical for the same
content, and diffs stay small.

Why the merge is ours and not ``sphinx-intl update``: sphinx-intl (2.x) merges with
babel's ``Catalog.update``, which does fuzzy matching but (a) writes no previous
msgid (``#| msgid``), so translators cannot see what changed upstream, (b) lets one
old translation seed several new entries and then drops it from the obsolete list,
(c) never revives an obsolete entry whose text comes back, and (d) writes files in
place, not atomically. We keep sphinx-intl's model (``.pot`` in, ``.po`` out, one
catalog per document) and do the merge with polib, where those four are easy.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import polib

from jaxko import poverdict
from jaxko.errors import UserError

# msgmerge and Poedit wrap at 79 columns; using the same width means a catalog saved by
# Poedit produces no whole-file diff against ours.
WRAP_WIDTH = 79

# difflib ratio at which a changed paragraph keeps its old translation as a fuzzy
# suggestion (msgmerge's default feels similar; babel uses 0.6 too).
FUZZY_CUTOFF = 0.6

_SYNTAX_ERROR = re.compile(r"\(line (\d+)\)")


def load(path: str | os.PathLike, *, allow_duplicates: bool = False) -> polib.POFile:
    """Parse a .po/.pot file, turning every parse problem into a one-line UserError.

    Two entries with the same msgctxt and msgid are refused (naming both lines): every
    merge keeps one entry per key, so reading such a catalog would silently drop the
    other's translation. ``allow_duplicates`` is for `jaxko fmt --merge-duplicates`."""
    path = Path(path)
    if not path.is_file():
        raise UserError("catalog not found", path)
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        line = path.read_bytes()[: err.start].count(b"\n") + 1
        raise UserError("not valid UTF-8; save the catalog as UTF-8", path, line) from None
    except OSError as err:
        raise UserError(f"cannot read catalog: {err.strerror}", path) from None
    poverdict.check_text(text, path, duplicates=not allow_duplicates)
    try:
        # From the path, not the text: polib splits text with str.splitlines(), which
        # also breaks at \v and \f, and Sphinx writes such characters unescaped.
        catalog = polib.pofile(str(path), wrapwidth=WRAP_WIDTH, encoding="utf-8")
    except (OSError, ValueError) as err:
        match = _SYNTAX_ERROR.search(str(err))
        line = int(match.group(1)) if match else None
        raise UserError("syntax error in catalog; fix the entry or restore it from git", path, line) from None
    catalog.fpath = str(path)
    if not allow_duplicates:
        # polib takes the first `msgid ""` as the header and keeps no line for it: the
        # header stands first (its first non-blank line), as the other readers see it.
        header = next((n for n, line in enumerate(text.split("\n"), 1) if line.strip()), 1)
        keys = [((False, None, ""), header)] if catalog.metadata or catalog.header else []
        keys += [((False, e.msgctxt, e.msgid), e.linenum) for e in catalog if not e.obsolete]
        poverdict.check_duplicates(keys, path)
    return catalog


def has_translation(entry: polib.POEntry) -> bool:
    """Whether an entry carries any translated text (msgstr, or any msgstr[n])."""
    return bool(entry.msgstr) or any(entry.msgstr_plural.values())


def merge_duplicates(catalog: polib.POFile) -> int:
    """Merge entries that share msgctxt and msgid into the first; returns how many were
    merged away. No translation is dropped: equal or missing translations merge
    silently; a conflicting one leaves the first msgstr, marks the entry fuzzy and
    keeps the other text in a translator comment for the translator to choose."""
    kept: dict[tuple[bool, str | None, str], polib.POEntry] = {}
    removed = 0
    for entry in list(catalog):
        key = (entry.obsolete, entry.msgctxt, entry.msgid)
        first = kept.get(key)
        if first is None:
            kept[key] = entry
            continue
        catalog.remove(entry)
        removed += 1
        for place in entry.occurrences:
            if place not in first.occurrences:
                first.occurrences.append(place)
        if not has_translation(entry) or _same_translation(first, entry):
            continue
        if not has_translation(first):
            first.msgstr, first.msgstr_plural = entry.msgstr, dict(entry.msgstr_plural)
            first.flags = list(dict.fromkeys(first.flags + entry.flags))
            continue
        other = entry.msgstr or " | ".join(v for _, v in sorted(entry.msgstr_plural.items()))
        note = f"jaxko fmt --merge-duplicates: another translation was: {other}"
        first.tcomment = f"{first.tcomment}\n{note}" if first.tcomment else note
        if "fuzzy" not in first.flags:
            first.flags.append("fuzzy")
    return removed


def _same_translation(a: polib.POEntry, b: polib.POEntry) -> bool:
    return a.msgstr == b.msgstr and a.msgstr_plural == b.msgstr_plural


def render(catalog: polib.POFile) -> str:
    """The catalog as text, in the project's one format."""
    catalog.wrapwidth = WRAP_WIDTH
    text = str(catalog)
    return text if text.endswith("\n") else text + "\n"


def write_text_atomic(path: str | os.PathLike, text: str) -> bool:
    """Write ``text`` to ``path`` via a temporary file and rename; skip identical content.

    Returns whether the file changed. An unchanged file keeps its mtime, so Sphinx and
    make stay incremental.
    """
    # Through a symlink to its target: replacing the link with a file would leave the
    # target stale and the link gone.
    path = Path(os.path.realpath(path))
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    except OSError as err:
        raise UserError(f"cannot read: {err.strerror}", path) from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise UserError(f"cannot write here: {err.strerror}; check permissions", path.parent) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise UserError(f"cannot write: {err.strerror}", path) from None
    return True


def save(catalog: polib.POFile, path: str | os.PathLike | None = None) -> bool:
    """Save atomically in the project's format; returns whether the file changed."""
    target = path or catalog.fpath
    if target is None:
        raise ValueError("catalog has no path")
    return write_text_atomic(target, render(catalog))


def iter_catalogs(paths: Iterable[str | os.PathLike], suffix: str = ".po") -> Iterator[Path]:
    """Every catalog under the given files and folders, sorted, each once."""
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob(f"*{suffix}") if p.is_file())
        elif path.is_file():
            found = [path]
        else:
            raise UserError("no such file or directory", path)
        for item in found:
            if item not in seen:
                seen.add(item)
                yield item


def is_translated(entry: polib.POEntry) -> bool:
    return has_translation(entry) and not entry.obsolete and "fuzzy" not in entry.flags


# --------------------------------------------------------------------------- merge


@dataclass
class MergeStats:
    """What one update did to one catalog."""

    entries: int = 0
    new: int = 0
    kept: int = 0          # translated (or fuzzy) entries whose msgid is unchanged
    fuzzy: int = 0         # old translations carried to a changed msgid, marked fuzzy
    revived: int = 0       # obsolete translations whose msgid came back
    obsolete: int = 0      # translations whose msgid is gone, kept as #~ entries
    dropped_untranslated: int = 0

    def add(self, other: "MergeStats") -> None:
        for name in ("entries", "new", "kept", "fuzzy", "revived", "obsolete", "dropped_untranslated"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def _key(entry: polib.POEntry) -> tuple[str | None, str]:
    return (entry.msgctxt, entry.msgid)


def _normalise_occurrences(occurrences, pot_dir: Path | None, srcdir: Path | None):
    """Locations that do not depend on where the checkout or the build lives.

    Documents: relative to the docs tree (``notebooks/x.ipynb:20003``). Docstrings:
    relative to site-packages (``jax/errors.py:docstring of ...``).
    """
    if pot_dir is None or srcdir is None:
        return list(occurrences)
    out = []
    for name, line in occurrences:
        absolute = (pot_dir / name).resolve() if not os.path.isabs(name) else Path(name)
        try:
            name = absolute.relative_to(srcdir.resolve()).as_posix()
        except ValueError:
            posix = name.replace(os.sep, "/")
            if "site-packages/" in posix:
                name = posix.split("site-packages/", 1)[1]
            elif posix.endswith(">") and "<" in posix:
                name = posix[posix.rindex("<"):]
        out.append((name, line))
    return out


def _best_match(msgid: str, candidates: list[polib.POEntry]) -> polib.POEntry | None:
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(msgid)
    best, best_ratio = None, FUZZY_CUTOFF
    for cand in candidates:
        matcher.set_seq1(cand.msgid)
        if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
            continue
        ratio = matcher.ratio()
        if ratio > best_ratio or (best is None and ratio >= best_ratio):
            best, best_ratio = cand, ratio
    return best


def merge(po: polib.POFile, pot: polib.POFile, *, pot_dir: Path | None = None,
          srcdir: Path | None = None) -> tuple[polib.POFile, MergeStats]:
    """Merge a template into a catalog without ever losing a translation.

    * same msgid: translation, fuzzy flag, translator comments kept; locations and
      extracted comments from the template;
    * changed msgid: the most similar vanished translation becomes a fuzzy suggestion
      with the old text as previous msgid (``#| msgid``); each old translation seeds at
      most one new entry, so counts add up;
    * vanished msgid: obsolete (``#~``), kept; untranslated ones are simply dropped;
    * msgid that comes back: its obsolete translation is revived.
    """
    stats = MergeStats()
    active = {_key(e): e for e in po if not e.obsolete}
    obsolete = {_key(e): e for e in po if e.obsolete}
    result = polib.POFile(wrapwidth=WRAP_WIDTH)
    result.header = po.header
    result.metadata = dict(po.metadata)
    result.metadata_is_fuzzy = po.metadata_is_fuzzy
    result.fpath = po.fpath

    used: set[tuple[str | None, str]] = set()
    unmatched: list[polib.POEntry] = []
    for template in pot:
        if not template.msgid:
            continue
        key = _key(template)
        entry = polib.POEntry(
            msgid=template.msgid,
            msgid_plural=template.msgid_plural,
            msgctxt=template.msgctxt,
            occurrences=_normalise_occurrences(template.occurrences, pot_dir, srcdir),
            comment=template.comment,
            flags=[f for f in template.flags if f != "fuzzy"],
        )
        old = active.get(key)
        if old is None and key in obsolete and has_translation(obsolete[key]):
            old = obsolete.pop(key)
            stats.revived += 1
        elif old is not None:
            used.add(key)
            if has_translation(old):
                stats.kept += 1
        if old is not None:
            _carry_translation(old, entry)
            if old.fuzzy:
                entry.flags.append("fuzzy")
                entry.previous_msgid = old.previous_msgid
                entry.previous_msgctxt = old.previous_msgctxt
        else:
            unmatched.append(entry)
            stats.new += 1
        if entry.msgid_plural and not entry.msgstr_plural:
            entry.msgstr_plural = {i: "" for i in range(_nplurals(po))}
        result.append(entry)

    vanished = [e for k, e in active.items() if k not in used]
    candidates = [e for e in vanished if has_translation(e)]
    stats.dropped_untranslated = sum(1 for e in vanished if not has_translation(e))
    for entry in unmatched:
        if not candidates:
            break
        source = _best_match(entry.msgid, candidates)
        if source is None:
            continue
        candidates.remove(source)
        _carry_translation(source, entry)
        entry.flags.append("fuzzy")
        entry.previous_msgid = source.msgid
        entry.previous_msgctxt = source.msgctxt
        stats.fuzzy += 1
        stats.new -= 1

    for entry in obsolete.values():
        result.append(entry)
    for entry in candidates:
        entry.obsolete = True
        entry.occurrences = []
        # polib writes an obsolete previous msgid as `#~|`, which it cannot read back.
        entry.previous_msgid = entry.previous_msgctxt = entry.previous_msgid_plural = None
        result.append(entry)
        stats.obsolete += 1
    stats.entries = sum(1 for e in result if not e.obsolete)
    return result, stats


def _carry_translation(old: polib.POEntry, entry: polib.POEntry) -> None:
    """Copy a translation (singular or plural forms) and its translator comment."""
    entry.tcomment = old.tcomment
    if entry.msgid_plural:
        forms = dict(old.msgstr_plural) or ({0: old.msgstr} if old.msgstr else {})
        entry.msgstr_plural = forms
    else:
        entry.msgstr = old.msgstr or old.msgstr_plural.get(0, "")


def _nplurals(catalog: polib.POFile) -> int:
    match = re.search(r"nplurals\s*=\s*(\d+)", catalog.metadata.get("Plural-Forms", ""))
    return int(match.group(1)) if match else 1


def new_catalog(pot: polib.POFile, language: str, *, pot_dir: Path | None = None,
                srcdir: Path | None = None) -> polib.POFile:
    """A fresh catalog for a template, with a stable header (no dates that churn)."""
    po = polib.POFile(wrapwidth=WRAP_WIDTH)
    give_header(po, pot, language)
    empty = polib.POFile(wrapwidth=WRAP_WIDTH)
    merged, _ = merge(empty, pot, pot_dir=pot_dir, srcdir=srcdir)
    for entry in merged:
        po.append(entry)
    return po


def give_header(po: polib.POFile, pot: polib.POFile, language: str) -> None:
    """The project's header (comment and fields) for a catalog that has none."""
    po.header = (f"{language} translation of the JAX documentation (jax-docs-ko).\n"
                 "Distributed under the same license as the JAX docs (Apache-2.0).")
    po.metadata = {
        "Project-Id-Version": pot.metadata.get("Project-Id-Version", "JAX"),
        "Report-Msgid-Bugs-To": "",
        "Language": language,
        "Language-Team": f"{language} <https://github.com/jax-docs-ko/jax-docs-ko>",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=1; plural=0;",
    }
