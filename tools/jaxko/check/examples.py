"""Run a rule's documented examples: the Bad one must fire, the Good one must not.

Each example becomes a real catalog in a temporary folder (one per ``location``
document), checked by the real runner with only that rule selected (and the rules the
example names under ``select``: ``ignore.unused`` judges the comments of the rules that
ran), against the example glossary shipped next to this module. An entry's ``comment``
is its translator comment (``# jaxko: ignore ...``). The test suite and ``docs/checks.md``
both go through here, so the documentation is what the code does.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import polib

from jaxko.check.registry import Finding, Rule
from jaxko.check.runner import Options, run
from jaxko.check import fix

EXAMPLE_GLOSSARY = Path(__file__).with_name("example_glossary.yaml")


def _entries(example: dict) -> list[dict]:
    if "entries" in example:
        return list(example["entries"])
    return [example]


def write_catalogs(example: dict, folder: Path) -> list[Path]:
    """The example's entries as .po files under ``folder``, one per source document."""
    by_document: dict[str, list[dict]] = {}
    for entry in _entries(example):
        location = str(entry.get("location", "example.md:1"))
        document = location.rsplit(":", 1)[0]
        by_document.setdefault(document, []).append(entry)
    written = []
    for document, entries in by_document.items():
        catalog = polib.POFile(wrapwidth=79)
        catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
        for entry in entries:
            location = str(entry.get("location", "example.md:1"))
            name, _, line = location.rpartition(":")
            po_entry = polib.POEntry(msgid=str(entry["msgid"]), msgstr=str(entry["msgstr"]),
                                     occurrences=[(name, line)])
            if entry.get("comment"):
                po_entry.tcomment = str(entry["comment"])
            catalog.append(po_entry)
        path = folder / (document.replace("/", "__") + ".po")
        catalog.save(str(path))
        written.append(path)
    return written


def run_example(rule: Rule, example: dict) -> list[Finding]:
    """Findings of ``rule`` on one example."""
    with tempfile.TemporaryDirectory(prefix="jaxko-example-") as tmp:
        folder = Path(tmp)
        (folder / "catalogs").mkdir()
        (folder / "sources").mkdir()  # no sources: code blocks are told by the heuristics
        write_catalogs(example, folder / "catalogs")
        result = run(Options(paths=[folder / "catalogs"], glossary=EXAMPLE_GLOSSARY, severity={},
                             select=[rule.name, *example.get("select", ())],
                             source_dir=folder / "sources", jobs=1,
                             syntax=example.get("syntax")))
        return [f for f in result.findings if f.rule == rule.name]


def fix_example(rule: Rule, example: dict) -> dict[tuple[str, str], str]:
    """(location, msgid) -> msgstr of the entries ``jaxko check --fix --select RULE``
    changes in one example (the fixes of that rule only)."""

    with tempfile.TemporaryDirectory(prefix="jaxko-example-") as tmp:
        folder = Path(tmp)
        (folder / "catalogs").mkdir()
        (folder / "sources").mkdir()
        paths = write_catalogs(example, folder / "catalogs")
        before = {path: polib.pofile(str(path)) for path in paths}
        fix.run(Options(paths=[folder / "catalogs"], glossary=EXAMPLE_GLOSSARY, severity={},
                        select=[rule.name], source_dir=folder / "sources", jobs=1,
                        syntax=example.get("syntax")), show_info=True)
        changed = {}
        for path, catalog in before.items():
            after = {(e.msgctxt, e.msgid): e.msgstr for e in polib.pofile(str(path))}
            for entry in catalog:
                if after[(entry.msgctxt, entry.msgid)] != entry.msgstr:
                    location = ":".join(entry.occurrences[0])
                    changed[(location, entry.msgid)] = after[(entry.msgctxt, entry.msgid)]
        return changed
