"""The runner: catalogs -> messages -> findings, each catalog read once.

1. The glossary is loaded and compiled, the rules selected: once, in this process.
2. Each catalog is read with the fast reader (:mod:`jaxko.check.pofile`); every
   translated, non-fuzzy entry becomes a :class:`~jaxko.check.message.Message` and
   goes through every selected rule that applies to its kind and syntax. With many
   catalogs, this runs in forked worker processes (the compiled glossary is shared by
   the fork, nothing is re-read or re-compiled).
3. Project-wide rules (consistency) run over what the workers report.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path

from jaxko import glossary as glossary_model
from jaxko.catalogs import iter_catalogs
from jaxko.check import cache as cache_model
from jaxko.check import consistency, inline, pofile
from jaxko.check.context import Context, msgid_inlines, msgstr_inlines
from jaxko.check.message import (CODE, MATH, SYNTAXES, TEXT, Message, first_location,
                                 ignored_rules, is_suppressed, syntax_of)
from jaxko.check.registry import RULES, Finding, Hit, Rule, select_rules, unknown_names
from jaxko.check.sources import SourceIndex, guess
from jaxko.errors import UserError

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


@dataclass
class _FileResult:
    findings: list[Finding]
    records: list[tuple]   # (key hash, msgstr hash, line, suppressed) for consistency
    entries: int
    checked: int
    suppressed: int
    digest: str | None = None   # SHA-1 of the bytes that were checked
    sources: dict = field(default_factory=dict)   # source document -> stat signature


class _State:
    """What a worker needs; set before forking, read-only afterwards."""

    context: Context
    plans: dict[tuple[str, str], list[Rule]]
    sources: SourceIndex
    syntax: str | None
    consistency: bool
    prefilter: bool = True   # False: every rule on every message (same findings, slower)


_STATE: _State | None = None


def load_rules_modules() -> None:
    """Import every rule module, which registers its rules."""
    from jaxko.check import (code, consistency as _c, glossary_rules, leftovers,  # noqa: F401
                             markup, particles, safety, syntax)


def build_state(options: Options, glossary: glossary_model.Glossary) -> _State:
    load_rules_modules()
    names = (options.select or []) + (options.ignore or [])
    unknown = unknown_names(names)
    if unknown:
        families = sorted({r.family for r in RULES.values()})
        raise UserError(f"unknown rule or family {', '.join(unknown)}; known families: "
                        + ", ".join(families))
    rules = select_rules(options.select, options.ignore)
    if not options.use_glossary:
        rules = [r for r in rules if r.family not in ("glossary",)]
    state = _State()
    state.context = Context(glossary)
    state.plans = {}
    for block in (TEXT, CODE, MATH):
        for syntax in SYNTAXES:
            state.plans[(block, syntax)] = [r for r in rules if r.scope == "message"
                                            and block in r.blocks and syntax in r.syntaxes]
    state.consistency = any(r.name == consistency.RULE for r in rules)
    srcdir = options.source_dir
    if srcdir is None:
        srcdir = _default_source_dir()
    state.sources = SourceIndex(srcdir)
    state.syntax = options.syntax
    state.prefilter = options.prefilter
    return state


def _default_source_dir() -> Path | None:
    """The staged upstream, else the pinned offline copy beside the checkout.

    A fresh clone has not staged anything yet; the offline copy holds the same
    documents (same content hash), so code blocks are told from prose the same way.
    """
    from jaxko import paths, upstream
    from jaxko.errors import UserError

    staged = paths.staged_docs()
    if staged.is_dir():
        return staged
    try:
        root = paths.repo_root()
        local = Path(upstream.default_source(upstream.read_pin(root), root)) / "docs"
    except UserError:
        return None
    return local if local.is_dir() else None


def checkable(entries, lines: set[int] | None):
    """The entries ``jaxko check`` checks: translated, not fuzzy (and on ``lines``)."""
    for entry in entries:
        if not entry.msgid or not entry.msgstr or "fuzzy" in entry.flags:
            continue
        if lines is not None and not any(n in lines for n in range(entry.first_line, entry.last_line + 1)):
            continue
        yield entry


def describe_all(entries: list, state: _State) -> list[tuple]:
    """(syntax, block, code language, ignored rules, source document) of each checkable
    entry; the document only when there is a source folder to look it up in. What the
    entries of a catalog share (their documents' syntaxes) is worked out once."""
    sources = state.sources
    forced = state.syntax
    syntaxes: dict[str, str] = {}
    described = []
    append = described.append
    for entry in entries:
        locations = entry.locations
        # `doc.md:12` alone on its line, as Sphinx writes it: the document decides.
        single = locations[0] if len(locations) == 1 and " " not in locations[0] else None
        if single is not None:
            document, _, line = single.rpartition(":")
            if not document or not line.isdigit():
                single = document = None
        if sources.srcdir is not None:
            if single is None:
                location = first_location(locations)
                document = location[0] if location else None
            block, language = sources.classify(entry.msgid, document)
        else:
            document = None
            block, language = guess(entry.msgid)
        if forced:
            syntax = forced
        elif single is not None:
            syntax = syntaxes.get(single.rpartition(":")[0])
            if syntax is None:
                syntax = syntaxes[single.rpartition(":")[0]] = syntax_of(locations)
        else:
            syntax = syntax_of(locations)
        tcomment, comment = entry.tcomment, entry.comment
        ignored = ignored_rules(tcomment, comment) if tcomment or comment else frozenset()
        append((syntax, block, language, ignored, document))
    return described


def message_of(path: Path, entry, description) -> Message:
    syntax, block, language, ignored, _ = description
    return Message(str(path), entry.line, entry.msgid, entry.msgstr, entry.msgctxt,
                   entry.flags, entry.locations, entry.tcomment, entry.comment,
                   syntax, block, language, ignored)


def check_messages(messages, state: _State) -> tuple[list[Finding], int, int]:
    """Run the planned rules over messages: (findings, messages checked, suppressed).

    A rule is called on a text message only where its prefilter lets it (``needs``:
    one of its strings occurs; ``markup``: msgid and msgstr differ in inline markup;
    code and math blocks are compared whole, so every rule sees them), unless
    ``state.prefilter`` is off: the prefilters only spare work, never a finding.
    """
    findings: list[Finding] = []
    context = state.context
    plans = state.plans
    prefilter = state.prefilter
    checked = suppressed = 0
    for message in messages:
        checked += 1
        msgid = message.msgid
        both = msgid + "\x00" + message.msgstr
        same = None
        text = prefilter and message.block == TEXT  # code and math blocks: no prefilter
        for rule_ in plans[(message.block, message.syntax)]:
            needs = rule_.needs
            if needs and text:
                for needed in needs:
                    if needed in both:
                        break
                else:
                    continue
            if rule_.markup and text:
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
                    continue
                if isinstance(hit, str):
                    hit = Hit(hit)
                findings.append(Finding(message.path, message.line, rule_.name,
                                        hit.severity or rule_.severity,
                                        hit.message, msgid, hit.suggestion, message.msgstr))
    return findings, checked, suppressed


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


def _check_file(task: tuple[str, frozenset[int] | None]) -> _FileResult:
    path_text, lines = task
    state = _STATE
    assert state is not None
    path = Path(path_text)
    data = pofile.read_bytes(path)
    entries = pofile.parse(pofile.decode(data, path), path)
    chosen = list(checkable(entries, set(lines) if lines is not None else None))
    descriptions = describe_all(chosen, state)
    findings, _, suppressed = check_messages(
        [message_of(path, e, d) for e, d in zip(chosen, descriptions)], state)
    records = []
    if state.consistency:
        records = [(stable_hash(e.msgid if e.msgctxt is None else e.msgctxt + "\x04" + e.msgid),
                    stable_hash(e.msgstr), e.line, is_suppressed(d[3], consistency.RULE))
                   for e, d in zip(chosen, descriptions)]
    sources = {}
    srcdir = state.sources.srcdir
    if srcdir is not None:
        for document in {d[4] for d in descriptions if d[4] is not None}:
            sources[document] = cache_model.stat_signature(srcdir / document)
    return _FileResult(findings, records, sum(1 for e in entries if e.msgid), len(chosen),
                       suppressed, cache_model.digest_bytes(data), sources)


def stable_hash(text: str) -> int:
    """A 64-bit hash that is the same in every process and run (``hash`` is salted)."""
    return int.from_bytes(blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest())


def _run_one(task):
    """Worker entry point: a UserError travels back as a value, not a traceback."""
    try:
        return task[0], _check_file(task)
    except UserError as err:
        return task[0], err


def run(options: Options) -> Result:
    """Check the catalogs named by ``options``; raises UserError on bad input."""
    global _STATE
    glossary, glossary_name = _load_glossary(options)
    files = list(iter_catalogs(options.paths))
    changed: dict[Path, frozenset[int] | None] | None = None
    if options.since:
        changed = changed_lines(options.since, options.paths)
        files = [f for f in files if f.resolve() in changed]
    _STATE = build_state(options, glossary)
    results: dict[str, _FileResult] = {}
    cache = _open_cache(options, glossary_name, _STATE)
    keys: dict[str, str] = {}
    tasks = []
    for f in files:
        if cache is not None:
            key = keys[str(f)] = os.path.abspath(f)
            hit = cache.get(key, cache_model.file_digest(f), _STATE.sources.srcdir)
            if hit is not None:
                results[str(f)] = _from_cache(str(f), hit)
                continue
        tasks.append((str(f), changed[f.resolve()] if changed is not None else None))
    reused = len(results)
    if tasks:
        _STATE.context.matcher  # compile once, before forking  # noqa: B018
    # The check makes millions of small objects and no reference cycles; the cyclic
    # collector would walk the whole heap again and again (the forked workers' too)
    # for nothing. Off for the run, and existing objects frozen so the workers do not
    # copy their pages by touching them.
    collecting = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        for name, outcome in _map(tasks, options):
            if isinstance(outcome, UserError):
                raise outcome
            results[name] = outcome
            if cache is not None:
                cache.put(keys[name], _to_cache(outcome))
    finally:
        gc.unfreeze()
        if collecting:
            gc.enable()
        if cache is not None:
            cache.prune()
            cache.save()
    findings: list[Finding] = []
    entries = checked = suppressed = 0
    records = []
    for name in sorted(results):
        outcome = results[name]
        findings.extend(outcome.findings)
        entries += outcome.entries
        checked += outcome.checked
        suppressed += outcome.suppressed
        records.extend((key, text_hash, name, line, suppressed_here)
                       for key, text_hash, line, suppressed_here in outcome.records)
    if _STATE.consistency and records:
        findings.extend(_consistency(records))
    findings.sort()
    return Result(findings, len(files), entries, checked, suppressed, glossary_name,
                  len(glossary), reused)


def _open_cache(options: Options, glossary_name: str | None, state: _State):
    """The result cache of this run, or None (no cache dir, or a --since run)."""
    if options.cache_dir is None or options.since:
        return None
    stamp = cache_model.fingerprint(
        glossary=Path(glossary_name) if glossary_name else None,
        use_glossary=options.use_glossary, syntax=options.syntax, select=options.select,
        ignore=options.ignore, source_dir=state.sources.srcdir)
    return cache_model.Cache(options.cache_dir, stamp)


def _to_cache(outcome: _FileResult) -> cache_model.Entry:
    return cache_model.Entry(
        outcome.digest, outcome.sources, outcome.entries, outcome.checked, outcome.suppressed,
        [[f.line, f.rule, f.severity, f.message, f.msgid, f.suggestion, f.msgstr]
         for f in outcome.findings],
        [value for record in outcome.records for value in record])


def _from_cache(path: str, entry: cache_model.Entry) -> _FileResult:
    findings = [Finding(path, line, rule_, severity, message, msgid, suggestion, msgstr)
                for line, rule_, severity, message, msgid, suggestion, msgstr in entry.findings]
    flat = entry.records
    records = list(zip(flat[0::4], flat[1::4], flat[2::4], flat[3::4]))
    return _FileResult(findings, records, entry.entries,
                       entry.checked, entry.suppressed, entry.digest, entry.sources)


def _map(tasks, options: Options):
    total = 0
    for path, _ in tasks:
        try:
            total += os.path.getsize(path)
        except OSError:
            pass
    jobs = options.jobs or os.cpu_count() or 1
    jobs = min(jobs, len(tasks))
    progress = None
    if options.progress and sys.stderr.isatty() and len(tasks) > 1:
        from tqdm import tqdm
        progress = tqdm(total=len(tasks), unit="catalog", file=sys.stderr, leave=False)
    try:
        if jobs > 1 and total >= PARALLEL_MIN_BYTES and "fork" in multiprocessing.get_all_start_methods():
            # Largest first, so no worker is left with a big catalog at the end.
            ordered = sorted(tasks, key=lambda t: -_size(t[0]))
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                for item in pool.imap_unordered(_run_one, ordered, chunksize=max(1, len(tasks) // (jobs * 8))):
                    if progress is not None:
                        progress.update()
                    yield item
        else:
            for task in tasks:
                item = _run_one(task)
                if progress is not None:
                    progress.update()
                yield item
    finally:
        if progress is not None:
            progress.close()


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _consistency(records) -> list[Finding]:
    """Consistency findings; texts re-read only for the entries that disagree."""
    # One pass over ~75,000 records: a key with two different msgstr hashes may
    # disagree (find_inconsistent decides, on the real texts, across catalogs).
    first: dict[int, int] = {}
    conflicting: set[int] = set()
    for key, text_hash, _, _, _ in records:
        seen = first.setdefault(key, text_hash)
        if seen != text_hash:
            conflicting.add(key)
    if not conflicting:
        return []
    wanted: dict[str, set[int]] = {}
    for key, _, name, line, _ in records:
        if key in conflicting:
            wanted.setdefault(name, set()).add(line)
    texts: dict[tuple[str, int], tuple[str | None, str, str]] = {}
    for name, lines in wanted.items():
        for entry in pofile.read(name):
            if entry.line in lines:
                texts[(name, entry.line)] = (entry.msgctxt, entry.msgid, entry.msgstr)
    full = []
    for key, _, name, line, suppressed in records:
        if key in conflicting and (name, line) in texts:
            msgctxt, msgid, msgstr = texts[(name, line)]
            full.append(((msgctxt, msgid), msgstr, name, line, msgid, suppressed))
    return consistency.find_inconsistent(full, _STATE.context.matcher)


def _load_glossary(options: Options) -> tuple[glossary_model.Glossary, str | None]:
    if not options.use_glossary:
        return glossary_model.Glossary(), None
    path = options.glossary
    if path is None:
        default = glossary_model.default_path()
        if not default.is_file():
            return glossary_model.Glossary(), None
        path = default
    return glossary_model.load(path), str(path)


# ---------------------------------------------------------------------------- --since


def changed_lines(revision: str, paths: list[Path]) -> dict[Path, frozenset[int] | None]:
    """Lines of .po files changed since ``revision`` (git), per resolved path.

    ``None`` as the value means the whole file (a new, untracked catalog).
    """
    existing = [p for p in paths if p.exists()]
    if not existing:
        raise UserError("no such file or directory", paths[0] if paths else ".")
    anchor = existing[0] if existing[0].is_dir() else existing[0].parent
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=anchor,
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise UserError("--since needs a git checkout; none found here", anchor) from None
    top_path = Path(top)
    specs = [str(p.resolve()) for p in existing]
    diff = subprocess.run(["git", "diff", "--no-color", "--no-ext-diff",
                           "-U0", revision, "--", *specs],
                          cwd=top, capture_output=True, text=True)
    if diff.returncode != 0:
        reason = (diff.stderr.strip().splitlines() or ["git diff failed"])[-1]
        raise UserError(f"--since {revision}: {reason}")
    changed: dict[Path, set[int] | None] = {}
    current: Path | None = None
    for line in diff.stdout.splitlines():
        if line.startswith("+++ "):
            name = line[4:]
            current = None if name == "/dev/null" else (top_path / name[2:]).resolve()
            if current is not None and current.suffix == ".po":
                changed.setdefault(current, set())
            else:
                current = None
        elif line.startswith("@@") and current is not None:
            header = line.split("@@")[1].split()
            plus = next(part for part in header if part.startswith("+"))
            start, _, count = plus[1:].partition(",")
            first, size = int(start), int(count) if count else 1
            bucket = changed[current]
            if size == 0:  # lines removed after `first`: the entry around them changed
                bucket.update((first, first + 1))
            else:
                bucket.update(range(first, first + size))
    others = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "--", *specs],
                            cwd=top, capture_output=True, text=True)
    for name in others.stdout.splitlines():
        if name.endswith(".po"):
            changed[(top_path / name).resolve()] = None
    return {path: (frozenset(lines) if lines is not None else None)
            for path, lines in changed.items()}
