"""Highlight notebook code cells as Python when the notebook names no lexer.

Seven upstream notebooks carry neither ``language_info`` nor ``kernelspec.language``;
MyST-NB then warns once per code cell (``myst-nb.lexer``, 105 warnings) and renders the
code unhighlighted. Every upstream notebook runs a Python kernel, so this transform
gives those cells the ``ipython3`` lexer, and conf.py suppresses the warning type,
whose cause is then handled here.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.transforms import SphinxTransform

DEFAULT_LEXER = "ipython3"


class DefaultNotebookLexer(SphinxTransform):
    default_priority = 500

    def apply(self, **kwargs) -> None:
        for container in self.document.findall(nodes.container):
            if container.get("nb_element") != "cell_code_source":
                continue
            for block in container.findall(nodes.literal_block):
                if not block.get("language"):
                    block["language"] = DEFAULT_LEXER


def setup(app):
    app.add_transform(DefaultNotebookLexer)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
