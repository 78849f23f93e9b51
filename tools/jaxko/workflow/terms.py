"""Terminology across the whole translation: word alignment of every translated message.

``jaxko terms`` reads every translated, non-fuzzy prose message of a catalog tree and
aligns the English of its msgid with the Korean of its msgstr word by word, with
eflomal (a Bayesian word aligner, HMM with fertility, run in both directions and
symmetrised with grow-diag; a phrase's rendering also reads the final-and links, see
:func:`align`) over:

* English: words of the prose as the reader sees it (:func:`jaxko.check.inline.mask`
  drops code, literals, URLs, math, HTML and role/link targets; link text stays),
  lower-cased and lemmatised simply (plural and a few irregular forms); words with
  digits, underscores or dots are code and never count;
* Korean: Kiwi's morphemes of the same masked msgstr; every word of the glossary's
  renderings is taught to Kiwi so 컴파일 and 순방향 stay one morpheme.

An English *term* is a run of one to three content words (no stopword, within one
clause). Its *rendering* in a message is the contiguous run of Korean content
morphemes (nouns, roots, verb and adjective stems, prefixes and noun suffixes, Latin
words) aligned to its words; particles and endings are not part of it, so 블로킹을,
블로킹이 and 블로킹하여 are all 블로킹, and 계산합니다 is 계산. Renderings are compared
without their spaces (the *key*); spellings of one key that differ only in spacing
(부분 집합 / 부분집합) are *spacing* variants. A rendering that keeps the English word
(JAX for JAX, TPU용 for TPU) or holds a digit (a version, a date) is not a rendering.

The report (:class:`Report`):

* **drift**: a term with two or more renderings, each on at least ``min_messages``
  messages, where neither contains the other (미분 inside 자동 미분 is a partial
  alignment, not a second word); renderings the glossary accepts (``ko`` and
  ``variants`` of every entry for the term: register is 등록 and 레지스터) are one
  rendering. A message whose Korean keeps the English term (a title, a name) has no
  rendering of it, and one whose Korean holds the main rendering (any the glossary
  accepts, else the most used), or another drifting one used more, counts for no
  other: the aligner linked a neighbour there; a single word given a noun rendering in
  under half of the messages that hold it (a verb such as keep, rendered 가집니다) does
  not drift: those renderings are slips too; a phrase whose renderings are all those of
  one of its words (checkpoint read: 체크포인트 and 검사점) is that word's drift, listed
  once.
  A single word common in general English (:func:`is_general`: set, work,
  time) that the glossary lacks and no drifting phrase holds is *left out* (``left_out``)
  unless ``all_words``: such a line is mostly one word with two senses;
* **spacing**: one rendering written with different spacing, each on at least
  ``min_messages`` messages;
* **violations**: a glossary term whose accepted renderings are all absent from the
  msgstr, while the aligner says another word renders it;
* **candidates**: frequent terms the glossary lacks whose dominant rendering holds at
  least ``dominance`` of their messages: ready-to-paste ``glossary/ko.yaml`` entries.

The analysis of a tree (tokens and links) is cached under ``.jaxko_cache/terms/`` by
the SHA-256 of everything it depends on; a second run on unchanged catalogs only
counts.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, NamedTuple

from jaxko import korean, memo
from jaxko.catalogs import read as read_catalog, write_text_atomic
from jaxko.check import inline
from jaxko.check.message import TEXT, syntax_of
from jaxko.check.sources import guess
from jaxko.check.terms import IDIOMS
from jaxko.errors import UserError
from jaxko.glossary import Glossary, Term

MAX_WORDS = 3

STOPWORDS = frozenset("""
a about above after again against all also although always am among an and another any
are aren't around as at be became because been before being below between both but by
can cannot could did do does doing done down during each either else even ever every
few for from further get gets getting given gives go goes going got had has have having
he her here hers him his how however i if in into is isn't it its itself just least
less let lets like made make makes making many may me might more most much must my
need needs neither never no nor not now of off often on once one only onto or other
others otherwise our ours out over own per perhaps rather really same see seen several
shall she should show shown shows since so some something such than that the their
them then there therefore these they thing things this those though through thus to
too under unless until up upon us use used uses using usually very via was way ways we
well were what whatever when where whether which while who whom whose why will with
within without would yet you your yours e g eg ie etc i.e e.g new first second also
example examples following follow follows want wants here's there's it's let's
we'll you'll we're you're that's don't doesn't can't won't
myself yourself himself herself ourselves yourselves themselves
""".split())

_IRREGULAR = {"indices": "index", "matrices": "matrix", "vertices": "vertex",
              "children": "child", "axes": "axis", "analyses": "analysis",
              "hypotheses": "hypothesis", "bases": "basis", "data": "data",
              "criteria": "criterion", "phenomena": "phenomenon", "men": "man",
              "statuses": "status", "aliases": "alias", "biases": "bias",
              "alias": "alias", "bias": "bias", "canvas": "canvas", "atlas": "atlas"}
_NOT_PLURAL = ("ss", "us", "is", "ous", "ics", "sis", "xis")

_WORD = re.compile(r"[A-Za-z0-9_.'’-]*[A-Za-z0-9_]|[.,;:!?()\[\]\"“”{}—–]")
_CLAUSE = frozenset(".,;:!?()[]\"“”{}—–")

# Kiwi tags of the morphemes a rendering is made of.
_CONTENT_TAGS = frozenset({"NNG", "NNP", "XR", "VV", "VA", "SL", "SH", "XPN", "XSN",
                           "W_SERIAL"})
_VERBAL_TAGS = frozenset({"VV", "VA", "XR"})  # verb and adjective stems, adjective roots
_SKIPPED_TAGS = frozenset({"SF", "SP", "SS", "SSO", "SSC", "SE", "SO", "SW", "SB", "W_URL",
                           "W_EMAIL", "W_HASHTAG", "W_MENTION", "W_EMOJI", "SN"})


def lemma(word: str) -> str:
    """A lower-cased English word with plural endings taken off (arrays -> array,
    indices -> index, batches -> batch); other words as they are."""
    word = word.lower().replace("’", "'")
    if word in STOPWORDS:
        return word  # does, this: no plural to take off
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(_NOT_PLURAL) \
            and word[-2] != "'":
        return word[:-1]
    return word


def term_key(text: str) -> str:
    """The key of an English term or glossary entry: its words lemmatised."""
    return " ".join(lemma(w) for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'-]*", text))


# --------------------------------------------------------------------------- reading


class Pair(NamedTuple):
    """One translated prose message."""

    catalog: str
    line: int          # line of the msgstr
    msgid: str
    msgstr: str
    syntax: str


def catalogs_under(paths: list[Path]) -> list[Path]:
    """The .po files of the given files and folders, sorted; a one-line error for a
    path that is neither."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(path.rglob("*.po")))
        elif path.is_file():
            found.append(path)
        else:
            raise UserError("no such catalog or folder; give .po files or folders", path)
    return found


