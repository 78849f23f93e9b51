"""``jaxko update``: merge the .pot files into locale/ko, never losing a translation."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from jaxko import update


def register(sub) -> None:
    parser = sub.add_parser("update", help="update locale/ko catalogs from the .pot files",
                            description="Create or update locale/<lang>/LC_MESSAGES/**.po from "
                                        "_build/gettext/**.pot. Changed messages keep their old "
                                        "translation as fuzzy with the previous msgid; removed "
                                        "ones become obsolete (#~).")
    parser.add_argument("--language", "-l", default="ko")
    parser.add_argument("--pot-dir", type=Path)
    parser.add_argument("--locale-dir", type=Path)
    parser.add_argument("--srcdir", type=Path,
                        help="the docs tree the .pot files came from (default: the staged upstream); "
                             "locations are written relative to it")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(func=run)


def run(args) -> int:
    summary = update.update(pot_dir=args.pot_dir, locale_dir=args.locale_dir,
                            language=args.language, srcdir=args.srcdir, progress=sys.stderr.isatty())
    data = summary.as_dict()
    if args.format == "json":
        print(json.dumps(data, ensure_ascii=False))
        return 0
    print(f"{data['catalogs']} catalogs ({data['created']} created, {data['changed']} changed), "
          f"{data['entries']} entries: {data['new']} new, {data['now_fuzzy']} now fuzzy, "
          f"{data['obsolete']} newly obsolete, {data['translated_kept']} translated kept, "
          f"{data['revived']} revived")
    for name in summary.orphaned:
        print(f"  orphaned: {name} (no template any more; kept as is)")
    return 0
