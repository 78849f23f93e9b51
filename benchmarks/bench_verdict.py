"""The catalog verdict (`jaxko.catalogs.check_text`) on the synthetic check set.

`python benchmarks/bench_verdict.py`. Prints markdown for BENCHMARKS.md.

Every command runs the verdict on every catalog it reads, so its cost is paid by
`check`, `stats`, `fmt`, `update` and `site build`. Measured on the generated
python-docs-ko-sized set of benchmarks/bench_check.py (508 files, 75,775 entries), in
one process, best of 5, as ratios in the same run to:

* polib's parse of the same texts (the baseline of bench_check.py);
* the previous verdict (separate regular-expression passes for unterminated strings and
  bad escapes, plus header checks), read from git (`PREVIOUS`), when it is there.
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import polib  # noqa: E402

import bench_check  # noqa: E402
from jaxko import catalogs as verdict  # noqa: E402

PREVIOUS = "d729aac"  # the commit that introduced the verdict (then jaxko/poverdict.py)


def best(function, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def previous_module():
    try:
        source = subprocess.run(["git", "show", f"{PREVIOUS}:tools/jaxko/poverdict.py"],
                                cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = Path(tempfile.mkdtemp()) / "poverdict_previous.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("poverdict_previous", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    catalogs = bench_check.BENCH / "catalogs"
    if not catalogs.is_dir():
        rng = random.Random(bench_check.SEED)
        bench_check.generate(catalogs, bench_check.make_terms(rng, 3000)[:300])
    files = sorted(catalogs.rglob("*.po"))
    texts = [(path, path.read_text(encoding="utf-8")) for path in files]
    size = sum(len(text.encode("utf-8")) for _, text in texts) / 1e6
    polib_time = best(lambda: [polib.pofile(text) for _, text in texts])
    rows = [("polib parse of the same texts (baseline)", polib_time)]
    previous = previous_module()
    if previous is not None:
        rows.append((f"previous verdict ({PREVIOUS})",
                     best(lambda: [previous.check_text(text, path) for path, text in texts])))
    rows.append(("verdict (one grammar match, header checks)",
                 best(lambda: [verdict.check_text(text, path) for path, text in texts])))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    out = ["## Catalog verdict\n",
           f"Command: `.venv/bin/python benchmarks/bench_verdict.py`; {len(files)} synthetic "
           f"catalogs, {size:.1f} MB; best of 5, one process; load average {load}.\n",
           "| measurement | seconds | × polib parse |", "|---|---:|---:|"]
    out += [f"| {label} | {seconds:.3f} | {seconds / polib_time:.3f} |" for label, seconds in rows]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
