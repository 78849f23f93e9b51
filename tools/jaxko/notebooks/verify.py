"""Run the Korean notebooks on real JAX: nbmake under pytest-xdist, with a cache of passes.

For every notebook in scope the result is one of:

* ``skipped``: excluded from execution (:data:`jaxko.scope.EXECUTION_EXCLUDES`, with
  its reason), a file it needs beside it is not in the staged upstream, or the kernel's
  Python cannot import a module it needs (:data:`jaxko.scope.REQUIREMENTS`: the reason
  names the modules and how to install them);
* ``failed``: not built, the static code check found a difference, or a cell raised
  (a cell tagged ``raises-exception`` may raise) or timed out; a cell with a known
  upstream error (:data:`jaxko.scope.KNOWN_ERRORS`) fails it by raising any other
  exception, or by no longer raising the declared one;
* ``cached``: passed before with the same code cells, environment and options;
* ``passed``: every cell ran; one with known upstream errors says so
  (``known_errors``: the cells and their exceptions), never as a clean pass;
* ``unchecked``: ran without error, but with ``--allow-unchecked-code``: its code was
  not compared with upstream, so nobody vouches for what it did (never "passed").

Each run also has a mode: ``native`` (the kernels ran as written, on this platform) or
``interpret``: on CPU, the Pallas pages of :data:`jaxko.scope.INTERPRETED` run with
Pallas's interpreter switched on in their kernel (:mod:`jaxko.notebooks.interpret`;
``interpret=False`` / ``--interpret off`` skips them as before). An interpret-mode pass
is shown as one everywhere (report, table, JUnit XML, the site) and is never a hardware
run: its outputs are not put into the notebook readers download nor shown on the site.

Translated notebooks run with a scrubbed environment (:func:`_kernel_env`: only what
Python, JAX and the toolchain need; no tokens or credentials of the caller), each in a
folder of its own with its own temporary home and ``TMPDIR``, in a kernel boxed by
:mod:`jaxko.notebooks.sandbox` (no writes outside that folder, no processes, no network,
apart from a notebook's exemption in :data:`jaxko.scope.SANDBOX_EXEMPTIONS`); a refusal
fails the notebook even when its code catches the error (docs/threat-model.md).

The notebooks run in a temporary folder (nbmake ignores anything under a ``_build``
folder), each with a fresh kernel of this Python; the executed notebooks are copied
to ``_build/notebooks/executed/`` for inspection.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import platform as _platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from xml.etree import ElementTree

import nbformat

from jaxko import paths, scope
from jaxko.catalogs import write_text_atomic
from jaxko.codetokens import first_difference
from jaxko.errors import UserError
from jaxko.notebooks import build, interpret as interpret_mode, literals, sandbox, shards, sources

CACHE_VERSION = 1
KERNEL_NAME = "jaxko-python"
PLATFORMS = ("cpu", "gpu")
STATUSES = ("passed", "cached", "unchecked", "failed", "skipped")
# What a translated notebook's kernel may see of the caller's environment: names, and
# prefixes ending in "_". Everything else (tokens, cloud credentials, SSH agents) stays out.
_KEPT_ENV = ("PATH", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR", "PYTHONPATH",
             "LD_LIBRARY_PATH", "LC_", "JAX_", "XLA_", "CUDA_", "NVIDIA_", "TF_CPP_")


@dataclass
class NotebookResult:
    """The outcome of one notebook."""

    notebook: str  # the upstream path, e.g. "notebooks/thinking_in_jax.ipynb"
    status: str  # passed | cached | unchecked | failed | skipped
    seconds: float = 0.0
    cell: int | None = None  # failing cell, numbered from 1
    error: str = ""  # the failure's last line, or why it was skipped
    executed: bool = False  # run by nbmake in this verify
    key: str = ""  # of a pass: its cache key (`report merge` records the shards' passes)
    exemption: dict | None = None  # its sandbox exemption (scope.SandboxExemption.as_dict)
    interpretation: dict | None = None  # how Pallas's interpreter ran it (scope.Interpretation)
    sandbox: str | None = None  # the protection its kernel put in force (run here)
    # Of a pass: the declared upstream errors its cells raised ({"cell", "cell_id",
    # "exception", "reason"}); None: it has none declared.
    known_errors: list | None = None
    requirements: dict | None = None  # the extra modules it needed: module -> version

    @property
    def mode(self) -> str | None:
        """"interpret" (Pallas's interpreter on CPU), "native", or None (it did not run)."""
        if self.interpretation is not None:
            return interpret_mode.MODE
        return interpret_mode.HARDWARE if self.executed or self.status == "cached" else None

    @property
    def shown_status(self) -> str:
        """The status as the table and the site say it: "passed (interpret mode)"."""
        return f"{self.status} (interpret mode)" if self.interpretation is not None \
            and self.status != "skipped" else self.status

    def as_dict(self) -> dict:
        return {"notebook": self.notebook, "status": self.status, "mode": self.mode,
                "seconds": round(self.seconds, 2), "cell": self.cell, "error": self.error,
                "executed": self.executed, "key": self.key,
                "sandbox_exemption": self.exemption, "interpretation": self.interpretation,
                "sandbox": self.sandbox, "known_errors": self.known_errors,
                "requirements": self.requirements}


@dataclass
class VerifyReport:
    platform: str
    workers: int
    environment: dict
    options: dict
    results: list[NotebookResult] = field(default_factory=list)
    wall_seconds: float = 0.0
    executed_seconds: float = 0.0  # wall time of the nbmake run alone
    shard: dict | None = None      # {"index", "count", "notebooks": the whole scope}

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def failed(self) -> bool:
        return any(r.status == "failed" for r in self.results)

    @property
    def sum_seconds(self) -> float:
        """Sequential sum of the notebooks executed in this run."""
        return sum(r.seconds for r in self.results if r.executed)

    def as_dict(self) -> dict:
        executed = [r for r in self.results if r.executed]
        slowest = max(executed, key=lambda r: r.seconds, default=None)
        return {
            "platform": self.platform, "workers": self.workers,
            "environment": self.environment, "options": self.options,
            "wall_seconds": round(self.wall_seconds, 2),
            "executed_wall_seconds": round(self.executed_seconds, 2),
            "sum_seconds": round(self.sum_seconds, 2),
            "slowest": slowest.as_dict() if slowest else None,
            "counts": {s: self.count(s) for s in STATUSES},
            "passed_with_known_errors": sum(1 for r in self.results if r.known_errors
                                            and r.status in ("passed", "cached")),
            "results": [r.as_dict() for r in self.results],
            **({"shard": self.shard} if self.shard else {}),
        }


# ------------------------------------------------------------------------ environment


def environment(platform: str) -> dict:
    """What a cached pass depends on besides the code: versions and the machine."""
    env = {"python": _platform.python_version(), "machine": _platform.machine(),
           "system": _platform.system(), "platform": platform}
    for name in ("jax", "jaxlib", "numpy", "jax-cuda12-plugin", "jax-cuda13-plugin"):
        try:
            env[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return env


# Run by the kernel's Python with the kernel's environment: which of the modules in argv
# it can import (found without importing them), and the distributions providing them.
_PROBE = r"""
import importlib.util, json, sys
from importlib import metadata
found, owners = {}, None
for name in sys.argv[1:]:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        found[name] = None
        continue
    if owners is None:
        owners = metadata.packages_distributions()
    versions = []
    for dist in sorted(set(owners.get(name, ()))):
        try:
            versions.append(dist + " " + metadata.version(dist))
        except metadata.PackageNotFoundError:
            pass
    found[name] = ", ".join(versions) or "no version: " + str(spec.origin)
print(json.dumps(found))
"""


def importable(modules: list[str], platform: str) -> dict[str, str | None]:
    """module -> what provides it ("tensorflow-cpu 2.21.0"), or None when the kernel's
    Python cannot import it: asked of this Python in the kernel's environment
    (``PYTHONPATH`` included), in a process of its own; nothing is imported."""
    if not modules:
        return {}
    with tempfile.TemporaryDirectory(prefix="jaxko-probe-") as tmp:
        proc = subprocess.run([sys.executable, "-c", _PROBE, *modules], cwd=tmp,
                              env=_kernel_env(platform, Path(tmp)), capture_output=True,
                              text=True, timeout=300)
    try:
        found = json.loads(proc.stdout)
        if proc.returncode != 0 or not isinstance(found, dict):
            raise ValueError
    except ValueError:
        last = ([line for line in proc.stderr.splitlines() if line.strip()] or ["no output"])[-1]
        raise UserError("cannot ask the kernel's Python which extra modules it imports "
                        f"({last.strip()[:200]}); check PYTHONPATH") from None
    return {name: found.get(name) for name in modules}


def resolve_workers(workers: str | int, jobs: int) -> int:
    if str(workers) == "auto":
        try:
            count = len(os.sched_getaffinity(0))
        except AttributeError:  # not Linux
            count = os.cpu_count() or 1
    else:
        try:
            count = int(workers)
        except ValueError:
            raise UserError(f"--workers must be a number or 'auto', not {workers!r}") from None
        if count < 0:
            raise UserError("--workers must be 0 or more")
    return max(0, min(count, jobs))


def check_gpu(env: dict[str, str]) -> str:
    """The GPUs JAX sees, or a UserError saying what to install."""
    probe = ("import jax\n"
             "devices = jax.devices('gpu')\n"
             "print(len(devices), devices[0].device_kind)\n")
    proc = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, timeout=300)
    if proc.returncode != 0:
        last = ([line for line in proc.stderr.splitlines() if line.strip()] or ["no output"])[-1]
        raise UserError(f"--platform gpu: JAX sees no GPU ({last.strip()[:200]}); run on a "
                        "machine with an NVIDIA GPU and install jax[cuda12] or jax[cuda13] "
                        "into this environment")
    return proc.stdout.strip()


def _kernel_env(platform: str, run_dir: Path) -> dict[str, str]:
    """The environment of the notebook run: the caller's, scrubbed to :data:`_KEPT_ENV`."""
    env = {name: value for name, value in os.environ.items()
           if name in _KEPT_ENV or name.startswith(tuple(k for k in _KEPT_ENV if k.endswith("_")))}
    env["HOME"] = str(run_dir / "home")  # no ~/.netrc, ~/.aws, ~/.config of the caller
    (run_dir / "home").mkdir(parents=True, exist_ok=True)
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = venv_bin + os.pathsep + env.get("PATH", "")  # ffi.md runs !cmake
    env["JUPYTER_PATH"] = str(run_dir / "jupyter")
    env["IPYTHONDIR"] = str(run_dir / "ipython")  # no personal startup files
    env["MPLBACKEND"] = "agg"
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # imports write no .pyc (the sandbox refuses them)
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    for name in [n for n in env if n.startswith("PYTEST_")]:  # e.g. an outer xdist worker's
        env.pop(name)
    if platform == "cpu":
        env["JAX_PLATFORMS"] = "cpu"
    else:
        env.pop("JAX_PLATFORMS", None)  # JAX picks the GPU itself
    return env


# ------------------------------------------------------------------------------ cache


def executed_dir(root: Path | None = None) -> Path:
    """Where the executed Korean notebooks are copied (the site shows their outputs)."""
    return paths.build_dir(root) / "notebooks" / "executed"


def interpreted_dir(root: Path | None = None) -> Path:
    """Where the notebooks executed in interpret mode are copied (never shown on the site)."""
    return paths.build_dir(root) / "notebooks" / "interpreted"


def cache_path(root: Path | None = None) -> Path:
    return paths.build_dir(root) / "notebooks" / "verify-cache.json"


def load_cache(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return {"version": CACHE_VERSION, "passes": {}, "seconds": {}}
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return {"version": CACHE_VERSION, "passes": {}, "seconds": {}}
    data.setdefault("passes", {})
    data.setdefault("seconds", {})
    return data


def cache_key(notebook: nbformat.NotebookNode, support: list[Path], env: dict,
              options: dict) -> str:
    """Content hash of what execution depends on: code cells, files beside, env, options."""
    digest = hashlib.sha256()
    cells = [[cell.source, sorted(cell.get("metadata", {}).get("tags", []))]
             for cell in notebook.cells if cell.cell_type == "code"]
    digest.update(json.dumps({"cells": cells, "env": env, "options": options},
                             sort_keys=True, ensure_ascii=False).encode("utf-8"))
    for base in support:
        files = sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else [base]
        for path in files:
            digest.update(path.relative_to(base.parent).as_posix().encode("utf-8"))
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _pass(key: str, seconds: float, known_errors: list | None = None) -> dict:
    recorded = {"key": key, "seconds": round(seconds, 2),
                "passed_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if known_errors:
        recorded["known_errors"] = known_errors  # a cached pass shows them too
    return recorded


def record_passes(results: list[NotebookResult], root: Path | None = None) -> int:
    """Record passes run elsewhere (the shards of `report merge`) in this project's cache,
    so that a later verify here (the site build) does not run them again; returns how many."""
    cache_file = cache_path(root)
    cache = load_cache(cache_file)
    recorded = 0
    for result in results:
        if result.status in ("passed", "cached") and result.key:
            cache["passes"][result.notebook] = _pass(result.key, result.seconds,
                                                     result.known_errors)
            cache["seconds"][result.notebook] = round(result.seconds, 2)
            recorded += 1
    if recorded:
        write_text_atomic(cache_file, json.dumps(cache, indent=1, sort_keys=True) + "\n")
    return recorded


# ----------------------------------------------------------------------------- verify


@dataclass
class _Job:
    source: sources.NotebookSource
    korean: Path
    notebook: nbformat.NotebookNode
    support: list[Path]
    key: str
    exemption: scope.SandboxExemption | None = None
    interpretation: scope.Interpretation | None = None
    known: tuple[scope.KnownError, ...] = ()
    requirements: dict | None = None


def static_differences(upstream: sources.ReadNotebook, korean: nbformat.NotebookNode
                       ) -> tuple[int | None, str] | None:
    """The first code cell of the Korean notebook that changed beyond comments/strings,
    or that changed a string passed to a file, OS, import or eval API
    (:mod:`jaxko.notebooks.literals`)."""
    if len(upstream.notebook.cells) != len(korean.cells):
        return None, (f"{len(korean.cells)} cells, upstream has "
                      f"{len(upstream.notebook.cells)}; rebuild with `jaxko notebooks build`")
    aliases = None
    for index, (old, new) in enumerate(zip(upstream.notebook.cells, korean.cells), start=1):
        if old.cell_type != new.cell_type:
            return index, f"cell type {new.cell_type}, upstream has {old.cell_type}"
        if old.cell_type == "code" and old.source != new.source:
            found = first_difference(old.source, new.source, upstream.language)
            if found:
                return index, f"static check: {found}"
            if aliases is None:
                aliases = literals.notebook_aliases(upstream.notebook, upstream.language)
            found = literals.changed_literal(old.source, new.source, upstream.language, aliases)
            if found:
                return index, f"static check: {found}"
    return None


def verify(*, srcdir: Path | None = None, notebooks_dir: Path | None = None,
           platform: str = "cpu", workers: str | int = "auto", timeout: int = 600,
           static_check: bool = True, force: bool = False, only: list[str] | None = None,
           progress: bool = False, log=None, shard: shards.Shard | None = None,
           durations: Path | None = None,
           exemptions: tuple[scope.SandboxExemption, ...] = scope.SANDBOX_EXEMPTIONS,
           interpret: bool = True,
           interpreted: tuple[scope.Interpretation, ...] = scope.INTERPRETED,
           requirements: tuple[scope.Requirement, ...] = scope.REQUIREMENTS,
           known_errors: tuple[scope.KnownError, ...] = scope.KNOWN_ERRORS
           ) -> VerifyReport:
    """Verify the Korean notebooks; see the module docstring for the outcomes.

    With ``shard``, only that deterministic share of the notebooks in scope (balanced by
    the seconds in the ``durations`` report, else by size; :mod:`.shards`); the report
    lists the whole scope so that `jaxko notebooks report merge` can check the shards.
    ``exemptions``: what upstream's own code may do in the sandbox (tests name their own).
    ``interpret``: on CPU, run the Pallas pages of ``interpreted`` in Pallas's interpreter
    (interpret mode; False: they are skipped with their exclusion's reason).
    ``requirements``, ``known_errors``: the extra modules notebooks need and the upstream
    errors their cells may raise (tests name their own)."""
    started = time.perf_counter()
    if platform not in PLATFORMS:
        raise UserError(f"--platform must be one of {', '.join(PLATFORMS)}")
    if timeout <= 0:
        raise UserError("--timeout must be a positive number of seconds")
    root = paths.repo_root()
    srcdir = srcdir or paths.staged_docs(root)
    notebooks_dir = notebooks_dir or build.output_dir(root)
    if not notebooks_dir.is_dir():
        raise UserError("no Korean notebooks here; run `jaxko notebooks build` first",
                        notebooks_dir)
    chosen = build.select(sources.find_notebooks(srcdir), only)
    shard_info = None
    if shard is not None:
        scope_rels = [s.rel for s in chosen]
        weight = shards.weights([(s.rel, s.path) for s in chosen], shards.read_durations(durations))
        mine = set(shards.split(weight, shard.count)[shard.index - 1])
        chosen = [s for s in chosen if s.rel in mine]
        shard_info = {"index": shard.index, "count": shard.count, "notebooks": scope_rels}
    env_info = environment(platform)
    # The sandbox is part of every key: a pass outside it is no pass inside it.
    # "landlock+audit-hooks" where this runner's kernel offers Landlock, else "audit-hooks"
    # (an exempt notebook's own key and run say "audit-hooks": it may write outside).
    protection = sandbox.protection(False)
    if os.environ.get(sandbox.REQUIRE_ENV) == "1" and protection != sandbox.LANDLOCK_KIND:
        raise UserError(f"{sandbox.REQUIRE_ENV}=1 but this runner offers no Landlock (Linux "
                        ">= 5.13 with Landlock enabled, and the `landlock` package); run on "
                        "such a runner, or unset it to verify with audit hooks only")
    options = {"platform": platform, "timeout": timeout, "sandbox": protection}
    # Not part of the keys (a notebook's own interpretation is): shown in report.json.
    interpreting = interpret and platform == "cpu"
    if not static_check:
        options["unchecked_code"] = True  # never shares cached passes with checked runs
    cache_file = cache_path(root)
    cache = load_cache(cache_file)
    needed = sorted({module for source in chosen
                     if not scope.execution_excluded(source.rel)
                     for module in getattr(scope.requirement(source.rel, requirements),
                                           "modules", ())})
    found = importable(needed, platform)

    results: dict[str, NotebookResult] = {}
    jobs: list[_Job] = []
    for source in chosen:
        reason = scope.execution_excluded(source.rel)
        interpretation = scope.interpretation(source.rel, interpreted) if interpreting else None
        if reason and not scope.attempted_on(reason, platform) and interpretation is None:
            results[source.rel] = NotebookResult(source.rel, "skipped", error=reason)
            continue
        support = [source.path.parent / name for name in scope.support_files(source.rel)]
        missing = [p for p in support if not p.exists()]
        if missing:
            names = ", ".join(p.relative_to(srcdir).as_posix() + ("/" if not p.suffix else "")
                              for p in missing)
            results[source.rel] = NotebookResult(
                source.rel, "skipped",
                error=f"needs {names} beside it, which the staged upstream lacks (the offline "
                      "copy holds documents only; stage a clone of the tag to run it)")
            continue
        korean_path = notebooks_dir / source.ipynb_rel
        if not korean_path.is_file():
            results[source.rel] = NotebookResult(
                source.rel, "failed", error="Korean notebook not built; run `jaxko notebooks build`")
            continue
        korean = sources.read_ipynb_file(korean_path)
        if static_check:
            difference = static_differences(sources.read(source), korean)
            if difference:
                cell, message = difference
                results[source.rel] = NotebookResult(source.rel, "failed", cell=cell,
                                                     error=message)
                continue
        need = scope.requirement(source.rel, requirements)
        extras = None
        if need:
            missing = [module for module in need.modules if found.get(module) is None]
            if missing:
                results[source.rel] = NotebookResult(
                    source.rel, "skipped",
                    error=f"extra requirements: the kernel's Python cannot import "
                          f"{', '.join(missing)}; install them: {need.install_hint}")
                continue
            extras = {module: found[module] for module in need.modules}
        known = scope.known_errors(source.rel, known_errors)
        absent = [entry.cell_id for entry in known if _cell_index(korean, entry.cell_id) is None]
        if absent:
            results[source.rel] = NotebookResult(
                source.rel, "failed",
                error=f"known upstream error declared for cell id {', '.join(absent)}, which "
                      "the notebook lacks: update KNOWN_ERRORS in tools/jaxko/scope.py")
            continue
        exemption = scope.sandbox_exemption(source.rel, exemptions)
        shown = exemption.as_dict() if exemption else None
        how = interpretation.as_dict() if interpretation else None
        keyed = dict(options)
        if exemption:
            keyed["sandbox_exemption"] = shown
            keyed["sandbox"] = sandbox.protection(True)
        if interpretation:  # an interpret-mode pass is no pass on the hardware, nor back
            keyed["interpret"] = how
        if extras:  # another version of an extra is another run
            keyed["requirements"] = extras
        if known:
            keyed["known_errors"] = [entry.as_dict() for entry in known]
        key = cache_key(korean, support, env_info, keyed)
        recorded = cache["passes"].get(source.rel)
        if not force and recorded and recorded.get("key") == key:
            results[source.rel] = NotebookResult(source.rel, "cached",
                                                 seconds=float(recorded.get("seconds", 0.0)),
                                                 key=key, exemption=shown, interpretation=how,
                                                 known_errors=recorded.get("known_errors")
                                                 if known else None, requirements=extras)
            continue
        jobs.append(_Job(source, korean_path, korean, support, key, exemption, interpretation,
                         known, extras))

    count = 0
    executed_seconds = 0.0
    if jobs:
        if platform == "gpu":
            gpus = check_gpu(_kernel_env("gpu", Path(tempfile.gettempdir())))
            if log:
                log(f"GPU: {gpus}")
        # Slowest first (as last measured), so the parallel run ends evenly.
        jobs.sort(key=lambda job: -float(cache["seconds"].get(job.source.rel, 0.0)))
        count = resolve_workers(workers, len(jobs))
        run_started = time.perf_counter()
        for result in _execute(jobs, root, platform, count, timeout, progress):
            results[result.notebook] = result
        executed_seconds = time.perf_counter() - run_started
        for job in jobs:
            result = results[job.source.rel]
            cache["seconds"][job.source.rel] = round(result.seconds, 2)
            if result.status == "passed":
                result.key = job.key
                cache["passes"][job.source.rel] = _pass(job.key, result.seconds,
                                                        result.known_errors)
            else:
                cache["passes"].pop(job.source.rel, None)
    stale = [rel for rel, r in results.items() if r.status == "failed" and rel in cache["passes"]]
    for rel in stale:  # a notebook that fails its static check now is no cached pass
        cache["passes"].pop(rel)
    if jobs or stale:
        write_text_atomic(cache_file, json.dumps(cache, indent=1, sort_keys=True) + "\n")

    if not static_check:
        for rel, result in results.items():
            if result.status in ("passed", "cached"):
                result.status = "unchecked"
                result.key = ""
    report = VerifyReport(platform, count, env_info,
                          {**options, "interpret": "auto" if interpreting else "off"},
                          [results[s.rel] for s in chosen], shard=shard_info)
    report.executed_seconds = executed_seconds
    report.wall_seconds = time.perf_counter() - started
    return report


def _execute(jobs: list[_Job], root: Path, platform: str, workers: int, timeout: int,
             progress: bool) -> list[NotebookResult]:
    """Run the jobs with nbmake in a temporary folder; results in job order.

    Each notebook gets a folder of its own (``nb/<slot>/``: the notebook at its docs path,
    the files it needs beside it, its home and TMPDIR), the only tree its sandboxed kernel
    may write; what all kernels share (the kernelspec, the IPython profile, the policy
    file, pytest's events and the violations logs) lies outside every such folder, so one
    notebook cannot change another's run or its result."""
    executed_to = executed_dir(root)
    with tempfile.TemporaryDirectory(prefix="jaxko-notebooks-") as tmp:
        run_dir = Path(tmp).resolve()
        _write_kernelspec(run_dir)
        (run_dir / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        events = run_dir / "events.jsonl"
        events.touch()
        (run_dir / "violations").mkdir()
        targets, policies = [], []
        for number, job in enumerate(jobs, start=1):
            slot = run_dir / "nb" / f"{number:02d}-{Path(job.source.docname).name}"
            target = slot / job.source.ipynb_rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if job.known:  # the run's copy only: the download stays as built
                nbformat.write(_allowing_known_errors(job.notebook, job.known), str(target))
            else:
                shutil.copyfile(job.korean, target)
            for support in job.support:
                dest = target.parent / support.name
                if support.is_dir():
                    shutil.copytree(support, dest, dirs_exist_ok=True)
                else:
                    shutil.copyfile(support, dest)
            for private in (".home", ".tmp"):
                (slot / private).mkdir()
            exemption = job.exemption
            policies.append(sandbox.Policy(
                notebook=job.source.rel, cwd=str(target.parent), root=str(slot),
                home=str(slot / ".home"), tmp=str(slot / ".tmp"),
                violations=str(run_dir / "violations" / f"{slot.name}.jsonl"),
                writes=exemption.writes if exemption else (),
                commands=exemption.commands_for() if exemption else (),
                argvs=exemption.argvs if exemption else (),
                interpret=job.interpretation.as_dict() if job.interpretation else None))
            targets.append(target)
        sandbox.write_policies(run_dir / "sandbox.json", policies)
        env = _kernel_env(platform, run_dir)
        env["TMPDIR"] = str(run_dir / "tmp")  # pytest's; each kernel's is in its own folder
        (run_dir / "tmp").mkdir()
        env["MPLCONFIGDIR"] = str(_matplotlib_cache(root, env))
        env["JAXKO_NOTEBOOK_EVENTS"] = str(events)
        env[sandbox.POLICY_ENV] = str(run_dir / "sandbox.json")
        # Only the plugins the run needs, named below: not whatever else is installed
        # (hypothesis's, for one, costs every pytest process, xdist's workers included).
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        junit = run_dir / "nbmake-junit.xml"
        command = [sys.executable, "-m", "pytest", "-c", str(run_dir / "pytest.ini"),
                   "--rootdir", str(run_dir / "nb"), "-p", "no:cacheprovider",
                   "-p", "nbmake", "-p", "jaxko.notebooks.pytest_progress", "--nbmake",
                   f"--nbmake-timeout={timeout}", f"--nbmake-kernel={KERNEL_NAME}",
                   "--overwrite", "-q", "--no-header", "-o", "console_output_style=classic",
                   f"--junitxml={junit}"]
        if workers > 1:
            command += ["-p", "xdist", "-n", str(workers), "--dist", "load"]
        command += [str(t) for t in targets]
        _run_pytest(command, env, run_dir, events, len(jobs), progress)
        outcomes = _read_events(events)
        results = []
        for job, target, policy in zip(jobs, targets, policies):
            event = outcomes.get(target.relative_to(run_dir / "nb").as_posix())
            refusals = _read_violations(Path(policy.violations))
            result = _result(job, target, event, refusals)
            results.append(_held(result, policy))
            if target.is_file():
                # An interpret-mode run's outputs are a CPU simulation's: kept apart, for
                # inspection, so that the site never shows them as the page's.
                dest = (interpreted_dir(root) if job.interpretation else executed_to) \
                    / job.source.ipynb_rel
                write_text_atomic(dest, _as_built(target, job))
    return results


_RAISES = "raises-exception"


def _cell_index(notebook: nbformat.NotebookNode, cell_id: str) -> int | None:
    """The cell (from 1) whose id is ``cell_id``: its ``id`` (format 4.5), or Colab's
    ``metadata.id`` (upstream's format 4.0 notebooks keep their ids there)."""
    for index, cell in enumerate(notebook.cells, start=1):
        if cell_id in (cell.get("id"), cell.get("metadata", {}).get("id")):
            return index
    return None


def _added_tags(notebook: nbformat.NotebookNode, known) -> list[int]:
    """The cells (from 1) of the known errors that are not tagged raises-exception."""
    indexes = [_cell_index(notebook, entry.cell_id) for entry in known]
    return [index for index in indexes if index is not None
            and _RAISES not in notebook.cells[index - 1].get("metadata", {}).get("tags", [])]


def _allowing_known_errors(notebook: nbformat.NotebookNode, known) -> nbformat.NotebookNode:
    """A copy of the notebook whose known-error cells are tagged raises-exception, so
    that nbclient runs on past them; what they raised is judged afterwards
    (:func:`_known_outcome`)."""
    run = copy.deepcopy(notebook)
    for index in _added_tags(notebook, known):
        cell = run.cells[index - 1]
        cell.metadata["tags"] = [*cell.metadata.get("tags", []), _RAISES]
    return run


def _as_built(target: Path, job: _Job) -> str:
    """The executed notebook's text without the tags the run added (its cells and
    metadata as built, with outputs)."""
    text = target.read_text(encoding="utf-8")
    added = _added_tags(job.notebook, job.known) if job.known else []
    if not added:
        return text
    try:
        executed = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    except Exception:  # not a notebook (kernel died mid-write): kept as it is
        return text
    for index in added:
        if index <= len(executed.cells):
            cell = executed.cells[index - 1]
            tags = [tag for tag in cell.metadata.get("tags", []) if tag != _RAISES]
            if tags:
                cell.metadata["tags"] = tags
            else:
                cell.metadata.pop("tags", None)
    return nbformat.writes(executed)


def _known_outcome(executed: Path, known, finished: bool
                   ) -> tuple[tuple[int, str] | None, list[dict]]:
    """How the known-error cells ran: the first that broke its declaration (another
    exception, or none where one is declared), as (cell, error), or None; and the
    declared errors raised, as report.json lists them. A cell that never ran breaks
    nothing when the notebook stopped earlier (``finished`` False), and its declaration
    when the notebook ran to its end (a ``skip-execution`` cell: nothing was checked)."""
    try:
        notebook = nbformat.read(str(executed), as_version=4, capture_validation_error={})
    except Exception:
        return None, []
    problems, raised = [], []
    for entry in known:
        index = _cell_index(notebook, entry.cell_id)
        if index is None:
            continue
        cell = notebook.cells[index - 1]
        if cell.get("execution_count") is None and \
                "shell.execute_reply" not in cell.get("metadata", {}).get("execution", {}):
            if finished:
                problems.append((index, f"known upstream error not checked: the cell did not "
                                        f"run, {entry.exception} was declared for it"))
            continue
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if not errors:
            problems.append((index, f"known upstream error no longer raised: {entry.exception} "
                                    "was declared for this cell; remove it from KNOWN_ERRORS in "
                                    "tools/jaxko/scope.py"))
        elif errors[0].get("ename") != entry.exception:
            error = errors[0]
            problems.append((index, f"{error.get('ename', 'Error')}: "
                                    f"{_last_line(error.get('evalue', ''))} (the known upstream "
                                    f"error of this cell is {entry.exception}; any other "
                                    "exception fails)"))
        else:
            raised.append({"cell": index, "cell_id": entry.cell_id,
                           "exception": entry.exception, "reason": entry.reason})
    raised.sort(key=lambda row: row["cell"])
    return min(problems, default=None), raised


def _held(result: NotebookResult, policy: sandbox.Policy) -> NotebookResult:
    """The result with the protection its kernel said it put in force; a notebook whose
    kernel ran under less than this runner offers fails (a pass must mean what
    ``options.sandbox`` says)."""
    expected = sandbox.protection(policy)
    try:
        said = Path(sandbox.protection_file(policy)).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        said = ""  # the kernel did not start
    result.sandbox = said or None
    if said and said != expected and result.status == "passed":
        result.status = "failed"
        result.error = f"jaxko sandbox: expected {expected}, the kernel ran with {said}"
    return result


def _matplotlib_cache(root: Path, env: dict[str, str]) -> Path:
    """Matplotlib's font cache, built here, outside the sandbox: building it runs
    `fc-list`, a process the kernels may not start. They only read it."""
    cache = paths.build_dir(root) / "notebooks" / "matplotlib"
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"],
                   env={**env, "MPLCONFIGDIR": str(cache)}, cwd=cache,
                   capture_output=True, timeout=300)
    return cache


def _write_kernelspec(run_dir: Path) -> None:
    """The kernel every notebook runs in: ipykernel, started inside the sandbox."""
    spec = run_dir / "jupyter" / "kernels" / KERNEL_NAME
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "jaxko.notebooks.sandbox", "-f", "{connection_file}"],
        "display_name": "Python 3 (jaxko sandbox)", "language": "python",
        "metadata": {"debugger": False}}), encoding="utf-8")


