"""Stage 2a: run Sphinx's gettext builder over the staged upstream, writing .pot files."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from jaxko import paths
from jaxko.errors import UserError


@dataclass
class ExtractResult:
    pot_dir: Path
    templates: int
    seconds: float
    warnings: list[str]


def sphinx_env(scope: str = "narrative", execute: str = "off", srcdir: Path | None = None) -> dict:
    env = dict(os.environ)
    env["JAXKO_SCOPE"] = scope
    env["JAXKO_EXECUTE"] = execute
    if srcdir is not None:
        env["JAXKO_SRCDIR"] = str(srcdir)
    env.setdefault("JAX_PLATFORMS", "cpu")
    env.setdefault("PYTHONHASHSEED", "0")
    return env


def run_sphinx(builder: str, srcdir: Path, outdir: Path, *, confdir: Path, env: dict,
               extra: list[str] | None = None, jobs: str = "1") -> tuple[int, list[str]]:
    """Run sphinx-build in a subprocess; returns (status, warning lines)."""
    warnings_file = outdir.parent / f".{outdir.name}-warnings.txt"
    outdir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "sphinx", "-b", builder, "-c", str(confdir),
           "-d", str(outdir.parent / ".doctrees" / outdir.name), "-q", "-j", jobs,
           "-w", str(warnings_file), *(extra or []), str(srcdir), str(outdir)]
    proc = subprocess.run(cmd, env=env)
    warnings = []
    if warnings_file.exists():
        warnings = [line for line in warnings_file.read_text(encoding="utf-8").splitlines() if line.strip()]
    return proc.returncode, warnings


def extract(*, scope: str = "narrative", root: Path | None = None, srcdir: Path | None = None,
            outdir: Path | None = None, confdir: Path | None = None) -> ExtractResult:
    """Write .pot files for every document in scope under _build/gettext/."""
    root = root or paths.repo_root()
    srcdir = srcdir or paths.staged_docs(root)
    outdir = outdir or paths.gettext_dir(root)
    confdir = confdir or root
    if not (srcdir / "index.rst").exists() and not any(srcdir.glob("index.*")):
        raise UserError("no staged docs here; run `jaxko upstream sync` (make upstream) first", srcdir)
    start = time.perf_counter()
    status, warnings = run_sphinx("gettext", srcdir, outdir, confdir=confdir,
                                  env=sphinx_env(scope, "off", srcdir))
    if status != 0:
        raise UserError(f"sphinx-build -b gettext failed (exit {status}); see the messages above", srcdir)
    templates = sum(1 for _ in outdir.rglob("*.pot"))
    return ExtractResult(outdir, templates, time.perf_counter() - start, warnings)
