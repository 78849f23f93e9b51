"""``jaxko glossary rename|suggest|export``: the translators' glossary upkeep actions.

Registered by :mod:`jaxko.commands.glossary` (its ``ACTIONS`` list); the work is done
in :mod:`jaxko.workflow.glossary_tools`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from jaxko import catalogs, glossary, paths
from jaxko.workflow import glossary_tools


def _glossary_option(parser) -> None:
    parser.add_argument("--glossary", type=Path, metavar="FILE",
                        help="glossary file (default: glossary/ko.yaml)")


# ---------------------------------------------------------------------------- rename


def register_rename(actions) -> None:
    parser = actions.add_parser(
        "rename", help="change a term's Korean rendering everywhere",
        description="Rewrite every msgstr occurrence of the term's current rendering (and "
                    "of its forbidden ones) to the new rendering, fixing the particle after "
                    "it (컨볼루션을 -> 합성곱을), and update the glossary entry (the old "
                    "rendering becomes forbidden). Inline code, link targets and URLs are "
                    "never rewritten; nothing else in the catalogs changes. Prints a diff.")
    parser.add_argument("term", metavar="EN", help="the English term, as in the glossary's en:")
    parser.add_argument("--to", required=True, metavar="NEW_KO", help="the new rendering")
    parser.add_argument("--from", dest="also", action="append", default=[], metavar="OLD_KO",
                        help="another old rendering to rewrite (repeatable)")
    parser.add_argument("--inside-words", action="store_true",
                        help="also rewrite inside longer words (역컨볼루션 -> 역합성곱)")
    parser.add_argument("--catalogs", dest="paths", action="append", type=Path, metavar="PATH",
                        help="catalogs or folders to rewrite (default: locale/ko; repeatable)")
    parser.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    _glossary_option(parser)
    parser.set_defaults(func=run_rename)


def run_rename(args) -> int:
    path = args.glossary or glossary.default_path()
    plan = glossary_tools.plan_rename(path, args.term, args.to,
                                      args.paths or [paths.locale_dir() / "ko"],
                                      also=args.also, inside_words=args.inside_words)
    written = [] if args.dry_run else glossary_tools.apply_rename(plan)
    root = paths.repo_root()
    if args.format == "json":
        print(json.dumps({
            "term": plan.term.en, "to": plan.new, "from": list(plan.old),
            "dry_run": args.dry_run, "messages": len(plan.changes),
            "catalogs": sorted(str(p) for p in plan.catalogs),
            "glossary_changed": plan.glossary_after != plan.glossary_before,
            "written": [str(p) for p in written],
            "changes": [{"catalog": str(c.catalog), "location": c.location,
                         "before": c.before, "after": c.after} for c in plan.changes]},
            ensure_ascii=False))
        return 0
    sys.stdout.write(plan.diff(root))
    verb = "would rewrite" if args.dry_run else "rewrote"
    print(f"{verb} {len(plan.changes)} messages in {len(plan.catalogs)} catalogs: "
          f"{', '.join(plan.old) or '(nothing)'} -> {plan.new}")
    return 0


# --------------------------------------------------------------------------- suggest


def register_suggest(actions) -> None:
    parser = actions.add_parser(
        "suggest", help="frequent English terms not yet in the glossary",
        description="Rank frequent English words and phrases of the msgids that the "
                    "glossary does not cover, each with how the translated messages "
                    "currently render it and an example in context.")
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="catalogs or folders (default: locale/ko)")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--min-count", type=int, default=3, help="messages a term must occur in")
    parser.add_argument("--min-documents", type=int, default=2)
    parser.add_argument("--max-words", type=int, default=3, choices=(1, 2, 3, 4))
    parser.add_argument("--format", choices=("text", "json"), default="text")
    _glossary_option(parser)
    parser.set_defaults(func=run_suggest)


def run_suggest(args) -> int:
    terms = glossary.load(args.glossary)
    found = glossary_tools.suggest(args.paths or [paths.locale_dir() / "ko"], terms,
                                   min_count=args.min_count, min_documents=args.min_documents,
                                   max_words=args.max_words, limit=args.limit)
    if args.format == "json":
        print(json.dumps([c.as_dict() for c in found], ensure_ascii=False, indent=2))
        return 0
    for rank, c in enumerate(found, 1):
        renderings = ", ".join(f"{t} ({n})" for t, n in c.renderings) or "아직 번역 없음"
        print(f"{rank:>3}. {c.phrase}  — {c.count} messages in {c.documents} documents; "
              f"현재 번역: {renderings}")
        for en, ko in c.contexts:
            print(f"       EN: {en}")
            if ko:
                print(f"       KO: {ko}")
    return 0


# ---------------------------------------------------------------------------- export


def register_export(actions) -> None:
    parser = actions.add_parser(
        "export", help="write the glossary as CSV, TBX or JSON",
        description="Export the glossary for Poedit, Weblate and CAT tools: csv (columns "
                    "source, target, developer_comments, ...), tbx (TBX-Basic) or json.")
    parser.add_argument("--format", choices=tuple(glossary_tools.EXPORTERS), default="csv")
    parser.add_argument("--output", "-o", type=Path, metavar="FILE",
                        help="write here (atomically) instead of standard output")
    _glossary_option(parser)
    parser.set_defaults(func=run_export)


def run_export(args) -> int:
    text = glossary_tools.EXPORTERS[args.format](glossary.load(args.glossary))
    if args.output:
        catalogs.write_text_atomic(args.output, text)
        print(f"{args.output}: {args.format}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# ---------------------------------------------------------------------------- sort


def register_sort(actions) -> None:
    parser = actions.add_parser(
        "sort", help="put each group's entries in alphabetical order of `en`",
        description="Sort the entries of each `# --- group ---` of the glossary by their "
                    "English term (case-insensitive). Entries move as whole blocks of text, "
                    "comments and notes with them; nothing is reformatted, and nothing is "
                    "written unless the sorted file holds exactly the same terms. With "
                    "--check, write nothing and exit 1 when the glossary is out of order.")
    parser.add_argument("--check", action="store_true",
                        help="only report; exit 1 when the glossary would be reordered")
    _glossary_option(parser)
    parser.set_defaults(func=run_sort)


def run_sort(args) -> int:
    from jaxko.workflow import glossary_order

    path = args.glossary or glossary.default_path()
    changed = glossary_order.sort_file(path, check=args.check)
    if args.check:
        print(f"{path}: {'out of order; run `jaxko glossary sort`' if changed else 'sorted'}")
        return 1 if changed else 0
    print(f"{path}: {'sorted' if changed else 'already sorted'}")
    return 0


ACTIONS = [register_rename, register_suggest, register_export, register_sort]
