"""Edits a JAX release makes to prose, applied to a copy of the pinned docs tree: the
"newer release" of the real-catalog bump test (tests/test_bump.py) and of the bump
benchmark (benchmarks/bench_scale.py).

In each of 12 translated MyST pages, among the prose paragraphs outside code fences and
directives: one gets only its punctuation changed (the final period becomes "!"), one
is reworded, one is removed, the first link's target moves (where the page has a
Markdown link), and a new paragraph is appended. Code cells are never touched.
"""

from __future__ import annotations

import re
from pathlib import Path

PAGES = ("installation.md", "pytrees.md", "control-flow.md", "random-numbers.md",
         "debugging.md", "debugging/checkify_guide.md", "debugging/print_breakpoint.md",
         "automatic-differentiation.md", "key-concepts.md", "jit-compilation.md",
         "debugging/flags.md", "stateful-computations.md")
NEW_PARAGRAPH = "This paragraph is new in the next release."
_LINK = re.compile(r"\]\(([^()\s]+)\)")


def _prose_paragraphs(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) line ranges of plain prose paragraphs outside fences."""
    found, fence, start = [], None, None
    for number, line in enumerate(lines + [""]):
        stripped = line.strip()
        marker = re.match(r"^(`{3,}|:{3,})", stripped)
        if fence is None and marker:
            fence = marker.group(1)[0]
        elif fence is not None:
            if stripped.startswith(fence * 3) and not stripped.lstrip(fence):
                fence = None
            continue
        prose = bool(stripped) and fence is None and line[:1].isalpha()
        if prose and start is None:
            start = number
        elif not prose and start is not None:
            if not stripped:
                found.append((start, number))
            start = None
    return found


def edit_page(text: str) -> str:
    lines = text.split("\n")
    paragraphs = _prose_paragraphs(lines)
    # only paragraphs ending in a period, without links, for the three sentence edits
    plain = [(a, b) for a, b in paragraphs
             if lines[b - 1].rstrip().endswith(".") and not _LINK.search("\n".join(lines[a:b]))]
    linked = [(a, b) for a, b in paragraphs if _LINK.search("\n".join(lines[a:b]))]
    edits: dict[int, list[str] | None] = {}
    if linked:
        a, b = linked[0]
        block = "\n".join(lines[a:b])
        target = _LINK.search(block).group(1)
        moved = target + ("-v2" if "#" in target else "#next")
        edits[a] = _LINK.sub(lambda m: f"]({moved})" if m.group(1) == target else m.group(0),
                             block, count=1).split("\n")
    for kind, (a, b) in zip(("punctuation", "reworded", "removed"), plain):
        block = lines[a:b]
        if kind == "punctuation":
            block[-1] = block[-1].rstrip()[:-1] + "!"
        elif kind == "reworded":
            words = block[0].split(" ", 1)
            block[0] = words[0] + " really " + words[1] if len(words) > 1 else block[0]
        else:
            block = None
        edits[a] = block
    out, skip_to = [], -1
    ends = dict(paragraphs)
    for number, line in enumerate(lines):
        if number < skip_to:
            continue
        if number in edits:
            replacement = edits[number]
            skip_to = ends[number] + (1 if replacement is None else 0)
            out.extend(replacement or [])
            continue
        out.append(line)
    return "\n".join(out).rstrip("\n") + f"\n\n{NEW_PARAGRAPH}\n"


def apply(docs: Path) -> int:
    """Edit the pages in place; returns how many."""
    for name in PAGES:
        page = docs / name
        page.write_text(edit_page(page.read_text(encoding="utf-8")), encoding="utf-8")
    return len(PAGES)
