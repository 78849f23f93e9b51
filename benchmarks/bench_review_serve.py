"""`jaxko review serve`: how long a reviewer waits to approve a 60-message page.

Goal (issue 45): a reviewer approves a 60-message page in under 2 minutes of clicking.
Setup: a git repository holding a copy of one real translated page (its catalog, its
AI-pass records and assignments.yaml), committed by the translator's name; the app is
the real command (`jaxko review serve DOC --no-browser --reviewer NAME`) in a fresh
process; Debian's Chromium, headless, driven by playwright with the keyboard as a
reviewer would: `j` once, then `a` on every message (each `a` records the approval and
moves to the next waiting message). Measured: loading the page, and from the first `a`
until every message shows its outcome (the app's time to write each record: the
refusal checks of `jaxko review approve`, git blame included, and the atomic write).
Reading time is the reviewer's and is not part of it.

Usage: python benchmarks/bench_review_serve.py [DOC]   (default: pallas/gpu/collective_matmul)
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "tools")}
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
REVIEWER = "벤치 검수자"


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def main() -> int:
    from playwright.sync_api import sync_playwright

    docname = sys.argv[1] if len(sys.argv) > 1 else "pallas/gpu/collective_matmul"
    source = ROOT / "locale" / "ko"
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        ko = project / "locale" / "ko"
        for rel in (f"LC_MESSAGES/{docname}.po", f"reviews/{docname}.yaml", "assignments.yaml"):
            if (source / rel).is_file():
                (ko / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source / rel, ko / rel)
        git(project, "init", "-q")
        git(project, "config", "user.email", "bench@example.org")
        git(project, "config", "user.name", "번역자")
        git(project, "add", "-A")
        git(project, "commit", "-qm", "the page as translated")
        proc = subprocess.Popen([sys.executable, "-m", "jaxko", "review", "serve", docname,
                                 "--no-browser", "--reviewer", REVIEWER,
                                 "--locale-dir", str(project / "locale")],
                                cwd=ROOT, env=ENV, stdout=subprocess.PIPE, text=True)
        try:
            url = proc.stdout.readline().split()[3]
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                start = time.perf_counter()
                page.goto(url)
                loaded = time.perf_counter() - start
                rows = page.locator("tr.message")
                total = rows.count()
                start = time.perf_counter()
                page.keyboard.press("j")
                for _ in range(total):
                    page.keyboard.press("a")
                page.wait_for_function(
                    "n => document.querySelectorAll('tr.message[data-outcome]').length"
                    " + document.querySelectorAll('.outcome-refused').length >= n",
                    arg=total, timeout=600_000)
                page.evaluate("() => window.jaxkoReview.settled()")
                clicking = time.perf_counter() - start
                approved = page.locator('tr.message[data-outcome="approved"]').count()
                refused = page.locator(".outcome-refused").count()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    load = os.getloadavg()
    print("## Review in the browser (`jaxko review serve`)\n")
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared with other jobs), "
          f"Python {platform.python_version()}, load average "
          f"{load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}. Command: "
          f"`python benchmarks/run.py review_serve` (page `{docname}`).\n")
    print("| what | messages | seconds | per message |")
    print("|---|---:|---:|---:|")
    print(f"| open the page (findings of `jaxko check` included) | {total} | {loaded:.1f} | |")
    print(f"| `j`, then `a` on every message, until the last outcome shows | {total} | "
          f"{clicking:.1f} | {clicking / max(total, 1):.2f} |")
    print(f"\n{approved} approved, {refused} refused (open error findings or the translator).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