def _run_pytest(command, env, cwd: Path, events: Path, total: int, progress: bool) -> None:
    try:
        import nbmake  # noqa: F401
    except ImportError:
        raise UserError("nbmake is not installed; run `make setup` "
                        "(pip install -e '.[notebooks]')") from None
    if "-n" in command:
        try:
            import xdist  # noqa: F401
        except ImportError:
            raise UserError("pytest-xdist is not installed; run `make setup` or use "
                            "--workers 1") from None
    log_path = cwd / "pytest.log"
    with log_path.open("w", encoding="utf-8") as log:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        stop = threading.Event()
        watcher = None
        if progress:
            watcher = threading.Thread(target=_watch, args=(events, total, stop, progress),
                                       daemon=True)
            watcher.start()
        try:
            proc.wait()
        except KeyboardInterrupt:
            proc.terminate()
            proc.wait()
            raise
        finally:
            stop.set()
            if watcher:
                watcher.join()
    # 0: all passed, 1: some failed; anything else is pytest itself failing.
    if proc.returncode not in (0, 1):
        tail = log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-3:]
        raise UserError(f"pytest/nbmake did not run (exit {proc.returncode}): "
                        + " | ".join(line.strip() for line in tail)[:400])


def _watch(events: Path, total: int, stop: threading.Event, progress=True) -> None:
    """A bar of notebooks executed, or ``progress(executed, total)`` if it is a callable
    (`jaxko site build` prints lines from it when its output is no terminal)."""
    if callable(progress):
        while not stop.wait(0.5):
            progress(len(events.read_text(encoding="utf-8").splitlines()), total)
        progress(len(events.read_text(encoding="utf-8").splitlines()), total)
        return
    from tqdm import tqdm

    with tqdm(total=total, unit="notebook", leave=False) as bar:
        seen = 0
        while not stop.wait(0.5):
            done = len(events.read_text(encoding="utf-8").splitlines())
            if done > seen:
                bar.update(done - seen)
                seen = done


