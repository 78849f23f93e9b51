"""Wall time and peak memory of `make gettext` and `make update-po` on the pinned upstream.

Cold: no _build/gettext, no doctrees, no catalogs beyond the committed ones. Warm: the
same command again with nothing changed. Peak memory is the largest resident set of any
process the command ran (getrusage of the waited-for children).
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(command: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one command run as a fresh child process."""
    # A wrapper process isolates the rusage of this command from earlier ones.
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        f"r = subprocess.run({command!r}, stdout=subprocess.DEVNULL)\n"
        "dt = time.perf_counter() - t\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(dt, peak, r.returncode)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    seconds, peak, status = out.stdout.split()
    if int(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed ({status})")
    return float(seconds), float(peak)


def main() -> int:
    rows = []
    # cold: remove the build outputs of these stages (keeps .venv and the staged upstream)
    for path in (ROOT / "_build" / "gettext", ROOT / "_build" / ".doctrees" / "gettext"):
        shutil.rmtree(path, ignore_errors=True)
    subprocess.run(["make", "-s", "upstream"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    rows.append(("make gettext", "cold", *measure(["make", "-s", "gettext"])))
    rows.append(("make gettext", "nothing changed", *measure(["make", "-s", "gettext"])))
    rows.append(("make update-po", "after gettext, nothing changed", *measure(["make", "-s", "update-po"])))
    rows.append(("jaxko update", "merge step alone, nothing changed",
                 *measure([str(ROOT / ".venv" / "bin" / "jaxko"), "update"])))
    print("## Pipeline: gettext and update-po (narrative scope, 140 documents)\n")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {load} after the run. Command: `python benchmarks/run.py pipeline` "
          "(`make bench` runs it too).\n")
    print("| command | state | wall (s) | peak RSS (MB) |")
    print("|---|---|---:|---:|")
    for command, state, seconds, peak in rows:
        print(f"| `{command}` | {state} | {seconds:.1f} | {peak:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
