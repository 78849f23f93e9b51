"""Where each message of a markdown cell sits in the cell's text, and applying msgstrs.

Sphinx extracts a notebook's markdown cell by parsing it with MyST's markdown-it
parser: a paragraph, heading, list item, table cell or term becomes one message whose
msgid is the block's inline source with line breaks joined by spaces (Sphinx's
``rawsource.replace('\\n', ' ').strip()``); an image's alt text is a message of its
own; a code block is a message whose msgid is its content. To put a translation back
into the cell we parse the cell with the same parser and the same MyST extensions,
find each such block's source span, and replace the span whose msgid is translated.
Directives (```` ```{note} ````, ``:::{tip}``) are parsed recursively, as MyST does.
"""

from __future__ import annotations

import ast
import bisect
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it.renderer import RendererHTML

from jaxko import paths

# Directives whose body is code or verbatim text: one literal message (or none).
LITERAL_DIRECTIVES = frozenset({
    "code-block", "code", "sourcecode", "code-cell", "literalinclude", "math", "raw",
    "mermaid", "graphviz", "highlight", "parsed-literal", "doctest", "testcode",
    "testoutput", "jupyter-execute", "ipython", "csv-table", "raw-cell",
})
CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "code-cell", "ipython",
                             "jupyter-execute", "doctest", "testcode"})
# Directives whose body is reStructuredText, not Markdown.
RST_DIRECTIVES = frozenset({"eval-rst", "eval-restructuredtext"})
DEFAULT_EXTENSIONS = ("dollarmath",)  # fallback when conf.py cannot be read; as conf.py


@dataclass
class Slot:
    """One message's place in a text: [start, end) offsets and the msgid there."""

    start: int
    end: int
    msgid: str
    kind: str  # "inline" (paragraph, heading, ...), "literal" (code block), "alt", "title"
    children: list["Slot"] = field(default_factory=list)
    language: str | None = None  # code blocks: the highlight language ("" when unnamed)


# --------------------------------------------------------------------------- parser


def _conf_extensions() -> tuple[str, ...]:
    """``myst_enable_extensions`` of the project's conf.py, read without running it."""
    for conf in (paths.repo_root() / "conf.py", Path(__file__).resolve().parents[3] / "conf.py"):
        try:
            tree = ast.parse(conf.read_text(encoding="utf-8"))
            break
        except (OSError, SyntaxError):
            continue
    else:
        return DEFAULT_EXTENSIONS
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "myst_enable_extensions"):
            try:
                return tuple(ast.literal_eval(node.value))
            except ValueError:
                break
    return DEFAULT_EXTENSIONS


@functools.lru_cache(maxsize=1)
def md_config():
    """The MyST parser configuration Sphinx uses for the docs (conf.py's extensions)."""
    from myst_parser.config.main import MdParserConfig

    return MdParserConfig(enable_extensions=set(_conf_extensions()))


@functools.lru_cache(maxsize=1)
def _parser():
    from myst_parser.parsers.mdit import create_md_parser

    return create_md_parser(md_config(), RendererHTML)


# ---------------------------------------------------------------------------- slots


class _Text:
    """A text with line offsets, to turn token line maps into character offsets."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def line_start(self, line: int) -> int:
        return self.starts[min(max(line, 0), len(self.lines))]

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line`` (before its newline)."""
        line = min(max(line, 0), len(self.lines) - 1)
        return self.starts[line] + len(self.lines[line])


def _flexible(content: str) -> re.Pattern:
    """A pattern for inline content whose continuation lines may carry block prefixes."""
    parts = content.split("\n")
    pattern = re.escape(parts[0])
    for part in parts[1:]:
        pattern += r"[ \t]*\n[ \t>]*" + re.escape(part.lstrip(" \t"))
    return re.compile(pattern)


def message_slots(text: str) -> list[Slot]:
    """Every place in a markdown text where Sphinx finds a message, in text order."""
    return _slots(_Text(text))


def _slots(doc: _Text) -> list[Slot]:
    tokens = _parser().parse(doc.text, {})
    slots: list[Slot] = []
    cursor = 0
    for token in tokens:
        if token.type == "inline" and token.content:
            region = _region(doc, token.map)
            found = _flexible(token.content).search(doc.text, max(cursor, region[0]), region[1])
            if found is None:  # a map that does not hold the text: search the rest
                found = _flexible(token.content).search(doc.text, cursor)
            if found is None:
                continue
            slot = Slot(found.start(), found.end(), token.content.replace("\n", " ").strip(),
                        "inline")
            slot.children = _alt_slots(doc.text, token, slot)
            slots.append(slot)
            cursor = found.end()
        elif token.type in ("fence", "colon_fence") and token.map:
            slots.extend(_fence_slots(doc, token))
            cursor = max(cursor, doc.line_start(token.map[1]))
        elif token.type in _MATH_BLOCKS and token.map and token.content.strip():
            region = _region(doc, token.map)
            body = token.content.strip()
            # amsmath maps can be shorter than the content: search past the map's end.
            at = doc.text.find(body, max(cursor, region[0]))
            if at < 0:
                continue
            slots.append(Slot(at, at + len(body), body, "literal"))
            cursor = at + len(body)
        elif token.type == "code_block" and token.map and token.content:
            start = doc.line_start(token.map[0])
            end = doc.line_end(token.map[1] - 1)
            slots.append(Slot(start, end, token.content, "literal", language=""))
            cursor = max(cursor, end)
    return slots


