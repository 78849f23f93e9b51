"""The one module for gettext catalogs: what a valid one is, reading, merging, writing.

Every command reads a catalog through here, in one of two ways, and refuses what
:func:`check_text` refuses (the one verdict), so the same malformed file is the same
one-line ``path:line: what; what to do`` error and exit 2 from ``check``, ``stats``,
``fmt``, ``update``, ``review`` and ``site build``:

* :func:`read` / :func:`parse`: the fast read-only reader (``jaxko check``, ``stats``,
  ``review``, ``terms``): one regular expression reads every active entry of a judged
  text in one pass into :class:`PoEntry` tuples with their lines; polib builds a rich
  object per entry, which a command that only reads does not need. It agrees with polib
  on everything it returns (msgctxt, msgid, msgstr, flags, locations, comments, lines),
  which ``tests/test_catalogs_reader.py`` proves on every committed catalog and on
  generated ones of every line kind.
* :func:`load` / :func:`save`: polib objects, for the commands that change a catalog.
  Every save goes through :func:`save` (atomically, :func:`write_text_atomic`), so a
  catalog written by ``jaxko update``, ``jaxko tm fill`` or ``jaxko fmt`` is
  byte-identical for the same content, and diffs stay small.

Why the merge is ours and not ``sphinx-intl update``: sphinx-intl (2.x) merges with
babel's ``Catalog.update``, which does fuzzy matching but (a) writes no previous
msgid (``#| msgid``), so translators cannot see what changed upstream, (b) lets one
old translation seed several new entries and then drops it from the obsolete list,
(c) never revives an obsolete entry whose text comes back, and (d) writes files in
place, not atomically. We keep sphinx-intl's model (``.pot`` in, ``.po`` out, one
catalog per document) and do the merge with polib, where those four are easy.
"""

from __future__ import annotations

import difflib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple

import polib

from jaxko.errors import UserError


# -------------------------------------------- the verdict: what a valid catalog is

# Two parts: check_text looks at the raw text (one regular expression pass per kind,
# so it costs little beside a parse), and check_duplicates looks at the entry keys a
# reader produced.
_RESTORE = "fix the entry or restore it from git"

# A keyword or continuation line (obsolete `#~` and previous `#|` lines included) whose
# string is not one well-formed gettext string: unterminated (polib drops its last
# character), an escape that is not gettext's (\\q, a lone trailing backslash), or an
# unescaped quote inside. The body is matched unrolled ([^..]*(?:\\.[^..]*)*), which
# keeps the scan at C speed; the one bad line found is then classified by _string_error.
_STRING_BODY = r'"[^"\\\n]*(?:\\[\\nt"][^"\\\n]*)*"[ \t\r]*$'
_BAD_STRING_LINE = re.compile(
    r'^(?:#[~|] ?)?(?:(?:msgctxt|msgid(?:_plural)?|msgstr(?:\[\d+\])?)[ \t]*)?(?=")'
    r'(?!' + _STRING_BODY + ')', re.M)
_ESCAPED_BODY = re.compile(r'"((?:[^"\\\n]|\\.)*)("?)')
_GOOD_ESCAPE = re.compile(r'\\[\\nt"]')
# Escapes gettext knows that stand for control characters (\r \v \f \b \a): docutils,
# polib and Python's str.splitlines() break lines at some of them and not others, so the
# checker and Sphinx would read two different texts; they are refused like the raw
# characters below.
_CONTROL_ESCAPE = re.compile(r'\\[rvfba]')
# Raw characters that some reader takes for a line break (U+2028/2029, U+0085, a CR not
# before LF, \v, \f, U+001C-001E: str.splitlines(), which docutils and polib use) or
# that no catalog needs (other C0 and C1 controls). Tab and LF are the text's own.
CONTROL_CHARACTER = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]|\r(?!\n)")
# A msgid (active or obsolete `#~`), with its continuation lines and msgid_plural, not
# followed by the msgstr its kind needs (msgstr, or msgstr[n] after msgid_plural): polib
# misreads the next entry, the fast readers skip obsolete entries.
_STRINGS = r'[ \t]+"[^\n]*"(?:\n(?:#~ ?)?[ \t]*"[^\n]*")*'
_MSGSTR_MISSING = re.compile(
    r'^(?>[ \t]*(?:#~ ?)?msgid' + _STRINGS + r'(?:\n[ \t]*(?:#~ ?)?(msgid_plural)' + _STRINGS
    + r')?(?:\n[ \t]*(?=\n))*(?:\n|\Z))'  # atomic: no backtracking into the strings
    r'(?![ \t]*(?:#~ ?)?[ \t]*msgstr(?(1)\[|[ \t]))', re.M)
