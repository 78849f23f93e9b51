"""A translated paragraph or title fragment, written so it can only parse as one.

Sphinx's i18n step re-parses each msgstr and keeps the result only when it is the node
kind it translates (a paragraph, a section title). These functions backslash-escape
the first character of each block construct a fragment's text could start by accident
(a list item, a heading, a quote, a table row, a comment, ...), in MyST
(:func:`escape_markdown`) and in reST (:func:`escape_rest`); inline markup and literal
blocks are left as they are. Pure text in, text out: the site's Sphinx extension
(:mod:`jaxko.site.ext.translated_markup`) escapes before parsing, and the
applied-translation audit (:mod:`jaxko.site.audit`) renders a msgstr the same way to
find it on the page.
"""

from __future__ import annotations

import re

# What Locale adds to a msgstr (sphinx/transforms/i18n.py): the literal-block notation,
# the dummy literal after a msgstr ending in '::', the underline of a title.
LITERAL_PREFIX = "::\n\n"
DUMMY_LITERAL = "\n\n   dummy literal"

_PUNCT = r"""[!-/:-@\[-`{-~]"""

# CommonMark/MyST block starts (after at most three spaces of indentation).
_MARKDOWN = re.compile(r"""^(?P<indent>[ ]{0,3})(?:
      (?P<num>\d{1,9})(?P<delim>[.)])(?=\s|$)          # ordered list
    | (?P<first>
          \#{1,6}(?=\s|$)                               # ATX heading
        | >                                             # block quote
        | [-+*](?=\s|$)                                 # bullet list
        | (?P<rule>[-*_=+])[ \t]*(?:(?P=rule)[ \t]*)+$  # break, setext underline, +++
        | =+[ \t]*$                                     # setext underline
        | ```|~~~                                       # code fence
        | \|                                            # table row
        | %                                             # MyST comment
        | \([^\s()]*\)=                                 # MyST target
        | \[[^\]]+\]:                                   # link/footnote definition
        | \$\$                                          # math block
      ))""", re.X)

# reST body elements a paragraph's first line could start by accident.
_REST_FIRST = re.compile(r"""^(?:
      (?P<num>\d+|[A-Za-z]|[ivxlcdmIVXLCDM]+|\#)(?P<delim>[.)])(?=\s|$)   # enumerator
    | (?P<first>
          [-+]                                          # bullet, option list, grid table
        | [*\u2022\u2023\u2043](?=\s|$)                 # bullet
        | \((?:\d+|[A-Za-z]|[ivxlcdmIVXLCDM]+|\#)\)(?=\s|$)   # (1) enumerator
        | \|(?=\s|$)                                    # line block
        | >>>                                           # doctest block
        | \.\.(?=\s|$)                                  # explicit markup (comment)
        | :[^:`\s][^:`]*:(?=\s|$)                       # field list
      ))""", re.X)
# Any line made of one repeated punctuation character (adornment, transition) or a
# simple-table border.
_REST_ADORNMENT = re.compile(rf"^(?P<first>({_PUNCT})\2+|=+(?:[ ]+=+)+)[ \t]*$")


def _escape_line(line: str, pattern: re.Pattern[str]) -> str:
    match = pattern.match(line)
    if match is None:
        return line
    if match.groupdict().get("num") is not None:
        at = match.start("delim")
    else:
        at = match.start("first")
    return line[:at] + "\\" + line[at:]


def _split(fragment: str) -> tuple[str, str] | None:
    """(text, what Locale appended) of a paragraph or title fragment; None for literals."""
    if fragment.startswith(LITERAL_PREFIX):
        return None
    text, _, last = fragment.rpartition("\n")
    if text and "\n" not in text and last and set(last) == {"="} and len(last) == 2 * len(text):
        return text, "title"
    if fragment.endswith(DUMMY_LITERAL):
        return fragment[: -len(DUMMY_LITERAL)], DUMMY_LITERAL
    return fragment, ""


def _join(text: str, suffix: str) -> str:
    if suffix == "title":
        return text + "\n" + "=" * (2 * len(text))
    return text + suffix


def escape_markdown(fragment: str) -> str:
    """A MyST msgstr fragment whose text can only parse as a paragraph (or title)."""
    parts = _split(fragment)
    if parts is None:
        return fragment
    text, suffix = parts
    lines = text.split("\n")
    lines[0] = lines[0].lstrip()  # four spaces would make it a code block
    return _join("\n".join(_escape_line(line, _MARKDOWN) for line in lines), suffix)


def escape_rest(fragment: str) -> str:
    """A reST msgstr fragment whose text can only parse as a paragraph (or title)."""
    parts = _split(fragment)
    if parts is None:
        return fragment
    text, suffix = parts
    # Indentation would make a block quote (first line) or a definition list (later).
    lines = [line.lstrip() for line in text.split("\n")]
    lines = [_escape_line(line, _REST_ADORNMENT) for line in lines]
    lines[0] = _escape_line(lines[0], _REST_FIRST)
    return _join("\n".join(lines), suffix)
