"""What a parser will build from a message: its structure, read by the real parsers.

The safety decision on a msgstr is made on what Sphinx will parse, never on how the
text is spelled: the msgid and the msgstr are each parsed with the parser Sphinx uses
for the message's source document (docutils for reST, MyST for Markdown and notebooks)
and the structures are compared (:func:`added`). A translation may add text, emphasis
and ordinary inline markup (:data:`ORDINARY_ROLES`); every directive, raw or HTML node,
substitution, role, reference, target, image or URL the msgid does not have is refused,
whatever its spelling (escaped, spaced, behind a line break only docutils knows...).

Nothing runs while a message is parsed here: docutils' directive and role lookups are
answered (:func:`recording`) by recorders that note each name, argument and option and
build nothing but the directive's nested content. The same lookup, with a table that
refuses every directive, is what the site build puts around a translated fragment
(:func:`no_directives`, used by :mod:`jaxko.site.ext.gate`). The lookups are redirected
with Sphinx's public dispatcher (``sphinx.util.docutils.CustomReSTDispatcher``, the one
Sphinx puts around every document for its domains), never by rewriting docutils'
tables; the reST inliner is a subclass of docutils' ``Inliner`` (:func:`_inliner_class`).
"""

from __future__ import annotations

import contextlib
import copy
import re
from collections import Counter
from functools import lru_cache
from typing import Callable, Iterator, NamedTuple

from jaxko.check.inline import normalise_url, split_role
from jaxko.check.sources import split_directive_options

# Inline roles that only style text (docutils' and Sphinx's): a translation may use them
# where the msgid does not. '' is the default role (`text`): title-reference.
ORDINARY_ROLES = frozenset({
    "", "emphasis", "strong", "literal", "code", "subscript", "sub", "superscript", "sup",
    "title-reference", "title", "t", "abbreviation", "ab", "acronym", "ac", "abbr", "math",
    "kbd", "guilabel", "menuselection", "file", "samp", "command", "program", "dfn",
    "mimetype", "regexp", "makevar",
})
# MyST syntax extensions: a superset of conf.py's (``myst_enable_extensions``), so that
# any structure Sphinx's MyST parser can build is built here too.
MYST_EXTENSIONS = ("dollarmath", "amsmath", "colon_fence", "deflist", "substitution",
                   "html_image", "html_admonition", "fieldlist", "strikethrough",
                   "attrs_inline", "attrs_block", "tasklist")


class Part(NamedTuple):
    """One structural element of a parsed message, as compared."""

    kind: str    # directive, role, raw, link, image, reference, substitution, ...
    value: str   # what distinguishes two of a kind (a name, a URL, raw text)

    def describe(self) -> str:
        what = {"directive": "directive", "role": "role", "raw": "raw content",
                "link": "link to", "image": "image", "reference": "reference to",
                "substitution": "substitution",
                "substitution-definition": "substitution definition", "math": "math",
                "front-matter": "front matter (page metadata, parser settings)",
                "unparsable": "text the parser gave up on"}[self.kind]
        value = self.value if len(self.value) <= 60 else self.value[:57] + "..."
        return f"{what} `{value}`" if value else what


# ------------------------------------------------------------------ the recorders


class _AnyOption(dict):
    """An option table that accepts every option, unchanged (nothing is validated)."""

    def __missing__(self, key):
        return _unchanged

    def get(self, key, default=None):
        return _unchanged

    def __contains__(self, key) -> bool:
        return True


def _unchanged(argument):
    return "" if argument is None else " ".join(str(argument).split())


# The parts of the parse in progress (a stack: a recorder's nested parse adds to its own).
_CURRENT: list[Counter] = []


def _recording_directive(name: str):
    from docutils import nodes
    from docutils.parsers.rst import Directive

    class Recorder(Directive):
        """Notes a directive's name, arguments and options; parses its content only
        to find what is nested in it; runs nothing."""

        required_arguments = 0
        optional_arguments = 50
        final_argument_whitespace = True
        has_content = True
        option_spec = _AnyOption()

        def run(self):
            options = " ".join(f":{k}: {v}" for k, v in sorted(self.options.items()))
            key = " ".join(filter(None, (name.lower(), *self.arguments, options)))
            if _CURRENT:
                _CURRENT[-1][Part("directive", key)] += 1
                if name.lower() == "math":
                    _CURRENT[-1][Part("math", math_key(
                        "\n".join([*self.arguments, *self.content])))] += 1
            holder = nodes.container()
            if self.content:
                with contextlib.suppress(Exception):  # content that is not markup
                    self.state.nested_parse(self.content, self.content_offset, holder)
            return [holder]

    return Recorder


