"""``jaxko check --baseline FILE``: adopt the checker on a catalog that already has findings.

The baseline is the findings of one run, keyed stably by catalog (relative to the
baseline file), msgid and rule, not by line number: a message that moves keeps its key.
Later runs report only findings beyond what the baseline holds for their key (a count
per key, so a second problem of the same rule in the same message is new).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Iterable, NamedTuple

from jaxko.catalogs import write_text_atomic
from jaxko.check.registry import Finding
from jaxko.errors import UserError

FORMAT = 1


class Key(NamedTuple):
    """What identifies a finding across edits: the catalog, the msgid and the rule."""

    path: str
    msgid: str
    rule: str


def key_of(finding: Finding, root: Path) -> Key:
    path = os.path.relpath(os.path.abspath(finding.path), root)
    return Key(Path(path).as_posix(), finding.msgid, finding.rule)


def write(path: Path, findings: Iterable[Finding]) -> int:
    """Write the baseline of ``findings`` to ``path`` (atomically); how many it holds."""
    root = path.resolve().parent
    counts = Counter(key_of(f, root) for f in findings)
    items = [{"path": k.path, "msgid": k.msgid, "rule": k.rule, "count": n}
             for k, n in sorted(counts.items())]
    write_text_atomic(path, json.dumps({"version": FORMAT, "findings": items},
                                       ensure_ascii=False, indent=1) + "\n")
    return sum(counts.values())


def read(path: Path) -> Counter:
    """The baseline at ``path``: key -> how many findings it holds."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise UserError(f"cannot read the baseline: {err.strerror}", path) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise UserError(f"not a baseline file ({err}); delete it and run again with "
                        "--baseline to write a new one", path, getattr(err, "lineno", None)) from None
    counts: Counter = Counter()
    if not isinstance(data, dict) or not isinstance(data.get("findings"), list):
        raise UserError("not a baseline file (no `findings` list); delete it and run again "
                        "with --baseline to write a new one", path)
    for item in data["findings"]:
        try:
            counts[Key(str(item["path"]), str(item["msgid"]), str(item["rule"]))] += int(item.get("count", 1))
        except (KeyError, TypeError, ValueError):
            raise UserError(f"baseline entry without path, msgid and rule: {item!r}; delete the "
                            "file and write a new one", path) from None
    return counts


def new_findings(findings: list[Finding], path: Path) -> list[Finding]:
    """The findings not covered by the baseline at ``path``, in their order."""
    left = read(path)
    root = path.resolve().parent
    new = []
    for finding in findings:
        key = key_of(finding, root)
        if left[key] > 0:
            left[key] -= 1
        else:
            new.append(finding)
    return new
