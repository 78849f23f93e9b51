"""In the narrative scope, link references to API pages to upstream's English docs.

The narrative scope leaves out the API reference (``jax*.rst`` and the autosummary
pages). A ``{ref}`` to a label defined there, or a ``{doc}`` to such a page, would be an
"undefined label" warning and a dead link; it becomes a link to the same place in the
upstream docs instead (config ``jaxko_upstream_docs_url``).

A toctree entry naming such a page (``index.rst``, ``extensions.rst``,
``pallas/index.rst``) is left out of the toctree when its document is read for HTML
(gettext extracts the documents as they are). Sphinx would
leave it out too, with a warning, but it also marks the document "reread always", so
every incremental build read and wrote those pages again.
"""

from __future__ import annotations

import re
import weakref
from pathlib import Path

from docutils import nodes

_LABEL = re.compile(r"^\.\. _([^:]+):\s*$", re.MULTILINE)


def api_labels(srcdir: Path, patterns: list[str]) -> dict[str, str]:
    """label -> docname for every explicit label in the excluded API pages."""
    labels: dict[str, str] = {}
    for pattern in patterns:
        for path in sorted(srcdir.glob(pattern)):
            docname = path.relative_to(srcdir).with_suffix("").as_posix()
            for match in _LABEL.finditer(path.read_text(encoding="utf-8")):
                labels[match.group(1).strip().lower()] = docname
    return labels


# What each build (each Sphinx application) found in the excluded API pages, scanned
# once per build: "labels" (api_labels) and "docnames" (api_docnames).
_FOUND: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _found(app, what: str, scan) -> dict | set:
    found = _FOUND.setdefault(app, {})
    if what not in found:
        found[what] = scan(Path(app.srcdir), app.config.jaxko_api_pages)
    return found[what]


def _resolve(app, env, node, contnode):
    patterns = app.config.jaxko_api_pages
    if not patterns:
        return None
    labels = _found(app, "labels", api_labels)
    reftype, target = node.get("reftype"), node.get("reftarget", "")
    base = app.config.jaxko_upstream_docs_url.rstrip("/")
    if reftype == "ref" and target.lower() in labels:
        docname = labels[target.lower()]
        uri = f"{base}/{docname}.html#{target.lower().replace('_', '-')}"
    elif reftype == "doc":
        docname = target.lstrip("/").removesuffix(".md").removesuffix(".rst")
        if not any(Path(docname + ".rst").match(p) for p in patterns):
            return None
        uri = f"{base}/{docname}.html"
    else:
        return None
    text = contnode.astext() if contnode is not None else target
    if reftype == "ref" and node.get("refexplicit") is False:
        text = target
    ref = nodes.reference("", "", internal=False, refuri=uri, classes=["jaxko-upstream-api"])
    ref += contnode if contnode is not None else nodes.Text(text)
    return ref


_TOCTREE = re.compile(r"^([ \t]*)\.\.[ \t]+toctree::")
_EXPLICIT = re.compile(r"^(.*?)\s*<(.+)>$")


def api_docnames(srcdir: Path, patterns: list[str]) -> set[str]:
    return {path.relative_to(srcdir).with_suffix("").as_posix()
            for pattern in patterns for path in srcdir.glob(pattern)}


def drop_toctree_entries(text: str, docname: str, excluded: set[str]) -> str:
    """``text`` (reST) without the toctree entries that name an ``excluded`` document."""

    lines = text.split("\n")
    out = []
    indent = None  # of the toctree directive being read
    for line in lines:
        if indent is not None and line.strip():
            if len(line) - len(line.lstrip()) <= indent:
                indent = None
            else:
                entry = line.strip()
                explicit = _EXPLICIT.match(entry)
                target = explicit.group(2) if explicit else entry
                if not entry.startswith(":") and _join(docname, target) in excluded:
                    continue
        match = _TOCTREE.match(line)
        if match:
            indent = len(match.group(1).expandtabs())
        out.append(line)
    return "\n".join(out)


def _join(docname: str, target: str) -> str:
    import posixpath

    target = target.removesuffix(".rst").removesuffix(".md")
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(docname), target))


def _source_read(app, docname: str, source: list[str]) -> None:
    patterns = app.config.jaxko_api_pages
    # Not for gettext: the extracted messages (and their locations) stay as they were.
    if not patterns or app.builder.name == "gettext" or "toctree::" not in source[0] \
            or app.env.doc2path(docname).suffix != ".rst":
        return
    source[0] = drop_toctree_entries(source[0], docname, _found(app, "docnames", api_docnames))


def setup(app):
    app.add_config_value("jaxko_api_pages", [], "env")
    app.connect("source-read", _source_read)
    app.add_config_value("jaxko_upstream_docs_url", "https://docs.jax.dev/en/latest/", "html")
    app.connect("missing-reference", _resolve)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