def _role_target(text: str, syntax: str) -> str:
    """A role's target as Sphinx reads it (:func:`jaxko.check.inline.split_role`)."""
    _explicit, _title, target = split_role(text, syntax)
    return " ".join(target.strip().lstrip("~!").split())


# Macros whose argument is words a translation may change (\text{loss} -> \text{손실}),
# when the argument is plain: no macro, brace or `$` (MathJax reads `$…$` inside \text
# as math again), so nothing in it can run or link.
_TEXT_MACRO = re.compile(
    r"(\\(?:text|textrm|textit|textbf|textsf|texttt|textnormal|mbox|mathrm|operatorname))"
    r"\s*\{[^{}\\$]*\}")
_TEX_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\S", re.S)


def math_key(tex: str) -> str:
    """Math as compared: its TeX tokens (spacing aside), the words of ``\\text{…}`` and
    its kin left out. A msgstr's math must be the msgid's: a macro, link, style or
    ``\\newcommand`` a formula gains is structure, however it is spelled."""
    tex = _TEXT_MACRO.sub(lambda m: m.group(1) + "{…}", tex)
    out: list[str] = []
    word = False  # the last token is a control word: a letter after it needs a space
    for token in _TEX_TOKEN.findall(tex):
        if word and token.isalpha():
            out.append(" ")
        out.append(token)
        word = len(token) > 2 and token[0] == "\\" and token[1:].isalpha()
    return "".join(out)


def _recording_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    from docutils import nodes
    from docutils.utils import unescape

    role = name.lower()
    role = role[3:] if role.startswith("py:") else role
    if role == "math" and _CURRENT:  # docutils' math role: the text, backslashes kept
        _CURRENT[-1][Part("math", math_key(unescape(text, True)))] += 1
    if role not in ORDINARY_ROLES and _CURRENT:
        _CURRENT[-1][Part("role", f"{role} {_role_target(text, 'docutils')}")] += 1
    return [nodes.inline(rawtext, text)], []


@lru_cache(maxsize=1)
def _dispatcher():
    """Sphinx's public reST dispatcher, answering docutils' lookups with ours."""
    from sphinx.util.docutils import CustomReSTDispatcher

    class Dispatcher(CustomReSTDispatcher):
        """While enabled, docutils' directive (and role) lookups are ``directive(name,
        language, document, previous)`` (and ``role(name, language, lineno, reporter,
        previous)``), ``previous`` being the lookup in force before."""

        def __init__(self, directive: Callable, role: Callable | None) -> None:
            super().__init__()
            self.lookup_directive, self.lookup_role = directive, role

        def directive(self, directive_name, language_module, document):
            return self.lookup_directive(directive_name, language_module, document,
                                         super().directive)

        def role(self, role_name, language_module, lineno, reporter):
            if self.lookup_role is None:
                return super().role(role_name, language_module, lineno, reporter)
            return self.lookup_role(role_name, language_module, lineno, reporter,
                                    super().role)

    return Dispatcher


def swapped(directive: Callable, role: Callable | None = None):
    """A context in which docutils, MyST and Sphinx (its domains included) look
    directives (and roles) up with ``directive`` (and ``role``): they all go through
    docutils' ``directives.directive`` and ``roles.role``, which Sphinx's dispatcher
    redirects. Each lookup gets the previous lookup as its last argument."""
    return _dispatcher()(directive, role)


def _record_directive(name, language, document, previous):
    return _recording_directive(name), []


def _record_role(name, language, lineno, reporter, previous):
    return _recording_role, []


@contextlib.contextmanager
def recording() -> Iterator[Counter]:
    """Parse with recorders in place of every directive and role; yields the parts."""
    parts: Counter = Counter()
    _CURRENT.append(parts)
    try:
        with swapped(_record_directive, _record_role):
            yield parts
    finally:
        _CURRENT.pop()


def no_directives(on_refused: Callable[[str], None]):
    """A directive table with nothing in it: each lookup calls ``on_refused(name)`` and
    finds no directive, so docutils and MyST report an unknown directive and run none."""
    def lookup(name, language, document, previous):
        on_refused(name)
        return None, []
    return swapped(lookup)


