"""What a pull request does to the review records (``jaxko review voided --since REV``).

Two things, both against the base revision ``REV``:

* approvals it voids: a message whose review level was higher at ``REV`` than now
  (its msgstr edited, or its msgid changed upstream; the previous msgctxt and msgid of
  ``#|`` name the message it was). These are warnings: the message is simply back in
  the queue.
* records that cannot stand (exit 1): a person's record (``person``, ``self``) added or
  changed by someone other than its reviewer; a ``person`` record whose reviewer
  translated the message (the rule ``review approve`` applies: an assigned translator,
  now or at ``REV``, or the newest author of the message's lines; and any author of
  those lines since ``REV``, with ``--author`` the pull request's author when it changed
  them), whoever wrote the file; a record
  whose ``msgstr_hash`` is not the hash of its own ``msgstr`` (above all one whose hash
  is that of the present msgstr while its text is other Korean: it would show words
  nobody read as reviewed); a record that was removed, its records file included,
  whether or not its catalog went with it (records are history). Every one has the
  records file and line.

Who added a record: the authors of the commits since ``REV`` that wrote its lines
(``git blame``; lines not committed yet are the local git user's), or, when given,
the pull request's author (``--author``, which CI takes from GitHub: git's author
fields can be set to anything). ``locale/<lang>/reviewers.yaml`` as it is at ``REV``
(a pull request cannot widen it for itself) lists, per reviewer, the other names that
may add that reviewer's records (GitHub logins, git author names or e-mails), each
matched exactly: an e-mail address is not the login of its local part.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field, replace
from pathlib import Path

from jaxko.errors import UserError
from jaxko.workflow import review, reviewers
from jaxko.workflow.documents import Document
from jaxko.workflow.review import Kind, Record, Records
from jaxko.workflow.reviewers import ALLOWLIST_NAME, identities, load_allowlist  # noqa: F401


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


@dataclass(frozen=True)
class Forged:
    """A record the change added, altered or removed that cannot stand."""

    path: Path          # the records file
    line: int           # the record's line (removed: its line at the base revision)
    key: str
    kind: Kind
    reviewer: str
    reason: str         # `what is wrong; what to do`


@dataclass(frozen=True)
class Audit:
    voided: list[Voided]
    summary: dict[str, review.ReviewCounts]
    forged: list[Forged] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 1 if self.forged else 0


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=120)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise UserError(f"git failed: {err}") from None


def _show(root: Path, revision: str, path: Path) -> str | None:
    """A file's text at ``revision``; None where it did not exist."""
    relative = path.resolve().relative_to(root).as_posix()
    out = _git(["show", f"{revision}:{relative}"], root)
    return out.stdout if out.returncode == 0 else None


@dataclass
class _Blame:
    """Authors of each line of a file, written since a revision (git blame)."""

    lines: dict[int, set[str]]        # line -> identities of the commit that wrote it

    @classmethod
    def of(cls, root: Path, revision: str, path: Path) -> "_Blame":
        relative = path.resolve().relative_to(root).as_posix()
        local = set()
        for key in ("user.name", "user.email"):
            value = _git(["config", key], root).stdout.strip()
            local |= identities(value)
        blamed = review.blame_lines(root, relative, since=revision)
        if blamed is None:   # a file git does not know yet: written here, by this user
            tracked = _git(["ls-files", "--error-unmatch", "--", relative], root)
            if tracked.returncode != 0:
                total = path.read_text(encoding="utf-8").count("\n") + 1
                return cls({n: set(local) for n in range(1, total + 1)})
            return cls({})
        return cls({number: identities(line.author) | identities(line.mail)
                    if line.committed else set(local) for number, line in blamed.items()})

    def authors(self, first: int, last: int) -> set[str]:
        found: set[str] = set()
        for number in range(first, last + 1):
            found |= self.lines.get(number, set())
        return found


