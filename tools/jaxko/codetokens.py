"""Does a translated piece of code still say the same thing as its source?

Translators may change comments and the text inside string literals of a code cell or
code block, nothing else. :func:`first_difference` compares a translation with its
source token by token and names the first token that changed, so a slip (an
identifier translated, a quote lost, a line dropped) is caught before anything runs.

* Python (``python``, ``ipython3``, ...) is compared with :mod:`tokenize`: comments and
  non-logical line breaks are ignored; a string literal must keep its prefix and
  quotes, its text may change; an f-string must keep its ``{...}`` fields. Spacing
  inside a line does not matter (the tokens are the same). The verdicts are the same
  on Python 3.11 and 3.12+ (:func:`_tokenize` reads both tokenizers' f-strings and
  broken quotes alike).
* IPython shell and magic lines (``!cmd``, ``%magic``, ``%%cell``) are compared as text.
  The body of a cell magic that is not Python (``%%bash``, ``%%writefile x.cc``) is
  compared like a non-Python language.
* Python that does not tokenize (pseudo-code, a fragment, a console session with its
  output) is compared line by line; comment-only lines may differ, and a ``>>>`` or
  ``...`` line is compared by its Python tokens (its comment may be translated); so is
  any other line with a comment that tokenizes on its own, whose strings and
  indentation stay exact (only its comment may be translated).
* Other languages: only comment-looking lines (``#``, ``//``, ``--``, as the language
  uses them) may differ; every other line must stay exactly the same. In shell code
  (``bash``, ``sh``, ``shell``, ``zsh``) a trailing comment may differ too: a ``#`` that
  starts a word outside quotes ends the command, as the shell reads it
  (``pip install -e .  # installs jax``); the command before it must stay the same.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

PYTHON_LANGUAGES = frozenset({
    "python", "python3", "py", "py3", "ipython", "ipython3", "ipython2", "sage",
    "pycon", "python-console", "default", "",
})

# Comment markers by language, for the line comparison of non-Python code.
_COMMENT_MARKERS: dict[str, tuple[str, ...]] = {
    **{name: ("#",) for name in ("bash", "sh", "shell", "console", "shell-session", "zsh",
                                 "yaml", "yml", "toml", "ini", "cfg", "cmake", "make",
                                 "makefile", "dockerfile", "r", "perl", "ruby", "text", "none")},
    **{name: ("//",) for name in ("c", "cpp", "c++", "cc", "cxx", "h", "hpp", "cuda", "cu",
                                  "java", "javascript", "js", "typescript", "ts", "go",
                                  "rust", "rs", "swift", "kotlin", "scala", "proto",
                                  "protobuf", "json5", "jsonc")},
    **{name: ("--",) for name in ("sql", "haskell", "hs", "lua", "ada")},
    **{name: ("//", "#") for name in ("mlir", "llvm", "hlo", "stablehlo")},
}
# Shell languages, whose code lines may end in a comment (`cmd  # note`).
_SHELL_LANGUAGES = frozenset({"bash", "sh", "shell", "zsh"})
# Unknown languages: any of the usual markers, `#` only when it looks like a comment
# (`# note`, `#!`), not a directive such as `#include`.
_GENERIC_COMMENT = re.compile(r"^\s*(#($|[\s#!:])|//|--(\s|$)|;)")

# Cell magics whose body is Python.
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "pypy",
                                 "python", "python3", "memit", "mprun"})
_MAGIC_LINE = re.compile(r"^\s*(!|%)")
_MAX_SHOWN = 40


def first_difference(source: str, translated: str, language: str = "python") -> str | None:
    """None when ``translated`` is ``source`` up to comments and string contents.

    Otherwise a one-line description of the first differing token, with the line
    number in the source, e.g. ``line 3: 'x' became 'y'``.
    """
    language = (language or "").strip().lower()
    if language in PYTHON_LANGUAGES:
        return _python_difference(source, translated)
    if language in _SHELL_LANGUAGES:
        return _line_difference(source, translated, _comment_test(language), _shell_command_key)
    return _line_difference(source, translated, _comment_test(language))


# ----------------------------------------------------------------------------- items


@dataclass(frozen=True)
class _Item:
    """One significant piece of code: what must be equal, and how to show it."""

    key: tuple
    shown: str
    line: int


def _describe(a: _Item | None, b: _Item | None) -> str:
    if a is not None and b is not None:
        return f"line {a.line}: {_show(a.shown)} became {_show(b.shown)}"
    if a is not None:
        return f"line {a.line}: {_show(a.shown)} is missing"
    assert b is not None
    return f"line {b.line} of the translation: {_show(b.shown)} was added"


def _show(text: str) -> str:
    if len(text) > _MAX_SHOWN:
        text = text[: _MAX_SHOWN - 1] + "…"
    return repr(text)


def _compare(a: list[_Item], b: list[_Item]) -> str | None:
    for x, y in zip(a, b):
        if x.key != y.key:
            return _describe(x, y)
    if len(a) > len(b):
        return _describe(a[len(b)], None)
    if len(b) > len(a):
        return _describe(None, b[len(a)])
    return None


# ---------------------------------------------------------------------------- python


class _NotPython(Exception):
    """The text does not tokenize as Python."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def _python_difference(source: str, translated: str) -> str | None:
    if source == translated:
        return None
    cell_a, body_a = _split_cell_magic(source)
    cell_b, body_b = _split_cell_magic(translated)
    if cell_a is not None or cell_b is not None:
        head_a = _Item(("magic", cell_a), cell_a or "", 1) if cell_a is not None else None
        head_b = _Item(("magic", cell_b), cell_b or "", 1) if cell_b is not None else None
        if head_a is None or head_b is None or head_a.key != head_b.key:
            return _describe(head_a or _first_item(source), head_b or _first_item(translated))
        magic = cell_a.split()[0][2:] if cell_a.split() else ""
        if magic not in _PYTHON_CELL_MAGICS and not _writes_python(cell_a):
            language = "bash" if magic in ("bash", "sh", "script", "system") else ""
            found = _line_difference(body_a, body_b, _comment_test(language))
            return _shift(found, 1)
        return _shift(_python_difference(body_a, body_b), 1)

    try:
        items_a = _python_items(source)
    except _NotPython:
        # Not Python to begin with (pseudo-code, a fragment, a console session with its
        # output): compare lines, the Python after a `>>>` prompt and any line that
        # tokenizes on its own by its tokens.
        return _line_difference(source, translated, _comment_test("python"), _fragment_line_key)
    try:
        items_b = _python_items(translated)
    except _NotPython as err:
        # The source tokenizes and the translation does not: a quote or bracket broke.
        where = f"line {err.line} of the translation" if err.line else "the translation"
        return f"{where}: no longer valid Python ({err})"
    return _compare(items_a, items_b)


