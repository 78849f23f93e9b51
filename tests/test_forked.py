"""jaxko.forked.fork_map: the list a loop would give, from forked workers when safe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from conftest import ROOT
from jaxko.errors import UserError
from jaxko.forked import fork_map, single_threaded


def _square_and_pid(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def _fails_on_seven(n: int) -> int:
    if n == 7:
        raise UserError("seven is broken", "seven.po", 7)
    return n


def test_results_in_order_from_other_processes():
    """In a process of its own (a test runner's worker may run threads of its own,
    and then fork_map rightly stays in order)."""
    code = ("import json, os\n"
            "from jaxko.forked import fork_map, single_threaded\n"
            "from test_forked import _square_and_pid\n"
            "print(json.dumps([single_threaded(), os.getpid(), "
            "fork_map(_square_and_pid, range(40))]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "tools"), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)
    alone, own_pid, results = json.loads(proc.stdout)
    assert alone
    assert [square for square, _ in results] == [n * n for n in range(40)]
    if (os.cpu_count() or 1) > 1:  # one core: no worker to fork, rightly
        assert own_pid not in {pid for _, pid in results}  # every item in a worker


def test_an_error_in_a_worker_is_the_one_line_error_here():
    with pytest.raises(UserError) as raised:
        fork_map(_fails_on_seven, range(20))
    assert raised.value.format() == "seven.po:7: seven is broken"


def test_with_another_thread_running_the_work_stays_in_this_process():
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not single_threaded()
        results = fork_map(_square_and_pid, range(10))
    finally:
        stop.set()
        other.join()
    assert {pid for _, pid in results} == {os.getpid()}
    assert [square for square, _ in results] == [n * n for n in range(10)]