_NEXT_KEYWORD = re.compile(r'[ \t]*(?:#~ ?)?[ \t]*(msgstr\[|msgstr)?')
# Every line is blank, a string, a keyword with its string, or a comment polib reads
# (`#`, `# x`, `##x`, `#:`, `#,`, `#.` with a space after the marker; `#| msgid "..."`;
# `#~ ...`, `#~| ...`): the fast readers are laxer than polib (`#,fuzzy`, a bare `#~`).
_KEYWORD = r'(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) [ \t]*"'  # a space first
_BAD_LINE = re.compile(
    r'^(?![ \t]*(?:$|\r|"|' + _KEYWORD + r'|#(?:[ \t\r#]|$)|#[:,.](?:[ \t\r]|$)'
    r'|#\|[ \t]+(?:' + _KEYWORD + r'|")|#~\||#~[ \t]+(?:' + _KEYWORD + r'|"|#)))', re.M)
_MARKER_WITHOUT_SPACE = re.compile(r'[ \t]*#(?:[:,.|]|~\|?)?+\S')
# A string or msgstr line where no entry is open (after a comment, at the start), a
# second msgstr, a msgctxt not followed by its msgid: the readers refuse these with
# messages of their own; the verdict names them one way.
_OPEN = r'(?:^[ \t]*#(?![|~])[^\n]*\n|\A)(?:[ \t]*\n)*[ \t]*'
_OUT_OF_PLACE = re.compile(
    r'(?P<string>' + _OPEN + r'")'
    r'|(?P<msgstr>' + _OPEN + r'msgstr)'
    r'|(?P<twice>^[ \t]*msgstr' + _STRINGS + r'\n(?:[ \t]*\n)*[ \t]*msgstr)'
    r'|(?P<context>^[ \t]*msgctxt' + _STRINGS + r'\n(?:[ \t]*\n)*(?![ \t]*msgid[ \t]))'
    r'|(?P<plural>(?:' + _OPEN + r'|^[ \t]*(?:msgstr(?:\[\d+\])?|msgctxt|msgid_plural)' + _STRINGS
    + r'\n(?:[ \t]*\n)*[ \t]*)msgid_plural)', re.M)
_OUT_OF_PLACE_WHAT = {
    "string": "continuation line outside an entry",
    "msgstr": "msgstr without msgid",
    "twice": "second msgstr in one entry",
    "context": "msgctxt without msgid",
    "plural": "msgid_plural without msgid",
}
# The whole grammar of a catalog as one expression, matched at C speed: entries of
# comments (`#`, `# x`, `#.`, `#:`, `#,`, `##x`, `#| msgid "..."`, `#~| ...`) then
# [msgctxt] msgid (msgstr | msgid_plural msgstr[n]...), each keyword's string followed by
# its continuation lines, every line of an obsolete body behind `#~ `; blank lines between
# entries. Both readers (polib; the fast reader of check and stats) agree on every
# catalog of this shape. Only a catalog that does not match pays for the diagnostics
# below, which name what is wrong and where.
_Q = r'"[^"\\\n]*(?:\\[\\nt"][^"\\\n]*)*+"[ \t\r]*(?:\n|\Z)'


def _body(prefix: str) -> str:
    def field(keyword: str) -> str:
        return (r'[ \t]*' + prefix + keyword + r' [ \t]*' + _Q
                + r'(?:[ \t]*' + prefix + _Q + r')*+')
    return (r'(?:' + field('msgctxt') + r')?' + field('msgid')
            + r'(?:' + field('msgid_plural') + r'(?:' + field(r'msgstr\[\d+\]') + r')++'
            + r'|' + field('msgstr') + r')')


