"""``jaxko review``: the cross-review queue, approvals and rejections (검수)."""

from __future__ import annotations

import json
from pathlib import Path

from jaxko import catalogs
from jaxko.workflow import assignments as assignments_mod
from jaxko.workflow import review
from jaxko.workflow.documents import Document, catalogs_dir_for, docname_of, resolve


PERSON_KINDS = tuple(k.value for k in review.Kind if k is not review.Kind.SELF)


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

    def kind(p) -> None:
        p.add_argument("--kind", choices=PERSON_KINDS, default="person",
                       help="who reviews: person (default; the queue holds what no person "
                            "has approved, AI-passed messages included) or ai-pass (an "
                            "independent pass by an AI agent, named as such everywhere)")

    queue = actions.add_parser(
        "queue", help="messages waiting for review",
        description="Translated messages that wait for a reviewer of --kind (default: a "
                    "person): never reviewed, passed by an AI only, changed since an "
                    "approval (with the word diff), rejected, or fuzzy (with the previous "
                    "English). Every record is shown with its history.")
    queue.add_argument("documents", nargs="*", metavar="DOC", help="default: every document")
    queue.add_argument("--reviewer", metavar="NAME",
                       help="leave out documents NAME translates (assignments.yaml)")
    kind(queue)
    queue.add_argument("--state", action="append", choices=review.STATES, metavar="STATE",
                       help="only messages in this state (repeatable): "
                            + ", ".join(review.STATES))
    queue.add_argument("--format", choices=("text", "json"), default="text")
    common(queue)
    queue.set_defaults(func=run_queue)

    for name, verdict in (("approve", review.APPROVED), ("reject", review.REJECTED)):
        p = actions.add_parser(name, help=f"record that messages are {verdict}",
                               description="Refuses a message with open error findings of "
                                           "`jaxko check` and a reviewer who translated the "
                                           "message (assignments.yaml, git blame) unless "
                                           "--self, and a person's record (kind person, "
                                           "self) whose reviewer the git identity is not nor "
                                           "lists in reviewers.yaml (CI's `review voided` "
                                           "would refuse it). A person's record is added "
                                           "beside an AI "
                                           "pass's; a record of the same kind keeps the "
                                           "earlier verdict in its history.")
        p.add_argument("document", metavar="DOC")
        p.add_argument("--message", "-m", action="append", metavar="ID",
                       help="message id from `jaxko review queue` (repeatable)")
        if verdict == review.APPROVED:
            p.add_argument("--all-clean", action="store_true",
                           help="every message waiting for this kind of reviewer, without "
                                "error findings and not rejected")
        else:
            p.add_argument("--note", required=True, help="what the translator should fix")
        p.add_argument("--self", dest="allow_self", action="store_true",
                       help="the translator reviews their own work (recorded as kind self)")
        kind(p)
        p.add_argument("--reviewer", required=True, metavar="NAME")
        common(p)
        p.set_defaults(func=run_decide, verdict=verdict)

    voided = actions.add_parser(
        "voided", help="approvals an edit since REV voids, and records that cannot stand",
        description="Lists approved messages whose msgstr or msgid changed since REV, and "
                    "the three review levels of every document touched; exits 1 on a "
                    "record that cannot stand: a person's record added by someone else "
                    "than its reviewer (locale/<lang>/reviewers.yaml at REV may name who "
                    "else), a record whose msgstr_hash is not the hash of its msgstr, a "
                    "removed record. --format github writes workflow annotations and the "
                    "job summary.")
    voided.add_argument("--since", required=True, metavar="REV", help="e.g. origin/main")
    voided.add_argument("--author", action="append", metavar="NAME",
                        help="who made the change (repeatable; CI passes the pull request's "
                             "GitHub login); default: the git authors of the commits since "
                             "REV that wrote each record")
    voided.add_argument("--format", choices=("text", "github", "json"), default="text")
    common(voided)
    voided.set_defaults(func=run_voided)

    recover = actions.add_parser(
        "recover-history", help="put verdicts git shows were overwritten back into history",
        description="Records written before records kept a history lost a replaced verdict "
                    "(a rejection overwritten by the approval of the fixed text) from the "
                    "file, not from git: this reads every commit that changed a records "
                    "file and restores those verdicts under `history`, changing nothing "
                    "else. A second run restores nothing.")
    recover.add_argument("documents", nargs="*", metavar="DOC", help="default: every document")
    recover.add_argument("--dry-run", action="store_true", help="only say what would be restored")
    common(recover)
    recover.set_defaults(func=run_recover)

    start = actions.add_parser(
        "start", help="interactive review in a terminal, one message at a time",
        description="Shows each message of DOC in the queue of --kind (English, Korean, "
                    "diff, earlier records) and asks: approve / reject / skip / edit (in "
                    "$EDITOR) / quit; both verdicts are recorded with that kind. Needs a "
                    "terminal; elsewhere use queue, approve and reject.")
    start.add_argument("document", metavar="DOC")
    start.add_argument("--reviewer", required=True, metavar="NAME")
    start.add_argument("--self", dest="allow_self", action="store_true")
    kind(start)
    common(start)
    start.set_defaults(func=run_start)

    html = actions.add_parser(
        "html", help="side-by-side review pages (make review-html)",
        description="One static page per translated document: English | Korean | findings "
                    "| review records, opened on the person's queue (AI passes marked), "
                    "with filters that work without a server.")
    html.add_argument("--outdir", type=Path, default=None, help="default: _build/review")
    common(html)
    html.set_defaults(func=run_html)

    serve = actions.add_parser(
        "serve", help="review in the browser: a local web app over the person's queue (make review)",
        description="Starts a web app on 127.0.0.1 (a free port unless --port; the URL is "
                    "printed and opened in a browser when one is available): the documents "
                    "with their messages waiting for a person, then a document's queue, "
                    "English and Korean side by side with findings, records and history. "
                    "Approve (a), reject with a note (r) and edit (e) write what `jaxko "
                    "review approve/reject --kind person` and a hand edit + `jaxko fmt` "
                    "write; a file changed on disk since the page showed it is never "
                    "overwritten. Ctrl-C stops it. Guide: docs/review-guide.md.")
    serve.add_argument("documents", nargs="*", metavar="DOC", help="default: every document")
    serve.add_argument("--reviewer", metavar="NAME",
                       help="who reviews (default: `git config user.name`); refused on "
                            "messages NAME translated")
    serve.add_argument("--port", type=int, default=0, help="default: 0, a free port")
    serve.add_argument("--no-browser", action="store_true", help="only print the URL")
    serve.add_argument("--verbose", action="store_true", help="log every request")
    common(serve)
    serve.set_defaults(func=run_serve)


