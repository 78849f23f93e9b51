"""Benchmark `jaxko notebooks verify` on every executable upstream notebook.

Three runs, each through the real command line, in a scratch project root (so the
project's own cache under _build/notebooks is untouched):

1. empty translation: build with an empty catalog folder, verify --force;
2. re-verify with nothing changed (every notebook a cached pass);
3. full pseudo-translation: every message translated (text prefixed with Korean, every
   code comment prefixed with Korean), generated into a temporary locale folder that
   is never committed; build, verify --force.

For the executed runs it prints wall time, the sequential sum of the notebooks'
times measured in the same run, the slowest notebook, and the goal
wall <= 1.25 * max(sum / workers, slowest).

    .venv/bin/python benchmarks/bench_notebooks.py [--workers auto] [--platform cpu]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from jaxko import catalogs, paths  # noqa: E402
from jaxko.notebooks import markdown, sources  # noqa: E402
from jaxko.notebooks.build import _code_key  # noqa: E402

KOREAN = "번역"
_MAGIC = re.compile(r"^\s*[!%]")


def pseudo_comment(code: str) -> str:
    """Every comment of a Python cell prefixed with Korean (magic lines left alone)."""
    lines = code.split("\n")
    blanked = "\n".join("" if _MAGIC.match(line) else line for line in lines)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(blanked).readline))
    except (tokenize.TokenError, SyntaxError):
        tokens = None
    if tokens is None:  # not Python: comment-only lines
        return "\n".join(re.sub(r"^(\s*#)", rf"\1 {KOREAN}:", line) for line in lines)
    for tok in reversed([t for t in tokens if t.type == tokenize.COMMENT]):
        row, col = tok.start
        line = lines[row - 1]
        if line[col:].startswith("#!") or line[col:].startswith("# %%"):
            continue
        lines[row - 1] = line[:col] + f"# {KOREAN}:" + line[col + 1:]
    return "\n".join(lines)


def pseudo_locale(srcdir: Path, locale_dir: Path, out: Path) -> int:
    """Write a fully pseudo-translated copy of the notebook catalogs; returns messages."""
    count = 0
    for source in sources.find_notebooks(srcdir):
        path = locale_dir / "ko" / "LC_MESSAGES" / f"{source.docname}.po"
        if not path.is_file():
            continue
        read = sources.read(source)
        catalog = catalogs.load(path)
        ids = {e.msgid: e.msgid for e in catalog if not e.obsolete}
        kinds: dict[str, tuple[str, str | None]] = {}
        for cell in read.notebook.cells:
            if cell.cell_type == "code":
                key = _code_key(cell.source, ids)
                if key:
                    kinds[key] = ("code", read.language)
            elif cell.cell_type == "markdown":
                for slot in markdown.message_slots(cell.source):
                    for found in (slot, *slot.children):
                        key = markdown.lookup(found, ids)
                        if key:
                            kinds.setdefault(key, (found.kind, found.language))
        for entry in catalog:
            if entry.obsolete or entry.msgid not in kinds:
                continue
            kind, language = kinds[entry.msgid]
            if kind in ("code", "literal"):
                python = language is not None and language.lower() in (
                    "", "python", "python3", "ipython", "ipython3", "py")
                entry.msgstr = pseudo_comment(entry.msgid) if python else entry.msgid
            else:
                entry.msgstr = f"{KOREAN}: {entry.msgid}"
            entry.flags = [f for f in entry.flags if f != "fuzzy"]
            count += 1
        catalogs.save(catalog, out / "ko" / "LC_MESSAGES" / f"{source.docname}.po")
    return count


def jaxko(*args: str, env: dict) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "jaxko", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True)
    return time.perf_counter() - start, proc


def scratch_project(name: str) -> tuple[Path, dict]:
    """The staged docs, and an environment whose project root is an empty
    ``_build/<name>`` (so a run's caches and outputs start from nothing)."""
    srcdir = paths.staged_docs(ROOT)
    if not srcdir.is_dir():
        sys.exit("stage the upstream first: jaxko upstream sync")
    scratch = ROOT / "_build" / name
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    return srcdir, dict(os.environ, JAXKO_ROOT=str(scratch))


def verify_run(label: str, env: dict, srcdir: Path, extra: list[str]) -> dict:
    wall, proc = jaxko("notebooks", "verify", "--srcdir", str(srcdir), "--format", "json",
                       *extra, env=env)
    if proc.returncode not in (0, 1):
        sys.exit(f"{label}: verify failed to run:\n{proc.stderr}")
    report = json.loads(proc.stdout)
    report["command_wall_seconds"] = round(wall, 2)
    failed = [r for r in report["results"] if r["status"] == "failed"]
    counts = report["counts"]
    line = (f"{label}: wall {wall:.1f} s (command), {counts['passed']} passed, "
            f"{counts['cached']} cached, {counts['failed']} failed, {counts['skipped']} skipped")
    if report["slowest"]:
        workers = max(report["workers"], 1)
        goal = 1.25 * max(report["sum_seconds"] / workers, report["slowest"]["seconds"])
        line += (f"; sequential sum {report['sum_seconds']:.1f} s on {workers} workers, slowest "
                 f"{report['slowest']['notebook']} {report['slowest']['seconds']:.1f} s; goal "
                 f"<= {goal:.1f} s: {'met' if wall <= goal else 'NOT met'}")
    print(line, flush=True)
    for r in failed:
        print(f"  failed: {r['notebook']} cell {r['cell']}: {r['error']}", flush=True)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="auto")
    parser.add_argument("--platform", default="cpu", choices=("cpu", "gpu"))
    parser.add_argument("--only", choices=("empty", "pseudo"), help="run one translation only")
    parser.add_argument("--json", type=Path, help="also write the reports here")
    args = parser.parse_args()

    srcdir, env = scratch_project("bench-notebooks")
    options = ["--workers", args.workers, "--platform", args.platform]
    reports = {}
    with tempfile.TemporaryDirectory(prefix="jaxko-pseudo-") as tmp:
        locales = {"empty": Path(tmp) / "empty", "pseudo": Path(tmp) / "pseudo"}
        (locales["empty"] / "ko" / "LC_MESSAGES").mkdir(parents=True)
        messages = pseudo_locale(srcdir, paths.locale_dir(ROOT), locales["pseudo"])
        print(f"pseudo-translation: {messages} messages in {locales['pseudo']}", flush=True)
        for name in ("empty", "pseudo"):
            if args.only and name != args.only:
                continue
            wall, proc = jaxko("notebooks", "build", "--srcdir", str(srcdir), "--locale-dir",
                               str(locales[name]), "--format", "json", env=env)
            built = json.loads(proc.stdout)
            print(f"{name}: build {wall:.1f} s, {built['applied']}/{built['translated']} "
                  f"messages applied, {built['errors']} errors, {built['warnings']} warnings",
                  flush=True)
            reports[name] = verify_run(f"{name}: verify --force", env, srcdir,
                                       [*options, "--force"])
            reports[f"{name}-again"] = verify_run(f"{name}: re-verify, nothing changed", env,
                                                  srcdir, options)
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
