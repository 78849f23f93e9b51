"""Every use of a private internal of the docs toolchain, in one guarded extension
(``"jaxko.site.ext.speedups"`` in conf.py): the build-speed shims, and the one shim a
page needs (:func:`ipynb_reader`).

The build-speed shims change how fast a site builds, never what it builds: with
``-D jaxko_speedups=0``, or on versions they were not tested with, the pages are
Sphinx's own, byte for byte (``tests/test_site_speedups.py`` compares whole sites).
Each shim names the upstream code it replaces; ``docs/upstream-patches.md`` drafts the
upstream reports that would make it unnecessary.

**A Korean text notebook's outputs.** :func:`ipynb_reader` has MyST-NB read one
document as ``.ipynb`` JSON although its file is a MyST text notebook (``.md``):
``jaxko.site.ext.korean_outputs`` hands MyST-NB the page's notebook with the Korean
run's outputs merged in. MyST-NB chooses a reader from the file's suffix and the
build-wide ``env.mystnb_config`` only, so the shim swaps that attribute for the one
parse. It changes pages, so ``jaxko_speedups`` does not turn it off; its own guard
(:data:`READER_TESTED`) does, on a MyST-NB it was not tested with: it then yields
``False`` and changes nothing, and the caller keeps the page's stored outputs.

:data:`TESTED` lists the versions each shim was tested with. On any other version the
extension installs nothing and warns once (``jaxko.speedups``), so a new Sphinx, MyST
or docutils release builds the same site, only slower, until the shims are checked
against it.

**MyST's settings per message.** MyST-Parser's renderer evaluates ``make_document()`` as the default
of ``options.get("document", ...)`` on every render, even when the caller gives the
document, and each call builds docutils' option parser for the default settings.
Rendering a whole page once that is nothing; Sphinx's i18n step renders every
translated Markdown message on its own, so the Korean build built it about 7,000 times.
:func:`make_document` builds the default settings once and copies them. (Always on: it
changes no output.) The same holds for MyST's Markdown parser, which MyST builds anew
for every parse (``create_md_parser``: a markdown-it instance with its rules and
plugins): a translated fragment without front matter is rendered by one parser per
MyST configuration (:func:`_fragment_parser`).

Another cost: ``Locale`` parses every translated message twice. Its first pass parses
each one to find section titles whose reference names change (and glossary terms),
then drops the parse of every other message; its second pass parses them all again to
translate them. :class:`TitlesFirst` gives the first pass, for a message that is
neither a section's title nor a term, an empty element instead of a parse: the first
pass skips a message whose parse is no paragraph, as it would have skipped it after
parsing, and the second pass parses it as before. The pages are the same, byte for
byte, as with ``-D jaxko_locale_titles_first=0`` (tested on a site with a referenced
section title and a glossary term; the whole Korean site compared the same way); a
msgstr that does not parse is warned about once, where it was warned about twice.

And a cost in every page read: ``Locale`` moves the nodes of each parsed msgstr into
the page, and each keeps a reference to the document the msgstr was parsed into
(docutils' ``Node.document``), whose settings hold Sphinx's whole build environment.
Sphinx pickles each page's doctree after reading it and unpickles it to write it, so a
Korean page's doctree carried a copy of the environment and of each fragment's
document (on ``about``: 85 KB, where the page's own nodes take under 10). At
``doctree-read``, after every transform, :func:`drop_fragment_documents` points those
nodes back to the page they are in, as nodes parsed with the page are (``-D
jaxko_drop_fragment_documents=0`` leaves them, for the tests' comparison).

**The root document's toctrees, once per build.** For each page it writes,
pydata-sphinx-theme asks Sphinx's ``global_toctree_for_doc``, which resolves every
toctree of the root document, copying the table of contents of every page it lists
(each section of each page) to keep only their titles. What it resolves depends on the
page only through the page's ancestors, and through them only for a page whose table
of contents holds an ``only`` node (or another node ``_toctree_copy`` does not
expect), which Sphinx deep-copies unfiltered for an ancestor; the "current" marks and
relative links are added after. :class:`SharedEntries` resolves each toctree's entries
once per build (per ancestors that can matter) and gives each page a deep copy, on
which Sphinx then adds that page's marks and links as before
(``jaxko_shared_toctree = False`` is Sphinx's own way). Entries whose resolution warned
are not kept, so each page warns as before.

**Parents written again only when what they show changed.** After reading a document
again, Sphinx writes again every page whose ``toctree`` lists it
(``env.files_to_rebuild``), whatever changed: the parents show the document's title
and table of contents, so a new title must reach them. An edited msgstr rarely changes
either, yet each parent costs a full page write (the theme renders the whole
navigation for every page). Before reading, :func:`_note_shown` notes what a parent
shows of each document about to be read: its title, long title, table of contents
(sections and nested toctrees) and numbers. When writing starts,
:func:`_spare_parents` takes a document whose notes are unchanged out of Sphinx's
parents-to-write list for this build; the parent's page on disk is already what it
would write. Sphinx has saved its environment by then, so the next build sees
Sphinx's own list again. A parent written anyway (for a change of its own) is not
affected (``jaxko_spare_toc_parents = False`` writes them as Sphinx does).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import logging
import weakref
from collections.abc import Iterator
from importlib import metadata

from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser as RSTParser
from docutils.utils import new_document
from myst_parser.mdit_to_docutils import base as myst_renderer
from sphinx import addnodes
from sphinx.environment.adapters import toctree as toctree_adapters
from sphinx.transforms import SphinxTransform
from sphinx.transforms import i18n as sphinx_i18n
from sphinx.transforms.i18n import Locale
from sphinx.util import logging as sphinx_logging

logger = sphinx_logging.getLogger(__name__)

# The distributions whose private names the shims use, and the release series each was
# tested with: (first, last) as (major, minor), both included.
TESTED: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "sphinx": ((8, 2), (8, 2)),
    "myst-parser": ((5, 2), (5, 2)),
    "docutils": ((0, 21), (0, 21)),
}


# The MyST-NB series :func:`ipynb_reader` was tested with (``env.mystnb_config``, an
# ``NbParserConfig`` with ``custom_formats``), apart from the speed shims' guard: it
# needs neither Sphinx's nor MyST-Parser's internals.
READER_TESTED: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "myst-nb": ((1, 3), (1, 4)),
}
STANDARD_READER = "myst_nb.core.read.standard_nb_read"


def _series(version: str) -> tuple[int, int]:
    parts = [int("".join(ch for ch in part if ch.isdigit()) or 0) for part in version.split(".")[:2]]
    return (parts + [0, 0])[0], (parts + [0, 0])[1]


def untested(tested=None) -> list[str]:
    """The installed distributions outside *tested* (default :data:`TESTED`), as
    ``name version``."""
    found = []
    for name, (first, last) in (TESTED if tested is None else tested).items():
        version = metadata.version(name)
        if not first <= _series(version) <= last:
            found.append(f"{name} {version}")
    return found


@contextlib.contextmanager
def ipynb_reader(env, suffix: str) -> Iterator[bool]:
    """While the body runs, MyST-NB reads a document whose file ends in *suffix* as
    ``.ipynb`` JSON; yields whether it does (``False``, nothing changed, on a MyST-NB
    outside :data:`READER_TESTED`). The build-wide configuration is back afterwards."""
    if untested(READER_TESTED):
        yield False
        return
    config = env.mystnb_config
    formats = {**config.custom_formats, suffix: (STANDARD_READER, {}, False)}
    env.mystnb_config = dataclasses.replace(config, custom_formats=formats)
    try:
        yield True
    finally:
        env.mystnb_config = config


@functools.lru_cache(maxsize=8)
def _default_settings(parser_cls):
    return get_default_settings(parser_cls)


def make_document(source_path="notset", parser_cls=RSTParser) -> nodes.document:
    """MyST-Parser's ``make_document``, with the default settings built once per parser
    class (a copy each time: a document may change its own settings)."""
    return new_document(source_path, settings=copy.copy(_default_settings(parser_cls)))



# Sphinx's own, before setup() puts TitlesFirst's in their place for Locale.
_extract_messages = sphinx_i18n.extract_messages
_publish_msgstr = getattr(sphinx_i18n, "publish_msgstr", None)


class TitlesFirst:
    """Which pass of ``Locale`` is running, and on which message: what Locale's first
    pass needs parsed (see the module docstring). One ``Locale`` runs at a time in a
    process (Sphinx reads in processes, not threads)."""

    document: nodes.document | None = None
    passes = 0
    node: nodes.Node | None = None

    @classmethod
    def extract_messages(cls, doctree):
        if doctree is not cls.document:
            yield from _extract_messages(doctree)
            return
        cls.passes += 1
        for node, msg in _extract_messages(doctree):
            cls.node = node
            yield node, msg

    @classmethod
    def publish_msgstr(cls, app, source, source_path, source_line, config, settings):
        document, node = cls.document, cls.node
        if (document is not None and settings is document.settings and cls.passes == 1
                and node is not None and not _first_pass_needs(node)):
            return nodes.Element()  # no paragraph: the first pass moves on
        return _publish_msgstr(app, source, source_path, source_line, config, settings)


def _first_pass_needs(node: nodes.Node) -> bool:
    """What Locale's first pass uses a parse for (``_NodeUpdater.update_title_mapping``
    and its glossary-term branch), and the nodes with several messages (a toctree's
    entries: ``addnodes.translatable``), whose ``translated`` mark each message's first
    pass sets again: a message kept in English marks the node translated, and only
    the next message's parse clears it, or the second pass skips the whole toctree."""
    return (isinstance(node, nodes.title) and isinstance(node.parent, nodes.section)) \
        or isinstance(node, (nodes.term, addnodes.translatable))


