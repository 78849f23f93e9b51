"""Gleaning fuzzy entries: carry invariant-only upstream changes into the translation.

After ``jaxko update`` a changed paragraph keeps its old translation as fuzzy, with the
old English as previous msgid (``#|``). When the only differences between the old and
the new English are in parts a translation copies verbatim (an inline literal, a role
or link target, a URL) or in whitespace, the same substitution is made in the msgstr
and the fuzzy flag is cleared — python-docs-ko's ``glean``, done safely:

* the prose skeleton must be identical (whitespace-normalised for one-line paragraphs;
  exactly equal for messages with line breaks, i.e. code, where whitespace matters);
* every changed token must change the same way everywhere it occurs, and the msgstr
  must hold the old token exactly as often as the old English did;
* a particle right after a changed token (````jit````\\ 은 → ````vmap````\\ 은) is re-chosen
  for the new word; when the new word's ending is unknown, the entry stays fuzzy;
* finally the particle rule runs on the result; any finding keeps the entry fuzzy.

Everything else stays fuzzy for a human. Code cells whose translation only translated
comments get :mod:`jaxko.workflow.codesync` instead.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

import polib

from jaxko import catalogs, korean
from jaxko.workflow import codesync, invariants
from jaxko.check.context import Context
from jaxko.check.message import RST, Message, syntax_of
from jaxko.check.particles import particle_agreement
from jaxko.glossary import Glossary

# Reasons an entry stays fuzzy (the report counts them).
PROSE_CHANGED = "prose changed"
NO_PREVIOUS = "no previous msgid"
AMBIGUOUS = "a token changed in some places and not others"
MISSING_IN_TRANSLATION = "the translation does not keep the old token verbatim"
PARTICLE_UNKNOWN = "cannot tell the particle after the new word"
PARTICLE_FINDING = "the particle rule objects to the result"

_PARTICLE_AFTER = re.compile(r"(\\ )?([가-힣]+)")

# (msgid, msgstr) -> problems found by the particle rule (empty: fine).
ParticleCheck = Callable[[polib.POEntry, str], list[str]]


@dataclass
class Outcome:
    """What gleaning decided for one fuzzy entry."""

    gleaned: bool
    reason: str = ""
    msgstr: str | None = None
    changes: tuple[tuple[str, str], ...] = ()


def glean_message(previous: str, msgid: str, msgstr: str,
                  readings: Mapping[str, str] | None = None, *, syntax: str = RST) -> Outcome:
    """Decide for one message (``syntax``: its source's, ``"rst"`` or ``"myst"``);
    returns the new msgstr when the change is invariant-only."""
    exact = "\n" in previous or "\n" in msgid
    old = invariants.split(previous, syntax=syntax, normalise_space=not exact)
    new = invariants.split(msgid, syntax=syntax, normalise_space=not exact)
    if old.prose != new.prose or [t.kind for t in old.invariants] != [t.kind for t in new.invariants]:
        return Outcome(False, PROSE_CHANGED)
    mapping: dict[str, set[str]] = {}
    for a, b in zip(old.invariants, new.invariants):
        mapping.setdefault(a.text, set()).add(b.text)
    changes = {a: next(iter(b)) for a, b in mapping.items() if b != {a}}
    if any(len(b) > 1 for b in mapping.values()):
        return Outcome(False, AMBIGUOUS)
    if not changes:
        return Outcome(True, msgstr=msgstr)   # whitespace only
    translated = invariants.split(msgstr, syntax=syntax, normalise_space=False)
    in_msgid = Counter(t.text for t in old.invariants)
    in_msgstr = Counter(t.text for t in translated.invariants)
    if any(in_msgstr[a] != in_msgid[a] for a in changes):
        return Outcome(False, MISSING_IN_TRANSLATION)
    pieces: list[str] = []
    position = 0
    for token in translated.invariants:
        if token.text not in changes:
            continue
        replacement = changes[token.text]
        pieces.append(msgstr[position:token.start])
        pieces.append(replacement)
        position = token.end
        closed = position  # a role's closing backtick stands between its target and a particle
        while msgstr.startswith("`", closed):
            closed += 1
        after = _PARTICLE_AFTER.match(msgstr, closed)
        if token.word_end and after:
            found = korean.split_particle(after.group(2))
            if found is not None:
                particle, form, rest = found
                new_word = invariants.word_of(invariants.Invariant(
                    token.kind, replacement, 0, 0, True))
                right = korean.particle_for(new_word, form, readings)
                if right is None:
                    return Outcome(False, PARTICLE_UNKNOWN)
                pieces.append(msgstr[position:closed])
                pieces.append(after.group(1) or "")
                pieces.append(right + rest)
                position = after.end()
    pieces.append(msgstr[position:])
    return Outcome(True, msgstr="".join(pieces), changes=tuple(changes.items()))


def particle_rule_check(glossary_terms=None) -> ParticleCheck:
    """A check that runs ``jaxko check``'s ``particle.agreement`` rule on a gleaned msgstr.

    Returns the findings the rule reports on the new msgstr that it did not report on the
    old one (a problem the translation already had does not block gleaning).
    """
    context = Context(glossary=glossary_terms or Glossary())

    def findings(entry: polib.POEntry, msgstr: str) -> list[str]:
        locations = tuple(f"{name}:{line}" if line else name for name, line in entry.occurrences)
        syntax = syntax_of(locations)

        def run(text: str) -> list[str]:
            message = Message(path="", line=entry.linenum or 0, msgid=entry.msgid, msgstr=text,
                              msgctxt=entry.msgctxt, locations=locations, syntax=syntax)
            return [hit.message for hit in particle_agreement(message, context)
                    if getattr(hit, "severity", None) != "info"]  # a hint does not block

        before = run(entry.msgstr)
        return [found for found in run(msgstr) if found not in before]

    return findings


@dataclass
class Gleaned:
    catalog: Path
    location: str
    kind: str                  # "glean" (fuzzy cleared) or "code" (code comments carried, still fuzzy)
    changes: tuple[tuple[str, str], ...] = ()


@dataclass
class GleanResult:
    gleaned: list[Gleaned] = field(default_factory=list)
    kept: Counter = field(default_factory=Counter)
    changed: list[Path] = field(default_factory=list)
    catalogs: int = 0

    def count(self, kind: str) -> int:
        return sum(1 for g in self.gleaned if g.kind == kind)


def _location(entry: polib.POEntry, path: Path) -> str:
    if entry.occurrences:
        name, line = entry.occurrences[0]
        return f"{name}:{line}" if line else name
    return f"{path.name}:{entry.linenum}"


def glean_catalog(catalog: polib.POFile, *, code: bool = True,
                  readings: Mapping[str, str] | None = None,
                  particle_check: ParticleCheck | None = None) -> tuple[list[Gleaned], Counter]:
    """Glean one loaded catalog in place."""
    path = Path(catalog.fpath or "catalog.po")
    check = particle_check or (lambda entry, msgstr: [])
    done: list[Gleaned] = []
    kept: Counter = Counter()
    for entry in catalog:
        if entry.obsolete or "fuzzy" not in entry.flags or not entry.msgstr or entry.msgid_plural:
            continue
        if entry.previous_msgid is None or entry.previous_msgctxt != entry.msgctxt:
            kept[NO_PREVIOUS] += 1
            continue
        outcome = glean_message(entry.previous_msgid, entry.msgid, entry.msgstr, readings,
                                syntax=invariants.syntax_of_entry(entry))
        if outcome.gleaned:
            if check(entry, outcome.msgstr):
                kept[PARTICLE_FINDING] += 1
                continue
            entry.msgstr = outcome.msgstr
            entry.flags = [f for f in entry.flags if f != "fuzzy"]
            entry.previous_msgid = None
            entry.previous_msgctxt = None
            done.append(Gleaned(path, _location(entry, path), "glean", outcome.changes))
            continue
        if code:
            carried = codesync.carry(entry.previous_msgid, entry.msgid, entry.msgstr)
            if carried is not None and carried != entry.msgstr:
                entry.msgstr = carried
                done.append(Gleaned(path, _location(entry, path), "code"))
                continue
        kept[outcome.reason] += 1
    return done, kept


def glean(paths: Iterable[Path], *, code: bool = True, dry_run: bool = False,
          readings: Mapping[str, str] | None = None, particle_check: ParticleCheck | None = None,
          progress: bool = False) -> GleanResult:
    """Glean every catalog under ``paths``; saves the ones that changed (unless dry run)."""
    found = list(catalogs.iter_catalogs(paths))
    result = GleanResult(catalogs=len(found))
    items: Iterable[Path] = found
    if progress and len(found) > 1:
        from tqdm import tqdm
        items = tqdm(found, desc="glean", unit="file", leave=False)
    for path in items:
        catalog = catalogs.load(path)
        done, kept = glean_catalog(catalog, code=code, readings=readings,
                                   particle_check=particle_check)
        result.kept.update(kept)
        if done:
            result.gleaned.extend(done)
            if dry_run or catalogs.save(catalog, path):
                result.changed.append(path)
    return result
