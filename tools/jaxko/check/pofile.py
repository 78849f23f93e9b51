"""The one read-only .po reader: ``jaxko check`` and ``jaxko stats`` read catalogs with it.

polib builds a rich object per entry, which a checker that only reads does not need.
The catalog is first judged by :mod:`jaxko.poverdict` (the same verdict every command
that writes catalogs applies, so a malformed file is the same one-line error
everywhere); a text it accepts has the shape of its grammar, and one regular expression
then reads every entry in one pass, strings unescaped only when they hold a backslash,
obsolete entries skipped. It agrees with polib on everything it returns (msgctxt, msgid,
msgstr, flags, locations, comments, lines), which ``tests/test_check_pofile.py`` proves
on every committed catalog and on generated ones of every line kind.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from jaxko import poverdict
from jaxko.errors import UserError

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "b": "\b", "f": "\f", "\\": "\\", '"': '"'}
_ESCAPE = re.compile(r'\\(\\|n|t|r|v|b|f|")')


class PoEntry(NamedTuple):
    """One active entry: what the checker reads, with its line span in the file."""

    line: int                   # line of `msgid` (polib's linenum)
    first_line: int             # first line of the entry (its first comment)
    last_line: int              # last line of the entry
    msgstr_line: int            # line of `msgstr` (`msgstr[0]`): where a finding points
    msgid: str
    msgstr: str
    msgctxt: str | None
    flags: tuple[str, ...]
    locations: tuple[str, ...]  # `#:` lines as written, one item per line
    tcomment: str               # translator comments (`# ...`), joined with newlines
    comment: str                # extracted comments (`#. ...`), joined with newlines
    plural: bool = False
    empty_form: bool = False    # a plural entry with some msgstr[n] empty (not translated)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        """Has a msgstr and is not fuzzy: what ``jaxko check`` checks."""
        return bool(self.msgstr) and "fuzzy" not in self.flags


def read_text(path: Path) -> str:
    """The file as text, or a one-line error naming the line of bad UTF-8."""
    return decode(read_bytes(path), path)


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UserError("catalog not found", path) from None
    except OSError as err:
        raise UserError(f"cannot read catalog: {err.strerror}", path) from None


def decode(data: bytes, path: Path) -> str:
    """UTF-8 text, or a one-line error naming the line of bad UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise UserError("not valid UTF-8; save the catalog as UTF-8", path, line) from None


# One entry of a catalog the verdict accepted (:mod:`jaxko.poverdict` matched the whole
# text with its grammar, so nothing here needs to judge): the comments, blank lines and
# previous-msgid (`#|`) lines before it, then an active body or an obsolete (`#~`) one.
_STRING = r'[ \t]+"[^\n]*"[ \t\r]*(?:\n|\Z)(?:[ \t]*"[^\n]*"[ \t\r]*(?:\n|\Z))*'
_ENTRY = re.compile(
    r'(?P<around>(?:[ \t\r]*\n|[ \t]*#(?!~[ \t])[^\n]*\n)*+)'
    r'(?:(?P<obsolete>(?:[ \t]*#~[^\n]*(?:\n|\Z))+)'
    r'|(?:[ \t]*msgctxt(?P<ctx>' + _STRING + r'))?'
    r'[ \t]*msgid(?P<id>' + _STRING + r')'
    r'(?:[ \t]*msgid_plural' + _STRING + r'(?P<forms>(?:[ \t]*msgstr\[\d+\]' + _STRING + r')+)'
    r'|[ \t]*msgstr(?P<str>' + _STRING + r')))')
_QUOTED = re.compile(r'"(.*)"')
_FORM = re.compile(r'[ \t]*msgstr\[\d+\]((?:' + _STRING + r'))')


# How long a message may be. The parsers the rules run (docutils, markdown-it) take
# memory many times a text's size, so a hostile catalog could make a check (and the
# site's gate, which runs it) run out of memory: a msgstr is refused, before any rule
# reads it, when it is longer than twice its msgid plus MSGSTR_EXTRA characters (a
# Korean translation is about as long as its English; the committed catalogs differ by
# a few dozen characters at most), and any string longer than MAX_STRING (several
# times upstream's longest message, a code cell of pallas/tpu/sparsecore).
MSGSTR_EXTRA = 4096
MAX_STRING = 1 << 20


