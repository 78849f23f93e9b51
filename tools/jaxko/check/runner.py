"""The runner: catalogs -> messages -> findings, each catalog read once.

1. A :class:`Checker` is built once per run: the glossary compiled, the rules chosen and
   planned per message kind and syntax, the source index opened. It holds all the
   state of the run; nothing is kept at module level.
2. Each catalog is read with the one read-only reader (:func:`jaxko.catalogs.parse`); every
   translated, non-fuzzy entry becomes a :class:`~jaxko.check.message.Message` and goes
   through the planned rules whose prefilters admit it. With many catalogs, forked
   worker processes each check some (the checker travels by the fork, never pickled).
3. Project-wide rules (``scope="project"``: consistency) run once over the
   :class:`~jaxko.check.registry.Record` of every checked message; their findings on an
   entry with a `jaxko: ignore` comment covering them are suppressed here, and last
   ``ignore.unused`` reports the comment names that suppressed nothing
   (:mod:`jaxko.check.suppression`).
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from jaxko import glossary as glossary_model
from jaxko import catalogs
from jaxko.catalogs import iter_catalogs, write_text_atomic
from jaxko.check import cache as cache_model
from jaxko.check import config, inline, suppression
from jaxko.check.context import Context, msgid_inlines, msgstr_inlines
from jaxko.check.message import (CODE, MATH, SYNTAXES, TEXT, Message, first_location,
                                 translated_names, is_suppressed,
                                 ignored_rules, syntax_of)
from jaxko.check.registry import (RULES, Edit, Finding, Hit, Record, select_rules, stable_hash,
                                  unknown_names)
from jaxko.check.sources import SourceIndex, guess
from jaxko.errors import UserError
from jaxko.memo import digest_bytes, file_digest, refuse_tracked
from jaxko import paths
from jaxko.check.since import changed_lines

# Below this much catalog text, forking workers costs more than it saves.
PARALLEL_MIN_BYTES = 2_000_000


@dataclass
class Options:
    """What to check and how; the command line fills it, tests build it directly."""

    paths: list[Path] = field(default_factory=lambda: [Path("locale/ko")])
    glossary: Path | None = None       # None: glossary/ko.yaml when it exists
    use_glossary: bool = True
    syntax: str | None = None          # force MYST or RST for every entry
    select: list[str] | None = None
    ignore: list[str] | None = None
    since: str | None = None           # git revision
    source_dir: Path | None = None     # staged upstream docs, to tell code blocks
    jobs: int | None = None            # worker processes; None: one per CPU
    progress: bool = False
    cache_dir: Path | None = None      # reuse results of unchanged catalogs (not with since)
    prefilter: bool = True             # skip a rule where its prefilter says it has nothing to do
    # Rule -> severity; None: the project's own (check.config: the nearest pyproject.toml).
    severity: dict[str, str] | None = None


@dataclass
class Result:
    """Findings of one run and what was looked at."""

    findings: list[Finding]
    files: int = 0
    entries: int = 0
    checked: int = 0
    suppressed: int = 0
    glossary: str | None = None
    terms: int = 0
    cached: int = 0                    # catalogs whose results came from the cache

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")

    def summary(self) -> dict:
        return {"files": self.files, "entries": self.entries, "checked": self.checked,
                "errors": self.errors, "warnings": self.warnings,
                "suppressed": self.suppressed, "cached": self.cached,
                "glossary": self.glossary, "terms": self.terms,
                "rules": dict(sorted(Counter(f.rule for f in self.findings).items()))}

    @property
    def exit_code(self) -> int:
        return 1 if self.errors else 0


class Checked(NamedTuple):
    findings: list[Finding]
    checked: int
    suppressed: int
    # msgstr line -> the `jaxko: ignore` names no message rule used on that entry
    # (suppression.candidates; only when ignore.unused runs)
    unused: dict[int, tuple[str, ...]] = {}


@dataclass
class CatalogResult:
    """One catalog's findings and records, as the cache keeps them."""

    findings: list[Finding]
    records: list[Record]
    entries: int
    checked: int
    suppressed: int
    digest: str | None = None   # SHA-1 of the bytes that were checked
    sources: dict = field(default_factory=dict)   # source document -> stat signature


