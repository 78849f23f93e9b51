"""Applied-translation audit (``jaxko site audit``): the page shows what its catalog says.

After a build, for every catalog ``locale/ko/LC_MESSAGES/<doc>.po`` with a page
``<outdir>/<doc>.html``:

* every translated, non-fuzzy message whose msgstr differs from its msgid must be
  visible in the page: each run of Hangul in the msgstr (its text modulo markup: roles,
  backticks, emphasis and link targets never hold Hangul) is among the page's Hangul
  runs. A message that is not is reported with the catalog's ``file:line``, the msgid
  and why: the msgstr reads as block markup (Sphinx's i18n re-parse drops it), the
  page shows the English instead (unplaced), or neither text is on the page (inside
  an excluded or conditional block);
* on a page whose catalog is complete, no prose element (heading, paragraph, list
  item, table cell) may be English-only: an element without Hangul whose text is the
  English of a translated message.

Text is compared after Sphinx's typography (smart quotes, dashes) is undone on both
sides. Each page is parsed once with the stdlib HTML parser; everything else is set lookups.
"""

from __future__ import annotations

import html
import html.parser
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from jaxko import catalogs
from jaxko.forked import fork_map
from jaxko.memo import Memo, file_digest
from jaxko.fragments import escape_markdown, escape_rest

HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+")
PROSE = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "td", "th", "dt", "dd"})
# Elements whose text the reader does not see as page text.
HIDDEN = frozenset({"script", "style", "template"})

DROPPED = "dropped by the i18n re-parse: the msgstr reads as block markup"
UNPLACED = "unplaced: the page shows the English"
EXCLUDED = "not on the page: inside an excluded or conditional block"
ENGLISH = "English-only prose on a page whose catalog is complete"


@dataclass(frozen=True)
class Finding:
    path: str        # the catalog (or, for English-only prose, the page)
    line: int
    msgid: str
    why: str

    def format(self) -> str:
        msgid = " ".join(self.msgid.split())
        msgid = msgid if len(msgid) <= 70 else msgid[:67] + "..."
        return f"{self.path}:{self.line}: {self.why}: {msgid!r}"


@dataclass
class AuditResult:
    pages: int = 0
    messages: int = 0           # translated messages checked
    findings: list[Finding] = field(default_factory=list)

    def summary(self) -> str:
        unapplied = sum(1 for f in self.findings if f.why != ENGLISH)
        english = len(self.findings) - unapplied
        return (f"audit: {self.pages} pages, {self.messages} translated messages: "
                f"{unapplied} not shown, {english} English-only prose elements")

    def as_json(self) -> dict:
        return {"pages": self.pages, "messages": self.messages,
                "findings": [asdict(f) for f in self.findings]}


