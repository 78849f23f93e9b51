"""``jaxko glean``: clear fuzzy entries whose upstream change was invariant-only."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from jaxko import glossary, paths
from jaxko.errors import UserError
from jaxko.workflow import glean


def register(sub) -> None:
    parser = sub.add_parser(
        "glean", help="carry invariant-only upstream changes into fuzzy translations",
        description="For fuzzy entries whose English changed only in inline code, role or "
                    "link targets, URLs or whitespace, make the same change in the "
                    "translation (fixing a particle after a changed word) and clear the "
                    "fuzzy flag. Code cells whose translation only translated comments get "
                    "the translated comments carried onto the new code, still fuzzy. "
                    "Everything else stays fuzzy.")
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="catalogs or folders (default: locale/ko)")
    parser.add_argument("--no-code", action="store_true", help="skip the code-cell sync")
    parser.add_argument("--dry-run", action="store_true", help="report, write nothing")
    parser.add_argument("--glossary", type=Path, help="for readings of Latin words "
                                                      "(default: glossary/ko.yaml)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(func=run)


def _glossary(path: Path | None):
    path = path or glossary.default_path()
    if not path.exists():
        return None
    try:
        return glossary.load(path)
    except UserError as err:
        print(f"jaxko: warning: glossary not used ({err.format()})", file=sys.stderr)
        return None


def run(args) -> int:
    terms = _glossary(args.glossary)
    result = glean.glean(args.paths or [paths.locale_dir() / "ko"], code=not args.no_code,
                         dry_run=args.dry_run, readings=terms.readings if terms else None,
                         particle_check=glean.particle_rule_check(terms),
                         progress=sys.stderr.isatty())
    if args.format == "json":
        print(json.dumps({
            "catalogs": result.catalogs, "dry_run": args.dry_run,
            "gleaned": result.count("glean"), "code_synced": result.count("code"),
            "kept_fuzzy": dict(result.kept), "changed": [str(p) for p in result.changed],
            "entries": [{"catalog": str(g.catalog), "location": g.location, "kind": g.kind,
                         "changes": [list(c) for c in g.changes]} for g in result.gleaned]},
            ensure_ascii=False))
        return 0
    for g in result.gleaned:
        if g.kind == "glean":
            what = ", ".join(f"{a} -> {b}" for a, b in g.changes) or "whitespace only"
            print(f"{g.catalog}: {g.location}: fuzzy cleared ({what})")
        else:
            print(f"{g.catalog}: {g.location}: translated comments carried onto the new code "
                  "(still fuzzy)")
    verb = "would glean" if args.dry_run else "gleaned"
    kept = sum(result.kept.values())
    reasons = "; ".join(f"{n} {reason}" for reason, n in result.kept.most_common())
    print(f"{verb} {result.count('glean')} (fuzzy cleared), {result.count('code')} code cells "
          f"synced (still fuzzy); {kept} stay fuzzy" + (f" ({reasons})" if reasons else ""))
    return 0
