"""``jaxko check --fix``: apply the fixes findings carry, and nothing else.

A fix is data on a finding (:class:`~jaxko.check.registry.Edit`: a span of the msgstr
and its replacement), given only by rules that declare one (``fix="always"`` or
``"sometimes"``) and only where there is exactly one right answer. Here they are
applied, per catalog:

1. The catalog is read once; the entries with fixable findings are found by their key
   (msgctxt, msgid), never by searching for their text.
2. The edits of one entry are applied together; edits that overlap an earlier one wait
   for the next round. The entry is checked again with *every* message rule: the fix is
   kept only when the findings after it are the findings before it minus the fixed
   ones (no new finding of any rule, safety included); otherwise the entry is left as
   it was, with its finding. A round's fixes may uncover another (a second edit that
   overlapped): up to :data:`ROUNDS` rounds.
3. Only the string lines of each fixed entry's ``msgstr`` change, the rest of the file
   stays byte for byte (comments, wrapping, order, obsolete entries); the result is
   read back and must differ from the original in exactly those msgstrs.
4. Nothing is written until every catalog is done; then each is written atomically
   (:func:`jaxko.catalogs.write_text_atomic`), or shown as a unified diff.

Safety and project-wide rules never fix (the registry refuses to register one that
says it does), and an entry with a safety finding is not touched at all: a refusal
stands on the text as written. Fuzzy entries are never checked, plural entries and
suppressed findings never fixed.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from jaxko import catalogs
from jaxko.catalogs import write_text_atomic
from jaxko.check.message import UNSUPPRESSIBLE
from jaxko.check.registry import Edit, Finding, select_rules
from jaxko.errors import UserError
from jaxko.check import runner

ROUNDS = 5


@dataclass(frozen=True)
class Change:
    """One fixed entry: where its msgstr now is, and which rules' fixes made it."""

    path: str
    line: int                  # line of the entry's `msgstr` in the fixed catalog
    rules: tuple[str, ...]
    msgctxt: str | None
    msgid: str
    before: str
    after: str


@dataclass
class Outcome:
    """What ``--fix`` did (or, with ``--diff``, would do)."""

    changes: list[Change] = field(default_factory=list)
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (before, after)

    def diff(self) -> str:
        """A unified diff of every catalog that changes."""
        out = []
        for path, (before, after) in sorted(self.texts.items()):
            out.extend(difflib.unified_diff(before.splitlines(keepends=True),
                                            after.splitlines(keepends=True),
                                            f"a/{path.lstrip('/')}", f"b/{path.lstrip('/')}"))
        return "".join(out)


# ------------------------------------------------------------------ edits of a string


def apply_edits(text: str, edits: list[Edit]) -> str:
    """``text`` with non-overlapping ``edits`` applied."""
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[:edit.start] + edit.text + text[edit.end:]
    return text


