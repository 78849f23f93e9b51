"""The ``jaxko`` command line: argument parsing and dispatch only.

Each subcommand lives in :mod:`jaxko.commands.<name>` with ``register(subparsers)``,
which adds its parser and sets ``func``; the function returns the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from jaxko import __version__
from jaxko.errors import UserError

# Order is the order of `jaxko --help`: the pipeline first, then the translators' tools.
COMMAND_MODULES = (
    "upstream",
    "extract",
    "update",
    "check",
    "glossary",
    "notebooks",
    "site",
    "stats",
    "review",
    "assign",
    "tm",
    "glean",
    "terms",
    "fmt",
)


class OneLineParser(argparse.ArgumentParser):
    """Bad options are one line and exit 2, like every other bad input."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message}; see `{self.prog} --help`\n")


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; given the arguments, only the named command's module is imported
    (`jaxko check` need not import the upstream, site and notebook tools: about
    0.2 s of every run). `jaxko --help` and unknown commands still see them all."""
    parser = OneLineParser(
        prog="jaxko",
        description="Tools and pipeline of the Korean translation of the JAX docs.",
    )
    parser.add_argument("--version", action="version", version=f"jaxko {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    names = COMMAND_MODULES
    first = next((a for a in (argv or []) if not a.startswith("-")), None)
    if first in COMMAND_MODULES:
        names = (first,)
    for name in names:
        try:
            module = importlib.import_module(f"jaxko.commands.{name}")
        except ModuleNotFoundError as err:
            if err.name == f"jaxko.commands.{name}":
                continue  # a command not built yet
            raise
        module.register(sub)
    return parser


def _command_parser(parser: argparse.ArgumentParser, args) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``args`` ran: ``jaxko review queue``'s for
    ``jaxko review queue --bad``, so an unknown option points at its ``--help``."""
    current = parser
    while True:
        action = next((a for a in current._actions
                       if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, action.dest, None) if action is not None else None
        if name not in (action.choices if action is not None else {}):
            return current
        current = action.choices[name]


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _command_parser(parser, args).error(f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as err:
        print(f"jaxko: {err.format()}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("jaxko: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
