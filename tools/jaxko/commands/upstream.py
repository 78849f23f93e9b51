"""``jaxko upstream sync``: stage the pinned upstream docs into _build/upstream."""

from __future__ import annotations

import json

from jaxko import upstream


def register(sub) -> None:
    parser = sub.add_parser("upstream", help="stage the pinned upstream docs",
                            description="Manage the pinned upstream JAX docs.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sync = actions.add_parser(
        "sync", help="stage docs/ of the pinned tag into _build/upstream/",
        description="Stage the pinned upstream docs into _build/upstream/docs. With no --from, "
                    "uses ../shared/upstream/<tag> when it exists, else clones the tag. "
                    "Refuses a tree whose content hash differs from the pin unless --repin.")
    sync.add_argument("--from", dest="source", metavar="PATH_OR_URL",
                      help="a local JAX tree (with docs/ and CHANGELOG.md) or a git URL")
    sync.add_argument("--repin", action="store_true",
                      help="accept this tree and rewrite upstream.toml (new upstream release)")
    sync.add_argument("--tag", help="with --repin: the new tag to clone and pin")
    sync.add_argument("--format", choices=("text", "json"), default="text")
    sync.set_defaults(func=run_sync)
    bump = actions.add_parser(
        "bump", help="move to a new upstream release: sync --repin, extract, update, report",
        description="Stage a new upstream tree with --repin, extract, update the catalogs "
                    "(nothing is lost), then write _build/bump-report.md and .json: per page "
                    "new / changed (fuzzy) / removed (obsolete) messages, translated % before "
                    "and after, review approvals voided, notebooks whose code changed, "
                    "fuzzy messages whose English changed only trivially, and the "
                    "changelog's new and changed messages: which translation memory fills "
                    "(jaxko tm fill, new version headings and commit links included) and "
                    "which need a translator. The bump itself fills nothing.")
    where = bump.add_mutually_exclusive_group(required=True)
    where.add_argument("--from", dest="source", metavar="PATH",
                       help="a local JAX tree (docs/ and CHANGELOG.md)")
    where.add_argument("--tag", help="clone this tag of the pinned repository")
    bump.add_argument("--accept-trivial", action="store_true",
                      help="re-apply translations whose English changed only in whitespace, "
                           "punctuation or link targets (no fuzzy flag); listed in the report")
    bump.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    bump.set_defaults(func=run_bump)
    show = actions.add_parser("show", help="print the pin", description="Print the pin.")
    show.set_defaults(func=run_show)


def run_sync(args) -> int:
    result = upstream.sync(args.source, repin=args.repin, tag=args.tag)
    if args.format == "json":
        print(json.dumps({"source": result.source, "dest": str(result.dest),
                          "content_hash": result.content_hash, "copied": result.copied,
                          "removed": result.removed, "repinned": result.repinned}))
    else:
        what = "repinned and staged" if result.repinned else "staged"
        print(f"{what} {result.source} -> {result.dest} "
              f"({result.copied} copied, {result.removed} removed, hash {result.content_hash[:12]})")
    return 0


def run_show(args) -> int:
    pin = upstream.read_pin()
    print(f"{pin.repository} {pin.tag} {pin.commit} {pin.content_hash}")
    return 0


def run_bump(args) -> int:
    import sys

    from jaxko import bump

    source = args.source or upstream.read_pin().repository
    report = bump.bump(source, tag=args.tag, accept_trivial=args.accept_trivial,
                       log=lambda stage: print(f"bump: {stage}", file=sys.stderr, flush=True))
    if args.format == "json":
        print(json.dumps(report.as_dict(), ensure_ascii=False))
    elif args.format == "markdown":
        print(report.markdown(), end="")
    else:
        totals = [sum(getattr(p, k) for p in report.pages) for k in ("new", "fuzzy", "obsolete")]
        print(f"bumped to {report.tag}: {len(report.pages)} pages changed, {totals[0]} new, "
              f"{totals[1]} fuzzy, {totals[2]} obsolete messages; "
              f"{len(report.notebooks_changed)} notebooks to verify again; "
              f"{len(report.trivial)} trivial fuzzy"
              + (" re-applied" if report.accepted else "")
              + f"; {report.translations_lost} of {report.translations_before} translations "
              "lost; report: _build/bump-report.md")
        if report.changelog is not None and (report.changelog.new or report.changelog.changed):
            log = report.changelog
            print(f"changelog: {log.new} new, {log.changed} changed; translation memory fills "
                  f"{log.count('filled')}, {log.need_translator} need a translator "
                  f"(jaxko tm fill locale/ko/LC_MESSAGES/{log.page}.po)")
    if report.translations_lost:  # jaxko update keeps every translation: a bug if not
        print(f"error: {report.translations_lost} translations are in no catalog after the "
              "bump; restore locale/ from git and report this", file=sys.stderr)
        return 1
    return 0
