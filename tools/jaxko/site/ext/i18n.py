"""Translated messages of MyST and notebook pages, parsed the way they were written.

Sphinx's i18n step (``sphinx.transforms.i18n.Locale``) re-parses every translated
message with the *document's* parser (``publish_msgstr``): the source path of the
fragment ends in ``:<translated>``, and the parser is the one registered for the
page's file type. Two upstream bugs follow for MyST sources:

* MyST-NB#587: the parser registered for ``.ipynb`` and MyST notebooks is MyST-NB's
  notebook parser, which reads its input as a whole notebook. A message is a Markdown
  fragment. MyST-NB 1.4 detects the ``<translated>`` suffix and falls back to MyST;
  we do not depend on that: fragments go to MyST's Markdown parser here, whatever
  MyST-NB version is installed.
* MyST-Parser#444: for literal blocks (code blocks, notebook code cells, math blocks)
  ``Locale`` wraps the msgstr in reStructuredText literal notation,
  ``'::\\n\\n' + indent(msgstr, '   ')``. In Markdown that is a paragraph ``::``
  followed by an indented paragraph, so every translated code block rendered as
  ``::``. The parser below recognises the notation in a translated fragment and
  returns the literal block it stands for.

A third problem is MyST's own: a reference-style link (``[text][label]``, with
``[label]: url`` elsewhere in the page, as in ``multi_process.md``) cannot resolve in a
fragment that lacks the definition; it renders as literal brackets and the link is
lost, silently (Sphinx compares only named references, and MyST resolves these to
URLs). The parser appends the page's link definitions to each translated Markdown
fragment that has a bracketed label (definitions render nothing).

The fixes above live in one parser subclass registered for MyST-NB's file type
(``myst-nb``, which conf.py uses for ``.md`` and ``.ipynb``); it changes nothing
for whole documents.

A fourth problem is Sphinx's own, in reST and MyST alike: a Python console block
(``>>>``) with a doctest flag (``# doctest: +SKIP``) is never translated. Sphinx trims
the flags in a *post*-transform (``TrimDoctestFlagsTransform``, at write time), so the
gettext builder extracts the trimmed text as the msgid, while ``Locale`` (a read-time
transform) looks the block up by its untrimmed text, finds nothing and keeps the
English. :class:`TrimDoctestFlagsBeforeLocale` trims the same blocks, the same way,
just before ``Locale``; Sphinx's later trim then has nothing left to do, so the page
(English or Korean) is what it was, translated.

``jaxko_i18n_fixes = False`` turns all four off (the tests build once that way to show
the bugs are real).

What these fixes leave slow (MyST building docutils' settings for every message,
``Locale`` parsing every message twice, each parsed message keeping its own document)
is :mod:`jaxko.site.ext.speedups`' business.
"""

from __future__ import annotations

import ast
import functools
import json
import logging
import re
from pathlib import Path

from docutils import nodes
from myst_nb.sphinx_ import Parser as NotebookParser
from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
from myst_parser.parsers.mdit import create_md_parser
from myst_parser.parsers.sphinx_ import MystParser
from sphinx.transforms.i18n import Locale
from sphinx.transforms.post_transforms.code import TrimDoctestFlagsTransform

from jaxko.fragments import escape_markdown
from jaxko.site.ext import translated_markup
from jaxko.site.ext.gate import untrusted

# What Locale passes for a literal block, and what it appends when a msgstr ends in
# '::' (then indented with the rest): both from sphinx/transforms/i18n.py.
LITERAL_PREFIX = "::\n\n"
LITERAL_INDENT = " " * 3
DUMMY_LITERAL = "\n\n" + LITERAL_INDENT + LITERAL_INDENT + "dummy literal"


def is_translated_fragment(document: nodes.document) -> bool:
    """Whether the parser is reading a msgstr for Sphinx's i18n step."""
    source = document.current_source or document.get("source") or ""
    return str(source).endswith("<translated>")