_AROUND = (r'(?:[ \t\r]*\n|[ \t]*#(?:[ \t\r][^\n]*|[:,.](?:[ \t\r][^\n]*)?|#[^\n]*)?\n'
           r'|[ \t]*#\|[ \t]+(?:(?:msgctxt|msgid|msgid_plural)[ \t]+)?' + _Q
           + r'|[ \t]*#~\|(?:[ \t][^\n]*)?\n)*+')
_VALID_ENTRY = re.compile(_AROUND + r'(?>' + _body('') + r'|' + _body(r'#~[ \t]+') + r')')
# After the last entry only blank lines: polib drops a trailing comment.
_CATALOG = re.compile(r'(?:' + _VALID_ENTRY.pattern + r')*+(?:[ \t\r]*\n)*+\Z')
_OBSOLETE_KEY = re.compile(
    r'^#~[ \t]+(?:msgctxt[ \t]+("[^\n]*"(?:\n#~[ \t]+"[^\n]*")*)\n#~[ \t]+)?'
    r'msgid[ \t]+("[^\n]*"(?:\n#~[ \t]+"[^\n]*")*)', re.M)
_EMPTY_MSGID = re.compile(r'^[ \t]*msgid [ \t]*""[ \t\r]*\n[ \t]*msgstr', re.M)
_AROUND_ALL = re.compile(_AROUND)
_BLANKS = re.compile(r'(?:[ \t\r]*\n)*+')
# How far an entry that does not match gets: the line after is the one out of place.
_PARTIAL = re.compile(_AROUND + r'(?:' + _body('').replace(r')++', r')*+') + r'|'
                      + _body(r'#~[ \t]+').replace(r')++', r')*+') + r')?')
_CHARSET = re.compile(r'"Content-Type:[^"\n]*?charset=([^"\s\\;]*)', re.I)
_PLURAL_FORMS = re.compile(r'"Plural-Forms:([^"\n]*?)(?:\\n)?"')
_PLURAL_FORMS_VALID = re.compile(r'\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*[^;]+;?\s*$')
_MSGSTR_INDEX = re.compile(r'^(?:#~ ?)?msgstr\[(\d+)\]', re.M)
_UTF8 = {"utf-8", "utf8"}


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def check_text(text: str, path: str | Path, *, duplicates: bool = True) -> None:
    """Refuse, as one UserError naming the line, what no command may read.

    ``duplicates``: also refuse two obsolete entries with the same msgid (the readers
    check the active ones; ``fmt --merge-duplicates`` turns both off)."""
    if text.startswith("\ufeff"):
        raise UserError("the catalog starts with a byte order mark (BOM); save it as UTF-8 "
                        "without BOM", path, 1)
    nul = text.find("\0")
    if nul >= 0:
        raise UserError(f"NUL byte in catalog; {_RESTORE}", path, _line_of(text, nul))
    control = CONTROL_CHARACTER.search(text)
    if control is not None:
        raise UserError(f"control character U+{ord(control.group(0)[0]):04X} in the catalog "
                        "(docutils reads it as a line break or space, the checker does not); "
                        "delete it", path, _line_of(text, control.start()))
    if not _CATALOG.match(text if text.endswith("\n") else text + "\n"):
        _diagnose(text, path)
    if duplicates and "#~" in text:
        check_duplicates(_obsolete_keys(text), path)
    if duplicates and text.count('""\nmsgstr') > 1:  # a second empty msgid, maybe
        check_duplicates(_header_keys(text), path)
    head = text[:4096]
    match = _CHARSET.search(head)
    if match and match.group(1).lower() not in _UTF8:
        raise UserError(f"charset {match.group(1)!r} in the header; catalogs are UTF-8: write "
                        "`charset=UTF-8`", path, _line_of(text, match.start()))
    nplurals = None
    match = _PLURAL_FORMS.search(head)
    if match:
        valid = _PLURAL_FORMS_VALID.match(match.group(1))
        if not valid:
            raise UserError("malformed Plural-Forms header; write `nplurals=1; plural=0;` "
                            "for Korean", path, _line_of(text, match.start()))
        nplurals = int(valid.group(1))
    if "msgstr[" in text:
        limit = nplurals if nplurals is not None else 2
        for index in _MSGSTR_INDEX.finditer(text):
            if int(index.group(1)) >= limit:
                raise UserError(f"msgstr[{index.group(1)}] but the header allows {limit} "
                                f"plural form(s); {_RESTORE}", path,
                                _line_of(text, index.start()))


