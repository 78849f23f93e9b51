"""Safety rules: a msgstr may not put on the published site what its msgid does not.

The decision is :func:`added_structure` (``safety.structure``): the msgid and the
msgstr parsed by the parser Sphinx will use for the translated document, their
structures compared (:mod:`jaxko.check.structure`); nothing about spelling. The other
rules name common cases in a translator's words (raw HTML, a script URL, a new
directive, a file reference) and stay as a second opinion. Every safety finding is an
error the site build's gate refuses, and no ``jaxko: ignore`` comment lifts one.
"""

from __future__ import annotations

import os
import re
from collections import Counter

from jaxko.check import inline, structure
from jaxko.check.context import Context, msgid_inlines, msgstr_inlines
from jaxko.check.message import CODE, MATH, TEXT, Message
from jaxko.check.registry import Hit, family, rule

FAMILY = family("safety", "안전 (safety)", order=4)

# Code blocks these rules read: markup (or of unknown language); other code is compared
# token by token by code.tokens.
MARKUP_LANGUAGES = (None, "rst", "md", "markdown", "myst")
_DANGEROUS_TAG = re.compile(r"<\s*(script|iframe|object|embed|style|link|meta|base|form|svg|math)\b", re.I)
_EVENT_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
# javascript:, vbscript:, data: with whitespace or entities between letters tolerated.
_SCRIPT_SCHEME = re.compile(
    r"(?:j|&#0*106;|&#x0*6a;)\s*(?:a|&#0*97;|&#x0*61;)\s*v\s*a\s*s\s*c\s*r\s*i\s*p\s*t\s*:"
    r"|v\s*b\s*s\s*c\s*r\s*i\s*p\s*t\s*:", re.I)
_DATA_URL = re.compile(r"(?:^|[\s(<\"'=\[])data\s*:[\w/+.-]*[;,]", re.I)
_RAW = re.compile(
    r"^\s*\.\.\s+(?:raw|include|literalinclude|eval-rst)::"        # reST directives
    r"|(?:`{3,}|~{3,}|:{3,})\s*\{(?:raw|include|literalinclude|eval-rst)\}"  # MyST fences
    r"|\{raw(?:-[\w-]+)?\}`|:raw(?:-[\w-]+)?:`"                       # raw roles
    r"|\.\.\s+(?:raw|include)::", re.I | re.M)


@rule("safety.structure", severity="error", blocks=(TEXT, CODE, MATH),
      explanation=(
          "안전 판단의 기준입니다. msgid와 msgstr를 Sphinx가 그 문서에 쓰는 파서(`.md`·`.ipynb`는 MyST, "
          "`.rst`는 docutils)로 실제로 읽어 구조를 비교합니다. 번역은 글자, 강조, 평범한 인라인 마크업"
          "(``리터럴``, **굵게**, `:kbd:` 등)만 더할 수 있고, 지시어, 원시·HTML 내용, 역할, 참조, 치환, "
          "그림, 링크는 msgid에 있는 것만 쓸 수 있습니다. 철자를 어떻게 바꾸든(이스케이프, 띄어쓰기, "
          "처리 명령 `<?x>`·`<![CDATA[`) 파서가 구조로 읽으면 걸립니다. `#:` 줄이 다른 문서를 가리켜도 "
          "카탈로그가 번역하는 실제 문서의 파서를 씁니다. 섹션 제목을 가리키는 이름 참조(`` `Title`_ ``)를 "
          "같은 카탈로그에서 그 제목을 옮긴 번역문으로 쓰는 것(`` `번역한 제목`_ ``)은 Sphinx가 번역된 제목으로 "
          "이어 주므로 같은 참조입니다. reST 링크에서 `<` 앞에 빈칸이 없으면(`` `가비지 컬렉션<url>`_ ``) "
          "링크가 아니라 없는 이름의 참조가 되므로, 그렇게 알려 줍니다. `jaxko: ignore` 주석으로 끌 수 없습니다."))