def _drop_fragment_documents(app, doctree: nodes.document) -> None:
    if app.config.jaxko_drop_fragment_documents:  # off: as plain Sphinx (the tests compare)
        drop_fragment_documents(doctree)


def drop_fragment_documents(doctree: nodes.document) -> None:
    """Nodes moved in from a translated message's own document belong to the page (see
    the module docstring): their ``document`` is then their parent's, the page's."""
    for node in doctree.findall():
        if node is not doctree and node.__dict__.get("_document") not in (None, doctree):
            del node.__dict__["_document"]


class _LocaleStarts(SphinxTransform):
    default_priority = Locale.default_priority - 1

    def apply(self, **kwargs) -> None:
        on = self.config.jaxko_locale_titles_first
        TitlesFirst.document = self.document if on else None
        TitlesFirst.passes, TitlesFirst.node = 0, None


class _LocaleEnded(SphinxTransform):
    default_priority = Locale.default_priority + 1

    def apply(self, **kwargs) -> None:
        TitlesFirst.document, TitlesFirst.passes, TitlesFirst.node = None, 0, None



# ``_toctree_copy`` walks these, copies references, titles and toctrees as ``deepcopy``
# does, and treats any other node (``only``, above all) otherwise.
_TOC_BRANCHES = (nodes.bullet_list, nodes.list_item, addnodes.compact_paragraph)
_TOC_LEAVES = (nodes.reference, nodes.title, addnodes.toctree)


