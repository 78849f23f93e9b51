"""``jaxko upstream bump``: move to a new upstream release and say what it did.

One command for the four steps of a release bump (sync with repin, extract, update) and
a report a maintainer can read in a pull request: per page the new, changed (fuzzy)
and removed (obsolete) messages, translated % before and after, review approvals the
bump voided, notebooks whose code cells changed (to verify again), the fuzzy
messages whose English changed only trivially (whitespace, punctuation, link targets),
and for the changelog its new and changed messages with what translation memory
(``jaxko tm fill``, dry run) fills and what needs a translator.
``accept_trivial`` re-applies those translations without the fuzzy flag, and the report
lists each one. Nothing is lost: `jaxko update` keeps every translation; a second bump
to the same tree changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from jaxko import catalogs, paths
from jaxko import extract, update, upstream
from jaxko.notebooks import sources
from jaxko.workflow import review, tm

REPORT_NAME = "bump-report"
# The page that grows with every release; the report says what translation memory fills.
CHANGELOG_PAGE = "changelog"


Key = tuple  # (msgctxt, msgid): a message's identity, as jaxko.catalogs merges them


@dataclass(frozen=True)
class Message:
    """What the report needs of one active message."""

    translated: bool
    fuzzy: bool
    reviewed: bool
    previous: Key | None = None  # from ``#|``: the message it was before upstream changed it


@dataclass
class PageSnapshot:
    """One catalog's active messages by key, its obsolete ones, and every translated
    text it holds (active, fuzzy or obsolete), counted."""

    active: dict = field(default_factory=dict)        # Key -> Message
    obsolete: frozenset = frozenset()
    texts: Counter = field(default_factory=Counter)

    @property
    def percent(self) -> float:
        if not self.active:
            return 0.0
        return 100.0 * sum(m.translated for m in self.active.values()) / len(self.active)


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
class Trivial:
    """A message this bump made fuzzy whose English changed only trivially."""

    page: str
    line: int
    msgid: str
    previous: str
    kinds: list  # of "whitespace", "punctuation", "link target"

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class ChangelogItem:
    """One new or changed changelog message and what happens to it."""

    location: str     # "../upstream/CHANGELOG.md:34"
    msgid: str
    status: str       # "filled" (translated by translation memory), "suggested" (fuzzy
    how: str          # suggestion), "translate" (nothing found), "changed" (fuzzy by update)


@dataclass
class ChangelogSection:
    """The changelog's new and changed messages, and which translation memory fills.

    ``jaxko tm fill`` (a dry run here: the bump writes no translation) fills *filled* ones
    translated (exact repeats and exactly substituted forms such as a new version
    heading), offers *suggested* ones fuzzy; *translate* and *changed* ones need a
    translator from the start."""

    page: str
    new: int = 0
    changed: int = 0
    items: list[ChangelogItem] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for item in self.items if item.status == status)

    @property
    def need_translator(self) -> int:
        return len(self.items) - self.count("filled")

    def as_dict(self) -> dict:
        return {"page": self.page, "new": self.new, "changed": self.changed,
                "filled": self.count("filled"), "suggested": self.count("suggested"),
                "translate": self.count("translate"),
                "changed_fuzzy": self.count("changed"),
                "need_translator": self.need_translator,
                "items": [asdict(item) for item in self.items]}

    def markdown(self) -> list[str]:
        lines = [f"## Changelog (`{self.page}`): {self.new} new, {self.changed} changed "
                 "messages", ""]
        if not self.items:
            return lines + ["- nothing new to translate", ""]
        lines += [f"Translation memory fills {self.count('filled')} (translated); "
                  f"{self.need_translator} need a translator: {self.count('suggested')} "
                  f"with a fuzzy suggestion to check, {self.count('translate')} to translate, "
                  f"{self.count('changed')} changed (fuzzy) to revise. Apply the fills with "
                  f"`jaxko tm fill locale/ko/LC_MESSAGES/{self.page}.po`.", "",
                  "| where | message | translation memory |", "|---|---|---|"]
        for item in self.items:
            text = item.msgid if len(item.msgid) <= 100 else item.msgid[:99] + "…"
            text = text.replace("|", "\\|").replace("\n", " ")
            fence = "`" * (max(map(len, re.findall(r"`+", text)), default=0) + 1)
            lines.append(f"| {item.location} | {fence} {text} {fence} | {item.status}: "
                         f"{item.how} |")
        return lines + [""]


@dataclass
class BumpReport:
    source: str
    tag: str
    pages: list[PageChange] = field(default_factory=list)
    notebooks_changed: list[str] = field(default_factory=list)
    trivial: list[Trivial] = field(default_factory=list)
    accepted: bool = False
    translations_before: int = 0
    translations_lost: int = 0  # translated texts found nowhere after the bump (must be 0)
    changelog: ChangelogSection | None = None

    def as_dict(self) -> dict:
        return {"source": self.source, "tag": self.tag, "accept_trivial": self.accepted,
                "pages": [asdict(p) for p in self.pages],
                "notebooks_changed": self.notebooks_changed,
                "trivial": [t.as_dict() for t in self.trivial],
                "translations_before": self.translations_before,
                "translations_lost": self.translations_lost,
                "changelog": self.changelog.as_dict() if self.changelog else None}

    def markdown(self) -> str:
        totals = {k: sum(getattr(p, k) for p in self.pages)
                  for k in ("new", "fuzzy", "obsolete", "approvals_voided")}
        lines = [f"# Upstream bump to `{self.tag}`", "",
                 f"Source: `{self.source}`. {len(self.pages)} pages changed: {totals['new']} new, "
                 f"{totals['fuzzy']} changed (fuzzy), {totals['obsolete']} removed (obsolete) "
                 f"messages; {totals['approvals_voided']} review approvals voided. "
                 f"Translations lost: {self.translations_lost} of {self.translations_before}.", "",
                 "| page | new | changed (fuzzy) | removed (obsolete) | translated before → after "
                 "| approvals voided |", "|---|---:|---:|---:|---:|---:|"]
        for p in self.pages:
            lines.append(f"| {p.page} | {p.new} | {p.fuzzy} | {p.obsolete} | "
                         f"{p.percent_before:.1f} % → {p.percent_after:.1f} % | "
                         f"{p.approvals_voided} |")
        if not self.pages:
            lines.append("| (no page changed) | | | | | |")
        if self.changelog is not None:
            lines += [""] + self.changelog.markdown()[:-1]
        lines += ["", "## Notebooks whose code cells changed (verify again)", ""]
        lines += [f"- `{n}`" for n in self.notebooks_changed] or ["- none"]
        verb = "re-applied without fuzzy (--accept-trivial)" if self.accepted else \
            "trivial changes (whitespace, punctuation, link target); `--accept-trivial` re-applies"
        lines += ["", f"## Fuzzy messages: {verb}", ""]
        lines += [f"- {t.page}:{t.line} ({', '.join(t.kinds)}): {t.msgid[:80]!r}"
                  for t in self.trivial] or ["- none"]
        return "\n".join(lines) + "\n"


def snapshot(locale_dir: Path, language: str = "ko") -> dict[str, PageSnapshot]:
    """Every catalog's messages, with the review state from locale/<lang>/reviews; each
    catalog is read once."""

    base = locale_dir / language / "LC_MESSAGES"
    reviews = review.reviews_dir(locale_dir, language)
    pages = {}
    for path in sorted(p for p in base.rglob("*.po") if p.is_file()):
        page = path.relative_to(base).with_suffix("").as_posix()
        po = catalogs.load(path)
        records = review.load_records(review.records_path(reviews, page))
        # an approval of any kind counts: voiding an AI pass voids an approval too
        levels = ({item.key: item.level for item in review.read_items(path, records, po=po)}
                  if records else {})
        active = {}
        texts: Counter = Counter()
        for entry in po:
            if not entry.msgid:
                continue
            texts.update([entry.msgstr] if entry.msgstr else [])
            texts.update(v for v in entry.msgstr_plural.values() if v)
            if entry.obsolete:
                continue
            previous = ((entry.previous_msgctxt, entry.previous_msgid)
                        if entry.previous_msgid is not None else None)
            reviewed = levels.get(review.message_key(entry.msgctxt, entry.msgid),
                                  review.Level.NOT_REVIEWED) > review.Level.NOT_REVIEWED
            active[(entry.msgctxt, entry.msgid)] = Message(
                catalogs.is_translated(entry), entry.fuzzy, reviewed, previous)
        pages[page] = PageSnapshot(active, frozenset((e.msgctxt, e.msgid) for e in po
                                                     if e.obsolete), texts)
    return pages


def translations(pages: dict[str, PageSnapshot]) -> Counter:
    """Every translated text in the snapshot's catalogs (active, fuzzy or obsolete),
    counted."""
    found: Counter = Counter()
    for page in pages.values():
        found.update(page.texts)
    return found


def notebook_code(srcdir: Path) -> dict[str, str]:
    """A hash of each upstream notebook's code cells."""

    hashes = {}
    for source in sources.find_notebooks(srcdir):
        cells = sources.read(source).notebook.cells
        code = "\0".join(c.source for c in cells if c.cell_type == "code")
        hashes[source.rel] = hashlib.sha256(code.encode("utf-8")).hexdigest()
    return hashes


