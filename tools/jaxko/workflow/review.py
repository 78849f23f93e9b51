"""Cross-review records: who read which message, kept beside the catalogs.

``locale/<lang>/reviews/<docname>.yaml`` holds the records of one catalog. A message is
identified by one key, the catalog (the file) with ``key``, 12 hex digits of SHA-1 over
its (msgctxt, msgid); ``msgstr_hash`` is the hash of the Korean that was read, stored
beside it (``msgstr``) so a changed message shows its word-level diff. Nothing is
written into the catalogs, and ``jaxko update`` never touches the records: a record is
*current* while a non-fuzzy message with the same key has the same msgstr; otherwise
the message is back in the queue by itself (msgstr edited: its diff against the Korean
that was read; msgid changed upstream: the records of the previous msgid from ``#|``).

A message has at most one record per :class:`Kind` (who did the reading); a newer
verdict of the same kind keeps the older ones in its ``history`` (a rejection that was
fixed and then approved stays visible). Two records of one kind for one message are
bad input. The three :class:`Level` values are the one vocabulary every surface uses
(``jaxko stats``, the banner, the progress page, the review pages): not reviewed, AI
pass only, reviewed by a person. 검수 means a person; an AI pass is always named so.
"""

from __future__ import annotations

import datetime as dt
import difflib
import enum
import hashlib
import subprocess
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Iterator, Mapping, NamedTuple

import polib
import yaml

from jaxko import catalogs
from jaxko.errors import UserError
from jaxko.workflow import assignments as assignments_mod
from jaxko.workflow import reviewers
from jaxko.workflow.documents import Document
from jaxko import check
from jaxko import paths


class Kind(str, enum.Enum):
    """Who read a message: the one list of kinds, with the label every surface shows."""

    PERSON = "person"      # a second person
    SELF = "self"          # the translator, reviewing their own work (--self)
    AI_PASS = "ai-pass"    # an independent second pass by an AI agent

    @property
    def label(self) -> str:
        """Korean label (credits, banner, review pages)."""
        return {"person": "검수", "self": "역자 본인 검수", "ai-pass": "AI 검토"}[self.value]

    @property
    def level(self) -> "Level":
        """The level a current approval of this kind gives a message."""
        return Level.AI_PASS if self is Kind.AI_PASS else Level.PERSON

    @classmethod
    def parse(cls, text: str) -> "Kind":
        try:
            return cls(text)
        except ValueError:
            raise UserError(f"unknown review kind {text!r}; use one of "
                            + ", ".join(k.value for k in cls)) from None


class Level(enum.IntEnum):
    """How far a translated message is reviewed: the three levels every surface shows."""

    NOT_REVIEWED = 0
    AI_PASS = 1      # approved by an AI pass, by no person
    PERSON = 2       # approved by a person (a second person, or the translator: --self)

    @property
    def key(self) -> str:
        """Name in JSON output."""
        return ("not_reviewed", "ai_pass_only", "person")[self]

    @property
    def label(self) -> str:
        """Korean label."""
        return ("검수 전", "AI 검토만", "사람 검수")[self]

    @property
    def label_en(self) -> str:
        return ("not reviewed", "AI pass only", "reviewed by a person")[self]


APPROVED, REJECTED = "approved", "rejected"
VERDICTS = (APPROVED, REJECTED)

# The queue states of a message, for a reviewer of some kind (see Item.state).
STATES = ("unreviewed", "ai-passed", "changed", "rejected", "fuzzy")


def message_key(msgctxt: str | None, msgid: str) -> str:
    """A message's identity in its catalog: 12 hex digits of SHA-1 over (msgctxt, msgid)."""
    text = (msgctxt or "") + "\x04" + msgid
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Past:
    """An earlier verdict of the same kind on the same message (a record's history)."""

    msgstr_hash: str
    msgstr: str
    reviewer: str
    date: str
    verdict: str = APPROVED
    note: str = ""


