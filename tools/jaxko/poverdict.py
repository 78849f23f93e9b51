"""The one verdict on what a valid catalog is, shared by every command that reads one.

``jaxko fmt`` and ``jaxko update`` (polib, through :func:`jaxko.catalogs.load`), the
checker's fast reader (:mod:`jaxko.check.pofile`) and the statistics scan
(:mod:`jaxko.workflow.poscan`) parse catalogs three ways for speed; what they refuse is
decided here, so the same malformed file gives the same ``file:line`` error and exit 2
from ``check``, ``stats``, ``fmt``, ``update`` and ``site build``.

Two parts: :func:`check_text` looks at the raw text (one regular expression pass per
kind, so it costs little beside a parse), and :func:`check_duplicates` looks at the
entry keys a reader produced.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

from jaxko.errors import UserError

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
_ENTRY = re.compile(_AROUND + r'(?>' + _body('') + r'|' + _body(r'#~[ \t]+') + r')')
# After the last entry only blank lines: polib drops a trailing comment.
_CATALOG = re.compile(r'(?:' + _ENTRY.pattern + r')*+(?:[ \t\r]*\n)*+\Z')
_OBSOLETE_KEY = re.compile(
    r'^#~[ \t]+(?:msgctxt[ \t]+("[^\n]*"(?:\n#~[ \t]+"[^\n]*")*)\n#~[ \t]+)?'
    r'msgid[ \t]+("[^\n]*"(?:\n#~[ \t]+"[^\n]*")*)', re.M)
_QUOTED = re.compile(r'"(.*)"')
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


def read_catalog_text(path: Path) -> str:
    """A catalog's text for a reader: one-line errors for unreadable or bad UTF-8 (with
    its line), then :func:`check_text`."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UserError("catalog not found", path) from None
    except OSError as err:
        raise UserError(f"cannot read catalog: {err.strerror}", path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise UserError("not valid UTF-8; save the catalog as UTF-8", path, line) from None
    check_text(text, path)
    return text


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
    while (match := _ENTRY.match(text, pos)) is not None and match.end() > pos:
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