def load_rules_modules() -> None:
    """Import every rule module, which registers its rules."""
    from jaxko.check import (code, consistency as _c, glossary_rules, leftovers,  # noqa: F401
                             markup, particles, safety, syntax)


class Checker:
    """One run's compiled state, read-only once built (the forked workers share it)."""

    def __init__(self, options: Options, glossary: glossary_model.Glossary):
        load_rules_modules()
        unknown = unknown_names((options.select or []) + (options.ignore or []))
        if unknown:
            families = sorted({r.family for r in RULES.values()})
            raise UserError(f"unknown rule or family {', '.join(unknown)}; known families: "
                            + ", ".join(families))
        rules = select_rules(options.select, options.ignore)
        if not options.use_glossary:
            rules = [r for r in rules if r.family != "glossary"]
        chosen = (options.severity if options.severity is not None
                  else config.severities(options.paths))
        self.severity = {r.name: chosen.get(r.name, r.severity) for r in rules}
        self.context = Context(glossary, frozenset(r.name for r in rules
                                                   if self.severity[r.name] != "off"))
        self.plans = {(block, syntax): [r for r in rules if r.scope == "message"
                                        and block in r.blocks and syntax in r.syntaxes]
                      for block in (TEXT, CODE, MATH) for syntax in SYNTAXES}
        self.project = [r for r in rules if r.scope == "project"]   # called once, at the end
        # The rules of this run, which the `jaxko: ignore` names are judged against
        # (ignore.unused: a name is judged only when all its rules ran).
        # Glossary rules without a glossary (none found) find nothing: not judged either.
        self.ran = frozenset(r.name for r in rules if len(glossary) or r.family != "glossary")
        self.judge_ignores = suppression.RULE in self.ran
        source_dir = options.source_dir if options.source_dir is not None else _default_source_dir()
        self.sources = SourceIndex(source_dir)
        self.syntax = options.syntax
        self.prefilter = options.prefilter

    def messages(self, path: Path, entries, names: dict | None = None) -> list[Message]:
        """The checkable entries as messages: syntax, code or text, heading, suppressions;
        ``names``: the catalog's translated reference names (default: of ``entries``)."""
        entries = list(entries)
        if names is None:
            names = translated_names(entries)
        sources, forced = self.sources, self.syntax
        syntaxes: dict[str, str] = {}  # per document: most entries name one
        parsed_as = sources.catalog_syntax(path)
        found = []
        for entry in entries:
            locations = entry.locations
            location = first_location(locations)
            document = location[0] if location else None
            if sources.srcdir is not None:
                kind = sources.classify(entry.msgid, document)
            else:
                kind = guess(entry.msgid)
            if forced:
                syntax = forced
            elif len(locations) == 1 and document is not None:
                syntax = syntaxes.get(document) or syntaxes.setdefault(document, syntax_of(locations))
            else:
                syntax = syntax_of(locations)
            ignored = (ignored_rules(entry.tcomment, entry.comment)
                       if entry.tcomment or entry.comment else frozenset())
            found.append(Message(str(path), entry.msgstr_line, entry.msgid, entry.msgstr, entry.msgctxt,
                                 entry.flags, locations, entry.tcomment, entry.comment, syntax,
                                 kind.block, kind.language, ignored, kind.heading, document,
                                 parsed_as or syntax, names))
        return found

    def check(self, messages) -> Checked:
        """Run the planned rules over messages.

        A rule is called on a text message only where its prefilter lets it (``needs``:
        one of its strings occurs; ``markup``: msgid and msgstr differ in inline markup;
        code and math blocks are compared whole, so every rule sees them), unless
        ``prefilter`` is off: the prefilters only spare work, never a finding.
        """
        findings: list[Finding] = []
        context, plans, prefilter = self.context, self.plans, self.prefilter
        checked = suppressed = 0
        unused: dict[int, tuple[str, ...]] = {}
        for message in messages:
            checked += 1
            used: set[str] | None = set() if message.ignored else None
            msgid = message.msgid
            both = msgid + "\x00" + message.msgstr
            same = None
            text = prefilter and message.block == TEXT
            for rule_ in plans[(message.block, message.syntax)]:
                if text and rule_.needs:
                    for needed in rule_.needs:  # a loop, not any(): no generator per rule
                        if needed in both:
                            break
                    else:
                        continue
                if rule_.code_languages is not None and message.block == CODE \
                        and message.language not in rule_.code_languages:
                    continue
                if text and rule_.markup:
                    if same is None:
                        same = same_markup(message)
                    if same:
                        continue
                hits = rule_.function(message, context)
                if hits is None:
                    continue
                for hit in hits:
                    if message.ignored and message.suppressed(rule_.name):
                        suppressed += 1
                        used.add(rule_.name)
                        continue
                    if isinstance(hit, str):
                        hit = Hit(hit)
                    findings.append(Finding(message.path, message.line, rule_.name,
                                            hit.severity or self.severity[rule_.name],
                                            hit.message, msgid, hit.suggestion, message.msgstr,
                                            message.msgctxt,
                                            hit.fix if rule_.fixable else ()))
            if used is not None and self.judge_ignores:
                names = suppression.candidates(message.ignored, used, self.ran)
                if names:
                    unused[message.line] = names
        return Checked(findings, checked, suppressed, unused)

    def check_catalog(self, path: Path, lines: frozenset[int] | None) -> CatalogResult:
        """Read one catalog and check its translated entries (on ``lines`` only, if given)."""
        data = catalogs.read_bytes(path)
        entries = catalogs.parse(catalogs.decode(data, path), path)
        messages = self.messages(path, checkable(entries, lines),
                                 translated_names(e for e in entries if e.msgstr))
        outcome = self.check(messages)
        records = []
        if self.project:
            unused = outcome.unused
            records = [Record(stable_hash(m.msgid if m.msgctxt is None else m.msgctxt + "\x04" + m.msgid),
                              stable_hash(m.msgstr), m.path, m.line, tuple(sorted(m.ignored)),
                              (m.msgctxt, m.msgid, m.msgstr), unused.get(m.line, ()))
                       for m in messages]
        sources = {}
        if self.sources.srcdir is not None:
            # The document the catalog translates decides the parser of the safety rules.
            candidates = {name for name, _ in self.sources.catalog_documents(path)}
            for document in ({m.document for m in messages} | candidates) - {None}:
                sources[document] = cache_model.stat_signature(self.sources.srcdir / document)
        return CatalogResult(outcome.findings, records, sum(1 for e in entries if e.msgid),
                             outcome.checked, outcome.suppressed, digest_bytes(data),
                             sources)


