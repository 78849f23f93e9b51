"""The security gate of the site build: what a translation must not do never reaches it.

Two layers, both inside the build, whether or not anyone ran ``jaxko check``:

1. :func:`gate_catalogs`, before Sphinx runs: the catalogs are copied beside the
   output (``_build/html-locale/``) with the msgstr of every message that the ``safety`` rules
   refuse (raw HTML, script/data URLs, raw-content and file-reading directives, file
   references the msgid lacks) left empty, so that page keeps the English for that
   message. Each blocked message is reported as ``catalog:line: rule: ...``; the site
   build fails under ``--strict``. Unchanged catalogs are not rewritten (their mtime
   stays, so Sphinx stays incremental).
2. The Sphinx extension (:func:`setup`), whatever the catalogs or sources say:

   * a translated message is parsed with docutils' own switches for untrusted input
     off (:func:`untrusted`): no file insertion (``include``, ``literalinclude``,
     ``raw``/``csv-table`` with ``:file:`` or ``:url:``) and no ``raw`` directive or role;
   * after reading, any download or image whose file lies outside the docs tree is
     dropped with a warning, so no file from outside the tree is copied into the output;
   * a link whose scheme is not http, https or mailto (``javascript:``, ``data:``,
     ``vbscript:``, however escaped) becomes plain text, with a warning.

docs/threat-model.md says who can change what and what each gate stops.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from jaxko import catalogs
from jaxko.errors import UserError


@dataclass(frozen=True)
class Blocked:
    """One translation the gate kept off the site."""

    path: str
    line: int
    rule: str
    message: str
    msgid: str

    def format(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.message} (the page keeps the English)"


@dataclass
class GateResult:
    locale_dir: Path                 # what Sphinx reads instead of locale/
    blocked: list[Blocked] = field(default_factory=list)


def find_blocked(catalogs_dir: Path, srcdir: Path | None) -> list[Blocked]:
    """Every translated message the safety rules refuse, with its catalog line."""
    from jaxko.check import runner

    options = runner.Options(paths=[catalogs_dir], use_glossary=False, select=["safety"],
                             source_dir=srcdir, jobs=1, cache_dir=None)
    result = runner.run(options)
    # Every safety finding blocks, whatever severity a project gives it for `jaxko check`.
    return [Blocked(f.path, f.line, f.rule, f.message, f.msgid) for f in result.findings]


def gate_catalogs(locale_dir: Path, language: str, gated_root: Path,
                  srcdir: Path | None = None) -> GateResult:
    """Copy ``locale_dir`` to ``gated_root`` without the refused msgstrs."""
    source = locale_dir / language / "LC_MESSAGES"
    if not source.is_dir():
        raise UserError(f"no {language} catalogs here; run `jaxko update` or pass --locale-dir",
                        source)
    blocked = find_blocked(source, srcdir)
    by_path: dict[Path, list[Blocked]] = {}
    for item in blocked:
        by_path.setdefault(Path(item.path).resolve(), []).append(item)
    target = gated_root / language / "LC_MESSAGES"
    wanted: set[Path] = set()
    for path in sorted(p for p in source.rglob("*.po") if p.is_file()):
        rel = path.relative_to(source)
        out = target / rel
        wanted.add(out)
        items = by_path.get(path.resolve())
        if not items:
            catalogs.write_text_atomic(out, path.read_text(encoding="utf-8"))
            continue
        catalog = catalogs.load(path)
        refused = {item.msgid for item in items}
        for entry in catalog:
            if entry.msgid in refused and not entry.obsolete:
                entry.msgstr = ""
                entry.msgstr_plural = {k: "" for k in entry.msgstr_plural}
        catalogs.write_text_atomic(out, catalogs.render(catalog))
    if target.is_dir():  # catalogs removed from locale/ leave the gated copy too
        for stale in [p for p in target.rglob("*") if p.is_file() and p.with_suffix(".po") not in wanted]:
            stale.unlink()
    # The rest of locale/<lang>/ (assignments, review records) as it is: the banner and
    # progress pages read them beside the catalogs.
    for extra in (locale_dir / language).rglob("*"):
        if extra.is_file() and source not in extra.parents:
            copy = gated_root / language / extra.relative_to(locale_dir / language)
            catalogs.write_text_atomic(copy, extra.read_text(encoding="utf-8"))
    return GateResult(gated_root, blocked)


# ----------------------------------------------------------------- Sphinx extension


# MyST-NB writes the images of executed outputs beside the output folder
# (myst_nb.sphinx_ext.OUTPUT_FOLDER): the build's own files, not the catalogs'.
_OUTPUTS_FOLDER = "jupyter_execute"


def _outside(allowed: tuple[Path, ...], srcdir: Path, name: str) -> bool:
    path = Path(os.path.normpath(srcdir / name))
    return not any(path.is_relative_to(root) for root in allowed)


def _drop_outside_files(app, env) -> None:
    """Downloads and images outside the docs tree (and the build's own notebook outputs)
    are never copied into the output."""
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    srcdir = Path(os.path.normpath(app.srcdir))
    allowed = (srcdir, Path(os.path.normpath(Path(app.outdir).parent / _OUTPUTS_FOLDER)))
    for table, what in ((env.dlfiles, "download"), (env.images, "image")):
        for name in [n for n in table if _outside(allowed, srcdir, n)]:
            docnames = sorted(table[name][0])
            logger.warning("jaxko gate: %s %r is outside the docs tree; not copied (in %s)",
                           what, name, ", ".join(docnames), type="jaxko", subtype="gate")
            del table[name]


@contextlib.contextmanager
def untrusted(document):
    """While a translated message (a msgstr) is parsed: no file insertion, no raw content.

    Sphinx's i18n step parses each msgstr with the page's own settings object, so the
    switches are set for the fragment and restored after it."""
    settings = document.settings
    saved = (getattr(settings, "file_insertion_enabled", True),
             getattr(settings, "raw_enabled", True))
    settings.file_insertion_enabled = False
    settings.raw_enabled = False
    try:
        yield
    finally:
        settings.file_insertion_enabled, settings.raw_enabled = saved
    _defuse_active_html(document)


def _defuse_active_html(document) -> None:
    """MyST passes a fragment's inline HTML through as raw nodes (not subject to
    ``raw_enabled``): active HTML (scripts, handlers, script URLs) is shown as text."""
    from docutils import nodes
    from sphinx.util import logging

    from jaxko.check.safety import active_html

    for node in list(document.findall(nodes.raw)):
        found = active_html(node.astext()) if "html" in node.get("format", "").split() else None
        if found is not None:
            logging.getLogger(__name__).warning(
                "jaxko gate: active HTML `%s` in a translated message; shown as text", found,
                location=node, type="jaxko", subtype="gate")
            node.replace_self(nodes.Text(node.astext()))


def _drop_script_links(app, doctree, docname: str) -> None:
    """Links to anything but http, https and mailto become their text."""
    from docutils import nodes
    from sphinx.util import logging

    from jaxko.check.safety import LINK_SCHEMES, link_scheme

    logger = logging.getLogger(__name__)
    for node in list(doctree.findall(nodes.reference)):
        scheme = link_scheme(node.get("refuri", ""))
        if scheme is not None and scheme not in LINK_SCHEMES:
            logger.warning("jaxko gate: a %s: link is not allowed; shown as text (in %s)",
                           scheme, docname, type="jaxko", subtype="gate")
            node.replace_self(nodes.inline(node.rawsource, "", *node.children))


def setup(app):
    app.connect("env-updated", _drop_outside_files)
    app.connect("doctree-resolved", _drop_script_links)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
