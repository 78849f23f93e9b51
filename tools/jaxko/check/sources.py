"""Is a message a code block, a math block or text? Ask the source, else guess.

Sphinx extracts literal blocks (``gettext_additional_targets = ['literal-block']``),
notebook code cells and math blocks as messages of their own, with their text kept
as written (newlines included); paragraphs have their newlines replaced by spaces.
So:

1. When the staged source of the ``#:`` location is at hand (``_build/upstream/docs``
   or ``--source-dir``), its literal blocks, code cells and math blocks are collected
   once per document (fenced and ``{code-cell}`` blocks in MyST, notebook code cells,
   ``::`` blocks and ``code-block``-like directives in reST, ``$$``/``{math}``/
   ``.. math::``) and the msgid is looked up among them, whitespace-normalised. That
   also gives the block's language.
2. Otherwise: a msgid with a newline is a literal-type node (code, unless it reads as
   LaTeX: then math); a one-line msgid is code when it parses as Python and has code
   punctuation (``type(x)``, ``import jax``, ``x = 1``) or starts with a prompt
   (``>>>``, ``$``).
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from jaxko.check.message import CODE, MATH, MYST, RST, TEXT

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})[ \t]*(?P<info>[^\n]*)$")
_DIRECTIVE_INFO = re.compile(r"^\{(?P<name>[\w:.-]+)\}\s*(?P<arg>.*)$")
_RST_DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)\.\.[ \t]+(?P<name>[\w:.-]+)::[ \t]*(?P<arg>.*)$")
_RST_OPTION = re.compile(r"^[ \t]*:[\w -]+:")
_LATEX = re.compile(r"\\(?:frac|sum|prod|int|begin|end|mathbf|mathrm|left|right|partial|nabla|"
                    r"alpha|beta|gamma|delta|sigma|theta|lambda|mu|pi|cdot|times|leq|geq|"
                    r"sqrt|hat|bar|tilde|operatorname|text|quad|mathcal|infty|to|in)\b|\\\\|&=|\^\{|_\{")
_CODE_PUNCTUATION = re.compile(r"[()\[\]=]|^\s*(?:import|from)\s|\.\w")
# Three words in a row: a sentence, even when it parses (`f(x) is fine`); a word, a
# space and a parenthesis is prose style too ("Conda (community-supported)").
_PROSE = re.compile(r"[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}|`|\{|[A-Za-z] \([A-Za-z]")
_PROMPT = re.compile(r"^\s*(?:>>>|\$ |%|!)")
_MYST_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+.:_])\1{2,}[ \t]*$")

CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "code-cell", "testcode",
                             "testsetup", "testoutput", "doctest", "jupyter-execute",
                             "ipython", "prompt", "literalinclude"})
MATH_DIRECTIVES = frozenset({"math"})
_NESTED_RST = frozenset({"eval-rst"})


def normalise(text: str) -> str:
    """Whitespace-insensitive form of a block: dedented, no trailing spaces or blank edges."""
    if "\n" not in text:  # a paragraph (most messages): the same as the general case
        return text.rstrip().lstrip(" \t")
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return textwrap.dedent("\n".join(lines))


class Kind(NamedTuple):
    """What a message is in its source document."""

    block: str                  # TEXT, CODE or MATH
    language: str | None = None  # of a code block
    heading: bool = False       # a section title (not the first use of a term, not prose)


@dataclass
class DocumentBlocks:
    """Code blocks (text -> language), math blocks and headings of one source document."""

    code: dict[str, str | None] = field(default_factory=dict)
    math: set[str] = field(default_factory=set)
    headings: set[str] = field(default_factory=set)

    def add_code(self, text: str, language: str | None) -> None:
        key = normalise(_strip_directive_options(text))
        if key:
            self.code.setdefault(key, language)
        full = normalise(text)
        if full:
            self.code.setdefault(full, language)

    def add_math(self, text: str) -> None:
        key = normalise(text)
        if key:
            self.math.add(key)


def split_directive_options(text: str) -> tuple[str, str]:
    """(option block, content) of a MyST directive's body: its ``:key: value`` lines or
    its ``---`` YAML block, then the rest (an unclosed block is all content)."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() == "---":
                return "\n".join(lines[:i + 1]), "\n".join(lines[i + 1:])
        return "", text
    i = 0
    while i < len(lines) and _RST_OPTION.match(lines[i]):
        i += 1
    return "\n".join(lines[:i]), "\n".join(lines[i:])