def added_structure(message: Message, context: Context):
    """The msgstr, parsed as Sphinx will parse it, has a directive, raw or HTML content,
    role, reference, substitution, image or link that the msgid does not have.

    Text, emphasis and ordinary inline markup (``literal``, **strong**, :sub:`x`,
    :kbd:`Ctrl`) may be added; everything else must be the msgid's own. The parser is
    the one of the document the catalog translates (MyST for ``.md``/``.ipynb``,
    docutils for ``.rst``), whatever the ``#:`` line says.

    Bad::

        location: index.rst:5
        msgid: The results are below.
        msgstr: "결과는 아래와 같습니다.\\n\\n.. plot:: scripts/plot.py"
        expect:
          - 'directive `plot scripts/plot.py` is not in the msgid (reST parse); a translation may add text and emphasis, not structure'

    Bad::

        location: index.md:3
        msgid: JAX is fast.
        msgstr: JAX는 빠릅니다.<?x><img src=x onerror=alert(1)>?>
        expect:
          - 'raw content `<?x><img src=x onerror=alert(1)>?>` is not in the msgid (MyST parse); a translation may add text and emphasis, not structure'

    Bad::

        location: index.rst:5
        msgid: Read `the garbage collection page <https://example.org/gc>`_ now.
        msgstr: "지금 `가비지 컬렉션<https://example.org/gc>`_\\ 을 읽으세요."
        expect:
          - 'a space is missing before `<` in `가비지 컬렉션<https://example.org/gc>`_: reST reads it as a reference to a name no target has, not a link, and the link breaks; write `가비지 컬렉션 <https://example.org/gc>`_'

    Good::

        location: index.rst:5
        msgid: See :func:`jax.jit` and `the guide <https://jax.dev/guide>`_.
        msgstr: ":func:`jax.jit`\\ 과 `안내서 <https://jax.dev/guide>`_\\ 를 *꼭* 보세요."
    """
    syntax = message.parsed_as or message.syntax
    for part in structure.added(message.msgid, message.msgstr, (syntax,), message.names):
        glued = _glued_link(part, message.msgstr) if syntax == "rst" else None
        if glued is not None:
            text, target, ending = glued
            yield Hit(f"a space is missing before `<` in `{text}<{target}>`{ending}: reST reads it "
                      "as a reference to a name no target has, not a link, and the link breaks; "
                      f"write `{text} <{target}>`{ending}")
            continue
        yield Hit(f"{part.describe()} is not in the msgid ({'MyST' if syntax == 'myst' else 'reST'} "
                  "parse); a translation may add text and emphasis, not structure")


# `text<url>`_ : no space before `<`, so docutils reads no embedded URI (sphinx-lint's
# missing-space-before-link check).
_GLUED_LINK = re.compile(r"`(?P<text>[^`<]*[^\s`<\\])<(?P<target>[^<>`\s]+)>`(?P<ending>__?)(?!\w)")


def _glued_link(part, msgstr: str):
    """(text, target, `_` or `__`) of the glued `text<url>`_ that ``part`` (a new
    reference) comes from, or None."""
    if part.kind != "reference" or ("<" not in part.value and part.value != "__"):
        return None
    for match in _GLUED_LINK.finditer(msgstr):
        name = " ".join(f"{match.group('text')}<{match.group('target')}>".split()).lower()
        if name == part.value or (match.group("ending") == "__" and part.value == "__"):
            return match.group("text"), match.group("target"), match.group("ending")
    return None


def _html_items(items) -> Counter:
    return Counter(" ".join(i.target.lower().split()) for i in items
                   if i.kind in (inline.HTML, inline.COMMENT))


@rule("safety.html", severity="error", needs="<", blocks=(TEXT, MATH), markup=True,
      syntaxes=("myst",),
      explanation=(
          "msgid에 없는 HTML 태그·주석을 msgstr에 넣으면 MyST가 그대로 페이지에 내보냅니다. "
          "`<script>`, `onerror=` 같은 능동 HTML은 물론, 모든 새 HTML이 오류입니다. reST는 태그를 "
          "글자 그대로 보여 주므로(docutils가 이스케이프) MyST 메시지만 검사합니다."))