def checkable(entries, lines: frozenset[int] | None):
    """The entries ``jaxko check`` checks: translated, not fuzzy (and on ``lines``)."""
    for entry in entries:
        if not entry.msgid or not entry.msgstr or "fuzzy" in entry.flags:
            continue
        if lines is not None and not any(n in lines for n in range(entry.first_line, entry.last_line + 1)):
            continue
        yield entry


def check_text(path: Path, text: str, wanted=None, options: Options | None = None) -> list[Finding]:
    """The message rules' findings on catalog ``text`` read as if it were at ``path``.

    ``wanted(entry) -> bool`` picks the checkable entries (default: all); a review app
    checks one edited message before it is saved. Project-wide rules (consistency) need
    every catalog and are left out; nothing is cached or written.
    """
    options = options or Options(paths=[path], progress=False, jobs=1)
    glossary, _name = _load_glossary(options)
    checker = Checker(options, glossary)
    entries = [e for e in checkable(catalogs.parse(text, path), None)
               if wanted is None or wanted(e)]
    return sorted(checker.check(checker.messages(path, entries)).findings)
def _can_fork() -> bool:
    from jaxko.forked import can_fork  # here: multiprocessing only for a run that forks

    return can_fork()


def _default_source_dir() -> Path | None:
    """The staged upstream, else the pinned offline copy beside the checkout.

    A fresh clone has not staged anything yet; the offline copy holds the same
    documents (same content hash), so code blocks are told from prose the same way.
    """

    staged = paths.staged_docs()
    if staged.is_dir():
        return staged
    from jaxko import upstream  # here: only a fresh clone needs the pin read

    try:
        root = paths.repo_root()
        local = Path(upstream.default_source(upstream.read_pin(root), root)) / "docs"
    except UserError:
        return None
    return local if local.is_dir() else None