def read_pairs(catalogs: list[Path]) -> list[Pair]:
    """Every translated, non-fuzzy prose message of the catalogs (the one .po reader,
    :func:`jaxko.catalogs.read`: a broken catalog is its one-line error)."""
    pairs = []
    for path in catalogs:
        for entry in read_catalog(path):
            if not entry.msgid or not entry.translated or entry.plural:
                continue
            if guess(entry.msgid).block != TEXT:
                continue
            pairs.append(Pair(str(path), entry.msgstr_line, entry.msgid, entry.msgstr,
                              syntax_of(entry.locations)))
    return pairs


# ------------------------------------------------------------------------ tokenising


def english_words(text: str, syntax: str) -> tuple[list[str], list[int]]:
    """(lemmatised words, clause number of each): the prose of a msgid. Tokens with
    digits, underscores or inner dots are code and leave a gap (clause break)."""
    prose = inline.mask(text, inline.parse(text, syntax), keep_titles=True, syntax=syntax)
    words: list[str] = []
    clauses: list[int] = []
    clause = 0
    for token in _WORD.findall(prose):
        if token in _CLAUSE:
            clause += 1
            continue
        token = token.strip(".'’-")
        if not token or not token.isascii() or any(ch.isdigit() or ch in "_." for ch in token):
            clause += 1
            continue
        words.append(lemma(token))
        clauses.append(clause)
    return words, clauses


class Morph(NamedTuple):
    """One Kiwi morpheme of a msgstr: what the aligner sees and what a rendering shows."""

    token: str      # the aligner's token
    form: str       # the morpheme (a verb's stem for a verb)
    content: bool   # part of a rendering
    start: int
    end: int
    verbal: bool = False  # a verb or adjective stem (만들, 쓰): not a term's rendering


def korean_morphs(tokens, text: str) -> list[Morph]:
    """The morphemes of one analysed msgstr, punctuation and numbers left out."""
    out = []
    for token in tokens:
        tag = str(token.tag)
        tag = tag.split("-")[0]  # VV-R / VV-I: regular and irregular verbs
        if tag in _SKIPPED_TAGS:
            continue
        form = token.form
        content = tag in _CONTENT_TAGS
        out.append(Morph(form.lower() if content else f"{form}/{tag[:2]}", form, content,
                         token.start, token.start + token.len, tag in _VERBAL_TAGS))
    return out


# ------------------------------------------------------------------------- aligning


def _grow_diag(forward: set, backward: set) -> set:
    """The grow-diag symmetrisation of two directional alignments (Koehn et al.):
    the intersection, grown by union links next to an aligned point whose source or
    target word is still unaligned."""
    links = forward & backward
    union = forward | backward
    neighbours = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
    grew = True
    while grew:
        grew = False
        sources = {s for s, _ in links}
        targets = {t for _, t in links}
        for s, t in sorted(links):
            for ds, dt in neighbours:
                point = (s + ds, t + dt)
                if point in union and point not in links and (
                        point[0] not in sources or point[1] not in targets):
                    links.add(point)
                    sources.add(point[0])
                    targets.add(point[1])
                    grew = True
    return links