def _spans(records: Records, path: Path) -> dict[tuple[str, Kind], tuple[int, int]]:
    """Each record's lines in its file: from its line to the line before the next."""
    starts = sorted((r.line, (r.key, r.kind)) for r in records)
    total = path.read_text(encoding="utf-8").count("\n") + 1 if path.is_file() else 0
    spans = {}
    for index, (line, ident) in enumerate(starts):
        end = starts[index + 1][0] - 1 if index + 1 < len(starts) else total
        spans[ident] = (line, end)
    return spans


def _hash_problem(record: Record, items: dict[str, review.Item]) -> str | None:
    texts = [(record.msgstr_hash, record.msgstr)] + [(p.msgstr_hash, p.msgstr)
                                                      for p in record.history]
    for stored_hash, stored in texts:
        if review.text_hash(stored) == stored_hash:
            continue
        item = items.get(record.key)
        if item is not None and stored_hash == review.text_hash(item.msgstr):
            return ("its msgstr_hash is that of the present msgstr but its msgstr is other "
                    "Korean, so it would show words nobody read as reviewed; record reviews "
                    "with `jaxko review approve`, never by hand")
        return ("its msgstr_hash is not the hash of its msgstr; record reviews with "
                "`jaxko review approve`, never by hand")
    return None


def audit(revision: str, documents: dict[str, Document], reviews: Path, *,
          authors: list[str] | None = None, assignments_path: Path | None = None) -> Audit:
    """Approvals voided since ``revision``, review counts of the documents touched, and
    the records that cannot stand (see the module docstring). ``assignments_path``: the
    translators of each document, as assigned now and at ``revision``."""
    if not documents and not reviews.is_dir():
        return Audit([], {})
    probe = next(iter(documents.values())).catalog.parent if documents else reviews
    top = _git(["rev-parse", "--show-toplevel"], probe)
    if top.returncode != 0:
        raise UserError("not in a git repository; --since needs one", probe)
    root = Path(top.stdout.strip()).resolve()
    diff = _git(["diff", "--name-only", revision, "--"], root)
    if diff.returncode != 0:
        raise UserError(f"unknown revision {revision!r}; fetch it or pass another --since")
    untracked = _git(["ls-files", "--others", "--exclude-standard"], root)
    changed = {(root / name).resolve()
               for name in diff.stdout.split("\n") + untracked.stdout.split("\n") if name}
    allow_path = reviews.parent / ALLOWLIST_NAME
    try:
        allow_text = _show(root, revision, allow_path)
    except ValueError:
        allow_text = None
    allowlist = load_allowlist(allow_text, allow_path)
    given = set().union(*(identities(a) for a in authors)) if authors else None
    assigned = _Assigned(root, revision, assignments_path)
    voided: list[Voided] = []
    forged: list[Forged] = []
    summary: dict[str, review.ReviewCounts] = {}
    seen: set[Path] = set()
    for docname in sorted(documents):
        doc = documents[docname]
        records_file = review.records_path(reviews, docname)
        seen.add(records_file.resolve())
        if doc.catalog.resolve() not in changed and records_file.resolve() not in changed:
            continue
        now_records = review.load_records(records_file)
        now = review.read_items(doc.catalog, now_records)
        summary[docname] = review.summarise(now)
        then_text = _show(root, revision, records_file)
        then_records = review.parse_records(then_text, f"{revision}:{records_file}") \
            if then_text is not None else Records()
        old_catalog = _show(root, revision, doc.catalog)
        if old_catalog is not None:
            old = {i.key: i for i in review.read_items(doc.catalog, then_records,
                                                        text=old_catalog)}
            for item in now:
                before = old.get(item.key)
                if before is None and item.previous_key is not None:
                    before = old.get(item.previous_key)   # the msgid (and msgctxt) it had
                if before is None or before.level <= item.level:
                    continue
                record = before.approval(Kind.PERSON, Kind.SELF, Kind.AI_PASS)
                voided.append(Voided(docname, doc.catalog, item.line, item.key, item.msgid,
                                     item.state(), record))
        forged += _records_problems(root, revision, records_file, now_records, then_records,
                                    {i.key: i for i in now}, allowlist, given)
        forged += _reviewed_by_translator(root, revision, doc, records_file, now_records,
                                          then_records, assigned.of(docname), given)
    forged += _removed_files(root, revision, reviews, changed - seen)
    return Audit(voided, summary, forged)


