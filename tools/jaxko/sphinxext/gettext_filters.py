"""Keep stored notebook outputs out of the message catalogs.

With ``gettext_additional_targets = ['literal-block']`` Sphinx extracts every literal
block, including the ones MyST-NB creates for stored ``.ipynb`` outputs. Outputs are
produced by running the code, never translated; this transform marks them
untranslatable right after Sphinx marks literal blocks translatable.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.transforms import SphinxTransform

OUTPUT_ELEMENTS = frozenset({"cell_code_output", "mime_bundle"})


def _inside_output(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.container) and parent.get("nb_element") in OUTPUT_ELEMENTS:
            return True
        parent = parent.parent
    return False


class UntranslatableOutputs(SphinxTransform):
    # After sphinx.transforms.ExtraTranslatableNodes (10), before Locale (20).
    default_priority = 11

    def apply(self, **kwargs) -> None:
        for node in self.document.findall(nodes.literal_block):
            if _inside_output(node):
                node["translatable"] = False


def setup(app):
    app.add_transform(UntranslatableOutputs)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