def _final_and(links: set, forward: set, backward: set) -> set:
    """The links "final-and" adds to grow-diag (Koehn et al.; Moses' default
    grow-diag-final-and): a link of either direction whose source and target words are
    both still unaligned."""
    sources = {s for s, _ in links}
    targets = {t for _, t in links}
    added = set()
    for direction in (forward, backward):
        for s, t in sorted(direction):
            if s not in sources and t not in targets:
                added.add((s, t))
                sources.add(s)
                targets.add(t)
    return added


def _read_links(path: str) -> list[set]:
    with open(path, encoding="utf-8") as handle:
        return [{tuple(int(n) for n in item.split("-")) for item in line.split()}
                for line in handle.read().split("\n")[:-1]]


SMALL = 2000  # sentence pairs: below this, sampling is cheap and the sample small


class Links(NamedTuple):
    """The word links (source index, target index) of one sentence pair."""

    grown: set      # grow-diag: what every rendering is read from
    final_and: set  # what final-and adds to them: a phrase's rendering reads these too


def align(source: list[list[str]], target: list[list[str]]) -> list[Links]:
    """Word links of each sentence pair, by eflomal.

    A phrase gets the final-and links as well: where the two directions disagree, grow-diag
    often leaves every word of a phrase unaligned (time step, 타임 스텝), while final-and
    on single words adds more wrong links than right ones (basis -> 합의)."""
    from eflomal import Aligner  # imported here: only this command needs the aligner

    with tempfile.TemporaryDirectory(prefix="jaxko-terms-") as folder:
        forward, backward = os.path.join(folder, "fwd"), os.path.join(folder, "rev")
        # Four samplers; a small tree (a test's, one page's) gets sixteen: on a planted tree
        # of a few dozen messages four still left the drift unaligned in about 1 run of 12.
        Aligner(n_samplers=16 if len(source) < SMALL else 4).align(
            [" ".join(words) for words in source], [" ".join(words) for words in target],
            links_filename_fwd=forward, links_filename_rev=backward, quiet=True)
        found = []
        for f, b in zip(_read_links(forward), _read_links(backward)):
            grown = _grow_diag(f, b)
            found.append(Links(grown, _final_and(grown, f, b)))
        return found


# ------------------------------------------------------------------------- analysis


@dataclass
class Analysed:
    """A pair with its English words, Korean morphemes and word links."""

    pair: Pair
    words: list[str]
    clauses: list[int]
    morphs: list[Morph]
    links: set          # grow-diag links (source index, target index)
    text: str           # the msgstr as analysed (markup blanked out)
    final_and: set = field(default_factory=set)  # links final-and adds, for phrases

    def links_of(self, positions: range) -> set:
        """The links a rendering of the English words at ``positions`` is read from."""
        return self.links | self.final_and if len(positions) > 1 else self.links


def _cache_key(pairs: list[Pair], glossary_words: list[str]) -> str:
    """SHA-256 of everything the analysis depends on: the jaxko code, the aligner's
    version, the words taught to Kiwi and the text of every message."""
    from importlib.metadata import version

    digest = hashlib.sha256(f"terms {memo.code_digest()} eflomal {version('eflomal')}\0".encode())
    for word in glossary_words:
        digest.update(word.encode() + b"\0")
    for pair in pairs:
        digest.update("\0".join((pair.msgid, pair.msgstr, pair.syntax)).encode() + b"\1")
    return digest.hexdigest()


