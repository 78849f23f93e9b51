"""Cross-review records: who approved which message, kept beside the catalogs.

``locale/<lang>/reviews/<docname>.yaml`` holds one record per reviewed message, keyed by
content: ``key`` hashes (msgctxt, msgid), ``msgstr_hash`` the approved Korean. The
approved Korean is stored too, so a changed message shows its word-level diff. Nothing
is written into the catalogs, and ``jaxko update`` never touches the records: a record is
*current* while a non-fuzzy message with the same key has the same msgstr; otherwise the
message is back in the queue by itself (msgstr edited: its diff against the approved
Korean; msgid changed upstream: the record of the previous msgid from ``#|``).

Kinds say honestly who did the work: ``person`` (a second person), ``self`` (the
translator reviewed their own work, ``--self``) and ``ai-pass`` (an independent second
pass by an AI agent, named as such everywhere).
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

import polib
import yaml

from jaxko import catalogs
from jaxko.errors import UserError
from jaxko.workflow import assignments as assignments_mod
from jaxko.workflow.documents import Document

KINDS = ("person", "self", "ai-pass")
VERDICTS = ("approved", "rejected")


def message_key(msgctxt: str | None, msgid: str) -> str:
    """A message's identity: 12 hex digits of SHA-1 over (msgctxt, msgid)."""
    text = (msgctxt or "") + "\x04" + msgid
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Record:
    """One reviewer's verdict on one message's exact text."""

    key: str
    msgstr_hash: str
    msgstr: str            # the Korean that was reviewed (for the diff)
    reviewer: str
    date: str              # ISO date
    kind: str = "person"
    verdict: str = "approved"
    note: str = ""


@dataclass(frozen=True)
class Item:
    """One message of a catalog with its review state."""

    key: str
    line: int
    msgid: str
    msgstr: str
    state: str                         # reviewed | unreviewed | changed | rejected | fuzzy | untranslated
    record: Record | None = None       # the current approval, or the record it differs from
    previous_msgid: str | None = None  # from #| when upstream changed the English
    diff: str = ""                     # word diff: approved Korean -> current Korean

    @property
    def waiting(self) -> bool:
        """In the review queue (translated or fuzzy, without a current approval)."""
        return self.state in ("unreviewed", "changed", "rejected", "fuzzy")


def reviews_dir(locale_dir: Path | None, language: str = "ko") -> Path:
    from jaxko import paths
    return (locale_dir or paths.locale_dir()) / language / "reviews"


def records_path(reviews: Path, docname: str) -> Path:
    return reviews / f"{docname}.yaml"


