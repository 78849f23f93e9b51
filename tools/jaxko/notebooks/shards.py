"""Sharded verification: a deterministic share of the notebooks per CI runner, and the
merge of the shard reports into the report of one unsharded run.

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


# ---------------------------------------------------------------------------- merge


def merge(reports: Sequence[Path]):
    """One VerifyReport from shard reports; refuses a notebook in no shard or in two."""
    from jaxko.notebooks.verify import NotebookResult, VerifyReport

    if not reports:
        raise UserError("name the shard reports to merge (report.json of each shard)")
    loaded = []
    for path in reports:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            shard = data["shard"]
            loaded.append((Path(path), data, shard))
        except FileNotFoundError:
            raise UserError("shard report not found", path) from None
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            raise UserError("not a report of `jaxko notebooks verify --shard`", path) from None
    universe = loaded[0][2]["notebooks"]
    owner: dict[str, Path] = {}
    results: dict[str, NotebookResult] = {}
    for path, data, shard in loaded:
        if shard["notebooks"] != universe:
            raise UserError("this shard saw other notebooks than the first report "
                            f"({loaded[0][0]}); run every shard on the same sources", path)
        for row in data["results"]:
            rel = row["notebook"]
            if rel in owner:
                raise UserError(f"{rel} is in two shard reports (also {owner[rel]})", path)
            owner[rel] = path
            results[rel] = NotebookResult(rel, row["status"], float(row.get("seconds") or 0.0),
                                          row.get("cell"), row.get("error") or "",
                                          bool(row.get("executed")))
    missing = [rel for rel in universe if rel not in results]
    if missing:
        raise UserError(f"{len(missing)} notebook(s) in no shard report: {', '.join(missing[:5])}"
                        "; a shard is missing or failed before writing its report")
    first = loaded[0][1]
    options = {k: v for k, v in first["options"].items()}
    report = VerifyReport(first["platform"], sum(d["workers"] for _, d, _ in loaded),
                          first["environment"], options, [results[rel] for rel in universe])
    report.wall_seconds = max(d["wall_seconds"] for _, d, _ in loaded)
    report.executed_seconds = max(d["executed_wall_seconds"] for _, d, _ in loaded)
    return report