def _copies_alike(node: nodes.Element) -> bool:
    """Whether ``_toctree_copy`` of this table of contents is what ``deepcopy`` gives."""
    for child in node.children:
        if isinstance(child, _TOC_BRANCHES):
            if not _copies_alike(child):
                return False
        elif not isinstance(child, _TOC_LEAVES):
            return False
    return True


_SHARED = "_jaxko_shared_toctree"
# Sphinx's own (this module, imported again, must not take its own wrapper for it).
_SPHINX_ENTRIES = getattr(toctree_adapters._entries_from_toctree, "jaxko_wraps",
                          toctree_adapters._entries_from_toctree)


class SharedEntries:
    """The resolved entries of each toctree, for one build's writing (module docstring).

    Kept under a key of the toctree's attributes, the resolution's switches and those
    of the page's ancestors whose copy differs (:attr:`sensitive`); only for
    ``collapse=False`` (with collapse, an ancestor's subtree is kept and another's is
    not) and for the top of a toctree, as ``_resolve_toctree`` asks."""

    def __init__(self, env) -> None:
        self.sensitive = frozenset(
            doc for doc, toc in env.tocs.items()
            if env.metadata.get(doc, {}).get("tocdepth", 0) <= 0 and not _copies_alike(toc))
        self.kept: dict[tuple, nodes.Element] = {}

    def entries(self, env, prune, titles_only, collapse, includehidden, tags,
                toctree_ancestors, included, excluded, toctreenode, parents,
                subtree=False):
        args = (env, prune, titles_only, collapse, includehidden, tags, toctree_ancestors,
                included, excluded, toctreenode, parents)
        if collapse or subtree or parents:
            return _SPHINX_ENTRIES(*args, subtree=subtree)
        key = (tuple(sorted((name, repr(value)) for name, value in toctreenode.attributes.items())),
               prune, titles_only, includehidden, self.sensitive & frozenset(toctree_ancestors))
        kept = self.kept.get(key)
        if kept is None:
            with _warnings_seen() as seen:
                resolved = _SPHINX_ENTRIES(*args)
            if seen or len(resolved) != 1:
                return resolved  # each page warns again, as without this
            kept = self.kept[key] = resolved[0].deepcopy()
        return [kept.deepcopy()]


