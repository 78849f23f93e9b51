"""``jaxko check``: run the translation checks over .po catalogs."""

from __future__ import annotations

import sys
from pathlib import Path

# The checker is imported when the command runs, not when `jaxko` builds its parser:
# every other command starts faster, and so does `jaxko check --since` on one file.
FORMATS = ("text", "json", "github")


def _names(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def register(sub) -> None:
    parser = sub.add_parser(
        "check", help="check translations: glossary, particles, markup, safety, code",
        description="Check translated, non-fuzzy entries of .po catalogs. Exit 0 when no "
                    "errors, 1 when errors were found, 2 on bad input. Rule names are "
                    "family.name (glossary.missing, markup.role, ...); see docs/checks.md.")
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help=".po files or folders (default: locale/ko)")
    parser.add_argument("--glossary", type=Path, metavar="FILE",
                        help="glossary YAML (default: glossary/ko.yaml when present)")
    parser.add_argument("--no-glossary", action="store_true",
                        help="run without a glossary (no glossary rules)")
    parser.add_argument("--syntax", choices=("myst", "rst"),
                        help="source syntax of every entry (default: from its #: location)")
    parser.add_argument("--select", type=_names, metavar="RULES",
                        help="only these rules or families, comma-separated")
    parser.add_argument("--ignore", type=_names, metavar="RULES",
                        help="skip these rules or families, comma-separated")
    parser.add_argument("--since", metavar="REV",
                        help="only entries whose lines changed since this git revision")
    parser.add_argument("--source-dir", type=Path, metavar="DIR",
                        help="source docs of the #: locations, to tell code blocks "
                             "(default: _build/upstream/docs when staged)")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("--jobs", "-j", type=int, metavar="N",
                        help="worker processes (default: one per CPU)")
    parser.add_argument("--cache-dir", type=Path, metavar="DIR",
                        help="where results of unchanged catalogs are kept between runs "
                             "(default: $JAXKO_CACHE_DIR or .jaxko_cache)")
    parser.add_argument("--no-cache", action="store_true",
                        help="check every catalog again; read and write no cache")
    parser.add_argument("--no-prefilter", action="store_true",
                        help="run every rule on every message, not only where its prefilter "
                             "says it could report (the same findings, slower: to check "
                             "the prefilters themselves)")
    parser.add_argument("--baseline", type=Path, metavar="FILE",
                        help="adopt on an existing catalog: when FILE does not exist, write "
                             "today's findings to it; when it does, report only findings "
                             "that are not in it (keyed by catalog, msgid and rule)")
    parser.add_argument("--update-baseline", action="store_true",
                        help="with --baseline: rewrite FILE with today's findings")
    parser.add_argument("--statistics", action="store_true",
                        help="after the findings, print how many each rule reported")
    parser.add_argument("--show-info", action="store_true",
                        help="also show findings of info severity (rules whose findings "
                             "are hints, not problems; hidden by default)")
    parser.add_argument("--fail-on", choices=("error", "warning"), default="error",
                        help="exit 1 on errors only (default) or on warnings too")
    parser.add_argument("--fix", action="store_true",
                        help="apply the fixes that have exactly one right answer (escaped "
                             "space between markup and Hangul in reST, glossary spacing, a "
                             "forbidden rendering whose entry names one, a particle after a "
                             "word whose ending is certain), rewriting only those msgstrs; "
                             "prints `file:line: fixed rule` per change and how many entries "
                             "it fixed, then what is left. With "
                             "--select, only those rules' fixes. Safety findings are never "
                             "fixed; fuzzy entries are never touched")
    parser.add_argument("--diff", action="store_true",
                        help="show the fixes --fix would apply as a unified diff and write "
                             "nothing; exit 1 when there is something to fix, else 0")
    parser.set_defaults(func=run)


def run(args) -> int:
    from jaxko.check import cache, report
    from jaxko.check.runner import Options, run as run_check
    from jaxko.paths import catalogs_dir

    paths = args.paths or [catalogs_dir().parent.parent / "ko"]
    options = Options(paths=list(paths), glossary=args.glossary,
                      use_glossary=not args.no_glossary, syntax=args.syntax,
                      select=args.select, ignore=args.ignore, since=args.since,
                      source_dir=args.source_dir, jobs=args.jobs,
                      progress=args.format == "text", prefilter=not args.no_prefilter,
                      cache_dir=None if args.no_cache else (args.cache_dir or cache.default_dir()))
    if args.fix or args.diff:
        from jaxko.check import fix

        outcome = fix.run(options, show_info=args.show_info, write=not args.diff)
        if args.diff:
            sys.stdout.write(outcome.diff())
            return 1 if outcome.changes else 0
        # Keep stdout parseable for --format json/github: the changes go to stderr there.
        changes_out = sys.stdout if args.format == "text" else sys.stderr
        for change in outcome.changes:
            for rule in change.rules:
                changes_out.write(f"{change.path}:{change.line}: fixed {rule}\n")
        if outcome.changes:
            catalogs = len({change.path for change in outcome.changes})
            changes_out.write(f"fixed {len(outcome.changes)} entries in {catalogs} catalogs; "
                              "what is left:\n")
        changes_out.flush()
    result = run_check(options)
    if not args.show_info:
        result.findings = [f for f in result.findings if f.severity != "info"]
    if args.baseline is not None:
        from jaxko.check import baseline

        if args.update_baseline or not args.baseline.exists():
            count = baseline.write(args.baseline, result.findings)
            print(f"{args.baseline}: baseline of {count} findings written; later runs with "
                  f"--baseline {args.baseline} report only new ones", file=sys.stderr)
            result.findings = []
        else:
            result.findings = baseline.new_findings(result.findings, args.baseline)
    report.REPORTERS[args.format](result, sys.stdout)
    if args.statistics:
        report.statistics(result, sys.stdout if args.format == "text" else sys.stderr)
    if args.fail_on == "warning" and any(f.severity != "info" for f in result.findings):
        return 1
    return result.exit_code