# Modules of Sphinx whose ``setup`` registers its core directives and roles (read, not run).
_SPHINX_SETUP_MODULES = ("sphinx.directives", "sphinx.directives.admonitions",
                         "sphinx.directives.code", "sphinx.directives.other",
                         "sphinx.directives.patches", "sphinx.domains.changeset",
                         "sphinx.domains.index", "sphinx.roles")
_REGISTERED = re.compile(r"(?:register_directive|add_directive|register_local_role|add_role)"
                         r"\(\s*['\"]([\w:-]+)['\"]")
_DOMAINS = ("python.PythonDomain", "std.StandardDomain", "c.CDomain", "cpp.CPPDomain",
            "javascript.JavaScriptDomain", "rst.ReSTDomain", "math.MathDomain")


@lru_cache(maxsize=1)
def sphinx_names() -> tuple[frozenset[str], frozenset[str]]:
    """(roles, directives) Sphinx itself provides: its domains' tables (each name
    alone and as ``domain:name``), its doc roles, and the names its core modules'
    ``setup`` registers, read from their source. Nothing is registered or run."""
    import importlib
    import inspect

    roles: set[str] = set()
    directives: set[str] = set()
    for spec in _DOMAINS:
        module, name = spec.rsplit(".", 1)
        domain = getattr(importlib.import_module(f"sphinx.domains.{module}"), name)
        roles.update(domain.roles)
        roles.update(f"{domain.name}:{role}" for role in domain.roles)
        directives.update(domain.directives)
        directives.update(f"{domain.name}:{directive}" for directive in domain.directives)
    sphinx_roles = importlib.import_module("sphinx.roles")
    roles.update(sphinx_roles.generic_docroles)
    roles.update(sphinx_roles.specific_docroles)
    changeset = importlib.import_module("sphinx.domains.changeset")
    directives.update(changeset.versionlabels)
    for module in _SPHINX_SETUP_MODULES:
        source = inspect.getsource(importlib.import_module(module).setup)
        for found in _REGISTERED.finditer(source):
            (roles if "role" in found.group(0) else directives).add(found.group(1))
    return frozenset(roles), frozenset(directives)


def _inert_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    from docutils import nodes

    return [nodes.inline(rawtext, text)], []


@contextlib.contextmanager
def sphinx_tables(roles: frozenset[str] = frozenset(),
                  directives: frozenset[str] = frozenset()) -> Iterator[None]:
    """Directive and role tables as Sphinx sees them, with nothing behind them: a name
    docutils or Sphinx knows, or one of ``roles``/``directives`` (those the msgid
    uses: a project's own extensions), resolves to an inert stand-in that parses a
    directive's content and runs nothing; any other name is unknown, as docutils
    reports it. For ``syntax.parse``: Sphinx's roles are no parse error."""
    known_roles = {r.lower() for r in roles}
    known_directives = {d.lower() for d in directives}

    def directive(name, language, document, previous):
        lowered = name.lower()
        if lowered in known_directives or lowered in sphinx_names()[1]:
            return _recording_directive(name), []
        found, messages = previous(name, language, document)
        return (None, messages) if found is None else (_recording_directive(name), [])

    def role(name, language, lineno, reporter, previous):
        lowered = name.lower()
        if lowered in known_roles or lowered in sphinx_names()[0]:
            return _inert_role, []
        found, messages = previous(name, language, lineno, reporter)
        return (None, messages) if found is None else (_inert_role, [])

    with swapped(directive, role):
        yield


# ------------------------------------------------------------------ the parsers


@lru_cache(maxsize=1)
def rst_settings():
    """docutils' quiet reST settings that insert no file (shared with ``syntax.parse``)."""
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser

    settings = get_default_settings(Parser)
    settings.report_level = 5
    settings.halt_level = 5
    settings.warning_stream = False
    settings.file_insertion_enabled = False
    settings.raw_enabled = True  # raw nodes are built, and counted; nothing reads a file
    return settings


