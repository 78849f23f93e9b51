"""Translated messages keep their node kind: leading block markup in a msgstr is text.

Sphinx's i18n step (``sphinx.transforms.i18n.Locale``) re-parses every msgstr with the
page's parser and keeps the result only when it is a paragraph (or, for a title, a
section title: it appends a line of ``=`` to the msgstr). A msgstr that *reads* as
block markup parses to another node kind and is dropped without a warning: the page
shows the English. Examples, all plain text in the original node:

* MyST: a heading "1. `jax.grad`로 기울기 구하기" (an ordered list), "- ", "+ ", "* "
  (a bullet list), "# " (a heading), "> " (a quote), "%" (a comment), "(x)=" (a
  target), "[x]: url" (a link definition), a line of ``=``/``-`` (a setext heading),
  "```" (a code fence);
* reST: "1. ", "1) ", "(1) ", "a. ", "#. " (an enumerated list), "- ", "+ ", "* "
  (a bullet list), "-x" or "--opt" (an option list), "| " (a line block), ">>>" (a
  doctest), ".. " (a comment), ":name: " (a field list), an indented first line (a
  block quote), a line of repeated punctuation (a section title or a transition).

The translated node is a paragraph or title, so its text must parse as one: before the
parser reads a translated fragment, the first character of each such construct is
backslash-escaped (both MyST and reST render ``\\-`` as ``-``; the patterns are in
:mod:`jaxko.fragments`). Inline markup (roles, code, emphasis, links) is left alone:
the patterns match block constructs only.
Literal blocks (Locale's ``::`` notation) are never touched.

The MyST side is called from :class:`jaxko.site.ext.i18n.TranslatedMessageParser`; the
reST side is a subclass of Sphinx's reST parser registered here.
``jaxko_escape_translated_markup = False`` turns both off (the tests show the drop).
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import states
from docutils.statemachine import StringList, string2lines
from sphinx.parsers import RSTParser
from jaxko.fragments import escape_rest
from jaxko.site.ext.gate import untrusted


def is_translated_fragment(document: nodes.document) -> bool:
    """Whether the parser is reading a msgstr for Sphinx's i18n step."""
    source = document.current_source or document.get("source") or ""
    return str(source).endswith("<translated>")


def enabled(document: nodes.document) -> bool:
    env = getattr(document.settings, "env", None)
    return env is None or bool(getattr(env.config, "jaxko_escape_translated_markup", True))


class TranslatedRSTParser(RSTParser):
    """Sphinx's reST parser; a translated fragment's leading markup is escaped first.

    ``RSTParser.parse`` builds a new state machine (some fifteen states, each compiling
    its transitions) for every input: nothing for a page, but Sphinx's i18n step parses
    every translated reST message on its own. Fragments run through one state machine
    per process instead, exactly as ``parse`` runs it; one that raises is dropped."""

    _fragment_machine: states.RSTStateMachine | None = None

    def parse(self, inputstring, document: nodes.document) -> None:
        if not is_translated_fragment(document):
            return super().parse(inputstring, document)
        if isinstance(inputstring, str) and enabled(document):
            inputstring = escape_rest(inputstring)

        with untrusted(document):  # a msgstr: no file insertion, no raw content
            self._parse_fragment(inputstring, document)

    def _parse_fragment(self, inputstring, document: nodes.document) -> None:
        self.setup_parse(inputstring, document)
        machine = TranslatedRSTParser._fragment_machine
        if machine is None or machine.debug != document.reporter.debug_flag:
            machine = states.RSTStateMachine(state_classes=self.state_classes,
                                             initial_state=self.initial_state,
                                             debug=document.reporter.debug_flag)
        TranslatedRSTParser._fragment_machine = None  # until this run returns
        self.statemachine = machine
        if isinstance(inputstring, str):
            lines = StringList(string2lines(inputstring, tab_width=document.settings.tab_width,
                                            convert_whitespace=True),
                               document.current_source)
        else:
            lines = inputstring
        self.decorate(lines)
        try:
            machine.run(lines, document, inliner=self.inliner)
        finally:
            # run() attaches the document as an observer of line changes each time
            if document.note_source in machine.observers:
                machine.detach_observer(document.note_source)
        TranslatedRSTParser._fragment_machine = machine
        self.finish_parse()


def setup(app):
    app.add_config_value("jaxko_escape_translated_markup", True, "env", types=[bool])
    app.add_source_parser(TranslatedRSTParser, override=True)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
