"""``:jax-issue:`1234``` and ``:doi:`10.x/y``` roles, as upstream's docs use them."""

from __future__ import annotations

from docutils import nodes, utils
from sphinx.util.nodes import split_explicit_title

ISSUE_URL = "https://github.com/jax-ml/jax/issues/{number}"
DOI_URL = "https://doi.org/{doi}"


def jax_issue_role(name, rawtext, text, lineno, inliner, options=None, content=()):
    """Link ``#1234`` to the JAX issue (or pull request; GitHub redirects)."""
    number = utils.unescape(text).strip().lstrip("#")
    if not number.isdigit():
        msg = inliner.reporter.error(
            f"{name}: expected an issue or PR number, got {text!r}", line=lineno)
        problem = inliner.problematic(rawtext, rawtext, msg)
        return [problem], [msg]
    node = nodes.reference(rawtext, f"#{number}", refuri=ISSUE_URL.format(number=number),
                           **(options or {}))
    return [node], []


def doi_role(name, rawtext, text, lineno, inliner, options=None, content=()):
    """Link a DOI; the title defaults to ``DOI:<doi>``."""
    has_title, title, target = split_explicit_title(utils.unescape(text))
    if not has_title:
        title = f"DOI:{target}"
    node = nodes.reference(rawtext, title, refuri=DOI_URL.format(doi=target), internal=False)
    return [node], []


def setup(app):
    app.add_role("jax-issue", jax_issue_role)
    app.add_role("doi", doi_role)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