class _PageText(html.parser.HTMLParser):
    """The page's visible text (image alt text included) and the article's prose
    elements, in one pass."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.article = 0          # nesting depth of <article>
        self.hidden = 0
        self.skip_link = 0        # inside a headerlink anchor ("#")
        self.chunks: list[str] = []
        self.open_prose: list[list[str]] = []
        self.prose: list[str] = []
        # <div> nesting, True for a toctree: its entries are other pages' titles, which
        # those pages' catalogs translate, so they are not this page's English prose.
        self.divs: list[bool] = []

    def handle_starttag(self, tag, attrs):
        if tag == "div":
            self.divs.append("toctree-wrapper" in (dict(attrs).get("class") or ""))
        if tag == "article":
            self.article += 1
        elif tag in HIDDEN:
            self.hidden += 1
        elif tag == "a" and "headerlink" in (dict(attrs).get("class") or ""):
            self.skip_link += 1
        elif tag == "img":
            self.chunks.append(" " + (dict(attrs).get("alt") or "") + " ")
        elif tag in PROSE and self.article and not any(self.divs):
            self.open_prose.append([])

    def handle_endtag(self, tag):
        if tag == "div" and self.divs:
            self.divs.pop()
        if tag == "article" and self.article:
            self.article -= 1
        elif tag in HIDDEN and self.hidden:
            self.hidden -= 1
        elif tag == "a" and self.skip_link:
            self.skip_link -= 1
        elif tag in PROSE and self.open_prose:
            self.prose.append(" ".join("".join(self.open_prose.pop()).split()))

    def handle_data(self, data):
        if self.hidden or self.skip_link:
            return
        self.chunks.append(data)
        for element in self.open_prose:
            element.append(data)


# Markup whose rendered text differs from its source: roles (a {ref} shows the target's
# title), math, inline code (highlighted, sometimes split), link targets.
# ...and footnote or citation references ([#name]_, [1]_, [CIT]_), rendered as numbers.
# A code span of three or more backticks (MyST, CommonMark: ```--flag```) is one piece;
# a bare URL is not shown as written (the theme shortens GitHub ones: jax-ml/jax#15677).
_OPAQUE = re.compile(r"(`{3,})[^\n]+?\1|\bhttps?://[^\s<>`]+|<[^>\n]+>|(?:\{[\w:.-]+\}|:[\w:.-]+:)`[^`]*`|\$[^$]+\$|``[^`]+``|`[^`]+`_{0,2}"
                     r"|\[[#*]?[\w.-]*\]_")
# Innermost first: [![alt](img)](url); a URL may hold one level of brackets
# (https://en.wikipedia.org/wiki/Transformer_(machine_learning_model)).
_LINK_MD = re.compile(r"!?\[([^\][]*)\]\((?:[^()]|\([^()]*\))*\)"
                      r"|\[([^\][]*)\]\[[^\][]*\]")  # reference-style: [text][label]
_EMPHASIS = re.compile(r"(?<!\\)\*{1,2}|(?<![\\\w])_{1,2}|_{1,2}(?!\w)|\\(?=\S)")
# Sphinx's smartquotes turn quotes, dashes and ellipses typographic.
_TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                             "\u2013": "-", "\u2014": "-", "\u2026": "...", "\u00a0": " "})


def _rest_rendering(text: str) -> str:
    """What docutils shows for reST markup the other patterns keep: a paragraph's
    literal-block marker (``text::`` shows ``text:``, ``text ::`` shows ``text``) and a
    bare reference (``Flax_\\ 와`` shows ``Flax와``)."""
    text = re.sub(r"\s+::\s*$", "", re.sub(r"(\S)::\s*$", r"\1:", text))
    return re.sub(r"(\w)__?(?=\\ |[\s.,;:!?)]|$)", r"\1", text)


def _links(text: str, replacement: str) -> str:
    """Markdown links and images replaced by their text (nested ones included)."""
    while True:
        replaced = _LINK_MD.sub(lambda m: m.expand(replacement.replace(
            "\\1", "\\1" if m.group(1) is not None else "\\2")), text)
        if replaced == text:
            return text
        text = replaced


def normalise(text: str) -> str:
    text = re.sub(r"-{2,}", "-", text.translate(_TYPOGRAPHY))
    return " ".join(text.split())


def shown_text(message: str) -> str:
    """A message's plain text as rendered, approximately (for English-only prose)."""
    text = _links(_rest_rendering(message), r"\1")
    text = re.sub(r"`([^`<]*?)\s*<[^>]*>`_{1,2}", r"\1", text)
    text = re.sub(r"(?:\{[\w:.-]+\}|:[\w:.-]+:)`([^`]*)`", r"\1", text)
    text = _EMPHASIS.sub("", text.replace("`", ""))
    return normalise(text)


def pieces(message: str) -> list[str]:
    """The runs of a msgstr that render as written and hold Hangul."""
    text = _links(_rest_rendering(message).replace("\\ ", ""), "\0\\1\0")
    text = _EMPHASIS.sub("\0", _OPAQUE.sub("\0", text))
    return [normalise(p) for p in text.split("\0") if HANGUL.search(p)]


def visible(message: str, text: str) -> bool:
    """Whether the page text shows the msgstr (whole, or each of its plain pieces)."""
    return normalise(message) in text or all(p in text for p in pieces(message))


def _english_pieces(message: str) -> list[str]:
    text = _links(message, "\0\\1\0")
    text = _EMPHASIS.sub("\0", _OPAQUE.sub("\0", text))
    return [normalise(p) for p in text.split("\0") if re.search(r"[A-Za-z]{2}", p)]


def _is_markdown(doc: str, srcdir: Path | None) -> bool:
    if srcdir is None:
        return True
    return not (srcdir / f"{doc}.rst").exists()


# Regions whose markup is only text to this parser: the theme's navigation (lists,
# links, captions and toggles around the pages' titles and the toctrees' captions, which
# a page's catalog may translate) and highlighted code (Pygments' spans). Together they
# hold about three fifths of a site's tags.
_PLAIN_REGION = re.compile(r'<nav class="bd-links bd-docs-nav"[^>]*>(.*?)</nav>'
                           r"|<pre>(.*?)</pre>", re.S)
_NEUTRAL_TAG = re.compile(r"</?(?:ul|li|a|p|span|details|summary|i|input|label|code|div)"
                          r"\b[^<>]*>")


def _plain_text(region: str) -> str | None:
    """The text of a region, or None when it holds a tag the parser acts on (a script,
    an image, an unbalanced div) or a comment: then it is parsed as usual."""
    text = _NEUTRAL_TAG.sub("", region)
    if "<" in text or ">" in text or region.count("<div") != region.count("</div>"):
        return None
    return html.unescape(text)


