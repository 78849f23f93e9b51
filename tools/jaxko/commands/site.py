"""``jaxko site build``: the Korean docs site into _build/html (make html)."""

from __future__ import annotations

from pathlib import Path

from jaxko.site import build as site_build


def register(sub) -> None:
    parser = sub.add_parser("site", help="build the Korean docs site",
                            description="Build the Korean JAX docs site.")
    actions = parser.add_subparsers(dest="site_command", metavar="ACTION")
    b = actions.add_parser(
        "build", help="build the site into _build/html (make html)",
        description="Run sphinx-build -b html -D language=ko over the staged upstream with "
                    "locale/ (no network). Notebooks execute through MyST-NB's cache under "
                    "_build/jupyter_cache, so a rebuild with unchanged code runs nothing.")
    b.add_argument("--no-execute", action="store_true",
                   help="render stored notebook outputs only (fast; for development)")
    b.add_argument("--language", "-l", default="ko",
                   help="ko (default) or en: the same build without translations")
    b.add_argument("--scope", choices=("narrative", "full"), default="narrative")
    b.add_argument("--srcdir", type=Path, help="docs tree (default _build/upstream/docs)")
    b.add_argument("--outdir", type=Path, help="output (default _build/html)")
    b.add_argument("--locale-dir", type=Path, help="catalogs (default locale/)")
    b.add_argument("--glossary", type=Path, help="glossary YAML (default glossary/ko.yaml)")
    b.add_argument("--assignments", type=Path,
                   help="assignments YAML (default <locale-dir>/ko/assignments.yaml)")
    b.add_argument("--no-notebooks", action="store_true",
                   help="do not rebuild the Korean notebooks offered for download first")
    b.add_argument("--jobs", "-j", default="1", help="Sphinx worker processes (default 1)")
    b.add_argument("--strict", action="store_true",
                   help="exit 1 on i18n warnings, on warnings not on the accepted list, or "
                        "on translations the security gate kept off the site")
    b.set_defaults(func=run_build)
    parser.set_defaults(func=lambda args: parser.print_help() or 2)


def run_build(args) -> int:
    result = site_build.build(execute=not args.no_execute, language=args.language,
                              scope=args.scope, srcdir=args.srcdir, outdir=args.outdir,
                              locale_dir=args.locale_dir, glossary=args.glossary,
                              assignments=args.assignments, jobs=args.jobs,
                              notebooks=not args.no_notebooks)
    unexpected = result.unexpected
    i18n = result.i18n_warnings
    print(f"built {result.pages} pages ({result.language}) into {result.outdir} in "
          f"{result.seconds:.1f} s: {len(result.warnings)} warnings, {len(i18n)} from "
          f"translations, {len(unexpected)} not on the accepted list")
    for line in unexpected:
        print(f"  {line}")
    for blocked in result.blocked:
        print(f"blocked: {blocked.format()}")
    if result.blocked:
        print(f"{len(result.blocked)} translations kept off the site by the security gate "
              "(docs/threat-model.md)")
    if result.notebooks or result.notebook_errors:
        print(f"{result.notebooks} Korean notebooks offered for download"
              + (f"; {len(result.notebook_errors)} refused (see `jaxko notebooks build`)"
                 if result.notebook_errors else ""))
    return 1 if args.strict and (unexpected or i18n or result.blocked) else 0
