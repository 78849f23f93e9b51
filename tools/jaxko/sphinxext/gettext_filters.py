"""Keep stored notebook outputs, and text no catalog may hold, out of the message catalogs.

With ``gettext_additional_targets = ['literal-block']`` Sphinx extracts every literal
block, including the ones MyST-NB creates for stored ``.ipynb`` outputs. Outputs are
produced by running the code, never translated; this transform marks them
untranslatable right after Sphinx marks literal blocks translatable.

A catalog may not hold control characters (:data:`jaxko.catalogs.CONTROL_CHARACTER`:
docutils reads some as line breaks, the checker does not). The rare upstream text
that has one (a vertical tab in a code block of ``pallas/design/async_note.md``) is
marked untranslatable too: it is never extracted, and the page keeps the English.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.transforms import SphinxTransform

from jaxko.catalogs import CONTROL_CHARACTER

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
        for node in self.document.findall(nodes.TextElement):
            if CONTROL_CHARACTER.search(node.rawsource or node.astext()):
                node["translatable"] = False


def setup(app):
    app.add_transform(UntranslatableOutputs)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
