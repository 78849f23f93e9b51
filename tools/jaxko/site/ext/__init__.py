"""Sphinx extensions of the Korean site (``extensions += ["jaxko.site.ext"]`` in conf.py).

They run inside Sphinx's process. The build driver (:mod:`jaxko.site`: ``jaxko site
build``, ``watch``, ``audit``) imports none of them and none of them imports it: the
driver sets their config values (``-D``) and they read and write the files those
name. One extension per concern, each a module with its own ``setup``:

* :mod:`.gate`: the gate's second layer: a translated message is parsed as untrusted,
  its HTML sanitized, script links become text, no download or image from outside the
  docs tree is copied;
* :mod:`.i18n`: translated MyST/notebook messages parse as written (MyST-NB#587,
  MyST-Parser#444);
* :mod:`.translated_markup`: a msgstr that reads as block markup
  ("1. …", "- …") stays the heading/paragraph it translates;
* :mod:`.search`: Korean search language (particles stripped on both sides, Kiwi nouns;
  the one owner of Kiwi);
* :mod:`.status`: per-page banner (progress, credits, English original, downloads);
* :mod:`.pages`: the 번역 용어집 and 번역 현황 pages, linked from the navigation;
* :mod:`.typography`: Korean-first fonts and line breaking;
* :mod:`.theme`: the theme's Korean strings where its own catalog reads badly, and
  MyST-NB's hidden-cell toggles in Korean;
* :mod:`.navigation`: each page's sidebar navigation kept between builds while the
  site's titles and toctrees are unchanged;
* :mod:`.offsite`: remote images and embeds become links (no request to another host);
* :mod:`.links`: absolute links to upstream's docs for a page built here become links to
  the Korean page; the others are marked as English;
* :mod:`.holes`: where the staged upstream lacks a file a page includes or loads, a
  Korean placeholder, a line in the banner and the build's summary;
* :mod:`.card_icons`: a translated card title keeps its icon.
"""

from __future__ import annotations

MODULES = (
    "jaxko.site.ext.gate",
    "jaxko.site.ext.i18n",
    "jaxko.site.ext.translated_markup",
    "jaxko.site.ext.search",
    "jaxko.site.ext.status",
    "jaxko.site.ext.pages",
    "jaxko.site.ext.typography",
    "jaxko.site.ext.theme",
    "jaxko.site.ext.navigation",
    "jaxko.site.ext.offsite",
    "jaxko.site.ext.links",
    "jaxko.site.ext.holes",
    "jaxko.site.ext.card_icons",
)


def setup(app):
    for name in MODULES:
        app.setup_extension(name)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