# Link targets: Markdown ``[text](target)``, reST and MyST ``text <target>`` in backticks.
_LINK_TARGET = re.compile(r"(?<=\]\()([^()\s]+)(?=\))|(?<=<)([^<>\s]+)(?=>`)")
# Inline code must stay exactly as it was: ``-1`` and ``1`` are not "punctuation".
_CODE = re.compile(r"``.+?``|`[^`]+`")
# Sentence punctuation only; markup characters (* _ [ ] ` { } |) are not trivial.
_PUNCTUATION = re.compile(r"[\s.,;:!?…'\"“”‘’()\-–—]+")


def _targets(text: str) -> list[str]:
    return [m.group(1) or m.group(2) for m in _LINK_TARGET.finditer(text)]


def trivial_kinds(old: str, new: str) -> list[str]:
    """What changed between two msgids, when only whitespace, sentence punctuation or
    link targets did (inline code and link texts exactly equal); else an empty list."""
    if old == new:
        return []
    if old.split() == new.split():
        return ["whitespace"]
    old_bare, new_bare = _LINK_TARGET.sub("\0", old), _LINK_TARGET.sub("\0", new)
    if _CODE.findall(old_bare) != _CODE.findall(new_bare):
        return []
    def prose(text: str) -> str:
        return _PUNCTUATION.sub("", _CODE.sub("\1", text))
    if prose(old_bare) != prose(new_bare):
        return []
    kinds = []
    if old_bare.split() != new_bare.split():
        kinds.append("punctuation")
    if _targets(old) != _targets(new):
        kinds.append("link target")
    return kinds or ["whitespace"]