def raw_html(message: Message, context: Context):
    """The msgstr adds raw HTML (tags, comments, event handlers) the msgid does not have.

    MyST only: reStructuredText shows ``<script>`` as text (docutils escapes it), so in a
    reST msgstr it is at worst a typo, never markup that reaches the page.

    Bad::

        location: index.md:3
        msgid: JAX is fast.
        msgstr: JAX는 빠릅니다.<img src=x onerror=alert(1)>
        expect:
          - 'active HTML `<img src=x onerror=alert(1)>` is not in the msgid; MyST passes it through to the page'

    Good::

        location: index.md:3
        msgid: JAX is <b>fast</b>.
        msgstr: JAX는 <b>빠릅니다</b>.

    Good::

        location: api.rst:3
        msgid: Returns ``<hostname>``.
        msgstr: "'<hostname>'을 반환합니다."
    """
    source = _html_items(msgid_inlines(message))
    translated = _html_items(msgstr_inlines(message))
    for tag in (translated - source).elements():
        danger = _DANGEROUS_TAG.search(tag) or _EVENT_HANDLER.search(tag)
        what = "active HTML" if danger else "raw HTML"
        yield Hit(f"{what} `{tag}` is not in the msgid; MyST passes it through to the page")


@rule("safety.url-scheme", severity="error", needs=(":", "&#"), blocks=(TEXT, CODE, MATH),
      explanation=(
          "`javascript:`, `vbscript:`, `data:` URL은 msgid에 없는 한 어떤 경우에도 오류입니다."))
def script_url(message: Message, context: Context):
    """The msgstr has a `javascript:`, `vbscript:` or `data:` URL the msgid does not have.

    Bad::

        location: index.md:9
        msgid: See [the guide](guide.md).
        msgstr: "[안내](javascript:alert(1))를 보세요."
        expect:
          - 'script or data URL `javascript:` is not in the msgid'

    Good::

        location: index.md:9
        msgid: See [the guide](guide.md).
        msgstr: "[안내](guide.md)를 보세요."
    """
    # reST drops a backslash before an ordinary letter (`java\\script:` is `javascript:`).
    msgstr, msgid = message.msgstr.replace("\\", ""), message.msgid.replace("\\", "")
    for pattern in (_SCRIPT_SCHEME, _DATA_URL):
        match = pattern.search(msgstr)  # almost always None: nothing to count
        if match is not None and len(pattern.findall(msgstr)) > len(pattern.findall(msgid)):
            yield Hit(f"script or data URL `{match.group(0).strip()}` is not in the msgid")


LINK_SCHEMES = frozenset({"http", "https", "mailto"})
# What a browser ignores in a URL before reading its scheme (leading controls and spaces,
# tabs and newlines anywhere; WHATWG URL), and the backslashes reST drops.
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\\]")
_URL_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]*):")
# Link targets outside inline markup: reST hyperlink targets, MyST link definitions.
_TARGET_LINE = re.compile(r"^[ \t]*(?:\.\.[ \t]+_[^:\n]*:|\[[^\]\n]+\]:)[ \t]*(\S+)", re.M)


def link_scheme(url: str) -> str | None:
    """The scheme a browser reads from ``url`` (lower case), or None for a relative URL."""
    match = _URL_SCHEME.match(_IGNORED_IN_URL.sub("", url))
    return match.group(1).lower() if match else None


def _foreign_links(text: str, inlines) -> Counter:
    targets = [i.target for i in inlines if i.kind in (inline.LINK, inline.IMAGE, inline.URL)
               and i.target]
    targets += _TARGET_LINE.findall(text)
    return Counter(t.strip() for t in targets if link_scheme(t) not in (None, *LINK_SCHEMES))


