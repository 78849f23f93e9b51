"""The security gate of the site build, second layer: a Sphinx extension that holds
whatever the catalogs or sources say (the first layer, :mod:`jaxko.site.gate`, gates
the catalogs before Sphinx runs).

* a translated message is parsed with docutils' own switches for untrusted input
  off and an empty directive table (:func:`untrusted`): no directive runs at all
  (``plot``, ``include``, ``csv-table``... are unknown inside a msgstr), no file is
  inserted, no ``raw`` role;
* raw HTML that a translated message brings (MyST) passes an allowlist sanitizer
  (nh3) on its way to the page: no script, handler, style attribute, iframe, object,
  form or URL other than http, https and mailto;
* after reading, any download or image whose file lies outside the docs tree is
  dropped with a warning, so no file from outside the tree is copied into the output;
* a link whose scheme is not http, https or mailto (``javascript:``, ``data:``,
  ``vbscript:``, however escaped) becomes plain text, with a warning.

docs/threat-model.md says who can change what and what each gate stops.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from jaxko.check.safety import LINK_SCHEMES, link_scheme
from jaxko.check.structure import no_directives

# MyST-NB writes the images of executed outputs beside the output folder
# (myst_nb.sphinx_ext.OUTPUT_FOLDER): the build's own files, not the catalogs'.
_OUTPUTS_FOLDER = "jupyter_execute"


def _outside(allowed: tuple[Path, ...], srcdir: Path, name: str) -> bool:
    path = Path(os.path.normpath(srcdir / name))
    return not any(path.is_relative_to(root) for root in allowed)


def _drop_outside_files(app, env) -> None:
    """Downloads and images outside the docs tree (and the build's own notebook outputs)
    are never copied into the output."""
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    srcdir = Path(os.path.normpath(app.srcdir))
    allowed = (srcdir, Path(os.path.normpath(Path(app.outdir).parent / _OUTPUTS_FOLDER)))
    for table, what in ((env.dlfiles, "download"), (env.images, "image")):
        for name in [n for n in table if _outside(allowed, srcdir, n)]:
            docnames = sorted(table[name][0])
            logger.warning("jaxko gate: %s %r is outside the docs tree; not copied (in %s)",
                           what, name, ", ".join(docnames), type="jaxko", subtype="gate")
            del table[name]


@contextlib.contextmanager
def untrusted(document):
    """While a translated message (a msgstr) is parsed: no directive, no file insertion,
    no raw content; after it, its HTML sanitized.

    Sphinx's i18n step parses each msgstr with the page's own settings object, so the
    switches are set for the fragment and restored after it. The directive table is
    emptied for the fragment (docutils, MyST and Sphinx all look directives up through
    it): a directive in a msgstr is an unknown directive, reported, never run."""
    from sphinx.util import logging

    def refused(name: str) -> None:
        logging.getLogger(__name__).warning(
            "jaxko gate: directive `%s` in a translated message; not run", name,
            location=(document.get("source") or None, None), type="jaxko", subtype="gate")

    settings = document.settings
    saved = (getattr(settings, "file_insertion_enabled", True),
             getattr(settings, "raw_enabled", True))
    settings.file_insertion_enabled = False
    settings.raw_enabled = False
    try:
        with no_directives(refused):
            yield
    finally:
        settings.file_insertion_enabled, settings.raw_enabled = saved
    sanitize_html(document)


# What HTML a translation may bring to a page: ammonia's safe allowlist (no script,
# style, iframe, object, embed, form, no handler or style attribute), links and images
# only over the schemes of check.safety.LINK_SCHEMES (http, https, mailto) or relative.
_LONE_START_TAG = re.compile(r"^\s*<([A-Za-z][\w-]*)\b[^<>]*>\s*$")
_LONE_END_TAG = re.compile(r"^\s*</([A-Za-z][\w-]*)\s*>\s*$")
# Elements without content or end tag (`<br>`, `<img ...>`): cleaned as they are.
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                   "meta", "source", "track", "wbr"})


def clean_html(fragment: str) -> str:
    """``fragment`` through the sanitizer. MyST gives inline HTML tag by tag (``<b>``,
    text, ``</b>``): a lone start tag is cleaned with its end tag and given back open,
    a lone end tag is kept only for a tag the sanitizer allows."""
    import nh3

    def clean(html: str) -> str:
        return nh3.clean(html, url_schemes=set(LINK_SCHEMES), link_rel=None,
                         strip_comments=True)

    end = _LONE_END_TAG.match(fragment)
    if end is not None:
        return fragment.strip() if end.group(1).lower() in nh3.ALLOWED_TAGS else ""
    start = _LONE_START_TAG.match(fragment)
    if start is not None and start.group(1).lower() not in _VOID:
        closing = f"</{start.group(1).lower()}>"
        cleaned = clean(fragment.strip() + closing)
        return cleaned[: -len(closing)] if cleaned.endswith(closing) else cleaned
    return clean(fragment)


def _same_html(a: str, b: str) -> bool:
    """Equal but for whitespace and XHTML's self-closing slash (`<br />` is `<br>`)."""
    def norm(html: str) -> str:
        return " ".join(re.sub(r"\s*/>", ">", html).split()).lower()
    return norm(a) == norm(b)


def sanitize_html(document) -> None:
    """The raw HTML of a translated fragment (MyST passes inline HTML through as raw
    nodes, not subject to ``raw_enabled``) replaced by its sanitized form; a warning
    where the sanitizer removed anything, so a strict build fails."""
    from docutils import nodes
    from sphinx.util import logging

    for node in list(document.findall(nodes.raw)):
        if "html" not in node.get("format", "").split():
            node.replace_self(nodes.Text(node.astext()))
            continue
        original = node.astext()
        cleaned = clean_html(original)
        if _same_html(cleaned, original):
            continue
        logging.getLogger(__name__).warning(
            "jaxko gate: HTML in a translated message sanitized: `%s` -> `%s`",
            " ".join(original.split())[:80], " ".join(cleaned.split())[:80],
            location=node, type="jaxko", subtype="gate")
        node.replace_self(nodes.raw(cleaned, cleaned, format="html"))


def _drop_script_links(app, doctree, docname: str) -> None:
    """Links to anything but http, https and mailto become their text."""
    from docutils import nodes
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    for node in list(doctree.findall(nodes.reference)):
        scheme = link_scheme(node.get("refuri", ""))
        if scheme is not None and scheme not in LINK_SCHEMES:
            logger.warning("jaxko gate: a %s: link is not allowed; shown as text (in %s)",
                           scheme, docname, type="jaxko", subtype="gate")
            node.replace_self(nodes.inline(node.rawsource, "", *node.children))


def setup(app):
    app.connect("env-updated", _drop_outside_files)
    app.connect("doctree-resolved", _drop_script_links)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
