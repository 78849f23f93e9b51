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

# A quoted string on a keyword or continuation line (obsolete `#~` and previous `#|`
# lines included) whose escapes are not gettext's: \q, a trailing lone backslash.
_BAD_ESCAPE = re.compile(
    r'^(?:#[~|] ?)?(?:(?:msgctxt|msgid(?:_plural)?|msgstr(?:\[\d+\])?)[ \t]+)?'
    r'"(?:[^"\\\n]|\\[\\ntrvbf"])*\\(?:[^\\ntrvbf"]|$)', re.M)
# A string that opens and never closes on its line (polib drops its last character).
_UNTERMINATED = re.compile(
    r'^(?:#[~|] ?)?(?:(?:msgctxt|msgid(?:_plural)?|msgstr(?:\[\d+\])?)[ \t]*)?'
    r'"(?:[^"\\\n]|\\.)*[ \t\r]*$', re.M)
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
    match = _UNTERMINATED.search(text)
    if match:
        raise UserError("unterminated string in catalog; close the quote", path,
                        _line_of(text, match.start()))
    if "\\" in text:
        match = _BAD_ESCAPE.search(text)
        if match:
            raise UserError(f"invalid escape sequence in a string; {_RESTORE}", path,
                            _line_of(text, match.end() - 1))
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


def check_duplicates(keys: Iterable[tuple[tuple, int]], path: str | Path) -> None:
    """Refuse two entries with the same key ((obsolete, msgctxt, msgid), line)."""
    seen: dict[tuple, int] = {}
    for key, line in keys:
        first = seen.setdefault(key, line)
        if first != line:
            raise UserError(f"duplicate msgid (also at line {first}); merge them with "
                            f"`jaxko fmt --merge-duplicates {path}`", path, line)