def reapplied(msgstr: str, old: str, new: str) -> str | None:
    """The translation for the changed msgid: the same text, with each changed link
    target replaced; None when the translation does not carry the old target."""
    for before, after in zip(_targets(old), _targets(new)):
        if before == after:
            continue
        if before not in _targets(msgstr):
            return None
        msgstr = _LINK_TARGET.sub(lambda m: after if (m.group(1) or m.group(2)) == before
                                  else m.group(0), msgstr)
    return msgstr


def trivial_fuzzy(locale_dir: Path, language: str, accept: bool) -> list[Trivial]:
    """Fuzzy messages whose English changed only trivially since their ``#|`` previous
    msgid (this bump's, or an earlier one's not yet accepted); with ``accept``, their
    translations re-applied without the fuzzy flag (link targets moved along)."""
    base = locale_dir / language / "LC_MESSAGES"
    found = []
    for path in sorted(p for p in base.rglob("*.po") if p.is_file()):
        page = path.relative_to(base).with_suffix("").as_posix()
        po = catalogs.load(path)
        edited = False
        for entry in po:
            if (entry.obsolete or not entry.fuzzy or entry.previous_msgid is None
                    or entry.msgid_plural or not entry.msgstr):
                continue
            kinds = trivial_kinds(entry.previous_msgid, entry.msgid)
            text = reapplied(entry.msgstr, entry.previous_msgid, entry.msgid) if kinds else None
            if not kinds or text is None:
                continue
            found.append(Trivial(page, entry.linenum, entry.msgid, entry.previous_msgid, kinds))
            if accept:
                entry.msgstr = text
                entry.flags.remove("fuzzy")
                entry.previous_msgid = entry.previous_msgctxt = None
                edited = True
        if edited:
            catalogs.save(po, path)
    return found


