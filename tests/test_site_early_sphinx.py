"""jaxko.site.early_sphinx: Sphinx's process starts with the build and imports while the
inputs are checked; the pages are those of a process started when Sphinx is needed
(real Sphinx, the gate's fixture tree)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import processes_mentioning
from jaxko.errors import UserError
from jaxko.extract import sphinx_env
from jaxko.site import build as site_build
from jaxko.site.early_sphinx import EarlySphinx
from jaxko.site.state import BuildState
from test_site_gate import _tree


def _early_processes() -> list[int]:
    """This process's children that are an early Sphinx."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == os.getpid() and b"jaxko.site.early_sphinx" in cmdline:
            found.append(int(stat.parent.name))
    return found


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.name != ".buildinfo"}


# The builds below index for search without Kiwi's morphology (the rules alone): what
# they compare is what Sphinx wrote in a process started early or when needed. Kiwi's
# process forked from an early Sphinx process, listed imports included:
# test_site_kiwi_process (a first build and a rebuild).
RULES = {"jaxko_search_morphology": "0"}


def test_the_pages_are_those_of_a_process_started_when_needed(tmp_path):
    docs, locale = _tree(tmp_path, hostile=False)
    plain = site_build.build(execute=False, srcdir=docs, outdir=tmp_path / "plain",
                             locale_dir=locale, sphinx=subprocess.run, overrides=RULES)
    early_out = tmp_path / "early"
    site_build.build(execute=False, srcdir=docs, outdir=early_out, locale_dir=locale,
                     overrides=RULES)
    listed = BuildState(early_out).folder / "sphinx-modules.txt"
    names = listed.read_text(encoding="utf-8").split()
    assert "sphinx.application" in names and "myst_nb" in names
    assert not any(name == "jax" or name.startswith("jax.") for name in names)
    # Again from nothing but the list: this time the process imports it all first.
    for folder in (early_out, BuildState(early_out).doctrees):
        shutil.rmtree(folder)
    early = site_build.build(execute=False, srcdir=docs, outdir=early_out, locale_dir=locale,
                             overrides=RULES)
    assert (early.pages, early.warnings) == (plain.pages, plain.warnings)
    theirs, ours = _files(tmp_path / "plain"), _files(early_out)
    assert len([name for name in theirs if name.endswith(".html")]) >= 5
    assert sorted(ours) == sorted(theirs)
    assert [name for name in theirs if ours[name] != theirs[name]] == []
    assert _early_processes() == []


def test_a_build_stopped_by_a_broken_input_ends_the_process(tmp_path):
    docs, locale = _tree(tmp_path, hostile=False)
    catalog = locale / "ko" / "LC_MESSAGES" / "page.po"
    catalog.write_text(catalog.read_text(encoding="utf-8") + '\nmsgid "broken\n',
                       encoding="utf-8")
    with pytest.raises(UserError, match="page.po"):
        site_build.build(execute=False, srcdir=docs, outdir=tmp_path / "html",
                         locale_dir=locale)
    assert _early_processes() == []
    # nor any process of its own (the search extension's Kiwi starts only in Sphinx)
    assert processes_mentioning(str(tmp_path)) == []
    assert not (tmp_path / "html" / "index.html").exists()


def test_a_command_it_cannot_run_gets_a_process_of_its_own(tmp_path):
    """Another hash seed than the one it started with (it cannot change its own), or a
    second command: each runs in a new process, and the early one ends."""
    env = sphinx_env()
    early = EarlySphinx(env, tmp_path / "modules.txt")
    try:
        command = [sys.executable, "-m", "sphinx", "--version"]
        other_seed = early(command, env={**env, "PYTHONHASHSEED": "1"},
                           stderr=subprocess.PIPE, text=True)
        assert other_seed.returncode == 0
        assert _early_processes() == []
        again = early(command, env=env, stderr=subprocess.PIPE, text=True)
        assert again.returncode == 0
    finally:
        early.close()


def test_the_process_runs_the_command_it_is_given(tmp_path):
    env = sphinx_env()
    early = EarlySphinx(env, tmp_path / "modules.txt")
    try:
        done = early([sys.executable, "-m", "sphinx", "-b", "nonesuch", str(tmp_path),
                      str(tmp_path / "out")], env=env, stderr=subprocess.PIPE, text=True)
    finally:
        early.close()
    assert done.returncode != 0
    assert "nonesuch" in done.stderr or "conf.py" in done.stderr
    assert _early_processes() == []