def _diagnose(text: str, path: str | Path) -> None:
    """Why a catalog does not have the shape of one: the first problem, as a UserError."""
    match = _BAD_STRING_LINE.search(text)
    if match:
        raise UserError(_string_error(text, match.end()), path, _line_of(text, match.start()))
    match = _BAD_LINE.search(text)
    if match:
        end = text.find("\n", match.start())
        line = text[match.start(): end if end >= 0 else len(text)].strip()
        # A link may point at any file of the machine (a pull request can add one to
        # /etc/passwd): its content is never quoted into an error, which CI logs show.
        shown = (lambda n: "") if _is_link(path) else (lambda n: f" `{line[:n]}`")
        what = (f"comment{shown(20)} needs a space after its marker (`#, fuzzy`)"
                if _MARKER_WITHOUT_SPACE.match(line) else
                f"not a gettext line{':' + shown(40) if shown(40) else ''}")
        raise UserError(f"{what}; {_RESTORE}", path, _line_of(text, match.start()))
    match = _OUT_OF_PLACE.search(text)
    if match:
        kind = match.lastgroup
        at = match.end() - 1 if kind in ("string", "msgstr", "plural") else match.start()
        if kind == "twice":
            at = text.rfind("\n", 0, match.end()) + 1
        raise UserError(f"{_OUT_OF_PLACE_WHAT[kind]}; {_RESTORE}", path, _line_of(text, at))
    match = _MSGSTR_MISSING.search(text)
    if match:
        found = _NEXT_KEYWORD.match(text, match.end()).group(1)
        what = ("entry without msgstr" if found is None
                else "plural entry (msgid_plural) with a plain msgstr; write msgstr[0]"
                if match.group(1) else "msgstr[n] without msgid_plural")
        raise UserError(f"{what}; {_RESTORE}", path, _line_of(text, match.start()))
    pos = 0
    text = text if text.endswith("\n") else text + "\n"
    while (match := _VALID_ENTRY.match(text, pos)) is not None and match.end() > pos:
        pos = match.end()
    stuck = _PARTIAL.match(text, pos).end()
    if _AROUND_ALL.match(text, pos).end() == len(text):
        raise UserError("a comment after the last entry belongs to no entry (it would be "
                        f"lost); move it above an entry or delete it", path,
                        _line_of(text, _BLANKS.match(text, pos).end()))
    raise UserError("line out of place: an entry is comments, msgctxt, msgid, then msgstr (or "
                    f"msgid_plural and msgstr[n]), without blank lines inside; {_RESTORE}", path,
                    _line_of(text, stuck))


def _is_link(path: str | Path) -> bool:
    try:
        return Path(path).is_symlink()
    except (OSError, ValueError):
        return True  # when in doubt, quote nothing


def _string_error(text: str, quote: int) -> str:
    """What is wrong with the string that opens at ``quote`` (a line _BAD_STRING_LINE found)."""
    end = text.find("\n", quote)
    line = text[quote: end if end >= 0 else len(text)].rstrip("\r")
    body, closed = _ESCAPED_BODY.match(line).groups()
    control = _CONTROL_ESCAPE.search(_GOOD_ESCAPE.sub("", body))
    if control is not None:
        return (f"escape `{control.group(0)}` stands for a control character, which docutils "
                f"and the checker read differently; delete it")
    if _GOOD_ESCAPE.sub("", body).count("\\"):
        return f"invalid escape sequence in a string; {_RESTORE}"
    if not closed:
        return "unterminated string in catalog; close the quote"
    return f'unescaped double quote in a string; write \\" inside a string, or {_RESTORE}'