def new_and_changed(old: PageSnapshot, now: PageSnapshot) -> tuple[list, set]:
    """The keys active now and not before, and those of them that are changed messages
    (fuzzy, with a ``#|`` previous key that was active before)."""
    fresh = [k for k in now.active if k not in old.active]
    changed = {k for k in fresh
               if now.active[k].fuzzy and now.active[k].previous in old.active}
    return fresh, changed


def changelog_section(locale_dir: Path, old: PageSnapshot, now: PageSnapshot,
                      root: Path, page: str = CHANGELOG_PAGE, language: str = "ko"
                      ) -> ChangelogSection | None:
    """What translation memory would fill among the page's new messages (a dry run of
    ``jaxko tm fill`` over every catalog), and the changed ones; None without the page."""
    path = locale_dir / language / "LC_MESSAGES" / f"{page}.po"
    if not path.is_file():
        return None
    fresh, changed = new_and_changed(old, now)
    new = [k for k in fresh if k not in changed]
    wanted = set(new)
    result = tm.fill([path], [locale_dir / language], dry_run=True, root=root,
                     only=lambda e: (e.msgctxt, e.msgid) in wanted)
    fills = {f.msgid: f for f in result.fills}
    section = ChangelogSection(page, new=len(new), changed=len(changed))
    po = catalogs.load(path)
    for entry in po:
        key = (entry.msgctxt, entry.msgid)
        if entry.obsolete or key not in wanted and key not in changed:
            continue
        location = (f"{entry.occurrences[0][0]}:{entry.occurrences[0][1]}"
                    if entry.occurrences else f"{path.name}:{entry.linenum}")
        found = fills.get(entry.msgid)
        if key in changed:
            if catalogs.is_translated(entry):
                continue   # a trivial change --accept-trivial re-applied
            item = ChangelogItem(location, entry.msgid, "changed",
                                 "English changed; revise the fuzzy translation")
        elif catalogs.is_translated(entry):
            continue       # translated already (nothing to do)
        elif found is None:
            item = ChangelogItem(location, entry.msgid, "translate", "no match")
        elif found.kind in ("exact", "form"):
            how = (f"same text as {found.source}" if found.kind == "exact" else
                   f"same form as {found.source}, numbers/dates/URLs substituted")
            item = ChangelogItem(location, entry.msgid, "filled", how)
        else:
            how = (f"same form as {found.source}; check the substitution"
                   if found.kind == "form-fuzzy" else f"{found.ratio:.0%} like {found.source}")
            item = ChangelogItem(location, entry.msgid, "suggested", how)
        section.items.append(item)
    return section


