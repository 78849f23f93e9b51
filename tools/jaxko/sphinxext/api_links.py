"""In the narrative scope, link references to API pages to upstream's English docs.

The narrative scope leaves out the API reference (``jax*.rst`` and the autosummary
pages). A ``{ref}`` to a label defined there, or a ``{doc}`` to such a page, would be an
"undefined label" warning and a dead link; it becomes a link to the same place in the
upstream docs instead (config ``jaxko_upstream_docs_url``).
"""

from __future__ import annotations

import re
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


def _resolve(app, env, node, contnode):
    patterns = app.config.jaxko_api_pages
    if not patterns:
        return None
    if not hasattr(env, "_jaxko_api_labels"):
        env._jaxko_api_labels = api_labels(Path(app.srcdir), patterns)
    reftype, target = node.get("reftype"), node.get("reftarget", "")
    base = app.config.jaxko_upstream_docs_url.rstrip("/")
    if reftype == "ref" and target.lower() in env._jaxko_api_labels:
        docname = env._jaxko_api_labels[target.lower()]
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


def setup(app):
    app.add_config_value("jaxko_api_pages", [], "env")
    app.add_config_value("jaxko_upstream_docs_url", "https://docs.jax.dev/en/latest/", "html")
    app.connect("missing-reference", _resolve)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