def _read_events(events: Path) -> dict[str, dict]:
    outcomes = {}
    for line in events.read_text(encoding="utf-8").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        outcomes[event["path"].replace(os.sep, "/")] = event
    return outcomes


@dataclass(frozen=True)
class _Refusal:
    """One thing the sandbox refused a notebook's kernel, as its log recorded it."""

    execution_count: int | None
    message: str


def _read_violations(path: Path) -> list[_Refusal]:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    refusals = []
    for line in lines:
        try:
            data = json.loads(line)
            count = data.get("execution_count")
            refusals.append(_Refusal(count if isinstance(count, int) else None,
                                     str(data["message"])))
        except (ValueError, KeyError, TypeError, AttributeError):
            refusals.append(_Refusal(None, f"jaxko sandbox: unreadable refusal {line[:80]!r}"))
    # One attempt can be refused twice (pty.fork tries os.forkpty, then os.fork).
    return list(dict.fromkeys(refusals))


def _result(job: _Job, executed: Path, event: dict | None,
            refusals: list[_Refusal] = ()) -> NotebookResult:
    rel = job.source.rel
    exemption = job.exemption.as_dict() if job.exemption else None
    how = job.interpretation.as_dict() if job.interpretation else None
    if refusals:
        # A refusal fails the notebook even if its code caught the PermissionError (or
        # the cell was tagged raises-exception): the cell is the one that ran then.
        first = refusals[0]
        more = f" (and {len(refusals) - 1} more)" if len(refusals) > 1 else ""
        seconds = float(event.get("seconds", 0.0)) if event else 0.0
        return NotebookResult(rel, "failed", seconds,
                              _cell_of_count(executed, first.execution_count),
                              first.message + more, executed=True, exemption=exemption,
                              interpretation=how)
    if event is None:
        return NotebookResult(rel, "failed", error="did not run (see pytest output; "
                                                   "rerun with --workers 1)",
                              exemption=exemption, interpretation=how)
    seconds = float(event.get("seconds", 0.0))
    finished = event.get("outcome") == "passed"
    problem, raised = _known_outcome(executed, job.known, finished) if job.known else (None, [])
    if finished and problem is None:
        return NotebookResult(rel, "passed", seconds, executed=True, exemption=exemption,
                              interpretation=how, known_errors=raised if job.known else None,
                              requirements=job.requirements)
    cell, error = _failure(executed) if not finished else (None, "")
    if problem and (cell is None or problem[0] <= cell):
        cell, error = problem  # the earliest: a later failure may follow from it
    return NotebookResult(rel, "failed", seconds, cell, error or event.get("summary", ""),
                          executed=True, exemption=exemption, interpretation=how,
                          requirements=job.requirements)


