"""A page that lists a page read again is written again only when what it shows of it
changed.

After reading a document again, Sphinx writes again every page whose ``toctree`` lists
it (``env.files_to_rebuild``), whatever changed: the parents show the document's title
and table of contents, so a new title must reach them. An edited msgstr rarely changes
either, yet each parent costs a full page write (the theme renders the whole
navigation for every page).

Before reading, this extension notes what a parent shows of each document about to be
read: its title, long title, table of contents (sections and nested toctrees) and
numbers. When writing starts, a document whose notes are unchanged no longer names its
parents for this build. Sphinx has already saved its environment by then, so the next
build sees Sphinx's own list again. A parent written anyway (for a change of its own)
is not affected.
"""

from __future__ import annotations

_NOTED = "_jaxko_shown_to_parents"


def _shown(env, docname: str) -> str:
    """What a page listing ``docname`` can show of it."""
    nodes = (env.titles.get(docname), env.longtitles.get(docname), env.tocs.get(docname))
    numbers = (env.toc_secnumbers.get(docname), env.toc_fignumbers.get(docname))
    return "\0".join([*(node.pformat() if node is not None else "" for node in nodes),
                      repr(numbers)])


def _note(app, env, docnames: list[str]) -> None:
    """Before reading: the documents about to be read, as their parents show them now."""
    setattr(app, _NOTED, {doc: _shown(env, doc) for doc in docnames if doc in env.titles})


def _spare_parents(app, builder) -> None:
    """Writing starts: documents shown as before leave Sphinx's parents-to-write list."""
    noted = getattr(app, _NOTED, {})
    setattr(app, _NOTED, {})
    env = app.env
    unchanged = {doc for doc, shown in noted.items()
                 if doc in env.titles and _shown(env, doc) == shown}
    if unchanged:
        env.files_to_rebuild = {doc: parents for doc, parents in env.files_to_rebuild.items()
                                if doc not in unchanged}


def setup(app):
    app.connect("env-before-read-docs", _note)
    app.connect("write-started", _spare_parents)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
