"""Translation progress per document and per section, with who is assigned.

The site uses :func:`document_stats` for its progress page and per-page banners; the
``jaxko stats`` command prints a :class:`Report` as text, JSON or Markdown.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple

from jaxko import paths
from jaxko.forked import fork_map
from jaxko.catalogs import write_text_atomic
from jaxko.memo import Memo, file_digest
from jaxko.workflow import assignments as assignments_mod
from jaxko.workflow import review as review_mod
from jaxko.workflow import sections
from jaxko.workflow.documents import (Counts, Document, catalog_files, catalogs_dir_for,
                                      docname_of, scan, source_of, staged_or_none)


@dataclass(frozen=True)
class DocumentStats:
    """One document's progress and credits."""

    document: Document
    section: sections.Section
    counts: Counts
    assignment: assignments_mod.Assignment | None
    # translated messages by review level (jaxko review), with who reviewed them
    review: review_mod.ReviewCounts = review_mod.ReviewCounts(0)

    @property
    def docname(self) -> str:
        return self.document.docname

    @property
    def percent(self) -> float:
        return self.counts.percent

    @property
    def translators(self) -> tuple[str, ...]:
        return self.assignment.translators if self.assignment else ()

    @property
    def reviewers(self) -> tuple[str, ...]:
        return self.assignment.reviewers if self.assignment else ()

    @property
    def status(self) -> str | None:
        return self.assignment.status if self.assignment else None

    def as_dict(self, root: Path | None = None) -> dict:
        catalog = self.document.catalog
        if root is not None:
            try:
                catalog = catalog.resolve().relative_to(root.resolve())
            except ValueError:
                pass
        return {
            "document": self.docname,
            "source": self.document.source,
            "catalog": catalog.as_posix(),
            "section": self.section.key,
            **_counts_dict(self.counts),
            "translators": list(self.translators),
            "reviewers": list(self.reviewers),
            "status": self.status,
            "since": self.assignment.since.isoformat() if self.assignment and self.assignment.since else None,
            "review": {**self.review.as_dict(),
                       "state": self.review.state,
                       "reviewed_by": [{"name": c.name, "kind": c.kind.value,
                                        "kind_label": c.kind.label, "messages": c.messages,
                                        "last_date": c.last_date}
                                       for c in self.review.credits]},
        }


def _counts_dict(counts: Counts) -> dict:
    return {
        "messages": {"total": counts.messages, "translated": counts.translated,
                     "fuzzy": counts.fuzzy, "untranslated": counts.untranslated},
        # translated = prose (Korean differs from the English) + copied (code, names)
        "translated_prose": counts.translated_prose,
        "translated_copied": counts.translated_copied,
        "percent_prose": round(counts.percent_prose, 1),
        "words": {"total": counts.words, "translated": counts.words_translated,
                  "fuzzy": counts.words_fuzzy, "untranslated": counts.words_untranslated},
        "obsolete": counts.obsolete,
        "percent": round(counts.percent, 1),
        "percent_words": round(counts.percent_words, 1),
    }


@dataclass
class Report:
    """Documents (already filtered and sorted) with totals per section and overall."""

    documents: list[DocumentStats]
    root: Path | None = None
    # what options chose these documents by (--todo: "not fully translated"; "" for every
    # document): the totals are then those of the list, and say so
    filtered: str = ""
    sections: list[tuple[sections.Section, Counts]] = field(default_factory=list)
    total: Counts = field(default_factory=Counts)
    review: dict[str, review_mod.ReviewCounts] = field(default_factory=dict)  # per section key
    total_review: review_mod.ReviewCounts = review_mod.ReviewCounts(0)

    def __post_init__(self) -> None:
        by_key: dict[str, Counts] = {}
        for item in self.documents:
            by_key.setdefault(item.section.key, Counts()).add(item.counts)
            self.total.add(item.counts)
            key = item.section.key
            self.review[key] = self.review.get(key, review_mod.ReviewCounts(0)).add(item.review)
            self.total_review = self.total_review.add(item.review)
        self.sections = [(s, by_key[s.key]) for s in sections.all_sections() if s.key in by_key]

    def as_dict(self) -> dict:
        return {
            "documents": [item.as_dict(self.root) for item in self.documents],
            "sections": [{"section": s.key, "title": s.title, "title_ko": s.title_ko,
                          "documents": sum(1 for d in self.documents if d.section.key == s.key),
                          **_counts_dict(c), "review": self.review[s.key].as_dict()}
                         for s, c in self.sections],
            "total": {"documents": len(self.documents), "listed": self.filtered or None,
                      **_counts_dict(self.total), "review": self.total_review.as_dict()},
            "review_levels": {level.key: {"label": level.label, "label_en": level.label_en}
                              for level in reversed(review_mod.Level)},
        }