def analyse(pairs: list[Pair], glossary: Glossary | None, cache_dir: Path | None,
            progress: Callable[[str], None]) -> list[Analysed]:
    """Tokens and links of every pair, from the cache when the same inputs were
    analysed before (keyed by content; the catalog paths and lines are not part of
    it, so they are taken from ``pairs``). The cache is JSON, read with a check of its
    shape: a damaged or foreign file is a cold start, never trusted code."""
    # Every word of every rendering, so 순방향 of 순방향 모드 and 고차 of 고차 프리미티브
    # stay one noun (Kiwi alone reads 순/MAG 방향 and 고/EC 차/VA); modifiers (구체적인 of
    # 구체적인 값) stay inflected words.
    words_known = sorted({word for t in (glossary.terms if glossary else ())
                          for r in t.renderings for word in r.split()
                          if " " not in r or not korean.is_modifier(word)})
    key = _cache_key(pairs, words_known)
    cached = cache_dir / f"{key}.json" if cache_dir is not None else None
    if cached is not None and cached.is_file():
        try:
            return _from_json(pairs, json.loads(cached.read_text(encoding="utf-8")))
        except (ValueError, TypeError, KeyError, OSError):
            pass
    english = []
    for pair in pairs:
        english.append(english_words(pair.msgid, pair.syntax))
    progress(f"analysing {len(pairs)} messages with Kiwi")
    analyser = korean.kiwi_with_words(words_known)
    masked = [inline.mask(p.msgstr, inline.parse(p.msgstr, p.syntax), keep_titles=True,
                          syntax=p.syntax) for p in pairs]
    morphs = [korean_morphs(tokens, text)
              for tokens, text in zip(analyser.tokenize(masked), masked)]
    usable = [i for i in range(len(pairs)) if english[i][0] and morphs[i]]
    progress(f"aligning {len(usable)} messages with eflomal")
    links: list[Links] = [Links(set(), set()) for _ in pairs]
    if usable:
        found = align([english[i][0] for i in usable], [[m.token for m in morphs[i]]
                                                        for i in usable])
        for i, item in zip(usable, found):
            links[i] = item
    result = [Analysed(pair, english[i][0], english[i][1], morphs[i], links[i].grown,
                       masked[i], links[i].final_and)
              for i, pair in enumerate(pairs)]
    if cached is not None:
        if cache_dir.parent.is_dir():
            memo.refuse_tracked([cache_dir])
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            write_text_atomic(cached, json.dumps(
                [[a.words, a.clauses, [list(m) for m in a.morphs], sorted(a.links), a.text,
                  sorted(a.final_and)] for a in result], ensure_ascii=False))
        except OSError:
            pass  # a cache that cannot be written costs speed, never the report
    return result


def _from_json(pairs: list[Pair], stored: list) -> list[Analysed]:
    if len(stored) != len(pairs):
        raise ValueError("cache of another tree")
    out = []
    for pair, (words, clauses, morphs, links, text, final) in zip(pairs, stored):
        out.append(Analysed(pair, [str(w) for w in words], [int(c) for c in clauses],
                            [Morph(str(a), str(b), bool(c), int(d), int(e), bool(f))
                             for a, b, c, d, e, f in morphs],
                            {(int(s), int(t)) for s, t in links}, str(text),
                            {(int(s), int(t)) for s, t in final}))
    return out


# ------------------------------------------------------------------------ renderings


class Rendering(NamedTuple):
    key: str        # without spaces: how renderings are compared
    shown: str      # as written (spaces kept, verbs as their stem)


def rendering_of(item: Analysed, positions: range) -> Rendering | None:
    """The Korean rendering of the English words at ``positions``: the contiguous run
    of content morphemes aligned to them (a gap of a particle, ending or unaligned
    word means no rendering), or None."""
    links = item.links_of(positions)
    targets = sorted({t for s, t in links if s in positions and t < len(item.morphs)
                      and item.morphs[t].content})
    if not targets:
        return None
    first, last = targets[0], targets[-1]
    if last - first + 1 != len(targets):
        return None
    if len(positions) > 1 and any(not any(s == p and t in targets for s, t in links)
                                  for p in positions):
        return None  # every word of a phrase has its part in the rendering
    for s, t in links:
        if t in targets and s not in positions and s < len(item.words) \
                and item.words[s] not in STOPWORDS:
            return None  # the same Korean word renders another English word too
    # A noun in the same written word as the run, or one a space away that the aligner
    # linked to nothing, belongs to it (체크 of 체크포인트, which Kiwi reads as two nouns;
    # 부분 of 부분 집합).
    aligned = {t for _, t in links}
    morphs = item.morphs
    while first > 0 and _joins(morphs[first - 1], morphs[first], aligned, first - 1, item.text):
        first -= 1
    while last + 1 < len(morphs) and _joins(morphs[last + 1], morphs[last], aligned, last + 1,
                                            item.text):
        last += 1
    morphs = item.morphs[first:last + 1]
    if any(m.verbal for m in morphs):
        return None  # verbs and adjectives vary with the sentence (쓰다/작성하다,
        # 간단하다/단순하다): terms are nouns
    text = item.text
    shown = morphs[0].form
    for previous, morph in zip(morphs, morphs[1:]):
        gap = text[previous.end:morph.start]
        if gap.strip():
            return None  # punctuation between them: 관리자(manager) is two things
        shown += (" " if gap else "") + morph.form
    if any("0" <= ch <= "9" for ch in shown):
        return None  # a version, a date or a count (0.4.0, 12월): never a rendering
    return Rendering(shown.replace(" ", "").lower(), shown)


def _joins(morph: Morph, neighbour: Morph, aligned: set, index: int, text: str) -> bool:
    """Whether a content morpheme next to a rendering is part of it: one written in the
    same word (no space between: 체크 of 체크포인트, 순 of 순방향, whatever the aligner
    linked it to; a Korean word is not split into two renderings), or an unaligned one
    a single space away (부분 of 부분 집합)."""
    if not morph.content or morph.verbal:
        return False
    gap = text[min(morph.end, neighbour.end):max(morph.start, neighbour.start)]
    if not gap:
        return True
    return index not in aligned and not gap.strip() and len(gap) <= 1