def compare(before: dict[str, PageSnapshot], after: dict[str, PageSnapshot]
            ) -> list[PageChange]:
    """Per page what the bump did.

    A message is *changed* when its key is new and its ``#|`` previous key was an active
    message before; *new* when its key is new otherwise; *removed* when an active key of
    before is neither active now nor the previous key of a changed one. An approval is
    voided when a message reviewed before (or its changed successor) is not reviewed now."""
    changes = []
    for page in sorted(set(before) | set(after)):
        old, now = before.get(page, PageSnapshot()), after.get(page, PageSnapshot())
        fresh, changed = new_and_changed(old, now)
        successor = {now.active[k].previous: k for k in changed}
        removed = [k for k in old.active if k not in now.active and k not in successor]
        voided = 0
        for key, message in old.active.items():
            if not message.reviewed:
                continue
            current = now.active.get(key) or now.active.get(successor.get(key))
            voided += current is not None and not current.reviewed
        change = PageChange(page, new=len(fresh) - len(changed), fuzzy=len(changed),
                            obsolete=len(removed), percent_before=round(old.percent, 1),
                            percent_after=round(now.percent, 1), approvals_voided=voided)
        if (change.new, change.fuzzy, change.obsolete, voided) != (0, 0, 0, 0) \
                or change.percent_before != change.percent_after:
            changes.append(change)
    return changes


def bump(source: str, *, tag: str | None = None, accept_trivial: bool = False,
         root: Path | None = None, log=None) -> BumpReport:
    """Sync (repin), extract, update, and report; writes _build/bump-report.{md,json}."""

    say = log or (lambda line: None)
    root = root or paths.repo_root()
    locale_dir = paths.locale_dir(root)
    srcdir = paths.staged_docs(root)
    if not srcdir.is_dir() and upstream.read_pin(root).content_hash:
        # A fresh checkout (the release watch): the pinned tree is the baseline of the
        # notebooks' code, so stage it first.
        say("sync (the current pin, for the baseline)")
        upstream.sync(root=root)
    before = snapshot(locale_dir)
    texts_before = translations(before)
    code_before = notebook_code(srcdir) if srcdir.is_dir() else {}
    say("sync (repin)")
    upstream.sync(source, repin=True, tag=tag, root=root)
    say("extract")
    extract.extract(root=root)
    say("update")
    update.update(root=root, progress=False)
    # Counted before --accept-trivial: a trivially changed message is still a changed one.
    after = snapshot(locale_dir)
    changes = compare(before, after)
    # Lost is judged on the update's result: --accept-trivial then moves link targets in
    # the translations it re-applies, which the report lists one by one.
    lost = texts_before - translations(after)
    trivial = trivial_fuzzy(locale_dir, "ko", accept_trivial)
    if accept_trivial and trivial:  # the translated % after is the catalogs' final state
        final = snapshot(locale_dir)
        listed = {change.page: change for change in changes}
        for page in sorted({t.page for t in trivial} - set(listed)):
            listed[page] = PageChange(page, 0, 0, 0, round(before.get(page, PageSnapshot()).percent, 1), 0.0, 0)
        for change in listed.values():
            change.percent_after = round(final[change.page].percent, 1) if change.page in final else 0.0
        changes = sorted(listed.values(), key=lambda change: change.page)
    code_after = notebook_code(srcdir)
    # New and changed as the update left them; translated or not as the catalog is now.
    changelog = changelog_section(locale_dir, before.get(CHANGELOG_PAGE, PageSnapshot()),
                                  after.get(CHANGELOG_PAGE, PageSnapshot()), root)
    report = BumpReport(source, upstream.read_pin(root).tag, changes,
                        sorted(rel for rel, digest in code_after.items()
                               if code_before.get(rel) != digest),
                        trivial, accept_trivial, sum(texts_before.values()),
                        sum(lost.values()), changelog)
    out = paths.build_dir(root)
    catalogs.write_text_atomic(out / f"{REPORT_NAME}.md", report.markdown())
    catalogs.write_text_atomic(out / f"{REPORT_NAME}.json",
                               json.dumps(report.as_dict(), ensure_ascii=False, indent=1) + "\n")
    return report
