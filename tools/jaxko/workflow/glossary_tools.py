"""Glossary upkeep: rename a rendering across the catalogs, suggest terms, export.

* :func:`rename` — the team changes a decision (컨볼루션 → 합성곱): every msgstr
  occurrence of the old rendering, and of the term's forbidden ones, becomes the new
  one, with the particle after it re-chosen (컨볼루션을 → 합성곱을, 컨볼루션는 →
  합성곱은); the glossary entry is updated in place (the old rendering becomes
  forbidden). Inline code, role and link targets and URLs are never rewritten.
* :func:`suggest` — frequent English words and phrases of the msgids that the glossary
  does not cover, each with how the catalogs currently render it: the input to the
  team's term discussions.
* :func:`unused_renderings` — terms whose English occurs in many translated messages
  while no catalog uses any of their renderings: most often a typo in the glossary
  (컨테이너 → 컨테이너너), which no per-message check can see (every message then
  merely lacks the rendering). ``jaxko glossary validate --catalogs`` warns of them.
* :func:`export_csv`, :func:`export_tbx`, :func:`export_json` — the glossary for
  Poedit, Weblate and CAT tools.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import polib

from jaxko import catalogs, glossary, korean
from jaxko.errors import UserError
from jaxko.check.message import RST
from jaxko.workflow import invariants

_HANGUL = re.compile(r"[가-힣]+")


# --------------------------------------------------------------------------- unused


@dataclass(frozen=True)
class Unused:
    """A term used in many English messages whose renderings no catalog uses."""

    term: glossary.Term
    messages: int                      # translated messages whose msgid holds the term
    example: tuple[str, int]           # (catalog, line) of the first of them

    def format(self, path: str | Path) -> str:
        shown = " or ".join(f"`{r}`" for r in self.term.renderings)
        where = f"{self.example[0]}:{self.example[1]}"
        return (f"{path}:{self.term.line}: warning: `{self.term.en}` occurs in {self.messages} "
                f"translated messages (the first at {where}) but no catalog uses its rendering "
                f"{shown}; check the rendering for a typo, or add the one the catalogs use")


_INLINE_CODE = re.compile(r"`[^`\n]*`")
_BLANKS = re.compile(r"\s+")


def unused_renderings(terms: glossary.Glossary, paths: Iterable[Path], *,
                      min_messages: int = 5) -> list[Unused]:
    """Terms (not kept in English, with renderings) whose English words occur, outside
    inline code, in at least ``min_messages`` translated messages of the catalogs under
    ``paths``, while none of their renderings occurs in any msgstr of those catalogs
    (whitespace runs read as one space). Code blocks (msgids of several lines) and
    messages outside a term's ``senses`` do not count."""
    from jaxko.check.terms import TermMatcher

    matcher = TermMatcher(terms)
    counts: Counter = Counter()
    first: dict[int, tuple[str, int]] = {}
    korean_text: list[str] = []
    for path in catalogs.iter_catalogs(paths):
        for entry in catalogs.read(path):
            if entry.msgstr:
                korean_text.append(_BLANKS.sub(" ", entry.msgstr))
            if not entry.translated or "\n" in entry.msgid:
                continue
            english = _INLINE_CODE.sub(" ", entry.msgid)
            lowered = english.lower()
            for number in matcher.english_terms(english):
                term = matcher.terms[number]
                if term.senses and not any(re.search(rf"\b{re.escape(cue.lower())}\b", lowered)
                                           for cue in term.senses):
                    continue
                counts[number] += 1
                first.setdefault(number, (str(path), entry.msgstr_line))
    text = "\n".join(korean_text)
    found = []
    for number, n in sorted(counts.items()):
        term = matcher.terms[number]
        if n < min_messages or term.keep or not term.renderings:
            continue
        if any(_BLANKS.sub(" ", r) in text for r in term.renderings):
            continue
        found.append(Unused(term, n, first[number]))
    return sorted(found, key=lambda u: u.term.line)