def check_sizes(entries: list[PoEntry], path: str | Path) -> None:
    """Refuse, as one UserError naming the line, a message too long to check."""
    for entry in entries:
        if len(entry.msgid) > MAX_STRING:
            raise UserError(f"msgid is {len(entry.msgid):,} characters, over the limit of "
                            f"{MAX_STRING:,}; restore the entry from git", path, entry.line)
        limit = 2 * len(entry.msgid) + MSGSTR_EXTRA
        if len(entry.msgstr) > min(limit, MAX_STRING):
            raise UserError(f"msgstr is {len(entry.msgstr):,} characters, over the limit of "
                            f"{min(limit, MAX_STRING):,} for its msgid ({len(entry.msgid):,}): "
                            "a translation is about as long as its original; shorten it or "
                            "restore the entry from git", path, entry.msgstr_line)


def parse(text: str, path: str | Path = "<catalog>") -> list[PoEntry]:
    """Every active (non-obsolete) entry of the catalog text, the header included; a
    catalog that :mod:`jaxko.poverdict` refuses is refused here too, with its line, and
    so is a message too long to check (:func:`check_sizes`)."""
    poverdict.check_text(text, path)
    entries = _read(text)
    poverdict.check_duplicates((((False, e.msgctxt, e.msgid), e.first_line) for e in entries),
                               path)
    check_sizes(entries, path)
    return entries


def _read(text: str) -> list[PoEntry]:
    """The active entries of a text the verdict accepted, in one pass."""
    entries: list[PoEntry] = []
    line, at = 1, 0  # the line at offset ``at``
    for match in _ENTRY.finditer(text):
        if match.group("obsolete") is not None or match.end() == match.start():
            continue
        start = match.start()
        line += text.count("\n", at, start)
        at = start
        around = match.group("around")
        flags: list[str] = []
        locations: list[str] = []
        tcomment = ""
        comment: list[str] = []
        first = None
        for number, raw in enumerate(around.split("\n")[:-1]):
            comment_line = raw.strip()
            if not comment_line:
                continue
            if first is None:
                first = line + number
            kind, rest = comment_line[1:2], comment_line[2:].strip()
            if kind == ":":
                if rest:
                    locations.append(rest)
            elif kind == ",":
                flags.extend(f.strip() for f in rest.split(",") if f.strip())
            elif kind == ".":
                if rest:
                    comment.append(rest)
            elif kind not in ("|", "~"):  # `# text`, `#`, `## text`; `#x` is a comment too
                # As polib joins them: without the leading `#`s and one space, a newline
                # before each line but when nothing is there yet (a leading `#` is lost).
                said = comment_line.lstrip("#")
                said = said[1:] if said.startswith(" ") else said
                tcomment = f"{tcomment}\n{said}" if tcomment else said
        ctx = match.group("ctx")
        msgid_line = line + around.count("\n") + (ctx.count("\n") if ctx is not None else 0)
        forms = match.group("forms")
        if forms is None:
            msgstr, plural, empty_form = _join(match.group("str")), False, False
        else:
            values = [_join(form) for form in _FORM.findall(forms)]
            msgstr, plural, empty_form = values[0], True, not all(values)
        body = match.group(0)
        last = line + body.count("\n") - (1 if body.endswith("\n") else 0)
        msgstr_line = line + text.count("\n", start, match.start("str" if forms is None
                                                                 else "forms"))
        entries.append(PoEntry(msgid_line, first or line + around.count("\n"), last, msgstr_line,
                               _join(match.group("id")), msgstr,
                               None if ctx is None else _join(ctx), tuple(flags),
                               tuple(locations), tcomment, "\n".join(comment),
                               plural, empty_form))
    return entries


def _join(strings: str) -> str:
    """The unescaped text of a string spread over lines (``"a"\\n"b"``)."""
    body = "".join(_QUOTED.findall(strings))
    return _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], body) if "\\" in body else body


_OBSOLETE_MSGID = re.compile(r'^#~[ \t]*msgid[ \t]', re.M)


def count_obsolete(text: str) -> int:
    """Obsolete (``#~``) entries of a catalog text, which :func:`parse` leaves out."""
    return len(_OBSOLETE_MSGID.findall(text)) if "#~" in text else 0


def read(path: str | Path) -> list[PoEntry]:
    """Every active entry of the catalog at ``path``."""
    path = Path(path)
    return parse(read_text(path), path)