def load_records(path: Path) -> dict[str, Record]:
    """The records of one catalog by key; a missing file has none."""
    if not path.is_file():
        return {}
    try:
        # libyaml's loader when PyYAML has it: every site build reads all records
        # (banners, progress page), which the pure-Python loader made seconds long.
        data = yaml.load(path.read_text(encoding="utf-8"),
                         Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or []
    except yaml.YAMLError as err:
        line = getattr(getattr(err, "problem_mark", None), "line", None)
        raise UserError("not valid YAML; fix the file or restore it from git",
                        path, line + 1 if line is not None else None) from None
    except UnicodeDecodeError as err:
        line = path.read_bytes()[: err.start].count(b"\n") + 1
        raise UserError("not valid UTF-8; save the file as UTF-8", path, line) from None
    if not isinstance(data, list):
        raise UserError("expected a list of review records", path)
    result = {}
    names = {f for f in Record.__dataclass_fields__}
    for number, raw in enumerate(data, 1):
        if not isinstance(raw, dict) or not {"key", "msgstr_hash", "reviewer", "date"} <= set(raw) \
                or not set(raw) <= names:
            raise UserError(f"record {number} is malformed; each needs key, msgstr_hash, "
                            "msgstr, reviewer, date", path)
        record = Record(**{k: str(v) for k, v in raw.items()})
        if record.kind not in KINDS or record.verdict not in VERDICTS:
            raise UserError(f"record {number}: kind must be one of {', '.join(KINDS)}, "
                            f"verdict one of {', '.join(VERDICTS)}", path)
        result[record.key] = record
    return result


def save_records(path: Path, records: dict[str, Record]) -> None:
    """Write records sorted by key, one block each (small diffs), atomically."""
    items = [{k: v for k, v in asdict(records[key]).items() if v != "" or k == "msgstr"}
             for key in sorted(records)]
    text = yaml.safe_dump(items, allow_unicode=True, sort_keys=False, width=100)
    path.parent.mkdir(parents=True, exist_ok=True)
    catalogs.write_text_atomic(path, text)


def word_diff(old: str, new: str) -> str:
    """``[-removed-]{+added+}`` over whitespace-separated words."""
    a, b = old.split(), new.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.extend(a[i1:i2])
            continue
        if i2 > i1:
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def _entries(po: polib.POFile):
    for entry in po:
        if entry.obsolete or (not entry.msgid and entry.msgctxt is None):
            continue
        yield entry


def items_of(po: polib.POFile, records: dict[str, Record]) -> list[Item]:
    """Every message of a catalog with its review state, in catalog order."""
    result = []
    for entry in _entries(po):
        key = message_key(entry.msgctxt, entry.msgid)
        record = records.get(key)
        previous = None
        if entry.previous_msgid is not None:
            previous = entry.previous_msgid
            if record is None:
                record = records.get(message_key(entry.previous_msgctxt or entry.msgctxt,
                                                 entry.previous_msgid))
        if "fuzzy" in entry.flags:
            state = "fuzzy"
        elif not catalogs.is_translated(entry):
            state = "untranslated"
        elif record is None:
            state = "unreviewed"
        elif record.msgstr_hash != text_hash(entry.msgstr) or record.key != key:
            state = "changed"
        elif record.verdict == "rejected":
            state = "rejected"
        else:
            state = "reviewed"
        diff = ""
        if record is not None and state in ("changed", "fuzzy") and record.msgstr != entry.msgstr:
            diff = word_diff(record.msgstr, entry.msgstr)
        result.append(Item(key, entry.linenum, entry.msgid, entry.msgstr, state, record,
                           previous, diff))
    return result


# --------------------------------------------------------------------------- refusals


def error_findings(catalog: Path) -> dict[str, list[str]]:
    """Open error findings of ``jaxko check`` per message key (the check library)."""
    from jaxko import check
    check.load_rules_modules()
    result = check.run(check.Options(paths=[catalog], jobs=1, progress=False))
    po = catalogs.load(catalog)
    by_msgid: dict[str, list[str]] = {}
    for entry in _entries(po):
        by_msgid.setdefault(entry.msgid, []).append(message_key(entry.msgctxt, entry.msgid))
    found: dict[str, list[str]] = {}
    for finding in result.findings:
        if finding.severity != "error":
            continue
        for key in by_msgid.get(finding.msgid, ()):
            found.setdefault(key, []).append(f"{finding.rule}: {finding.message}")
    return found


def blame_authors(catalog: Path, entry: polib.POEntry) -> list[str]:
    """Authors (git blame) of the lines of an entry's msgstr, newest first; [] without git."""
    lines = catalog.read_text(encoding="utf-8").split("\n")
    start = entry.linenum  # 1-based line of msgid (or msgctxt)
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    try:
        out = subprocess.run(["git", "blame", "--porcelain", "-L", f"{start},{end}", "--",
                              catalog.name], cwd=catalog.parent, capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if out.returncode != 0:
        return []
    stamps: dict[str, int] = {}
    author = None
    for line in out.stdout.split("\n"):
        if line.startswith("author "):
            author = line[7:]
        elif line.startswith("author-time ") and author is not None:
            stamps[author] = max(stamps.get(author, 0), int(line[12:]))
    return sorted(stamps, key=lambda name: -stamps[name])


@dataclass(frozen=True)
class Decision:
    """What ``approve``/``reject`` recorded."""

    docname: str
    keys: tuple[str, ...]
    verdict: str
    kind: str


def decide(document: Document, reviews: Path, *, reviewer: str, keys: list[str] | None,
           all_clean: bool = False, verdict: str = "approved", kind: str = "person",
           allow_self: bool = False, note: str = "", assignments_path: Path | None = None,
           today: dt.date | None = None) -> Decision:
    """Approve or reject messages of one document; refusals are one-line UserErrors."""
    reviewer = reviewer.strip()
    if not reviewer:
        raise UserError("--reviewer is empty; give the reviewer's name")
    if kind not in ("person", "ai-pass"):
        raise UserError(f"unknown --kind {kind!r}; use person or ai-pass")
    if verdict == "rejected" and not note.strip():
        raise UserError("a rejection needs --note TEXT saying what to fix")
    catalog = document.catalog
    po = catalogs.load(catalog)
    path = records_path(reviews, document.docname)
    records = load_records(path)
    items = {item.key: item for item in items_of(po, records)}
    entries = {message_key(e.msgctxt, e.msgid): e for e in _entries(po)}
    errors = error_findings(catalog) if verdict == "approved" else {}
    if all_clean:
        chosen = [k for k, item in items.items()
                  if item.waiting and item.state != "fuzzy" and k not in errors]
    else:
        chosen = []
        for key in keys or ():
            if key not in items:
                raise UserError(f"no message {key!r} in this catalog; `jaxko review queue "
                                f"{document.docname}` lists the message ids", catalog)
            chosen.append(key)
    if not chosen:
        raise UserError("nothing to record; pass --message ID (from `jaxko review queue`)"
                        + (" or --all-clean" if verdict == "approved" else ""), catalog)
    assignment = None
    if assignments_path is not None:
        assignment = assignments_mod.load(assignments_path).for_docname(document.docname)
    translators = {n.casefold() for n in (assignment.translators if assignment else ())}
    for key in chosen:
        item = items[key]
        where = (catalog, item.line)
        if item.state in ("untranslated", "fuzzy") and verdict == "approved":
            raise UserError(f"message {key} is {item.state}; translate it and clear the fuzzy "
                            "flag before approving", *where)
        if key in errors:
            raise UserError(f"message {key} has open errors ({errors[key][0]}); fix them and "
                            "run `jaxko check` before approving", *where)
        if verdict == "approved":
            authors = {a.casefold() for a in blame_authors(catalog, entries[key])[:1]}
            if reviewer.casefold() in translators | authors:
                if not allow_self or kind != "person":   # an AI pass is never a self-review
                    raise UserError(f"{reviewer} translated message {key}; a second person "
                                    "reviews it (or pass --self to record a self-review)", *where)
    if allow_self and kind == "person":
        kind = "self"
    date = (today or dt.date.today()).isoformat()
    for key in chosen:
        msgstr = entries[key].msgstr
        records[key] = Record(key, text_hash(msgstr), msgstr, reviewer, date, kind, verdict,
                              note.strip())
    save_records(path, records)
    return Decision(document.docname, tuple(chosen), verdict, kind)


# --------------------------------------------------------------------------- summaries


@dataclass(frozen=True)
class ReviewCounts:
    """A document's review state in messages, and who reviewed it."""

    translated: int
    reviewed: int
    reviewers: tuple[tuple[str, str], ...]   # (name, kind), most messages first
    last_date: str | None

    @property
    def percent(self) -> float:
        return 100.0 * self.reviewed / self.translated if self.translated else 0.0

    @property
    def complete(self) -> bool:
        return self.translated > 0 and self.reviewed == self.translated


def summarise(items: list[Item]) -> ReviewCounts:
    translated = [i for i in items if i.state not in ("untranslated", "fuzzy")]
    reviewed = [i for i in translated if i.state == "reviewed"]
    tally: dict[tuple[str, str], int] = {}
    for item in reviewed:
        who = (item.record.reviewer, item.record.kind)
        tally[who] = tally.get(who, 0) + 1
    dates = [i.record.date for i in reviewed]
    return ReviewCounts(len(translated), len(reviewed),
                        tuple(sorted(tally, key=lambda w: (-tally[w], w))),
                        max(dates) if dates else None)


# --------------------------------------------------------------------------- pull requests


@dataclass(frozen=True)
class Voided:
    """An approval that was current at the base revision and is not any more."""

    docname: str
    catalog: Path
    line: int
    key: str
    msgid: str
    state: str
    record: Record


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=60)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise UserError(f"git failed: {err}") from None


def voided_since(revision: str, documents: dict[str, Document], reviews: Path
                 ) -> tuple[list[Voided], dict[str, ReviewCounts]]:
    """Approvals an edit since ``revision`` voids, and the review counts of touched documents."""
    if not documents:
        return [], {}
    root_probe = next(iter(documents.values())).catalog.parent
    top = _git(["rev-parse", "--show-toplevel"], root_probe)
    if top.returncode != 0:
        raise UserError("not in a git repository; --since needs one", root_probe)
    root = Path(top.stdout.strip())
    diff = _git(["diff", "--name-only", revision, "--"], root)
    if diff.returncode != 0:
        raise UserError(f"unknown revision {revision!r}; fetch it or pass another --since")
    changed = {(root / name).resolve() for name in diff.stdout.split()}
    voided: list[Voided] = []
    summary: dict[str, ReviewCounts] = {}
    for docname in sorted(documents):
        doc = documents[docname]
        records_file = records_path(reviews, docname)
        if doc.catalog.resolve() not in changed and records_file.resolve() not in changed:
            continue
        records = load_records(records_file)
        now = items_of(catalogs.load(doc.catalog), records)
        summary[docname] = summarise(now)
        relative = doc.catalog.resolve().relative_to(root).as_posix()
        old_text = _git(["show", f"{revision}:{relative}"], root)
        if old_text.returncode != 0 or not records:
            continue   # a new catalog or no records: nothing to void
        old = {i.key: i for i in items_of(polib.pofile(old_text.stdout), records)}
        for item in now:
            before = old.get(item.key)
            if before is not None and before.state == "reviewed" and item.state != "reviewed":
                voided.append(Voided(docname, doc.catalog, item.line, item.key, item.msgid,
                                     item.state, before.record))
        # messages whose msgid changed have a new key: match by the previous msgid
        for item in now:
            if item.previous_msgid is None or item.key in old:
                continue
            before = old.get(message_key(None, item.previous_msgid))
            if before is not None and before.state == "reviewed":
                voided.append(Voided(docname, doc.catalog, item.line, item.key, item.msgid,
                                     item.state, before.record))
    return voided, summary


# --------------------------------------------------------------------------- interactive


def interactive(document: Document, reviews: Path, *, reviewer: str, ask, show,
                edit=None, assignments_path: Path | None = None, kind: str = "person",
                allow_self: bool = False) -> dict[str, int]:
    """One waiting message at a time: [a]pprove, [r]eject, [s]kip, [e]dit, [q]uit.

    ``ask(prompt) -> str`` and ``show(text)`` talk to the terminal; ``edit(text) -> str``
    returns the edited Korean (an editor). A refusal is shown and the session goes on.
    """
    tally = {"approved": 0, "rejected": 0, "skipped": 0, "edited": 0}
    records = load_records(records_path(reviews, document.docname))
    waiting = [i for i in items_of(catalogs.load(document.catalog), records) if i.waiting]
    for number, item in enumerate(waiting, 1):
        show(f"[{number}/{len(waiting)}] {document.catalog}:{item.line} {item.key} ({item.state})")
        if item.previous_msgid is not None:
            show(f"  was: {item.previous_msgid}")
        show(f"  en:  {item.msgid}\n  ko:  {item.msgstr}")
        if item.diff:
            show(f"  diff since approval: {item.diff}")
        while True:
            answer = ask("[a]pprove [r]eject [s]kip [e]dit [q]uit? ").strip().lower()[:1]
            try:
                if answer == "a":
                    decide(document, reviews, reviewer=reviewer, keys=[item.key], kind=kind,
                           allow_self=allow_self, assignments_path=assignments_path)
                    tally["approved"] += 1
                elif answer == "r":
                    note = ask("note for the translator: ")
                    decide(document, reviews, reviewer=reviewer, keys=[item.key],
                           verdict="rejected", note=note, assignments_path=assignments_path)
                    tally["rejected"] += 1
                elif answer == "e" and edit is not None:
                    po = catalogs.load(document.catalog)
                    entry = next(e for e in _entries(po)
                                 if message_key(e.msgctxt, e.msgid) == item.key)
                    entry.msgstr = edit(entry.msgstr)
                    catalogs.save(po, document.catalog)
                    tally["edited"] += 1   # edited by the reviewer: it waits for another one
                elif answer == "s":
                    tally["skipped"] += 1
                elif answer == "q":
                    return tally
                else:
                    continue
            except UserError as err:
                show(f"  refused: {err.message}")
                continue
            break
    return tally