def differences(before: str, after: str) -> list[Edit]:
    """The smallest edits that make ``before`` into ``after`` (what rounds of fixes did,
    as edits of the original: only those characters of the file change)."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [Edit(i1, i2, after[j1:j2]) for op, i1, i2, j1, j2 in matcher.get_opcodes()
            if op != "equal"]


def _overlap(edit: Edit, taken: list[Edit]) -> bool:
    return any(edit.start < other.end and other.start < edit.end
               or edit.start == other.start for other in taken)


def choose(findings: list[Finding]) -> tuple[list[Edit], list[Finding]]:
    """The edits of ``findings`` that can be applied together (a finding's edits all or
    none; first come, first served) and the findings they fix."""
    edits: list[Edit] = []
    used: list[Finding] = []
    for finding in sorted(findings, key=lambda f: (min(e.start for e in f.fix), f.rule)):
        if any(_overlap(edit, edits) for edit in finding.fix):
            continue
        edits.extend(finding.fix)
        used.append(finding)
    return edits, used


# --------------------------------------------------------------- edits of a catalog

_ESCAPED = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r", '"': '\\"'}
_UNESCAPED = frozenset('\\ntrvbf"')


def escape(text: str) -> str:
    """A string's text as a PO string literal's contents (polib's escapes)."""
    return "".join(_ESCAPED.get(ch, ch) for ch in text)


def _offsets(text: str, start: int, end: int) -> tuple[list[int], list[int], int]:
    """Where each character of the string value spread over ``text[start:end]`` (the
    quoted lines after ``msgstr``) is written: its first and last+1 offsets in
    ``text``, and the offset just inside the last closing quote."""
    begins: list[int] = []
    ends: list[int] = []
    last = start
    for line in re.finditer(r"[^\n]*", text[start:end]):
        raw = line.group(0)
        first, final = raw.find('"'), raw.rfind('"')
        if first < 0 or final <= first:
            continue
        at = start + line.start() + first + 1
        stop = start + line.start() + final
        while at < stop:
            width = 2 if text[at] == "\\" and at + 1 < stop and text[at + 1] in _UNESCAPED else 1
            begins.append(at)
            ends.append(at + width)
            at += width
        last = stop
    return begins, ends, last


def splice(text: str, span: tuple[int, int], edits: list[Edit]) -> str:
    """``text`` with ``edits`` (offsets in the unescaped msgstr) written into the msgstr
    whose quoted lines are ``text[span[0]:span[1]]``; every other byte is kept."""
    begins, ends, last = _offsets(text, *span)
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        if edit.start < edit.end:
            low, high = begins[edit.start], ends[edit.end - 1]
        elif edit.start > 0:
            low = high = ends[edit.start - 1]
        else:
            low = high = begins[0] if begins else last
        text = text[:low] + escape(edit.text) + text[high:]
    return text


# ------------------------------------------------------------------------ the rounds


def fix_catalog(path: Path, keys: set, guard, wanted: Callable[[Finding], bool]
                ) -> tuple[str, str, list[Change]]:
    """(text before, text after, changes) of one catalog: the fixes of the entries
    ``keys``, kept only where ``guard`` (a Checker running every message rule) then finds
    on the whole catalog nothing but what it found before, less the fixed findings.
    ``wanted`` says which findings to fix."""
    original = catalogs.decode(catalogs.read_bytes(path), path)
    entries = {(e.msgctxt, e.msgid): e for e in catalogs.parse(original, path)
               if e.translated}
    current = {key: entry.msgstr for key, entry in entries.items()}
    fixable = {key for key in keys if key in entries and not entries[key].plural}
    fixed_by: dict[tuple, list[str]] = {}

    def check(msgstrs: dict) -> _Seen:
        return _findings(guard, path, entries, msgstrs)

    first = seen = check(current)
    for _ in range(ROUNDS):
        proposed = {}
        for key in fixable:
            if any(f.rule.startswith(UNSUPPRESSIBLE) for f in seen.get_findings(key)):
                continue  # a refusal stands on the text as written: the entry is not touched
            edits, used = choose([f for f in seen.get_findings(key) if f.fix and wanted(f)])
            if used:
                proposed[key] = (apply_edits(current[key], edits), used)
        if not proposed:
            break
        after = check({**current, **{k: new for k, (new, _) in proposed.items()}})
        # A fix may reveal a finding that is itself fixed next round (매개 변수과 →
        # 매개변수과 → 매개변수와); one that brings anything else is not taken.
        brought = after - (seen - _fixed(proposed, proposed))
        accepted = [key for key in proposed
                    if all(any(f.rule == rule and f.message == message and f.fix and wanted(f)
                               for f in after.get_findings(key))
                           for (k, rule, message) in brought if k == key)]
        if not accepted:
            break
        for key in accepted:
            current[key] = proposed[key][0]
            fixed_by.setdefault(key, []).extend(f.rule for f in proposed[key][1])
        seen = after if len(accepted) == len(proposed) else check(current)
    current = _settle(check, {k: e.msgstr for k, e in entries.items()}, current, first, seen)
    changed = {key: msgstr for key, msgstr in current.items() if msgstr != entries[key].msgstr}
    if not changed:
        return original, original, []
    text = original
    spans = catalogs.msgstr_spans(original)
    # From the end of the file, so the offsets before each splice stay true.
    for key in sorted(changed, key=lambda k: spans[k][0], reverse=True):
        start, end, _ = spans[key]
        text = splice(text, (start, end), differences(entries[key].msgstr, changed[key]))
    _verify(path, original, text, changed)
    new_spans = catalogs.msgstr_spans(text)
    changes = [Change(str(path), new_spans[key][2], tuple(dict.fromkeys(fixed_by[key])),
                      key[0], key[1], entries[key].msgstr, changed[key]) for key in changed]
    changes.sort(key=lambda c: c.line)
    return original, text, changes


class _Seen(Counter):
    """Findings of a whole catalog, counted by (entry key, rule, message), with the
    findings themselves by entry."""

    def __init__(self, findings: list[Finding]):
        super().__init__(((f.msgctxt, f.msgid), f.rule, f.message) for f in findings)
        self.by_key: dict[tuple, list[Finding]] = {}
        for finding in findings:
            self.by_key.setdefault((finding.msgctxt, finding.msgid), []).append(finding)

    def get_findings(self, key) -> list[Finding]:
        return self.by_key.get(key, [])


def _fixed(proposed: dict, keys) -> Counter:
    return Counter((key, f.rule, f.message) for key in keys for f in proposed[key][1])


def _settle(check, original: dict, current: dict, first: _Seen, seen: _Seen) -> dict:
    """``current`` less every fix after which the catalog has a finding it did not have
    at first (in ``first``): the entries that bring one go back to their original
    msgstr; when the new finding is on an entry nobody fixed (a rule that reads the
    whole page), the fixes are taken again one at a time, each only if it brings none."""
    changed = [key for key in current if current[key] != original[key]]
    while changed:
        new = seen - first
        if not new:
            return current
        culprits = {key for key, _, _ in new}
        if not culprits <= set(changed):
            break
        current = {**current, **{key: original[key] for key in culprits}}
        changed = [key for key in changed if key not in culprits]
        seen = check(current)
    if not changed:
        return current
    settled = dict(original)
    for key in sorted(changed, key=lambda k: (k[1], k[0] or "")):
        if not check({**settled, key: current[key]}) - first:
            settled[key] = current[key]
    return settled


def _findings(checker, path: Path, entries: dict, msgstrs: dict) -> _Seen:
    """Findings of ``checker`` on every entry of the catalog, with ``msgstrs``."""
    chosen = [entry._replace(msgstr=msgstrs[key]) for key, entry in entries.items()]
    chosen.sort(key=lambda e: e.line)  # page order, as rules that read a page expect
    return _Seen(checker.check(checker.messages(path, chosen)).findings)


def _verify(path: Path, before: str, after: str, changed: dict) -> None:
    """The fixed text must read as the original with exactly ``changed`` msgstrs."""
    old = catalogs.parse(before, path)
    new = catalogs.parse(after, path)
    expected = [e._replace(msgstr=changed.get((e.msgctxt, e.msgid), e.msgstr)) for e in old]
    if len(new) != len(expected) or any(
            (a.msgctxt, a.msgid, a.msgstr, a.flags, a.locations, a.tcomment, a.comment)
            != (b.msgctxt, b.msgid, b.msgstr, b.flags, b.locations, b.tcomment, b.comment)
            for a, b in zip(new, expected)):
        raise RuntimeError(f"{path}: a fix changed more than its msgstr; nothing was written "
                           "(please report this)")


# ------------------------------------------------------------------------- the run


def fix(findings: list[Finding], guard, wanted: Callable[[Finding], bool],
        write: bool) -> Outcome:
    """Apply (``write``) or only compute the fixes of ``findings``; ``guard`` is a
    Checker with every message rule."""
    keys: dict[str, set] = {}
    for finding in findings:
        if finding.fix and wanted(finding):
            keys.setdefault(finding.path, set()).add((finding.msgctxt, finding.msgid))
    outcome = Outcome()
    for name in sorted(keys):
        before, after, changes = fix_catalog(Path(name), keys[name], guard, wanted)
        if changes:
            outcome.texts[name] = (before, after)
            outcome.changes.extend(changes)
    if write:
        # Every catalog must still be what was fixed (another writer may have saved one
        # meanwhile) before any is written.
        for name, (before, _) in outcome.texts.items():
            if catalogs.decode(catalogs.read_bytes(Path(name)), Path(name)) != before:
                raise UserError("the catalog changed while it was being fixed; nothing was "
                                "written: run `jaxko check --fix` again", name)
        for name, (_, after) in outcome.texts.items():
            write_text_atomic(name, after)
    return outcome


def run(options, *, show_info: bool = False, write: bool = True) -> Outcome:
    """``jaxko check --fix`` (``write``) or ``--diff``: check with the chosen rules, then
    fix what their findings say can be fixed. Findings of ``info`` severity are fixed only
    with ``show_info`` (the fixes of the findings a run shows)."""
    from dataclasses import replace

    # The first pass only says which entries have something to fix (the cache keeps the
    # fixes); each catalog is then checked again from the text that is fixed.
    result = runner.run(options)
    glossary, _ = runner._load_glossary(options)
    # The guard runs every message rule, whatever was selected: a fix of one rule may
    # not bring a finding of another.
    guard = runner.Checker(replace(options, select=None, ignore=None), glossary)
    selected = {r.name for r in select_rules(options.select, options.ignore)}

    def wanted(finding: Finding) -> bool:
        return finding.rule in selected and (show_info or finding.severity != "info")

    return fix(result.findings, guard, wanted, write)