def _documents(args) -> dict[str, Document]:
    catalogs_dir = catalogs_dir_for(args.locale_dir, args.language)
    found = {}
    for path in catalogs.iter_catalogs([catalogs_dir]):
        docname = docname_of(path, catalogs_dir)
        if docname != "sphinx":
            found[docname] = Document(docname, docname, path)
    return found


def _record_dict(item: review.Item, record: review.Record) -> dict:
    return {"kind": record.kind.value, "kind_label": record.kind.label,
            "reviewer": record.reviewer, "date": record.date, "verdict": record.verdict,
            "note": record.note, "current": item.is_current(record),
            "history": [{"reviewer": p.reviewer, "date": p.date, "verdict": p.verdict,
                         "note": p.note, "msgstr": p.msgstr} for p in record.history]}


def run_queue(args) -> int:
    documents = _documents(args)
    chosen = [resolve(name, documents) for name in args.documents] or \
        [documents[k] for k in sorted(documents)]
    kind = review.Kind(args.kind)
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
    states: dict[str, int] = {}
    for doc in chosen:
        if doc.docname in skip:
            continue
        items = review.read_items(doc.catalog,
                                  review.load_records(review.records_path(reviews, doc.docname)))
        for item in items:
            state = item.state(kind)
            if not item.waiting_for(kind) or (args.state and state not in args.state):
                continue
            states[state] = states.get(state, 0) + 1
            out.append({"document": doc.docname, "id": item.key, "catalog": str(doc.catalog),
                        "line": item.line, "state": state, "level": item.level.key,
                        "msgid": item.msgid, "msgstr": item.msgstr,
                        "previous_msgid": item.previous_msgid, "diff": item.diff,
                        "records": [_record_dict(item, r) for r in item.records.values()]})
            if args.format == "text":
                lines.append(f"{doc.catalog}:{item.line}: {item.key} [{state}] "
                             f"({item.level.label_en})")
                lines.extend(review.describe(item))
    who = "an AI pass" if kind is review.Kind.AI_PASS else "a person's review"
    if args.format == "json":
        print(json.dumps({"kind": kind.value, "waiting": out, "total": len(out),
                          "states": states}, ensure_ascii=False, indent=2))
    else:
        detail = ", ".join(f"{n} {s}" for s, n in sorted(states.items()))
        lines.append(f"{len(out)} messages wait for {who}" + (f" ({detail})" if detail else ""))
        print("\n".join(lines))
    return 0


def run_decide(args) -> int:
    documents = _documents(args)
    doc = resolve(args.document, documents)
    decision = review.decide(
        doc, review.reviews_dir(args.locale_dir, args.language), reviewer=args.reviewer,
        keys=args.message, all_clean=getattr(args, "all_clean", False), verdict=args.verdict,
        kind=args.kind, allow_self=args.allow_self, note=getattr(args, "note", ""),
        assignments_path=assignments_mod.default_path(args.locale_dir, args.language))
    import sys

    for warning in decision.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"{decision.docname}: {len(decision.keys)} messages {decision.verdict} by "
          f"{args.reviewer} ({decision.kind.value}: {decision.kind.label})")
    return 0


