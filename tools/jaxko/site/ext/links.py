"""Links to upstream's docs stay on the Korean site when the page is built here.

Upstream writes many cross-page links as absolute URLs
(``https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions``),
and the style guide tells translators to keep URLs as they are. When each page is
written (``doctree-resolved``, every HTML build), a reference whose URL is a page of
upstream's docs (:data:`UPSTREAM`: ``docs.jax.dev`` and the older
``jax.readthedocs.io``, with or without ``/en/latest``, ``page.html``, ``page/``,
``page`` or the bare host for the index, with an optional ``#anchor``):

* to a document this site builds (or one ``rediraffe_redirects`` moved to such a
  document) becomes a relative link to the Korean page, anchor kept (a translated
  section keeps the ids of its English title, so upstream's anchors exist here);
* to anything else (the API reference, which the narrative scope does not build; a
  file of upstream's tree) stays on upstream's site, marked as English: class
  ``jaxko-english`` (the stylesheet adds "영문" after it) and a title saying the page
  is upstream's English one. References that ``jaxko.sphinxext.api_links`` pointed to
  upstream get the same mark.

A Colab or Kaggle badge that opens one of upstream's notebooks opens the Korean one
instead where the site is published with its notebooks (``jaxko_github_repo`` set, the
Korean notebook built): the URL ``jaxko.site.ext.status`` gives its Colab link
(``_downloads/ko/<page>.ipynb`` on the Pages branch; docs/site.md).

Only the reference's URL is looked at (its structure, not its text); its text, whatever
the translator wrote, is left as it is.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import parse_qs, quote, urlsplit

from docutils import nodes

# Hosts of upstream's docs and the path prefix of the version they serve.
UPSTREAM_HOSTS = ("docs.jax.dev", "jax.readthedocs.io")
_VERSION = re.compile(r"^/(?:en/latest)(?=/|$)")
ENGLISH_CLASS = "jaxko-english"
# A link meant for upstream's page (a placeholder's "see the original"): left as it is.
KEEP_CLASS = "jaxko-upstream-original"
ENGLISH_TITLE = "영어 원문 (docs.jax.dev): 이 사이트에 한국어 번역이 없는 문서입니다"


def is_upstream(url: str) -> bool:
    """Whether ``url`` is on one of upstream's docs hosts."""
    try:
        parts = urlsplit((url or "").strip())
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and (parts.hostname or "") in UPSTREAM_HOSTS


def upstream_page(url: str) -> tuple[str, str] | None:
    """``(docname, anchor)`` of an upstream docs URL of the latest version, or None
    (another host, another version, a query)."""
    if not is_upstream(url):
        return None
    parts = urlsplit(url.strip())
    path = parts.path
    if path in ("", "/"):
        return "index", parts.fragment
    version = _VERSION.match(path)
    if not version:
        return None  # /en/v0.4.30/…: a pinned older version stays as written
    path = path[version.end():].lstrip("/")
    if parts.query:
        return None
    if path == "" or path.endswith("/"):
        path += "index"
    elif path.endswith(".html"):
        path = path[: -len(".html")]
    path = posixpath.normpath(path)
    if path.startswith("..") or path == ".":
        return None
    return path, parts.fragment


def redirects(config_redirects: dict) -> dict[str, str]:
    """rediraffe's ``old.md -> new.md`` as docnames."""
    def docname(name: str) -> str:
        return posixpath.splitext(str(name))[0]

    return {docname(old): docname(new) for old, new in (config_redirects or {}).items()}


def local_target(url: str, docnames, moved: dict[str, str]) -> tuple[str, str] | None:
    """The built document (and anchor) an upstream URL names, or None."""
    found = upstream_page(url)
    if found is None:
        return None
    docname, anchor = found
    docname = moved.get(docname, docname)
    if docname not in docnames:
        return None
    return docname, anchor


