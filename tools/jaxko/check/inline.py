"""Inline markup of a message, in MyST or reST: literals, roles, links, math, HTML.

One regular expression per syntax finds every inline construct in one pass. Each
alternative starts with a literal character, so Python's regex engine scans for the
set of those characters (``\\` { $ [ ! < * : |``) instead of trying every alternative
at every position: text without markup costs next to nothing.

This is not a full MyST or reST parser (the ``syntax.parse`` rule runs the real
parsers); it recognises what the rules compare: which literals, role targets, link
targets, math and HTML a message has, and where.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit

LITERAL = "literal"
ROLE = "role"
LINK = "link"
IMAGE = "image"
REFERENCE = "reference"   # reST `name`_, MyST [text][label]
URL = "url"               # autolinks and bare URLs
MATH = "math"
FOOTNOTE = "footnote"
SUBSTITUTION = "substitution"
HTML = "html"
COMMENT = "comment"
STRONG = "strong"
EMPHASIS = "emphasis"

# Kinds whose inside is not prose (no glossary terms, no particles to check inside).
OPAQUE = frozenset({LITERAL, ROLE, URL, MATH, FOOTNOTE, SUBSTITUTION, HTML, COMMENT})


class Inline(NamedTuple):
    """One inline construct: its kind, span, what it shows and what it points to.

    A named tuple rather than a dataclass: tens of thousands are made per run, and a
    tuple is several times cheaper to create.
    """

    kind: str
    start: int
    end: int
    text: str                 # what the reader sees (code, display text, link text)
    target: str | None = None  # role target, link URL, footnote or substitution name
    role: str | None = None
    explicit_title: bool = False  # role/link with its own display text

    def key(self) -> tuple:
        """What must be the same in msgid and msgstr."""
        return (self.kind, self.role, self.target)


# Runs of plain characters are possessive (``++``):
# nothing after them could match inside one, and the engine no longer tries a
# character at a time.
_MYST = re.compile(
    r"\{(?P<role_name>[A-Za-z][\w:.+-]*)\}(?P<rt>`+)(?P<role_body>[^\x00]+?)(?P=rt)(?!`)"
    r"|\{\{\s*(?P<subst_name>[^{}\x00]+?)\s*\}\}"
    r"|`(?P<ct>`*)(?P<code_body>[^\x00]+?)(?<!`)`(?P=ct)(?!`)"
    r"|\$\$(?P<dmath_body>[^\x00]+?)\$\$"
    r"|\$(?<![\\$\w]\$)(?=[^\s$])(?P<math_body>[^$\n\x00]*?[^\s\\$\x00])\$(?![\d$])"
    r"|!\[(?P<image_text>(?:[^\[\]\\\x00]++|\\[^\x00]|\[[^\[\]\x00]*+\])*)\]"
    r"\((?P<image_target>[^\s()\x00]*)(?:\s+\"[^\"\x00]*\")?\)"
    r"|\[(?:\^(?P<footnote_label>[^\]\s\x00]+)\]"
    r"|(?P<link_text>(?:[^\[\]\\\x00]++|\\[^\x00]|\[[^\[\]\x00]*+\])*)\]"
    r"(?:\((?P<link_target><[^<>\n\x00]*>|[^\s()\x00]*(?:\([^\s()\x00]*\)[^\s()\x00]*)*)"
    r"(?:\s+(?:\"[^\"\x00]*\"|'[^'\x00]*'))?\s*\)|\[(?P<reflink_label>[^\[\]\x00]*)\]))"
    r"|<(?:(?P<autolink>[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s\x00]*)>"
    r"|!--(?P<comment_body>[^\x00]*?)-->"
    r"|(?P<html_tag>/?[A-Za-z][A-Za-z0-9-]*)(?P<html_attrs>(?:\s[^<>\x00]*)?)/?>)"
    r"|\*\*(?P<strong_body>[^*\s\x00](?:[^*\x00]*?[^*\s\x00])?)\*\*"
    r"|\*(?<![\w*]\*)(?P<emph_body>[^*\s\x00](?:[^*\x00]*?[^*\s\x00])?)\*(?!\*)",
)

_RST = re.compile(
    r"``(?P<lit_body>[^\s`\x00](?:[^\x00]*?[^\s`\x00])??)``(?!`)"
    r"|:(?P<role_name>[A-Za-z][\w.:+-]*?):`(?P<role_body>(?:[^`\\\x00]++|\\[^\x00])+)`(?P<role_ref>__?)?"
    r"|`(?P<interp_body>(?:[^`\\\x00]++|\\[^\x00])+)`(?::(?P<role_suffix>[A-Za-z][\w.:+-]*?):)?(?P<interp_ref>__?)?"
    r"|\|(?P<subst_name>[^|\s\x00](?:[^|\n\x00]*[^|\s\x00])?)\|(?P<subst_ref>__?)?"
    r"|\[(?P<fn_label>#[\w.-]*|\*|[0-9]+|[A-Za-z][\w.-]*)\]_"
    r"|<(?:(?P<autolink>(?:https?|ftp|mailto):[^<>\s\x00]*)>"
    r"|!--(?P<comment_body>[^\x00]*?)-->"
    r"|(?P<html_tag>/?[A-Za-z][A-Za-z0-9-]*)(?P<html_attrs>(?:\s[^<>\x00]*)?)/?>)"
    r"|\*\*(?P<strong_body>[^*\s\x00](?:[^*\x00]*?[^*\s\x00])?)\*\*"
    r"|\*(?<![\w*]\*)(?P<emph_body>[^*\s\x00](?:[^*\x00]*?[^*\s\x00])?)\*(?!\*)",
)

# ASCII only, as docutils reads a standalone URI: `https://docs.python.org/3/에서` links
# to https://docs.python.org/3 and shows 에서 after it.
_BARE_URL = re.compile(r"\b(?:https?|ftp)://[^\s<>()\[\]`'\"\x00\x80-\U0010ffff]*"
                       r"[^\s<>()\[\]`'\".,;:!?*_\x00\x80-\U0010ffff]")
_TITLE_TARGET = re.compile(r"^(?P<title>.*?)\s*(?<!\\)<(?P<target>[^<>]+)>$", re.S)
_TRIGGERS = ("`", "{", "$", "[", "<", "*", "|")


@lru_cache(maxsize=1)
def _reference_role_re():
    from sphinx.util.docutils import ReferenceRole

    return ReferenceRole.explicit_title_re


def split_role(body: str, syntax: str | None = "rst") -> tuple[bool, str, str]:
    """(explicit title?, title, target) of a role's body, read as Sphinx reads it.

    Sphinx's cross-reference roles (``:ref:``, ``:doc:``, ``:download:``, ``:func:``…;
    ``sphinx.util.docutils.ReferenceRole``) split ``title <target>`` with their class's
    ``explicit_title_re`` on the text docutils hands them and unescape both halves with
    ``docutils.utils.unescape``. docutils hands a reST role its text with each
    backslash escape turned into a NUL mark (``docutils.utils.escape2null``), so
    ``\\<`` is no target opener there; MyST hands the body as written. One reading for
    every rule: ``데이터 <../../etc/passwd>\\<data.txt>`` targets
    ``../../etc/passwd><data.txt``, as the build would, not ``data.txt``.

    ``syntax``: ``"rst"`` for a body as written in reST, ``"myst"`` for MyST, and
    ``"docutils"`` for the text docutils passes a role function (marks already in)."""
    from docutils.utils import escape2null, unescape

    text = escape2null(body) if syntax == "rst" else body
    match = _reference_role_re().match(text)
    if match:
        return True, unescape(match.group(1)), unescape(match.group(2))
    plain = unescape(text)
    return False, plain, plain


def _role_parts(body: str, syntax: str | None = "rst") -> tuple[str, str, bool]:
    """(display text, target, explicit title?) of a role body like ``text <target>``
    (:func:`split_role`)."""
    explicit, title, target = split_role(body, syntax)
    if explicit:
        return title, target.strip(), True
    target = target.strip()
    shown = target
    if target[:1] in "~!":
        target = target[1:]
        shown = target.rsplit(".", 1)[-1] if shown.startswith("~") else target
    return shown, target, False


def _myst(text: str) -> list[Inline]:
    found: list[Inline] = []
    append = found.append
    for m in _MYST.finditer(text):
        start, end = m.span()
        last = m.lastgroup  # each alternative ends with its own group
        g = m.group
        if last == "code_body":
            body = g("code_body")
            if body.startswith(" ") and body.endswith(" ") and body.strip():
                body = body[1:-1]
            append(Inline(LITERAL, start, end, body, body))
        elif last == "role_body":
            role = g("role_name")
            body = g("role_body")
            if role == "math":
                append(Inline(MATH, start, end, body, body.strip(), role))
            else:
                shown, target, explicit = _role_parts(body, "myst")
                append(Inline(ROLE, start, end, shown, target, role, explicit))
        elif last == "link_target":
            target = g("link_target")
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
            append(Inline(LINK, start, end, g("link_text"), target, None, True))
        elif last == "strong_body":
            append(Inline(STRONG, start, end, g("strong_body")))
        elif last == "emph_body":
            append(Inline(EMPHASIS, start, end, g("emph_body")))
        elif last == "math_body" or last == "dmath_body":
            body = g(last)
            append(Inline(MATH, start, end, body, body.strip()))
        elif last == "subst_name":
            append(Inline(SUBSTITUTION, start, end, "", g("subst_name").strip()))
        elif last == "image_target":
            append(Inline(IMAGE, start, end, g("image_text"), g("image_target"), None, True))
        elif last == "footnote_label":
            append(Inline(FOOTNOTE, start, end, "", g("footnote_label")))
        elif last == "reflink_label":
            label = g("reflink_label") or g("link_text")
            append(Inline(REFERENCE, start, end, g("link_text"), label.strip().lower(), None, True))
        elif last == "autolink":
            append(Inline(URL, start, end, g("autolink"), g("autolink")))
        elif last == "comment_body":
            append(Inline(COMMENT, start, end, "", g(0)))
        else:  # html_tag / html_attrs
            append(Inline(HTML, start, end, "", g(0), g("html_tag").lower()))
    return found


def _rst(text: str) -> list[Inline]:
    found: list[Inline] = []
    append = found.append
    for m in _RST.finditer(text):
        start, end = m.span()
        last = m.lastgroup
        g = m.group
        if last == "lit_body":
            append(Inline(LITERAL, start, end, g("lit_body"), g("lit_body")))
        elif last in ("role_body", "role_ref", "interp_body", "interp_ref", "role_suffix"):
            prefixed = g("role_body") is not None
            body = g("role_body") if prefixed else g("interp_body")
            role = g("role_name") if prefixed else g("role_suffix")
            ref = g("role_ref") if prefixed else g("interp_ref")
            if role == "math":
                append(Inline(MATH, start, end, body, body.strip(), role))
            elif ref and role is None:
                match = _TITLE_TARGET.match(body)
                if match:  # `text <url>`_ : a hyperlink with its target
                    append(Inline(LINK, start, end, match.group("title") or match.group("target"),
                                  match.group("target").strip().replace("\n", ""), None,
                                  bool(match.group("title"))))
                else:  # `name`_ : a reference to a named target
                    append(Inline(REFERENCE, start, end, body, " ".join(body.split()).lower()))
            else:
                shown, target, explicit = _role_parts(body, "rst")
                append(Inline(ROLE, start, end, shown, target, role or "", explicit))
        elif last == "strong_body":
            append(Inline(STRONG, start, end, g("strong_body")))
        elif last == "emph_body":
            append(Inline(EMPHASIS, start, end, g("emph_body")))
        elif last == "subst_name" or last == "subst_ref":
            append(Inline(SUBSTITUTION, start, end, "", g("subst_name")))
        elif last == "fn_label":
            append(Inline(FOOTNOTE, start, end, "", g("fn_label")))
        elif last == "autolink":
            append(Inline(URL, start, end, g("autolink"), g("autolink")))
        elif last == "comment_body":
            append(Inline(COMMENT, start, end, "", g(0)))
        else:  # html_tag / html_attrs
            append(Inline(HTML, start, end, "", g(0), g("html_tag").lower()))
    return found


def _has_trigger(text: str) -> bool:
    for trigger in _TRIGGERS:
        if trigger in text:
            return True
    return "://" in text


@lru_cache(maxsize=4096)
def parse(text: str, syntax: str) -> tuple[Inline, ...]:
    """Every inline construct of ``text``, in order; bare URLs included."""
    return tuple(_parse(text, syntax)) if _has_trigger(text) else ()


def _parse(text: str, syntax: str) -> list[Inline]:
    found = _rst(text) if syntax == "rst" else _myst(text)
    if "://" in text:
        starts = [i.start for i in found]  # in order, the spans do not overlap
        ends = [i.end for i in found]
        urls = []
        for m in bare_urls(text):
            s, e = m.span()
            at = bisect_right(starts, s) - 1
            if at < 0 or s >= ends[at]:  # not inside another construct
                urls.append(Inline(URL, s, e, m.group(0), m.group(0)))
        if urls:
            found.extend(urls)
            found.sort(key=lambda i: i.start)
    return found


def bare_urls(text: str):
    """The matches of ``_BARE_URL.finditer(text)``, found faster: the pattern starts
    with a word boundary, which keeps the regex engine from skipping ahead, while every
    URL has ``://`` right after its scheme (``http``, ``https`` or ``ftp``)."""
    position = 0
    find = text.find
    match = _BARE_URL.match
    while True:
        at = find("://", position)
        if at < 0:
            return
        for start in (at - 5, at - 4, at - 3):  # leftmost first, as finditer
            if start >= position:
                found = match(text, start)
                if found is not None:
                    yield found
                    position = found.end()
                    break
        else:
            position = at + 3


