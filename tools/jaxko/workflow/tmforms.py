"""Translation memory by form: a msgid that differs from a translated one only in its
numbers, dates and URLs gets that translation with those parts substituted.

The changelog repeats the same forms with every release: a version heading
("JAX 0.10.3 (June 18, 2026)" -> "JAX 0.10.3 (2026년 6월 18일)"), the commit-link line
("[GitHub commits](URL)." -> "[GitHub 커밋](URL)."), a line naming an issue number.
This module learns those forms from the translated catalogs themselves; no form is
written down here.

* Only one-line messages (prose, headings): a code cell's numbers are code, and only
  :mod:`jaxko.workflow.codesync` carries text between cells.
* A msgid's **slots** are its URLs, its English dates ("June 18, 2026", "Sep 5, 2025")
  and its free-standing numbers (versions "0.10.3", issue and PR numbers "#12345",
  counts). Everything else, word for word and character for character, is its
  **skeleton**. Two msgids have the same form when their skeletons are equal; a single
  different word (or letter case, or punctuation) is a different form.
* The translation of the new msgid is the remembered translation with each old slot's
  rendering replaced by the new slot's rendering: a URL or a number as it is, a date as
  "YYYY년 M월 D일" (or as the English date, where the translation kept it so).
* The result is **exact** (fuzzy-free) only when the substitution is: every old slot's
  rendering occurs in the translation exactly as often as the slot does in the old
  msgid, and slots that shared one old value share one new value. A particle right
  after a substituted part takes the shape the new part is read with (3.12**는** ->
  3.11**은**, :mod:`jaxko.korean`). Otherwise (or when the reading is unknown) it is a
  **fuzzy** suggestion with a translator comment; :mod:`jaxko.workflow.tm` files it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from jaxko import korean

MONTHS = {name: number for number, names in enumerate((
    ("January", "Jan"), ("February", "Feb"), ("March", "Mar"), ("April", "Apr"),
    ("May",), ("June", "Jun"), ("July", "Jul"), ("August", "Aug"),
    ("September", "Sept", "Sep"), ("October", "Oct"), ("November", "Nov"),
    ("December", "Dec")), start=1) for name in names}

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
# One alternation, first match wins at each position: a URL swallows the versions in it,
# a date its day and year, before a bare number could.
_SLOT = re.compile(
    r"(?P<url>https?://[^\s()<>\[\]`]+[^\s()<>\[\]`.,;:!?])"
    rf"|(?P<date>\b(?:{_MONTH})\.? \d{{1,2}}, \d{{4}}\b)"
    r"|(?P<number>(?<![\w.])\d+(?:\.\d+)*(?![\w]|\.\d))")

PLACEHOLDER = "\0"


def _bounded(text: str, kind: str) -> str:
    """A pattern for ``text`` as a whole token of its kind: "10" is not found in "10144"
    or "0.10.1", while Korean particles may follow it ("0.10.1을", "2026년")."""
    if kind == "url":
        return re.escape(text) + r"(?![A-Za-z0-9_/%#=&~+\-])"
    return r"(?<![A-Za-z0-9_.])" + re.escape(text) + r"(?![A-Za-z0-9_]|\.\d)"


@dataclass(frozen=True)
class Slot:
    kind: str       # "url", "date" or "number"
    text: str       # as written in the msgid

    def renderings(self) -> list[str]:
        """How a translation may write this slot, the preferred one first."""
        if self.kind == "date":
            return [korean_date(self.text), self.text]
        return [self.text]


def korean_date(english: str) -> str:
    """'June 18, 2026' -> '2026년 6월 18일'."""
    month, day, year = re.match(r"(\w+)\.? (\d{1,2}), (\d{4})", english).groups()
    return f"{year}년 {MONTHS[month]}월 {int(day)}일"


def split(msgid: str) -> tuple[str, tuple[Slot, ...]]:
    """A msgid's skeleton (slots replaced by a placeholder) and its slots in order."""
    slots = []

    def take(match: re.Match) -> str:
        slots.append(Slot(match.lastgroup, match.group(0)))
        return PLACEHOLDER

    skeleton = _SLOT.sub(take, msgid)
    return skeleton, tuple(slots)


@dataclass(frozen=True)
class Substituted:
    msgstr: str
    exact: bool
    reason: str      # why it is not exact; "" when it is