_MATH_BLOCKS = frozenset({"math_block", "math_block_label", "amsmath"})


def _region(doc: _Text, line_map) -> tuple[int, int]:
    if not line_map:
        return 0, len(doc.text)
    return doc.line_start(line_map[0]), doc.line_end(line_map[1] - 1)


def _alt_slots(text: str, inline, parent: Slot) -> list[Slot]:
    """Image alt texts inside an inline token: ``![alt](...)``."""
    children = []
    cursor = parent.start
    for child in inline.children or []:
        if child.type != "image" or not child.content:
            continue
        raw = _flexible(child.content).pattern
        found = re.compile(r"!\[(" + raw + r")\]").search(text, cursor, parent.end)
        if found is None:
            continue
        children.append(Slot(found.start(1), found.end(1), _alt_text(child.children), "alt"))
        cursor = found.end()
    return children


def _alt_text(children) -> str:
    """An image's alt text as MyST computes it (``renderInlineAsText``)."""
    text = ""
    for child in children or []:
        if child.type in ("text", "text_special", "section_ref"):
            text += child.content
        else:
            text += _alt_text(child.children)
    return text


_DIRECTIVE = re.compile(r"^\{([\w:.+-]+)\}\s*(.*)$")


def _fence_slots(doc: _Text, token) -> list[Slot]:
    """A code block (one literal message) or a directive (its argument and body)."""
    first, last = token.map[0], token.map[1]
    body_lines = token.content.split("\n")
    if body_lines and body_lines[-1] == "":
        body_lines = body_lines[:-1]
    # Source line of the first content line; a fence that is not closed runs to the end.
    content_first = first + 1
    directive = _DIRECTIVE.match(token.info.strip())
    if directive is None:
        language = token.info.strip().split(" ")[0] if token.info.strip() else ""
        return _literal_slot(doc, content_first, body_lines, token.content, language)
    name, argument = directive.group(1), directive.group(2).strip()
    slots: list[Slot] = []
    if argument and name not in LITERAL_DIRECTIVES:
        line = doc.lines[first]
        at = line.rfind(argument)
        if at >= 0:
            start = doc.line_start(first) + at
            slots.append(Slot(start, start + len(argument), argument, "title"))
    skip = _option_lines(body_lines)
    body = body_lines[skip:]
    while body and not body[0].strip():
        body, skip = body[1:], skip + 1
    if not body:
        return slots
    if name in LITERAL_DIRECTIVES:
        # Only code directives are compared as code; math, raw, mermaid are not.
        language = (argument.split(" ")[0] if argument else "") \
            if name in CODE_DIRECTIVES else None
        slots.extend(_literal_slot(doc, content_first + skip, body, "\n".join(body), language))
        return slots
    if name in RST_DIRECTIVES:
        slots.extend(_rst_paragraph_slots(doc, content_first + skip, body))
        return slots
    slots.extend(_nested_slots(doc, content_first + skip, body))
    return slots


def _option_lines(body_lines: list[str]) -> int:
    """How many leading lines of a directive body are its options."""
    if body_lines and body_lines[0].strip() == "---":
        for i in range(1, len(body_lines)):
            if body_lines[i].strip() == "---":
                return i + 1
        return 0
    count = 0
    for line in body_lines:
        if re.match(r"^\s*:[\w-]+:", line):
            count += 1
        else:
            break
    return count


def _shift(doc: _Text, line: int, content_line: str) -> int:
    """Columns the parser removed from a source line to get a content line."""
    if line >= len(doc.lines):
        return 0
    source = doc.lines[line]
    if content_line and source.endswith(content_line):
        return len(source) - len(content_line)
    return len(source) - len(source.lstrip(" \t")) if not content_line else 0


def _literal_slot(doc: _Text, first_line: int, body: list[str], msgid: str,
                  language: str | None) -> list[Slot]:
    if not body or not msgid.strip():
        return []
    start = doc.line_start(first_line) + _shift(doc, first_line, body[0])
    end = doc.line_end(first_line + len(body) - 1)
    return [Slot(start, end, msgid, "literal", language=language)]


def _nested_slots(doc: _Text, first_line: int, body: list[str]) -> list[Slot]:
    """Slots of a directive body parsed as Markdown, in the outer text's offsets."""
    inner = _Text("\n".join(body))
    shifts = [_shift(doc, first_line + i, line) for i, line in enumerate(body)]

    def lift(offset: int) -> int:
        line = bisect.bisect_right(inner.starts, offset) - 1
        line = min(line, len(body) - 1)
        col = offset - inner.starts[line]
        return doc.line_start(first_line + line) + shifts[line] + col

    def lift_slot(slot: Slot) -> Slot:
        return Slot(lift(slot.start), lift(slot.end), slot.msgid, slot.kind,
                    [lift_slot(child) for child in slot.children], slot.language)

    return [lift_slot(slot) for slot in _slots(inner)]