@dataclass(frozen=True)
class Record:
    """One kind of reviewer's latest verdict on one message's exact text."""

    key: str
    msgstr_hash: str
    msgstr: str            # the Korean that was read (for the diff; its hash is msgstr_hash)
    reviewer: str
    date: str              # ISO date
    kind: Kind = Kind.PERSON
    verdict: str = APPROVED
    note: str = ""
    history: tuple[Past, ...] = ()                  # earlier verdicts of this kind, oldest first
    line: int = field(default=0, compare=False)     # line in the records file (0: not read)

    @property
    def approved(self) -> bool:
        return self.verdict == APPROVED

    def as_past(self) -> Past:
        return Past(self.msgstr_hash, self.msgstr, self.reviewer, self.date, self.verdict,
                    self.note)

    def after(self, older: "Record | None") -> "Record":
        """This record replacing ``older`` (same message and kind): the older one's
        verdict goes into the history, nothing is lost."""
        if older is None:
            return self
        return replace(self, history=older.history + (older.as_past(),))


@dataclass
class Records:
    """The records of one catalog: at most one per (message key, kind)."""

    by_key: dict[tuple[str, Kind], Record] = field(default_factory=dict)

    def of(self, key: str) -> dict[Kind, Record]:
        """A message's records by kind."""
        return {kind: self.by_key[(key, kind)] for kind in Kind if (key, kind) in self.by_key}

    def get(self, key: str, kind: Kind) -> Record | None:
        return self.by_key.get((key, kind))

    def put(self, record: Record) -> None:
        self.by_key[(record.key, record.kind)] = record

    def __iter__(self) -> Iterator[Record]:
        order = list(Kind)
        for key, kind in sorted(self.by_key, key=lambda k: (k[0], order.index(k[1]))):
            yield self.by_key[(key, kind)]

    def __len__(self) -> int:
        return len(self.by_key)

    def __bool__(self) -> bool:
        return bool(self.by_key)


def reviews_dir(locale_dir: Path | None, language: str = "ko") -> Path:
    return (locale_dir or paths.locale_dir()) / language / "reviews"


def records_path(reviews: Path, docname: str) -> Path:
    return reviews / f"{docname}.yaml"


# --------------------------------------------------------------------------- the file

_RECORD_FIELDS = ("key", "msgstr_hash", "msgstr", "reviewer", "date", "kind", "verdict", "note",
                  "history")
_PAST_FIELDS = ("msgstr_hash", "msgstr", "reviewer", "date", "verdict", "note")
_REQUIRED = ("key", "msgstr_hash", "msgstr", "reviewer", "date")
_LINE = "__line__"


class _LineLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """A safe loader that notes each mapping's line (for file:line errors)."""


def _mapping_with_line(loader, node):
    mapping = loader.construct_mapping(node, deep=True)
    mapping[_LINE] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_with_line)


def load_records(path: Path) -> Records:
    """The records of one catalog; a missing file has none."""
    if not path.is_file():
        return Records()
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise UserError("not valid UTF-8; save the file as UTF-8", path, line) from None
    return parse_records(text, path)


def parse_records(text: str, path: Path | str) -> Records:
    """Records from the text of a records file; bad input is one UserError with its line."""
    try:
        data = yaml.load(text, Loader=_LineLoader) or []
    except yaml.YAMLError as err:
        line = getattr(getattr(err, "problem_mark", None), "line", None)
        raise UserError("not valid YAML; fix the file or restore it from git",
                        path, line + 1 if line is not None else None) from None
    if not isinstance(data, list):
        raise UserError("expected a list of review records", path, 1)
    records = Records()
    for number, raw in enumerate(data, 1):
        line = raw.get(_LINE) if isinstance(raw, dict) else _item_line(text, number)
        record = _record(raw, number, path, line)
        first = records.get(record.key, record.kind)
        if first is not None:
            raise UserError(f"a second {record.kind.value} record for message {record.key} "
                            f"(the first is on line {first.line}); keep one record per message "
                            "and kind, with earlier verdicts under its `history`", path, line)
        records.put(record)
    return records