def _obsolete_keys(text: str):
    """((obsolete, msgctxt, msgid), line) of each obsolete entry, strings as written."""
    line, at = 1, 0  # lines counted from the previous match on: linear in the text
    for match in _OBSOLETE_KEY.finditer(text):
        ctx, msgid = match.groups()
        line += text.count("\n", at, match.start())
        at = match.start()
        yield ((True, None if ctx is None else "".join(_QUOTED.findall(ctx)),
                "".join(_QUOTED.findall(msgid))), line)


def _header_keys(text: str):
    """((False, None, ""), first line) of each entry with an empty msgid and no msgctxt:
    the header, and any second one (polib would silently take one as the header)."""
    for match in _EMPTY_MSGID.finditer(text):
        start = match.start()
        previous = text.rfind("\n", 0, max(start - 1, 0)) + 1 if start else 0
        if start and text[previous:start].lstrip().startswith(("msgctxt", '"')):
            continue  # a msgctxt's entry, or the end of one
        while start and text[previous:start].lstrip().startswith("#"):
            start = previous  # the entry's first line is its first comment
            previous = text.rfind("\n", 0, max(start - 1, 0)) + 1 if start else 0
        yield (False, None, ""), _line_of(text, start)


def check_duplicates(keys: Iterable[tuple[tuple, int]], path: str | Path) -> None:
    """Refuse two entries with the same key ((obsolete, msgctxt, msgid), line)."""
    seen: dict[tuple, int] = {}
    for key, line in keys:
        first = seen.setdefault(key, line)
        if first != line:
            raise UserError(f"duplicate msgid (also at line {first}); merge them with "
                            f"`jaxko fmt --merge-duplicates {path}`", path, line)


# ------------------------------------------------------- the fast read-only reader

def read_bytes(path: str | os.PathLike) -> bytes:
    """The catalog's bytes, or a one-line error (not found, unreadable)."""
    path = Path(path)
    if not path.is_file():
        raise UserError("catalog not found", path)
    try:
        return path.read_bytes()
    except OSError as err:
        raise UserError(f"cannot read catalog: {err.strerror}", path) from None