_MARKUP_BLIND = frozenset({inline.STRONG, inline.EMPHASIS})


def same_markup(message: Message) -> bool:
    """Whether msgid and msgstr have exactly the same inline markup keys (kind, role,
    target): then no rule with the ``markup`` prefilter can find anything, and none is called.

    Compared as multisets (a Counter), never sorted: keys of one kind may hold None
    beside a string (``$x$`` has no role, ``{math}`y``` has one), which do not order.
    """
    source = Counter(i.key() for i in msgid_inlines(message) if i.kind not in _MARKUP_BLIND)
    translated = Counter(i.key() for i in msgstr_inlines(message) if i.kind not in _MARKUP_BLIND)
    return source == translated


def run(options: Options) -> Result:
    """Check the catalogs named by ``options``; raises UserError on bad input."""
    glossary, glossary_name = _load_glossary(options)
    files = list(iter_catalogs(options.paths))
    changed = None
    if options.since:

        changed = changed_lines(options.since, options.paths)
        files = [f for f in files if f.resolve() in changed]
    checker = Checker(options, glossary)
    cache = _open_cache(options, glossary_name, checker)
    results: dict[str, CatalogResult] = {}
    tasks = []
    for f in files:
        if cache is not None:
            hit = cache.get(os.path.abspath(f), file_digest(f), checker.sources.srcdir)
            if hit is not None:
                results[str(f)] = _from_cache(str(f), hit)
                continue
        tasks.append((str(f), changed[f.resolve()] if changed is not None else None))
    reused = len(results)
    if tasks:
        checker.context.matcher  # compile once, before forking  # noqa: B018
        checker.context.recorded_matcher  # noqa: B018
    # What exists before the run (the compiled glossary, the modules) is frozen: the
    # cyclic collector does not walk it again and again, and forked workers do not copy
    # its pages by touching them. The collector stays on for what the run makes: the
    # reST parser's document trees are cycles, which would pile up (BENCHMARKS.md).
    gc.freeze()
    try:
        for name, outcome in _map(checker, tasks, options):
            if isinstance(outcome, UserError):
                raise outcome
            results[name] = outcome
            if cache is not None:
                cache.put(os.path.abspath(name), _to_cache(outcome))
    finally:
        gc.unfreeze()
        if cache is not None:
            cache.prune()
            cache.save()
    findings: list[Finding] = []
    records: list[Record] = []
    for name in sorted(results):
        findings.extend(results[name].findings)
        records.extend(results[name].records)
    suppressed = sum(r.suppressed for r in results.values())
    if records:
        found, project_suppressed = _project_findings(checker, records, options)
        findings.extend(found)
        suppressed += project_suppressed
    findings.sort()
    return Result(findings, len(files), sum(r.entries for r in results.values()),
                  sum(r.checked for r in results.values()),
                  suppressed, glossary_name, len(glossary), reused)