class _Machine:
    """One reST state machine and inliner for the whole process.

    ``Parser.parse`` builds a new state machine for every text: some fifteen states,
    each compiling its transitions, which is most of the cost of parsing a one-line
    message. Here they are built once and run again on each text, with the settings of
    :func:`rst_settings` (file insertion off), exactly as ``Parser.parse`` runs them.
    A parse that raises leaves the machine in an unknown state: it is then dropped.
    """

    def __init__(self):
        from docutils.parsers.rst import states
        from docutils.statemachine import string2lines
        from docutils.utils import new_document

        self.settings = rst_settings()
        self.machine = states.RSTStateMachine(state_classes=states.state_classes,
                                              initial_state="Body")
        self.inliner = _inliner_once()
        # Bound once: a parse is a fraction of a millisecond, and an import statement
        # run on each call shows in it.
        self.string2lines, self.new_document = string2lines, new_document

    def parse(self, text: str):
        """A new document holding ``text`` parsed (what ``Parser.parse`` builds)."""
        # A shallow copy, as ``Values.copy`` makes it, without its per-setting calls.
        document = self.new_document("<message>", copy.copy(self.settings))
        lines = self.string2lines(text, tab_width=8, convert_whitespace=True)
        if any(len(line) > self.settings.line_length_limit for line in lines):
            document.append(document.reporter.error("Line exceeds the line-length-limit."))
            return document
        machine = self.machine
        try:
            machine.run(lines, document, inliner=self.inliner)
        finally:
            if document.note_source in machine.observers:
                machine.detach_observer(document.note_source)
        # No `default-role` (or `role`) directive of a message ever runs: every parse is
        # inside recording() or sphinx_tables(), which answer every directive with a
        # recorder, so docutils' role table is never written.
        return document


@lru_cache(maxsize=1)
def _inliner_class():
    """docutils' ``Inliner``, built once per process and quicker on plain text.

    Its patterns depend only on the settings, which are the same for every message:
    ``init_customizations`` (which ``RSTStateMachine.run`` calls on every parse) builds
    them the first time only.

    Its search for standalone URIs and e-mail addresses (``implicit_inline``, run on
    every stretch of text between inline markup) is skipped on a stretch with no ``:``
    and no ``@``: the one implicit pattern of these settings (``patterns.uri``; PEP and
    RFC references are off) has a literal ``:`` after the scheme of an absolute URI and
    a literal ``@`` in an address, so it cannot match there; docutils would return the
    stretch as one text node, which is what is returned.
    tests/test_check_structure.py holds the claim against docutils' own inliner.
    """
    from docutils import nodes
    from docutils.parsers.rst import states

    class Inliner(states.Inliner):
        customized = False

        def init_customizations(self, settings):
            if not self.customized:
                super().init_customizations(settings)
                if [pattern for pattern, _ in self.implicit_dispatch] != [self.patterns.uri]:
                    raise RuntimeError("docutils' implicit inline patterns changed: review "
                                       "jaxko.check.structure._inliner_class")
                self.customized = True

        def implicit_inline(self, text, lineno):
            if ":" not in text and "@" not in text:
                return [nodes.Text(text)] if text else []
            return super().implicit_inline(text, lineno)

    # docutils fills the patterns in from ``vars(self.__class__)``: the pattern pieces
    # of its class (plain strings) are the subclass's own too.
    for name, value in vars(states.Inliner).items():
        if isinstance(value, str) and not name.startswith("__"):
            setattr(Inliner, name, value)
    return Inliner


def _inliner_once():
    """One inliner (:func:`_inliner_class`) with its patterns built."""
    inliner = _inliner_class()()
    inliner.init_customizations(rst_settings())
    return inliner


_MACHINES: list[_Machine] = []


def parse_rst(text: str):
    """``text`` parsed by docutils with the quiet, file-free settings of
    :func:`rst_settings`, through the one state machine of this process; the directive
    and role tables in force (see :func:`swapped`) decide what runs."""
    if not _MACHINES:
        _MACHINES.append(_Machine())
    machine = _MACHINES.pop()
    document = machine.parse(text)  # raises: the machine is not put back
    _MACHINES.append(machine)
    return document