def localize_links(doctree: nodes.document, docname: str, docnames, moved: dict[str, str],
                   relative_uri) -> tuple[int, int]:
    """Rewrite the upstream links of one page; returns (made local, marked English).
    ``relative_uri(from_doc, to_doc)`` is the builder's ``get_relative_uri``."""
    local = english = 0
    for ref in doctree.findall(nodes.reference):
        url = ref.get("refuri")
        if not url or not is_upstream(url) or KEEP_CLASS in ref["classes"]:
            continue
        target = local_target(url, docnames, moved)
        if target is None:
            if ENGLISH_CLASS not in ref["classes"]:
                ref["classes"].append(ENGLISH_CLASS)
            ref.setdefault("reftitle", ENGLISH_TITLE)
            english += 1
            continue
        to_doc, anchor = target
        uri = relative_uri(docname, to_doc) if to_doc != docname else ""
        ref["refuri"] = (uri + ("#" + anchor if anchor else "")) or "#"
        ref["internal"] = True
        local += 1
    return local, english


# Upstream's notebooks on GitHub, as its Colab and Kaggle badges open them.
_UPSTREAM_NOTEBOOK = re.compile(r"^/(?:github/)?jax-ml/jax/blob/[^/]+/docs/(?P<doc>[^?#]+)\.ipynb$")


def badge_notebook(url: str) -> str | None:
    """The docname of the upstream notebook a Colab or Kaggle badge opens, or None."""
    try:
        parts = urlsplit((url or "").strip())
    except ValueError:
        return None
    if parts.scheme != "https":
        return None
    if parts.hostname == "colab.research.google.com":
        found = _UPSTREAM_NOTEBOOK.match(parts.path)
        return found.group("doc") if found else None
    if parts.hostname in ("kaggle.com", "www.kaggle.com") and parts.path == "/kernels/welcome":
        source = parse_qs(parts.query).get("src", [""])[0]
        inner = urlsplit(source)
        if inner.scheme == "https" and inner.hostname == "github.com":
            found = _UPSTREAM_NOTEBOOK.match(inner.path)
            return found.group("doc") if found else None
    return None


def korean_badges(doctree: nodes.document, korean_url) -> int:
    """Point Colab/Kaggle badges at the Korean notebook: ``korean_url(docname, host)``
    gives its URL there, or None (no Korean notebook published): the badge stays."""
    count = 0
    for ref in doctree.findall(nodes.reference):
        doc = badge_notebook(ref.get("refuri", ""))
        if doc is None:
            continue
        url = korean_url(doc, urlsplit(ref["refuri"]).hostname)
        if url:
            ref["refuri"] = url
            count += 1
    return count


def _korean_notebook_url(app):
    from jaxko.site.ext.status import COLAB, DOWNLOADS, korean_notebook

    repo, branch = app.config.jaxko_github_repo, app.config.jaxko_pages_branch

    def url(doc: str, host: str) -> str | None:
        if not repo or korean_notebook(app, doc) is None:
            return None
        path = f"{DOWNLOADS}/{doc}.ipynb"
        if host == "colab.research.google.com":
            return COLAB.format(repo=repo, branch=branch, path=path)
        return ("https://kaggle.com/kernels/welcome?src="
                + quote(f"https://github.com/{repo}/blob/{branch}/{path}", safe=":/"))
    return url


def _doctree_resolved(app, doctree, docname) -> None:
    if app.builder.format != "html" or not app.config.jaxko_local_links:
        return
    moved = redirects(getattr(app.config, "rediraffe_redirects", None) or {})
    localize_links(doctree, docname, app.env.all_docs, moved, app.builder.get_relative_uri)
    if (app.config.language or "en") != "en":
        korean_badges(doctree, _korean_notebook_url(app))


def setup(app):
    # "0" (or False) leaves upstream's absolute links as upstream wrote them.
    app.add_config_value("jaxko_local_links", True, "html", types=[bool])
    app.connect("doctree-resolved", _doctree_resolved)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
