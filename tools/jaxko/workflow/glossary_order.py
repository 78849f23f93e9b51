"""Keep the glossary's entries in order: alphabetical by ``en`` within each group.

Everyone appends new terms at the end of a group, so groups drift out of order and
a reader (or a reviewer looking for a duplicate) can no longer scan them. This sorts
the entries of each ``# --- group ---`` as blocks of text: every line of an entry
(its keys, its note, a comment just above it) moves with it, unchanged, and nothing
is reformatted. The result is parsed again and must hold exactly the same terms, or
nothing is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from jaxko import glossary
from jaxko.errors import UserError
from jaxko.catalogs import write_text_atomic

_GROUP = re.compile(r"^\s*# ---")
_ENTRY = re.compile(r"^(\s*)- ")
_EN = re.compile(r"^\s*-?\s*en:\s*(.+?)\s*$")


@dataclass
class _Group:
    header: list[str] = field(default_factory=list)   # the group comment (and blank lines)
    entries: list[list[str]] = field(default_factory=list)


def _key(entry: list[str]) -> tuple[str, str]:
    for line in entry:
        match = _EN.match(line)
        if match:
            value = match.group(1).strip("'\"")
            return value.casefold(), value
    return "", ""


def _split(text: str) -> tuple[list[str], list[_Group], list[str]]:
    """(lines before the first entry or group, the groups, lines after `terms:` ends)."""
    lines = text.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("terms:")) + 1
    except StopIteration:
        return lines, [], []
    head = lines[:start]
    groups = [_Group()]
    pending: list[str] = []  # blank lines and comments waiting for the next entry
    end = len(lines)
    for index in range(start, len(lines)):
        line = lines[index]
        if line.strip() and not line[0].isspace() and not line.startswith("-"):
            end = index  # the next top-level key: the terms list is over
            break
        if _GROUP.match(line):
            if groups[-1].entries or groups[-1].header:
                groups.append(_Group())
            groups[-1].header.extend(pending)
            groups[-1].header.append(line)
            pending = []
        elif _ENTRY.match(line):
            groups[-1].entries.append(_without_blank_edges(pending) + [line])
            pending = []
        elif not line.strip() or line.lstrip().startswith("#"):
            pending.append(line)
        elif groups[-1].entries:
            groups[-1].entries[-1].extend(pending)
            groups[-1].entries[-1].append(line)
            pending = []
        else:
            groups[-1].header.extend(pending)
            groups[-1].header.append(line)
            pending = []
    tail = pending + lines[end:]
    return head, groups, tail


def _without_blank_edges(lines: list[str]) -> list[str]:
    while lines and not lines[0].strip():
        lines = lines[1:]
    return lines


def sorted_text(text: str) -> str:
    """The glossary text with each group's entries in alphabetical order of ``en``."""
    head, groups, tail = _split(text)
    out = list(head)
    for number, group in enumerate(groups):
        if number and group.header and group.header[0].strip():
            out.append("\n")  # one blank line between groups
        out.extend(group.header)
        entries = sorted(group.entries, key=_key)
        for index, entry in enumerate(entries):
            if index:
                out.append("\n")  # one blank line between entries
            out.extend(line if line.endswith("\n") else line + "\n" for line in entry)
    if tail and tail[0].strip():
        out.append("\n")
    out.extend(tail)
    return "".join(out)


def _contents(terms: glossary.Glossary) -> list:
    """Every term with every field but its line number, in a fixed order."""
    return sorted(repr(replace(term, line=0)) for term in terms.terms)


def sort_file(path: Path, check: bool = False) -> bool:
    """Sort the glossary at ``path`` in place; returns whether it was out of order.

    With ``check``, nothing is written. A glossary with problems is refused (fix it
    first: `jaxko glossary validate`), and so is a result with other terms than before.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot read glossary: {err.strerror}", path) from None
    before, problems = glossary.parse(text, str(path))
    if problems:
        raise UserError(problems[0].message + "; run `jaxko glossary validate`", path, problems[0].line)
    result = sorted_text(text)
    if result == text:
        return False
    after, problems = glossary.parse(result, str(path))
    if problems or _contents(after) != _contents(before):
        raise UserError("sorting would change the terms (an entry's lines are not where "
                        "they are expected); nothing written", path)
    if not check:

        write_text_atomic(path, result)
    return True