def substitute(old_msgid: str, old_msgstr: str, new_msgid: str) -> Substituted | None:
    """The translation of ``new_msgid`` made from ``old_msgid``'s translation, or None
    when the two msgids are not of the same form (or are equal)."""
    old_skeleton, old_slots = split(old_msgid)
    new_skeleton, new_slots = split(new_msgid)
    if old_skeleton != new_skeleton or not old_slots or old_msgid == new_msgid:
        return None
    if any(a.kind != b.kind for a, b in zip(old_slots, new_slots)):
        return None
    # old slot text -> new slot text; one old value must map to one new value
    mapping: dict[str, Slot] = {}
    counts = Counter(slot.text for slot in old_slots)
    reason = ""
    for old, new in zip(old_slots, new_slots):
        if mapping.setdefault(old.text, new) != new:
            reason = f"{old.text!r} becomes both {mapping[old.text].text!r} and {new.text!r}"
    replacements: dict[str, str] = {}
    for old_text, new in mapping.items():
        old = next(slot for slot in old_slots if slot.text == old_text)
        if old.text == new.text:
            continue
        for rendering, new_rendering in zip(old.renderings(), new.renderings()):
            found = len(re.findall(_bounded(rendering, old.kind), old_msgstr))
            if found:
                if found != counts[old_text] and not reason:
                    reason = (f"{rendering!r} occurs {found} times in the translation, "
                              f"{counts[old_text]} in the English")
                replacements[rendering] = (old.kind, new_rendering)
                break
        else:
            reason = reason or f"the translation does not show {old.text!r}"
    text = old_msgstr
    if replacements:
        pattern = re.compile("|".join(
            _bounded(r, replacements[r][0])
            for r in sorted(replacements, key=len, reverse=True)))
        text, unknown = _replace(pattern, replacements, old_msgstr)
        if unknown and not reason:
            reason = f"cannot tell the particle after {unknown!r}"
    return Substituted(text, not reason, reason)


# What may stand between a substituted part and its particle: closing emphasis, code or
# quotes. Not a closing bracket: "함수(#101)를" takes the particle of 함수, not of 101.
_PARTICLE_AFTER = re.compile(r"([*_`'\"’”]{0,3})([가-힣]+)")


def _replace(pattern: re.Pattern, replacements: dict, msgstr: str) -> tuple[str, str]:
    """``msgstr`` with every match replaced and the particle after it reshaped; and the
    first new rendering whose particle could not be told ("" when none)."""
    out, last, unknown = [], 0, ""
    for match in pattern.finditer(msgstr):
        kind, new = replacements[match.group(0)]
        out += [msgstr[last:match.start()], new]
        last = match.end()
        if kind == "url":   # a URL is not read aloud: "[글](URL)을" is 글's particle
            continue
        after = _PARTICLE_AFTER.match(msgstr, last)
        found = korean.split_particle(after.group(2)) if after else None
        if found is None:
            continue
        particle, form, rest = found
        ending = korean.ending_of(new)
        if ending is None:
            unknown = unknown or new
            continue
        if not particle.accepts(form, ending):
            out += [after.group(1), particle.form_for(ending) + rest]
            last = after.end()
    out.append(msgstr[last:])
    return "".join(out), unknown


class Forms:
    """Remembered translations by skeleton, for the msgids that have slots."""

    def __init__(self) -> None:
        self._by_skeleton: dict[str, list] = {}

    def add(self, unit) -> None:
        if "\n" in unit.msgid:   # code: only codesync may carry text between cells
            return
        skeleton, slots = split(unit.msgid)
        if slots:
            self._by_skeleton.setdefault(skeleton, []).append(unit)

    def match(self, msgid: str):
        """(unit, Substituted) for ``msgid``: the translation most units of the same form
        agree on, exact ones first; None when no remembered msgid has its form."""
        if "\n" in msgid:
            return None
        skeleton, slots = split(msgid)
        units = self._by_skeleton.get(skeleton) if slots else None
        if not units:
            return None
        results = []
        for unit in units:
            made = substitute(unit.msgid, unit.msgstr, msgid)
            if made is not None:
                results.append((unit, made))
        if not results:
            return None
        exact = [r for r in results if r[1].exact]
        pool = exact or results
        # Active before obsolete, then the text most remembered units agree on.
        active = [r for r in pool if not r[0].obsolete] or pool
        votes = Counter(made.msgstr for _, made in active)
        best = max(votes.values())
        return next(r for r in active if votes[r[1].msgstr] == best)