def _strip_directive_options(text: str) -> str:
    """Content of a MyST directive without its ``:key: value`` or ``---`` option block."""
    return split_directive_options(text)[1]


# -------------------------------------------------------------------------- MyST


def markdown_blocks(text: str, blocks: DocumentBlocks) -> None:
    """Collect fenced code, ``{code-cell}``, ``{math}`` and ``$$`` blocks of MyST text."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("$$"):
            rest = stripped[2:]
            if rest.rstrip().endswith("$$") and len(rest.rstrip()) >= 2:
                blocks.add_math(rest.rstrip()[:-2])
                i += 1
                continue
            body = [rest] if rest else []
            j = i + 1
            while j < len(lines) and "$$" not in lines[j]:
                body.append(lines[j])
                j += 1
            if j < len(lines):
                body.append(lines[j].split("$$", 1)[0])
            blocks.add_math("\n".join(body))
            i = j + 1
            continue
        match = _FENCE.match(line)
        if match is None:
            heading = _MYST_HEADING.match(line)
            if heading:
                blocks.headings.add(normalise(heading.group(1)))
            i += 1
            continue
        fence = match.group("fence")
        info = match.group("info").strip()
        if fence[0] == "`" and "`" in info:  # inline code, not a fence
            i += 1
            continue
        indent = len(match.group("indent"))
        body = []
        j = i + 1
        while j < len(lines):
            close = lines[j].strip()
            if close.startswith(fence[0] * len(fence)) and not close.strip(fence[0]):
                break
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        content = "\n".join(body)
        directive = _DIRECTIVE_INFO.match(info)
        if directive:
            name = directive.group("name")
            arg = directive.group("arg").strip() or None
            if name in MATH_DIRECTIVES:
                blocks.add_math(_strip_directive_options(content))
            elif name in CODE_DIRECTIVES:
                blocks.add_code(content, arg or ("python" if name == "code-cell" else None))
            elif name in _NESTED_RST:
                rst_blocks(_strip_directive_options(content), blocks)
            else:  # admonitions and the like hold MyST
                markdown_blocks(_strip_directive_options(content), blocks)
        elif fence[0] != ":":
            blocks.add_code(content, info.split()[0] if info else None)
        else:
            markdown_blocks(content, blocks)
        i = j + 1


def notebook_blocks(text: str, blocks: DocumentBlocks) -> None:
    """Code cells and the blocks inside markdown cells of a notebook."""
    try:
        notebook = json.loads(text)
    except ValueError:
        return
    language = "python"
    meta = notebook.get("metadata", {}) if isinstance(notebook, dict) else {}
    info = meta.get("language_info") or meta.get("kernelspec") or {}
    if isinstance(info, dict) and info.get("language"):
        language = str(info["language"])
    for cell in notebook.get("cells", []) if isinstance(notebook, dict) else []:
        if not isinstance(cell, dict):
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if cell.get("cell_type") == "code":
            blocks.add_code(source, language)
        elif cell.get("cell_type") == "markdown":
            markdown_blocks(source, blocks)


# --------------------------------------------------------------------------- reST


def rst_blocks(text: str, blocks: DocumentBlocks) -> None:
    """``::`` literal blocks, code-block-like directives and ``.. math::`` of reST text."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        match = _RST_DIRECTIVE.match(line)
        kind = language = None
        if match:
            name = match.group("name")
            if name in CODE_DIRECTIVES:
                kind, language = CODE, (match.group("arg").strip() or None)
            elif name in MATH_DIRECTIVES:
                kind = MATH
                if match.group("arg").strip():
                    blocks.add_math(match.group("arg"))
            base = len(match.group("indent"))
        elif line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            kind, language, base = CODE, "python", len(line) - len(line.lstrip())
        if kind is None:
            if (line.strip() and i + 1 < len(lines) and _RST_UNDERLINE.match(lines[i + 1])
                    and len(lines[i + 1].rstrip()) >= len(line.rstrip())):
                blocks.headings.add(normalise(line))
            i += 1
            continue
        j = i + 1
        # Options of a directive come first, then the content after a blank line.
        while j < len(lines) and match and _RST_OPTION.match(lines[j]):
            j += 1
        body = []
        while j < len(lines):
            current = lines[j]
            if current.strip() and len(current) - len(current.lstrip()) <= base:
                break
            body.append(current)
            j += 1
        content = "\n".join(body)
        if kind == MATH:
            for part in re.split(r"\n[ \t]*\n", content):  # each paragraph is one equation
                blocks.add_math(part)
            blocks.add_math(content)
        else:
            blocks.add_code(content, language)
        i = j


