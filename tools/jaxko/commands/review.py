"""``jaxko review``: the cross-review queue, approvals and rejections (검수)."""

from __future__ import annotations

import json
from pathlib import Path

from jaxko import catalogs
from jaxko.workflow import assignments as assignments_mod
from jaxko.workflow import review
from jaxko.workflow.documents import Document, catalogs_dir_for, docname_of, resolve


def register(sub) -> None:
    parser = sub.add_parser(
        "review", help="cross-review: the queue, approve, reject",
        description="Review records live in locale/<lang>/reviews/<doc>.yaml, keyed by the "
                    "message's text: an edited msgstr or a changed msgid puts the message "
                    "back in the queue by itself. Process: docs/review-guide.md.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def common(p) -> None:
        p.add_argument("--language", "-l", default="ko")
        p.add_argument("--locale-dir", type=Path, help="default: the repository's locale/")

    queue = actions.add_parser("queue", help="messages waiting for review",
                               description="Translated messages never reviewed or changed "
                                           "since their approval, with the word diff against "
                                           "the approved Korean and the previous English.")
    queue.add_argument("documents", nargs="*", metavar="DOC", help="default: every document")
    queue.add_argument("--reviewer", metavar="NAME",
                       help="leave out documents NAME translates (assignments.yaml)")
    queue.add_argument("--format", choices=("text", "json"), default="text")
    common(queue)
    queue.set_defaults(func=run_queue)

    for name, verdict in (("approve", "approved"), ("reject", "rejected")):
        p = actions.add_parser(name, help=f"record that messages are {verdict}",
                               description="Refuses a message with open error findings of "
                                           "`jaxko check` and a reviewer who translated the "
                                           "message (assignments.yaml, git blame) unless "
                                           "--self.")
        p.add_argument("document", metavar="DOC")
        p.add_argument("--message", "-m", action="append", metavar="ID",
                       help="message id from `jaxko review queue` (repeatable)")
        if verdict == "approved":
            p.add_argument("--all-clean", action="store_true",
                           help="every waiting message without error findings")
            p.add_argument("--self", dest="allow_self", action="store_true",
                           help="the translator reviews their own work (recorded as kind self)")
        else:
            p.add_argument("--note", required=True, help="what the translator should fix")
        p.add_argument("--kind", choices=("person", "ai-pass"), default="person",
                       help="ai-pass: an independent second pass by an AI agent, "
                            "named as such on the site (default: person)")
        p.add_argument("--reviewer", required=True, metavar="NAME")
        common(p)
        p.set_defaults(func=run_decide, verdict=verdict)

    voided = actions.add_parser(
        "voided", help="approvals an edit since REV voids (for pull requests)",
        description="Lists approved messages whose msgstr or msgid changed since REV, and "
                    "reviewed/unreviewed counts of every document touched; --format github "
                    "writes workflow annotations and the job summary.")
    voided.add_argument("--since", required=True, metavar="REV", help="e.g. origin/main")
    voided.add_argument("--format", choices=("text", "github", "json"), default="text")
    common(voided)
    voided.set_defaults(func=run_voided)

    start = actions.add_parser(
        "start", help="interactive review in a terminal, one message at a time",
        description="Shows each waiting message of DOC (English, Korean, diff) and asks: "
                    "approve / reject / skip / edit (in $EDITOR) / quit. Needs a terminal; "
                    "elsewhere use queue, approve and reject.")
    start.add_argument("document", metavar="DOC")
    start.add_argument("--reviewer", required=True, metavar="NAME")
    start.add_argument("--self", dest="allow_self", action="store_true")
    start.add_argument("--kind", choices=("person", "ai-pass"), default="person")
    common(start)
    start.set_defaults(func=run_start)

    html = actions.add_parser(
        "html", help="side-by-side review pages (make review-html)",
        description="One static page per translated document: English | Korean | findings "
                    "| review state, with filters that work without a server.")
    html.add_argument("--outdir", type=Path, default=None, help="default: _build/review")
    common(html)
    html.set_defaults(func=run_html)


def _documents(args) -> dict[str, Document]:
    catalogs_dir = catalogs_dir_for(args.locale_dir, args.language)
    found = {}
    for path in catalogs.iter_catalogs([catalogs_dir]):
        docname = docname_of(path, catalogs_dir)
        if docname != "sphinx":
            found[docname] = Document(docname, docname, path)
    return found


def run_queue(args) -> int:
    documents = _documents(args)
    chosen = [resolve(name, documents) for name in args.documents] or \
        [documents[k] for k in sorted(documents)]
    skip: set[str] = set()
    if args.reviewer:
        table = assignments_mod.load(assignments_mod.default_path(args.locale_dir, args.language))
        wanted = args.reviewer.casefold()
        skip = {d.docname for d in chosen
                if (a := table.for_docname(d.docname)) is not None
                and wanted in (n.casefold() for n in a.translators)}
    reviews = review.reviews_dir(args.locale_dir, args.language)
    out: list[dict] = []
    lines: list[str] = []
    for doc in chosen:
        if doc.docname in skip:
            continue
        items = review.items_of(catalogs.load(doc.catalog),
                                review.load_records(review.records_path(reviews, doc.docname)))
        waiting = [i for i in items if i.waiting]
        for item in waiting:
            entry = {"document": doc.docname, "id": item.key, "catalog": str(doc.catalog),
                     "line": item.line, "state": item.state, "msgid": item.msgid,
                     "msgstr": item.msgstr, "previous_msgid": item.previous_msgid,
                     "diff": item.diff}
            if item.record is not None:
                entry["record"] = {"reviewer": item.record.reviewer, "date": item.record.date,
                                   "kind": item.record.kind, "verdict": item.record.verdict,
                                   "note": item.record.note}
            out.append(entry)
            if args.format == "text":
                lines.append(f"{doc.catalog}:{item.line}: {item.key} [{item.state}]")
                if item.previous_msgid is not None:
                    lines.append(f"  was: {item.previous_msgid}")
                lines.append(f"  en:  {item.msgid}")
                lines.append(f"  ko:  {item.msgstr}")
                if item.diff:
                    lines.append(f"  diff since approval: {item.diff}")
                if item.record is not None and item.record.verdict == "rejected":
                    lines.append(f"  rejected by {item.record.reviewer} "
                                 f"({item.record.date}): {item.record.note}")
    if args.format == "json":
        print(json.dumps({"waiting": out, "total": len(out)}, ensure_ascii=False, indent=2))
    else:
        lines.append(f"{len(out)} messages wait for review")
        print("\n".join(lines))
    return 0


def run_decide(args) -> int:
    documents = _documents(args)
    doc = resolve(args.document, documents)
    decision = review.decide(
        doc, review.reviews_dir(args.locale_dir, args.language), reviewer=args.reviewer,
        keys=args.message, all_clean=getattr(args, "all_clean", False), verdict=args.verdict,
        kind=getattr(args, "kind", "person"), allow_self=getattr(args, "allow_self", False),
        note=getattr(args, "note", ""),
        assignments_path=assignments_mod.default_path(args.locale_dir, args.language))
    print(f"{decision.docname}: {len(decision.keys)} messages {decision.verdict} by "
          f"{args.reviewer} ({decision.kind})")
    return 0


def run_voided(args) -> int:
    import os

    documents = _documents(args)
    voided, summary = review.voided_since(args.since, documents,
                                          review.reviews_dir(args.locale_dir, args.language))
    if args.format == "json":
        print(json.dumps({
            "voided": [{"document": v.docname, "catalog": str(v.catalog), "line": v.line,
                        "id": v.key, "msgid": v.msgid, "state": v.state,
                        "reviewer": v.record.reviewer, "kind": v.record.kind,
                        "date": v.record.date} for v in voided],
            "documents": {name: {"translated": c.translated, "reviewed": c.reviewed}
                          for name, c in summary.items()}}, ensure_ascii=False, indent=2))
        return 0
    lines = []
    for v in voided:
        text = (f"edit voids the approval by {v.record.reviewer} ({v.record.kind}, "
                f"{v.record.date}) of message {v.key}; it is back in `jaxko review queue`")
        if args.format == "github":
            lines.append(f"::warning file={v.catalog},line={v.line},title=review voided::{text}")
        else:
            lines.append(f"{v.catalog}:{v.line}: {text}")
    table = ["| 문서 | 번역 | 검수됨 | 검수 안 됨 |", "|---|---:|---:|---:|"]
    for name, c in summary.items():
        table.append(f"| `{name}` | {c.translated} | {c.reviewed} | {c.translated - c.reviewed} |")
    table.append("")
    table.append(f"검수가 무효가 된 메시지: {len(voided)}개")
    if args.format == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as out:
            out.write("\n".join(["### 검수 현황 (jaxko review voided)", "", *table]) + "\n")
    print("\n".join(lines + table))
    return 0


def run_html(args) -> int:
    import os

    from jaxko import paths
    from jaxko.workflow import review_html

    outdir = args.outdir or paths.build_dir() / "review"
    pages = review_html.write_pages(
        _documents(args), review.reviews_dir(args.locale_dir, args.language), outdir,
        github_repo=os.environ.get("JAXKO_GITHUB_REPO") or None, repo_root=paths.repo_root())
    print(f"{len(pages)} review pages in {outdir}; open {outdir / 'index.html'}")
    return 0


def _edit_in_editor(text: str) -> str:
    import os
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        subprocess.run([os.environ.get("EDITOR", "vi"), f.name], check=False)
        return Path(f.name).read_text(encoding="utf-8").rstrip("\n")
    finally:
        os.unlink(f.name)


def run_start(args) -> int:
    import sys

    from jaxko.errors import UserError

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UserError("`jaxko review start` needs a terminal; use `jaxko review queue`, "
                        "`approve` and `reject` in scripts")
    doc = resolve(args.document, _documents(args))
    tally = review.interactive(
        doc, review.reviews_dir(args.locale_dir, args.language), reviewer=args.reviewer,
        ask=input, show=print, edit=_edit_in_editor, kind=args.kind, allow_self=args.allow_self,
        assignments_path=assignments_mod.default_path(args.locale_dir, args.language))
    print(", ".join(f"{n} {k}" for k, n in tally.items()))
    return 0
