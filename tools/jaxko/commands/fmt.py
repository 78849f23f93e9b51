"""``jaxko fmt``: rewrap catalogs to the one project width (``--check`` for CI)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from jaxko import paths
from jaxko.catalogs import WRAP_WIDTH
from jaxko.workflow import fmt


def register(sub) -> None:
    parser = sub.add_parser(
        "fmt", help="rewrap catalogs to the project's format",
        description=f"Rewrite catalogs in the project's one format (wrapped at {WRAP_WIDTH} "
                    "columns, as `jaxko update` writes them), so a file saved by Poedit or "
                    "another editor does not produce a diff of every line. Content never "
                    "changes.")
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="catalogs or folders (default: locale/ko)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 listing the files that would change")
    parser.add_argument("--merge-duplicates", action="store_true",
                        help="merge entries with the same msgid (a merge mistake) into one; "
                             "a conflicting translation is kept in a translator comment and "
                             "the entry marked fuzzy")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(func=run)


def run(args) -> int:
    targets = args.paths or [paths.locale_dir() / "ko"]
    results = fmt.format_paths(targets, check=args.check, progress=sys.stderr.isatty(),
                               merge_duplicates=args.merge_duplicates)
    changed = [r.path for r in results if r.changed]
    if args.format == "json":
        print(json.dumps({"catalogs": len(results), "check": args.check,
                          "changed" if not args.check else "would_change": [str(p) for p in changed]},
                         ensure_ascii=False))
    else:
        verb = "would reformat" if args.check else "reformatted"
        for result in results:
            if result.changed:
                merged = (f" ({result.merged} duplicate entries merged)" if result.merged
                          else "")
                print(f"{verb}: {result.path}{merged}")
        print(f"{len(changed)} of {len(results)} catalogs {verb}" if changed
              else f"{len(results)} catalogs already formatted")
    return 1 if args.check and changed else 0