@rule("safety.link-scheme", severity="error", needs=":", blocks=(TEXT,),
      explanation=(
          "msgid에 없는 대상으로 http, https, mailto가 아닌 링크(`tel:`, `intent:`, 파일을 복사하는 "
          "MyST `path:` 등)를 msgstr에 넣을 수 없습니다. 사이트 빌드는 이런 번역을 적용하지 않고 영어 "
          "원문을 보여 줍니다. `javascript:`·`data:`는 `safety.url-scheme`이 따로 알립니다."))
def link_scheme_rule(message: Message, context: Context):
    """The msgstr links with a scheme other than http, https or mailto (`tel:`, `intent:`,
    MyST's file-copying `path:`...) to a target the msgid does not have.

    Bad::

        location: index.md:9
        msgid: See [the guide](guide.md).
        msgstr: "[안내](path:../../../etc/passwd)를 보세요."
        expect:
          - 'link `path:../../../etc/passwd` (path:) is not in the msgid; a published page links only with http, https or mailto'

    Good::

        location: index.md:9
        msgid: See [the guide](project:guide.md).
        msgstr: "[안내](project:guide.md)를 보세요."
    """
    extra = (_foreign_links(message.msgstr, msgstr_inlines(message))
             - _foreign_links(message.msgid, msgid_inlines(message)))
    for target in sorted(extra.elements()):
        yield Hit(f"link `{target}` ({link_scheme(target)}:) is not in the msgid; a published "
                  "page links only with http, https or mailto")


@rule("safety.new-url", severity="info", needs=("//", "mailto:"), markup=True,
      explanation=(
          "msgid에 없는 외부 URL을 msgstr에 넣을 수 없습니다. 번역된 사이트가 원문이 링크하지 않는 "
          "곳을 링크하면 안 됩니다. 한국어 참고 자료는 번역 노트나 용어집에 적습니다."))
def new_url(message: Message, context: Context):
    """The msgstr links to an external URL the msgid does not link to.

    Bad::

        location: installation.md:12
        msgid: Install JAX with pip.
        msgstr: pip로 JAX를 설치하세요. 자세히는 https://example.com 을 보세요.
        expect:
          - 'external URL `https://example.com` is not in the msgid; the published page may not link anywhere the original does not'

    Good::

        location: installation.md:12
        msgid: Install JAX with [pip](https://pip.pypa.io).
        msgstr: "[pip](https://pip.pypa.io)로 JAX를 설치하세요."

    Good::

        location: library/uu.rst:3
        msgid: The last version was `Python 3.12 <https://docs.python.org/3.12/library/uu.html>`_.
        msgstr: 마지막 버전은 `파이썬 3.12 <https://docs.python.org/ko/3.12/library/uu.html>`_\\ 입니다.
    """
    source = {inline.normalise_url(u) for u in inline.urls(msgid_inlines(message))}
    for url in inline.urls(msgstr_inlines(message)):
        # Script and data URLs (no `//`) are safety.url-scheme's.
        if inline.normalise_url(url) not in source and ("//" in url or url.startswith("mailto:")):
            yield Hit(f"external URL `{url}` is not in the msgid; the published page may not "
                      "link anywhere the original does not")


@rule("safety.raw", severity="error", needs=("raw", "include", "eval-rst"), blocks=(TEXT, CODE, MATH),
      code_languages=MARKUP_LANGUAGES,
      explanation=(
          "원시 내용을 끼워 넣는 지시어·역할(`raw`, `include`, `literalinclude`, `eval-rst`, "
          "`:raw-html:`)은 msgid에 없으면 넣을 수 없습니다."))
