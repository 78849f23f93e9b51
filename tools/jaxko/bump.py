"""``jaxko upstream bump``: move to a new upstream release and say what it did.

One command for the four steps of a release bump (sync with repin, extract, update) and
a report a maintainer can read in a pull request: per page the new, changed (fuzzy)
and removed (obsolete) messages, translated % before and after, review approvals the
bump voided, notebooks whose code cells changed (to verify again), and the fuzzy
messages whose English changed only trivially (whitespace, punctuation, link targets).
``accept_trivial`` re-applies those translations without the fuzzy flag, and the report
lists each one. Nothing is lost: `jaxko update` keeps every translation; a second bump
to the same tree changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from jaxko import catalogs, paths

REPORT_NAME = "bump-report"


@dataclass
class PageSnapshot:
    messages: int = 0
    translated: int = 0
    fuzzy: int = 0
    obsolete: int = 0
    reviewed: int = 0
    keys: frozenset = frozenset()

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.messages if self.messages else 0.0


@dataclass
class PageChange:
    page: str
    new: int
    fuzzy: int
    obsolete: int
    percent_before: float
    percent_after: float
    approvals_voided: int


@dataclass
class BumpReport:
    source: str
    tag: str
    pages: list[PageChange] = field(default_factory=list)
    notebooks_changed: list[str] = field(default_factory=list)
    trivial: list[dict] = field(default_factory=list)     # {page, line, msgid, previous}
    accepted: bool = False

    def as_dict(self) -> dict:
        return {"source": self.source, "tag": self.tag, "accept_trivial": self.accepted,
                "pages": [asdict(p) for p in self.pages],
                "notebooks_changed": self.notebooks_changed, "trivial": self.trivial}

    def markdown(self) -> str:
        lines = [f"# Upstream bump to `{self.tag}`", "",
                 f"Source: `{self.source}`.", "",
                 "| page | new | changed (fuzzy) | removed (obsolete) | translated before → after "
                 "| approvals voided |", "|---|---:|---:|---:|---:|---:|"]
        for p in self.pages:
            lines.append(f"| {p.page} | {p.new} | {p.fuzzy} | {p.obsolete} | "
                         f"{p.percent_before:.1f} % → {p.percent_after:.1f} % | "
                         f"{p.approvals_voided} |")
        if not self.pages:
            lines.append("| (no page changed) | | | | | |")
        lines += ["", "## Notebooks whose code cells changed (verify again)", ""]
        lines += [f"- `{n}`" for n in self.notebooks_changed] or ["- none"]
        verb = "re-applied without fuzzy (--accept-trivial)" if self.accepted else \
            "trivial changes (whitespace, punctuation, link target); `--accept-trivial` re-applies"
        lines += ["", f"## Fuzzy messages: {verb}", ""]
        lines += [f"- {t['page']}:{t['line']}: {t['msgid'][:80]!r}" for t in self.trivial] or ["- none"]
        return "\n".join(lines) + "\n"


def snapshot(locale_dir: Path, language: str = "ko") -> dict[str, PageSnapshot]:
    """Counts per catalog, with the review state from locale/<lang>/reviews."""
    from jaxko.workflow import review

    base = locale_dir / language / "LC_MESSAGES"
    reviews = review.reviews_dir(locale_dir, language)
    pages = {}
    for path in sorted(p for p in base.rglob("*.po") if p.is_file()):
        page = path.relative_to(base).with_suffix("").as_posix()
        po = catalogs.load(path)
        records = review.load_records(review.records_path(reviews, page))
        items = review.items_of(po, records)
        active = [e for e in po if not e.obsolete and e.msgid]
        pages[page] = PageSnapshot(
            messages=len(active), translated=sum(catalogs.is_translated(e) for e in active),
            fuzzy=sum(e.fuzzy for e in active), obsolete=sum(e.obsolete for e in po),
            reviewed=sum(i.state == "reviewed" for i in items),
            keys=frozenset((e.msgctxt, e.msgid) for e in active))
    return pages


def notebook_code(srcdir: Path) -> dict[str, str]:
    """A hash of each upstream notebook's code cells."""
    from jaxko.notebooks import sources

    hashes = {}
    for source in sources.find_notebooks(srcdir):
        cells = sources.read(source).notebook.cells
        code = "\0".join(c.source for c in cells if c.cell_type == "code")
        hashes[source.rel] = hashlib.sha256(code.encode("utf-8")).hexdigest()
    return hashes


