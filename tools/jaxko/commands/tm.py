"""``jaxko tm fill``: fill untranslated messages from translations already in the catalogs."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from jaxko import paths
from jaxko.errors import UserError
from jaxko.workflow import tm


def register(sub) -> None:
    parser = sub.add_parser("tm", help="translation memory: reuse existing translations",
                            description="Translation memory over the catalogs.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    fill = actions.add_parser(
        "fill", help="fill untranslated messages from exact, same-form and near matches",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Fill untranslated messages from the translations already in the catalogs. Never
overwrites a translation or a fuzzy entry; a suggestion is never marked translated.

exact      the same English is translated elsewhere (obsolete entries included):
           its translation, translated.
form       the English differs from a translated message only in numbers (versions,
           issue/PR numbers), English dates and URLs, as the changelog's version
           headings ("JAX 0.10.3 (June 18, 2026)") and commit links ("[GitHub
           commits](URL).") do with every release: that translation with those parts
           substituted, dates as "YYYY년 M월 D일", a particle after a number reshaped
           (3.12는 -> 3.11은). Translated only when the substitution is exact (each
           old part found in the translation as often as in the English); else a
           fuzzy suggestion with a "tm:" translator comment saying what to check. A
           different word, letter case or punctuation is a different form.
near       otherwise the most similar translated message (--threshold), as a fuzzy
           suggestion with its English as the previous msgid and its source in a
           "tm:" translator comment.""")
    fill.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                      help="catalogs or folders to fill (default: locale/ko)")
    fill.add_argument("--memory", type=Path, action="append", metavar="PATH",
                      help="catalogs to remember from (default: locale/ko; repeatable)")
    fill.add_argument("--threshold", type=float, default=tm.DEFAULT_THRESHOLD,
                      help=f"similarity 0..1 for near matches (default {tm.DEFAULT_THRESHOLD})")
    fill.add_argument("--exact-only", action="store_true",
                      help="no fuzzy suggestions (exact and exactly substituted forms only)")
    fill.add_argument("--dry-run", action="store_true", help="report, write nothing")
    fill.add_argument("--format", choices=("text", "json"), default="text")
    fill.set_defaults(func=run_fill)

    def show_help(args) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(func=show_help)


def run_fill(args) -> int:
    if not 0.5 <= args.threshold <= 1.0:
        raise UserError(f"--threshold {args.threshold} is out of range; use 0.5 to 1.0")
    default = paths.locale_dir() / "ko"
    result = tm.fill(args.paths or [default], args.memory or [default],
                     near=not args.exact_only, threshold=args.threshold, dry_run=args.dry_run,
                     root=paths.repo_root(), progress=sys.stderr.isatty())
    if args.format == "json":
        print(json.dumps({
            "catalogs": result.catalogs, "dry_run": args.dry_run,
            "exact": result.count("exact"), "form": result.count("form"),
            "form_fuzzy": result.count("form-fuzzy"), "near": result.count("near"),
            "changed": [str(p) for p in result.changed],
            "fills": [{"catalog": str(f.catalog), "location": f.location, "kind": f.kind,
                       "ratio": round(f.ratio, 3), "source": f.source, "msgid": f.msgid}
                      for f in result.fills]}, ensure_ascii=False))
        return 0
    for f in result.fills:
        label = {"exact": "translated", "form": "translated (same form)",
                 "form-fuzzy": "fuzzy (same form, check)"}.get(f.kind, f"fuzzy {f.ratio:.0%}")
        print(f"{f.catalog}: {f.location}: {label} from {f.source}")
    verb = "would fill" if args.dry_run else "filled"
    print(f"{verb} {result.count('exact')} exact (translated) and {result.count('near')} near "
          f"(fuzzy) in {len(result.changed)} of {result.catalogs} catalogs")
    print(f"{verb} {result.count('form')} same-form (translated) and "
          f"{result.count('form-fuzzy')} same-form (fuzzy, check)")
    return 0
