"""Generate the rules part of the translator guide, ``docs/checks.md`` (Korean).

The guide's prose (how to run, suppress, adopt) is written by hand above :data:`MARKER`;
everything below it is generated from each rule's declaration: its examples from the
docstring (the same ones the tests run), its Korean explanation and family title from
the decorator (``explanation=``, ``family(...)``), whether ``--fix`` fixes it.
Regenerate with ``.venv/bin/python -m jaxko.check.guide``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from jaxko.check import config
from jaxko.check.registry import FAMILIES, RULES
from jaxko.check.runner import load_rules_modules
from jaxko.paths import repo_root
from jaxko.catalogs import write_text_atomic

MARKER = "<!-- 아래는 생성됩니다: .venv/bin/python -m jaxko.check.guide (규칙마다 설명은 데코레이터, 예시는 docstring) -->\n"


GUIDE = repo_root() / "docs" / "checks.md"


def prose_of(text: str, path: Path = GUIDE) -> str:
    """The hand-written part of the guide: everything before the marker."""
    if MARKER not in text:
        raise SystemExit(f"{path}: the line {MARKER.strip()!r} is missing; put it where the rules begin")
    return text[:text.index(MARKER)]


def _example_block(example: dict, rule: str = "") -> str:
    lines = []
    for entry in example.get("entries", [example]):
        location = entry.get("location", "example.md:1")
        if entry.get("comment"):
            lines.extend(f"# {line}" for line in str(entry["comment"]).split("\n"))
        lines.append(f"#: {location}")
        for key in ("msgid", "msgstr"):
            value = str(entry[key]).rstrip("\n")
            if "\n" in value:
                lines.append(f"{key}:")
                lines.extend("    " + line for line in value.split("\n"))
            else:
                lines.append(f"{key}: {value}")
        lines.append("")
    for message in example.get("expect", ()):
        lines.append(f"→ {rule}: {message}")  # what jaxko check prints for it
    return "```text\n" + "\n".join(lines).rstrip("\n") + "\n```\n"


def _first_sentence(text: str) -> str:
    head, sep, _ = text.partition("다. ")
    return head + "다." if sep else text


_FIXES = {"always": "항상 고칩니다", "sometimes": "답이 하나뿐인 경우에 고칩니다"}


def render(prose: str) -> str:
    """The whole of docs/checks.md: ``prose`` (everything up to the marker) and the rules."""
    load_rules_modules()
    project = config.severities([repo_root()])

    def severity(name: str) -> str:
        default = RULES[name].severity
        raised = project.get(name, default)
        return default if raised == default else f"{default} (jax-docs-ko: {raised})"

    families = sorted(FAMILIES.values(), key=lambda f: f.order)
    order = [f.name for f in families]
    out = [prose, MARKER]
    out.append("\n## 규칙 목록\n\n| 규칙 | 심각도 | `--fix` | 요약 |\n|---|---|---|---|\n")
    for name in sorted(RULES, key=lambda n: (order.index(RULES[n].family), n)):
        summary = _first_sentence(RULES[name].explanation).replace("|", "\\|")
        fix = {"always": "항상", "sometimes": "일부"}.get(RULES[name].fix, "")
        out.append(f"| [`{name}`](#{name.replace('.', '')}) | {severity(name)} | {fix} | {summary} |\n")
    for family in families:
        names = sorted(n for n in RULES if RULES[n].family == family.name)
        if not names:
            continue
        out.append(f"\n## {family.title}\n")
        for name in names:
            rule_ = RULES[name]
            fix = f" · `--fix`: {_FIXES[rule_.fix]}" if rule_.fixable else ""
            out.append(f"\n### `{name}`\n\n심각도: **{severity(name)}**{fix}\n\n")
            out.append(rule_.explanation + "\n\n")
            for kind, label in (("Bad", "나쁜 예"), ("Good", "좋은 예")):
                for example in rule_.examples(kind):
                    out.append(f"{label}:\n\n")
                    out.append(_example_block(example, name) + "\n")
    return "".join(out).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:

    target = Path(argv[0]) if argv else GUIDE
    changed = write_text_atomic(target, render(prose_of(target.read_text(encoding="utf-8"), target)))
    print(f"{target}: {'written' if changed else 'unchanged'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