def _item_line(text: str, number: int) -> int | None:
    """The line of the ``number``-th entry of a records file (an entry that is no
    mapping carries no line of its own; only read on that error)."""
    node = yaml.compose(text, Loader=_LineLoader)
    if isinstance(node, yaml.SequenceNode) and 0 < number <= len(node.value):
        return node.value[number - 1].start_mark.line + 1
    return None


def _record(raw, number: int, path, line: int | None) -> Record:
    def bad(what: str):
        return UserError(f"record {number} {what}", path, line)

    if not isinstance(raw, dict):
        raise bad("is not a mapping; each record needs " + ", ".join(_REQUIRED))
    fields = {k: v for k, v in raw.items() if k != _LINE}
    missing = [name for name in _REQUIRED if name not in fields]
    unknown = [str(name) for name in fields if name not in _RECORD_FIELDS]
    if missing or unknown:
        raise bad(("lacks " + ", ".join(missing) if missing else "")
                  + ("; " if missing and unknown else "")
                  + ("has unknown fields " + ", ".join(unknown) if unknown else "")
                  + "; each record needs " + ", ".join(_REQUIRED))
    kind_text = str(fields.get("kind", Kind.PERSON.value))
    if kind_text not in {k.value for k in Kind}:
        raise bad(f"has kind {kind_text!r}; use one of " + ", ".join(k.value for k in Kind))
    verdict = str(fields.get("verdict", APPROVED))
    if verdict not in VERDICTS:
        raise bad(f"has verdict {verdict!r}; use one of " + ", ".join(VERDICTS))
    history = fields.get("history") or []
    if not isinstance(history, list):
        raise bad("has a history that is not a list")
    past = []
    for item in history:
        if not isinstance(item, dict):
            raise bad("has a history entry that is not a mapping")
        item = {k: v for k, v in item.items() if k != _LINE}
        if not {"msgstr_hash", "reviewer", "date"} <= set(item) or not set(item) <= set(_PAST_FIELDS) \
                or str(item.get("verdict", APPROVED)) not in VERDICTS:
            raise bad("has a malformed history entry; each needs " + ", ".join(_PAST_FIELDS[:4])
                      + " and a verdict of " + ", ".join(VERDICTS))
        past.append(Past(**{k: str(v) for k, v in item.items()}))
    values = {k: str(fields[k]) for k in ("key", "msgstr_hash", "msgstr", "reviewer", "date")}
    return Record(**values, kind=Kind(kind_text), verdict=verdict, note=str(fields.get("note", "")),
                  history=tuple(past), line=line or 0)


def _as_yaml(record: Record) -> dict:
    out = {"key": record.key, "msgstr_hash": record.msgstr_hash, "msgstr": record.msgstr,
           "reviewer": record.reviewer, "date": record.date, "kind": record.kind.value,
           "verdict": record.verdict}
    if record.note:
        out["note"] = record.note
    if record.history:
        out["history"] = [{k: v for k, v in vars(p).items() if v != "" or k == "msgstr"}
                          for p in record.history]
    return out


