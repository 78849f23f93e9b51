"""Stage 2a: run Sphinx's gettext builder over the staged upstream, writing .pot files."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from jaxko import paths
from jaxko.errors import UserError


# Warnings we decided to accept, each with its reason (docs/build-warnings.md lists them).
# Everything else is reported as unexpected; `jaxko extract --strict` fails on it.
ACCEPTED_WARNINGS: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"tagged-block: source file \S+\.py not found"),
     "upstream's .py companions are not in the offline copy (a clone of the tag has them)"),
    (re.compile(r"Include file '\S+/_static/fault_tolerance/\S+\.py' not found"),
     "upstream's .py companions are not in the offline copy (a clone of the tag has them)"),
    (re.compile(r"cross-reference target not found: 'cute_dsl_jax/\S+\.py'"),
     "links to a .py companion that is not in the offline copy"),
    (re.compile(r"jaxko\.site\.ext\.speedups is off: not tested with "),
     "a toolchain newer than the speedups were tested with: the same site, built more slowly"),
)


def accepted_reason(warning: str) -> str | None:
    for pattern, reason in ACCEPTED_WARNINGS:
        if pattern.search(warning):
            return reason
    return None


@dataclass
class ExtractResult:
    pot_dir: Path
    templates: int
    seconds: float
    warnings: list[str]

    @property
    def unexpected(self) -> list[str]:
        return [w for w in self.warnings if accepted_reason(w) is None]


def sphinx_env(scope: str = "narrative", execute: str = "off", srcdir: Path | None = None) -> dict:
    # JAX_* variables change config defaults that config_options.rst lists: drop them so
    # the extracted messages do not depend on the translator's shell.
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env["JAXKO_SCOPE"] = scope
    env["JAXKO_EXECUTE"] = execute
    if srcdir is not None:
        env["JAXKO_SRCDIR"] = str(srcdir)
    env["JAX_PLATFORMS"] = os.environ.get("JAX_PLATFORMS", "cpu")
    env.setdefault("PYTHONHASHSEED", "0")
    return env


def doctrees_dir(outdir: Path) -> Path:
    """Where Sphinx keeps the pickled environment of the build into ``outdir``."""
    return outdir.parent / ".doctrees" / outdir.name


def run_sphinx(builder: str, srcdir: Path, outdir: Path, *, confdir: Path, env: dict,
               extra: list[str] | None = None, jobs: str = "1",
               run=subprocess.run) -> tuple[int, list[str]]:
    """Run sphinx-build in a subprocess; returns (status, warning lines).

    ``run``: what starts the command, :func:`subprocess.run` or a callable with its
    signature (:class:`jaxko.site.early_sphinx.EarlySphinx`,
    :class:`jaxko.site.watch.WarmSphinx`)."""
    warnings_file = outdir.parent / f".{outdir.name}-warnings.txt"
    outdir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "sphinx", "-b", builder, "-c", str(confdir),
           "-d", str(doctrees_dir(outdir)), "-q", "-j", jobs,
           "-w", str(warnings_file), *(extra or []), str(srcdir), str(outdir)]
    # Warnings are read from the -w file; stderr is shown only when the build fails.
    proc = run(cmd, env=env, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.stderr.write("\n".join(proc.stderr.splitlines()[-30:]) + "\n")
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