def read_page(html_text: str) -> _PageText:
    """The page's text and its article's prose elements, in one pass. The regions of
    :data:`_PLAIN_REGION` are taken as one piece of text each, which is what the
    parser would have gathered from them tag by tag (the tests compare both readings
    on every page of a built site)."""
    parser = _PageText()
    done = 0
    for match in _PLAIN_REGION.finditer(html_text):
        start, end = match.span(match.lastindex)
        text = _plain_text(match.group(match.lastindex))
        parser.feed(html_text[done:start])
        if text is None or parser.rawdata or parser.hidden or parser.skip_link:
            parser.feed(html_text[start:end])
        else:
            parser.handle_data(text)
        done = end
    parser.feed(html_text[done:])
    parser.close()
    return parser


def audit_page(page: Path, catalog_path: Path, doc: str, srcdir: Path | None,
               result: AuditResult) -> None:
    parser = read_page(page.read_text(encoding="utf-8"))
    text = normalise("".join(parser.chunks))
    catalog = catalogs.load(catalog_path)
    markdown = _is_markdown(doc, srcdir)
    complete = True
    english: dict[str, int] = {}
    for entry in catalog:
        if entry.obsolete:
            continue
        if not catalogs.is_translated(entry):
            complete = False
            continue
        if entry.msgstr == entry.msgid:
            continue
        english.setdefault(shown_text(entry.msgid), entry.linenum)
        if not HANGUL.search(entry.msgstr):
            continue
        result.messages += 1
        if visible(entry.msgstr, text):
            continue
        escaped = escape_markdown(entry.msgstr) if markdown else escape_rest(entry.msgstr)
        if escaped != entry.msgstr:
            why = DROPPED
        elif all(p in text for p in _english_pieces(entry.msgid)):
            why = UNPLACED
        else:
            why = EXCLUDED
        result.findings.append(Finding(str(catalog_path), entry.linenum, entry.msgid, why))
    if complete:
        for element in parser.prose:
            if element in english and not HANGUL.search(element):
                result.findings.append(Finding(str(catalog_path), english[element], element,
                                               ENGLISH))


def audit(outdir: Path, locale_dir: Path, language: str = "ko",
          srcdir: Path | None = None, cache: Path | None = None) -> AuditResult:
    """Audit every page of ``outdir`` that has a catalog under ``locale_dir``.

    ``cache``: a file of earlier results per page (:class:`jaxko.memo.Memo`), keyed by
    the bytes of the page and of its catalog; only pages or catalogs that changed since
    are audited again (the site build keeps one in its state). Pages are audited in
    forked worker processes, one per CPU (:func:`_audit_pages`)."""
    memo = Memo(cache, "audit")
    root = locale_dir / language / "LC_MESSAGES"
    pages: list[tuple[str, AuditResult | None]] = []
    todo: list[tuple[Path, Path, str]] = []
    for catalog_path in catalogs.iter_catalogs([root]):
        doc = catalog_path.relative_to(root).with_suffix("").as_posix()
        page = outdir / f"{doc}.html"
        if not page.is_file():
            continue
        key = " ".join(map(str, (catalog_path, file_digest(page), file_digest(catalog_path),
                                 _is_markdown(doc, srcdir)))) if memo.enabled else ""
        kept = _page_result(memo.get(key))
        pages.append((key, kept))
        if kept is None:
            todo.append((page, catalog_path, doc))
    audited = iter(_audit_pages(todo, srcdir))
    result = AuditResult(pages=len(pages))
    for key, kept in pages:
        if kept is None:
            kept = next(audited)
            memo.put(key, [kept.messages, [asdict(f) for f in kept.findings]])
        result.messages += kept.messages
        result.findings.extend(kept.findings)
    memo.save()
    return result


def _audit_one(task) -> AuditResult:
    page, catalog_path, doc, srcdir = task
    one = AuditResult()
    audit_page(page, catalog_path, doc, srcdir, one)
    return one


def _audit_pages(todo: list[tuple[Path, Path, str]], srcdir: Path | None) -> list[AuditResult]:
    """Each page's result, in order (in forked workers where that is safe)."""
    return fork_map(_audit_one, [(page, catalog_path, doc, srcdir)
                                 for page, catalog_path, doc in todo])


def _page_result(raw) -> AuditResult | None:
    """One page's kept result, or None for anything of the wrong shape."""
    try:
        messages, findings = raw
        kept = AuditResult(messages=int(messages), findings=[Finding(**f) for f in findings])
    except (TypeError, ValueError):
        return None
    return kept
