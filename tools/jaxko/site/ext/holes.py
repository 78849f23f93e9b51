"""No silent holes: where the staged upstream lacks a file a page shows or loads.

The offline copy of upstream lacks some files its pages need: ``fault_tolerance``
includes 16 listings from ``_static/fault_tolerance/*.py`` and loads that folder's CSS
and JavaScript for its interactive visualization; ``the-training-cookbook`` takes its
code from a ``.py`` companion (``tagged-block``). Sphinx only warns, and the page used
to read as complete while its code and visualization were simply not there. Now, in
every HTML build of the site:

* a ``literalinclude`` or ``tagged-block`` whose file is missing becomes a Korean
  placeholder (:func:`placeholder`) that names the file and links to the page on
  upstream's site (the warning stays);
* raw HTML that loads a local file the tree lacks (``<script src>``, ``<link href>``,
  ``<img src>``, …) loses those tags; on such a page every raw HTML block with an inline
  ``<script>`` (which calls the missing script: ``init_cluster`` is not defined) becomes
  the placeholder too;
* each page's missing files are kept in the environment (:func:`missing_files`), the
  banner says that part of the page is missing (``jaxko.site.ext.status``), and at the end of
  the build they are written to ``jaxko-missing.json`` in the doctree folder, which
  ``jaxko site build`` reads for its summary (page and files).

What is missing is decided on structure: the directive's file argument and the parsed
tags' attributes, resolved against the source tree.
"""

from __future__ import annotations

import json
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

from docutils import nodes
from sphinx.directives.code import LiteralInclude

from jaxko.catalogs import write_text_atomic
from jaxko.site.ext.links import KEEP_CLASS
from jaxko.sphinxext.tagged_block import TaggedBlock

_KEY = "jaxko_missing_files"
REPORT = "jaxko-missing.json"
PLACEHOLDER_CLASS = "jaxko-missing"
ORIGINAL_CLASS = KEEP_CLASS  # a link meant for upstream's page, which jaxko.site.ext.links keeps
_LOADS = {"script": ("src",), "link": ("href",), "img": ("src",), "iframe": ("src",),
          "video": ("src", "poster"), "audio": ("src",), "source": ("src",),
          "embed": ("src",), "object": ("data",)}
_REMOTE = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:|//|#)", re.I)


def upstream_page_url(env, docname: str) -> str:
    base = getattr(env.config, "jaxko_upstream_docs_url", "https://docs.jax.dev/en/latest/")
    return base.rstrip("/") + f"/{docname}.html"


def placeholder(env, docname: str, files: list[str], what: str) -> nodes.Element:
    """A note in place of what the page cannot show, linking to upstream's page.
    ``what``: a noun ending in a vowel (코드, 대화형 시각화), followed by 는."""
    note = nodes.admonition(classes=[PLACEHOLDER_CLASS, "warning"])
    note += nodes.title("", "빠진 내용")
    para = nodes.paragraph()
    para += nodes.Text(f"이 자리에 있어야 할 {what}는 원본 파일(")
    for index, name in enumerate(files):
        if index:
            para += nodes.Text(", ")
        para += nodes.literal(name, name)
    para += nodes.Text(")이 이 사이트가 빌드한 원본 사본에 없어 보여 드릴 수 없습니다. ")
    para += nodes.reference("", "영어 원문 페이지에서 보기", refuri=upstream_page_url(env, docname),
                            classes=[ORIGINAL_CLASS])
    note += para
    note["jaxko_missing"] = list(files)
    return note


def mark(files: list[str], what: str) -> nodes.Element:
    """Where a directive could not show a missing file: an empty node that an HTML build
    of the site replaces by :func:`placeholder` once the page is read (other builders,
    gettext among them, drop it: it holds no text to extract)."""
    return nodes.container("", jaxko_missing=list(files), jaxko_what=what)


def _relative(env, path: Path) -> str:
    try:
        return path.resolve().relative_to(Path(env.srcdir).resolve()).as_posix()
    except ValueError:
        return path.as_posix()


class MissingAwareLiteralInclude(LiteralInclude):
    """``literalinclude`` as Sphinx's, with a placeholder where the file is missing."""

    def run(self) -> list[nodes.Node]:
        result = super().run()
        _rel, filename = self.env.relfn2path(self.arguments[0])
        if Path(filename).is_file():
            return result
        return result + [mark([_relative(self.env, Path(filename))], "코드")]


class MissingAwareTaggedBlock(TaggedBlock):
    """``tagged-block`` with the placeholder where its source file is missing."""

    def run(self) -> list[nodes.Node]:
        result = super().run()
        path = Path(self.env.srcdir) / self.arguments[0]
        if path.is_file():
            return result
        return result + [mark([_relative(self.env, path)], "코드")]