def _first_item(text: str) -> _Item:
    first = text.split("\n", 1)[0]
    return _Item(("text", first), first, 1)


def _writes_python(cell_magic_line: str) -> bool:
    parts = cell_magic_line.split()
    return bool(parts) and parts[0] in ("%%writefile", "%%file") and parts[-1].endswith(".py")


def _split_cell_magic(code: str) -> tuple[str | None, str]:
    """(``%%magic args`` line or None, the rest) of a cell."""
    first, _, rest = code.partition("\n")
    if first.lstrip().startswith("%%") and not code.lstrip().startswith("%%%"):
        return first.rstrip(), rest
    return None, code


def _shift(found: str | None, lines: int) -> str | None:
    """Line numbers of a body compared apart from its first line, as cell line numbers."""
    if not found:
        return found
    return re.sub(r"^line (\d+)", lambda m: f"line {int(m.group(1)) + lines}", found)


def _python_items(code: str) -> list[_Item]:
    """The significant tokens of IPython code; magic and shell lines as whole lines."""
    lines = code.split("\n")
    magic = {i for i, text in enumerate(lines) if _MAGIC_LINE.match(text)}
    # A line that starts with `%` or `!` inside a multi-line string is not a magic;
    # find out with the magic lines blanked, and retry without the ones inside strings.
    for _ in range(3):
        blanked = [("#" if i in magic else text) for i, text in enumerate(lines)]
        tokens = _tokenize("\n".join(blanked))
        inside = {i for i in magic if _in_multiline_string(tokens, i + 1)}
        if not inside:
            break
        magic -= inside
    items: list[_Item] = []
    for tok in tokens:
        item = _token_item(tok)
        if item is not None:
            items.append(item)
    for i in magic:
        text = lines[i].strip()
        items.append(_Item(("magic", text), text, i + 1))
    items.sort(key=lambda item: (item.line, 0 if item.key[0] == "magic" else 1))
    return items


