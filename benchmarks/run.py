"""Run the benchmarks: `python benchmarks/run.py [NAME ...]` (make bench runs all).

Each `bench_<name>.py` here is a script that measures one stage and prints markdown
(figures with the exact command) for BENCHMARKS.md. Names select scripts: `run.py check`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        wanted = {a.removeprefix("bench_").removesuffix(".py") for a in argv}
        unknown = wanted - {s.stem.removeprefix("bench_") for s in scripts}
        if unknown:
            print(f"run.py: no benchmark named {', '.join(sorted(unknown))}; "
                  f"have {', '.join(s.stem.removeprefix('bench_') for s in scripts)}", file=sys.stderr)
            return 2
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in wanted]
    status = 0
    for script in scripts:
        print(f"\n<!-- {script.name} -->", flush=True)
        status |= subprocess.run([sys.executable, str(script)], cwd=HERE.parent).returncode
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