# --------------------------------------------------------------------------- rename


def find_term(terms: glossary.Glossary, en: str) -> glossary.Term:
    """The glossary term for ``en`` (case-insensitive unless the term is case-sensitive)."""
    exact = [t for t in terms.terms if t.en == en]
    loose = [t for t in terms.terms if not t.case_sensitive and t.en.lower() == en.lower()]
    found = exact or loose
    if not found:
        close = difflib.get_close_matches(en, [t.en for t in terms.terms], n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UserError(f"no term {en!r} in the glossary{hint}", terms.path)
    if len(found) > 1:
        raise UserError(f"several terms {en!r} (different pos); edit the glossary by hand",
                        terms.path, found[0].line)
    return found[0]


def rewrite(text: str, old: Iterable[str], new: str, *, inside_words: bool = False,
            readings=None, syntax: str = RST) -> str:
    """``text`` (markup in ``syntax``, ``"rst"`` or ``"myst"``) with every ``old``
    rendering replaced by ``new``, particles fixed.

    Skipped: occurrences inside invariants (code, targets, URLs, math, HTML: what
    :func:`jaxko.workflow.invariants.split` reads), inside an existing
    occurrence of ``new``, and — unless ``inside_words`` — occurrences that start in the
    middle of a word (역컨볼루션).
    """
    olds = sorted({o for o in old if o and o != new}, key=len, reverse=True)
    if not olds or not any(o in text for o in olds):
        return text
    protected = [(t.start, t.end)
                 for t in invariants.split(text, syntax=syntax, normalise_space=False).invariants]
    start = 0
    while (found := text.find(new, start)) != -1:
        protected.append((found, found + len(new)))
        start = found + 1
    pattern = re.compile("|".join(re.escape(o) for o in olds))
    out: list[str] = []
    position = 0
    for match in pattern.finditer(text):
        begin, end = match.span()
        if begin < position or any(a < end and begin < b for a, b in protected):
            continue
        if not inside_words and begin > 0 and (text[begin - 1].isalnum()):
            continue
        out.append(text[position:begin])
        out.append(new)
        position = end
        after = _HANGUL.match(text, end)
        if after:
            found = korean.split_particle(after.group(0))
            if found is not None:
                _particle, form, rest = found
                right = korean.particle_for(new, form, readings)
                if right is not None:
                    out.append(right + rest)
                    position = after.end()
    out.append(text[position:])
    return "".join(out)


@dataclass
class EntryChange:
    catalog: Path
    location: str
    before: str
    after: str


@dataclass
class RenamePlan:
    """What a rename will do; nothing is written until :func:`apply_rename`."""

    term: glossary.Term
    new: str
    old: tuple[str, ...]
    changes: list[EntryChange] = field(default_factory=list)
    catalogs: dict[Path, polib.POFile] = field(default_factory=dict)
    glossary_path: Path | None = None
    glossary_before: str = ""
    glossary_after: str = ""

    def diff(self, root: Path | None = None) -> str:
        """A unified diff of the glossary and of every changed msgstr."""
        out: list[str] = []
        if self.glossary_after != self.glossary_before:
            name = _shown(self.glossary_path, root)
            out.extend(difflib.unified_diff(self.glossary_before.splitlines(keepends=True),
                                            self.glossary_after.splitlines(keepends=True),
                                            f"a/{name}", f"b/{name}"))
        current = None
        for change in self.changes:
            if change.catalog != current:
                current = change.catalog
                name = _shown(change.catalog, root)
                out.append(f"--- a/{name}\n+++ b/{name}\n")
            out.append(f"@@ {change.location} @@\n")
            out.extend(f"-{line}\n" for line in change.before.split("\n"))
            out.extend(f"+{line}\n" for line in change.after.split("\n"))
        return "".join(out)


def _shown(path: Path | None, root: Path | None) -> str:
    if path is None:
        return ""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix() if root else path.as_posix()
    except ValueError:
        return path.as_posix().lstrip("/")


def plan_rename(glossary_path: Path, en: str, new: str, paths: Iterable[Path], *,
                also: Iterable[str] = (), inside_words: bool = False) -> RenamePlan:
    """Work out a rename without writing anything."""
    new = new.strip()
    if not new or "\n" in new:
        raise UserError("--to must be a non-empty rendering on one line")
    terms = glossary.load(glossary_path)
    term = find_term(terms, en)
    if term.keep:
        raise UserError(f"{term.en!r} is kept in English (keep: true); give it a `ko:` in the "
                        "glossary by hand first", glossary_path, term.line)
    old = tuple(dict.fromkeys(o for o in (term.ko, *term.forbidden, *also) if o and o != new))
    plan = RenamePlan(term, new, old, glossary_path=glossary_path)
    plan.glossary_before = glossary_path.read_text(encoding="utf-8")
    plan.glossary_after = _update_glossary_text(plan.glossary_before, term, new, glossary_path)
    readings = terms.readings
    for path in catalogs.iter_catalogs(paths):
        catalog = catalogs.load(path)
        touched = False
        for entry in catalog:
            if not entry.msgstr or not any(o in entry.msgstr for o in old):
                continue
            after = rewrite(entry.msgstr, old, new, inside_words=inside_words, readings=readings,
                            syntax=invariants.syntax_of_entry(entry))
            if after == entry.msgstr:
                continue
            if entry.occurrences:
                location = f"{entry.occurrences[0][0]}:{entry.occurrences[0][1]}"
            else:
                location = f"{path.name}:{entry.linenum}" + (" (obsolete)" if entry.obsolete else "")
            plan.changes.append(EntryChange(path, location, entry.msgstr, after))
            entry.msgstr = after
            touched = True
        if touched:
            plan.catalogs[path] = catalog
    return plan


def apply_rename(plan: RenamePlan) -> list[Path]:
    """Write the planned catalogs and glossary (each atomically); returns what changed."""
    written = [path for path, catalog in plan.catalogs.items() if catalogs.save(catalog, path)]
    if plan.glossary_path and plan.glossary_after != plan.glossary_before:
        catalogs.write_text_atomic(plan.glossary_path, plan.glossary_after)
        written.append(plan.glossary_path)
    return written


_FLOW_LIST = re.compile(r"^(\s+)(forbidden|variants):\s*\[(.*)\]\s*$")


def _yaml_item(text: str) -> str:
    return text if re.fullmatch(r"[^\s\[\],:#'\"{}&*!|>%@`-][^\[\],:#{}]*", text) and \
        text == text.strip() else json.dumps(text, ensure_ascii=False)


def _update_glossary_text(text: str, term: glossary.Term, new: str, path: Path) -> str:
    """The glossary text with the term's ``ko`` set to ``new`` and the old one forbidden.

    Only the term's own lines change; comments and every other term stay as written.
    The result is validated before it is returned.
    """
    lines = text.splitlines(keepends=True)
    start = term.line - 1
    end = start + 1
    while end < len(lines) and not re.match(r"^\s*-\s", lines[end]) and \
            not re.match(r"^\S", lines[end]):
        end += 1
    block = lines[start:end]
    old_ko = term.ko
    forbidden = [f for f in term.forbidden if f != new]
    if old_ko and old_ko != new and old_ko not in forbidden:
        forbidden.append(old_ko)
    variants = [v for v in term.variants if v != new]
    indent = None
    out: list[str] = []
    skip_block_list = False
    for line in block:
        stripped = line.strip()
        if skip_block_list:
            if stripped.startswith("- ") and not re.match(r"^\s*-\s+en:", line):
                continue
            skip_block_list = False
        key = re.match(r"^(\s*-\s+|\s+)(ko|forbidden|variants):(.*)$", line.rstrip("\n"))
        if key:
            lead, name, value = key.groups()
            indent = " " * len(lead) if indent is None else indent
            if not value.strip():
                skip_block_list = name in ("forbidden", "variants")
            if name == "ko":
                out.append(f"{lead}ko: {_yaml_item(new)}\n")
                if forbidden and not term.forbidden:
                    out.append(f"{' ' * len(lead)}forbidden: [{', '.join(_yaml_item(f) for f in forbidden)}]\n")
                continue
            items = forbidden if name == "forbidden" else variants
            if items:
                out.append(f"{lead}{name}: [{', '.join(_yaml_item(i) for i in items)}]\n")
            continue
        out.append(line)
    result = "".join(lines[:start] + out + lines[end:])
    _, problems = glossary.parse(result, str(path))
    if problems:
        first = problems[0]
        raise UserError(f"the renamed glossary would not be valid: {first.message}; "
                        "edit it by hand", path, first.line)
    return result


# --------------------------------------------------------------------------- suggest

STOPWORDS = frozenset("""
a about above after again against all also an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having here how if in into is it its itself just more most no nor not now of off
on once only or other our out over own same should so some such than that the their them then
there these they this those through to too under until up very was we were what when where
which while who whom why will with would you your yours i me my he she his her us may might
must shall one two three first second also however thus e.g i.e etc see use used using uses
example examples following like new way ways well want need needs make makes made get gets
let lets many much every either neither via within without yet still even often already
allow allows allowed provide provides provided note notes call calls called case cases
take takes work works part set sets run runs section here's it's don't can't doesn't isn't
more less instead rather than whether across along around return returns returned value
values code time times thing things number numbers result results
""".split()) | frozenset("""
able above actually add added adding additional address after again almost alone already
always among amount another answer appear appears apply applied applies approach arbitrary
available avoid back based basic become becomes begin behind below best better big bit
both bring build builds built came can't care carefully certain change changed changes
check checks choose chosen clear clearly close come comes common commonly complete
completely consider considered contain contains continue correct correctly could current
currently detail details different directly discuss discussed do done due easy easily
effect either else enough entire entirely especially essentially exactly except expect
expected explain explicit explicitly extra fact fairly far fast faster feel find finds
fine fixed follow follows form full fully general generally give given gives go goes
going good great happen happens hard help helps high higher hold important include
included includes including increase indeed information inside instance instead
interested itself keep keeps kind known large larger last later least leave left level
likely line lines list little long longer look looks lot low main mainly manually mean
means meaning mentioned might mind more mostly move moved name names near nearly necessary
next nice non normal normally notice now obtain obviously off old open order original
others otherwise overall particular particularly pass passed passes perform performed
perhaps place point points possible possibly practice prefer present pretty previous
previously probably problem problems produce produces proper properly put quick quickly
quite read reason reasons recommend refer related relatively remain remains remember
replace require required requires respect rest right roughly said say says second seen
selected separate serve several short show shown shows side similar similarly simple
simply since single size small so-called sometimes soon sort specific specifically
start started state still straightforward structure subsequent suppose sure take taken
tell term terms therefore thing think third though thought together top total true
try trying turn typical typically understand unless unlike usage useful usual usually
various version versions view whole wide will wish word words worth write writing
written wrong yes yourself
""".split())
# Korean words (as stemmed by _stem) too common to be anyone's rendering of a term.
KOREAN_STOPWORDS = frozenset("""
있습니 있는 있으 있고 없습니 없는 같은 같이 것입니 것은 것을 이것 그것 이런 그런 다음 경우 때문
입니 됩니 합니 하는 위해 대한 통해 모든 여러 어떤 이를 그리고 하지만 또는 예를
에서 에는 에게 에도 까지 부터 처럼 보다 만큼
""".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-'][A-Za-z0-9]+)*")


@dataclass
class Candidate:
    """A suggested term with its evidence."""

    phrase: str
    count: int
    documents: int
    renderings: list[tuple[str, int]]
    contexts: list[tuple[str, str]]     # (English snippet, Korean msgstr snippet)
    score: float = 0.0
    key: str = ""                       # the phrase with its last word singular

    def as_dict(self) -> dict:
        return {"phrase": self.phrase, "key": self.key, "count": self.count,
                "documents": self.documents,
                "score": round(self.score, 2),
                "renderings": [{"text": t, "messages": n} for t, n in self.renderings],
                "contexts": [{"en": en, "ko": ko} for en, ko in self.contexts]}


def _singular(word: str) -> str:
    """English plural to singular, for the regular cases only (types -> type)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _covered(terms: glossary.Glossary) -> set[str]:
    """Lower-cased English forms the glossary already covers (with simple plurals)."""
    covered: set[str] = set()
    for term in terms.terms:
        for form in (term.en, *term.forms):
            lower = form.lower()
            covered.update({lower, lower + "s", lower + "es"})
            if lower.endswith("s"):
                covered.add(lower[:-1])
            if lower.endswith("y"):
                covered.add(lower[:-1] + "ies")
    return covered


_MARKUP = re.compile(r"(?::[\w.+-]+(?::[\w.+-]+)*:|\{[\w.+:-]+\})`?|[`*_]{1,2}|\\ ")


def _prose(msgid: str, syntax: str = RST) -> str:
    """The English prose of a message: no code, targets, URLs or markup."""
    split = invariants.split(msgid, syntax=syntax, normalise_space=True)
    return " | ".join(_MARKUP.sub(" ", piece) for piece in split.prose)


_VERB_SUFFIX_START = "하합한할했해되됩된될됐돼"


def _stem(word: str) -> str:
    """A rough noun stem of a Hangul word: 배열을 -> 배열, 지원합니다 -> 지원.

    Good enough to group renderings for a person to read; not a morphological analysis.
    """
    for cut in range(min(4, len(word) - 2), 0, -1):
        if korean.split_particle(word[-cut:]) is not None:
            word = word[:-cut]
            break
    for i in range(2, len(word)):
        if word[i] in _VERB_SUFFIX_START:
            return word[:i]
    return word


def suggest(paths: Iterable[Path], terms: glossary.Glossary, *, min_count: int = 3,
            min_documents: int = 2, max_words: int = 3, limit: int = 50,
            contexts: int = 2) -> list[Candidate]:
    """Frequent words and phrases of the msgids not in the glossary, ranked, with evidence."""
    covered = _covered(terms)
    counts: Counter = Counter()
    docs: dict[str, set[Path]] = defaultdict(set)
    messages: dict[str, list[tuple[str, str]]] = defaultdict(list)
    untranslated: dict[str, list[tuple[str, str]]] = defaultdict(list)
    surfaces: dict[str, Counter] = defaultdict(Counter)
    korean_df: Counter = Counter()
    translated_total = 0
    loaded = []
    for path in catalogs.iter_catalogs(paths):
        catalog = catalogs.load(path)
        loaded.append((path, catalog))
        for entry in catalog:
            if entry.obsolete or "\n" in entry.msgid:
                continue  # obsolete text and code blocks say nothing about current terms
            if catalogs.is_translated(entry):
                translated_total += 1
                korean_df.update({_stem(w) for w in _HANGUL.findall(entry.msgstr)})
            words = _WORD.findall(_prose(entry.msgid, invariants.syntax_of_entry(entry)))
            lowered = [w.lower() for w in words]
            # Words inside a phrase the glossary has (control *flow*) are not candidates.
            inside_term = [False] * len(words)
            for n in range(1, 5):
                for i in range(len(words) - n + 1):
                    if " ".join(lowered[i:i + n]) in covered:
                        inside_term[i:i + n] = [True] * n
            seen_here: set[str] = set()
            for n in range(1, max_words + 1):
                for i in range(len(words) - n + 1):
                    if any(inside_term[i:i + n]):
                        continue
                    gram = words[i:i + n]
                    lower = lowered[i:i + n]
                    if lower[0] in STOPWORDS or lower[-1] in STOPWORDS or \
                            any(w in STOPWORDS and w != "of" for w in lower[1:-1]):
                        continue
                    if n == 1 and (len(lower[0]) < 4 or not gram[0].isalpha()):
                        continue
                    if any(len(g) < 2 for g in lower):
                        continue
                    surface = " ".join(lower)
                    phrase = " ".join([*lower[:-1], _singular(lower[-1])])
                    if surface in covered or phrase in covered or phrase in seen_here:
                        continue
                    seen_here.add(phrase)
                    surfaces[phrase][surface] += 1
                    counts[phrase] += 1
                    docs[phrase].add(path)
                    if catalogs.is_translated(entry):
                        messages[phrase].append((entry.msgid, entry.msgstr))
                    elif len(untranslated[phrase]) < contexts:
                        untranslated[phrase].append((entry.msgid, ""))
    candidates: list[Candidate] = []
    for phrase, count in counts.items():
        if count < min_count or len(docs[phrase]) < min_documents:
            continue
        n_words = phrase.count(" ") + 1
        score = count * math.log(1 + len(docs[phrase])) * (1 + 0.5 * (n_words - 1))
        shown = surfaces[phrase].most_common(1)[0][0]
        candidates.append(Candidate(shown, count, len(docs[phrase]), [], [], score, key=phrase))
    # A phrase that nearly always occurs inside a longer candidate is redundant.
    by_phrase = {c.key: c for c in candidates}
    for longer in candidates:
        words = longer.key.split()
        for n in range(1, len(words)):
            for i in range(len(words) - n + 1):
                shorter = by_phrase.get(" ".join([*words[i:i + n - 1], _singular(words[i + n - 1])]))
                if shorter is not None and longer.count >= 0.8 * shorter.count:
                    shorter.score = -1
    ranked = sorted((c for c in candidates if c.score >= 0), key=lambda c: (-c.score, c.phrase))[:limit]
    for c in ranked:
        found = messages.get(c.key, [])
        c.renderings = _renderings(c.phrase, found, korean_df, translated_total)
        shown = found[:contexts] or untranslated.get(c.key, [])[:contexts]
        c.contexts = [(_kwic(msgid, c.phrase), _short(msgstr)) for msgid, msgstr in shown]
    return ranked


def _renderings(phrase: str, found: list[tuple[str, str]], korean_df: Counter,
                total: int) -> list[tuple[str, int]]:
    """How translated messages with the phrase render it: words over-represented there."""
    if not found:
        return []
    kept = sum(1 for _, msgstr in found if phrase in _GLOSSES.sub("", msgstr).lower())
    local: Counter = Counter()
    for _, msgstr in found:
        local.update({_stem(w) for w in _HANGUL.findall(msgstr)})
    scored = []
    for word, n in local.items():
        share = n / len(found)
        if len(word) < 2 or (n < 2 and len(found) > 1) or share < 0.3 or word in KOREAN_STOPWORDS:
            continue
        # Words common in this term's messages but rare elsewhere (smoothed idf).
        idf = 1 + math.log((total + 1) / (korean_df[word] + 1))
        scored.append((share * idf, word, n))
    scored.sort(reverse=True)
    result = [(word, n) for _, word, n in scored[:3]]
    if kept:
        result.insert(0, (f"{phrase} (영문 그대로)", kept))
    return result


_GLOSSES = re.compile(r"\([^()]*\)")


def _kwic(text: str, phrase: str, width: int = 40) -> str:
    index = text.lower().find(phrase)
    if index < 0:
        return _short(text, 2 * width)
    begin, end = max(0, index - width), min(len(text), index + len(phrase) + width)
    return ("…" if begin else "") + text[begin:end] + ("…" if end < len(text) else "")


def _short(text: str, width: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


# --------------------------------------------------------------------------- export


def _target(term: glossary.Term) -> str:
    return term.ko if term.ko else term.en


def export_json(terms: glossary.Glossary) -> str:
    """Every term as a JSON object (keys as in the YAML, empty ones left out)."""
    out = []
    for t in terms.terms:
        item = {"en": t.en, "ko": t.ko, "variants": list(t.variants),
                "forbidden": list(t.forbidden), "keep": t.keep, "reading": t.reading,
                "case_sensitive": t.case_sensitive, "forms": list(t.forms), "pos": t.pos,
                "note": t.note}
        item = {k: v for k, v in item.items() if v not in (None, [], False) or k == "keep"}
        if not t.check:
            item["check"] = False
        out.append(item)
    return json.dumps({"source_language": "en", "target_language": "ko", "terms": out},
                      ensure_ascii=False, indent=2) + "\n"


def export_csv(terms: glossary.Glossary) -> str:
    """CSV with Weblate's/translate-toolkit's column names first (source, target, ...)."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["source", "target", "developer_comments", "variants", "forbidden",
                     "keep", "reading", "pos"])
    for t in terms.terms:
        comment = t.note or ""
        if t.keep:
            comment = ("번역하지 않고 원문 그대로 씁니다. " + comment).strip()
        writer.writerow([t.en, _target(t), comment, "; ".join(t.variants),
                         "; ".join(t.forbidden), "true" if t.keep else "false",
                         t.reading or "", t.pos or ""])
    return buffer.getvalue()