def raw_directive(message: Message, context: Context):
    """The msgstr adds a directive or role that embeds raw content (raw, include, eval-rst).

    Bad::

        location: index.rst:5
        msgid: Welcome to JAX.
        msgstr: "JAX에 오신 것을 환영합니다. :raw-html:`<script>alert(1)</script>`"
        expect:
          - '`:raw-html:`` embeds raw content and is not in the msgid'

    Good::

        location: index.rst:5
        msgid: Welcome to JAX.
        msgstr: JAX에 오신 것을 환영합니다.
    """
    source = Counter(m.group(0).strip().lower() for m in _RAW.finditer(message.msgid))
    for match in _RAW.finditer(message.msgstr):
        key = match.group(0).strip().lower()
        if source[key] > 0:
            source[key] -= 1
            continue
        yield Hit(f"`{match.group(0).strip()}` embeds raw content and is not in the msgid")


# Files a message can make the build read or copy: image and figure directives (reST
# and MyST), Markdown images, includes. Download and document roles: _REFERENCE_ROLE.
_FILE_REFERENCE = re.compile(
    r"^\s*\.\.\s+(?:image|figure|include|literalinclude)::\s*(\S+)"
    r"|(?:`{3,}|~{3,}|:{3,})\s*\{(?:image|figure|include|literalinclude)\}\s*(\S+)"
    r"|!\[[^\]]*\]\(\s*<?([^)\s>]+)", re.I | re.M)
# :download:`…`, :doc:`…` (reST, with a domain too: :std:doc:) and {download}`…`,
# {doc}`…` (MyST); the body is split as Sphinx splits it (inline.split_role).
_REFERENCE_ROLE = re.compile(
    r":(?:std:)?(?P<rst>download|doc):`(?P<rst_body>(?:[^`\\]|\\.)+)`"
    r"|\{(?:std:)?(?P<myst>download|doc)\}(?P<tick>`+)(?P<myst_body>.+?)(?P=tick)(?!`)",
    re.I | re.S)


def file_references(text: str) -> Counter:
    """The files and documents a message references, as ("file", path) and ("document",
    name), paths normalised (``./a.png`` and ``a.png`` agree). Role targets are read as
    Sphinx reads them: ``x <../../etc/passwd>\\<data.txt>`` is ``../../etc/passwd><data.txt``."""
    found = Counter()
    for match in _FILE_REFERENCE.finditer(text):
        target = next(g for g in match.groups() if g)
        found["file", os.path.normpath(target.strip())] += 1
    for match in _REFERENCE_ROLE.finditer(text):
        syntax = "rst" if match.group("rst") else "myst"
        role = (match.group("rst") or match.group("myst")).lower()
        _explicit, _title, target = inline.split_role(match.group(f"{syntax}_body"), syntax)
        target = " ".join(target.split()).lstrip("~!")
        if role == "doc":
            found["document", target] += 1
        elif target:
            found["file", os.path.normpath(target)] += 1
    return found


@rule("safety.file", severity="error", needs=("download", "doc", "image", "figure", "include", "!["),
      blocks=(TEXT, CODE, MATH), code_languages=MARKUP_LANGUAGES,
      explanation=(
          "msgid에 없는 파일 참조(`{download}`, `:download:`, `image`, `figure`, `include`, "
          "`![그림](경로)`)와 문서 참조(`{doc}`, `:doc:`)를 msgstr에 넣을 수 없습니다. 빌드가 다른 "
          "파일을 읽거나 사이트로 복사하고, 링크가 다른 문서를 가리키게 되기 때문입니다. 역할의 대상은 "
          "Sphinx가 읽는 그대로 읽습니다(`\\<` 이스케이프 포함). 사이트 빌드는 이런 번역을 적용하지 "
          "않고 영어 원문을 보여 줍니다."))