def _tokenize(code: str) -> list[tokenize.TokenInfo]:
    """The tokens of ``code``, an f-string as one STRING token on every Python.

    Python 3.12 (PEP 701) splits an f-string into FSTRING_START, FSTRING_MIDDLE, the
    tokens of its fields and FSTRING_END; 3.11 gives one STRING token. The comparison
    is defined on the 3.11 form, so a 3.12+ f-string is joined back into one token
    spanning its source text.
    """
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except tokenize.TokenError as err:
        line = err.args[1][0] if len(err.args) > 1 and err.args[1] else None
        raise _NotPython(_DETECTED_AT.sub("", str(err.args[0])), line) from None
    except (SyntaxError, IndentationError) as err:  # IndentationError: unindent mismatch
        raise _NotPython(err.msg, err.lineno) from None
    return _join_fstrings(_error_tokens(tokens), code)


# Python 3.12+ names the line of an unterminated string in its message; we name it apart.
_DETECTED_AT = re.compile(r" \(detected at line \d+\)$")


def _error_tokens(tokens: list[tokenize.TokenInfo]) -> list[tokenize.TokenInfo]:
    """Python 3.11's error tokens read as 3.12+ reads them: a quote that opens no string
    is an unterminated string literal (3.12+ raises); blanks before a stray character
    are spacing, not a token (3.12+ gives the character alone, as an operator)."""
    kept = []
    for tok in tokens:
        if tok.type == tokenize.ERRORTOKEN:
            if tok.string[:1] in ("'", '"'):
                raise _NotPython("unterminated string literal", tok.start[0])
            if not tok.string.strip():
                continue
        kept.append(tok)
    return kept


def _in_multiline_string(tokens: list[tokenize.TokenInfo], line: int) -> bool:
    for tok in tokens:
        if tok.type == tokenize.STRING and tok.start[0] < line <= tok.end[0]:
            return True
    return False


_IGNORED = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}
# Python 3.12+ (PEP 701): an f-string is FSTRING_START ... FSTRING_END.
_FSTRING_START = getattr(tokenize, "FSTRING_START", None)
_FSTRING_END = getattr(tokenize, "FSTRING_END", None)


def _join_fstrings(tokens: list[tokenize.TokenInfo], code: str) -> list[tokenize.TokenInfo]:
    """``tokens`` with each outermost FSTRING_START ... FSTRING_END run replaced by
    one STRING token holding the f-string's source text (as Python 3.11 reads it)."""
    if _FSTRING_START is None:
        return tokens
    lines = code.splitlines(keepends=True)

    def text(start: tuple[int, int], end: tuple[int, int]) -> str:
        (row_a, col_a), (row_b, col_b) = start, end
        if row_a == row_b:
            return lines[row_a - 1][col_a:col_b]
        return (lines[row_a - 1][col_a:] + "".join(lines[row_a: row_b - 1])
                + lines[row_b - 1][:col_b])

    joined: list[tokenize.TokenInfo] = []
    depth, first = 0, None
    for tok in tokens:
        if tok.type == _FSTRING_START:
            if depth == 0:
                first = tok
            depth += 1
        elif tok.type == _FSTRING_END and depth:
            depth -= 1
            if depth == 0:
                assert first is not None
                joined.append(tokenize.TokenInfo(tokenize.STRING, text(first.start, tok.end),
                                                 first.start, tok.end, first.line))
        elif depth == 0:
            joined.append(tok)
    return joined
_STRING_START = re.compile(r"^([A-Za-z]*)('''|\"\"\"|'|\")")