@contextlib.contextmanager
def _warnings_seen():
    """Whether Sphinx's toctree code warned in the block. Its logger is asked at the call:
    while writing, Sphinx holds warnings back and counts them only at the end."""
    seen: list[logging.LogRecord] = []

    def note(record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            seen.append(record)
        return True

    logger = toctree_adapters.logger.logger
    logger.addFilter(note)
    try:
        yield seen
    finally:
        logger.removeFilter(note)


def _entries_from_toctree(env, *args, **kwargs):
    """Sphinx's ``_entries_from_toctree``, through this build's :class:`SharedEntries`
    while one is writing."""
    shared = getattr(env, _SHARED, None)
    if shared is None:
        return _SPHINX_ENTRIES(env, *args, **kwargs)
    return shared.entries(env, *args, **kwargs)


_entries_from_toctree.jaxko_wraps = _SPHINX_ENTRIES


def _share_entries(app, builder) -> None:
    """Writing starts: the tables of contents are final."""
    setattr(app.env, _SHARED, SharedEntries(app.env) if app.config.jaxko_shared_toctree else None)


def _stop_sharing(app, exc) -> None:
    if hasattr(app.env, _SHARED):
        delattr(app.env, _SHARED)


# What the parents of each document about to be read show of it, per build (per
# Sphinx application), from env-before-read-docs to write-started.
_SHOWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _shown(env, docname: str) -> str:
    """What a page listing ``docname`` can show of it."""
    found = (env.titles.get(docname), env.longtitles.get(docname), env.tocs.get(docname))
    numbers = (env.toc_secnumbers.get(docname), env.toc_fignumbers.get(docname))
    return "\0".join([*(node.pformat() if node is not None else "" for node in found),
                      repr(numbers)])


def _note_shown(app, env, docnames: list[str]) -> None:
    """Before reading: the documents about to be read, as their parents show them now."""
    _SHOWN[app] = {doc: _shown(env, doc) for doc in docnames if doc in env.titles}


def _spare_parents(app, builder) -> None:
    """Writing starts: documents shown as before leave Sphinx's parents-to-write list."""
    noted = _SHOWN.pop(app, {})
    env = app.env
    unchanged = {doc for doc, shown in noted.items()
                 if doc in env.titles and _shown(env, doc) == shown}
    if unchanged:
        env.files_to_rebuild = {doc: parents for doc, parents in env.files_to_rebuild.items()
                                if doc not in unchanged}


def setup(app):
    # Off: Sphinx's own code everywhere (the tests compare whole sites).
    app.add_config_value("jaxko_speedups", True, "env", types=[bool])
    # Each shim on its own, off: as plain Sphinx (the tests compare).
    app.add_config_value("jaxko_locale_titles_first", True, "env", types=[bool])
    app.add_config_value("jaxko_drop_fragment_documents", True, "env", types=[bool])
    app.add_config_value("jaxko_shared_toctree", True, "", types=[bool])
    app.add_config_value("jaxko_spare_toc_parents", True, "", types=[bool])
    app.connect("config-inited", _install)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


def _install(app, config) -> None:
    if not config.jaxko_speedups:
        return
    versions = untested()
    if versions:
        logger.warning("jaxko.site.ext.speedups is off: not tested with %s (TESTED in %s); "
                       "the site builds the same, more slowly", ", ".join(versions), __file__,
                       type="jaxko", subtype="speedups")
        return
    myst_renderer.make_document = make_document
    sphinx_i18n.extract_messages = TitlesFirst.extract_messages
    sphinx_i18n.publish_msgstr = TitlesFirst.publish_msgstr
    app.add_transform(_LocaleStarts)
    app.add_transform(_LocaleEnded)
    app.connect("doctree-read", _drop_fragment_documents, priority=900)
    toctree_adapters._entries_from_toctree = _entries_from_toctree
    app.connect("write-started", _share_entries)
    app.connect("build-finished", _stop_sharing)
    if config.jaxko_spare_toc_parents:
        app.connect("env-before-read-docs", _note_shown)
        app.connect("write-started", _spare_parents)
