"""``.. tagged-block:: FILE TAG [LINES]``: show the code between two ``# tag: TAG`` lines.

``LINES`` selects lines of the block: an index (``3``), a slice (``2:5``) or a list
(``[0, 2]``); ``:hl_lines:`` highlights lines (``1,3-4``). A missing file or tag is a
warning with the document's location, and the page shows a short note instead of
crashing the build (the offline upstream copy lacks upstream's ``.py`` companions).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)


def parse_line_numbers(spec: str) -> list[int]:
    """``"1,3-4"`` -> ``[1, 3, 4]``."""
    numbers: list[int] = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        first, sep, last = part.partition("-")
        numbers.extend(range(int(first), int(last) + 1) if sep else [int(first)])
    return numbers


def select_lines(lines: list[str], spec: str) -> list[str]:
    spec = spec.strip()
    if spec.startswith("["):
        return [lines[i] for i in ast.literal_eval(spec)]
    if ":" in spec:
        bounds = [int(p) if p.strip() else None for p in (spec.split(":") + ["", ""])[:3]]
        return lines[slice(*bounds)]
    return [lines[int(spec)]]


def extract_block(text: str, tag: str) -> str | None:
    """The text between the first two ``# tag: TAG`` marker lines, or None."""
    marker = re.compile(rf"^[ \t]*# tag: {re.escape(tag)}[ \t]*$", re.MULTILINE)
    found = list(marker.finditer(text))
    if len(found) < 2:
        return None
    return text[found[0].end():found[1].start()].strip("\n")


def dedent_to_first(lines: list[str]) -> str:
    if not lines:
        return ""
    indent = len(lines[0]) - len(lines[0].lstrip())
    return "\n".join(line[indent:] if line[:indent].isspace() else line.lstrip() for line in lines)


class TaggedBlock(SphinxDirective):
    required_arguments = 2
    optional_arguments = 1
    has_content = False
    option_spec = {"hl_lines": str}

    def _missing(self, why: str) -> list[nodes.Node]:
        logger.warning("tagged-block: %s", why, location=self.get_location(),
                       type="jaxko", subtype="tagged_block")
        return [nodes.literal_block(f"# {why}", f"# {why}", language="python")]

    def run(self) -> list[nodes.Node]:
        rel, tag = self.arguments[0], self.arguments[1]
        path = Path(self.env.srcdir) / rel
        self.env.note_dependency(str(path))
        if not path.is_file():
            return self._missing(f"source file {rel} not found (it is not in the staged upstream)")
        block = extract_block(path.read_text(encoding="utf-8"), tag)
        if block is None:
            return self._missing(f"tag {tag!r} not found in {rel}")
        lines = block.split("\n")
        if len(self.arguments) > 2:
            try:
                lines = select_lines(lines, self.arguments[2])
            except (ValueError, IndexError, SyntaxError) as err:
                return self._missing(f"bad line selection {self.arguments[2]!r}: {err}")
        code = dedent_to_first(lines)
        literal = nodes.literal_block(code, code, language="python")
        self.set_source_info(literal)
        if "hl_lines" in self.options:
            literal["highlight_args"] = {"hl_lines": parse_line_numbers(self.options["hl_lines"])}
        return [literal]


def setup(app):
    app.add_directive("tagged-block", TaggedBlock)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
