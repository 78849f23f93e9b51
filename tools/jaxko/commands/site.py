"""``jaxko site build`` (the Korean docs site into _build/html, make html), ``jaxko site
watch`` (the same build again after every edit) and ``jaxko site audit`` (every
translated message shows on its page)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from jaxko import paths
from jaxko.errors import UserError
from jaxko.site.state import BuildState

# The build's modules are imported when a command runs, not when the parser is made:
# `jaxko site build` starts Sphinx's process first (jaxko.site.early_sphinx), and the
# imports of the audit and the gate overlap its own.


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
                    "and prints its summary. Progress goes to stderr.",
        parents=[_build_options()])
    b.set_defaults(func=run_build)
    w = actions.add_parser(
        "watch", parents=[_build_options()],
        help="build the site, then again whenever a catalog, review record, assignment "
             "or the glossary changes",
        description="Build the site as `jaxko site build` does, then watch the locale "
                    "folder and the glossary and build again after every change, printing "
                    "the same summary each time. Sphinx runs in forks of one warm process, "
                    "so a rebuild does not pay for importing Sphinx and its extensions "
                    "again. A broken input is reported and the watcher waits for the fix. "
                    "Ctrl-C stops.")
    w.add_argument("--builds", type=int, default=None, metavar="N",
                   help="stop after N builds (default: run until Ctrl-C)")
    w.set_defaults(func=run_watch)
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


def _build_options() -> argparse.ArgumentParser:
    """The options `site build` and `site watch` share."""
    b = argparse.ArgumentParser(add_help=False)
    b.add_argument("--no-execute", action="store_true",
                   help="execute no notebook (fast; for development): notebook pages show the "
                        "outputs of the last Korean run, where there is one, else the "
                        "stored ones. The settings are those of a build that executes, so "
                        "switching between the two reads again only what changed")
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
                   help="Sphinx's -j, a number or auto (default: one more than the cores "
                        "for a first build, which reads every page: Sphinx reads and "
                        "writes in N - 1 workers while its main process hands out the "
                        "work; 1 for a rebuild, which reads a few and where starting "
                        "workers costs more than they save)")
    b.add_argument("--strict", action="store_true",
                   help="exit 1 on i18n warnings, warnings not on the accepted list, "
                        "`jaxko check` errors in the catalogs, audit findings, or "
                        "translations the security gate kept off the site")
    return b


def run_build(args, sphinx=None) -> int:
    from jaxko.site import build as site_build

    result = site_build.build(execute=not args.no_execute, language=args.language,
                              scope=args.scope, srcdir=args.srcdir, outdir=args.outdir,
                              locale_dir=args.locale_dir, glossary=args.glossary,
                              assignments=args.assignments, jobs=args.jobs,
                              notebooks=not args.no_notebooks, progress=True,
                              strict=args.strict, sphinx=sphinx)
    if result.stopped:
        for blocked in result.blocked:
            print(f"blocked: {blocked.format()}")
        print(f"{len(result.blocked)} translations refused by the security gate; --strict "
              "stops before Sphinx reads anything (docs/threat-model.md)")
        return 1
    unexpected = result.unexpected
    i18n = result.i18n_warnings
    kept = (f" ({result.kept_warnings} kept from pages this build did not read again)"
            if result.kept_warnings else "")
    print(f"built {result.pages} pages ({result.language}) into {result.outdir} in "
          f"{result.seconds:.1f} s: {len(result.warnings)} warnings{kept}, {len(i18n)} from "
          f"translations, {len(unexpected)} not on the accepted list")
    if result.warnings:
        listed = BuildState(result.outdir).folder / "warnings.txt"
        print(f"  all warnings: {site_build.shown_path(listed)}; the accepted ones and why: "
              "docs/build-warnings.md")
    for line in unexpected:
        print(f"  {line}")
        for location in result.translated_at.get(line, []):
            print(f"    from the translated message at {location}")
    if result.missing:
        print(f"{len(result.missing)} pages lack files the staged upstream does not have "
              "(each shows a placeholder linking to upstream's page):")
        for page, files in result.missing.items():
            print(f"  {page}: " + ", ".join(files))
    if result.check_errors or result.check_warnings:
        print(f"jaxko check: {len(result.check_errors)} errors, {result.check_warnings} "
              "warnings in the catalogs" + (" (see `jaxko check`)" if result.check_warnings else ""))
        for finding in result.check_errors:
            print(f"  {site_build.shown_path(Path(finding.path))}:{finding.line}: "
                  f"{finding.rule}: {finding.message}")
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
        from jaxko.site import audit as site_audit

        audited = site_audit.audit(result.outdir, (args.locale_dir or paths.locale_dir()).resolve(),
                                   result.language, srcdir=args.srcdir or paths.staged_docs(),
                                   cache=BuildState(result.outdir).file("audit"))
        print(audited.summary() + (" (see `jaxko site audit`)" if audited.findings else ""))
        for finding in audited.findings[:20]:
            print(f"  {finding.format()}")
    failed = bool(unexpected or i18n or result.blocked or result.check_errors
                  or (audited and audited.findings))
    return 1 if args.strict and failed else 0


def run_watch(args) -> int:
    from jaxko.site import watch as site_watch

    # Sphinx runs in forks of this process, not in a process of its own: start over
    # with the hash seed a sphinx-build process gets (jaxko.extract.sphinx_env), so
    # the pages are the bytes `jaxko site build` writes.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, "-m", "jaxko", *sys.argv[1:]],
                  {**os.environ, "PYTHONHASHSEED": "0"})
    locale_dir = (args.locale_dir or paths.locale_dir()).resolve()
    glossary = (args.glossary or paths.repo_root() / "glossary" / "ko.yaml").resolve()
    inputs = [locale_dir, glossary] + ([args.assignments.resolve()] if args.assignments else [])

    def build_once(sphinx) -> None:
        run_build(args, sphinx=sphinx)
        sys.stdout.flush()

    return site_watch.watch(build_once, inputs, builds=args.builds,
                            say=lambda line: print(line, flush=True))


def run_audit(args) -> int:
    outdir = (args.outdir or paths.build_dir() / "html").resolve()
    if not outdir.is_dir():
        raise UserError("no built site here; run `jaxko site build` first", outdir)
    from jaxko.site import audit as site_audit

    result = site_audit.audit(outdir, (args.locale_dir or paths.locale_dir()).resolve(),
                              args.language, srcdir=args.srcdir or paths.staged_docs())
    if args.format == "json":
        print(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
    else:
        for finding in result.findings:
            print(finding.format())
        print(result.summary())
    return 1 if result.findings else 0
