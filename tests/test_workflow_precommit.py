"""The pre-commit hooks name real commands and pick the right files."""

from __future__ import annotations

import re
import shlex
import shutil

import pytest
import yaml

from jaxko.cli import main

from conftest import FIXTURES, ROOT, run_jaxko

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
BY_ID = {hook["id"]: hook for hook in HOOKS}


def test_hooks_are_complete():
    assert set(BY_ID) == {"jaxko-fmt", "jaxko-check", "jaxko-assignments", "jaxko-glossary"}
    for hook in HOOKS:
        assert {"id", "name", "entry", "language", "files"} <= set(hook)
        assert hook["entry"].startswith("jaxko ")


@pytest.mark.parametrize("hook_id", sorted(BY_ID))
def test_entry_is_a_real_command(hook_id, capsys):
    args = shlex.split(BY_ID[hook_id]["entry"])[1:]
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--help"])
    assert exit_info.value.code == 0


@pytest.mark.parametrize("hook_id, path, matches", [
    ("jaxko-fmt", "locale/ko/LC_MESSAGES/notebooks/thinking_in_jax.po", True),
    ("jaxko-fmt", "tests/fixtures/workflow/fmt/poedit.po", False),   # planted, unformatted
    ("jaxko-check", "locale/ko/LC_MESSAGES/index.po", True),
    ("jaxko-check", "locale/ko/assignments.yaml", False),
    ("jaxko-assignments", "locale/ko/assignments.yaml", True),
    ("jaxko-glossary", "glossary/ko.yaml", True),
    ("jaxko-glossary", "tests/fixtures/workflow/glossary/ko.yaml", False),
])
def test_files_patterns(hook_id, path, matches):
    assert bool(re.search(BY_ID[hook_id]["files"], path)) is matches


def test_fmt_hook_fails_on_a_poedit_file(tmp_path):
    poedit = tmp_path / "poedit.po"
    shutil.copy(FIXTURES / "workflow" / "fmt" / "poedit.po", poedit)
    clean = ROOT / "locale" / "ko" / "LC_MESSAGES" / "jax-101.po"
    args = shlex.split(BY_ID["jaxko-fmt"]["entry"])[1:]
    assert run_jaxko(*args, str(clean)).returncode == 0
    failed = run_jaxko(*args, str(clean), str(poedit))
    assert failed.returncode == 1 and str(poedit) in failed.stdout


def test_translator_guide_commands_parse(capsys):
    """Every `$ jaxko ...` line of the translator guide is a valid command line."""
    guide = (ROOT / "docs" / "translator-guide.md").read_text(encoding="utf-8")
    lines = [line.split("#")[0].strip()[2:] for line in guide.splitlines()
             if line.startswith("$ jaxko ")]
    assert len(lines) >= 12
    for line in lines:
        with pytest.raises(SystemExit) as exit_info:
            main([*shlex.split(line)[1:], "--help"])
        assert exit_info.value.code == 0, line
