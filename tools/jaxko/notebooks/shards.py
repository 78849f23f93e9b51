"""Sharded verification: a deterministic share of the notebooks per CI runner (the
merge of the shards' reports is :mod:`jaxko.notebooks.merge`).

Why not pytest-split: it splits the *pytest items* of one session, but `verify` decides
before pytest runs which notebooks are skipped, cached or refused by the static check,
and every notebook, run or not, must be reported by exactly one shard. So the split is
made here, over all notebooks in scope, with the classic greedy longest-processing-time
rule (heaviest first onto the lightest shard) on durations from a previous report, or on
file size when there is none. Every runner computes the same split from the same inputs:
the durations come from a file given to all shards alike, never from a runner's cache.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from jaxko.errors import UserError

_SHARD = re.compile(r"^(\d+)/(\d+)$")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (from 1) of ``count``."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> "Shard":
        match = _SHARD.match(text.strip())
        if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
            raise UserError(f"--shard {text!r}: write I/N with 1 <= I <= N, e.g. 2/4")
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def read_durations(path: Path | None) -> dict[str, float]:
    """Seconds per notebook from a previous report.json (empty without one)."""
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {r["notebook"]: float(r["seconds"]) for r in data["results"]
                if r.get("executed") or r.get("status") == "cached"}
    except FileNotFoundError:
        raise UserError("durations report not found", path) from None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise UserError("not a `jaxko notebooks verify` report.json", path) from None


def weights(notebooks: Sequence[tuple[str, Path]], durations: dict[str, float]) -> dict[str, float]:
    """Each notebook's expected cost: its recorded seconds, else its size (scaled so a
    notebook with no record weighs like the recorded ones of its size would)."""
    sizes = {rel: path.stat().st_size if path.is_file() else 0 for rel, path in notebooks}
    known = [(durations[rel], sizes[rel]) for rel, _ in notebooks if rel in durations and sizes[rel]]
    per_byte = (sum(s for s, _ in known) / sum(b for _, b in known)) if known else 1.0
    return {rel: durations.get(rel, sizes[rel] * per_byte) for rel, _ in notebooks}


def split(weight: dict[str, float], count: int) -> list[list[str]]:
    """Greedy LPT: heaviest first, each onto the lightest shard (ties by name, index)."""
    loads = [0.0] * count
    shards: list[list[str]] = [[] for _ in range(count)]
    for rel in sorted(weight, key=lambda r: (-weight[r], r)):
        lightest = min(range(count), key=lambda i: (loads[i], i))
        shards[lightest].append(rel)
        loads[lightest] += weight[rel]
    return [sorted(s) for s in shards]
