"""``jaxko glossary ACTION``: work with the glossary (glossary/ko.yaml).

Each action is one ``_register_<action>(actions)`` function that adds its parser and
sets ``func``; add a new action by writing one more and listing it in ``ACTIONS``.
"""

from __future__ import annotations

import json
from pathlib import Path


def register(sub) -> None:
    parser = sub.add_parser("glossary", help="validate and maintain the glossary",
                            description="Work with the glossary (default glossary/ko.yaml).")
    actions = parser.add_subparsers(dest="action", metavar="ACTION",
                                    parser_class=type(parser))
    for add_action in ACTIONS:
        add_action(actions)

    def show_help(args) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(func=show_help)


# ---------------------------------------------------------------------------- validate


def _register_validate(actions) -> None:
    parser = actions.add_parser(
        "validate", help="check the glossary file: keys, types, duplicates, conflicts",
        description="Check a glossary file and print every problem as PATH:LINE: message. "
                    "Exit 0 when valid, 2 when not. With --catalogs, also warn (exit 0) of "
                    "a term whose English occurs in at least --min-messages translated "
                    "messages while no catalog uses any of its renderings (a typo in the "
                    "rendering, most often).")
    parser.add_argument("file", nargs="?", type=Path,
                        help="glossary file (default: glossary/ko.yaml)")
    parser.add_argument("--catalogs", action="append", type=Path, metavar="PATH",
                        help="a catalog or folder to compare the renderings with, e.g. "
                             "locale/ko (repeatable)")
    parser.add_argument("--min-messages", type=int, default=5, metavar="N",
                        help="with --catalogs: how many messages make a term frequent "
                             "(default: 5)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(func=run_validate)


def run_validate(args) -> int:
    from jaxko import glossary

    from jaxko.errors import UserError
    from jaxko.workflow import glossary_tools

    path = args.file or glossary.default_path()
    if args.min_messages < 1:
        raise UserError(f"--min-messages {args.min_messages}: give a count of 1 or more")
    for folder in args.catalogs or ():
        if not folder.exists():
            raise UserError("no such catalog or folder; give a .po file or a folder such as "
                            "locale/ko", folder)
    problems = glossary.validate(path)
    unused = []
    if args.catalogs and not problems:
        unused = glossary_tools.unused_renderings(glossary.load(path), args.catalogs,
                                                  min_messages=args.min_messages)
    if args.format == "json":
        terms = 0 if problems else len(glossary.load(path))
        print(json.dumps({"path": str(path), "valid": not problems, "terms": terms,
                          "problems": [{"line": p.line, "message": p.message} for p in problems],
                          "warnings": [{"line": u.term.line, "en": u.term.en,
                                        "renderings": list(u.term.renderings),
                                        "messages": u.messages,
                                        "example": f"{u.example[0]}:{u.example[1]}",
                                        "message": u.format(path).split(": warning: ", 1)[1]}
                                       for u in unused]},
                         ensure_ascii=False))
        return 2 if problems else 0
    for problem in problems:
        print(problem.format())
    if problems:
        print(f"{len(problems)} problem(s) in {path}")
        return 2
    for item in unused:
        print(item.format(path))
    print(f"{path}: {len(glossary.load(path))} terms, valid"
          + (f"; {len(unused)} warning(s)" if unused else ""))
    return 0


# rename, suggest, export: the translators' workflow (jaxko.commands.glossary_workflow).
from jaxko.commands import glossary_workflow  # noqa: E402

ACTIONS = [_register_validate, *glossary_workflow.ACTIONS]
