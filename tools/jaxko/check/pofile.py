"""A fast, read-only .po reader for ``jaxko check``.

polib builds a rich object per entry and needs about 1.8 s for a catalog set of
python-docs-ko's size (75,775 entries); the whole check has a budget of 1 s. This
reader does only what the checker needs: one pass over the lines, strings unescaped
only when they contain a backslash, obsolete entries skipped. It agrees with polib on
everything it returns (msgctxt, msgid, msgstr, flags, locations, comments, the line of
``msgid``), which ``tests/test_check_pofile.py`` proves on generated and real catalogs;
it rejects what polib rejects, as a one-line :class:`~jaxko.errors.UserError`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from jaxko import poverdict
from jaxko.errors import UserError

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "b": "\b", "f": "\f", "\\": "\\", '"': '"'}
_ESCAPE = re.compile(r'\\(\\|n|t|r|v|b|f|")')
_UNESCAPED_QUOTE = re.compile(r'([^\\]|^)"')


class PoEntry(NamedTuple):
    """One active entry: what the checker reads, with its line span in the file."""

    line: int                   # line of `msgid` (polib's linenum)
    first_line: int             # first line of the entry (its first comment)
    last_line: int              # last line of the entry
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


def _unescape(text: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], text) if "\\" in text else text


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


# One entry as msgmerge, polib, Poedit and Sphinx write it: comments, optional
# msgctxt, msgid, msgstr, each string on its own lines, no obsolete or previous
# (`#|`) lines. Anything else goes through the general line parser.
_SIMPLE_ENTRY = re.compile(
    r'((?:#[ .:,][^\n]*\n|#\n)*)'
    r'(?:msgctxt ("[^\n]*"(?:\n"[^\n]*")*)\n)?'
    r'msgid ("[^\n]*"(?:\n"[^\n]*")*)\n'
    r'msgstr ("[^\n]*"(?:\n"[^\n]*")*)\n?')
_STRING_LINE = re.compile(r'^"(.*)"$', re.M)
_BAD_QUOTE = re.compile(r'(?:^|[^\\])(?:\\\\)*"')  # a quote after an even run of \\


def parse(text: str, path: str | Path = "<catalog>") -> list[PoEntry]:
    """Every active (non-obsolete) entry of the catalog text, the header included; a
    catalog that :mod:`jaxko.poverdict` refuses is refused here too, with its line."""
    poverdict.check_text(text, path)
    entries = _parse(text, path)
    poverdict.check_duplicates((((False, e.msgctxt, e.msgid), e.first_line) for e in entries),
                               path)
    return entries


def _parse(text: str, path: str | Path = "<catalog>") -> list[PoEntry]:
    """Every active (non-obsolete) entry of the catalog text, the header included.

    Blocks separated by blank lines that have the usual shape are read with one
    regular expression each; any other block
    (obsolete entries, previous msgids, odd spacing, errors) goes through
    :func:`parse_lines`, the general parser.
    """
    if "\r" in text or "\ufeff" in text[:1]:
        return parse_lines(text, path)
    try:
        return _parse_blocks(text, path)
    except UserError:
        # A block the general parser refuses alone may be half an entry split by a blank
        # line (`msgid "a"`, blank, `msgstr "b"`), which the whole-file parser reads as
        # polib does: the whole text decides, so both readers agree.
        return parse_lines(text, path)


def _general(block: str, offset: int, path: str | Path) -> list[PoEntry]:
    """A block of unusual shape, through the general parser, at its place in the file."""
    try:
        entries = parse_lines(block, path)
    except UserError as err:
        line = err.line + offset if err.line is not None else None
        raise UserError(err.message, err.path, line) from None
    return [_shift(entry, offset) for entry in entries]


def _parse_blocks(text: str, path: str | Path) -> list[PoEntry]:
    entries: list[PoEntry] = []
    line = 1
    match_block = _SIMPLE_ENTRY.fullmatch
    for block in text.split("\n\n"):
        count = block.count("\n")
        stripped = block.strip("\n")
        if not stripped:
            line += count + 2
            continue
        lead = len(block) - len(block.lstrip("\n"))
        match = match_block(stripped + "\n") if stripped[0] in "#m" else None
        if match is not None:
            comments, ctx, msgid, msgstr = match.groups()
            try:
                msgid_text, msgstr_text = _join(msgid), _join(msgstr)
                ctx_text = _join(ctx) if ctx is not None else None
            except _Fallback:
                match = None
        if match is None:
            # Not the usual shape: the general parser, with the right line numbers.
            entries.extend(_general(stripped, line + lead - 1, path))
            line += count + 2
            continue
        first = line + lead
        n_comments = comments.count("\n")
        msgid_line = first + n_comments + (ctx.count("\n") + 1 if ctx else 0)
        flags: list[str] = []
        locations: list[str] = []
        tcomment: list[str] = []
        comment: list[str] = []
        if comments:
            for text_line in comments[:-1].split("\n"):
                kind = text_line[1:2]
                rest = text_line[2:].strip()
                if kind == ":":
                    if rest:
                        locations.append(rest)
                elif kind == ",":
                    flags.extend(f.strip() for f in rest.split(",") if f.strip())
                elif kind == ".":
                    if rest:
                        comment.append(rest)
                else:
                    tcomment.append(text_line[1:].strip())
        entries.append(PoEntry(
            msgid_line, first, first + stripped.count("\n"), msgid_text, msgstr_text,
            ctx_text, tuple(flags), tuple(locations),
            "\n".join(tcomment), "\n".join(comment)))
        line += count + 2
    return entries


def _join(strings: str) -> str:
    """The unescaped text of a string spread over lines (``"a"\\n"b"``)."""
    if "\n" not in strings:
        body = strings[1:-1]
        if '"' in body and _BAD_QUOTE.search(body):
            raise _Fallback()
    else:
        parts = _STRING_LINE.findall(strings)
        body = "".join(parts)
        if '"' in body and any(_BAD_QUOTE.search(part) for part in parts):
            raise _Fallback()
    return _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], body) if "\\" in body else body


class _Fallback(Exception):
    """The fast path met something only the general parser judges."""


def _shift(entry: PoEntry, offset: int) -> PoEntry:
    return entry._replace(line=entry.line + offset, first_line=entry.first_line + offset,
                          last_line=entry.last_line + offset)


def parse_lines(text: str, path: str | Path = "<catalog>") -> list[PoEntry]:
    """The general line-by-line parser (every shape polib accepts)."""
    entries: list[PoEntry] = []
    lines = text.split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]

    # The entry being read. `field` is where a continuation line goes.
    first = 0
    msgid_line = 0
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    msgctxt: list[str] | None = None
    flags: list[str] = []
    locations: list[str] = []
    tcomment: list[str] = []
    comment: list[str] = []
    plural = False
    forms: list[list[str]] = []
    field: list[str] | None = None
    in_previous = False  # continuation lines of a `#|` previous msgid are ignored
    last = 0

    def error(number: int, what: str = "syntax error in catalog") -> UserError:
        return UserError(f"{what}; fix the entry or restore it from git", path, number)

    def flush() -> None:
        nonlocal msgid, msgstr, msgctxt, flags, locations, tcomment, comment, plural, first, field
        nonlocal forms
        if msgid is not None:
            if msgstr is None:
                raise error(msgid_line, "entry without msgstr")
            entries.append(PoEntry(
                msgid_line, first or msgid_line, last, "".join(msgid), "".join(msgstr),
                None if msgctxt is None else "".join(msgctxt), tuple(flags), tuple(locations),
                "\n".join(tcomment), "\n".join(comment), plural,
                any(not "".join(form) for form in forms)))
        elif msgctxt is not None:
            raise error(last, "msgctxt without msgid")
        msgid = msgstr = msgctxt = field = None
        flags, locations, tcomment, comment, forms = [], [], [], [], []
        plural = False
        first = 0

    def string(token: str, number: int) -> str:
        if len(token) < 2 or token[0] != '"' or token[-1] != '"':
            raise error(number)
        body = token[1:-1]
        if '"' in body and _UNESCAPED_QUOTE.search(body):
            raise error(number, "unescaped double quote")
        return _unescape(body)

    number = 0
    for raw in lines:
        number += 1
        line = raw.strip()
        if not line:
            continue
        head = line[0]
        if head == '"':
            if in_previous:
                continue
            if field is None:
                raise error(number, "continuation line outside an entry")
            field.append(string(line, number))
            last = number
            continue
        in_previous = False
        if head == "#":
            if line.startswith("#~"):
                # Obsolete entries are never checked; polib keeps them apart too.
                if msgstr is not None:
                    flush()
                field = None
                continue
            if msgstr is not None:
                flush()
            if not first:
                first = number
            last = number
            kind = line[1:2]
            if kind == ":":
                if line[2:].strip():
                    locations.append(line[2:].strip())
            elif kind == ",":
                rest = line[2:].strip()
                if rest:
                    flags.extend(f.strip() for f in rest.split(",") if f.strip())
            elif kind == ".":
                if line[2:].strip():
                    comment.append(line[2:].strip())
            elif kind == "|":
                if not line[2:].strip():
                    raise error(number)
                in_previous = True
            else:  # `# text`, `#`, `## text`; polib also takes `#x` as a comment
                tcomment.append(line[1:].strip())
            field = None
            continue
        keyword, _, rest = line.partition(" ")
        rest = rest.lstrip()
        if keyword in ("msgid", "msgctxt") and (msgstr is not None or msgid is not None):
            flush()
        last = number
        if keyword == "msgid":
            msgid_line = number
            if not first:
                first = number
            msgid = [string(rest, number)]
            field = msgid
        elif keyword == "msgstr":
            if msgid is None or msgstr is not None:
                raise error(number, "msgstr without msgid")
            msgstr = [string(rest, number)]
            field = msgstr
        elif keyword == "msgctxt":
            if not first:
                first = number
            msgctxt = [string(rest, number)]
            field = msgctxt
        elif keyword == "msgid_plural":
            if msgid is None:
                raise error(number, "msgid_plural without msgid")
            plural = True
            string(rest, number)
            field = []  # the plural source is not checked
        elif keyword.startswith("msgstr["):
            if msgid is None:
                raise error(number, "msgstr without msgid")
            value = [string(rest, number)]
            forms.append(value)
            field = value
            if msgstr is None:  # the first form stands for the entry
                msgstr = value
        else:
            raise error(number)
    flush()
    return entries


_OBSOLETE_MSGID = re.compile(r'^#~[ \t]*msgid[ \t]', re.M)


def count_obsolete(text: str) -> int:
    """Obsolete (``#~``) entries of a catalog text, which :func:`parse` leaves out."""
    return len(_OBSOLETE_MSGID.findall(text)) if "#~" in text else 0


def read(path: str | Path) -> list[PoEntry]:
    """Every active entry of the catalog at ``path``."""
    path = Path(path)
    return parse(read_text(path), path)