def mask(text: str, inlines: tuple[Inline, ...], keep_titles: bool = True,
         syntax: str = "myst") -> str:
    """``text`` with code, targets, URLs, math and HTML blanked out (same length).

    Display text of links and titled roles is kept when ``keep_titles``: it is prose
    the reader sees (``[자동 미분](autodiff.md)``). Markup inside that text is masked
    in turn: the image of a badge link (``[![Open in Kaggle](…svg)](…)``), code used
    as link text (``[`jax.hessian`](…)``) or emphasised (MyST) are not prose.
    """
    if not inlines:
        return text
    parts = []
    last = 0
    for item in inlines:
        if item.start < last:
            continue
        parts.append(text[last:item.start])
        span = text[item.start:item.end]
        shown = ""
        if keep_titles and (item.kind in (STRONG, EMPHASIS) or (
                item.explicit_title and item.kind in (ROLE, LINK, IMAGE, REFERENCE))):
            shown = item.text
        at = span.find(shown) if shown else -1
        if at >= 0:
            # MyST emphasis may hold code (*Example: `custom_jvp`*); reST's cannot.
            if (syntax == "myst" or item.kind not in (STRONG, EMPHASIS)) and _has_trigger(shown):
                shown = mask(shown, parse(shown, syntax), keep_titles, syntax)
            parts.append(" " * at + shown + " " * (len(span) - at - len(shown)))
        else:
            parts.append(" " * len(span))
        last = item.end
    parts.append(text[last:])
    return "".join(parts)


