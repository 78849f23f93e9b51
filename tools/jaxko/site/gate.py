"""The security gate of the site build, first layer: before Sphinx runs, what a
translation must not do is taken out of the catalogs Sphinx reads.

:func:`gate_catalogs`: every catalog is read through the one verdict
(:func:`jaxko.catalogs.check_text`) and written again beside the output
(``_build/html-locale/``) from what was read, so Sphinx reads exactly the entries the checker judged, in plain
gettext syntax; the msgstr of every entry that a ``safety`` rule refuses (above all
``safety.structure``: a directive, raw/HTML node, role, reference, substitution, image
or URL the msgid lacks, as Sphinx's own parser for that document reads it) is left
empty, so that page keeps the English for that entry. An entry is found by its key
(catalog, msgctxt, msgid), never by its text elsewhere. Each blocked entry is reported
as ``catalog:line: rule: ...``; under ``--strict`` the build stops there, before Sphinx
parses anything. Unchanged catalogs are not rewritten (their mtime stays, so Sphinx
stays incremental).

The second layer runs inside Sphinx, whatever the catalogs or sources say: the
extension :mod:`jaxko.site.ext.gate`. The driver hands it nothing but the gated
catalogs (``locale_dirs``).

docs/threat-model.md says who can change what and what each gate stops.
"""


from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from jaxko import catalogs
from jaxko.forked import fork_map
from jaxko.check.message import MessageKey
from jaxko.errors import UserError
from jaxko.check import runner
from jaxko.memo import Memo, digest_bytes, file_digest


@dataclass(frozen=True)
class Blocked:
    """One translation the gate kept off the site."""

    path: str
    line: int
    rule: str
    message: str
    msgid: str
    msgctxt: str | None = None

    @property
    def key(self) -> MessageKey:
        return MessageKey(self.path, self.msgctxt, self.msgid)

    def format(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.message} (the page keeps the English)"


@dataclass
class GateResult:
    locale_dir: Path                 # what Sphinx reads instead of locale/
    blocked: list[Blocked] = field(default_factory=list)


def find_blocked(catalogs_dir: Path, srcdir: Path | None,
                 cache_dir: Path | None = None) -> list[Blocked]:
    """Every translated message the safety rules refuse, with its catalog line.

    ``cache_dir``: the check's result cache (:mod:`jaxko.check.cache`, keyed by the
    SHA-256 of each catalog, its source documents and the checker's own source), kept
    in the build's state (:mod:`jaxko.site.state`): a catalog is judged again whenever
    one of those changed."""

    options = runner.Options(paths=[catalogs_dir], use_glossary=False, select=["safety"],
                             source_dir=srcdir, cache_dir=cache_dir)
    result = runner.run(options)
    # Every safety finding blocks, whatever severity a project gives it for `jaxko check`.
    return [Blocked(f.path, f.line, f.rule, f.message, f.msgid, f.msgctxt)
            for f in result.findings]


def _resolved(key: MessageKey) -> MessageKey:
    return key._replace(catalog=str(Path(key.catalog).resolve()))


# Sphinx 8.2 extracts a paragraph line that ends in a backslash (a MyST hard break, a
# reST escaped newline) as "text\\ next"; Sphinx 9 drops the backslash and the blanks
# before it ("text next"). A catalog extracted by one version is looked up by the other.
_LINE_END_BACKSLASH = re.compile(r"[ \t]*\\ ")
_MAX_BACKSLASHES = 4  # variants of a msgid: 2 ** n


def line_end_aliases(msgid: str) -> list[str]:
    """The msgids another Sphinx version may look ``msgid`` up by: each ``\\ `` that
    may have ended a source line dropped, in every combination (a mid-line ``\\ `` is
    kept by both versions, so some combination is the one asked for)."""
    spots = list(_LINE_END_BACKSLASH.finditer(msgid))
    if not spots or len(spots) > _MAX_BACKSLASHES:
        return []
    aliases = []
    for mask in range(1, 2 ** len(spots)):
        parts, last = [], 0
        for index, spot in enumerate(spots):
            if mask >> index & 1:
                parts += [msgid[last:spot.start()], " "]
                last = spot.end()
        aliases.append("".join(parts) + msgid[last:])
    return aliases


