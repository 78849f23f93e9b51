"""``jaxko notebooks``: build the Korean notebooks, list them, verify them on real JAX."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from jaxko import paths, scope
from jaxko.notebooks import shards


class _Renamed(argparse.Action):
    """The old --no-static-check: refused, naming the flag that replaced it."""

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f"{option_string} was renamed --allow-unchecked-code: translated code "
                     "that differs from upstream is untrusted, so say so explicitly; such "
                     "notebooks are reported as 'unchecked'")


def register(sub) -> None:
    parser = sub.add_parser(
        "notebooks", help="build Korean notebooks and run them on real JAX",
        description="Korean notebooks (.ipynb, plus MyST .md for MyST sources) generated "
                    "from the upstream notebooks and the catalogs, and verified by "
                    "executing them with nbmake.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION",
                                    parser_class=type(parser))
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])

    p = actions.add_parser(
        "build", help="write the Korean notebooks into _build/notebooks/ko",
        description="Apply every translated (non-fuzzy) message to the upstream notebooks "
                    "and write them under _build/notebooks/ko/ with the same relative "
                    "paths. Translated code must equal upstream apart from comments and "
                    "string contents, and no changed string may be passed to a file, OS, "
                    "import or eval API; a notebook that fails this check is not written "
                    "(exit 1). Exit 0 otherwise; unplaced messages are warnings.")
    p.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                   help="only these (paths or docnames relative to the docs, globs allowed)")
    p.add_argument("--locale-dir", type=Path, help="the locale folder (default: locale/)")
    p.add_argument("--language", "-l", default="ko")
    p.add_argument("--out-dir", type=Path, help="default: _build/notebooks/<language>")
    p.add_argument("--srcdir", type=Path, help="upstream docs (default: _build/upstream/docs)")
    p.add_argument("--allow-unchecked-code", action="store_true",
                   help="write notebooks whose translated code differs from upstream (as "
                        "warnings); such code is untrusted: see docs/threat-model.md")
    p.add_argument("--no-static-check", action=_Renamed, nargs=0, help=argparse.SUPPRESS)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run_build)

    p = actions.add_parser(
        "verify", help="execute the Korean notebooks with nbmake (in parallel, cached)",
        description="Execute the Korean notebooks on real JAX with nbmake and pytest-xdist. "
                    "Each kernel runs in a sandbox (audit hooks: no writes outside the "
                    "notebook's own folder, no processes, no network; per-notebook exemptions "
                    "for upstream's own commands). "
                    "Notebooks excluded from execution are reported as skipped with their "
                    "reason; cells tagged raises-exception may raise. A notebook whose code "
                    "cells, environment and options match a recorded pass is not run again. "
                    "Writes _build/notebooks/report.json and junit.xml; exit 1 if any fails.")
    p.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                   help="only these (paths or docnames relative to the docs, globs allowed)")
    p.add_argument("--platform", choices=("cpu", "gpu"), default="cpu",
                   help="cpu: JAX_PLATFORMS=cpu; gpu: needs a GPU visible to JAX "
                        "(jax[cuda12]); also runs notebooks excluded only for needing a GPU")
    p.add_argument("--workers", "-n", default="auto",
                   help="parallel notebooks (default: auto, one per CPU core)")
    p.add_argument("--timeout", type=int, default=600, help="seconds per cell (default 600)")
    p.add_argument("--force", action="store_true", help="run every notebook, ignoring the cache")
    p.add_argument("--interpret", choices=("auto", "off"), default="auto",
                   help="auto (default): on CPU, run the Pallas pages listed in "
                        "jaxko/scope.py (INTERPRETED) with Pallas's interpreter switched on in "
                        "their kernel (the notebooks are not changed); reported as 'passed "
                        "(interpret mode)', mode \"interpret\", never as a hardware run. off: "
                        "skip them, as without an accelerator. No effect with --platform gpu")
    p.add_argument("--allow-unchecked-code", action="store_true",
                   help="run translated code without comparing it with upstream first; "
                        "such notebooks are reported as 'unchecked', never 'passed' "
                        "(see docs/threat-model.md)")
    p.add_argument("--no-static-check", action=_Renamed, nargs=0, help=argparse.SUPPRESS)
    p.add_argument("--shard", metavar="I/N",
                   help="run only shard I of N (a deterministic share, balanced by "
                        "--durations or by size); merge the reports with `report merge`")
    p.add_argument("--durations", type=Path, metavar="REPORT",
                   help="a previous report.json whose seconds balance the shards (give every "
                        "shard the same file)")
    p.add_argument("--notebooks-dir", type=Path, help="default: _build/notebooks/ko")
    p.add_argument("--srcdir", type=Path, help="upstream docs (default: _build/upstream/docs)")
    p.add_argument("--report", type=Path, help="default: _build/notebooks/report.json")
    p.add_argument("--junit-xml", type=Path, help="default: _build/notebooks/junit.xml")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run_verify)

    p = actions.add_parser(
        "report", help="merge the reports of sharded verify runs",
        description="`jaxko notebooks report merge REPORT...`: one report.json, JUnit XML and "
                    "table from the report.json of each `verify --shard I/N` run, as an "
                    "unsharded run writes them. The executed notebooks of each shard "
                    "(executed/ beside its report) are combined into "
                    "_build/notebooks/executed/ and the passes recorded in the verify cache, "
                    "so the site build uses them without running them again. Exit 2 if a "
                    "notebook is in no report or in two; exit 1 if any failed.")
    p.add_argument("report_action", choices=("merge",), metavar="merge")
    p.add_argument("reports", nargs="+", type=Path, metavar="REPORT")
    p.add_argument("--report", type=Path, help="default: _build/notebooks/report.json")
    p.add_argument("--junit-xml", type=Path, help="default: _build/notebooks/junit.xml")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run_report_merge)

    p = actions.add_parser(
        "list", help="the notebooks in scope, and which are executed",
        description="Every notebook Sphinx builds, its format, and whether verify executes it.")
    p.add_argument("--srcdir", type=Path, help="upstream docs (default: _build/upstream/docs)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run_list)


def run_build(args) -> int:
    from jaxko.notebooks import build

    summary = build.build(srcdir=args.srcdir, locale_dir=args.locale_dir,
                          out_dir=args.out_dir, language=args.language,
                          static_check=not args.allow_unchecked_code,
                          only=args.notebooks or None, progress=sys.stderr.isatty())
    if args.format == "json":
        print(json.dumps(summary.as_dict(), ensure_ascii=False))
    else:
        for nb in summary.notebooks:
            state = "written" if nb.written else "NOT WRITTEN"
            print(f"{nb.rel}: {nb.applied}/{nb.translated} translated messages applied, "
                  f"{nb.code_cells} code cells translated; {state}")
        for finding in summary.warnings:
            print(f"warning: {finding.format()}", file=sys.stderr)
        for finding in summary.errors:
            print(f"error: {finding.format()}", file=sys.stderr)
        data = summary.as_dict()
        written = sum(1 for nb in summary.notebooks if nb.written)
        print(f"{written}/{len(summary.notebooks)} notebooks written to "
              f"{_shown(summary.out_dir)}: {data['applied']}/{data['translated']} translated "
              f"messages applied, {data['warnings']} warnings, {data['errors']} errors")
    return 1 if summary.errors else 0


def run_verify(args) -> int:
    from jaxko.notebooks import verify

    log = (lambda line: print(line, file=sys.stderr)) if args.format == "text" else None
    report = verify.verify(srcdir=args.srcdir, notebooks_dir=args.notebooks_dir,
                           platform=args.platform, workers=args.workers, timeout=args.timeout,
                           static_check=not args.allow_unchecked_code, force=args.force,
                           only=args.notebooks or None, progress=sys.stderr.isatty(), log=log,
                           shard=shards.Shard.parse(args.shard) if args.shard else None,
                           durations=args.durations, interpret=args.interpret == "auto")
    return _write_report(report, args)


def run_report_merge(args) -> int:
    from jaxko.notebooks import merge

    report = merge.merge(args.reports)
    return _write_report(report, args)


def _write_report(report, args) -> int:
    """report.json, JUnit XML and the table (or JSON) of a verify run or a merge."""
    from jaxko.notebooks import verify

    out = paths.build_dir() / "notebooks"
    verify.write_json(report, args.report or out / "report.json")
    verify.write_junit(report, args.junit_xml or out / "junit.xml")
    if args.format == "json":
        print(json.dumps(report.as_dict(), ensure_ascii=False))
    else:
        print(verify.format_table(report))
    return 1 if report.failed else 0


def run_list(args) -> int:
    from jaxko.notebooks import sources

    found = sources.find_notebooks(args.srcdir or paths.staged_docs())
    rows = [{"notebook": s.rel, "format": s.kind,
             "executed": scope.execution_excluded(s.rel) is None,
             "interpreted": scope.interpretation(s.rel) is not None,
             "reason": scope.execution_excluded(s.rel) or "",
             "requires": list(getattr(scope.requirement(s.rel), "modules", ())),
             "known_errors": [entry.as_dict() for entry in scope.known_errors(s.rel)]}
            for s in found]
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    width = max((len(r["notebook"]) for r in rows), default=0)
    for r in rows:
        state = "executed" if r["executed"] else \
            "executed in interpret mode on CPU (Pallas's interpreter)" if r["interpreted"] \
            else f"skipped: {r['reason']}"
        if r["executed"] and r["requires"]:
            state += f" when the kernel's Python imports {', '.join(r['requires'])} (notebook-extras)"
        if r["executed"] and r["known_errors"]:
            state += f"; {len(r['known_errors'])} known upstream error(s) declared"
        print(f"{r['notebook'].ljust(width)}  {r['format']:5}  {state}")
    executed = sum(r["executed"] for r in rows)
    interpreted = sum(r["interpreted"] and not r["executed"] for r in rows)
    print(f"{len(rows)} notebooks, {executed} executed, {interpreted} in interpret mode on CPU, "
          f"{len(rows) - executed - interpreted} skipped")
    return 0


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(paths.repo_root()).as_posix()
    except ValueError:
        return str(path)
