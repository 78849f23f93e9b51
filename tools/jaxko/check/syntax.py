"""Syntax: the msgstr parses (docutils for reST, the MyST parser for MyST) without new
problems compared with its msgid.

Parsing costs about a millisecond per message, too much for 75,000 entries within a
second, so a cheap test decides when a message is worth parsing: the msgstr's markup
characters differ in number from the msgid's, or (MyST) an emphasis delimiter sits
between punctuation and Hangul, where CommonMark's flanking rules stop it from
closing (``**"강조"**를``), or underscore emphasis closes right before Hangul, where
it cannot close at all (``_키_는``). A msgstr with the same markup as its msgid in the same
shape parses like it.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from jaxko.check import inline, structure
from jaxko.check.context import Context, msgstr_inlines, msgstr_masked
from jaxko.check.message import Message
from jaxko.check.registry import Hit, family, rule

FAMILY = family("syntax", "구문 (syntax)", order=8)

_MARKUP_CHARS = "`*|_[]<>{}$"
# A delimiter with space on both sides (`** 굵게**`) opens and closes nothing.
_SPACED = re.compile(r"(?<!\S)(?:``|\*\*|[`*])(?!\S)")
_FLANKING = re.compile(r"(?<=[^\s\w])[*_]+(?=[가-힣])|(?<=[가-힣])[*_]+(?=[^\s\w*_])")
_HANGUL = re.compile(r"[가-힣]")
# Underscore emphasis closed right before Hangul (`_키_는`, `__JAX__는`): CommonMark
# lets `_` close only when no letter follows, so it shows the underscores literally.
_UNDERSCORE_BEFORE_HANGUL = re.compile(r"(?<![\w\\])(__?)(?![\s_])([^_\n]+?)(?<![\s\\])\1(?=[가-힣])")


def _fingerprint(text: str) -> tuple:
    if "\\ " in text:  # reST's escaped space before a particle stands for a space
        text = text.replace("\\ ", " ")
    # How many of each markup character (str.count runs in C; a findall and a sort
    # of the characters cost several times more), and how many spaced delimiters.
    return tuple(map(text.count, _MARKUP_CHARS)), len(_SPACED.findall(text))


def worth_parsing(message: Message) -> bool:
    if _fingerprint(message.msgid) != _fingerprint(message.msgstr):
        return True
    return message.syntax == "myst" and bool(_FLANKING.search(message.msgstr)
                                             or _UNDERSCORE_BEFORE_HANGUL.search(message.msgstr))


def _literal_underscores(message: Message):
    """`_키_는`: underscore emphasis that markdown-it leaves literal (checked by parsing
    the msgstr with `*` in place of the underscores)."""
    text = msgstr_masked(message)  # no code spans, URLs or math
    for match in _UNDERSCORE_BEFORE_HANGUL.finditer(text):
        marks, body = match.group(1), match.group(2)
        star = "*" * len(marks)
        fixed = message.msgstr[:match.start()] + star + body + star + message.msgstr[match.end():]
        kind = "strong_open" if len(marks) == 2 else "em_open"
        if myst_structure(fixed)[kind] > myst_structure(message.msgstr)[kind]:
            written = message.msgstr[match.start():match.end() + 1]
            yield Hit(f"`{written}`: `{marks}` cannot close emphasis right before Hangul, so it "
                      f"shows literally; write `{star}{body}{star}{written[-1]}` or put the particle "
                      f"inside the emphasis",
                      f"{star}{body}{star}{written[-1]}")
            return


# ------------------------------------------------------------------------------ reST


_POSITION = re.compile(r"^<message>:\d+: ")  # the same problem on another line is the same
_ROLE_NAME = re.compile(r"(?<![\w`]):((?:[\w-]+:)?[\w-]+):`")
_DIRECTIVE_NAME = re.compile(r"^[ \t]*\.\.[ \t]+(?:\|[^|\n]+\|[ \t]+)?([\w.:+-]+?)[ \t]?::(?=[ \t]|$)",
                             re.M)


def rst_problems(text: str, roles: frozenset[str] = frozenset(),
                 directives: frozenset[str] = frozenset()) -> Counter:
    """Warnings and errors docutils reports for ``text``, without line numbers.

    Parsed as Sphinx would (:func:`structure.sphinx_tables`): its roles and directives,
    and ``roles``/``directives`` (the msgid's), are known and inert; nothing runs, no
    file is read (:func:`structure.rst_settings`).
    """
    from docutils import nodes

    with structure.sphinx_tables(roles, directives):
        try:
            document = structure.parse_rst(text)
        except Exception as err:  # docutils raises on some broken input
            return Counter({f"parser failed: {err.__class__.__name__}": 1})
    found = Counter()
    for node in document.findall(nodes.system_message):
        if node["level"] >= 2:
            found[_POSITION.sub("", node.astext().split("\n", 1)[0].strip())] += 1
    structure.discard(document)
    return found


def names_used(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The role and directive names a reST text uses (a project's own among them)."""
    roles = frozenset(_ROLE_NAME.findall(text)) if ":`" in text else frozenset()
    directives = frozenset(_DIRECTIVE_NAME.findall(text)) if ".." in text else frozenset()
    return roles, directives


# ------------------------------------------------------------------------------ MyST

_STRUCTURE = ("strong_open", "em_open", "code_inline", "link_open", "image", "myst_role",
              "math_inline", "math_single", "footnote_ref", "html_inline", "s_open")
_NAMES = {"strong_open": "**strong**", "em_open": "*emphasis*", "code_inline": "`code`",
          "link_open": "[link](target)", "image": "![image](target)", "myst_role": "{role}`...`",
          "math_inline": "$math$", "math_single": "$math$", "footnote_ref": "[^footnote]",
          "html_inline": "inline HTML", "s_open": "~~strike~~"}


@lru_cache(maxsize=1)
def _myst_parser():
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    config = MdParserConfig(enable_extensions={"dollarmath", "amsmath", "colon_fence", "deflist"})
    return create_md_parser(config, RendererHTML)


def myst_structure(text: str) -> Counter:
    """How many of each inline construct markdown-it (with MyST's plugins) finds."""
    found = Counter()
    for token in _myst_parser().parse(text):
        for child in token.children or ():
            if child.type in _STRUCTURE:
                found[child.type] += 1
    return found


def _escape_hangul(message: Message) -> str:
    """The reST msgstr with an escaped space wherever markup touches Hangul."""
    text = message.msgstr
    cuts = []
    for item in msgstr_inlines(message):
        if item.kind in (inline.HTML, inline.COMMENT, inline.URL):
            continue
        if item.end < len(text) and _HANGUL.match(text, item.end):
            cuts.append(item.end)
        if item.start > 0 and _HANGUL.match(text, item.start - 1):
            cuts.append(item.start)
    for cut in sorted(set(cuts), reverse=True):
        text = text[:cut] + "\\ " + text[cut:]
    return text


# What the lightweight inline scanner sees, by the markdown-it token it should become.
_SCANNED_AS = {inline.STRONG: "strong_open", inline.EMPHASIS: "em_open",
               inline.LITERAL: "code_inline", inline.ROLE: "myst_role", inline.LINK: "link_open",
               inline.IMAGE: "image", inline.FOOTNOTE: "footnote_ref"}


def _unparsed(text: str, syntax: str) -> Counter:
    """Constructs whose delimiters are in ``text`` but that markdown-it does not parse."""
    scanned = Counter(_SCANNED_AS[i.kind] for i in inline.parse(text, syntax) if i.kind in _SCANNED_AS)
    if not scanned:
        return Counter()
    return scanned - myst_structure(text)


@rule("syntax.parse", severity="error", needs=tuple(_MARKUP_CHARS),
      explanation=(
          "msgstr을 실제 파서(reST는 docutils, MyST는 MyST 파서)로 읽었을 때 msgid에는 없던 문제가 "
          "생깁니다. MyST에서는 문장 부호 뒤의 강조 닫는 기호 바로 뒤에 한글이 오면(`**\"jit\"**을`) "
          "강조가 풀립니다: 문장 부호를 강조 안쪽으로 옮기거나 구조를 바꿉니다. "
          "Sphinx의 역할과 지시어(`:kbd:`, `:ref:`, `.. versionadded::` 등)와 msgid가 쓰는 역할·지시어"
          "(프로젝트 확장의 것 포함)는 알려진 것으로 읽고 아무것도 실행하지 않습니다."))
def parses(message: Message, context: Context):
    """The msgstr does not parse like its msgid: new reST warnings, or MyST markup that no longer takes effect.

    Bad::

        location: tutorials.md:14
        msgid: Call **"jit"** once.
        msgstr: '**"jit"**을 한 번 호출하세요.'
        expect:
          - 'MyST markup no longer parses: **strong**; next to Hangul, emphasis after punctuation needs a space or moving the punctuation inside'

    Good::

        location: tutorials.md:14
        msgid: Call **"jit"** once.
        msgstr: '**"jit"** 함수를 한 번 호출하세요.'
    """
    if not worth_parsing(message):
        return
    if message.syntax == "rst":
        # Hangul next to markup is markup.hangul-after-markup's finding; parse the
        # msgstr as if it were fixed, to report only other problems.
        roles, directives = names_used(message.msgid)
        found = rst_problems(_escape_hangul(message), roles, directives)
        new = found - rst_problems(message.msgid, roles, directives) if found else found
        for problem in list(new)[:1]:
            yield Hit(f"reST: {problem}")
        return
    for found in _literal_underscores(message):
        yield found
        return
    lost = _unparsed(message.msgstr, "myst")
    if lost:
        lost -= _unparsed(message.msgid, "myst")
    if lost:
        kinds = ", ".join(_NAMES.get(kind, kind) for kind in lost)
        yield Hit(f"MyST markup no longer parses: {kinds}; next to Hangul, emphasis after "
                  "punctuation needs a space or moving the punctuation inside")


def shown_backticks(text: str) -> int:
    """How many backticks Markdown shows as text (not code-span delimiters), the
    escaped ones (``\\```) left out."""
    count = 0
    for token in _myst_parser().parse(text):
        for child in token.children or ():
            if child.type == "text":
                count += child.content.count("`")
    return max(0, count - text.count("\\`"))


@rule("syntax.stray-backtick", severity="error", needs="`", syntaxes=("myst",),
      explanation=(
          "MyST에서 짝이 없는 백틱(`)은 코드가 되지 않고 글자 그대로 페이지에 보입니다. "
          "msgid에 없는 백틱이 msgstr에 보이면 빠진 짝을 채우거나 백틱을 지웁니다."))
def stray_backtick(message: Message, context: Context):
    """MyST: a backtick without its pair shows on the page as a literal ` where the English shows none.

    Bad::

        location: quickstart.md:12
        msgid: Arrays are immutable.
        msgstr: 배열은 `바꿀 수 없습니다.
        expect:
          - 'a backtick without its pair shows as a literal ` on the page; close the code span or remove it'

    Good::

        location: quickstart.md:12
        msgid: Arrays are immutable.
        msgstr: 배열은 바꿀 수 없습니다.

    Good::

        location: quickstart.md:14
        msgid: Use `jnp` here.
        msgstr: 여기서는 `jnp`를 씁니다.
    """
    if shown_backticks(message.msgstr) > shown_backticks(message.msgid):
        yield Hit("a backtick without its pair shows as a literal ` on the page; "
                  "close the code span or remove it")
