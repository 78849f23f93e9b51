"""Code-cell sync: carry translated comments onto changed upstream code.

tensorflow/docs-l10n's ``nb_code_sync`` idea, from the catalogs: a code cell (or code
block) whose translation only translated comments and string texts is a fuzzy entry
after upstream changes its code. Its old code (``#|`` previous msgid), old translation
and new code are all in the entry, so the translated comments and strings are carried
onto the new code wherever the new code still has the same English comment or string.
The result stays fuzzy: a person checks it and clears the flag.
"""

from __future__ import annotations

import io
import re
import tokenize

from jaxko.codetokens import first_difference

_MAGIC_LINE = re.compile(r"^\s*(!|%)")
_Piece = tuple[str, str, tuple[int, int], tuple[int, int]]   # kind, text, start, end


def _pieces(code: str) -> list[_Piece] | None:
    """Comments and string literals of Python code, or None when it does not tokenize."""
    lines = code.split("\n")
    blanked = "\n".join("" if _MAGIC_LINE.match(line) else line for line in lines)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(blanked).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    return [("comment" if t.type == tokenize.COMMENT else "string", t.string, t.start, t.end)
            for t in tokens if t.type in (tokenize.COMMENT, tokenize.STRING)]


def _comment_lines(code: str) -> list[tuple[int, str]]:
    return [(i, line) for i, line in enumerate(code.split("\n")) if line.lstrip().startswith("#")]


def carry(old_code: str, new_code: str, old_translation: str) -> str | None:
    """The new code with the old translation's comments and strings; None if not applicable.

    Applies only when ``old_translation`` is ``old_code`` with nothing but comments and
    string texts changed (:func:`jaxko.codetokens.first_difference`), and something
    was translated. Returns None when nothing could be carried.
    """
    if old_translation == old_code or old_code == new_code:
        return None
    if first_difference(old_code, old_translation, "python") is not None:
        return None
    mapping = _python_mapping(old_code, old_translation)
    if mapping is not None:
        return _apply_python(new_code, mapping)
    return _carry_lines(old_code, new_code, old_translation)


def _python_mapping(old_code: str, old_translation: str) -> dict[tuple[str, str], str] | None:
    old, translated = _pieces(old_code), _pieces(old_translation)
    if old is None or translated is None:
        return None
    if [p[0] for p in old] != [p[0] for p in translated]:
        return {}   # comments added or removed: pairing by order is unsafe
    mapping: dict[tuple[str, str], str] = {}
    clash: set[tuple[str, str]] = set()
    for (kind, text, _, _), (_, rendered, _, _) in zip(old, translated):
        key = (kind, text)
        if text == rendered:
            continue
        if key in mapping and mapping[key] != rendered:
            clash.add(key)
        mapping[key] = rendered
    for key in clash:
        del mapping[key]
    return mapping


def _apply_python(new_code: str, mapping: dict[tuple[str, str], str]) -> str | None:
    if not mapping:
        return None
    pieces = _pieces(new_code)
    if pieces is None:
        return None
    lines = new_code.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    replacements = []
    for kind, text, start, end in pieces:
        rendered = mapping.get((kind, text))
        if rendered is not None:
            replacements.append((offsets[start[0] - 1] + start[1], offsets[end[0] - 1] + end[1], rendered))
    if not replacements:
        return None
    out = new_code
    for begin, finish, rendered in sorted(replacements, reverse=True):
        out = out[:begin] + rendered + out[finish:]
    return out


def _carry_lines(old_code: str, new_code: str, old_translation: str) -> str | None:
    """For code that is not Python: whole comment lines, paired by position."""
    old_lines, translated_lines = old_code.split("\n"), old_translation.split("\n")
    if len(old_lines) != len(translated_lines):
        return None
    mapping: dict[str, str] = {}
    for a, b in zip(old_lines, translated_lines):
        if a != b and a.lstrip().startswith("#"):
            mapping.setdefault(a, b)
    if not mapping:
        return None
    new_lines = [mapping.get(line, line) for line in new_code.split("\n")]
    out = "\n".join(new_lines)
    return out if out != new_code else None