def _conf_with_marker(tmp_path: Path, conf: str) -> tuple[Path, Path, dict]:
    """A conf.py naming an extension that leaves a file when it is imported."""
    confdir, marker = tmp_path / "conf", tmp_path / "imported"
    confdir.mkdir()
    (confdir / "marker_ext.py").write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('yes')\n"
        "def setup(app):\n    return {'parallel_read_safe': True}\n", encoding="utf-8")
    (confdir / "conf.py").write_text(conf, encoding="utf-8")
    env = {**sphinx_env(), "PYTHONPATH": str(confdir)}
    return confdir, marker, env


def _appears(path: Path, seconds: float = 30.0) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.1)
    return False


def test_a_first_build_imports_what_its_conf_names_before_its_command(tmp_path):
    """No list of modules yet (a first build): the process imports the extensions
    conf.py names while it waits, before any command reaches it."""
    confdir, marker, env = _conf_with_marker(
        tmp_path, "extensions = ['marker_ext']\nhtml_theme = 'alabaster'\n")
    early = EarlySphinx(env, tmp_path / "modules.txt", confdir=confdir)
    try:
        assert _appears(marker)
    finally:
        early.close()
    assert _early_processes() == []


def test_a_listed_build_imports_its_list_not_its_conf(tmp_path):
    """With a list (a build ran before), the list is what is imported; a conf.py that
    fails to evaluate is left for Sphinx to report, and the process still runs."""
    confdir, marker, env = _conf_with_marker(tmp_path, "extensions = ['marker_ext']\n")
    listed = tmp_path / "modules.txt"
    listed.write_text("json\n", encoding="utf-8")
    early = EarlySphinx(env, listed, confdir=confdir)
    try:
        done = early([sys.executable, "-m", "sphinx", "--version"], env=env,
                     stderr=subprocess.PIPE, text=True)
    finally:
        early.close()
    assert done.returncode == 0 and not marker.exists()

    (confdir / "conf.py").write_text("raise RuntimeError('broken conf')\n", encoding="utf-8")
    early = EarlySphinx(env, tmp_path / "none.txt", confdir=confdir)
    try:
        done = early([sys.executable, "-m", "sphinx", "-b", "html", str(confdir),
                      str(tmp_path / "out")], env=env, stderr=subprocess.PIPE, text=True)
    finally:
        early.close()
    assert done.returncode != 0 and "broken conf" in done.stderr
    assert _early_processes() == []


def test_sphinx_runs_with_the_collector_set_for_a_build(tmp_path):
    """The build's process collects at GC_THRESHOLDS, with what it imported before
    frozen; the pages stay those of a plain process (the test above)."""
    from jaxko.site.early_sphinx import GC_THRESHOLDS

    confdir, seen = tmp_path / "conf", tmp_path / "seen.txt"
    confdir.mkdir()
    (confdir / "conf.py").write_text(
        "import gc\nfrom pathlib import Path\n"
        "def setup(app):\n"
        f"    Path({str(seen)!r}).write_text(repr((gc.get_threshold(), gc.get_freeze_count())))\n",
        encoding="utf-8")
    (confdir / "index.rst").write_text("Title\n=====\n\nText.\n", encoding="utf-8")
    env = sphinx_env()
    early = EarlySphinx(env, tmp_path / "modules.txt")
    try:
        done = early([sys.executable, "-m", "sphinx", "-b", "html", "-q", str(confdir),
                      str(tmp_path / "out")], env=env, stderr=subprocess.PIPE, text=True)
    finally:
        early.close()
    assert done.returncode == 0, done.stderr
    thresholds, frozen = ast.literal_eval(seen.read_text(encoding="utf-8"))
    assert thresholds == GC_THRESHOLDS and frozen > 10_000
    plain = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", str(confdir),
                            str(tmp_path / "plain")], env=env, capture_output=True, text=True)
    assert plain.returncode == 0
    assert ast.literal_eval(seen.read_text(encoding="utf-8"))[0] != GC_THRESHOLDS  # Python's
