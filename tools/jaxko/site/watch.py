"""``jaxko site watch``: build the site, then build it again each time an input changes.

A translator saves a catalog and wants to see the page. A one-off ``jaxko site build``
starts a Python process for Sphinx each time, and about two seconds of every rebuild is
that process importing Sphinx, MyST-NB, the theme and the extensions. The watcher
pays that once: a *warm* process (:class:`WarmSphinx`) imports every module the first
build imported, and each build runs in a fresh fork of it, so every build starts from
the same clean state as a new process would, without the imports. The rest of the
build (input checks, the security gate, the stats, the audit) is the same code as
``jaxko site build``, with the same kept state (:mod:`jaxko.site.state`). The warm
process imports modules by name and forks; the site's extensions run only inside each
build, set up by Sphinx from ``conf.py`` and the ``-D`` settings.

Inputs watched: every file under the locale folder (catalogs, review records,
assignments) and the glossary. The staged upstream is not watched: after ``jaxko
upstream sync``, start the watcher again.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Callable

from jaxko.site.early_sphinx import import_ahead, run_main


def _run_child(argv: list[str], env: dict, stderr_path: str, modules_path: str | None) -> None:
    """In a fresh fork of the warm process: sphinx-build's main, then exit."""
    status = 1
    try:
        with open(stderr_path, "wb", buffering=0) as err:
            os.dup2(err.fileno(), 2)
        sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False,
                          buffering=1)
        status = run_main(argv, env, Path(modules_path) if modules_path is not None else None)
    except BaseException:  # noqa: BLE001 - reported on the build's stderr, as a process would
        traceback.print_exc()
    finally:
        sys.stderr.flush()
        os._exit(status)


def _serve(conn, parents) -> None:
    """The warm process: each request forks a child that runs one Sphinx build."""
    parents.close()  # inherited by the fork: the end the watcher holds
    try:
        while True:
            try:
                argv, env, stderr_path, modules_path = conn.recv()
            except EOFError:
                return
            pid = os.fork()
            if pid == 0:
                conn.close()
                _run_child(argv, env, stderr_path, modules_path)
            _, status = os.waitpid(pid, 0)
            if modules_path is not None and Path(modules_path).is_file():
                import_ahead(Path(modules_path).read_text(encoding="utf-8").split())
            conn.send(os.waitstatus_to_exitcode(status))
    except KeyboardInterrupt:
        return


class WarmSphinx:
    """Runs ``python -m sphinx ...`` commands in forks of one warm process.

    Called like :func:`subprocess.run` (``cmd, env=, stderr=, text=``) by
    :func:`jaxko.extract.run_sphinx`. The warm process is forked from this one when it
    is created (so create it before any thread starts), imports nothing until the first
    build has run, and then imports every module that build used, JAX's excepted."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("fork")
        self._conn, theirs = context.Pipe()
        # Not a daemon: Sphinx's -j starts processes of its own, which a daemon may not.
        # It ends when the watcher does: its pipe closes, and the process returns.
        self._process = context.Process(target=_serve, args=(theirs, self._conn),
                                        name="jaxko-warm-sphinx")
        self._process.start()
        theirs.close()
        self._warmed = False

    def __call__(self, cmd: list[str], *, env: dict, stderr=None, text: bool = False
                 ) -> subprocess.CompletedProcess:
        if cmd[1:3] != ["-m", "sphinx"]:
            raise ValueError(f"not a sphinx-build command: {cmd}")
        if not self._process.is_alive():  # it died (killed from outside): a process each time
            return subprocess.run(cmd, env=env, stderr=stderr, text=text)
        with tempfile.TemporaryDirectory(prefix="jaxko-watch-") as tmp:
            stderr_path = str(Path(tmp) / "stderr")
            modules_path = None if self._warmed else str(Path(tmp) / "modules")
            try:
                self._conn.send((cmd[3:], dict(env), stderr_path, modules_path))
                returncode = self._conn.recv()
            except (EOFError, OSError):
                return subprocess.run(cmd, env=env, stderr=stderr, text=text)
            self._warmed = True
            err = Path(stderr_path).read_text(encoding="utf-8", errors="replace") \
                if Path(stderr_path).is_file() else ""
        if stderr is None:
            sys.stderr.write(err)
            err = None
        return subprocess.CompletedProcess(cmd, returncode, None, err)

    def close(self) -> None:
        self._conn.close()
        self._process.join(timeout=5)
        if self._process.is_alive():
            self._process.terminate()


def _stamp(paths: list[Path]) -> tuple:
    """(path, mtime, size) of every file under ``paths``: changes when any input does."""
    found = []
    for root in paths:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file()) \
            if root.is_dir() else []
        for path in files:
            try:
                stat = path.stat()
            except OSError:
                continue
            found.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(found)


def watch(build_once: Callable[[WarmSphinx], None], inputs: list[Path], *,
          builds: int | None = None, interval: float = 0.25, say=print) -> int:
    """Run ``build_once(sphinx)`` now and after every change to ``inputs``.

    ``builds``: stop after that many builds (for scripts and tests); None runs until
    interrupted. A build that fails on bad input reports it and the watcher waits for
    the next change."""
    from jaxko.errors import UserError

    sphinx = WarmSphinx()
    done = 0
    try:
        while True:
            stamp = _stamp(inputs)
            try:
                build_once(sphinx)
            except UserError as err:
                say(f"jaxko: {err.format()}")
            done += 1
            if builds is not None and done >= builds:
                return 0
            say("watching for changes (Ctrl-C stops)")
            while _stamp(inputs) == stamp:
                time.sleep(interval)
            # An editor may save in steps: build once the files stop changing.
            settled = _stamp(inputs)
            while True:
                time.sleep(min(interval, 0.1))
                now = _stamp(inputs)
                if now == settled:
                    break
                settled = now
    except KeyboardInterrupt:
        say("stopped")
        return 0
    finally:
        sphinx.close()