class _Tags(HTMLParser):
    """Start tags with their source offsets: (tag, attrs, start, end)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.found: list[tuple[str, dict, int, int]] = []
        self._lines = [0]
        for line in text.splitlines(keepends=True):
            self._lines.append(self._lines[-1] + len(line))
        self.inline_script = False
        self._in_script = False
        self.feed(text)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        start = self._offset()
        raw = self.get_starttag_text() or ""
        values = {name.lower(): value or "" for name, value in attrs}
        self.found.append((tag, values, start, start + len(raw)))
        self._in_script = tag == "script" and not values.get("src")

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.inline_script = True

    def handle_endtag(self, tag):
        self._in_script = False


def missing_loads(html: str, docname: str, srcdir: Path) -> list[tuple[str, int, int]]:
    """(file, start, end) of each tag in ``html`` that loads a local file the tree lacks
    (``file`` relative to ``srcdir``; start/end span the tag and its closing tag)."""
    out = []
    tags = _Tags(html)
    for tag, attrs, start, end in tags.found:
        for name in _LOADS.get(tag, ()):
            url = attrs.get(name, "").strip()
            if not url or _REMOTE.match(url):
                continue
            path = url.split("#")[0].split("?")[0]
            rel = posixpath.normpath(posixpath.join(posixpath.dirname(docname), path)) \
                if not path.startswith("/") else path.lstrip("/")
            if rel.startswith("..") or (srcdir / rel).exists():
                continue
            close = re.compile(rf"\s*</{tag}\s*>", re.I).match(html, end)
            out.append((rel, start, close.end() if close else end))
            break
    return out


def _raw_holes(env, doctree: nodes.document, docname: str) -> list[str]:
    """Remove the loads of missing files from the page's raw HTML; on a page that lost a
    script, inline scripts (which call it) become the placeholder. The files."""
    srcdir = Path(env.srcdir)
    raws = [raw for raw in doctree.findall(nodes.raw)
            if "html" in raw.get("format", "").split()]
    missing: list[str] = []
    lost_script = False
    for raw in raws:
        text = raw.astext()
        holes = missing_loads(text, docname, srcdir)
        if not holes:
            continue
        for rel, start, end in reversed(holes):
            text = text[:start] + text[end:]
            missing.append(rel)
            lost_script |= rel.endswith(".js")
        raw.children = []
        raw += nodes.Text(text)
        if not text.strip():
            raw.parent.remove(raw)
    if lost_script:
        scripts = sorted({m for m in missing if m.endswith(".js")})
        for raw in list(doctree.findall(nodes.raw)):
            if "html" in raw.get("format", "").split() and _Tags(raw.astext()).inline_script:
                raw.replace_self(placeholder(env, docname, scripts, "대화형 시각화"))
    return sorted(set(missing))


def _marks(doctree) -> list[nodes.Element]:
    return [node for node in doctree.findall(nodes.container) if "jaxko_what" in node]


def _doctree_read(app, doctree) -> None:
    env = app.env
    if app.builder.format != "html" or not app.config.jaxko_missing_placeholders:
        for node in _marks(doctree):
            node.parent.remove(node)
        return
    # The directive's own note (tagged-block: a code block saying the file was not
    # found) right before a mark gives way to the placeholder.
    for node in _marks(doctree):
        before = node.parent.index(node) - 1
        if before >= 0 and isinstance(node.parent[before], nodes.literal_block) \
                and node.parent[before].astext().startswith("# source file "):
            node.parent.remove(node.parent[before])
        node.replace_self(placeholder(env, env.docname, node["jaxko_missing"], node["jaxko_what"]))
    files = set(_raw_holes(env, doctree, env.docname))
    for note in doctree.findall(nodes.admonition):
        files.update(note.get("jaxko_missing", ()))
    store = missing_files(env)
    if files:
        store[env.docname] = sorted(files)
    else:
        store.pop(env.docname, None)


def missing_files(env) -> dict[str, list[str]]:
    """docname -> the files its page lacks (kept in the environment)."""
    if not hasattr(env, _KEY):
        setattr(env, _KEY, {})
    return getattr(env, _KEY)


def _purge(app, env, docname) -> None:
    missing_files(env).pop(docname, None)


def _merge(app, env, docnames, other) -> None:
    theirs = missing_files(other)
    for docname in docnames:
        if docname in theirs:
            missing_files(env)[docname] = theirs[docname]


def _report(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    found = {d: f for d, f in sorted(missing_files(app.env).items()) if d in app.env.found_docs}
    target = app.config.jaxko_missing_report or Path(app.doctreedir) / REPORT
    write_text_atomic(Path(target), json.dumps(found, ensure_ascii=False, indent=1) + "\n")


def setup(app):
    app.setup_extension("jaxko.sphinxext.tagged_block")
    app.add_config_value("jaxko_missing_placeholders", True, "env", types=[bool])
    app.add_config_value("jaxko_missing_report", "", "", types=[str])
    app.add_directive("literalinclude", MissingAwareLiteralInclude, override=True)
    app.add_directive("tagged-block", MissingAwareTaggedBlock, override=True)
    app.connect("doctree-read", _doctree_read)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _report)
    return {"version": "1", "env_version": 1, "parallel_read_safe": True,
            "parallel_write_safe": True}