def save_records(path: Path, records: Records | Iterable[Record]) -> None:
    """Write records sorted by key and kind, one block each (small diffs), atomically."""
    if not isinstance(records, Records):
        collected = Records()
        for record in records:
            collected.put(record)
        records = collected
    text = yaml.safe_dump([_as_yaml(r) for r in records], allow_unicode=True, sort_keys=False,
                          width=100)
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


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class Item:
    """One message of a catalog with its review records."""

    key: str
    line: int                          # line of its msgstr (where `jaxko check` points too)
    msgctxt: str | None
    msgid: str
    msgstr: str
    translation: str                   # translated | fuzzy | untranslated
    # Its records by kind; for a fuzzy message whose msgid changed upstream and that has
    # none of its own, the records of the previous msgid (#|).
    records: Mapping[Kind, Record] = field(default_factory=dict)
    previous_msgid: str | None = None  # from #| when upstream changed the English
    previous_key: str | None = None    # the key of (#| msgctxt, #| msgid)

    def is_current(self, record: Record) -> bool:
        """Whether ``record`` judged exactly this message's present text."""
        return (self.translation == "translated" and record.key == self.key
                and record.msgstr_hash == text_hash(self.msgstr))

    def approval(self, *kinds: Kind) -> Record | None:
        """The current approval of one of ``kinds`` (in that order), if any."""
        for kind in kinds:
            record = self.records.get(kind)
            if record is not None and record.approved and self.is_current(record):
                return record
        return None

    @property
    def level(self) -> Level:
        if self.approval(Kind.PERSON, Kind.SELF) is not None:
            return Level.PERSON
        if self.approval(Kind.AI_PASS) is not None:
            return Level.AI_PASS
        return Level.NOT_REVIEWED

    @property
    def rejection(self) -> Record | None:
        """The newest current rejection of any kind (it waits for the translator)."""
        found = [r for r in self.records.values() if not r.approved and self.is_current(r)]
        return max(found, key=lambda r: r.date) if found else None

    def waiting_for(self, kind: Kind = Kind.PERSON) -> bool:
        """In the queue of a reviewer of ``kind``: translated or fuzzy, and below the
        level that kind gives (a person's queue holds AI-passed messages too)."""
        if self.translation == "untranslated":
            return False
        return self.translation == "fuzzy" or self.level < kind.level

    def state(self, kind: Kind = Kind.PERSON) -> str:
        """reviewed, untranslated, or the queue state for a reviewer of ``kind``:
        fuzzy, rejected, changed (read before in other words), ai-passed, unreviewed."""
        if self.translation != "translated":
            return self.translation
        if not self.waiting_for(kind):
            return "reviewed"
        if self.rejection is not None:
            return "rejected"
        if self.earlier() is not None:
            return "changed"
        if self.level is Level.AI_PASS:
            return "ai-passed"
        return "unreviewed"

    def earlier(self) -> Record | None:
        """A record of an earlier text of this message, what the word diff compares
        with: an approval (a person's before an AI pass's), else a rejection the
        translator has since answered by editing (the reviewer sees what changed in
        answer to it)."""
        for approved in (True, False):
            for kind in Kind:
                record = self.records.get(kind)
                if record is not None and record.approved is approved \
                        and not self.is_current(record):
                    return record
        return None

    @property
    def diff(self) -> str:
        """Word diff from the Korean of the earlier record (:meth:`earlier`: an approval,
        else a rejection) to the present Korean."""
        record = self.earlier()
        if record is None or record.msgstr == self.msgstr:
            return ""
        return word_diff(record.msgstr, self.msgstr)


def read_items(catalog: Path, records: Records, *, text: str | None = None,
               po: polib.POFile | None = None) -> list[Item]:
    """Every message of a catalog with its records, in catalog order.

    ``text``: the catalog as it was (``git show``), read as if it were at ``catalog``.
    ``po``: the catalog at ``catalog`` as the caller has just loaded it (not read again).
    """
    if text is None:
        po = po if po is not None else catalogs.load(catalog)
        text = catalogs.read_text(catalog)
    else:
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / catalog.name
            copy.write_text(text, encoding="utf-8")
            po = catalogs.load(copy)
    lines = {(e.msgctxt, e.msgid): e.msgstr_line for e in catalogs.parse(text, catalog)}
    result = []
    for entry in _entries(po):
        key = message_key(entry.msgctxt, entry.msgid)
        own = records.of(key)
        previous = previous_key(entry) if entry.previous_msgid is not None else None
        if not own and previous is not None:
            own = records.of(previous)
        if "fuzzy" in entry.flags:
            translation = "fuzzy"
        elif catalogs.is_translated(entry):
            translation = "translated"
        else:
            translation = "untranslated"
        result.append(Item(key, lines[(entry.msgctxt, entry.msgid)], entry.msgctxt,
                           entry.msgid, entry.msgstr, translation, own, entry.previous_msgid,
                           previous))
    return result


def previous_key(entry: polib.POEntry) -> str:
    """The key the message had before upstream changed it (#| msgctxt and #| msgid)."""
    return message_key(entry.previous_msgctxt, entry.previous_msgid or "")