def _token_item(tok: tokenize.TokenInfo) -> _Item | None:
    if tok.type in _IGNORED:
        return None
    line = tok.start[0]
    if tok.type == tokenize.NEWLINE:
        return _Item(("newline",), "end of line", line)
    if tok.type == tokenize.DEDENT:
        return _Item(("dedent",), "end of block", line)
    if tok.type == tokenize.INDENT:
        return _Item(("indent", tok.string), "indentation", line)
    if tok.type == tokenize.STRING:
        match = _STRING_START.match(tok.string)
        if match is None:  # cannot happen for a STRING token; compare as is
            return _Item(("string", tok.string), tok.string, line)
        prefix, quote = match.group(1).lower(), match.group(2)
        fields: tuple[str, ...] = ()
        if "f" in prefix:
            body = tok.string[len(match.group(0)): len(tok.string) - len(quote)]
            fields = tuple(_fstring_fields(body))
        shown = f"{prefix}{quote}…{quote}" if not fields else f"{prefix}{quote}…{{{fields[0]}}}…{quote}"
        return _Item(("string", prefix, quote, fields), shown, line)
    return _Item((tok.type, tok.string), tok.string, line)


def _fstring_fields(body: str) -> list[str]:
    """The ``{...}`` replacement fields of an f-string body, ``{{``/``}}`` skipped."""
    fields = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch == "{":
            if i + 1 < n and body[i + 1] == "{":
                i += 2
                continue
            depth, j, quote = 1, i + 1, None
            while j < n and depth:
                c = body[j]
                if quote:
                    if c == quote:
                        quote = None
                elif c in "'\"":
                    quote = c
                elif c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                j += 1
            fields.append(body[i + 1: j - 1].strip())
            i = j
        else:
            i += 1
    return fields


# ------------------------------------------------------------------------------ lines


def _comment_test(language: str):
    markers = _COMMENT_MARKERS.get(language)
    if language in PYTHON_LANGUAGES:
        return lambda line: line.lstrip().startswith("#")
    if markers is None:
        return lambda line: bool(_GENERIC_COMMENT.match(line))
    return lambda line: line.lstrip().startswith(markers)


_PROMPT = re.compile(r"^\s*(?:>>>|\.\.\.)(?: |$)")


def _prompt_key(line: str) -> tuple | None:
    """The significant tokens of a `>>>`/`...` line (its comment and string contents may
    change, as in any Python), or None for any other line or one that does not tokenize."""
    match = _PROMPT.match(line)
    if match is None:
        return None
    try:
        tokens = _tokenize(line[match.end():])
    except _NotPython:
        return None
    return tuple(item.key for item in map(_token_item, tokens) if item is not None)


def _shell_command_key(line: str) -> tuple:
    """A shell line without its trailing comment: the text before the first ``#`` that
    starts a word (after an unescaped blank) outside single and double quotes and not
    escaped. A ``#`` inside a word (``$#``, ``${#a}``, ``a#b``, ``a\\ #b``) or inside
    quotes is code."""
    quote = None
    escaped = False
    after_blank = False  # the previous character was an unquoted, unescaped blank
    for index, char in enumerate(line):
        blank = False
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and after_blank:
            return ("shell", line[:index].rstrip())
        else:
            blank = char in " \t"
        after_blank = blank
    return ("shell", line.rstrip())


def _fragment_line_key(line: str) -> tuple | None:
    """A line of code that is not Python as a whole: a prompt line by its Python tokens
    (:func:`_prompt_key`); any other line that has a comment and tokenizes on its own
    by its indentation and exact tokens, so only its comment may change
    (``devices = jax.devices()  # 8 devices`` in a block with a stray bracket
    elsewhere; strings stay exact, as such a line may be output); None (compared as
    text) for any other line."""
    if _PROMPT.match(line):
        return _prompt_key(line)
    stripped = line.lstrip(" \t")
    if "#" not in stripped:
        return None
    try:
        tokens = _tokenize(stripped)
    except _NotPython:
        return None
    if not any(tok.type == tokenize.COMMENT for tok in tokens):
        return None
    return ("code", line[: len(line) - len(stripped)],
            tuple((tok.type, tok.string) for tok in tokens if tok.type not in _IGNORED))


def _line_difference(source: str, translated: str, is_comment, code_key=lambda line: None) -> str | None:
    """Lines compared as text (or by ``code_key`` where it has one); blank and
    comment-only lines may differ."""

    def significant(text: str) -> list[_Item]:
        items = []
        for number, line in enumerate(text.split("\n"), start=1):
            if not line.strip() or is_comment(line):
                continue
            key = code_key(line)
            items.append(_Item(("line", line.rstrip()) if key is None else ("prompt", key),
                               line.strip(), number))
        return items

    return _compare(significant(source), significant(translated))
