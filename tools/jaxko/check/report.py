"""Reporters: the findings as text, JSON or GitHub workflow annotations."""

from __future__ import annotations

import json
from collections import Counter
from typing import TextIO

from jaxko.check.runner import Result


def text(result: Result, out: TextIO) -> None:
    """``path:line: severity rule: message [suggestion]``, then a one-line summary."""
    for f in result.findings:
        # A multi-line suggestion (a whole code block) is left to --format json.
        suggestion = f" [{f.suggestion}]" if f.suggestion and "\n" not in f.suggestion else ""
        out.write(f"{f.path}:{f.line}: {f.severity} {f.rule}: {f.message}{suggestion}\n")
    s = result.summary()
    glossary = f", glossary {s['glossary']} ({s['terms']} terms)" if s["glossary"] else ", no glossary"
    out.write(f"{s['files']} catalogs, {s['checked']} translated entries checked "
              f"(of {s['entries']}){glossary}: {s['errors']} errors, {s['warnings']} warnings"
              + (f", {s['suppressed']} suppressed by `# jaxko: ignore RULE` comments"
                 if s["suppressed"] else "")
              + (f" ({s['cached']} catalogs unchanged, results from the cache)" if s["cached"] else "")
              + "\n")


def as_json(result: Result, out: TextIO) -> None:
    """``{"findings": [...], "summary": {...}}``; ``line`` is the line of the msgstr."""
    # dumps, not dump: dump streams through the pure-Python encoder, several times slower.
    out.write(json.dumps({"findings": [f.as_dict() for f in result.findings],
                          "summary": result.summary()}, ensure_ascii=False) + "\n")


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def github(result: Result, out: TextIO) -> None:
    """GitHub Actions workflow commands: one ``::error``/``::warning`` per finding."""
    for f in result.findings:
        level = "error" if f.severity == "error" else "warning"
        message = f.message + (f" (suggestion: {f.suggestion})" if f.suggestion else "")
        out.write(f"::{level} file={_escape_property(f.path)},line={f.line},"
                  f"title={_escape_property(f.rule)}::{_escape_data(message)}\n")
    s = result.summary()
    out.write(f"jaxko check: {s['errors']} errors, {s['warnings']} warnings in {s['files']} catalogs\n")


def statistics(result: Result, out: TextIO) -> None:
    """How many findings each rule reported, most first (``--statistics``)."""
    counts = Counter((f.rule, f.severity) for f in result.findings)
    for (rule, severity), count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        out.write(f"{count:>7}  {rule} ({severity})\n")
    out.write(f"{sum(counts.values()):>7}  total\n")


REPORTERS = {"text": text, "json": as_json, "github": github}