_POS_TBX = {"noun": "noun", "verb": "verb", "adjective": "adjective", "adverb": "adverb",
            "phrase": "other", "name": "properNoun"}


def export_tbx(terms: glossary.Glossary) -> str:
    """TBX (ISO 30042 ``martif``, TBX-Basic data categories) for Weblate and CAT tools.

    The agreed rendering is ``preferredTerm-admn-sts``, variants ``admittedTerm``,
    forbidden ones ``deprecatedTerm``; a kept term's Korean entry is the English itself.
    """
    import xml.etree.ElementTree as ET

    root = ET.Element("martif", {"type": "TBX-Basic", "xml:lang": "en"})
    header = ET.SubElement(root, "martifHeader")
    file_desc = ET.SubElement(header, "fileDesc")
    source = ET.SubElement(ET.SubElement(file_desc, "sourceDesc"), "p")
    source.text = "jax-docs-ko glossary (glossary/ko.yaml)"
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for number, t in enumerate(terms.terms, 1):
        entry = ET.SubElement(body, "termEntry", {"id": f"term-{number}"})
        if t.note:
            ET.SubElement(entry, "note").text = t.note
        english = ET.SubElement(entry, "langSet", {"xml:lang": "en"})
        for form in (t.en, *t.forms):
            tig = ET.SubElement(english, "tig")
            ET.SubElement(tig, "term").text = form
            if t.pos:
                ET.SubElement(tig, "termNote", {"type": "partOfSpeech"}).text = _POS_TBX[t.pos]
        korean_set = ET.SubElement(entry, "langSet", {"xml:lang": "ko"})
        for text, status in ([(_target(t), "preferredTerm-admn-sts")]
                             + [(v, "admittedTerm-admn-sts") for v in t.variants]
                             + [(f, "deprecatedTerm-admn-sts") for f in t.forbidden]):
            tig = ET.SubElement(korean_set, "tig")
            ET.SubElement(tig, "term").text = text
            ET.SubElement(tig, "termNote", {"type": "administrativeStatus"}).text = status
    ET.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">\n'
            + ET.tostring(root, encoding="unicode") + "\n")


EXPORTERS = {"csv": export_csv, "tbx": export_tbx, "json": export_json}