def decode(data: bytes, path: str | os.PathLike) -> str:
    """UTF-8 text, or a one-line error naming the line of bad UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise UserError("not valid UTF-8; save the catalog as UTF-8", path, line) from None


def read_text(path: str | os.PathLike) -> str:
    """The file as text, or a one-line error naming the line of bad UTF-8. Not judged
    yet: :func:`parse` and :func:`load` run :func:`check_text` on it."""
    return decode(read_bytes(path), path)


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


# One entry of a catalog the verdict accepted (:func:`check_text` matched the whole text
# with its grammar, so nothing here needs to judge): the comments, blank lines and
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
    catalog that :func:`check_text` refuses is refused here too, with its line, and
    so is a message too long to check (:func:`check_sizes`)."""
    check_text(text, path)
    entries = _read(text)
    check_duplicates((((False, e.msgctxt, e.msgid), e.first_line) for e in entries),
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


def msgstr_spans(text: str) -> dict[tuple[str | None, str], tuple[int, int, int]]:
    """(msgctxt, msgid) -> (start, end, line) of the quoted lines of each active,
    singular entry's msgstr (plural entries are never fixed)."""
    spans = {}
    line, at = 1, 0
    for match in _ENTRY.finditer(text):
        if match.group("obsolete") is not None or match.group("str") is None:
            continue
        ctx = match.group("ctx")
        key = (None if ctx is None else _join(ctx), _join(match.group("id")))
        start = match.start("str")
        line += text.count("\n", at, start)
        at = start
        spans[key] = (start, match.end("str"), line)
    return spans


# ------------------------------------------------------- polib: load, render, save

# msgmerge and Poedit wrap at 79 columns; using the same width means a catalog saved by
# Poedit produces no whole-file diff against ours.
WRAP_WIDTH = 79

# difflib ratio at which a changed paragraph keeps its old translation as a fuzzy
# suggestion (msgmerge's default feels similar; babel uses 0.6 too).
FUZZY_CUTOFF = 0.6

_SYNTAX_ERROR = re.compile(r"\(line (\d+)\)")


def load(path: str | os.PathLike, *, allow_duplicates: bool = False) -> polib.POFile:
    """The catalog as polib objects, for a command that changes it and saves it with
    :func:`save`; every parse problem is a one-line UserError, the same the fast reader
    (:func:`read`) gives.

    Two entries with the same msgctxt and msgid are refused (naming both lines): every
    merge keeps one entry per key, so reading such a catalog would silently drop the
    other's translation. ``allow_duplicates`` is for `jaxko fmt --merge-duplicates`."""
    path = Path(path)
    text = read_text(path)
    check_text(text, path, duplicates=not allow_duplicates)
    try:
        # From the path, not the text: polib splits text with str.splitlines(), which
        # also breaks at \v and \f, and Sphinx writes such characters unescaped.
        catalog = polib.pofile(str(path), wrapwidth=WRAP_WIDTH, encoding="utf-8")
    except (OSError, ValueError) as err:
        match = _SYNTAX_ERROR.search(str(err))
        line = int(match.group(1)) if match else None
        raise UserError("syntax error in catalog; fix the entry or restore it from git", path, line) from None
    catalog.fpath = str(path)
    if not allow_duplicates:
        # polib takes the first `msgid ""` as the header and keeps no line for it: the
        # header stands first (its first non-blank line), as the fast reader sees it.
        header = next((n for n, line in enumerate(text.split("\n"), 1) if line.strip()), 1)
        keys = [((False, None, ""), header)] if catalog.metadata or catalog.header else []
        keys += [((False, e.msgctxt, e.msgid), e.linenum) for e in catalog if not e.obsolete]
        check_duplicates(keys, path)
    return catalog


def has_translation(entry: polib.POEntry) -> bool:
    """Whether an entry carries any translated text (msgstr, or any msgstr[n])."""
    return bool(entry.msgstr) or any(entry.msgstr_plural.values())


def merge_duplicates(catalog: polib.POFile) -> int:
    """Merge entries that share msgctxt and msgid into the first; returns how many were
    merged away. No translation is dropped: equal or missing translations merge
    silently; a conflicting one leaves the first msgstr, marks the entry fuzzy and
    keeps the other text in a translator comment for the translator to choose."""
    kept: dict[tuple[bool, str | None, str], polib.POEntry] = {}
    removed = 0
    for entry in list(catalog):
        key = (entry.obsolete, entry.msgctxt, entry.msgid)
        first = kept.get(key)
        if first is None:
            kept[key] = entry
            continue
        catalog.remove(entry)
        removed += 1
        for place in entry.occurrences:
            if place not in first.occurrences:
                first.occurrences.append(place)
        if not has_translation(entry) or _same_translation(first, entry):
            continue
        if not has_translation(first):
            first.msgstr, first.msgstr_plural = entry.msgstr, dict(entry.msgstr_plural)
            first.flags = list(dict.fromkeys(first.flags + entry.flags))
            continue
        other = entry.msgstr or " | ".join(v for _, v in sorted(entry.msgstr_plural.items()))
        note = f"jaxko fmt --merge-duplicates: another translation was: {other}"
        first.tcomment = f"{first.tcomment}\n{note}" if first.tcomment else note
        if "fuzzy" not in first.flags:
            first.flags.append("fuzzy")
    return removed


def _same_translation(a: polib.POEntry, b: polib.POEntry) -> bool:
    return a.msgstr == b.msgstr and a.msgstr_plural == b.msgstr_plural


def render(catalog: polib.POFile) -> str:
    """The catalog as text, in the project's one format."""
    catalog.wrapwidth = WRAP_WIDTH
    text = str(catalog)
    return text if text.endswith("\n") else text + "\n"


def write_text_atomic(path: str | os.PathLike, text: str) -> bool:
    """Write ``text`` to ``path`` via a temporary file and rename; skip identical content.

    Returns whether the file changed. An unchanged file keeps its mtime, so Sphinx and
    make stay incremental.
    """
    # Through a symlink to its target: replacing the link with a file would leave the
    # target stale and the link gone.
    path = Path(os.path.realpath(path))
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    except OSError as err:
        raise UserError(f"cannot read: {err.strerror}", path) from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise UserError(f"cannot write here: {err.strerror}; check permissions", path.parent) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise UserError(f"cannot write: {err.strerror}", path) from None
    return True


def save(catalog: polib.POFile, path: str | os.PathLike | None = None) -> bool:
    """Save atomically in the project's format; returns whether the file changed."""
    target = path or catalog.fpath
    if target is None:
        raise ValueError("catalog has no path")
    return write_text_atomic(target, render(catalog))


def iter_catalogs(paths: Iterable[str | os.PathLike], suffix: str = ".po") -> Iterator[Path]:
    """Every catalog under the given files and folders, sorted, each once."""
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob(f"*{suffix}") if p.is_file())
        elif path.is_file():
            found = [path]
        else:
            raise UserError("no such file or directory", path)
        for item in found:
            if item not in seen:
                seen.add(item)
                yield item