_LINK_TARGET = re.compile(r"(\]\()[^)]*(\))|(<)[^>]*(>`_)")
_PUNCTUATION = re.compile(r"[\s.,;:!?'\"`()\[\]{}\-–—]+")


def trivially_equal(old: str, new: str) -> bool:
    """Whether two msgids differ only in whitespace, punctuation or link targets."""
    def norm(text: str) -> str:
        return _PUNCTUATION.sub("", _LINK_TARGET.sub(r"\1\2\3\4", text))
    return old != new and norm(old) == norm(new)


def trivial_fuzzy(locale_dir: Path, language: str, accept: bool) -> list[dict]:
    """Fuzzy messages with a trivially changed msgid; with ``accept``, unfuzzied."""
    base = locale_dir / language / "LC_MESSAGES"
    found = []
    for path in sorted(p for p in base.rglob("*.po") if p.is_file()):
        po = catalogs.load(path)
        changed = False
        for entry in po:
            if (entry.obsolete or not entry.fuzzy or entry.previous_msgid is None
                    or not trivially_equal(entry.previous_msgid, entry.msgid)):
                continue
            found.append({"page": path.relative_to(base).with_suffix("").as_posix(),
                          "line": entry.linenum, "msgid": entry.msgid,
                          "previous": entry.previous_msgid})
            if accept:
                entry.flags.remove("fuzzy")
                entry.previous_msgid = entry.previous_msgctxt = None
                changed = True
        if changed:
            catalogs.save(po, path)
    return found


def compare(before: dict[str, PageSnapshot], after: dict[str, PageSnapshot]) -> list[PageChange]:
    changes = []
    for page in sorted(set(before) | set(after)):
        old, new = before.get(page, PageSnapshot()), after.get(page, PageSnapshot())
        change = PageChange(
            page, new=len(new.keys - old.keys) - max(0, new.fuzzy - old.fuzzy),
            fuzzy=max(0, new.fuzzy - old.fuzzy), obsolete=max(0, new.obsolete - old.obsolete),
            percent_before=round(old.percent, 1), percent_after=round(new.percent, 1),
            approvals_voided=max(0, old.reviewed - new.reviewed))
        change.new = max(0, change.new)
        if (change.new, change.fuzzy, change.obsolete, change.approvals_voided) != (0, 0, 0, 0) \
                or change.percent_before != change.percent_after:
            changes.append(change)
    return changes


def bump(source: str, *, tag: str | None = None, accept_trivial: bool = False,
         root: Path | None = None, log=None) -> BumpReport:
    """Sync (repin), extract, update, and report; writes _build/bump-report.{md,json}."""
    from jaxko import extract, update, upstream

    say = log or (lambda line: None)
    root = root or paths.repo_root()
    locale_dir = paths.locale_dir(root)
    srcdir = paths.staged_docs(root)
    before = snapshot(locale_dir)
    code_before = notebook_code(srcdir) if srcdir.is_dir() else {}
    say("sync (repin)")
    upstream.sync(source, repin=True, tag=tag, root=root)
    say("extract")
    extract.extract(root=root)
    say("update")
    update.update(root=root, progress=False)
    # Counted before --accept-trivial: a trivially changed message is still a changed one;
    # the translated % after is the catalogs' final state.
    changes = compare(before, snapshot(locale_dir))
    trivial = trivial_fuzzy(locale_dir, "ko", accept_trivial)
    if accept_trivial and trivial:
        final = snapshot(locale_dir)
        for change in changes:
            change.percent_after = round(final[change.page].percent, 1) if change.page in final else 0.0
    code_after = notebook_code(srcdir)
    report = BumpReport(source, upstream.read_pin(root).tag, changes,
                        sorted(rel for rel, digest in code_after.items()
                               if code_before.get(rel) != digest),
                        trivial, accept_trivial)
    out = paths.build_dir(root)
    catalogs.write_text_atomic(out / f"{REPORT_NAME}.md", report.markdown())
    catalogs.write_text_atomic(out / f"{REPORT_NAME}.json",
                               json.dumps(report.as_dict(), ensure_ascii=False, indent=1) + "\n")
    return report