def _pct(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


def collect(locale_dir: Path | None = None, language: str = "ko", *,
            assignments_path: Path | None = None,
            cache: Path | None = None) -> list[DocumentStats]:
    """Every document's stats, in section order then docname.

    ``cache``: a file of earlier results per document (:class:`jaxko.memo.Memo`), keyed
    by the bytes of its catalog and its review records; only documents whose files
    changed are read again. The site build keeps one in its state."""
    catalogs_dir = catalogs_dir_for(locale_dir, language)
    found = catalog_files(catalogs_dir)
    staged = staged_or_none()
    reviews = review_mod.reviews_dir(locale_dir, language)
    memo = Memo(cache, "stats")
    documents: list[_Files] = []
    for catalog in found:
        docname = docname_of(catalog, catalogs_dir)
        records = review_mod.records_path(reviews, docname)
        # Keyed by the bytes of the document's files; a file that does not read is
        # never kept, so its error comes again on every run.
        key = f"{file_digest(catalog)} {file_digest(records)}" if memo.enabled else ""
        documents.append(_Files(docname, catalog, records, key))
    kept = [_Known.from_json(memo.get(files.key)) for files in documents]
    # Documents not kept are read in forked workers where that is safe (jaxko.forked).
    fresh = iter(fork_map(_read_document, [(files.catalog, files.records)
                                           for files, known in zip(documents, kept)
                                           if known is None]))
    read: list[tuple[Document, _Known]] = []
    for files, known in zip(documents, kept):
        if known is None:
            known = next(fresh)
            memo.put(files.key, known.as_json())
        read.append((Document(files.docname, source_of(files.docname, known.sources, staged),
                              files.catalog), known))
    memo.save()
    table = assignments_mod.load(
        assignments_path or assignments_mod.default_path(locale_dir, language),
        {doc.docname: doc for doc, _ in read})
    result = [DocumentStats(doc, sections.section_of(doc.docname), known.counts,
                            table.for_docname(doc.docname), known.review)
              for doc, known in read]
    result.sort(key=lambda d: (sections.order_of(d.section), d.docname))
    return result


class _Files(NamedTuple):
    """One document's files, and the memo key of their bytes."""

    docname: str
    catalog: Path
    records: Path
    key: str


def _read_document(task: tuple[Path, Path]) -> "_Known":
    """One document's catalog counts and review, read from its files."""
    catalog, records = task
    scanned = scan(catalog)
    return _Known(scanned.sources, scanned.counts, _review_of(catalog, scanned.counts, records))


def _review_of(catalog: Path, counts: Counts, records_path: Path) -> review_mod.ReviewCounts:
    """Review counts of a document; only catalogs with a records file are parsed."""
    if not records_path.is_file():
        return review_mod.ReviewCounts(counts.translated)   # every translated one not reviewed
    records = review_mod.load_records(records_path)
    return review_mod.summarise(review_mod.read_items(catalog, records))


@dataclass
class _Known:
    """What one document's files gave: its catalog's locations and counts, its review."""

    sources: dict[str, int]
    counts: Counts
    review: review_mod.ReviewCounts

    def as_json(self) -> list:
        review = self.review
        return [self.sources, asdict(self.counts),
                [review.translated, review.person, review.ai_pass_only,
                 [[c.name, c.kind.value, c.messages, c.last_date] for c in review.credits]]]

    @classmethod
    def from_json(cls, raw) -> "_Known | None":
        """None for anything of the wrong shape (a damaged cache costs a re-read)."""
        try:
            sources, counts, (translated, person, ai_pass, credits) = raw
            known = cls({str(k): int(v) for k, v in sources.items()}, Counts(**counts),
                        review_mod.ReviewCounts(
                            int(translated), int(person), int(ai_pass),
                            tuple(review_mod.Credit(str(name), review_mod.Kind(kind), int(n), str(date))
                                  for name, kind, n, date in credits)))
        except (TypeError, ValueError, AttributeError):
            return None
        if not all(isinstance(v, int) for v in asdict(known.counts).values()):
            return None
        return known


def document_stats(locale_dir: Path | None = None, language: str = "ko", *,
                   assignments_path: Path | None = None,
                   cache: Path | None = None) -> dict[str, DocumentStats]:
    """Per-document progress and credits for the site, keyed by docname.

    ``result["notebooks/thinking_in_jax"]`` has ``.counts`` (messages and words:
    ``translated``, ``fuzzy``, ``untranslated``, ``messages``, ``percent``), ``.section``
    (``key``, ``title``, ``title_ko``), ``.translators``, ``.reviewers`` and ``.status``
    (``None`` when unassigned). Fuzzy messages are not counted as translated: the site
    shows the English for them. Reads only the catalogs and ``assignments.yaml``
    (a fraction of a second for all narrative catalogs), so it is cheap enough to call
    once per Sphinx build; obsolete entries are ignored. ``cache``: as :func:`collect`'s.
    """
    return {item.docname: item for item in
            collect(locale_dir, language, assignments_path=assignments_path, cache=cache)}


SORT_KEYS = {
    "section": lambda d: (sections.order_of(d.section), d.docname),
    "name": lambda d: d.docname,
    "percent": lambda d: (-d.percent, d.docname),
    "remaining": lambda d: (-(d.counts.words - d.counts.words_translated), d.docname),
}


def select(items: list[DocumentStats], *, todo: bool = False, available: bool = False,
           section: sections.Section | None = None, assignee: str | None = None,
           sort: str = "section", docnames: set[str] | None = None) -> list[DocumentStats]:
    """Filter and sort documents as ``jaxko stats`` options ask."""
    chosen = []
    wanted = assignee.casefold() if assignee else None
    for item in items:
        if docnames is not None and item.docname not in docnames:
            continue
        if (todo or available) and item.counts.complete:
            continue
        if available and item.assignment is not None:
            continue
        if section is not None and item.section.key != section.key:
            continue
        if wanted is not None and wanted not in (name.casefold() for name in
                                                 (*item.translators, *item.reviewers)):
            continue
        chosen.append(item)
    return sorted(chosen, key=SORT_KEYS[sort])


def report(items: list[DocumentStats], filtered: str = "") -> Report:
    return Report(items, root=paths.repo_root(), filtered=filtered)


# --------------------------------------------------------------------------- output


def review_names(item: DocumentStats) -> tuple[list[str], list[str], list[str]]:
    """(people, AI passes, assigned without records) of a document, from its records:
    the people with current approvals (a self-review marked ``(self)``), the AI passes
    with current approvals (never among the people), and the reviewers assignments.yaml
    names who have recorded nothing yet (none once a person reviewed every message)."""
    people = [c.name for c in item.review.credits_of(review_mod.Kind.PERSON)] + \
        [f"{c.name} (self)" for c in item.review.credits_of(review_mod.Kind.SELF)]
    ai = [c.name for c in item.review.credits_of(review_mod.Kind.AI_PASS)]
    recorded = {c.name for c in item.review.credits}
    planned = [] if item.review.complete else [n for n in item.reviewers if n not in recorded]
    return people, ai, planned


def _who(item: DocumentStats) -> str:
    """``kim reviewed by: lee; AI pass: Claude; reviewer assigned: park (in-review)``."""
    parts = []
    if item.translators:
        parts.append(", ".join(item.translators))
    people, ai, planned = review_names(item)
    named = []
    if people:
        named.append("reviewed by: " + ", ".join(people))
    if ai:
        named.append("AI pass: " + ", ".join(ai))
    if planned:
        named.append("reviewer assigned: " + ", ".join(planned))
    if named:
        parts.append("; ".join(named))
    if item.assignment is not None:
        if item.review.complete and item.status != "done":
            parts.append(f"({item.status}; every translated message reviewed by a person)")
        else:
            parts.append(f"({item.status})")
    return " ".join(parts)


def _bar(percent: float, width: int = 10) -> str:
    filled = int(percent / 100 * width + 1e-9)
    return "#" * filled + "." * (width - filled)


def format_text(rep: Report) -> str:
    """potodo-like text: a heading per section, a line per document."""
    if not rep.documents:
        return "no documents match"
    lines: list[str] = []
    width = max((len(d.document.source) for d in rep.documents), default=10)
    for section, counts in rep.sections:
        review = rep.review[section.key]
        lines.append(f"# {section.title} ({section.title_ko}): {counts.percent:.0f}% "
                     f"({counts.translated}/{counts.messages} messages, "
                     f"{counts.percent_words:.0f}% of {counts.words} words); of the translated, "
                     f"{_levels_text(review)}")
        for item in rep.documents:
            if item.section.key != section.key:
                continue
            c = item.counts
            fuzzy = f"{c.fuzzy} fuzzy" if c.fuzzy else ""
            lines.append(f"  {item.document.source:<{width}}  {_bar(c.percent)} "
                         f"{c.percent:5.1f}%  {c.translated:>4}/{c.messages:<4} {fuzzy:<9} "
                         f"{c.words - c.words_translated:>6} words left  "
                         f"person {item.review.percent(review_mod.Level.PERSON):5.1f}%  "
                         f"AI only {item.review.percent(review_mod.Level.AI_PASS):5.1f}%  "
                         f"{_who(item)}".rstrip())
        lines.append("")
    t = rep.total
    r = rep.total_review
    lines.append(f"{_total_label(rep)}: {t.translated}/{t.messages} messages "
                 f"translated ({t.percent:.1f}%), {t.fuzzy} fuzzy, {t.untranslated} untranslated; "
                 f"{t.words_translated}/{t.words} words ({t.percent_words:.1f}%)")
    lines.append(f"Review of the {r.translated} translated messages: "
                 + ", ".join(f"{r.count(level)} {level.label_en} ({r.percent(level):.1f}%)"
                             for level in reversed(review_mod.Level)))
    lines.append(f"Prose: {t.translated_prose}/{t.messages} translated messages whose Korean "
                 f"differs from the English ({t.percent_prose:.1f}%); {t.translated_copied} "
                 f"copied unchanged (code blocks, names)")
    return "\n".join(lines)


def _total_label(rep: Report) -> str:
    """Totals say what they total: every document, or the ones the options listed."""
    n = len(rep.documents)
    noun = "document" if n == 1 else "documents"
    if rep.filtered:
        return f"Total of the {n} {noun} listed ({rep.filtered})"
    return f"Total of all {n} {noun}"


def _levels_text(review: review_mod.ReviewCounts) -> str:
    """``person 0%, AI pass only 100%, not reviewed 0%`` (of the translated messages)."""
    return ", ".join(f"{level.label_en} {review.percent(level):.0f}%"
                     for level in reversed(review_mod.Level))


def format_markdown(rep: Report) -> str:
    """Markdown tables for a pull request or an issue comment."""
    person, ai = review_mod.Level.PERSON, review_mod.Level.AI_PASS
    lines = [f"| 섹션 | 문서 | 번역 | 퍼지 | 미번역 | 진행률 | {person.label} | {ai.label} | 역자 | "
             "검수 | 상태 |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---|---|"]
    for section, _counts in rep.sections:
        for item in rep.documents:
            if item.section.key != section.key:
                continue
            c = item.counts
            status = assignments_mod.STATUS_KO.get(item.status or "", "")
            lines.append(f"| {section.title_ko} | `{item.document.source}` | {c.translated} | "
                         f"{c.fuzzy} | {c.untranslated} | {c.percent:.1f}% | "
                         f"{item.review.percent(person):.1f}% | {item.review.percent(ai):.1f}% | "
                         f"{', '.join(item.translators)} | {_review_cell(item)} | {status} |")
    t = rep.total
    r = rep.total_review
    scope = (f"목록의 문서 {len(rep.documents)}개: {rep.filtered}" if rep.filtered
             else f"문서 {len(rep.documents)}개")
    lines.append("")
    lines.append(f"**합계**({scope}): 메시지 {t.translated}/{t.messages} "
                 f"번역 ({t.percent:.1f}%), 퍼지 {t.fuzzy}, 미번역 {t.untranslated}")
    lines.append(f"**검수**: 번역된 메시지 {r.translated}개 중 "
                 + ", ".join(f"{level.label} {r.count(level)}개 ({r.percent(level):.1f}%)"
                             for level in reversed(review_mod.Level)))
    lines.append(f"**한국어 문장**: 영어와 다른 번역 {t.translated_prose}개 "
                 f"({t.percent_prose:.1f}%), 그대로 옮긴 코드·이름 {t.translated_copied}개")
    return "\n".join(lines)


def _review_cell(item: DocumentStats) -> str:
    """The markdown 검수 cell: the people who reviewed, AI passes named as such, and the
    reviewers assigned who have recorded nothing (예정)."""
    people, ai, planned = review_names(item)
    cell = [", ".join(people)] if people else []
    if ai:
        cell.append("AI 검토: " + ", ".join(ai))
    if planned:
        cell.append(", ".join(planned) + " (예정)")
    return "; ".join(cell)


def format_json(rep: Report) -> str:
    return json.dumps(rep.as_dict(), ensure_ascii=False, indent=2)