def file_reference(message: Message, context: Context):
    """The msgstr makes the build read or copy a file the msgid does not reference
    (a download, image, figure or include target), or links to a document (``:doc:``)
    the msgid does not; role targets as Sphinx reads them.

    Bad::

        location: index.md:7
        msgid: Download the notebook.
        msgstr: "노트북을 내려받으세요. {download}`비밀 <../../../etc/passwd>`"
        expect:
          - 'file reference `../../../etc/passwd` is not in the msgid; a translation may not make the build read or copy other files'

    Good::

        location: index.md:7
        msgid: Download {download}`the notebook <quickstart.ipynb>`.
        msgstr: "{download}`노트북 <quickstart.ipynb>`을 내려받으세요."

    Bad::

        location: data.rst:4
        msgid: Get :download:`the data <data.txt>`.
        msgstr: ':download:`데이터 <../../../../etc/passwd>\\<data.txt>`\\ 를 받으세요.'
        expect:
          - 'file reference `../../../../etc/passwd><data.txt` is not in the msgid; a translation may not make the build read or copy other files'

    Bad::

        location: index.rst:4
        msgid: Read :doc:`the guide <guide>`.
        msgstr: ':doc:`안내서 <../private/notes>`\\ 를 읽으세요.'
        expect:
          - 'document reference `../private/notes` is not in the msgid; a translation may link only to the documents the original links to'
    """
    extra = file_references(message.msgstr) - file_references(message.msgid)
    for kind, target in extra.elements():
        if kind == "document":
            yield Hit(f"document reference `{target}` is not in the msgid; a translation may "
                      "link only to the documents the original links to")
        else:
            yield Hit(f"file reference `{target}` is not in the msgid; a translation may not "
                      "make the build read or copy other files")


# Any directive: reST (`.. name::`, `.. name ::`, a substitution `.. |x| name::`, nested
# in any block) and MyST fences (```{name}, ~~~{name}, :::{name}). Directives run when
# the message is parsed: they read files (csv-table, mermaid), run code (plot), import
# modules (automodule), define raw roles (role) or set page metadata (meta).
_DIRECTIVE = re.compile(
    r"^[ \t]*\.\.[ \t]+(?:\|[^|\n]+\|[ \t]+)?([A-Za-z0-9][\w.:+-]*?)[ \t]?::(?=[ \t]|$)"
    r"|^[ \t]*(?:`{3,}|~{3,}|:{3,})[ \t]*\{([^}\s]+)\}", re.M)


def directives(text: str) -> Counter:
    """The directive names of a message, lower-cased (docutils ignores their case)."""
    return Counter((m.group(1) or m.group(2)).lower() for m in _DIRECTIVE.finditer(text))


@rule("safety.directive", severity="error", needs=("::", "```", "~~~", ":::"),
      blocks=(TEXT, CODE, MATH), code_languages=MARKUP_LANGUAGES,
      explanation=(
          "msgid에 없는 지시어(reST `.. 이름::`, 치환 정의 `.. |x| 이름::`, MyST ```` ```{이름} ````)는 "
          "어떤 것이든 msgstr에 넣을 수 없습니다. 지시어는 메시지를 읽는 순간 실행되어 파일을 읽고"
          "(`csv-table`, `mermaid`), 코드를 실행하고(`plot`), 모듈을 불러오거나(`automodule`) 페이지를 "
          "바꿉니다(`meta`, `role`). 사이트 빌드는 이런 번역을 적용하지 않고 영어 원문을 보여 줍니다."))
def new_directive(message: Message, context: Context):
    """The msgstr adds a directive the msgid does not have (any directive: they read
    files, run code or change the page when the message is parsed).

    Bad::

        location: index.rst:5
        msgid: The results are below.
        msgstr: "결과는 아래와 같습니다.\\n\\n.. csv-table:: 결과\\n   :file: /etc/passwd"
        expect:
          - 'directive `csv-table` is not in the msgid; a translation may not add directives (they read files, run code or change the page)'

    Good::

        location: index.rst:5
        msgid: The results are below.
        msgstr: 결과는 아래와 같습니다.
    """
    extra = directives(message.msgstr) - directives(message.msgid)
    for name in sorted(extra.elements()):
        yield Hit(f"directive `{name}` is not in the msgid; a translation may not add "
                  "directives (they read files, run code or change the page)")
