"""Native writes from translated code (issue #41): Landlock under the audit hooks.

The upstream cell ``log_dir = 'trace'; jax.profiler.start_trace(log_dir)`` with only the
string changed wrote XLA's profile outside the notebook's folder: the audit hooks see
Python's writes, not XLA's C++. Three layers here:

* the static check follows a changed string through the cell's variables to the call
  that receives it, so that translation no longer builds;
* where the runner's kernel offers Landlock, each kernel is held to writing beneath
  its notebook's folder, native code included: the profiler payload run anyway
  (``--allow-unchecked-code``) leaves no file behind, shown by a marker folder, and the
  report names the protection (``landlock+audit-hooks``);
* the planted fault: the same payload under the audit hooks alone does write there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jaxko.notebooks import sandbox, verify
from jaxko.notebooks.literals import changed_literal
from test_notebooks_sandbox import _build, _project

UPSTREAM = "import jax\nlog_dir = 'trace'\njax.profiler.start_trace(log_dir)"
STOP = "import jax.numpy as jnp\njnp.ones(3).sum().block_until_ready()\njax.profiler.stop_trace()"


def _payload(marker: Path) -> str:
    return f"import jax\nlog_dir = '{marker}'\njax.profiler.start_trace(log_dir)"


def test_static_check_follows_the_string_through_its_variable(tmp_path):
    message = changed_literal(UPSTREAM, _payload(tmp_path / "outside"))
    assert message is not None and "stored in `log_dir`, which is passed to " \
        "jax.profiler.start_trace()" in message
    # a string shown, through a variable, stays translatable
    assert changed_literal("msg = 'done'\nprint(msg)", "msg = '끝'\nprint(msg)") is None
    assert changed_literal("label = 'loss'\nplt.title(label)",
                           "label = '손실'\nplt.title(label)") is None


needs_landlock = pytest.mark.skipif(
    sandbox.landlock_abi() < 1, reason="this machine's kernel offers no Landlock "
    "(CI sets JAXKO_REQUIRE_LANDLOCK=1 where it must)")

_SCRIPT = """
import json, os, sys
from jaxko.notebooks import sandbox
policy = sandbox.Policy.from_dict(json.loads(sys.argv[1]))
log = sandbox.RefusalLog.open(policy.violations)  # as the launcher: before Landlock
kind = sandbox.restrict_writes(policy) if sys.argv[2] == "landlock" else sandbox.KIND
sandbox.install(policy, log=log)
print(kind, flush=True)
import jax, jax.numpy as jnp
jax.profiler.start_trace(sys.argv[3])
jnp.ones(3).sum().block_until_ready()
try:
    jax.profiler.stop_trace()
except Exception as err:
    print(type(err).__name__, str(err)[:200])
"""


def _run_boxed(tmp_path: Path, layer: str) -> tuple[str, Path]:
    box = tmp_path / layer / "box"
    for folder in (box / ".home", box / ".tmp"):
        folder.mkdir(parents=True)
    marker = tmp_path / layer / "outside-marker"
    policy = sandbox.Policy("payload.ipynb", str(box), str(box), str(box / ".home"),
                            str(box / ".tmp"), str(tmp_path / layer / "violations.jsonl"))
    out = subprocess.run([sys.executable, "-c", _SCRIPT, json.dumps(policy.as_dict()), layer,
                          str(marker)], cwd=box, capture_output=True, text=True, timeout=300,
                         env={**__import__("os").environ, "JAX_PLATFORMS": "cpu"})
    return out.stdout + out.stderr, marker


@needs_landlock
def test_the_profiler_write_escapes_audit_hooks_and_not_landlock(tmp_path):
    shown, marker = _run_boxed(tmp_path, "hooks")
    assert shown.startswith("audit-hooks")
    assert any(marker.rglob("*.xplane.pb")), shown     # the fault: XLA wrote outside
    shown, marker = _run_boxed(tmp_path, "landlock")
    assert shown.startswith("landlock+audit-hooks"), shown
    assert "PERMISSION_DENIED" in shown or "Permission denied" in shown, shown
    assert not marker.exists() or not any(marker.rglob("*")), shown


@needs_landlock
def test_verify_runs_kernels_under_landlock_and_says_so(tmp_path, monkeypatch):
    marker = tmp_path / "outside-marker"
    docs = _project(tmp_path, {
        "profile": [(UPSTREAM, []), (STOP, [])],
        "clean": [("with open('inside.txt', 'w') as f:\n    f.write('ok')", [])],
    }, {"profile": {UPSTREAM: _payload(marker)}, "clean": {}})
    _build(tmp_path, docs, static_check=False)
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    report = verify.verify(srcdir=docs, workers=1, static_check=False)
    results = {r.notebook: r for r in report.results}
    assert report.options["sandbox"] == "landlock+audit-hooks"
    assert results["profile.ipynb"].status == "failed"
    assert results["profile.ipynb"].sandbox == "landlock+audit-hooks"
    assert "Permission denied" in results["profile.ipynb"].error or \
        "PERMISSION_DENIED" in results["profile.ipynb"].error, results["profile.ipynb"].error
    assert not marker.exists() or not any(marker.rglob("*"))
    assert (results["clean.ipynb"].status, results["clean.ipynb"].sandbox) == \
        ("unchecked", "landlock+audit-hooks")
    assert report.results[0].as_dict()["sandbox"] == "landlock+audit-hooks"


def test_ci_that_requires_landlock_fails_without_it(tmp_path, monkeypatch):
    monkeypatch.setenv(sandbox.REQUIRE_ENV, "1")
    monkeypatch.setattr(sandbox, "landlock_abi", lambda: 0)   # a runner without it
    docs = _project(tmp_path, {"clean": [("print('hi')", [])]}, {"clean": {}})
    _build(tmp_path, docs)
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    from jaxko.errors import UserError

    with pytest.raises(UserError, match="JAXKO_REQUIRE_LANDLOCK=1 but this runner offers no "
                                        "Landlock"):
        verify.verify(srcdir=docs, workers=1)


def test_an_exempt_notebook_is_reported_with_audit_hooks_only():
    assert sandbox.protection(True) == sandbox.KIND
