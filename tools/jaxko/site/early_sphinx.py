"""sphinx-build started before its command line is known, so its imports overlap the
work that comes before it.

``jaxko site build`` checks its inputs, gates the catalogs and counts the stats before
Sphinx may read anything; Sphinx's own start-up (importing Sphinx, MyST-NB, the theme
and the extensions: about two seconds) needs none of that. :class:`EarlySphinx` starts
the process when the build starts, with the environment Sphinx will run in. The
process imports the modules the previous build's Sphinx had imported (a list kept in
the build's state, :mod:`jaxko.site.state`; JAX's modules excepted, as in
:mod:`jaxko.site.watch`'s warm process: :func:`import_ahead`), or, for a first build,
which has no list, the extensions and theme its ``conf.py`` names
(:func:`configured_modules`), then waits for its
command line on stdin and runs sphinx-build's ``main`` with it, in that same process:
a fresh process, as ``python -m sphinx`` would be, with the same hash seed. Once
Sphinx has returned (its files written and closed), the process exits without tearing
down its objects. A build that stops before Sphinx (a broken input) kills the process
unused (it has written nothing).

The process imports modules by name and runs Sphinx; it calls no code of the site's
extensions (:mod:`jaxko.site.ext`), which Sphinx sets up from ``conf.py`` and the
``-D`` settings of the command line.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterable

# Modules never imported ahead of a build (here and in jaxko.site.watch): JAX starts
# threads when imported, and warns at each fork Sphinx's -j or the watcher makes; the
# entry points are no library.
NOT_AHEAD = ("jax", "jaxlib", "__main__", "__mp_main__")


def importable_ahead(name: str) -> bool:
    return not any(name == top or name.startswith(top + ".") for top in NOT_AHEAD)


def import_ahead(names: Iterable[str]) -> None:
    """Import each module a build imported, before the build; one that fails to import
    out of its context is skipped (the build imports it, or reports it, itself)."""
    for name in names:
        if name in sys.modules or not importable_ahead(name):
            continue
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a module that imports only in its context
            continue


class EarlySphinx:
    """Called like :func:`subprocess.run` (``cmd, env=, stderr=, text=``) by
    :func:`jaxko.extract.run_sphinx`, once; :meth:`close` ends it if it was not."""

    def __init__(self, env: dict, modules: Path, *, confdir: Path | None = None) -> None:
        """``confdir``: where the build's ``conf.py`` is, for a build with no list of
        modules yet."""
        self.env = dict(env)
        self.modules = modules
        extra = ["--conf", str(confdir)] if confdir is not None else []
        self._proc: subprocess.Popen | None = subprocess.Popen(
            [sys.executable, "-m", "jaxko.site.early_sphinx", str(modules), *extra],
            env=self.env, stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def __call__(self, cmd: list[str], *, env: dict, stderr=None, text: bool = False
                 ) -> subprocess.CompletedProcess:
        proc, self._proc = self._proc, None
        if proc is None or cmd[:3] != [sys.executable, "-m", "sphinx"] \
                or env.get("PYTHONHASHSEED") != self.env.get("PYTHONHASHSEED"):
            _end(proc)  # used already, or not a command it can run: a process of its own
            return subprocess.run(cmd, env=env, stderr=stderr, text=text)
        request = json.dumps({"argv": cmd[3:], "env": dict(env)}) + "\n"
        try:
            _, err = proc.communicate(request)
        except BrokenPipeError:  # it died before the command reached it
            _end(proc)
            return subprocess.run(cmd, env=env, stderr=stderr, text=text)
        if stderr is None:
            sys.stderr.write(err)
            err = None
        return subprocess.CompletedProcess(cmd, proc.returncode, None, err)

    def close(self) -> None:
        proc, self._proc = self._proc, None
        _end(proc)


def _end(proc: subprocess.Popen | None) -> None:
    """A process not given its command is killed: until its command comes it only
    imports and has written nothing, and a build stopped by a broken input need not
    wait for those imports to finish."""
    if proc is None or proc.poll() is not None:
        return
    proc.kill()
    try:
        proc.communicate(timeout=10)  # reaps it and closes its pipes
    except (subprocess.TimeoutExpired, BrokenPipeError, OSError):
        proc.wait()


def configured_modules(confdir: Path) -> list[str]:
    """What a build imports that is known before it has run once: Sphinx's application
    and HTML builder, and the extensions and theme ``confdir/conf.py`` names, read by
    evaluating it as Sphinx does (in this process's environment, which is the build's).
    Empty for a conf.py that fails: Sphinx reports it when it evaluates it again."""
    from sphinx.config import eval_config_file
    from sphinx.util.tags import Tags

    try:
        namespace = eval_config_file(confdir / "conf.py", Tags())
    except Exception:  # noqa: BLE001 - a broken conf.py is the build's to report
        return []
    names = ["sphinx.application", "sphinx.builders.html"]
    for name in [*namespace.get("extensions", []), namespace.get("html_theme")]:
        if isinstance(name, str) and name:
            names.append(name)
    return names


def _import_listed(modules: Path, confdir: Path | None = None) -> None:
    try:
        names = modules.read_text(encoding="utf-8").split()
    except OSError:
        # A first build: no list yet. The modules its configuration names are most of
        # what it imports, imported while the gate runs (which Sphinx waits for).
        names = configured_modules(confdir) if confdir is not None else []
    import_ahead(["sphinx.cmd.build", *names])


# Python's cyclic garbage collector while Sphinx builds, set as mypy sets it for its
# own runs: a build allocates millions of nodes that live until their page is written,
# which the default thresholds (700, 10, 10) have the collector scan again and again
# (BENCHMARKS.md: fresh builds with and without).
GC_THRESHOLDS = (200_000, 30, 30)


def run_main(argv: list[str], env: dict, modules: Path | None = None) -> int:
    """sphinx-build's ``main`` in this process, as ``python -m sphinx`` started with
    ``env`` would run it; its exit status. ``modules``: where to write the modules the
    build imported (those :func:`import_ahead` takes), for the next process to import
    ahead. Used here and by :mod:`jaxko.site.watch`'s forks. The collector runs at
    :data:`GC_THRESHOLDS`, and what was imported before is frozen (it lives as long as
    the process: no collection scans it again)."""
    import gc

    os.environ.clear()
    os.environ.update(env)
    sys.argv = ["sphinx-build", *argv]
    from sphinx.cmd.build import main as sphinx_main

    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        status = sphinx_main(argv)
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    if modules is not None:
        from jaxko.catalogs import write_text_atomic
        from jaxko.errors import UserError

        names = sorted(name for name in sys.modules if importable_ahead(name))
        try:
            write_text_atomic(modules, "\n".join(names))
        except (UserError, OSError):
            pass  # no list: the next build imports later, nothing else
    return status


def main(argv: list[str]) -> int:
    """The process: import, wait for the command line, run sphinx-build."""
    modules = Path(argv[0])
    confdir = Path(argv[argv.index("--conf") + 1]) if "--conf" in argv else None
    _import_listed(modules, confdir)
    line = sys.stdin.readline()
    if not line.strip():
        return 0  # the build stopped before Sphinx
    request = json.loads(line)
    return run_main(request["argv"], request["env"], modules)


def _exit_now(status: int) -> None:
    """Sphinx has closed what it wrote (pages, environment, warnings file): the process
    ends without tearing down its objects, which took over half a second."""
    import logging

    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    _exit_now(main(sys.argv[1:]))