def _escape(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if prop else value


def run_voided(args) -> int:
    import os

    from jaxko.workflow import review_audit

    levels = list(reversed(review.Level))
    documents = _documents(args)
    result = review_audit.audit(args.since, documents,
                                review.reviews_dir(args.locale_dir, args.language),
                                authors=args.author,
                                assignments_path=assignments_mod.default_path(args.locale_dir,
                                                                              args.language))
    if args.format == "json":
        print(json.dumps({
            "voided": [{"document": v.docname, "catalog": str(v.catalog), "line": v.line,
                        "id": v.key, "msgid": v.msgid, "state": v.state,
                        "reviewer": v.record.reviewer, "kind": v.record.kind.value,
                        "date": v.record.date} for v in result.voided],
            "forged": [{"path": str(f.path), "line": f.line, "id": f.key, "kind": f.kind.value,
                        "reviewer": f.reviewer, "reason": f.reason} for f in result.forged],
            "documents": {name: c.as_dict() for name, c in result.summary.items()}},
            ensure_ascii=False, indent=2))
        return result.exit_code
    lines = []
    for v in result.voided:
        text = (f"edit voids the approval by {v.record.reviewer} ({v.record.kind.value}, "
                f"{v.record.date}) of message {v.key}; it is back in `jaxko review queue`")
        if args.format == "github":
            lines.append(f"::warning file={_escape(str(v.catalog), True)},line={v.line},"
                         f"title=review voided::{_escape(text)}")
        else:
            lines.append(f"{v.catalog}:{v.line}: {text}")
    for f in result.forged:
        if args.format == "github":
            lines.append(f"::error file={_escape(str(f.path), True)},line={f.line},"
                         f"title=review record cannot stand::{_escape(f.reason)}")
        else:
            lines.append(f"{f.path}:{f.line}: {f.reason}")
    table = ["| 문서 | 번역 | " + " | ".join(level.label for level in levels) + " |",
             "|---|---:|" + "---:|" * len(levels)]
    for name, c in result.summary.items():
        table.append(f"| `{name}` | {c.translated} | "
                     + " | ".join(str(c.count(level)) for level in levels) + " |")
    table.append("")
    table.append(f"검수가 무효가 된 메시지: {len(result.voided)}개")
    if result.forged:
        table.append(f"인정할 수 없는 검수 기록: {len(result.forged)}개 (docs/review-guide.md)")
    if args.format == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as out:
            out.write("\n".join(["### 검수 현황 (jaxko review voided)", "", *table]) + "\n")
    print("\n".join(lines + table))
    return result.exit_code


def run_recover(args) -> int:
    from jaxko.workflow import review_audit

    documents = _documents(args)
    chosen = [resolve(name, documents) for name in args.documents] or \
        [documents[k] for k in sorted(documents)]
    reviews = review.reviews_dir(args.locale_dir, args.language)
    total = 0
    for doc in chosen:
        path = review.records_path(reviews, doc.docname)
        if not path.is_file():
            continue
        records, count = review_audit.recover_history(path)
        if count:
            total += count
            print(f"{path}: {count} earlier verdicts restored to history")
            if not args.dry_run:
                review.save_records(path, records)
    print(f"{total} earlier verdicts {'would be ' if args.dry_run else ''}restored")
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
        ask=input, show=print, edit=_edit_in_editor, kind=review.Kind(args.kind),
        allow_self=args.allow_self,
        assignments_path=assignments_mod.default_path(args.locale_dir, args.language))
    print(", ".join(f"{n} {k}" for k, n in tally.items()))
    return 0


def run_serve(args) -> int:
    import sys
    import urllib.parse

    from jaxko import paths
    from jaxko.errors import UserError
    from jaxko.workflow import review_serve

    documents = _documents(args)
    if args.documents:
        documents = {d.docname: d for d in (resolve(n, documents) for n in args.documents)}
    if not documents:
        raise UserError("no catalogs to review; run `jaxko update` first",
                        catalogs_dir_for(args.locale_dir, args.language))
    if not 0 <= args.port <= 65535:
        raise UserError(f"--port {args.port} is not a port; give 0 (a free one) to 65535")
    reviewer = args.reviewer if args.reviewer is not None else \
        review.git_user_name(args.locale_dir if args.locale_dir else paths.repo_root())
    if not reviewer.strip():
        raise UserError("no reviewer: pass --reviewer NAME or set `git config user.name`")
    from jaxko.workflow import reviewers

    reviews = review.reviews_dir(args.locale_dir, args.language)
    for warning in reviewers.approval_identity(           # refused here, before the app starts
            reviewer, next(iter(documents.values())).catalog.parent,
            reviews.parent / reviewers.ALLOWLIST_NAME):
        print(f"warning: {warning}", file=sys.stderr)
    app = review_serve.ReviewApp(
        documents, review.reviews_dir(args.locale_dir, args.language), reviewer=reviewer,
        assignments_path=assignments_mod.default_path(args.locale_dir, args.language))
    server = review_serve.make_server(app, args.port, verbose=args.verbose)
    url = server.url
    if len(documents) == 1:
        url += "doc/" + urllib.parse.quote(next(iter(documents)))
    print(f"jaxko review serve: {url} (reviewer {reviewer}; Ctrl-C stops)", flush=True)
    if not args.no_browser and review_serve.can_open_browser():
        import webbrowser
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0