_IDIOMS = tuple(tuple(lemma(w) for w in idiom.split()) for idiom in IDIOMS)
_IDIOM_WORDS = frozenset(idiom[0] for idiom in _IDIOMS)


def _idiom_positions(words: list[str]) -> set[int]:
    """Positions of words inside an idiom the glossary rules ignore too ("key idea",
    "for instance"): there the word is not the term."""
    covered: set[int] = set()
    for idiom in _IDIOMS:
        size = len(idiom)
        for start in range(len(words) - size + 1):
            if tuple(words[start:start + size]) == idiom:
                covered.update(range(start, start + size))
    return covered


def term_occurrences(item: Analysed):
    """(term key, word positions) of every 1-3 content-word run of the msgid, none
    inside an idiom."""
    words, clauses = item.words, item.clauses
    idioms = _idiom_positions(words) if any(w in _IDIOM_WORDS for w in words) else set()
    for start in range(len(words)):
        if start in idioms:
            continue
        for size in range(1, MAX_WORDS + 1):
            end = start + size
            if end > len(words) or clauses[end - 1] != clauses[start]:
                break
            chunk = words[start:end]
            if end - 1 in idioms:
                break
            if chunk[-1] in STOPWORDS or any(w in STOPWORDS for w in chunk):
                break
            if any(len(w) < 2 for w in chunk) or (size == 1 and chunk[0].endswith("ly")):
                break  # a letter; an adverb (similarly, currently) is no term
            yield " ".join(chunk), range(start, end)


# --------------------------------------------------------------------------- report


@dataclass
class Variant:
    """One rendering of a term: its spellings (spacing variants) and where it stands."""

    key: str
    spellings: Counter = field(default_factory=Counter)
    places: list = field(default_factory=list)     # "catalog:line", one per message
    accepted: bool = False                          # the glossary accepts it
    label: str | None = None                        # the name shown, when not the top spelling

    @property
    def shown(self) -> str:
        return self.label or self.spellings.most_common(1)[0][0]

    @property
    def count(self) -> int:
        return len(self.places)


@dataclass
class TermReport:
    term: str
    messages: int                    # messages with an aligned rendering
    variants: list[Variant]
    glossary: str | None = None      # the glossary's rendering, when the term is in it
    general: bool = False            # a common English word the glossary lacks

    @property
    def kind(self) -> str:
        """glossary (a glossary term), phrase (two or three words) or word."""
        return "glossary" if self.glossary else "phrase" if " " in self.term else "word"


@dataclass
class Report:
    catalogs: int
    messages: int
    drift: list[TermReport]
    spacing: list[TermReport]
    violations: list[TermReport]
    candidates: list[TermReport]
    left_out: list[TermReport] = field(default_factory=list)  # general words not listed


# A single word at least this common in general English (Zipf scale of wordfreq: 5 is
# about once in 10,000 words) is general vocabulary; see is_general.
GENERAL_ZIPF = 4.5


@lru_cache(maxsize=None)
def zipf(word: str) -> float:
    """How common an English word is in general English (wordfreq's Zipf scale,
    log10 of occurrences per billion words; 0 for a word it does not know)."""
    from wordfreq import zipf_frequency  # imported here: its word list loads on first use

    return zipf_frequency(word, "en")


def is_general(term: str) -> bool:
    """Whether a one-word term is general English vocabulary (set, work, number, time:
    often two senses, each with its right rendering) rather than a technical word
    (checkpoint, tracer, sharding), which is rare in general English."""
    return " " not in term and zipf(term) >= GENERAL_ZIPF


def _is_copy(rendering: Rendering, term: str) -> bool:
    """The English kept as it is (JAX for jax), alone or with a word next to it
    (TPU용, 이후 JAX for tpu, jax), or any rendering without a Korean letter (float for
    floating, a name such as MNIST the aligner linked): not a rendering."""
    if not any(korean.is_hangul_syllable(ch) for ch in rendering.key):
        return True
    if rendering.key.isascii() and rendering.key.lower().replace("-", "") == \
            term.replace(" ", "").replace("-", ""):
        return True
    return _holds_word(rendering.shown.lower(), term)


def _holds_word(text: str, term: str) -> bool:
    """Whether lower-case ``text`` holds the English ``term`` as a word of its own."""
    return re.search(r"(?<![a-z])" + re.escape(term) + r"(?![a-z])", text) is not None