def _project_findings(checker: Checker, records: list[Record], options: Options):
    """The project-wide rules' findings over every record, and how many a `jaxko: ignore`
    comment suppressed; ignore.unused runs last, on what the others left unused."""
    commented = {(r.path, r.line): r for r in records if r.ignored}
    used: dict[tuple[str, int], set[str]] = {}
    findings: list[Finding] = []
    suppressed = 0
    unused_rule = None
    for rule_ in checker.project:
        if rule_.name == suppression.RULE:
            unused_rule = rule_
            continue
        for finding in rule_.function(records, checker.context, checker.severity[rule_.name]):
            record = commented.get((finding.path, finding.line))
            if record is not None and is_suppressed(frozenset(record.ignored), finding.rule):
                suppressed += 1
                used.setdefault((record.path, record.line), set()).add(finding.rule)
                continue
            findings.append(finding)
    if unused_rule is not None:
        # A --since run compares only the catalogs it read: its project rules did not
        # run over the project, so no name covering them is judged.
        ran = frozenset() if options.since else frozenset(r.name for r in checker.project)
        settled = []
        for record in records:
            if record.unused:
                names = suppression.settle(record.unused, used.get((record.path, record.line), set()), ran)
                if names:
                    settled.append(record._replace(unused=names))
        findings.extend(unused_rule.function(settled, checker.context,
                                             checker.severity[unused_rule.name]))
    return findings, suppressed


def _open_cache(options: Options, glossary_name: str | None, checker: Checker):
    """The result cache of this run, or None (no cache dir, or a --since run)."""
    if options.cache_dir is None or options.since:
        return None
    refuse_tracked([options.cache_dir])  # a planted cache would hide findings
    stamp = cache_model.fingerprint(
        glossary=Path(glossary_name) if glossary_name else None,
        use_glossary=options.use_glossary, syntax=options.syntax, select=options.select,
        ignore=options.ignore, source_dir=checker.sources.srcdir, severity=checker.severity)
    return cache_model.Cache(options.cache_dir, stamp)


def _to_cache(outcome: CatalogResult) -> cache_model.Entry:
    return cache_model.Entry(
        outcome.digest, outcome.sources, outcome.entries, outcome.checked, outcome.suppressed,
        [[f.line, f.rule, f.severity, f.message, f.msgid, f.suggestion, f.msgstr, f.msgctxt,
          [list(edit) for edit in f.fix]] for f in outcome.findings],
        [[r.key, r.text, r.line, list(r.ignored), list(r.unused),
          list(r.texts) if r.unused and r.texts is not None else None]
         for r in outcome.records])


def _from_cache(path: str, entry: cache_model.Entry) -> CatalogResult:
    findings = [Finding(path, line, rule_, severity, message, msgid, suggestion, msgstr, msgctxt,
                        tuple(Edit(*edit) for edit in fix))
                for line, rule_, severity, message, msgid, suggestion, msgstr, msgctxt, fix
                in entry.findings]
    records = [Record(key, text, path, line, tuple(ignored),
                      tuple(texts) if texts is not None else None, tuple(unused))
               for key, text, line, ignored, unused, texts in entry.records]
    return CatalogResult(findings, records, entry.entries, entry.checked, entry.suppressed,
                         entry.digest, entry.sources)


def _check_one(checker: Checker, task) -> tuple[str, CatalogResult | UserError]:
    """One catalog's outcome; a UserError travels back as a value, not a traceback."""
    name, lines = task
    try:
        return name, checker.check_catalog(Path(name), lines)
    except UserError as err:
        return name, err


def _work(checker: Checker, todo, done) -> None:
    """A forked worker: check catalogs from ``todo`` until a None, send each outcome."""
    for task in iter(todo.get, None):
        try:
            done.put(_check_one(checker, task))
        except BaseException as err:  # an internal error must reach the parent, not hang it
            done.put((task[0], RuntimeError(f"checking {task[0]} failed: {err!r}")))