def _cell_of_count(executed: Path, count: int | None) -> int | None:
    """The cell (from 1) that ran with IPython's execution count ``count``."""
    if count is None:
        return None
    try:
        notebook = nbformat.read(str(executed), as_version=4, capture_validation_error={})
    except Exception:  # not written back (kernel died): no cell to name
        return None
    for index, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type == "code" and cell.get("execution_count") == count:
            return index
    return None


def _failure(executed: Path) -> tuple[int | None, str]:
    """The failing cell (from 1) and its error's last line, read from the executed notebook."""
    try:
        notebook = nbformat.read(str(executed), as_version=4, capture_validation_error={})
    except Exception:  # not written back (kernel died): the pytest summary has to do
        return None, ""
    last_error = None
    for index, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type != "code":
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error" and "raises-exception" not in tags:
                last_error = (index, f"{output.get('ename', 'Error')}: "
                                     f"{_last_line(output.get('evalue', ''))}".rstrip(": "))
        execution = cell.get("metadata", {}).get("execution", {})
        if last_error is None and cell.source.strip() and "shell.execute_reply" not in execution:
            return index, "timed out (or the kernel died) in this cell"
    return last_error or (None, "")


def _last_line(text: str) -> str:
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


# ---------------------------------------------------------------------------- writers