def _entries(po: polib.POFile):
    for entry in po:
        if entry.obsolete or (not entry.msgid and entry.msgctxt is None):
            continue
        yield entry


# --------------------------------------------------------------------------- summaries


@dataclass(frozen=True)
class Credit:
    """Who has current approvals on a document, of which kind, on how many messages."""

    name: str
    kind: Kind
    messages: int
    last_date: str


@dataclass(frozen=True)
class ReviewCounts:
    """A document's translated messages by review level, and who reviewed them."""

    translated: int
    person: int = 0
    ai_pass_only: int = 0
    credits: tuple[Credit, ...] = ()     # kind order (person, self, ai-pass), most messages first

    @property
    def not_reviewed(self) -> int:
        return self.translated - self.person - self.ai_pass_only

    def count(self, level: Level) -> int:
        return (self.not_reviewed, self.ai_pass_only, self.person)[level]

    def percent(self, level: Level) -> float:
        return 100.0 * self.count(level) / self.translated if self.translated else 0.0

    @property
    def complete(self) -> bool:
        """검수 완료: every translated message has a person's current approval."""
        return self.translated > 0 and self.person == self.translated

    @property
    def state(self) -> str:
        """One word for the document's review, the banner's vocabulary: ``complete``
        (every translated message approved by a person), ``partial`` (some), ``ai`` (an
        AI pass and no person), ``none``, ``untranslated``."""
        if not self.translated:
            return "untranslated"
        if self.complete:
            return "complete"
        if self.person:
            return "partial"
        return "ai" if self.ai_pass_only else "none"

    def credits_of(self, *kinds: Kind) -> tuple[Credit, ...]:
        return tuple(c for c in self.credits if c.kind in kinds)

    def last_date(self, *kinds: Kind) -> str | None:
        dates = [c.last_date for c in self.credits_of(*kinds)]
        return max(dates) if dates else None

    def add(self, other: "ReviewCounts") -> "ReviewCounts":
        """Totals over documents (credits are per document, not summed)."""
        return ReviewCounts(self.translated + other.translated, self.person + other.person,
                            self.ai_pass_only + other.ai_pass_only)

    def as_dict(self) -> dict:
        """The three levels in JSON (`jaxko stats --format json`)."""
        out: dict = {"translated": self.translated}
        for level in reversed(Level):
            out[level.key] = self.count(level)
        for level in reversed(Level):
            out[f"percent_{level.key}"] = round(self.percent(level), 1)
        return out


def summarise(items: list[Item]) -> ReviewCounts:
    translated = [i for i in items if i.translation == "translated"]
    levels = [i.level for i in translated]
    tally: dict[tuple[str, Kind], list[str]] = {}
    for item in translated:
        for kind in Kind:
            record = item.approval(kind)
            if record is not None:
                tally.setdefault((record.reviewer, kind), []).append(record.date)
    order = list(Kind)
    credits = tuple(Credit(name, kind, len(dates), max(dates)) for (name, kind), dates in
                    sorted(tally.items(), key=lambda t: (order.index(t[0][1]), -len(t[1]), t[0][0])))
    return ReviewCounts(len(translated), levels.count(Level.PERSON), levels.count(Level.AI_PASS),
                        credits)


# --------------------------------------------------------------------------- refusals


def error_findings(catalog: Path) -> dict[str, list[str]]:
    """Open error findings of ``jaxko check`` per message key (the check library).

    A finding names its message by the one key (catalog, msgctxt, msgid).
    """
    check.load_rules_modules()
    result = check.run(check.Options(paths=[catalog], jobs=1, progress=False))
    found: dict[str, list[str]] = {}
    for finding in result.findings:
        if finding.severity == "error":
            found.setdefault(message_key(finding.msgctxt, finding.msgid), []).append(
                f"{finding.rule}: {finding.message}")
    return found


NOT_COMMITTED = "Not Committed Yet"   # git blame's author of a line changed in the work tree


