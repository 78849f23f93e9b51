"""Speed of the translators' workflow commands on the real narrative catalogs.

* `jaxko stats` end to end (a fresh process, as a translator runs it); goal: under 1 s;
* counting all catalogs with the line scanner (jaxko.workflow.documents.scan, the fast reader) vs polib;
* `jaxko fmt --check` on all catalogs;
* `jaxko tm fill --dry-run` on a copy of the catalogs where every other message is
  "translated" (so the memory is large and near matching does real work).

Each figure is the median of several runs; prints markdown for BENCHMARKS.md.
"""

from __future__ import annotations

import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from jaxko import catalogs  # noqa: E402
from jaxko.workflow import documents  # noqa: E402

CATALOGS = ROOT / "locale" / "ko" / "LC_MESSAGES"
JAXKO = [sys.executable, "-m", "jaxko"]


def median_seconds(function, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(*args: str) -> None:
    subprocess.run([*JAXKO, *args], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def median_cpu(*args: str, runs: int = 7) -> float:
    """Median CPU seconds (user + system) of a fresh `jaxko` process.

    On a busy machine wall time measures the other processes too; a single-threaded
    command's CPU time is what its wall time would be on an idle one.
    """
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run(*args)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def count_with_polib() -> int:
    import polib
    total = 0
    for path in CATALOGS.rglob("*.po"):
        po = polib.pofile(str(path))
        total += len(po.translated_entries()) + len(po.fuzzy_entries()) + len(po.untranslated_entries())
    return total


def count_with_scanner() -> int:
    return sum(documents.scan(path).counts.messages for path in CATALOGS.rglob("*.po"))


def half_translated_copy(target: Path) -> int:
    """Copy the catalogs with every other message given a (fake) translation."""
    rng = random.Random(0)
    translated = 0
    for path in sorted(CATALOGS.rglob("*.po")):
        po = catalogs.load(path)
        for entry in po:
            if not entry.msgstr and rng.random() < 0.5:
                entry.msgstr = "번역 " + entry.msgid[::-1]
                translated += 1
        out = target / path.relative_to(CATALOGS)
        out.parent.mkdir(parents=True, exist_ok=True)
        catalogs.save(po, out)
    return translated


def main() -> int:
    files = sorted(CATALOGS.rglob("*.po"))
    size = sum(p.stat().st_size for p in files) / 1e6
    messages = count_with_scanner()
    assert messages == count_with_polib()
    stats_cli = median_seconds(lambda: run("stats", "--format", "json"), 7)
    stats_cpu = median_cpu("stats", "--format", "json")
    help_cli = median_seconds(lambda: run("--version"), 7)
    help_cpu = median_cpu("--version")
    scanner = median_seconds(count_with_scanner, 7)
    polib_time = median_seconds(count_with_polib, 5)
    fmt_check = median_seconds(lambda: run("fmt", "--check"), 3)
    with tempfile.TemporaryDirectory() as tmp:
        translated = half_translated_copy(Path(tmp))
        tm_fill = median_seconds(lambda: run("tm", "fill", tmp, "--memory", tmp, "--dry-run"), 3)
    print("## Workflow\n")
    load = os.getloadavg()[0]
    print(f"Machine: {platform.machine()}, {os.cpu_count()} CPUs (load average {load:.1f} "
          f"while measuring), {platform.python_implementation()} "
          f"{platform.python_version()}; {len(files)} catalogs, {size:.1f} MB, "
          f"{messages} messages. Median of 3-7 runs; for the CLI also its CPU time, "
          "which is its wall time on an idle machine.\n")
    print("| what | command | seconds |")
    print("|---|---|---:|")
    print(f"| `jaxko stats` end to end, wall (goal < 1 s) | `jaxko stats --format json` | {stats_cli:.2f} |")
    print(f"| `jaxko stats` end to end, CPU | same | {stats_cpu:.2f} |")
    print(f"| of which: starting `jaxko` (all command modules), wall / CPU | `jaxko --version` | "
          f"{help_cli:.2f} / {help_cpu:.2f} |")
    print(f"| counting all catalogs, line scanner | `documents.scan` over all | {scanner:.3f} |")
    print(f"| counting all catalogs, polib (baseline) | `polib.pofile` over all | {polib_time:.3f} |")
    print(f"| format check of all catalogs | `jaxko fmt --check` | {fmt_check:.2f} |")
    print(f"| translation memory, {translated} remembered, rest filled | "
          f"`jaxko tm fill COPY --memory COPY --dry-run` | {tm_fill:.2f} |")
    print(f"\nScanner speed-up over polib: {polib_time / scanner:.1f}x. "
          "Reproduce: `.venv/bin/python benchmarks/run.py stats`.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
