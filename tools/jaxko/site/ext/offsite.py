"""Nothing from another host: remote images and embeds on a page become links.

A page of the site requests nothing from another host (docs/site.md): MathJax and
mermaid are vendored (``jaxko.sphinxext.offline_math``, ``offline_mermaid``). What the
upstream pages themselves load from elsewhere (the Colab and Kaggle badges of the
notebooks, a few diagrams hosted by Google and GitHub, a YouTube player) is replaced
when each page is written, in every HTML build:

* an image inside a link (a badge) becomes the link's text: its alt text, which the
  catalogs translate ("Colab에서 열기");
* any other remote image becomes a link to it, "그림 보기: <alt> (<host>)", unless the
  docs tree has the same file (:data:`LOCAL_COPIES`), which is then shown instead;
* raw HTML ``<img>``, ``<iframe>``, ``<video>``, ``<audio>``, ``<embed>`` and
  ``<object>`` with a remote source become such a link too (a YouTube player links to
  the video's page).

Links to other hosts stay: following one is the reader's choice, not a request the
page makes.
"""

from __future__ import annotations

import posixpath
import re
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

from docutils import nodes

REMOTE = re.compile(r"^\s*(?:https?:)?//", re.I)
# Remote images whose file the docs tree has: shown from _static instead.
LOCAL_COPIES = {
    "https://raw.githubusercontent.com/jax-ml/jax/main/images/jax_logo_250px.png":
        "_static/jax_logo_250px.png",
}
EMBEDS = ("iframe", "video", "audio", "embed", "object")
_TAG = re.compile(r"<(img|iframe|video|audio|embed|object)\b[^>]*>", re.I)
_YOUTUBE_EMBED = re.compile(r"^(?:https?:)?//(?:www\.)?youtube(?:-nocookie)?\.com/embed/([\w-]+)")


def is_remote(url: str) -> bool:
    return bool(REMOTE.match(url or ""))


def host(url: str) -> str:
    return urlparse(url.strip() if "://" in url else "https:" + url.strip()).netloc


def image_text(alt: str, url: str) -> str:
    alt = " ".join((alt or "").split())
    return f"그림 보기: {alt} ({host(url)})" if alt else f"그림 보기 ({host(url)})"


def embed_text(title: str, url: str) -> str:
    title = " ".join((title or "").split())
    return f"동영상 보기: {title} ({host(url)})" if title else f"외부 콘텐츠 보기 ({host(url)})"


def page_url(url: str) -> str:
    """The page to link for an embedded player (YouTube: the video's page)."""
    match = _YOUTUBE_EMBED.match(url.strip())
    return f"https://www.youtube.com/watch?v={match.group(1)}" if match else url.strip()


# ------------------------------------------------------------------------ image nodes


def _replacement(image: nodes.image, url: str) -> nodes.Node:
    alt = image.get("alt", "")
    if isinstance(image.parent, nodes.reference):  # a badge: the link stays, as text
        return nodes.inline("", " ".join(alt.split()) or host(url), classes=["jaxko-offsite"])
    link = nodes.reference("", image_text(alt, url), refuri=url.strip(),
                           classes=["jaxko-offsite"])
    if isinstance(image.parent, nodes.TextElement):
        return link
    return nodes.paragraph("", "", link)


def localize_images(doctree: nodes.document, docname: str, srcdir: Path) -> int:
    """Replace the remote images of one page; returns how many."""
    count = 0
    for image in list(doctree.findall(nodes.image)):
        url = image.get("uri", "")
        if not is_remote(url):
            continue
        count += 1
        local = LOCAL_COPIES.get(url.strip())
        if local and (srcdir / local).is_file():
            image["uri"] = posixpath.relpath(local, posixpath.dirname(docname) or ".")
            image["candidates"] = {"*": image["uri"]}
            continue
        image.replace_self(_replacement(image, url))
    return count


# --------------------------------------------------------------------------- raw HTML


class _Attributes(HTMLParser):
    def __init__(self, tag_html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.attrs: dict[str, str] = {}
        self.feed(tag_html)
        self.close()

    def handle_starttag(self, tag, attrs):
        if not self.attrs:
            self.attrs = {name.lower(): value or "" for name, value in attrs}

    handle_startendtag = handle_starttag


def _source(tag: str, attrs: dict[str, str]) -> str:
    for name in ("src", "data", "poster"):
        if attrs.get(name):
            return attrs[name]
    if attrs.get("srcset"):
        return attrs["srcset"].split(",")[0].split()[0]
    return ""


def _inside_link(html: str, position: int) -> bool:
    before = html[:position].lower()
    return len(re.findall(r"<a\b", before)) > before.count("</a>")


def offsite_html(html: str) -> str:
    """``html`` with every remote image or embed replaced by a link (or its text)."""
    out, last = [], 0
    for match in _TAG.finditer(html):
        if match.start() < last:  # inside an embed already replaced
            continue
        tag = match.group(1).lower()
        attrs = _Attributes(match.group(0)).attrs
        url = _source(tag, attrs)
        if not is_remote(url):
            continue
        end = match.end()
        if tag in EMBEDS:
            close = re.compile(rf"</{tag}\s*>", re.I).search(html, end)
            end = close.end() if close else end
        if tag == "img" and _inside_link(html, match.start()):
            replacement = escape(" ".join(attrs.get("alt", "").split()) or host(url))
        elif tag == "img":
            replacement = (f'<a class="reference external jaxko-offsite" href="{escape(url.strip())}">'
                           f'{escape(image_text(attrs.get("alt", ""), url))}</a>')
        else:
            target = page_url(url)
            replacement = (f'<a class="reference external jaxko-offsite" href="{escape(target)}">'
                           f'{escape(embed_text(attrs.get("title", ""), url))}</a>')
        out.append(html[last:match.start()])
        out.append(replacement)
        last = end
    if not out:
        return html
    out.append(html[last:])
    return "".join(out)


def localize_raw(doctree: nodes.document) -> int:
    count = 0
    for raw in list(doctree.findall(nodes.raw)):
        if "html" not in raw.get("format", "").split():
            continue
        text = raw.astext()
        new = offsite_html(text)
        if new != text:
            raw.children = []
            raw += nodes.Text(new)
            count += 1
    return count


def _doctree_resolved(app, doctree, docname) -> None:
    if app.builder.format == "html":
        localize_images(doctree, docname, Path(app.srcdir))
        localize_raw(doctree)


def setup(app):
    app.connect("doctree-resolved", _doctree_resolved)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
