"""`jaxko check FILE` on one catalog, as an editor or pre-commit hook runs it on every
save, against `sphinx-lint FILE` on the same file, side by side (issue 43).

    python benchmarks/bench_check_one.py [CATALOG] [--rounds N]

Each round saves the catalog again with one msgstr changed (so `jaxko check` cannot
reuse the catalog's results, as after a real edit), then runs, in alternating order,
`jaxko check COPY` (its cache folder kept between rounds, as in a checkout: the
glossary parsed once) and `sphinx-lint COPY`, each a fresh process. Wall and CPU
(user + system of the child) are taken per run; the table gives medians and the
median of the per-round ratios. Prints markdown for BENCHMARKS.md.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "locale" / "ko" / "LC_MESSAGES" / "about.po"


def timed(command: list[str], env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str]) -> None:
    rounds = 15
    if "--rounds" in argv:
        rounds = int(argv[argv.index("--rounds") + 1])
        del argv[argv.index("--rounds"):argv.index("--rounds") + 2]
    source = Path(argv[0]) if argv else DEFAULT
    bin_ = Path(sys.executable).parent
    lint = shutil.which("sphinx-lint", path=str(bin_)) or shutil.which("sphinx-lint")
    if lint is None:
        raise SystemExit("sphinx-lint not installed: pip install -e '.[bench]'")
    work = Path(tempfile.mkdtemp(prefix="bench-check-one-"))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tools"), JAXKO_CACHE_DIR=str(work / "cache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: compiled modules kept
    copy = work / source.name
    text = source.read_text(encoding="utf-8")
    marker = 'msgstr "'
    at = text.rfind(marker)
    jaxko = [sys.executable, "-m", "jaxko", "check", str(copy)]
    runs = {"jaxko check FILE": [], "sphinx-lint FILE": []}
    copy.write_text(text, encoding="utf-8")
    timed(jaxko, env)  # warm-up: compiled modules, the glossary's parse kept
    timed([lint, str(copy)], env)
    for number in range(rounds):
        edited = text[:at + len(marker)] + f"{number} " + text[at + len(marker):]
        copy.write_text(edited, encoding="utf-8")
        order = [("jaxko check FILE", jaxko), ("sphinx-lint FILE", [lint, str(copy)])]
        if number % 2:
            order.reverse()
        for name, command in order:
            runs[name].append(timed(command, env))
    shutil.rmtree(work, ignore_errors=True)
    load = os.getloadavg()[0]
    print(f"Catalog: `{source.relative_to(ROOT) if source.is_relative_to(ROOT) else source}` "
          f"({source.stat().st_size:,} bytes); {rounds} rounds, load average {load:.1f}, "
          f"{os.cpu_count()} CPUs.\n")
    print("| command | wall, median (s) | CPU, median (s) |")
    print("|---|---:|---:|")
    for name, values in runs.items():
        print(f"| `{name}` | {statistics.median(w for w, _ in values):.3f} | "
              f"{statistics.median(c for _, c in values):.3f} |")
    wall = statistics.median(a[0] / b[0] for a, b in zip(runs["jaxko check FILE"],
                                                          runs["sphinx-lint FILE"]))
    cpu = statistics.median(a[1] / max(b[1], 1e-3) for a, b in zip(runs["jaxko check FILE"],
                                                                    runs["sphinx-lint FILE"]))
    print(f"\nRatio jaxko / sphinx-lint, median of the rounds: wall {wall:.2f}, CPU {cpu:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