def _map(checker: Checker, tasks, options: Options):
    """(name, outcome) of every task: in this process, or in forked workers when there
    is enough text to gain from them."""
    total = sum(_size(name) for name, _ in tasks)
    jobs = min(options.jobs or os.cpu_count() or 1, len(tasks))
    progress = None
    if options.progress and sys.stderr.isatty() and len(tasks) > 1:
        from tqdm import tqdm
        progress = tqdm(total=len(tasks), unit="catalog", file=sys.stderr, leave=False)
    try:
        # Forked only where no other thread runs (jaxko.forked): a thread's lock held
        # at the fork stays held in the child.
        if jobs > 1 and total >= PARALLEL_MIN_BYTES and _can_fork():
            outcomes = _forked(checker, tasks, jobs)
        else:
            outcomes = (_check_one(checker, task) for task in tasks)
        for name, outcome in outcomes:
            if isinstance(outcome, RuntimeError):
                raise outcome
            if progress is not None:
                progress.update()
            yield name, outcome
    finally:
        if progress is not None:
            progress.close()


def _size(path: str) -> int:
    """The size of a catalog; 0 for one that is gone (its check reports that)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _forked(checker: Checker, tasks, jobs: int):
    import multiprocessing  # imported here: a run with little text never forks
    import queue

    context = multiprocessing.get_context("fork")
    todo, done = context.Queue(), context.Queue()
    # Largest first, so no worker is left with a big catalog at the end.
    for task in sorted(tasks, key=lambda t: -_size(t[0])):
        todo.put(task)
    for _ in range(jobs):
        todo.put(None)
    workers = [context.Process(target=_work, args=(checker, todo, done), daemon=True)
               for _ in range(jobs)]
    for worker in workers:
        worker.start()
    try:
        for _ in tasks:
            while True:
                try:
                    yield done.get(timeout=1)
                    break
                except queue.Empty:  # a worker killed (out of memory) would leave us waiting
                    if any(w.exitcode not in (None, 0) for w in workers):
                        raise RuntimeError("a check worker process died; run again with --jobs 1") from None
    finally:
        for worker in workers:
            worker.join(timeout=5)
            if worker.is_alive():
                worker.terminate()


def _load_glossary(options: Options) -> tuple[glossary_model.Glossary, str | None]:
    if not options.use_glossary:
        return glossary_model.Glossary(), None
    path = options.glossary
    if path is None:
        default = glossary_model.default_path()
        if not default.is_file():
            return glossary_model.Glossary(), None
        path = default
    cache_dir = None if options.since else options.cache_dir  # --since leaves no cache
    return _parsed_glossary(Path(path), cache_dir), str(path)


def _parsed_glossary(path: Path, cache_dir: Path | None) -> glossary_model.Glossary:
    """The glossary, read from the cache when this text was parsed before by this
    glossary reader (keyed by the SHA-256 of both): a check of one catalog on every save
    then neither imports PyYAML nor parses the YAML. Only a valid glossary is kept; a
    tracked cache stops the run in :func:`_open_cache`."""
    if cache_dir is None:
        return glossary_model.load(path)
    try:
        data = path.read_bytes()
        reader = Path(glossary_model.__file__).read_bytes()
    except OSError:
        return glossary_model.load(path)  # its one-line error
    key = digest_bytes(data + b"\0" + reader)
    stored = cache_dir / "glossary" / f"{key}.json"
    try:
        terms = json.loads(stored.read_text(encoding="utf-8"))
        return glossary_model.from_terms(
            (glossary_model.Term(**{k: tuple(v) if isinstance(v, list) else v
                                    for k, v in term.items()}) for term in terms), str(path))
    except (OSError, ValueError, TypeError):
        pass  # not there, or not ours: parse
    parsed = glossary_model.load(path)
    try:
        stored.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(stored, json.dumps([dataclasses.asdict(t) for t in parsed.terms],
                                             ensure_ascii=False))
    except OSError:
        pass  # a cache that cannot be written costs speed, never the check
    return parsed
