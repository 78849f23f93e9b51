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
import re
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


def bump_figures() -> None:
    with tempfile.TemporaryDirectory(prefix="jaxko-bump-") as tmp:
        tmp = Path(tmp)
        project = tmp / "project"
        project.mkdir()
        for name in ("conf.py", "upstream.toml", "overlay"):
            (project / name).symlink_to(ROOT / name) if name == "conf.py" else (
                shutil.copytree(ROOT / name, project / name) if (ROOT / name).is_dir()
                else shutil.copy(ROOT / name, project / name))
        shutil.copytree(ROOT / "locale", project / "locale")
        newer = tmp / "jax-next"
        shutil.copytree(UPSTREAM, newer)
        pages = release_edits.apply(newer / "docs")
        jaxko = [sys.executable, "-m", "jaxko"]
        env = {"JAXKO_ROOT": str(project), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
               "JAX_PLATFORMS": "cpu"}
        subprocess.run(jaxko + ["upstream", "sync", "--from", str(UPSTREAM)], cwd=project, env=env,
                       check=True, capture_output=True)
        before = _translations(project / "locale")
        start = time.perf_counter()
        out = subprocess.run(jaxko + ["upstream", "bump", "--from", str(newer), "--format", "json"],
                             cwd=project, env=env, check=True, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        report = json.loads(out.stdout)
        after = _translations(project / "locale")
        snapshot = {p: p.read_bytes() for p in (project / "locale").rglob("*.po")}
        start = time.perf_counter()
        subprocess.run(jaxko + ["upstream", "bump", "--from", str(newer)], cwd=project, env=env,
                       check=True, capture_output=True)
        second = time.perf_counter() - start
        unchanged = snapshot == {p: p.read_bytes() for p in (project / "locale").rglob("*.po")}
        totals = {k: sum(p[k] for p in report["pages"]) for k in ("new", "fuzzy", "obsolete")}
        print(f"\n`jaxko upstream bump --from <modified copy of jax-v0.10.2>` on the real "
              f"catalogs ({pages} pages edited): {seconds:.1f} s; {len(report['pages'])} pages "
              f"changed, {totals['new']} new, {totals['fuzzy']} fuzzy, {totals['obsolete']} "
              f"obsolete, {sum(p['approvals_voided'] for p in report['pages'])} approvals "
              f"voided, {len(report['notebooks_changed'])} notebooks to verify again, "
              f"{len(report['trivial'])} trivial (the report: {report['translations_lost']} "
              f"lost). Translations lost: {len(before - after)} of "
              f"{len(before)}. Second bump: {second:.1f} s, catalogs "
              f"{'unchanged' if unchanged else 'CHANGED'}.")


if __name__ == "__main__":
    shard_table()
    if "--no-bump" not in sys.argv:
        bump_figures()
