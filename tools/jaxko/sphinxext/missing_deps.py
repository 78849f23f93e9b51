"""A document whose included file is missing is read again when that file appears.

Sphinx reads a document again on every build while a file it depends on (a
``literalinclude`` target, a ``tagged-block`` source) does not exist. The offline copy
of upstream lacks the ``.py`` companions of ``fault_tolerance`` and
``the-training-cookbook`` (docs/build-warnings.md), so every rebuild read both and wrote
again every page that lists them, a change or not.

A file that was missing then and is missing now has not changed. After reading, the
missing dependencies leave Sphinx's list for this extension's own; a later build reads
the document again as soon as one of them exists (``env-get-outdated``), and a file
that is still missing costs nothing.
"""

from __future__ import annotations

from pathlib import Path

_KEPT = "jaxko_missing_dependencies"


def _kept(env) -> dict[str, set[str]]:
    if not hasattr(env, _KEPT):
        setattr(env, _KEPT, {})
    return getattr(env, _KEPT)


def _exists(env, dep: str) -> bool:
    return (Path(env.srcdir) / dep).is_file()  # as Sphinx resolves it: dep may be absolute


def _set_aside(app, env) -> None:
    """After reading: each document's missing dependencies move to our list."""
    kept = _kept(env)
    for docname, deps in env.dependencies.items():
        missing = {dep for dep in deps if not _exists(env, dep)}
        if missing:
            deps -= missing
            kept.setdefault(docname, set()).update(missing)


def _appeared(app, env, added, changed, removed) -> list[str]:
    """Documents one of whose missing files now exists: Sphinx reads them again."""
    return [docname for docname, deps in _kept(env).items()
            if docname in env.found_docs and docname not in removed
            and any(_exists(env, dep) for dep in deps)]


def _purge(app, env, docname: str) -> None:
    _kept(env).pop(docname, None)  # reading it again notes its dependencies again


def setup(app):
    app.connect("env-updated", _set_aside)
    app.connect("env-get-outdated", _appeared)
    app.connect("env-purge-doc", _purge)
    return {"version": "1", "env_version": 1, "parallel_read_safe": True,
            "parallel_write_safe": True}
