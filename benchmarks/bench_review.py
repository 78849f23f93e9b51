"""Speed of `jaxko review queue` (full locale) and `jaxko stats` with review columns.

Goal (issue 16): each under 2 s. Measured on a copy of locale/ko where every clean
translated message has an approval record (an ai-pass by a benchmark name, in the copy
only), so `jaxko stats` parses the catalogs that have records and the queue compares
every record; the baseline is `jaxko stats` on the same copy without any records,
measured in the same run. Fresh processes, median of 5; wall and CPU seconds.
"""

from __future__ import annotations

import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JAXKO = [sys.executable, "-m", "jaxko"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "tools")}


def measure(*args: str, runs: int = 5) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([*JAXKO, *args], cwd=ROOT, env=ENV, check=True,
                       stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        locale = Path(tmp) / "locale"
        shutil.copytree(ROOT / "locale" / "ko", locale / "ko")
        shutil.rmtree(locale / "ko" / "reviews", ignore_errors=True)
        base = measure("stats", "--locale-dir", str(locale))
        catalogs_dir = locale / "ko" / "LC_MESSAGES"
        translated = subprocess.run(
            [*JAXKO, "stats", "--locale-dir", str(locale), "--format", "json"], cwd=ROOT,
            env=ENV, check=True, capture_output=True, text=True).stdout
        import json
        docs = [d["document"] for d in json.loads(translated)["documents"]
                if d["messages"]["translated"]]
        for doc in docs:
            subprocess.run([*JAXKO, "review", "approve", doc, "--all-clean", "--kind", "ai-pass",
                            "--reviewer", "benchmark", "--locale-dir", str(locale)],
                           cwd=ROOT, env=ENV, check=False, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        records = len(list((locale / "ko" / "reviews").rglob("*.yaml")))
        stats = measure("stats", "--locale-dir", str(locale))
        queue = measure("review", "queue", "--locale-dir", str(locale))
        print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
              f"{platform.python_version()}, load average "
              f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}. Command: "
              "`python benchmarks/run.py review`. Copy of locale/ko, "
              f"{len(list(catalogs_dir.rglob('*.po')))} catalogs, {records} with review "
              "records.\n")
        print("| command | wall (s) | CPU (s) | vs baseline (wall) |")
        print("|---|---:|---:|---:|")
        print(f"| `jaxko stats` without records (baseline) | {base[0]:.2f} | {base[1]:.2f} | 1.00 |")
        print(f"| `jaxko stats` with review columns | {stats[0]:.2f} | {stats[1]:.2f} | "
              f"{stats[0] / base[0]:.2f} |")
        print(f"| `jaxko review queue` (full locale) | {queue[0]:.2f} | {queue[1]:.2f} | "
              f"{queue[0] / base[0]:.2f} |")


if __name__ == "__main__":
    main()