class Entries(NamedTuple):
    """The glossary's entries for one English key (register: 등록, the verb, and
    레지스터, the noun): a rendering any of them accepts is accepted."""

    terms: tuple[Term, ...]

    @property
    def accepted(self) -> frozenset[str]:
        """Every accepted rendering of every entry, without spaces."""
        return frozenset(r.replace(" ", "").lower() for t in self.terms
                         if t.ko and not t.keep for r in t.renderings)

    @property
    def shown(self) -> str | None:
        """The glossary's renderings as shown (등록 / 레지스터); None when every entry
        keeps the English."""
        kos = list(dict.fromkeys(t.ko for t in self.terms if t.ko and not t.keep))
        return " / ".join(kos) or None

    @property
    def checked(self) -> bool:
        """Whether one entry is enforced; entries all ``check: false`` only record which
        renderings are right, so a message rendering the word another way is no violation."""
        return any(t.check for t in self.terms)

    def meant(self, msgid_words: set[str]) -> bool:
        """Whether the msgid means one of the entries: an entry without ``senses`` always
        does; one with them only where one of its cue words occurs."""
        return any(not t.senses or any(cue.lower() in msgid_words for cue in t.senses)
                   for t in self.terms)


def _glossary_index(glossary: Glossary | None) -> dict[str, Entries]:
    """Every entry under the key of its ``en`` and of each of its ``forms``; entries
    with the same key are merged, in the glossary's order."""
    index: dict[str, list[Term]] = {}
    for term in (glossary.terms if glossary else ()):
        for key in dict.fromkeys(term_key(text) for text in (term.en, *term.forms)):
            index.setdefault(key, []).append(term)
    return {key: Entries(tuple(terms)) for key, terms in index.items()}


def _nested(a: str, b: str) -> bool:
    return a in b or b in a


def build_report(analysed: list[Analysed], glossary: Glossary | None, *, catalogs: int,
                 min_messages: int = 2, min_candidate: int = 5,
                 dominance: float = 0.8, all_words: bool = False) -> Report:
    """Drift, spacing, violations and candidates from the aligned messages.

    A drifting single word the glossary lacks that is general English (:func:`is_general`)
    and is no word of a drifting phrase is left out of ``drift`` (into ``left_out``)
    unless ``all_words``: such a line is mostly one word with two senses."""
    index = _glossary_index(glossary)
    per_term: dict[str, dict[str, Variant]] = defaultdict(dict)
    wrong: dict[str, dict[str, Variant]] = defaultdict(dict)
    term_messages: Counter = Counter()
    term_occurs: Counter = Counter()  # messages whose English holds the term
    korean_at: dict[str, str] = {}  # place -> its Korean, spaces removed, lowercase
    accepted_keys = {key: entries.accepted for key, entries in index.items()
                     if entries.accepted}
    for item in analysed:
        seen: set = set()
        place = f"{_shown_path(item.pair.catalog)}:{item.pair.line}"
        compact = korean_at[place] = item.pair.msgstr.replace(" ", "").lower()
        kept = None
        msgid_words = None
        occurrences = list(term_occurrences(item))
        # Words of a longer glossary term are that term here (condition in race
        # condition, implicit in implicit function), not a term of their own.
        longer = [positions for term, positions in occurrences
                  if len(positions) > 1 and term in index]
        occurring: set = set()
        for term, positions in occurrences:
            if any(len(span) > len(positions) and positions[0] in span
                   and positions[-1] in span for span in longer):
                continue
            entries = index.get(term)
            if entries is not None and all(t.senses for t in entries.terms):
                # The glossary's senses only.
                if msgid_words is None:
                    msgid_words = set(re.findall(r"[a-z0-9]+", item.pair.msgid.lower()))
                if not entries.meant(msgid_words):
                    continue
            if kept is None:
                kept = item.text.lower()  # code and markup blanked out
            if _holds_word(kept, term):
                continue  # the English kept in the Korean prose (a title, a name)
            occurring.add(term)
            rendering = rendering_of(item, positions)
            if rendering is None or _is_copy(rendering, term):
                continue
            accepted = accepted_keys.get(term)
            if len(rendering.key) < 2 and not (accepted and rendering.key in accepted):
                continue  # one syllable (때, 수, 앞): mostly a word of the sentence around
            if (term, rendering.key) in seen:
                continue
            seen.add((term, rendering.key))
            if accepted and entries.checked and rendering.key not in accepted:
                if not any(a in compact for a in accepted):
                    _add(wrong[term], rendering, place)
            _add(per_term[term], rendering, place)
        for term in {t for t, _ in seen}:
            term_messages[term] += 1
        term_occurs.update(occurring)

    drift, spacing, violations, candidates = [], [], [], []
    for term, variants in per_term.items():
        entry = index.get(term)
        accepted = accepted_keys.get(term, frozenset())
        ordered = sorted(variants.values(), key=lambda v: (-v.count, v.key))
        for variant in ordered:
            # One that holds an accepted rendering is it with a word beside it (그때그때
            # 재계산 for recompute, glossary 재계산).
            variant.accepted = any(key in variant.key for key in accepted)
        glossary_rendering = entry.shown if entry is not None else None
        # Spacing: one key written two ways, each on min_messages messages.
        for variant in ordered:
            spelled = [s for s, n in variant.spellings.items() if n >= min_messages]
            if len(spelled) >= 2:
                spacing.append(TermReport(term, term_messages[term], [variant],
                                          glossary_rendering))
        # Drift: renderings (the accepted ones as one) that do not nest in each other.
        clusters: list[list[Variant]] = []
        accepted_cluster: list[Variant] | None = None
        # The accepted renderings first, so one nested in them (상태 in 상태 비저장)
        # joins them whichever is used more.
        for variant in sorted(ordered, key=lambda v: not v.accepted):
            if variant.count < min_messages:
                continue
            if variant.accepted:
                if accepted_cluster is None:
                    accepted_cluster = [variant]
                    clusters.append(accepted_cluster)
                else:
                    accepted_cluster.append(variant)
                continue
            for cluster in clusters:
                if any(_nested(variant.key, other.key) for other in cluster):
                    cluster.append(variant)
                    break
            else:
                clusters.append([variant])
        # A word rendered by a noun in under half of its messages is mostly rendered by
        # a verb or by nothing (keep -> 가집니다): its noun links are the aligner's slips.
        # A phrase is a noun phrase (time step): a rendering is found only where the
        # aligner linked each of its words, so its coverage says nothing of verbs.
        if len(clusters) >= 2 and (" " in term or 2 * term_messages[term] >= term_occurs[term]):
            heads = _evidence(clusters, korean_at, min_messages, accepted)
            if len(heads) >= 2:
                drift.append(TermReport(term, term_messages[term], heads, glossary_rendering))
        # Violations: the glossary's rendering absent, another word aligned.
        if term in wrong:
            others = sorted(wrong[term].values(), key=lambda v: (-v.count, v.key))
            violations.append(TermReport(term, term_messages[term], others, glossary_rendering))
        # Candidates: not in the glossary, frequent, one dominant rendering.
        if entry is None and term_messages[term] >= min_candidate and ordered:
            top = ordered[0]
            if top.count >= dominance * term_messages[term] and \
                    korean.term_shape_problem(top.shown) is None:
                candidates.append(TermReport(term, term_messages[term], ordered))
    # A phrase whose renderings are all those of one of its words (checkpoint read:
    # 체크포인트 and 검사점, read being a verb) is that word's drift, listed once.
    word_keys = {r.term: {v.key for v in r.variants} for r in drift if " " not in r.term}
    drift = [r for r in drift if " " not in r.term or not any(
        {v.key for v in r.variants} <= word_keys.get(word, set()) for word in r.term.split())]
    # General words: listed only when the glossary has them or a drifting phrase holds them.
    in_phrases = {word for r in drift if " " in r.term for word in r.term.split()}
    left_out = []
    for r in drift:
        r.general = r.kind == "word" and r.term not in in_phrases and is_general(r.term)
    if not all_words:
        left_out = [r for r in drift if r.general]
        drift = [r for r in drift if not r.general]
    left_out.sort(key=lambda r: r.term)
    # Phrases and glossary terms first: one word (set, work) is often two senses.
    drift.sort(key=lambda r: (r.kind == "word", -sum(v.count for v in r.variants[1:]), r.term))
    spacing.sort(key=lambda r: (-r.variants[0].count, r.term))
    violations.sort(key=lambda r: (-sum(v.count for v in r.variants), r.term))
    candidates.sort(key=lambda r: (-r.messages, r.term))
    return Report(catalogs, len(analysed), drift, spacing, violations, candidates, left_out)


