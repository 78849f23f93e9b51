"""A translated card title keeps its icon (sphinx-design cards on the home page).

``.. grid-item-card:: :material-regular:`laptop_chromebook;2em` Installation``: the
icon role makes an icon node (``sd_icon``, SVG), gettext extracts the title's text alone ("Installation"),
and Sphinx's i18n step replaces the whole title with the translation ("설치"), so the
Korean home page lost the 설치 and 시작하기 cards' icons. Before that step
(:class:`KeepIcons`, just before Sphinx's ``Locale`` transform) the icons leading a card
title are noted; after it (:class:`RestoreIcons`) a title whose translation has no icon
gets them back in front. Decided on structure: the icon nodes (sphinx-design's
``sd_icon``, ``fontawesome``, or raw HTML) that lead the title.
``-D jaxko_card_icons=0`` shows the loss.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.i18n import Locale
from sphinx_design.icons import fontawesome, sd_icon
from sphinx_design.shared import PassthroughTextElement

_KEY = "jaxko_icons"


def _titles(document):
    for node in document.findall(PassthroughTextElement):
        parent = node.parent
        if parent is not None and "sd-card-title" in parent.get("classes", []):
            yield node


def _leading_icons(node) -> list[nodes.Element]:
    icons = []
    for child in node.children:
        if isinstance(child, (sd_icon, fontawesome)) or (
                isinstance(child, nodes.raw) and "html" in child.get("format", "").split()):
            icons.append(child)
        elif isinstance(child, nodes.Text) and not child.astext().strip():
            continue
        else:
            break
    return icons


class KeepIcons(SphinxTransform):
    default_priority = Locale.default_priority - 1

    def apply(self, **kwargs) -> None:
        if not self.config.jaxko_card_icons:
            return
        for node in _titles(self.document):
            icons = _leading_icons(node)
            if icons:
                node[_KEY] = [icon.deepcopy() for icon in icons]


class RestoreIcons(SphinxTransform):
    default_priority = Locale.default_priority + 1

    def apply(self, **kwargs) -> None:
        for node in _titles(self.document):
            icons = node.attributes.pop(_KEY, None)
            if icons and not _leading_icons(node):
                for index, icon in enumerate(icons):
                    node.insert(index, icon)
                node.insert(len(icons), nodes.Text(" "))


def setup(app):
    app.add_config_value("jaxko_card_icons", True, "env", types=[bool])
    app.add_transform(KeepIcons)
    app.add_transform(RestoreIcons)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
