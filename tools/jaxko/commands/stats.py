"""``jaxko stats``: translation progress per document and section, with assignments."""

from __future__ import annotations

import sys
from pathlib import Path

from jaxko.errors import UserError
from jaxko.workflow import sections, stats


def register(sub) -> None:
    parser = sub.add_parser(
        "stats", help="translation progress per document and section",
        description="Messages and words translated, fuzzy and untranslated per document and "
                    "section, with the translator, reviewer and status from "
                    "locale/<lang>/assignments.yaml.")
    parser.add_argument("--todo", action="store_true", help="only documents not fully translated")
    parser.add_argument("--available", action="store_true",
                        help="only documents not fully translated that nobody has reserved")
    parser.add_argument("--section", metavar="NAME",
                        help="one section, by key or title: " +
                             ", ".join(s.key for s in sections.all_sections()))
    parser.add_argument("--assignee", metavar="NAME", help="only documents NAME translates or reviews")
    parser.add_argument("--sort", choices=tuple(stats.SORT_KEYS), default="section")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    parser.add_argument("--language", "-l", default="ko")
    parser.add_argument("--locale-dir", type=Path, help="default: the repository's locale/")
    parser.add_argument("--assignments", type=Path, metavar="FILE",
                        help="default: <locale-dir>/<lang>/assignments.yaml")
    parser.set_defaults(func=run)


def run(args) -> int:
    section = None
    if args.section:
        section = sections.find_section(args.section)
        if section is None:
            raise UserError(f"unknown section {args.section!r}; use one of "
                            + ", ".join(s.key for s in sections.all_sections()))
    items = stats.collect(args.locale_dir, args.language, assignments_path=args.assignments,
                          progress=sys.stderr.isatty())
    items = stats.select(items, todo=args.todo, available=args.available, section=section,
                         assignee=args.assignee, sort=args.sort)
    rep = stats.report(items)
    render = {"text": stats.format_text, "json": stats.format_json,
              "markdown": stats.format_markdown}[args.format]
    print(render(rep))
    return 0
