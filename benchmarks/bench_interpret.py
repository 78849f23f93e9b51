"""Benchmark interpret mode: the Pallas pages against the whole `notebooks verify`, same run.

One run through the real command line, in a scratch project root (the project's own
cache under _build/notebooks is untouched): `jaxko notebooks build` from the committed
catalogs, then `jaxko notebooks verify --workers auto --platform cpu --force` (interpret
mode is the default on CPU). It prints each Pallas page (status, mode, seconds), and
what they cost of the whole run: their sequential sum against the run's, and the
wall time of the command.

    .venv/bin/python benchmarks/bench_interpret.py [--workers auto] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from jaxko import paths  # noqa: E402
from bench_notebooks import jaxko, scratch_project  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="auto")
    parser.add_argument("--json", type=Path, help="also write the verify report here")
    args = parser.parse_args()

    srcdir, env = scratch_project("bench-interpret")
    wall, proc = jaxko("notebooks", "build", "--srcdir", str(srcdir), "--locale-dir",
                       str(paths.locale_dir(ROOT)), "--format", "json", env=env)
    if proc.returncode != 0:
        sys.exit(f"build failed:\n{proc.stderr}")
    wall, proc = jaxko("notebooks", "verify", "--srcdir", str(srcdir), "--workers", args.workers,
                       "--platform", "cpu", "--force", "--format", "json", env=env)
    if proc.returncode not in (0, 1):
        sys.exit(f"verify failed to run:\n{proc.stderr}")
    report = json.loads(proc.stdout)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    pallas = [r for r in report["results"] if r["notebook"].startswith("pallas/")]
    ran = [r for r in pallas if r["executed"]]
    pallas_sum = sum(r["seconds"] for r in ran)
    counts = report["counts"]
    print(f"verify --force, {report['workers']} workers: wall {wall:.1f} s (command), "
          f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped; "
          f"sequential sum {report['sum_seconds']:.1f} s")
    print()
    print("| Pallas page | status | mode | seconds |")
    print("|---|---|---|---:|")
    for r in pallas:
        seconds = f"{r['seconds']:.1f}" if r["executed"] else ""
        print(f"| `{r['notebook']}` | {r['status']} | {r['mode'] or ''} | {seconds} |")
    share = pallas_sum / report["sum_seconds"] if report["sum_seconds"] else 0.0
    print()
    print(f"Pallas pages executed: {len(ran)} (interpret mode: "
          f"{sum(r['mode'] == 'interpret' for r in ran)}), sequential sum {pallas_sum:.1f} s = "
          f"{share:.0%} of the run's {report['sum_seconds']:.1f} s; "
          f"whole verify wall {wall:.1f} s on {report['workers']} workers")
    for r in report["results"]:
        if r["status"] == "failed":
            print(f"  failed: {r['notebook']} cell {r['cell']}: {r['error']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
