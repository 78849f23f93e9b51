"""A pytest plugin for ``jaxko notebooks verify``: one JSON line per finished notebook.

Loaded into the nbmake run with ``-p jaxko.notebooks.pytest_progress``; writes to the
file named by ``$JAXKO_NOTEBOOK_EVENTS``. With pytest-xdist only the controller
writes (it receives every worker's reports), so each notebook is one line, and the
parent process can draw a progress bar and read outcomes and durations from it.
"""

from __future__ import annotations

import json
import os


_EVENTS: dict[str, str | None] = {"path": None}


def pytest_sessionstart(session) -> None:
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller reports
        return
    _EVENTS["path"] = os.environ.get("JAXKO_NOTEBOOK_EVENTS")


def pytest_runtest_logreport(report) -> None:
    path = _EVENTS["path"]
    if not path:
        return
    # One line per notebook: the call phase, or a setup phase that did not pass.
    if report.when != "call" and not (report.when == "setup" and not report.passed):
        return
    summary = ""
    if report.failed:
        lines = [line for line in (report.longreprtext or "").splitlines() if line.strip()]
        summary = lines[-1] if lines else ""
    event = {"path": report.fspath, "outcome": report.outcome,
             "seconds": round(report.duration, 3), "summary": summary[:500]}
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(event, ensure_ascii=False) + "\n")