def urls(inlines: tuple[Inline, ...]) -> list[str]:
    """External URLs a message links to (links, images, autolinks, bare URLs, HTML)."""
    found = []
    for item in inlines:
        if item.kind in (LINK, IMAGE, URL) and item.target and _is_external(item.target):
            found.append(normalise_url(item.target))
        elif item.kind == HTML and item.target:
            for value in re.findall(r"""(?:href|src|action|formaction|data|poster)\s*=\s*["']?([^"'\s>]+)""",
                                    item.target, re.I):
                if _is_external(value):
                    found.append(normalise_url(value))
    return found


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")


def _is_external(target: str) -> bool:
    return bool(_SCHEME.match(target.strip()))


# Path segments that name a language edition of a page: /ko/ in a msgstr for the /en/ (or
# no segment) of its msgid is the same page of the same site.
LANGUAGE_SEGMENTS = frozenset({"ko", "ko-kr", "ko_kr", "en", "en-us", "en_us"})


def normalise_url(url: str) -> str:
    """A URL as compared, read as a URL parser reads it (scheme, host, path, query,
    fragment): lower-case scheme and host, no final slash, and for a URL with a host the
    first language segment of its path dropped (``docs.python.org/ko/3.12/…`` and
    ``…/en/3.12/…`` are editions of ``docs.python.org/3.12/…``). The host is never
    rewritten: ``https:/ko//jax.dev/guide`` (host-less, a browser's host ``ko``) stays
    unlike ``https://jax.dev/guide``. Text that is no absolute URL (a relative link) is
    compared as written, without its final slash."""
    text = url.strip()
    try:
        parts = urlsplit(text)
    except ValueError:  # an unparsable URL (a bad IPv6 host): compared as written
        return text.rstrip("/")
    if not parts.netloc:
        return text.rstrip("/")
    segments = parts.path.split("/")
    for index, segment in enumerate(segments):
        if segment.lower() in LANGUAGE_SEGMENTS:
            del segments[index]
            break
    path = "/".join(segments).rstrip("/")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query,
                       parts.fragment)).rstrip("/")