# -------------------------------------------------------------------------- index


class SourceIndex:
    """Looks messages up in the staged source documents; parses each document once."""

    def __init__(self, srcdir: Path | None):
        self.srcdir = srcdir if srcdir is not None and srcdir.is_dir() else None
        self._documents: dict[str, DocumentBlocks | None] = {}

    def blocks(self, document: str) -> DocumentBlocks | None:
        if self.srcdir is None:
            return None
        if document in self._documents:
            return self._documents[document]
        found: DocumentBlocks | None = None
        path = (self.srcdir / document)
        try:
            inside = path.resolve().is_relative_to(self.srcdir.resolve())
            text = path.read_text(encoding="utf-8") if inside and path.is_file() else None
        except (OSError, UnicodeDecodeError, ValueError):
            text = None
        if text is not None:
            found = DocumentBlocks()
            suffix = path.suffix.lower()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if suffix == ".ipynb":
                    notebook_blocks(text, found)
                elif suffix == ".md":
                    markdown_blocks(text, found)
                else:
                    rst_blocks(text, found)
        self._documents[document] = found
        return found

    def catalog_syntax(self, catalog: Path) -> str | None:
        """The syntax Sphinx parses the msgstrs of ``catalog`` with: that of the document
        the catalog translates (``LC_MESSAGES/a/b.po`` is document ``a/b``: Sphinx picks
        the parser by the document's file, whatever its ``#:`` lines claim), or None
        when there is no staged source or no such document."""
        if self.srcdir is None:
            return None
        for name, syntax in self.catalog_documents(catalog):
            if (self.srcdir / name).is_file():
                return syntax
        return None

    @staticmethod
    def catalog_documents(catalog: Path) -> list[tuple[str, str]]:
        """(source file, syntax) that may be the document ``catalog`` translates, in
        Sphinx's order of ``source_suffix``; none for a catalog outside LC_MESSAGES."""
        parts = Path(catalog).parts
        if "LC_MESSAGES" not in parts:
            return []
        at = len(parts) - 1 - parts[::-1].index("LC_MESSAGES")
        if at + 1 >= len(parts):
            return []
        docname = Path(*parts[at + 1:]).with_suffix("").as_posix()
        return [(docname + ".ipynb", MYST), (docname + ".md", MYST), (docname + ".rst", RST)]

    def classify(self, msgid: str, document: str | None) -> Kind:
        """Whether the msgid is a code block (and its language), a math block, a heading or text."""
        blocks = self.blocks(document) if document else None
        if blocks is not None:
            key = normalise(msgid)
            if key in blocks.code:
                return Kind(CODE, blocks.code[key] or _guess_language(msgid))
            if key in blocks.math:
                return Kind(MATH)
            if "\n" not in msgid:
                return Kind(TEXT, heading=key in blocks.headings)
        return guess(msgid)


_TEXT = Kind(TEXT)


def guess(msgid: str) -> Kind:
    """The heuristic when the source is not at hand (see the module docstring)."""
    if _PROMPT.match(msgid):  # a doctest or a shell session, whatever its output holds
        return Kind(CODE, _guess_language(msgid))
    if "\n" in msgid:
        if _LATEX.search(msgid) and not re.search(r"^\s*(?:def|import|from|for|if|print)\b", msgid, re.M):
            return Kind(MATH)
        return Kind(CODE, _guess_language(msgid))
    if not _PROSE.search(msgid) and _CODE_PUNCTUATION.search(msgid) and _parses(msgid):
        return Kind(CODE, "python")
    return _TEXT


def _guess_language(code: str) -> str:
    """python for anything Python's tokenizer takes (codetokens falls back to lines)."""
    return "python"


def _parses(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True
