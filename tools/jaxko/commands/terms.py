"""``jaxko terms``: concepts rendered two ways across the translation, by word alignment."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from jaxko import glossary, paths
from jaxko.check.cache import DEFAULT_DIR, default_dir


def register(sub) -> None:
    parser = sub.add_parser(
        "terms", help="English terms translated more than one way (word alignment)",
        description="Align the English of every translated message with its Korean, word "
                    "by word (eflomal over Kiwi's morphemes, particles and endings left out), "
                    "and report: drift (an English term of one to three words rendered two "
                    "or more ways, each on at least --min-messages messages, with counts "
                    "and file:line locations, most used first), spacing variants of one "
                    "rendering, glossary terms rendered with another word where the "
                    "glossary's rendering is absent, and with --suggest frequent terms the "
                    "glossary lacks as ready-to-paste glossary/ko.yaml entries. Renderings "
                    "the glossary accepts (ko and variants, of every entry for the English "
                    "term) are one rendering. A single word common in general English "
                    "(set, work, time: often two senses, each rightly rendered) is listed "
                    "only when the glossary has it or a drifting phrase holds it; "
                    "--all-words lists the rest. Code, literals, URLs and markup never "
                    "count.")
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="catalogs or folders (default: locale/ko/LC_MESSAGES)")
    parser.add_argument("--glossary", type=Path,
                        help="glossary file (default: glossary/ko.yaml when it exists)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--suggest", action="store_true",
                        help="also list frequent terms not in the glossary as YAML entries")
    parser.add_argument("--suggest-only", action="store_true",
                        help="print only the suggested entries, as a glossary YAML document")
    parser.add_argument("--all-words", action="store_true",
                        help="also list drifting single words common in general English "
                             "that the glossary lacks (marked; mostly one word, two senses)")
    parser.add_argument("--min-messages", type=_positive, default=2, metavar="N",
                        help="messages each rendering needs to count as drift (default 2)")
    parser.add_argument("--min-candidate", type=_positive, default=5, metavar="N",
                        help="messages a term needs to be suggested (default 5)")
    parser.add_argument("--locations", type=_positive, default=3, metavar="N",
                        help="locations shown per rendering in text output (default 3; "
                             "JSON lists them all)")
    parser.add_argument("--no-cache", action="store_true",
                        help=f"analyse again instead of reusing {DEFAULT_DIR}/terms/")
    parser.set_defaults(func=run)


def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def run(args) -> int:
    from jaxko.workflow import terms

    chosen = args.glossary
    if chosen is None and glossary.default_path().exists():
        chosen = glossary.default_path()
    terms_glossary = glossary.load(chosen) if chosen is not None else None
    shown = sys.stderr.isatty()

    def progress(text: str) -> None:
        if shown:
            print(f"\rjaxko terms: {text}…\033[K", end="", file=sys.stderr, flush=True)

    report = terms.run(args.paths or [paths.catalogs_dir()],
                       terms_glossary, cache_dir=None if args.no_cache else default_dir() / "terms",
                       progress=progress, min_messages=args.min_messages,
                       min_candidate=args.min_candidate, all_words=args.all_words)
    if shown:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    if args.suggest_only:
        print(terms.candidates_yaml(report), end="")
    elif args.format == "json":
        data = terms.as_json(report)
        if not args.suggest:
            data.pop("candidates")
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(terms.as_text(report, places=args.locations, suggest=args.suggest), end="")
    return 0