def _evidence(clusters: list[list[Variant]], korean_at: dict[str, str],
              min_messages: int, accepted: frozenset[str] = frozenset()) -> list[Variant]:
    """The renderings of one term that drift, most used first, each with the messages
    that show it as another rendering.

    The main rendering is the glossary's (every rendering it accepts, ``accepted``),
    else the most used one. A message whose Korean holds a main rendering does not show
    another: the aligner linked a neighbour of the term there (데코레이터를 정의:
    *define* linked to 데코레이터 while 정의 is in the sentence). The others are taken
    most used first, and one kept is held the same way: a message holding it shows no
    less used one (필요 of 체크포인트가 필요합니다, where the main is 검사점). Another
    rendering left with fewer than ``min_messages`` messages is no drift."""
    heads = [(cluster, _merge(cluster)) for cluster in clusters]
    main_cluster, main = next(((c, h) for c, h in heads if h.accepted),
                              min(heads, key=lambda pair: (-pair[1].count, pair[1].key)))
    main_keys = set(accepted) | ({v.key for v in main_cluster if v.accepted} or {main.key})
    kept = [main]
    held = set(main_keys)
    others = sorted((head for cluster, head in heads if cluster is not main_cluster),
                    key=lambda head: (-head.count, head.key))
    for head in others:
        head.places = [place for place in head.places
                       if not any(key in korean_at[place] for key in held)]
        if head.count >= min_messages:
            kept.append(head)
            held.add(head.key)
    kept.sort(key=lambda v: (-v.count, v.key))
    return kept