def literal_text(fragment: str) -> str | None:
    """The msgstr inside Locale's literal notation, or None for any other fragment."""
    if not fragment.startswith(LITERAL_PREFIX):
        return None
    body = fragment[len(LITERAL_PREFIX):]
    if body.endswith(DUMMY_LITERAL) and body[: -len(DUMMY_LITERAL)].rstrip().endswith("::"):
        body = body[: -len(DUMMY_LITERAL)]
    lines = body.split("\n")
    # textwrap.indent skips whitespace-only lines: those are kept exactly as they are.
    return "\n".join(line[len(LITERAL_INDENT):] if line.strip() else line for line in lines)


# A CommonMark link reference definition on one line: [label]: destination "title"
_DEFINITION = re.compile(r"""^ {0,3}\[([^\]]+)\]:[ \t]*(<[^>\n]*>|\S+)"""
                         r"""(?:[ \t]+("[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$""", re.M)
_REFERENCE_LINK = re.compile(r"\]\[[^\]]*\]|\[[^\]]+\](?![(:\[])")


def _markdown_text(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return text
    try:
        cells = json.loads(text).get("cells", [])
    except ValueError:
        return ""
    sources = ("".join(c.get("source", "")) if isinstance(c.get("source"), list)
               else c.get("source", "") for c in cells if c.get("cell_type") == "markdown")
    return "\n\n".join(sources)


@functools.lru_cache(maxsize=512)
def link_definitions(source_path: str) -> str:
    """The link reference definitions of a MyST page or notebook, one per line."""
    path = Path(source_path)
    if not path.is_file():
        return ""
    return "\n".join(match.group(0).strip() for match in _DEFINITION.finditer(_markdown_text(path)))


def fragment_source(document: nodes.document) -> str:
    """The page a translated fragment comes from (``path:line:<translated>``)."""
    source = str(document.current_source or document.get("source") or "")
    return source.rsplit(":", 2)[0] if source.endswith("<translated>") else source


def fixes_enabled(document: nodes.document) -> bool:
    env = getattr(document.settings, "env", None)
    return env is None or bool(getattr(env.config, "jaxko_i18n_fixes", True))


class TranslatedMessageParser(NotebookParser):
    """MyST-NB's parser, except for translated messages (see the module docstring)."""

    def parse(self, inputstring: str, document: nodes.document) -> None:
        if not is_translated_fragment(document):
            return super().parse(inputstring, document)

        with untrusted(document):  # a msgstr: no file insertion, no raw content
            return self._parse_fragment(inputstring, document)

    def _parse_fragment(self, inputstring: str, document: nodes.document) -> None:
        if not fixes_enabled(document):
            return super().parse(inputstring, document)
        text = literal_text(inputstring)
        if text is not None:
            document += nodes.literal_block(text, text)
            return None
        if translated_markup.enabled(document):  # leading block markup is text
            inputstring = escape_markdown(inputstring)
        if _REFERENCE_LINK.search(inputstring):
            definitions = link_definitions(fragment_source(document))
            if definitions:
                inputstring = f"{inputstring}\n\n{definitions}\n"
        # A Markdown fragment: MyST's parser, never the notebook reader.
        config = document.settings.env.myst_config
        if inputstring.lstrip().startswith("---"):  # front matter: MyST merges it
            return MystParser.parse(self, inputstring, document)
        parser = _fragment_parser(config)
        parser.options["document"] = document
        parser.render(inputstring)
        return None


_FRAGMENT_PARSERS: dict[int, tuple] = {}


def _fragment_parser(config):
    """MyST's Markdown parser for ``config``, built once (see the module docstring): the
    renderer starts each render from the document it is given, nothing carries over."""
    kept = _FRAGMENT_PARSERS.get(id(config))
    if kept is None or kept[0] is not config:
        kept = (config, create_md_parser(config, SphinxRenderer))
        _FRAGMENT_PARSERS[id(config)] = kept
    return kept[1]


class TrimDoctestFlagsBeforeLocale(TrimDoctestFlagsTransform):
    """Sphinx's doctest-flag trim, run before ``Locale`` so that a console block is
    looked up by the text the gettext builder extracted (see the module docstring).

    At read time the highlight language of a block without one is not set yet
    (``HighlightLanguageTransform`` is a post-transform): such a block is read with the
    project's ``highlight_language``, as that transform would."""

    default_priority = Locale.default_priority - 1

    def apply(self, **kwargs) -> None:
        if not getattr(self.config, "jaxko_i18n_fixes", True):
            return
        default = self.config.highlight_language
        for block in self.document.findall(nodes.literal_block):
            unset = "language" not in block
            if unset:
                block["language"] = default
            try:
                console = self.is_pyconsole(block)
            finally:
                if unset:
                    del block["language"]
            if console:
                self.strip_doctest_flags(block)
        for block in self.document.findall(nodes.doctest_block):
            self.strip_doctest_flags(block)


# Sphinx 9 compares a message's named references by their source text (8.2 compared
# their number), so the translation of a named reference that Sphinx's own docs
# recommend, `` `번역 <Name_>`_ `` for `` `Name`_ ``, warns "inconsistent references" on
# every such message, although it resolves to the same target. The warning's two lists
# are Sphinx's (``compare_references``: ``repr`` of each reference's rawsource).
_INCONSISTENT = re.compile(r"inconsistent references in translated message\. "
                           r"original: (\[.*\]), translated: (\[.*\])$", re.S)
_NAMED = re.compile(r"^`(?P<name>(?:[^`\\]|\\.)+)`__?$", re.S)
_ALIASED = re.compile(r"^`(?:[^`\\]|\\.)*?<(?P<name>[^<>`]+)_>`__?$", re.S)


def _reference_name(rawsource: str, pattern: re.Pattern) -> str | None:
    match = pattern.match(rawsource)
    return nodes.fully_normalize_name(match["name"]) if match else None


def same_named_references(original: list[str], translated: list[str]) -> bool:
    """Whether each translated named reference names the original's target: the same
    name, or a translated text with the name as its alias (`` `텍스트 <Name_>`_ ``)."""
    if len(original) != len(translated) or not original:
        return False
    names = [_reference_name(raw, _NAMED) for raw in original]
    given = [_reference_name(raw, _ALIASED) or _reference_name(raw, _NAMED) for raw in translated]
    return None not in names and sorted(names) == sorted(n or "" for n in given)


class SameReferencesFilter(logging.Filter):
    """Drops Sphinx 9's "inconsistent references" warning where the references are the
    same targets (see :func:`same_named_references`); every other one passes."""

    enabled = True

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.enabled or getattr(record, "subtype", None) != "inconsistent_references":
            return True
        match = _INCONSISTENT.search(record.getMessage())
        if match is None:
            return True
        try:
            original, translated = (ast.literal_eval(group) for group in match.groups())
        except (ValueError, SyntaxError):
            return True
        return not same_named_references(list(original), list(translated))


_SAME_REFERENCES = SameReferencesFilter()


def _filter_named_references(app, config) -> None:
    SameReferencesFilter.enabled = bool(config.jaxko_i18n_fixes)
    logger = logging.getLogger("sphinx.sphinx.transforms.i18n")  # Sphinx's logger there
    if _SAME_REFERENCES not in logger.filters:
        logger.addFilter(_SAME_REFERENCES)


def setup(app):
    app.setup_extension("myst_nb")
    app.add_config_value("jaxko_i18n_fixes", True, "env", types=[bool])
    app.connect("config-inited", _filter_named_references)
    app.add_source_parser(TranslatedMessageParser, override=True)
    app.add_transform(TrimDoctestFlagsBeforeLocale)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
