"""The merge of the shards' reports (``jaxko notebooks report merge``): one report, as
one unsharded run of ``verify`` would have written it, from the report of each shard
(:mod:`jaxko.notebooks.shards` decides the shares)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from jaxko.catalogs import write_text_atomic
from jaxko.errors import UserError
from jaxko.notebooks.verify import NotebookResult, VerifyReport, executed_dir, record_passes


@dataclass(frozen=True)
class ShardReport:
    """One shard's report.json as read, with where it lies."""

    path: Path
    data: dict

    @property
    def executed_dir(self) -> Path:
        """The shard's executed notebooks: `executed/` beside its report, as `verify`
        writes them (`_build/notebooks/executed/` beside `_build/notebooks/shard-I.json`)
        and as the shard's CI artifact keeps them."""
        return self.path.parent / "executed"


def _read_shard(path: Path) -> ShardReport:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not (isinstance(data["shard"]["notebooks"], list) and isinstance(data["options"], dict)
                and all(isinstance(row["notebook"], str) and isinstance(row["status"], str)
                        for row in data["results"])
                and all(isinstance(data[k], (int, float))
                        for k in ("workers", "wall_seconds", "executed_wall_seconds"))):
            raise ValueError
    except FileNotFoundError:
        raise UserError("shard report not found", path) from None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise UserError("not a report of `jaxko notebooks verify --shard`", path) from None
    return ShardReport(Path(path), data)


def merge(reports: Sequence[Path], root: Path | None = None):
    """One VerifyReport from shard reports; refuses a notebook in no shard or in two.

    The shards' executed notebooks (``executed/`` beside each report) are combined into
    this project's ``_build/notebooks/executed/`` and their passes recorded in its verify
    cache, so the site build here shows their outputs without running them again."""
    if not reports:
        raise UserError("name the shard reports to merge (report.json of each shard)")
    loaded = [_read_shard(path) for path in reports]
    universe = loaded[0].data["shard"]["notebooks"]
    owner: dict[str, ShardReport] = {}
    results: dict[str, NotebookResult] = {}
    for shard in loaded:
        if shard.data["shard"]["notebooks"] != universe:
            raise UserError("this shard saw other notebooks than the first report "
                            f"({loaded[0].path}); run every shard on the same sources", shard.path)
        for row in shard.data["results"]:
            rel = row["notebook"]
            if rel in owner:
                raise UserError(f"{rel} is in two shard reports (also {owner[rel].path})",
                                shard.path)
            owner[rel] = shard
            results[rel] = NotebookResult(rel, row["status"], float(row.get("seconds") or 0.0),
                                          row.get("cell"), row.get("error") or "",
                                          bool(row.get("executed")), row.get("key") or "",
                                          row.get("sandbox_exemption"),
                                          row.get("interpretation"), row.get("sandbox"),
                                          row.get("known_errors"), row.get("requirements"))
    missing = [rel for rel in universe if rel not in results]
    if missing:
        raise UserError(f"{len(missing)} notebook(s) in no shard report: {', '.join(missing[:5])}"
                        "; a shard is missing or failed before writing its report")
    _combine_executed(results, owner, executed_dir(root))
    record_passes([results[rel] for rel in universe], root)
    first = loaded[0].data
    options = dict(first["options"])
    # The weakest protection any shard ran under is the merged report's.
    kinds = {s.data["options"].get("sandbox") for s in loaded}
    if len(kinds) > 1:
        options["sandbox"] = "audit-hooks"
    report = VerifyReport(first["platform"], sum(s.data["workers"] for s in loaded),
                          first["environment"], options,
                          [results[rel] for rel in universe])
    report.wall_seconds = max(s.data["wall_seconds"] for s in loaded)
    report.executed_seconds = max(s.data["executed_wall_seconds"] for s in loaded)
    return report


def _combine_executed(results: dict, owner: dict[str, ShardReport], dest: Path) -> None:
    """Copy each shard's executed notebooks into ``dest``. A pass without its executed
    notebook is refused (the site would lack its outputs); a cached pass without one is
    not recorded as a pass here, so the site build runs it."""

    for rel, result in results.items():
        if result.status not in ("passed", "cached", "unchecked", "failed"):
            continue
        if result.interpretation is not None:
            continue  # an interpret-mode run's outputs are never the site's (verify.interpreted_dir)
        name = Path(rel).with_suffix(".ipynb")
        source = owner[rel].executed_dir / name
        if not owner[rel].executed_dir.is_dir():
            source = dest / name  # a shard that ran in this project wrote it here already
        if not source.is_file():
            if result.status == "passed":
                raise UserError(f"the executed notebook of {rel} is not in "
                                f"{owner[rel].executed_dir}; keep the shard's executed/ folder "
                                "beside its report (upload both)", owner[rel].path)
            result.key = ""
            continue
        target = dest / name
        if not (target.is_file() and target.samefile(source)):
            write_text_atomic(target, source.read_text(encoding="utf-8"))
