"""``jaxko extract``: Sphinx gettext over the staged upstream (make gettext)."""

from __future__ import annotations

from jaxko import extract


def register(sub) -> None:
    parser = sub.add_parser("extract", help="write .pot files with Sphinx's gettext builder",
                            description="Run Sphinx's gettext builder over the staged upstream "
                                        "docs, writing .pot files under _build/gettext/.")
    parser.add_argument("--scope", choices=("narrative", "full"), default="narrative",
                        help="narrative pages (default) or also the autosummary API pages")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when Sphinx warns about anything not on the accepted list")
    parser.set_defaults(func=run)


def run(args) -> int:
    result = extract.extract(scope=args.scope)
    unexpected = result.unexpected
    accepted = len(result.warnings) - len(unexpected)
    print(f"extracted {result.templates} templates into {result.pot_dir} in {result.seconds:.1f} s"
          f" ({len(unexpected)} warnings, {accepted} accepted: see docs/build-warnings.md)")
    for line in unexpected:
        print(f"  {line}")
    return 1 if args.strict and unexpected else 0
