"""A persistent cache of check results per catalog, so an unchanged catalog is not
checked again (what ruff and mypy do for source files).

What a catalog's findings depend on, and how the cache knows it is unchanged:

* the catalog's bytes: a SHA-256 of the file (cheap next to reading it, and unlike
  mtimes it survives ``git checkout`` and a copy; a collision-resistant hash because the
  site gate trusts this cache for its verdicts, :mod:`jaxko.site.state`);
* the source documents its ``#:`` locations name, which tell code blocks from prose:
  their size and mtime, recorded per catalog;
* everything else is the run's *fingerprint*: the glossary file's bytes, the rule
  selection and the severities the project gives them, ``--syntax``, the source
  folder, the Python version, the versions of docutils and the MyST parser, and the
  source of the ``jaxko`` package itself (a changed rule invalidates everything).

The cache is one JSON file (never pickle: a checkout under review must not be able to
run code through a planted cache file) in ``.jaxko_cache/`` of the current folder,
or ``$JAXKO_CACHE_DIR``. It is written atomically; a missing, unreadable or
foreign cache is simply a cold start, and a cache that cannot be written costs
speed, never the check. A cache that git tracks stops the check (a pull request could
plant one to hide findings; :func:`jaxko.memo.refuse_tracked`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from jaxko.catalogs import write_text_atomic
from jaxko.memo import code_digest, file_digest
from jaxko.errors import UserError

VERSION = 6  # 6: records keep their unused `jaxko: ignore` names (and those entries' texts); 5: SHA-256 (the site gate trusts it); 4: findings keep their fix (edits), records their `jaxko: ignore` names
FILENAME = "check.json"
DEFAULT_DIR = ".jaxko_cache"
# Libraries whose behaviour the rules embed (the syntax rule runs their parsers and
# knows Sphinx's roles and directives).
_LIBRARIES = ("docutils", "myst-parser", "markdown-it-py", "sphinx")


def default_dir() -> Path:
    return Path(os.environ.get("JAXKO_CACHE_DIR") or DEFAULT_DIR)


def stat_signature(path: Path) -> list[int] | None:
    """[mtime_ns, size] of a source document, None when it does not exist."""
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size]


def _library_versions() -> list[str]:
    """The installed distributions of the parsers (their ``*.dist-info`` folder names,
    which carry the version; importlib.metadata would cost more than the whole lookup)."""
    prefixes = tuple(name.replace("-", "_").lower() + "-" for name in _LIBRARIES)
    found = []
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        found.extend(n for n in names if n.endswith(".dist-info") and n.lower().startswith(prefixes))
    return sorted(found)


def fingerprint(*, glossary: Path | None, use_glossary: bool, syntax: str | None,
                select: list[str] | None, ignore: list[str] | None,
                source_dir: Path | None, severity: dict[str, str] | None = None) -> str:
    """Everything besides the catalog and its sources that the findings depend on."""
    glossary_digest = None
    if use_glossary and glossary is not None:
        glossary_digest = file_digest(glossary)
    parts = [VERSION, sys.version, _library_versions(), code_digest(), glossary_digest,
             use_glossary, syntax, sorted(select or []), sorted(ignore or []),
             str(source_dir.resolve()) if source_dir is not None else None,
             sorted((severity or {}).items())]
    text = json.dumps(parts, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Entry:
    """One catalog's cached result (findings without their path: a later run may
    name the same catalog differently, relative or absolute)."""

    digest: str
    sources: dict[str, list[int] | None]   # document -> stat signature
    entries: int
    checked: int
    suppressed: int
    findings: list[list]                   # [line, rule, severity, message, msgid, suggestion, msgstr, msgctxt, fix]
    # [key hash, msgstr hash, line, ignored names, unused names, texts or None] each; the
    # texts ([msgctxt, msgid, msgstr]) only of an entry with unused names
    records: list

    def valid(self, digest: str | None, srcdir: Path | None) -> bool:
        if digest is None or digest != self.digest:
            return False
        for document, signature in self.sources.items():
            current = stat_signature(srcdir / document) if srcdir is not None else None
            if current != signature:
                return False
        return True


def _entry(raw) -> Entry | None:
    """An Entry from its JSON form, or None when any part has the wrong shape (a
    damaged or hand-edited cache must cost a re-check, never a traceback)."""
    try:
        entry = Entry(**raw)
    except TypeError:
        return None
    ok = (isinstance(entry.digest, str) and isinstance(entry.sources, dict)
          and all(isinstance(k, str) and (v is None or (isinstance(v, list) and len(v) == 2))
                  for k, v in entry.sources.items())
          and all(isinstance(n, int) for n in (entry.entries, entry.checked, entry.suppressed))
          and isinstance(entry.findings, list)
          and all(isinstance(f, list) and len(f) == 9 and isinstance(f[0], int)
                  and all(isinstance(x, str) for x in f[1:5]) and (f[5] is None or isinstance(f[5], str))
                  and isinstance(f[6], str) and (f[7] is None or isinstance(f[7], str))
                  and isinstance(f[8], list)
                  and all(isinstance(e, list) and len(e) == 3 and isinstance(e[0], int)
                          and isinstance(e[1], int) and isinstance(e[2], str) for e in f[8])
                  for f in entry.findings)
          and isinstance(entry.records, list)
          and all(isinstance(r, list) and len(r) == 6 and isinstance(r[3], list)
                  and all(isinstance(n, str) for n in r[3]) and isinstance(r[4], list)
                  and all(isinstance(n, str) for n in r[4])
                  and (r[5] is None or (isinstance(r[5], list) and len(r[5]) == 3
                                        and (r[5][0] is None or isinstance(r[5][0], str))
                                        and isinstance(r[5][1], str) and isinstance(r[5][2], str)))
                  for r in entry.records))
    return entry if ok else None


class Cache:
    """The cache file of one run: loaded once, updated, saved once."""

    def __init__(self, folder: Path, fingerprint_: str):
        self.folder = folder
        self.path = folder / FILENAME
        self.fingerprint = fingerprint_
        self.files: dict[str, Entry] = {}
        self.changed = False
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(data, dict) or data.get("fingerprint") != self.fingerprint:
            return
        files = data.get("files")
        if not isinstance(files, dict):
            return
        for name, raw in files.items():
            entry = _entry(raw)
            if entry is None:
                self.changed = True  # a damaged item: dropped, rewritten on save
            else:
                self.files[name] = entry

    def get(self, key: str, digest: str | None, srcdir: Path | None) -> Entry | None:
        entry = self.files.get(key)
        if entry is not None and entry.valid(digest, srcdir):
            return entry
        return None

    def put(self, key: str, entry: Entry) -> None:
        self.files[key] = entry
        self.changed = True

    def prune(self) -> None:
        """Forget catalogs that no longer exist."""
        for name in [n for n in self.files if not os.path.exists(n)]:
            del self.files[name]
            self.changed = True

    def save(self) -> bool:
        """Write the cache atomically; False (and nothing written) when it cannot be."""
        if not self.changed:
            return True

        data = {"fingerprint": self.fingerprint,
                "files": {name: vars(entry) for name, entry in sorted(self.files.items())}}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # Like .ruff_cache: never committed, whatever the project's .gitignore says.
            ignore = self.folder / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Created by jaxko check.\n*\n", encoding="utf-8")
            write_text_atomic(self.path, json.dumps(data, ensure_ascii=False,
                                                    separators=(",", ":")))
        except (OSError, UserError):
            return False
        self.changed = False
        return True