def is_translated(entry: polib.POEntry) -> bool:
    return has_translation(entry) and not entry.obsolete and "fuzzy" not in entry.flags


# --------------------------------------------------------------------------- merge


@dataclass
class MergeStats:
    """What one update did to one catalog."""

    entries: int = 0
    new: int = 0
    kept: int = 0          # translated (or fuzzy) entries whose msgid is unchanged
    fuzzy: int = 0         # old translations carried to a changed msgid, marked fuzzy
    revived: int = 0       # obsolete translations whose msgid came back
    obsolete: int = 0      # translations whose msgid is gone, kept as #~ entries
    dropped_untranslated: int = 0

    def add(self, other: "MergeStats") -> None:
        for name in ("entries", "new", "kept", "fuzzy", "revived", "obsolete", "dropped_untranslated"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def _key(entry: polib.POEntry) -> tuple[str | None, str]:
    return (entry.msgctxt, entry.msgid)


def _normalise_occurrences(occurrences, pot_dir: Path | None, srcdir: Path | None):
    """Locations that do not depend on where the checkout or the build lives.

    Documents: relative to the docs tree (``notebooks/x.ipynb:20003``). Docstrings:
    relative to site-packages (``jax/errors.py:docstring of ...``).
    """
    if pot_dir is None or srcdir is None:
        return list(occurrences)
    out = []
    for name, line in occurrences:
        absolute = (pot_dir / name).resolve() if not os.path.isabs(name) else Path(name)
        try:
            name = absolute.relative_to(srcdir.resolve()).as_posix()
        except ValueError:
            posix = name.replace(os.sep, "/")
            if "site-packages/" in posix:
                name = posix.split("site-packages/", 1)[1]
            elif posix.endswith(">") and "<" in posix:
                name = posix[posix.rindex("<"):]
        out.append((name, line))
    return out


def _best_match(msgid: str, candidates: list[polib.POEntry]) -> polib.POEntry | None:
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(msgid)
    best, best_ratio = None, FUZZY_CUTOFF
    for cand in candidates:
        matcher.set_seq1(cand.msgid)
        if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
            continue
        ratio = matcher.ratio()
        if ratio > best_ratio or (best is None and ratio >= best_ratio):
            best, best_ratio = cand, ratio
    return best


def merge(po: polib.POFile, pot: polib.POFile, *, pot_dir: Path | None = None,
          srcdir: Path | None = None) -> tuple[polib.POFile, MergeStats]:
    """Merge a template into a catalog without ever losing a translation.

    * same msgid: translation, fuzzy flag, translator comments kept; locations and
      extracted comments from the template;
    * changed msgid: the most similar vanished translation becomes a fuzzy suggestion
      with the old text as previous msgid (``#| msgid``); each old translation seeds at
      most one new entry, so counts add up;
    * vanished msgid: obsolete (``#~``), kept; untranslated ones are simply dropped;
    * msgid that comes back: its obsolete translation is revived.
    """
    stats = MergeStats()
    active = {_key(e): e for e in po if not e.obsolete}
    obsolete = {_key(e): e for e in po if e.obsolete}
    result = polib.POFile(wrapwidth=WRAP_WIDTH)
    result.header = po.header
    result.metadata = dict(po.metadata)
    result.metadata_is_fuzzy = po.metadata_is_fuzzy
    result.fpath = po.fpath

    used: set[tuple[str | None, str]] = set()
    unmatched: list[polib.POEntry] = []
    for template in pot:
        if not template.msgid:
            continue
        key = _key(template)
        entry = polib.POEntry(
            msgid=template.msgid,
            msgid_plural=template.msgid_plural,
            msgctxt=template.msgctxt,
            occurrences=_normalise_occurrences(template.occurrences, pot_dir, srcdir),
            comment=template.comment,
            flags=[f for f in template.flags if f != "fuzzy"],
        )
        old = active.get(key)
        if old is None and key in obsolete and has_translation(obsolete[key]):
            old = obsolete.pop(key)
            stats.revived += 1
        elif old is not None:
            used.add(key)
            if has_translation(old):
                stats.kept += 1
        if old is not None:
            _carry_translation(old, entry)
            if old.fuzzy:
                entry.flags.append("fuzzy")
                entry.previous_msgid = old.previous_msgid
                entry.previous_msgctxt = old.previous_msgctxt
        else:
            unmatched.append(entry)
            stats.new += 1
        if entry.msgid_plural and not entry.msgstr_plural:
            entry.msgstr_plural = {i: "" for i in range(_nplurals(po))}
        result.append(entry)

    vanished = [e for k, e in active.items() if k not in used]
    candidates = [e for e in vanished if has_translation(e)]
    stats.dropped_untranslated = sum(1 for e in vanished if not has_translation(e))
    for entry in unmatched:
        if not candidates:
            break
        source = _best_match(entry.msgid, candidates)
        if source is None:
            continue
        candidates.remove(source)
        _carry_translation(source, entry)
        entry.flags.append("fuzzy")
        entry.previous_msgid = source.msgid
        entry.previous_msgctxt = source.msgctxt
        stats.fuzzy += 1
        stats.new -= 1

    for entry in obsolete.values():
        result.append(entry)
    for entry in candidates:
        entry.obsolete = True
        entry.occurrences = []
        # polib writes an obsolete previous msgid as `#~|`, which it cannot read back.
        entry.previous_msgid = entry.previous_msgctxt = entry.previous_msgid_plural = None
        result.append(entry)
        stats.obsolete += 1
    stats.entries = sum(1 for e in result if not e.obsolete)
    return result, stats


def _carry_translation(old: polib.POEntry, entry: polib.POEntry) -> None:
    """Copy a translation (singular or plural forms) and its translator comment."""
    entry.tcomment = old.tcomment
    if entry.msgid_plural:
        forms = dict(old.msgstr_plural) or ({0: old.msgstr} if old.msgstr else {})
        entry.msgstr_plural = forms
    else:
        entry.msgstr = old.msgstr or old.msgstr_plural.get(0, "")


def _nplurals(catalog: polib.POFile) -> int:
    match = re.search(r"nplurals\s*=\s*(\d+)", catalog.metadata.get("Plural-Forms", ""))
    return int(match.group(1)) if match else 1


def new_catalog(pot: polib.POFile, language: str, *, pot_dir: Path | None = None,
                srcdir: Path | None = None) -> polib.POFile:
    """A fresh catalog for a template, with a stable header (no dates that churn)."""
    po = polib.POFile(wrapwidth=WRAP_WIDTH)
    give_header(po, pot, language)
    empty = polib.POFile(wrapwidth=WRAP_WIDTH)
    merged, _ = merge(empty, pot, pot_dir=pot_dir, srcdir=srcdir)
    for entry in merged:
        po.append(entry)
    return po


def give_header(po: polib.POFile, pot: polib.POFile, language: str) -> None:
    """The project's header (comment and fields) for a catalog that has none."""
    po.header = (f"{language} translation of the JAX documentation (jax-docs-ko).\n"
                 "Distributed under the same license as the JAX docs (Apache-2.0).")
    po.metadata = {
        "Project-Id-Version": pot.metadata.get("Project-Id-Version", "JAX"),
        "Report-Msgid-Bugs-To": "",
        "Language": language,
        "Language-Team": f"{language} <https://github.com/jax-docs-ko/jax-docs-ko>",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=1; plural=0;",
    }
