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
_STRING_BODY = r'"[^"\\\n]*(?:\\[\\ntrvbf"][^"\\\n]*)*"[ \t\r]*$'
_BAD_STRING_LINE = re.compile(
    r'^(?:#[~|] ?)?(?:(?:msgctxt|msgid(?:_plural)?|msgstr(?:\[\d+\])?)[ \t]*)?(?=")'
    r'(?!' + _STRING_BODY + ')', re.M)
_ESCAPED_BODY = re.compile(r'"((?:[^"\\\n]|\\.)*)("?)')
_GOOD_ESCAPE = re.compile(r'\\[\\ntrvbf"]')
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
_KEYWORD = r'(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)[ \t]+"'
_BAD_LINE = re.compile(
    r'^(?![ \t]*(?:$|\r|"|' + _KEYWORD + r'|#(?:[ \t\r#]|$)|#[:,.](?:[ \t\r]|$)'
    r'|#\|[ \t]+(?:' + _KEYWORD + r'|")|#~\||#~[ \t]+(?:' + _KEYWORD + r'|"|#)))', re.M)
_MARKER_WITHOUT_SPACE = re.compile(r'[ \t]*#(?:[:,.|]|~\|?)?+\S')
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


def check_text(text: str, path: str | Path) -> None:
    """Refuse, as one UserError naming the line, what no command may read."""
    if text.startswith("\ufeff"):
        raise UserError("the catalog starts with a byte order mark (BOM); save it as UTF-8 "
                        "without BOM", path, 1)
    nul = text.find("\0")
    if nul >= 0:
        raise UserError(f"NUL byte in catalog; {_RESTORE}", path, _line_of(text, nul))
    match = _BAD_STRING_LINE.search(text)
    if match:
        raise UserError(_string_error(text, match.end()), path, _line_of(text, match.start()))
    match = _BAD_LINE.search(text)
    if match:
        end = text.find("\n", match.start())
        line = text[match.start(): end if end >= 0 else len(text)].strip()
        what = (f"comment `{line[:20]}` needs a space after its marker (`#, fuzzy`)"
                if _MARKER_WITHOUT_SPACE.match(line) else f"not a gettext line: `{line[:40]}`")
        raise UserError(f"{what}; {_RESTORE}", path, _line_of(text, match.start()))
    match = _MSGSTR_MISSING.search(text)
    if match:
        found = _NEXT_KEYWORD.match(text, match.end()).group(1)
        what = ("entry without msgstr" if found is None
                else "plural entry (msgid_plural) with a plain msgstr; write msgstr[0]"
                if match.group(1) else "msgstr[n] without msgid_plural")
        raise UserError(f"{what}; {_RESTORE}", path, _line_of(text, match.start()))
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


def _string_error(text: str, quote: int) -> str:
    """What is wrong with the string that opens at ``quote`` (a line _BAD_STRING_LINE found)."""
    end = text.find("\n", quote)
    line = text[quote: end if end >= 0 else len(text)].rstrip("\r")
    body, closed = _ESCAPED_BODY.match(line).groups()
    if _GOOD_ESCAPE.sub("", body).count("\\"):
        return f"invalid escape sequence in a string; {_RESTORE}"
    if not closed:
        return "unterminated string in catalog; close the quote"
    return f'unescaped double quote in a string; write \\" inside a string, or {_RESTORE}'


def check_duplicates(keys: Iterable[tuple[tuple, int]], path: str | Path) -> None:
    """Refuse two entries with the same key ((obsolete, msgctxt, msgid), line)."""
    seen: dict[tuple, int] = {}
    for key, line in keys:
        first = seen.setdefault(key, line)
        if first != line:
            raise UserError(f"duplicate msgid (also at line {first}); merge them with "
                            f"`jaxko fmt --merge-duplicates {path}`", path, line)