class _Assigned:
    """The translators of each document: in the assignments file now and at the base
    revision (a pull request cannot drop its author from the list to pass)."""

    def __init__(self, root: Path, revision: str, path: Path | None) -> None:
        from jaxko.workflow import assignments

        self.tables = []
        if path is None:
            return
        self.tables.append(assignments.load(path))
        try:
            then = _show(root, revision, path)
        except ValueError:
            then = None
        if then is not None:
            table, _problems = assignments.parse(path, text=then)
            self.tables.append(table)

    def of(self, docname: str) -> set[str]:
        names: set[str] = set()
        for table in self.tables:
            entry = table.for_docname(docname)
            if entry is not None:
                names |= {n.casefold() for n in entry.translators}
        return names


def _reviewed_by_translator(root: Path, revision: str, doc: Document, path: Path,
                            now: Records, then: Records, assigned: set[str],
                            given: set[str] | None) -> list[Forged]:
    """Person records (added or changed since ``revision``) whose reviewer translated the
    message: the rule ``review approve`` applies (:func:`review.translators_of`), every
    author of the message's lines since ``revision``, and the pull request's author when
    it changed those lines."""
    fresh = [r for r in now if r.kind is Kind.PERSON and then.get(r.key, r.kind) != r]
    if not fresh or not doc.catalog.is_file():
        return []
    spans = review.message_spans(doc.catalog)
    blame = None
    current = None   # the work tree's blame of the catalog, read once for every record
    found = []
    for record in fresh:
        span = spans.get(record.key)
        if span is None:
            continue
        if current is None:
            current = review.blame_lines(doc.catalog.parent, doc.catalog.name) or {}
        translators = review.translators_of(doc.catalog, span, assigned, current)
        if blame is None:
            blame = _Blame.of(root, revision, doc.catalog)
        written = blame.authors(*span)     # who wrote the message's lines since `revision`
        translators |= written
        if written and given is not None:  # the pull request wrote them: its author did
            translators |= given
        if identities(record.reviewer) & translators:
            found.append(Forged(
                path, record.line, record.key, record.kind, record.reviewer,
                f"person record by {record.reviewer} for message {record.key}: "
                f"{record.reviewer} translated it; a second person reviews it (or the "
                "translator records a self-review with `jaxko review approve --self`)"))
    return found


def _removed_files(root: Path, revision: str, reviews: Path, changed: set[Path]) -> list[Forged]:
    """Records files that existed at ``revision`` and are gone, whatever happened to
    their catalogs (a catalog deleted with its records takes no history with it)."""
    found = []
    folder = reviews.resolve()
    for path in sorted(changed):
        if path.suffix != ".yaml" or path.exists() or folder not in path.parents:
            continue
        then_text = _show(root, revision, path)
        if then_text is None:
            continue
        for record in review.parse_records(then_text, f"{revision}:{path}"):
            found.append(Forged(
                path, record.line, record.key, record.kind, record.reviewer,
                f"{record.kind.value} record by {record.reviewer} for message {record.key} was "
                f"removed with its file (it was on line {record.line} at {revision}); records "
                "are the review history: restore the file"))
    return found