def write_junit(report: VerifyReport, path: Path) -> None:
    """JUnit XML with every notebook: failures with their cell, skips with their reason."""
    suite = ElementTree.Element("testsuite", {
        "name": "jaxko-notebooks", "tests": str(len(report.results)),
        "failures": str(report.count("failed")), "skipped": str(report.count("skipped")),
        "errors": "0", "time": f"{report.wall_seconds:.2f}"})
    suite_properties = ElementTree.SubElement(suite, "properties")
    ElementTree.SubElement(suite_properties, "property", {
        "name": "sandbox", "value": str(report.options.get("sandbox", "none"))})
    if "interpret" in report.options:
        ElementTree.SubElement(suite_properties, "property", {
            "name": "interpret", "value": str(report.options["interpret"])})
    for result in report.results:
        case = ElementTree.SubElement(suite, "testcase", {
            "classname": "notebooks", "name": result.notebook,
            "time": f"{result.seconds:.2f}"})
        if result.status == "failed":
            where = f"cell {result.cell}: " if result.cell else ""
            failure = ElementTree.SubElement(case, "failure", {"message": where + result.error})
            failure.text = where + result.error
        elif result.status == "skipped":
            ElementTree.SubElement(case, "skipped", {"message": result.error})
        properties = []
        if result.status == "cached":
            properties.append(("cached", "true"))
        if result.exemption:
            properties.append(("sandbox-exemption", result.exemption["reason"]))
        if result.mode:
            properties.append(("mode", result.mode))
        if result.interpretation:
            properties.append(("interpretation", _interpretation_text(result.interpretation)))
        if result.known_errors:
            properties.append(("known-upstream-errors", _known_text(result.known_errors)))
        if properties:
            element = ElementTree.SubElement(case, "properties")
            for name, value in properties:
                ElementTree.SubElement(element, "property", {"name": name, "value": value})
    tree = ElementTree.ElementTree(suite)
    ElementTree.indent(tree)
    text = ElementTree.tostring(suite, encoding="unicode", xml_declaration=True)
    write_text_atomic(path, text + "\n")


