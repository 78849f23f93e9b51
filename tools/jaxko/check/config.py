"""A project's own severities: ``[tool.jaxko.check.severity]`` of the nearest pyproject.toml.

A rule's default severity is set for catalogs nobody here wrote (measured on one:
``BENCHMARKS.md``); rules that enforce a project's style or policy (one rendering per
repeated label, particles outside emphasis, no link the English lacks) default to
``info`` there and are raised by the project that has the policy, as ruff and mypy read
their settings from the checked project, not from where the tool is installed::

    [tool.jaxko.check.severity]
    "consistency.translation" = "warning"
"""

from __future__ import annotations

from pathlib import Path

from jaxko.check.registry import RULES, SEVERITIES
from jaxko.errors import UserError


def find(paths: list[Path]) -> Path | None:
    """The pyproject.toml nearest above the first checked path, if any."""
    if not paths:
        return None
    start = Path(paths[0]).resolve()
    for folder in (start if start.is_dir() else start.parent, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def severities(paths: list[Path]) -> dict[str, str]:
    """Rule name -> severity the project sets (empty without a pyproject.toml or section)."""
    path = find(paths)
    if path is None:
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"cannot read the project settings: {err}", path) from None
    if "jaxko" not in text:
        return {}  # no [tool.jaxko...] table: nothing to parse (or to import a parser for)
    import tomllib  # here: most checks read no settings

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line = getattr(err, "lineno", None)
        raise UserError(f"not valid TOML: {err}", path, line) from None
    table = data.get("tool", {}).get("jaxko", {}).get("check", {}).get("severity", {})
    if not isinstance(table, dict):
        raise UserError("[tool.jaxko.check.severity] must be a table of rule = severity", path)
    for rule, severity in table.items():
        if rule not in RULES:
            raise UserError(f"[tool.jaxko.check.severity] names `{rule}`, which is not a rule; "
                            "see docs/checks.md", path)
        if rule.startswith("safety.") and severity != "error":
            raise UserError(f"[tool.jaxko.check.severity] `{rule}` = {severity!r}: safety rules "
                            "are always errors (docs/threat-model.md)", path)
        if severity not in SEVERITIES:
            raise UserError(f"[tool.jaxko.check.severity] `{rule}` = {severity!r}: use one of "
                            + ", ".join(SEVERITIES), path)
    return dict(table)