def _rst_paragraph_slots(doc: _Text, first_line: int, body: list[str]) -> list[Slot]:
    """reST bodies: each plain paragraph (blank-line separated) is one message."""
    slots = []
    block: list[int] = []
    for i, line in enumerate(body + [""]):
        if line.strip():
            block.append(i)
            continue
        if block and not body[block[0]].lstrip().startswith(("..", ":", "=", "-", "*", "#")):
            text = " ".join(body[j].strip() for j in block)
            start = doc.line_start(first_line + block[0]) + _shift(doc, first_line + block[0],
                                                                   body[block[0]].lstrip())
            end = doc.line_end(first_line + block[-1])
            slots.append(Slot(start, end, text, "inline"))
        block = []
    return slots


# ------------------------------------------------------------------------- applying


def apply(text: str, translations: dict[str, str]
          ) -> tuple[str, set[str], list[tuple[Slot, str]]]:
    """Put every translated message of a markdown text in place.

    ``translations`` maps msgid to msgstr (translated, non-fuzzy entries only). A block
    whose own message is translated is replaced whole (the msgstr carries the
    block's inline markup, images included); image alt texts inside a block left in
    English are translated on their own, as Sphinx does. Returns the new text, the
    msgids placed, and the translated code blocks as (slot, msgstr) for the static
    check (code blocks whose language is known to be code).
    """
    slots = message_slots(text)
    placed: set[str] = set()
    code: list[tuple[Slot, str]] = []
    edits: list[tuple[int, int, str]] = []
    for slot in slots:
        key = lookup(slot, translations)
        if key is not None:
            msgstr = translations[key]
            placed.add(key)
            if slot.kind == "literal" and slot.language is not None:
                code.append((slot, msgstr))
            replacement = _fit(text, slot, msgstr)
            # Alt texts in a translated block. Sphinx extracts an image's alt text as a
            # message of its own (sphinx.util.nodes.extract_messages yields the `alt` of
            # every docutils image node) besides the block holding the image, so a badge
            # `[![Open in Colab](badge.svg)](url)` gives two messages: the paragraph and
            # "Open in Colab". MyST computes the alt from the image's text tokens only,
            # so a line break inside it is dropped: `![Open in\nColab]` gives the alt
            # message "Open inColab" while the paragraph's msgid reads "Open in Colab".
            # The block's msgstr replaces the whole block, image included, so the alt
            # message is placed when the Korean block shows its msgstr: either the block's
            # msgstr kept the English alt (replaced here by the alt's msgstr) or the
            # translator already wrote the alt's msgstr there (the usual case).
            # An alt whose msgstr the block shows in neither way is left unplaced and
            # warned about: the two translations disagree.
            for child in slot.children:
                if child.msgid not in translations:
                    continue
                # The msgstr holds the alt as written, on one line.
                written = " ".join(text[child.start:child.end].split())
                msgstr_alt = translations[child.msgid]
                if f"![{' '.join(msgstr_alt.split())}]" in " ".join(replacement.split()):
                    placed.add(child.msgid)  # the block's msgstr has it already
                    continue
                for alt in (child.msgid, written):
                    if f"![{alt}]" in replacement:
                        replacement = replacement.replace(f"![{alt}]", f"![{msgstr_alt}]")
                        placed.add(child.msgid)
                        break
            edits.append((slot.start, slot.end, replacement))
            continue
        for child in slot.children:
            if child.msgid in translations:
                placed.add(child.msgid)
                edits.append((child.start, child.end, _fit(text, child, translations[child.msgid])))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, placed, code


def lookup(slot: Slot, translations: dict) -> str | None:
    """The msgid under which the slot's message is in ``translations``, if any.

    Code blocks keep their final newline in some msgids (fences) and not in others
    (directives, math); both are tried.
    """
    if slot.msgid in translations:
        return slot.msgid
    if slot.kind == "literal":
        for key in (slot.msgid + "\n", slot.msgid.rstrip("\n"), slot.msgid.strip()):
            if key in translations:
                return key
    return None


def _fit(text: str, slot: Slot, msgstr: str) -> str:
    """The msgstr shaped for the slot's place: line prefixes for continuation lines."""
    line_start = text.rfind("\n", 0, slot.start) + 1
    prefix = text[line_start:slot.start]
    if slot.kind == "literal":
        if msgstr.endswith("\n") and not text[slot.start:slot.end].endswith("\n"):
            msgstr = msgstr[:-1]
        indent = prefix if not prefix.strip() else ""
        return msgstr.replace("\n", "\n" + indent) if indent else msgstr
    msgstr = msgstr.strip("\n")
    if "\n" not in msgstr:
        return msgstr
    if slot.kind in ("title", "alt") or prefix.lstrip().startswith(("#", "|")) or "|" in prefix:
        return " ".join(part.strip() for part in msgstr.split("\n"))
    # Continuation lines of a list item or block quote keep its indentation / markers.
    continuation = re.sub(r"[^\s>]", " ", prefix)
    return msgstr.replace("\n", "\n" + continuation)