def _interpretation_text(how: dict) -> str:
    """One line on how Pallas's interpreter ran a notebook (table, JUnit XML)."""
    parts = ["interpret mode: Pallas's " + ("TPU interpreter" if how.get("interpreter") == "tpu"
                                            else "generic interpreter (interpret=True)")
             + " on CPU, not a hardware run"]
    if int(how.get("devices") or 1) > 1:
        parts.append(f"{how['devices']} CPU devices")
    if how.get("chip"):
        parts.append(f"get_tpu_info() simulates a TPU {how['chip']}")
    return ", ".join(parts)


def _known_text(known: list[dict]) -> str:
    """One line on a pass's known upstream errors (table, JUnit XML)."""
    cells = ", ".join(f"cell {row['cell']} {row['exception']}" for row in known)
    return (f"{len(known)} known upstream error{'s' if len(known) != 1 else ''} "
            f"(scope.KNOWN_ERRORS): {cells}")


def write_json(report: VerifyReport, path: Path) -> None:
    write_text_atomic(path, json.dumps(report.as_dict(), ensure_ascii=False, indent=1) + "\n")


def format_table(report: VerifyReport) -> str:
    rows = [("notebook", "status", "seconds", "cell", "error / reason")]
    for r in report.results:
        seconds = f"{r.seconds:.1f}" if r.executed or r.status == "cached" else ""
        note = r.error
        if r.exemption and r.status != "skipped":
            note = "; ".join(filter(None, (r.error, f"sandbox exemption: {r.exemption['reason']}")))
        if r.interpretation and r.status != "skipped":
            note = "; ".join(filter(None, (note, _interpretation_text(r.interpretation))))
        if r.known_errors and r.status != "failed":
            note = "; ".join(filter(None, (_known_text(r.known_errors), note)))
        rows.append((r.notebook, r.shown_status, seconds, str(r.cell or ""), note))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1]), row[2].rjust(widths[2]),
                 row[3].rjust(widths[3]), row[4]]
        lines.append("  ".join(cells).rstrip())
    data = report.as_dict()
    counts = data["counts"]
    executed = sum(1 for r in report.results if r.executed)
    unchecked = f"{counts['unchecked']} UNCHECKED, " if counts["unchecked"] else ""
    interpreted = sum(1 for r in report.results if r.status in ("passed", "cached")
                      and r.mode == interpret_mode.MODE)
    interpreted = f" ({interpreted} of them in interpret mode)" if interpreted else ""
    if data["passed_with_known_errors"]:
        interpreted += (f" ({data['passed_with_known_errors']} with known upstream errors, "
                        "not clean passes)")
    summary = (f"{len(report.results)} notebooks ({report.platform}): {counts['passed']} passed, "
               f"{counts['cached']} cached{interpreted}, {unchecked}{counts['failed']} failed, "
               f"{counts['skipped']} skipped; sandbox: {report.options.get('sandbox', 'none')}; "
               f"wall {report.wall_seconds:.1f} s")
    if executed:
        slowest = data["slowest"]
        summary += (f", {executed} executed on {report.workers or 1} worker(s) in "
                    f"{report.executed_seconds:.1f} s (sequential sum {report.sum_seconds:.1f} s, "
                    f"slowest {slowest['notebook']} {slowest['seconds']:.1f} s)")
    lines.append(summary)
    return "\n".join(lines)