class BlamedLine(NamedTuple):
    """Who wrote one line of a file, as ``git blame`` says."""

    author: str
    mail: str          # without the angle brackets
    time: int          # author time, seconds since the epoch
    committed: bool    # False: changed in the work tree, not committed yet


def blame_lines(folder: Path, path: str, since: str | None = None) -> dict[int, BlamedLine] | None:
    """Each line of ``path`` (relative to ``folder``) with its author, from one ``git
    blame --porcelain`` of the whole file; with ``since``, only the lines written after
    that revision. None where git cannot blame the file (no git, not tracked)."""
    args = ["git", "blame", "--porcelain", *([f"{since}.."] if since else []), "--", path]
    try:
        out = subprocess.run(args, cwd=folder, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    commits: dict[str, dict[str, str]] = {}
    lines: dict[int, BlamedLine] = {}
    current = ""
    final_line = 0
    for raw in out.stdout.split("\n"):
        if raw.startswith("\t"):
            info = commits[current]
            # A boundary commit is older than `since`; without `since` it is the root
            # commit, whose lines count.
            if not (since and "boundary" in info):
                lines[final_line] = BlamedLine(
                    info.get("author", ""), info.get("author-mail", "").strip("<>"),
                    int(info.get("author-time", "0") or 0), set(current) != {"0"})
            continue
        head, _, rest = raw.partition(" ")
        parts = raw.split(" ")
        if len(parts) >= 3 and len(head) == 40 and all(c in "0123456789abcdef" for c in head):
            current, final_line = head, int(parts[2])
            commits.setdefault(current, {})
        elif current and head in ("author", "author-mail", "author-time", "boundary"):
            commits[current][head] = rest
    return lines


def blame_authors(catalog: Path, first_line: int, last_line: int,
                  blamed: dict[int, BlamedLine] | None = None) -> list[str]:
    """Authors (git blame) of lines of a catalog, newest first; [] without git.
    ``blamed``: the catalog's :func:`blame_lines`, when the caller asks about many spans.

    A line changed in the work tree and not committed yet is the work of whoever this
    work tree belongs to (``git config user.name``): a reviewer who edited a message
    (in an editor or in ``jaxko review serve``) is its last translator before the
    commit as much as after it."""
    if blamed is None:
        blamed = blame_lines(catalog.parent, catalog.name) or {}
    stamps: dict[str, int] = {}
    uncommitted = False
    for number in range(first_line, last_line + 1):
        line = blamed.get(number)
        if line is None:
            continue
        if not line.committed:
            uncommitted = True
        else:
            stamps[line.author] = max(stamps.get(line.author, 0), line.time)
    if uncommitted:
        here = git_user_name(catalog.parent)
        if here:   # newer than any commit, whatever the clocks say
            stamps[here] = max(stamps.values(), default=0) + 1
    return sorted(stamps, key=lambda name: -stamps[name])


def git_user_name(folder: Path) -> str:
    """``git config user.name`` as git sees it in ``folder``; "" when unset or no git."""
    try:
        out = subprocess.run(["git", "config", "user.name"], cwd=folder, capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def message_spans(catalog: Path) -> dict[str, tuple[int, int]]:
    """Each message's msgid and msgstr lines (not the comments `jaxko update` rewrites)."""
    return {message_key(e.msgctxt, e.msgid): (e.line, e.last_line) for e in catalogs.read(catalog)}


def translators_of(catalog: Path, span: tuple[int, int], assigned: set[str],
                   blamed: dict[int, BlamedLine] | None = None) -> set[str]:
    """Who translated a message, case-folded: the document's assigned translators and the
    newest author (git blame; a line not committed yet is the git user's) of the
    message's lines. A person's review by one of them is no second person's: ``review
    approve`` (and the review app) refuses to record it, and ``review voided``
    (:mod:`jaxko.workflow.review_audit`) refuses such a record written by hand."""
    return set(assigned) | {a.casefold() for a in blame_authors(catalog, *span, blamed)[:1]}


def last_translated_by(catalog: Path, reviewer: str, keys: Iterable[str]) -> set[str]:
    """The ``keys`` whose msgid and msgstr lines ``reviewer`` wrote last (see
    :func:`translators_of`, without the assignments)."""
    wanted = set(keys)
    if not wanted:
        return set()
    spans = message_spans(catalog)
    name = reviewer.strip().casefold()
    blamed = blame_lines(catalog.parent, catalog.name) or {}
    return {key for key in wanted
            if key in spans and name in translators_of(catalog, spans[key], set(), blamed)}


@dataclass(frozen=True)
class Decision:
    """What ``approve``/``reject`` recorded."""

    docname: str
    keys: tuple[str, ...]
    verdict: str
    kind: Kind
    warnings: tuple[str, ...] = ()   # what CI may still refuse (see reviewers.approval_identity)


def decide(document: Document, reviews: Path, *, reviewer: str, keys: list[str] | None,
           all_clean: bool = False, verdict: str = APPROVED, kind: Kind | str = Kind.PERSON,
           allow_self: bool = False, note: str = "", assignments_path: Path | None = None,
           today: dt.date | None = None) -> Decision:
    """Approve or reject messages of one document; refusals are one-line UserErrors.

    A record of ``kind`` is added beside the message's records of other kinds (a
    person's approval over an AI pass keeps the AI pass); one of the same kind is
    replaced, its verdict kept in the new record's history. ``all_clean`` takes the
    messages waiting for this kind of reviewer, without error findings and not rejected.
    A person's record (kind person or self) is refused where the local git identity is
    not the reviewer nor listed for the reviewer in ``reviewers.yaml``, the check
    ``jaxko review voided`` makes in CI (:func:`reviewers.approval_identity`).
    """
    reviewer = reviewer.strip()
    if not reviewer:
        raise UserError("--reviewer is empty; give the reviewer's name")
    kind = Kind.parse(kind) if isinstance(kind, str) else kind
    if kind is Kind.SELF:
        kind, allow_self = Kind.PERSON, True
    if verdict == REJECTED and not note.strip():
        raise UserError("a rejection needs --note TEXT saying what to fix")
    if allow_self and kind is Kind.PERSON:
        kind = Kind.SELF
    catalog = document.catalog
    path = records_path(reviews, document.docname)
    records = load_records(path)
    items = {item.key: item for item in read_items(catalog, records)}
    errors = error_findings(catalog) if verdict == APPROVED else {}
    if all_clean:
        chosen = [k for k, item in items.items()
                  if item.waiting_for(kind) and item.state(kind) not in ("fuzzy", "rejected")
                  and k not in errors]
    else:
        chosen = []
        for key in keys or ():
            if key not in items:
                raise UserError(f"no message {key!r} in this catalog; `jaxko review queue "
                                f"{document.docname}` lists the message ids", catalog)
            chosen.append(key)
    if not chosen:
        raise UserError("nothing to record; pass --message ID (from `jaxko review queue`)"
                        + (" or --all-clean" if verdict == APPROVED else ""), catalog)
    assignment = None
    if assignments_path is not None:
        assignment = assignments_mod.load(assignments_path).for_docname(document.docname)
    translators = {n.casefold() for n in (assignment.translators if assignment else ())}
    spans = message_spans(catalog)
    blamed = None
    for key in chosen:
        item = items[key]
        where = (catalog, item.line)
        if item.translation != "translated" and verdict == APPROVED:
            raise UserError(f"message {key} is {item.translation}; translate it and clear the "
                            "fuzzy flag before approving", *where)
        if key in errors:
            raise UserError(f"message {key} has open errors ({errors[key][0]}); fix them and "
                            "run `jaxko check` before approving", *where)
        if verdict == APPROVED and kind is not Kind.SELF:
            if blamed is None:   # one blame of the file for every message
                blamed = blame_lines(catalog.parent, catalog.name) or {}
            if reviewer.casefold() in translators_of(catalog, spans[key], translators, blamed):
                raise UserError(f"{reviewer} translated message {key}; a second person reviews "
                                "it (or a person passes --self to record a self-review)", *where)
    warnings: list[str] = []
    if kind is not Kind.AI_PASS:
        warnings = reviewers.approval_identity(reviewer, catalog.parent,
                                               reviews.parent / reviewers.ALLOWLIST_NAME)
    date = (today or dt.date.today()).isoformat()
    for key in chosen:
        msgstr = items[key].msgstr
        new = Record(key, text_hash(msgstr), msgstr, reviewer, date, kind, verdict, note.strip())
        old = records.get(key, kind)
        if old is not None and (old.msgstr_hash, old.reviewer, old.verdict, old.note) == \
                (new.msgstr_hash, new.reviewer, new.verdict, new.note):
            continue   # the same verdict again: the record stands as it was
        records.put(new.after(old))
    save_records(path, records)
    return Decision(document.docname, tuple(chosen), verdict, kind, tuple(warnings))


# --------------------------------------------------------------------------- interactive


def interactive(document: Document, reviews: Path, *, reviewer: str, ask, show,
                edit=None, assignments_path: Path | None = None, kind: Kind | str = Kind.PERSON,
                allow_self: bool = False) -> dict[str, int]:
    """One message of the queue at a time: [a]pprove, [r]eject, [s]kip, [e]dit, [q]uit.

    The queue is the one ``jaxko review queue --kind KIND`` lists; approvals and
    rejections are recorded with that kind. ``ask(prompt) -> str`` and ``show(text)``
    talk to the terminal; ``edit(text) -> str`` returns the edited Korean (an editor).
    A refusal is shown and the session goes on.
    """
    kind = Kind.parse(kind) if isinstance(kind, str) else kind
    tally = {"approved": 0, "rejected": 0, "skipped": 0, "edited": 0}
    records = load_records(records_path(reviews, document.docname))
    waiting = [i for i in read_items(document.catalog, records) if i.waiting_for(kind)]
    for number, item in enumerate(waiting, 1):
        show(f"[{number}/{len(waiting)}] {document.catalog}:{item.line} {item.key} "
             f"({item.state(kind)})")
        for line in describe(item):
            show(line)
        while True:
            answer = ask("[a]pprove [r]eject [s]kip [e]dit [q]uit? ").strip().lower()[:1]
            try:
                if answer == "a":
                    decision = decide(document, reviews, reviewer=reviewer, keys=[item.key], kind=kind,
                           allow_self=allow_self, assignments_path=assignments_path)
                    for warning in decision.warnings:
                        show(f"  warning: {warning}")
                    tally["approved"] += 1
                elif answer == "r":
                    note = ask("note for the translator: ")
                    decide(document, reviews, reviewer=reviewer, keys=[item.key], kind=kind,
                           verdict=REJECTED, note=note, allow_self=allow_self,
                           assignments_path=assignments_path)
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


def describe(item: Item) -> list[str]:
    """What a reviewer sees of a waiting message: English, Korean, the diff, and every
    record with its history (an AI pass marked as such, with its notes)."""
    lines = []
    if item.previous_msgid is not None:
        lines.append(f"  was: {item.previous_msgid}")
    lines.append(f"  en:  {item.msgid}")
    lines.append(f"  ko:  {item.msgstr}")
    diff = item.diff
    if diff:
        since = "approval" if item.earlier().approved else "rejection"
        lines.append(f"  diff since the earlier {since}: {diff}")
    for kind, record in item.records.items():
        lines.append("  " + record_line(item, record))
        for past in record.history:
            lines.append(f"    earlier: {past.verdict} by {past.reviewer} ({past.date})"
                         + (f": {past.note}" if past.note else "")
                         + ("" if past.msgstr_hash == text_hash(item.msgstr)
                            else "; the Korean has changed since"))
    return lines


def record_line(item: Item, record: Record) -> str:
    """``ai-pass (AI 검토) approved by NAME (DATE): note``, saying whether it is current."""
    text = (f"{record.kind.value} ({record.kind.label}) {record.verdict} by {record.reviewer} "
            f"({record.date})")
    if record.note:
        text += f": {record.note}"
    if not item.is_current(record):
        text += " [an earlier text]"
    return text
