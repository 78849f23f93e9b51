"""``jaxko stats``: translation progress per document and section, with assignments."""

from __future__ import annotations

from pathlib import Path

from jaxko.errors import UserError
from jaxko.workflow import sections, stats
from jaxko.workflow.documents import resolve


def register(sub) -> None:
    parser = sub.add_parser(
        "stats", help="translation progress per document and section",
        description="Messages and words translated, fuzzy and untranslated per document and "
                    "section, the three review levels of the translated messages (reviewed "
                    "by a person, AI pass only, not reviewed), with the translator, reviewer "
                    "and status from locale/<lang>/assignments.yaml. With DOC or a filter, "
                    "the totals are those of the documents listed.")
    parser.add_argument("documents", nargs="*", metavar="DOC",
                        help="only these documents (docname, source file or catalog path)")
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
    items = stats.collect(args.locale_dir, args.language, assignments_path=args.assignments)
    docnames = None
    if args.documents:
        by_name = {item.docname: item.document for item in items}
        docnames = {resolve(name, by_name).docname for name in args.documents}
    items = stats.select(items, todo=args.todo, available=args.available, section=section,
                         assignee=args.assignee, sort=args.sort, docnames=docnames)
    listed = [what for what, on in (
        ("the documents named", docnames), ("not fully translated", args.todo and not args.available),
        ("not fully translated and not reserved", args.available),
        (f"section {section.key}" if section else "", section),
        (f"assigned to {args.assignee}", args.assignee)) if on]
    rep = stats.report(items, filtered="; ".join(listed))
    render = {"text": stats.format_text, "json": stats.format_json,
              "markdown": stats.format_markdown}[args.format]
    print(render(rep))
    return 0
