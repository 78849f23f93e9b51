"""Scale-out figures for BENCHMARKS.md: sharded verification and the upstream bump.

1. Shards, simulated from a real verify report (benchmarks/data/verify-report-cpu.json:
   a cold `jaxko notebooks verify` of every Korean notebook on 1 worker, 2 cores): for
   N = 1, 2, 4, 8 the slowest shard's seconds against the sum and the ideal sum/N, and the
   balance (slowest / mean), for the split by recorded durations and for the first-run
   split by size (judged with the same recorded durations).
2. `jaxko upstream bump` on the real catalogs, in a temporary copy of the project: from
   the pinned tree to a modified copy of it (tests/release_edits.py: punctuation-only,
   reworded, removed and new paragraphs and a moved link target in 12 translated pages),
   timed; then the translations lost (must be 0) and whether a second bump changes any
   catalog (must not).

Run: `python benchmarks/run.py scale` (needs ../shared/upstream and a built .venv).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from jaxko.notebooks import shards  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
import release_edits  # noqa: E402  (the edits of the real-catalog bump test)

REPORT = ROOT / "benchmarks" / "data" / "verify-report-cpu.json"
UPSTREAM = ROOT.parent / "shared" / "upstream" / "jax-v0.10.2"


def shard_table() -> None:
    data = json.loads(REPORT.read_text(encoding="utf-8"))
    seconds = {r["notebook"]: r["seconds"] for r in data["results"] if r["executed"]}
    docs = UPSTREAM / "docs"
    total = sum(seconds.values())
    print(f"Sharded verification, simulated from {REPORT.relative_to(ROOT)} "
          f"({len(seconds)} executed notebooks, sum {total:.0f} s):\n")
    print("| N | ideal sum/N (s) | slowest shard, by durations (s) | balance | "
          "slowest shard, first run by size (s) | balance |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in (1, 2, 4, 8):
        row = [f"{n}", f"{total / n:.0f}"]
        for durations in (seconds, {}):
            weight = shards.weights([(rel, docs / rel) for rel in seconds], durations)
            loads = [sum(seconds[r] for r in part) for part in shards.split(weight, n)]
            mean = sum(loads) / n
            row += [f"{max(loads):.0f}", f"{max(loads) / mean:.2f}"]
        print("| " + " | ".join(row) + " |")


def _translations(locale: Path) -> set[str]:
    return {e.msgstr for p in locale.rglob("*.po") for e in polib.pofile(str(p)) if e.msgstr}


def _project(base: Path) -> Path:
    project = base
    project.mkdir()
    (project / "conf.py").symlink_to(ROOT / "conf.py")
    shutil.copy(ROOT / "upstream.toml", project / "upstream.toml")
    shutil.copytree(ROOT / "overlay", project / "overlay")
    shutil.copytree(ROOT / "locale", project / "locale")
    return project


def _timed(command: list[str], project: Path) -> tuple[float, str]:
    env = {"JAXKO_ROOT": str(project), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
           "PYTHONPATH": str(ROOT / "tools"),  # this checkout's jaxko
           "JAX_PLATFORMS": "cpu"}
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "jaxko", *command], cwd=project, env=env,
                         check=True, capture_output=True, text=True)
    return time.perf_counter() - start, out.stdout


def bump_figures() -> None:
    """The bump against its baseline in the same run: the three commands it replaces
    (sync --repin, extract, update), by hand, on another copy of the same project."""
    with tempfile.TemporaryDirectory(prefix="jaxko-bump-") as tmp:
        tmp = Path(tmp)
        newer = tmp / "jax-next"
        shutil.copytree(UPSTREAM, newer)
        pages = release_edits.apply(newer / "docs")
        manual, project = _project(tmp / "manual"), _project(tmp / "project")
        for root in (manual, project):
            _timed(["upstream", "sync", "--from", str(UPSTREAM)], root)
        baseline = sum(_timed(step, manual)[0] for step in (
            ["upstream", "sync", "--from", str(newer), "--repin"], ["extract"], ["update"]))
        before = _translations(project / "locale")
        seconds, out = _timed(["upstream", "bump", "--from", str(newer), "--format", "json"],
                              project)
        report = json.loads(out)
        after = _translations(project / "locale")
        same = all((manual / "locale" / p.relative_to(project / "locale")).read_bytes()
                   == p.read_bytes() for p in (project / "locale").rglob("*.po"))
        accept, out = _timed(["upstream", "bump", "--from", str(newer), "--accept-trivial",
                              "--format", "json"], project)
        accepted = json.loads(out)
        snapshot = {p: p.read_bytes() for p in (project / "locale").rglob("*.po")}
        second, _ = _timed(["upstream", "bump", "--from", str(newer), "--accept-trivial"], project)
        unchanged = snapshot == {p: p.read_bytes() for p in (project / "locale").rglob("*.po")}
        totals = {k: sum(p[k] for p in report["pages"])
                  for k in ("new", "fuzzy", "obsolete", "approvals_voided")}
        print(f"\n`jaxko upstream bump --from <modified copy of jax-v0.10.2>` on the real "
              f"catalogs ({pages} pages edited, tests/release_edits.py):\n")
        print("| run | seconds | ratio to the baseline |\n|---|---:|---:|")
        print(f"| baseline: sync --repin, extract, update by hand | {baseline:.1f} | 1.00 |")
        print(f"| bump (report included) | {seconds:.1f} | {seconds / baseline:.2f} |")
        print(f"| bump --accept-trivial afterwards | {accept:.1f} | {accept / baseline:.2f} |")
        print(f"| bump --accept-trivial again (no-op) | {second:.1f} | {second / baseline:.2f} |")
        print(f"\nReport: {len(report['pages'])} pages changed, {totals['new']} new, "
              f"{totals['fuzzy']} fuzzy, {totals['obsolete']} obsolete, "
              f"{totals['approvals_voided']} approvals voided, "
              f"{len(report['notebooks_changed'])} notebooks to verify again, "
              f"{len(report['trivial'])} trivial ({len(accepted['trivial'])} accepted "
              f"afterwards). Catalogs after the bump {'identical to' if same else 'DIFFERENT FROM'} "
              f"the baseline's. Translations lost: {len(before - after)} of {len(before)} "
              f"(the report: {report['translations_lost']}). Last run: catalogs "
              f"{'unchanged' if unchanged else 'CHANGED'}.")


if __name__ == "__main__":
    shard_table()
    if "--no-bump" not in sys.argv:
        bump_figures()
