"""A missing ``include`` target stops the build.

docutils and MyST only log an error for an include whose file is missing, and the build
goes on without the included text: ``docs/changelog.md`` includes ``../CHANGELOG.md``,
so a staging mistake would silently drop its 1,447 messages. We check every include
target when a source is read and raise, naming the document and line.
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.errors import ExtensionError

_INCLUDE = re.compile(
    r"^(?:[ \t]*\.\.[ \t]+include::[ \t]+(?P<rst>\S+)"
    r"|[ \t]*(?:```|:::)\{include\}[ \t]+(?P<myst>\S+))",
    re.MULTILINE,
)


def missing_includes(source: str, doc_path: Path, srcdir: Path) -> list[tuple[int, str]]:
    """(line, target) of every include whose file does not exist."""
    out = []
    for match in _INCLUDE.finditer(source):
        target = match.group("rst") or match.group("myst")
        if target.startswith("<"):  # standard docutils includes such as <isonum.txt>
            continue
        base = srcdir if target.startswith("/") else doc_path.parent
        if not (base / target.lstrip("/")).is_file():
            out.append((source.count("\n", 0, match.start()) + 1, target))
    return out


def _check(app, docname: str, source: list[str]) -> None:
    doc_path = Path(app.env.doc2path(docname))
    for line, target in missing_includes(source[0], doc_path, Path(app.srcdir)):
        raise ExtensionError(f"{doc_path}:{line}: included file {target} does not exist "
                             f"(stage the upstream with `jaxko upstream sync`)")


def setup(app):
    app.connect("source-read", _check)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
