"""Consistency: the same msgid translated differently in different catalogs.

A project-wide rule: the runner collects (msgctxt, msgid) -> msgstr of every checked
entry and calls :func:`find_inconsistent` once at the end; the rule registered here
carries the name, the severity and the documented example.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from jaxko.check.registry import Finding, Hit, rule, RULES

RULE = "consistency.translation"


@rule(RULE, severity="warning", scope="project", blocks=("text", "code", "math"))
def same_translation(message, context):
    """The same msgid is translated differently in different catalogs; the variants are listed.

    Bad::

        entries:
          - location: jit.md:3
            msgid: Just-in-time compilation
            msgstr: 적시 컴파일
          - location: faq.md:9
            msgid: Just-in-time compilation
            msgstr: JIT 컴파일

    Good::

        entries:
          - location: jit.md:3
            msgid: Just-in-time compilation
            msgstr: 적시 컴파일
          - location: faq.md:9
            msgid: Just-in-time compilation
            msgstr: 적시 컴파일
    """
    return iter(())


def find_inconsistent(records) -> list[Finding]:
    """Findings for msgids with several translations.

    ``records``: (key, msgstr, path, line, msgid, suppressed) tuples, one per checked
    entry. Entries that use the most common translation are not reported; each other
    one is, with every variant and how often it is used.
    """
    by_key: dict = defaultdict(list)
    for record in records:
        by_key[record[0]].append(record)
    findings = []
    severity = RULES[RULE].severity
    for key, group in by_key.items():
        if len(group) < 2:
            continue
        paths = {r[2] for r in group}
        counts = Counter(r[1] for r in group)
        if len(counts) < 2 or len(paths) < 2:
            continue
        # The majority translation, ties broken by first appearance (sorted paths).
        group.sort(key=lambda r: (r[2], r[3]))
        order = {msgstr: i for i, (msgstr, _) in enumerate(
            sorted(counts.items(), key=lambda item: (-item[1], [r[1] for r in group].index(item[0]))))}
        majority = min(order, key=order.get)
        start = _common_prefix([" ".join(m.split()) for m in counts])
        shown = "; ".join(f"`{_short(m, start)}` ({c}×)" for m, c in
                          sorted(counts.items(), key=lambda item: order[item[0]]))
        for _, msgstr, path, line, msgid, suppressed in group:
            if msgstr == majority or suppressed:
                continue
            findings.append(Finding(path, line, RULE, severity,
                                    f"translated differently elsewhere: {shown}",
                                    msgid, majority))
    return findings


def _common_prefix(texts: list[str]) -> int:
    first, last = min(texts), max(texts)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return size


def _short(text: str, start: int = 0, limit: int = 60) -> str:
    """A variant in one line; long ones from a little before where the variants differ."""
    text = " ".join(text.split())
    cut = max(0, start - 15) if start > 30 else 0
    text = ("…" if cut else "") + text[cut:]
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["find_inconsistent", "same_translation", "Hit"]