def _add(variants: dict[str, Variant], rendering: Rendering, place: str) -> None:
    variant = variants.get(rendering.key)
    if variant is None:
        variant = variants[rendering.key] = Variant(rendering.key)
    variant.spellings[rendering.shown] += 1
    variant.places.append(place)


@lru_cache(maxsize=None)
def _shown_path(path: str) -> str:
    """A catalog's path as shown: relative to the current folder when under it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return path


def _merge(cluster: list[Variant]) -> Variant:
    """Nested renderings as one: the most used one's key, every spelling and place."""
    head = Variant(cluster[0].key, accepted=cluster[0].accepted, label=cluster[0].shown)
    places = set()
    for variant in cluster:
        head.spellings.update(variant.spellings)
        places.update(variant.places)
    head.places = sorted(places, key=_place_order)
    return head


def _place_order(place: str):
    path, _, line = place.rpartition(":")
    return path, int(line)


def run(paths: list[Path], glossary: Glossary | None, *, cache_dir: Path | None,
        progress: Callable[[str], None] = lambda _: None, **options) -> Report:
    """The report over the catalogs under ``paths``."""
    catalogs = catalogs_under(paths)
    progress(f"reading {len(catalogs)} catalogs")
    pairs = read_pairs(catalogs)
    analysed = analyse(pairs, glossary, cache_dir, progress)
    return build_report(analysed, glossary, catalogs=len(catalogs), **options)


# --------------------------------------------------------------------------- output


def candidates_yaml(report: Report, limit: int | None = None) -> str:
    """The candidates as a ``glossary/ko.yaml`` document (``terms:`` and one entry
    each, the counts in the note), ready to paste."""
    lines = ["# jaxko terms --suggest: frequent terms not in the glossary, each with one",
             "# dominant rendering in the translated catalogs. Review before pasting.",
             "terms:"]
    for report in report.candidates[:limit]:
        top = report.variants[0]
        others = ", ".join(f"{v.shown} {v.count}" for v in report.variants[1:4])
        note = f"jaxko terms: {top.shown} in {top.count} of {report.messages} messages" + (
            f" (also {others})" if others else "")
        lines += [f"  - en: {json.dumps(report.term, ensure_ascii=False)}",
                  f"    ko: {json.dumps(top.shown, ensure_ascii=False)}",
                  f"    note: {json.dumps(note, ensure_ascii=False)}", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def as_json(report: Report, places: int | None = None) -> dict:
    def term(r: TermReport) -> dict:
        return {"term": r.term, "kind": r.kind, "messages": r.messages, "glossary": r.glossary,
                "general": r.general,
                "renderings": [{"rendering": v.shown, "key": v.key, "count": v.count,
                                "spellings": dict(v.spellings.most_common()),
                                "accepted": v.accepted,
                                "locations": v.places[:places]} for v in r.variants]}
    return {"catalogs": report.catalogs, "messages": report.messages,
            "drift": [term(r) for r in report.drift],
            "spacing": [term(r) for r in report.spacing],
            "violations": [term(r) for r in report.violations],
            "candidates": [term(r) for r in report.candidates],
            "left_out": [r.term for r in report.left_out]}


def as_text(report: Report, places: int = 3, suggest: bool = False) -> str:
    def where(variant: Variant) -> str:
        shown = ", ".join(variant.places[:places])
        more = len(variant.places) - places
        return shown + (f", +{more} more" if more > 0 else "")

    out = []
    for r in report.drift:
        mark = f" (glossary: {r.glossary})" if r.glossary else \
            " (general English word)" if r.general else ""
        parts = "; ".join(f"{v.shown} {v.count}×" for v in r.variants)
        out.append(f"drift: {r.term}{mark}: {parts}")
        for v in r.variants:
            out.append(f"    {v.shown} ({v.count}×): {where(v)}")
    for r in report.spacing:
        v = r.variants[0]
        parts = "; ".join(f"{s} {n}×" for s, n in v.spellings.most_common())
        out.append(f"spacing: {r.term}: {parts}")
        out.append(f"    {where(v)}")
    for r in report.violations:
        parts = "; ".join(f"{v.shown} {v.count}×" for v in r.variants)
        out.append(f"glossary: {r.term}: glossary says {r.glossary}, rendered as {parts}")
        for v in r.variants:
            out.append(f"    {v.shown} ({v.count}×): {where(v)}")
    if suggest:
        out.append(candidates_yaml(report).rstrip("\n"))
    out.append(f"{len(report.drift)} drifting terms, {len(report.spacing)} spacing variants, "
               f"{len(report.violations)} glossary terms rendered otherwise"
               + (f", {len(report.candidates)} candidates" if suggest else "")
               + f" ({report.messages} messages in {report.catalogs} catalogs)"
               + (f"; {len(report.left_out)} drifting general English words not listed "
                  f"(--all-words lists them)" if report.left_out else ""))
    return "\n".join(out) + "\n"