def _records_problems(root: Path, revision: str, path: Path, now: Records, then: Records,
                      items: dict[str, review.Item], allowlist: dict[str, set[str]],
                      given: set[str] | None) -> list[Forged]:
    found = []
    blame = None
    spans = _spans(now, path)
    for record in now:
        problem = _hash_problem(record, items)
        if problem is not None:
            found.append(Forged(path, record.line, record.key, record.kind, record.reviewer,
                                f"{record.kind.value} record by {record.reviewer}: {problem}"))
            continue
        if record.kind is Kind.AI_PASS or then.get(record.key, record.kind) == record:
            continue
        if given is not None:
            by = given
        else:
            if blame is None:
                blame = _Blame.of(root, revision, path)
            by = blame.authors(*spans[(record.key, record.kind)])
        if by & reviewers.accepted(record.reviewer, allowlist):
            continue
        who = ", ".join(sorted(by)) or "someone else"
        found.append(Forged(
            path, record.line, record.key, record.kind, record.reviewer,
            f"{record.kind.value} record by {record.reviewer} was added by {who}, not by "
            f"{record.reviewer}; a person's review is recorded by that person, or list who "
            f"may add {record.reviewer}'s records in {path.parent.parent / ALLOWLIST_NAME}"))
    order = [(r.key, list(Kind).index(r.kind), r.line) for r in now]
    for record in then:
        if now.get(record.key, record.kind) is None:
            here = (record.key, list(Kind).index(record.kind))
            after = [line for key, kind, line in order if (key, kind) > here]
            line = min(after) if after else max((r.line for r in now), default=1)
            if not path.is_file():   # the file went too: its line at `revision`
                line = record.line
            found.append(Forged(
                path, line, record.key, record.kind, record.reviewer,
                f"{record.kind.value} record by {record.reviewer} for message {record.key} was "
                f"removed (it was on line {record.line} at {revision}); records are the "
                "review history: restore it"))
    return found


# --------------------------------------------------------------------------- history


def recover_history(records_file: Path) -> tuple[Records, int]:
    """The records of ``records_file`` with the verdicts git history shows they replaced.

    Records written before records kept a history (a rejection later overwritten by the
    approval of the fixed text) lost it from the file, not from git: each commit that
    changed the file is compared with its parent, and a record it replaced (same message
    and kind, another verdict or text) goes back into the newer record's history, in
    the order it was replaced. Returns the records and how many verdicts were restored;
    nothing else in a record changes, and a second run restores nothing.
    """
    current = review.load_records(records_file)
    folder = records_file.parent
    top = _git(["rev-parse", "--show-toplevel"], folder)
    if top.returncode != 0:
        raise UserError("not in a git repository; the history is read from git", records_file)
    root = Path(top.stdout.strip()).resolve()
    relative = records_file.resolve().relative_to(root).as_posix()
    log = _git(["log", "--no-merges", "--reverse", "--format=%H", "--", relative], root)
    restored: dict[tuple[str, Kind], list[review.Past]] = {}
    for commit in log.stdout.split():
        after = _show_records(root, commit, relative)
        before = _show_records(root, f"{commit}^", relative)
        for record in after:
            old = before.get(record.key, record.kind)
            if old is None or _verdict(old) == _verdict(record):
                continue
            for past in (*old.history, old.as_past()):
                found = restored.setdefault((record.key, record.kind), [])
                if past not in found:
                    found.append(past)
    count = 0
    result = Records()
    for record in current:
        missing = [p for p in restored.get((record.key, record.kind), ())
                   if p not in record.history and p != record.as_past()]
        if missing:
            count += len(missing)
            record = replace(record, history=tuple(missing) + record.history)
        result.put(record)
    return result, count


def _verdict(record: Record) -> tuple:
    return (record.msgstr_hash, record.msgstr, record.reviewer, record.date, record.verdict,
            record.note)


def _show_records(root: Path, revision: str, relative: str) -> Records:
    out = _git(["show", f"{revision}:{relative}"], root)
    if out.returncode != 0:
        return Records()
    return review.parse_records(out.stdout, f"{revision}:{relative}")
