"""Work spread over forked processes, one per core, where forking is safe.

The site build's stages that read every catalog or page (the stats, the gate's copies,
the audit) are independent per file. A fork shares what the parent has loaded, and
copies only the thread that forks: a process that runs another thread (JAX's, a
progress heartbeat) could leave a lock held in the child, so there the work runs in
order instead.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from typing import Callable, Iterable, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def single_threaded() -> bool:
    """Whether this process runs one thread, native ones included."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return threading.active_count() == 1


def can_fork() -> bool:
    """Whether this process may fork now: the platform forks, and no other thread runs."""
    return "fork" in multiprocessing.get_all_start_methods() and single_threaded()


def fork_map(function: Callable[[T], R], items: Iterable[T], *, chunksize: int = 4) -> list[R]:
    """``[function(item) for item in items]``, in forked workers (one per core) when
    there are several items and forking is safe; an exception in one is raised here."""
    items = list(items)
    workers = min(os.cpu_count() or 1, len(items))
    if workers < 2 or not can_fork():
        return [function(item) for item in items]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(function, items, chunksize=chunksize)
