"""``jaxko assign``: reserve a document, credit a reviewer, move its status, release it."""

from __future__ import annotations

import json
from pathlib import Path

from jaxko.errors import UserError
from jaxko.workflow import assignments, documents


def register(sub) -> None:
    parser = sub.add_parser(
        "assign", help="reserve documents and record translators, reviewers and status",
        description="Edit locale/<lang>/assignments.yaml. Without options, show the "
                    "document's assignment. Statuses: " + ", ".join(assignments.STATUSES) + ".")
    parser.add_argument("document", nargs="?", metavar="DOC",
                        help="docname, source file or catalog, e.g. notebooks/thinking_in_jax")
    parser.add_argument("--translator", "-t", action="append", default=[], metavar="NAME",
                        help="translator (repeat for co-translators)")
    parser.add_argument("--reviewer", "-r", action="append", default=[], metavar="NAME",
                        help="reviewer (repeat for several)")
    parser.add_argument("--status", "-s", metavar="STATUS",
                        help="one of " + ", ".join(assignments.STATUSES))
    parser.add_argument("--note", help="free text kept with the assignment")
    parser.add_argument("--release", action="store_true", help="remove the document's assignment")
    parser.add_argument("--force", action="store_true",
                        help="take over a document someone else holds")
    parser.add_argument("--check", action="store_true",
                        help="validate the assignments file; exit 2 listing every problem")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--language", "-l", default="ko")
    parser.add_argument("--locale-dir", type=Path, help="default: the repository's locale/")
    parser.add_argument("--assignments", type=Path, metavar="FILE",
                        help="default: <locale-dir>/<lang>/assignments.yaml")
    parser.set_defaults(func=run)


def _describe(entry: assignments.Assignment | None) -> str:
    if entry is None:
        return "unassigned"
    parts = [f"status {entry.status}"]
    if entry.translators:
        parts.append("translator " + ", ".join(entry.translators))
    if entry.reviewers:
        parts.append("reviewer " + ", ".join(entry.reviewers))
    if entry.since:
        parts.append(f"since {entry.since}")
    return "; ".join(parts)


def run(args) -> int:
    catalogs_dir = documents.catalogs_dir_for(args.locale_dir, args.language)
    known = {doc.docname: doc for doc, _ in documents.scan_documents(catalogs_dir)}
    path = args.assignments or assignments.default_path(args.locale_dir, args.language)
    if args.check:
        table, problems = assignments.parse(path, known)
        if args.format == "json":
            print(json.dumps({"file": str(path), "documents": len(table.entries),
                              "problems": [{"path": str(p.path), "line": p.line,
                                            "message": p.message} for p in problems]},
                             ensure_ascii=False))
        else:
            for problem in problems:
                print(problem.format())
            if not problems:
                print(f"{path}: {len(table.entries)} assignments, no problems")
        return 2 if problems else 0
    if not args.document:
        raise UserError("name a document (or use --check); see `jaxko assign --help`")
    table = assignments.load(path, known)
    document = documents.resolve(args.document, known)
    editing = args.translator or args.reviewer or args.status or args.release or args.note is not None
    if not editing:
        entry = table.for_docname(document.docname)
        if args.format == "json":
            print(json.dumps({"document": document.docname, "source": document.source,
                              "assignment": entry.as_dict() if entry else None},
                             ensure_ascii=False))
        else:
            print(f"{document.source}: {_describe(entry)}")
        return 0
    change = assignments.assign(table, document, translators=tuple(args.translator),
                                reviewers=tuple(args.reviewer), status=args.status,
                                note=args.note, release=args.release, force=args.force)
    changed = assignments.save(table)
    if args.format == "json":
        print(json.dumps({"document": change.document, "changed": changed,
                          "before": change.before.as_dict() if change.before else None,
                          "after": change.after.as_dict() if change.after else None},
                         ensure_ascii=False))
    else:
        print(f"{change.document}: {_describe(change.before)} -> {_describe(change.after)}"
              + ("" if changed else " (no change)"))
    return 0