@lru_cache(maxsize=1)
def _markdown_it():
    """MyST's parser: markdown-it with MyST's plugins (its docutils renderer only maps
    the tokens to nodes one by one, so the tokens are the structure)."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    config = MdParserConfig(enable_extensions=set(MYST_EXTENSIONS))
    return create_md_parser(config, RendererHTML)


_FENCE_INFO = re.compile(r"^\{([^}\s]+)\}\s*(.*)$")


# markdown-it's math tokens (MyST's dollarmath and amsmath extensions).
_MYST_MATH = frozenset({"math_inline", "math_inline_double", "math_block", "math_block_label",
                        "amsmath"})


def _myst_parts(text: str, parts: Counter) -> None:
    for token in _markdown_it().parse(text):
        if token.type in ("fence", "colon_fence"):
            info = _FENCE_INFO.match(token.info.strip())
            if info is not None:
                options, content = split_directive_options(token.content)
                key = " ".join(filter(None, (info.group(1).lower(), info.group(2).strip(),
                                             " ".join(options.split()))))
                parts[Part("directive", key)] += 1
                if info.group(1).lower() == "math":
                    parts[Part("math", math_key(info.group(2) + "\n" + content))] += 1
                elif info.group(1).lower() == "eval-rst":  # its content is reST
                    parts.update(structure(content, "rst"))
                else:  # MyST parses a directive's content as MyST
                    _myst_parts(content, parts)
        elif token.type == "html_block":
            parts[Part("raw", " ".join(token.content.split()).lower())] += 1
        elif token.type == "front_matter":
            parts[Part("front-matter", "")] += 1
        elif token.type in _MYST_MATH:
            parts[Part("math", math_key(token.content))] += 1
        for child in token.children or ():
            if child.type in _MYST_MATH:
                parts[Part("math", math_key(child.content))] += 1
            elif child.type == "myst_role" and child.meta.get("name", "").lower() == "math":
                parts[Part("math", math_key(child.content))] += 1
            elif child.type == "html_inline":
                parts[Part("raw", " ".join(child.content.split()).lower())] += 1
            elif child.type == "link_open":
                parts[Part("link", normalise_url(str(child.attrGet("href") or "")))] += 1
            elif child.type == "image":
                parts[Part("image", str(child.attrGet("src") or ""))] += 1
            elif child.type == "myst_role":
                role = child.meta.get("name", "").lower()
                if role not in ORDINARY_ROLES:
                    parts[Part("role", f"{role} {_role_target(child.content, 'myst')}")] += 1


def _parse(text: str):
    """A reST text parsed by docutils with recorders for every directive and role."""
    from docutils.utils import new_document

    with recording() as parts:
        try:
            document = parse_rst(text)
        except Exception as err:  # a parser that gives up sees no structure we can vouch for
            parts[Part("unparsable", type(err).__name__)] += 1
            document = new_document("<message>", rst_settings().copy())
    return document, parts


@lru_cache(maxsize=1)
def _watched() -> tuple[type, ...]:
    """The node classes :func:`_walk` reads (every other element holds no part)."""
    from docutils import nodes
    from sphinx import addnodes

    return (nodes.raw, nodes.reference, nodes.target, nodes.image, nodes.substitution_definition,
            nodes.substitution_reference, addnodes.pending_xref, nodes.meta)


def _walk(document, parts: Counter) -> None:
    from docutils import nodes
    from sphinx import addnodes

    watched = _watched()
    for node in document.findall(nodes.Element):
        if not isinstance(node, watched):
            continue
        if isinstance(node, nodes.raw):
            parts[Part("raw", " ".join(node.astext().split()).lower())] += 1
        elif isinstance(node, nodes.reference):
            if node.get("refuri"):
                parts[Part("link", normalise_url(node["refuri"]))] += 1
            elif node.get("refname"):
                parts[Part("reference", node["refname"])] += 1
            elif node.get("anonymous"):
                parts[Part("reference", "__")] += 1
        elif isinstance(node, nodes.target):
            if node.get("refuri") and not _embedded(node, nodes):
                parts[Part("link", normalise_url(node["refuri"]))] += 1
            # A target's name is an anchor, no link: `text <url>`_ names one after its
            # (translated) text; what it links to is the reference before it, counted
            # above (one link, one part: a changed named link is one finding).
        elif isinstance(node, nodes.image):
            parts[Part("image", node.get("uri", ""))] += 1
        elif isinstance(node, nodes.substitution_definition):
            parts[Part("substitution-definition", " ".join(node.get("names", ())))] += 1
        elif isinstance(node, nodes.substitution_reference):
            parts[Part("substitution", node.get("refname", ""))] += 1
        elif isinstance(node, addnodes.pending_xref):
            parts[Part("link", str(node.get("reftarget", "")))] += 1
        elif isinstance(node, nodes.meta):
            parts[Part("front-matter", "")] += 1


def _embedded(target, nodes) -> bool:
    """Whether a target is the one docutils adds after `text <url>`_ for its URL: the
    reference right before it links to the same URL."""
    parent = target.parent
    if parent is None:
        return False
    at = parent.index(target)
    previous = parent[at - 1] if at > 0 else None
    return isinstance(previous, nodes.reference) and previous.get("refuri") == target.get("refuri")


def discard(document) -> None:
    """Free a parsed document now, once read. Its tree is a web of cycles (parent and
    children, each node's document, the document's tables of ids and names), which
    only the cyclic collector would free: tens of thousands of parses left to it cost
    a tenth of a check, its passes walking the run's long-lived objects again and
    again. Emptying every node's attributes lets reference counting free them; nothing
    outside the tree holds a node (the parts are strings)."""
    for node in list(document.findall()):
        node.__dict__.clear()


@lru_cache(maxsize=8192)
def structure(text: str, syntax: str) -> Counter:
    """The parts a parser builds from ``text`` (``syntax``: "rst" or "myst")."""
    if syntax == "myst":
        parts: Counter = Counter()
        _myst_parts(text, parts)
        return parts
    document, parts = _parse(text)
    _walk(document, parts)
    discard(document)
    return parts


# Without one of these, neither parser builds any part (sound, and cheap to test).
# reST: interpreted text is a part only as a role (`:name:` right before or after its
# backquotes: ":`", "`:") or a reference (a backquote right before `_`); `text` alone is
# the default role, title-reference (a `.. default-role::` would need explicit markup);
# a reference name ends in `_` or `__` followed by no letter or digit (docutils' end
# string wants space or punctuation after it: ``my_var`` and 이름_을 are no reference);
# explicit markup (directives, targets `.. _x: url`, substitution definitions) starts
# with ".. ", an anonymous target with "__ "; substitutions need `|`; standalone links
# an `@` or a URI scheme (a scheme's last character, a letter, digit, `.`, `+` or `-`,
# right before `:`: docutils knows `whois++`); a field marker `:x` is kept as before.
# `::` alone builds no part: a literal block is literal, a line of colons a title
# adornment or a transition (proved once on python-docs-ko's 41,113 spared texts, see
# BENCHMARKS.md). MyST parts need `<`, `[`, `{`, a fence (backquotes, tildes,
# colons), `)=` (a target), a leading `---` or `+++` (front matter, breaks), `:` (field
# lists, fences), or a scheme for linkify-style URLs. tests/test_check_structure.py
# holds the claim against docutils on generated text and on real catalogs.
_MAY_HAVE_PARTS = {
    "rst": re.compile(r":`|`:|`_|_(?!\w)|[|@]|\.\.\s|__\s|(?:^|\s):[^:\s]|[A-Za-z0-9.+-]:"),
    "myst": re.compile(r"[<\[{`~$]|:::|^\s*:[^\s:]|\)=|^\s*(?:---|\+\+\+)|[A-Za-z0-9.+-]:"
                       r"|\\begin\{", re.M),
}


def may_have_parts(text: str, syntax: str) -> bool:
    """False only when ``text`` certainly parses to no part (see the pattern above)."""
    return _MAY_HAVE_PARTS[syntax].search(text) is not None


def added(msgid: str, msgstr: str, syntaxes: tuple[str, ...],
          names: dict | None = None) -> list[Part]:
    """The parts the msgstr has and the msgid does not, under any of ``syntaxes``.

    ``names`` (the catalog's translated reference names, msgid name -> msgstr names):
    a named reference of the msgid written with the translation of that name
    (`Godot 에디터는 Godot 게임입니다`_ for `The Godot editor is a Godot game`_, where the
    catalog translates that title so) is the same reference, as Sphinx's i18n resolves
    it: the translated title's target in the same document."""
    if msgstr == msgid:
        return []  # the same text parses the same (an untranslated copy, a code block)
    extra: Counter = Counter()
    for syntax in syntaxes:
        if not may_have_parts(msgstr, syntax):
            continue
        translated = structure(msgstr, syntax)
        if not translated:
            continue
        source = structure(msgid, syntax)
        new = translated - source
        if names and any(part.kind == "reference" for part in new):
            new = _renamed_references(new, source - translated, names)
        extra |= new
    return sorted(extra.elements())


def _renamed_references(new: Counter, lost: Counter, names: dict) -> Counter:
    """``new`` without the references that stand for a reference of ``lost`` under its
    translated name (each lost reference answers for one new one)."""
    new = Counter(new)
    for part in [p for p in lost.elements() if p.kind == "reference"]:
        for translated in names.get(part.value, ()):
            candidate = Part("reference", translated)
            if new[candidate] > 0:
                new[candidate] -= 1
                break
    return +new
