"""``jaxko site build`` (the Korean docs site into _build/html, make html) and
``jaxko site audit`` (every translated message shows on its page)."""

from __future__ import annotations

from pathlib import Path

import json

from jaxko import paths
from jaxko.errors import UserError
from jaxko.site import audit as site_audit
from jaxko.site.state import BuildState
from jaxko.site import build as site_build


def register(sub) -> None:
    parser = sub.add_parser("site", help="build the Korean docs site",
                            description="Build the Korean JAX docs site.")
    actions = parser.add_subparsers(dest="site_command", metavar="ACTION")
    b = actions.add_parser(
        "build", help="build the site into _build/html (make html)",
        description="Run sphinx-build -b html -D language=ko over the staged upstream with "
                    "locale/ (no network). Notebook pages show the outputs of the Korean "
                    "notebooks, executed by `jaxko notebooks verify` (only those whose code "
                    "changed). Then the applied-translation audit (`jaxko site audit`) runs "
                    "and prints its summary. Progress goes to stderr.")
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
    b.add_argument("--jobs", "-j", default=None,
                   help="Sphinx worker processes, a number or auto (default: auto for a "
                        "first build, which reads every page; 1 for a rebuild, which reads "
                        "a few and where starting workers costs more than they save)")
    b.add_argument("--strict", action="store_true",
                   help="exit 1 on i18n warnings, warnings not on the accepted list, "
                        "audit findings, or translations the security gate kept off the site")
    b.set_defaults(func=run_build)
    a = actions.add_parser(
        "audit", help="check that every translated message shows on its page",
        description="After a build: every translated, non-fuzzy message of each page's "
                    "catalog must be visible in the page, and a page whose catalog is complete "
                    "must have no English-only heading, paragraph, list item or table cell. "
                    "Each miss is reported as catalog:line, msgid and why. Exit 1 on any.")
    a.add_argument("outdir", nargs="?", type=Path, default=None,
                   help="built site (default _build/html)")
    a.add_argument("--locale-dir", type=Path, help="catalogs (default locale/)")
    a.add_argument("--srcdir", type=Path,
                   help="docs tree, to tell reST pages from MyST (default _build/upstream/docs)")
    a.add_argument("--language", "-l", default="ko")
    a.add_argument("--format", choices=("text", "json"), default="text")
    a.set_defaults(func=run_audit)
    parser.set_defaults(func=lambda args: parser.print_help() or 2)


def run_build(args) -> int:
    result = site_build.build(execute=not args.no_execute, language=args.language,
                              scope=args.scope, srcdir=args.srcdir, outdir=args.outdir,
                              locale_dir=args.locale_dir, glossary=args.glossary,
                              assignments=args.assignments, jobs=args.jobs,
                              notebooks=not args.no_notebooks, progress=True,
                              strict=args.strict)
    if result.stopped:
        for blocked in result.blocked:
            print(f"blocked: {blocked.format()}")
        print(f"{len(result.blocked)} translations refused by the security gate; --strict "
              "stops before Sphinx reads anything (docs/threat-model.md)")
        return 1
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
    audited = None
    if result.language != "en":
        audited = site_audit.audit(result.outdir, (args.locale_dir or paths.locale_dir()).resolve(),
                                   result.language, srcdir=args.srcdir or paths.staged_docs(),
                                   cache=BuildState(result.outdir).file("audit"))
        print(audited.summary() + (" (see `jaxko site audit`)" if audited.findings else ""))
        for finding in audited.findings[:20]:
            print(f"  {finding.format()}")
    failed = bool(unexpected or i18n or result.blocked or (audited and audited.findings))
    return 1 if args.strict and failed else 0


def run_audit(args) -> int:
    outdir = (args.outdir or paths.build_dir() / "html").resolve()
    if not outdir.is_dir():
        raise UserError("no built site here; run `jaxko site build` first", outdir)
    result = site_audit.audit(outdir, (args.locale_dir or paths.locale_dir()).resolve(),
                              args.language, srcdir=args.srcdir or paths.staged_docs())
    if args.format == "json":
        print(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
    else:
        for finding in result.findings:
            print(finding.format())
        print(result.summary())
    return 1 if result.findings else 0