def _add_line_end_aliases(catalog) -> None:
    """Each translated message whose msgid holds a line-end backslash, once more under
    the msgid the other Sphinx version extracts (:func:`line_end_aliases`)."""
    import polib

    taken = {(entry.msgctxt, entry.msgid) for entry in catalog}
    for entry in list(catalog):
        if entry.obsolete or not entry.msgstr or "\\" not in entry.msgid:
            continue
        for alias in line_end_aliases(entry.msgid):
            if (entry.msgctxt, alias) not in taken:
                taken.add((entry.msgctxt, alias))
                catalog.append(polib.POEntry(msgctxt=entry.msgctxt, msgid=alias,
                                             msgstr=entry.msgstr))


def _write_gated(task: tuple[Path, Path, frozenset]) -> str:
    """One catalog's gated copy, written; the SHA-256 of what was written."""
    path, out, refused = task
    name = str(path.resolve())
    # One reading: Sphinx gets the catalog as the verdict and polib read it, written
    # anew (what a reader the checker never saw could find in the original is gone).
    catalog = catalogs.load(path)
    for entry in catalog:
        if entry.obsolete:
            continue
        if MessageKey(name, entry.msgctxt, entry.msgid) in refused:
            entry.msgstr = ""
            entry.msgstr_plural = {k: "" for k in entry.msgstr_plural}
    _add_line_end_aliases(catalog)
    rendered = catalogs.render(catalog)
    catalogs.write_text_atomic(out, rendered)
    return digest_bytes(rendered.encode("utf-8"))


def gate_catalogs(locale_dir: Path, language: str, gated_root: Path,
                  srcdir: Path | None = None, state: Path | None = None) -> GateResult:
    """Copy ``locale_dir`` to ``gated_root`` without the refused msgstrs.

    ``state``: a folder for what the next build may reuse (the verdicts, and which
    gated copy came from which catalog); None judges and writes every catalog."""
    source = locale_dir / language / "LC_MESSAGES"
    if not source.is_dir():
        raise UserError(f"no {language} catalogs here; run `jaxko update` or pass --locale-dir",
                        source)
    blocked = find_blocked(source, srcdir, state / "check" if state is not None else None)
    refused = {_resolved(item.key) for item in blocked}
    target = gated_root / language / "LC_MESSAGES"
    # Which gated copy came from which catalog bytes and refusals: an unchanged catalog
    # is not read and rendered again, unless its copy is not what was written.
    copies = Memo(state / "copies.json" if state is not None else None, "gated copies")
    wanted: set[Path] = set()
    keys: list[str] = []
    todo: list[tuple[Path, Path, frozenset]] = []
    for path in sorted(p for p in source.rglob("*.po") if p.is_file()):
        rel = path.relative_to(source)
        out = target / rel
        wanted.add(out)
        name = str(path.resolve())
        own = frozenset(k for k in refused if k.catalog == name)
        mine = sorted([k.msgctxt or "", k.msgid] for k in own)
        key = " ".join((rel.as_posix(), digest_bytes(path.read_bytes()),
                        digest_bytes(repr(mine).encode())))
        written = copies.get(key)
        if written is not None and written == file_digest(out):
            continue
        keys.append(key)
        todo.append((path, out, own))
    # In forked workers where that is safe (jaxko.forked): each catalog is its own work.
    for key, digest in zip(keys, fork_map(_write_gated, todo)):
        copies.put(key, digest)
    copies.save()
    if target.is_dir():  # catalogs removed from locale/ leave the gated copy too
        for stale in [p for p in target.rglob("*") if p.is_file() and p.with_suffix(".po") not in wanted]:
            stale.unlink()
    # The rest of locale/<lang>/ (assignments, review records) as it is: the banner and
    # progress pages read them beside the catalogs.
    for extra in (locale_dir / language).rglob("*"):
        if extra.is_file() and source not in extra.parents:
            copy = gated_root / language / extra.relative_to(locale_dir / language)
            catalogs.write_text_atomic(copy, extra.read_text(encoding="utf-8"))
    return GateResult(gated_root, blocked)
