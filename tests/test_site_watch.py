"""``jaxko site watch``: builds again after each edit, through a warm Sphinx process,
and writes the pages ``jaxko site build`` writes (real Sphinx, the gate's fixture tree)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from conftest import ROOT, processes_mentioning, run_jaxko
from jaxko.site.ext.search import stem
from test_site_gate import _tree

BUILD = ("--no-execute", "--no-notebooks")


def _options(docs: Path, locale: Path, outdir: Path) -> list[str]:
    return [*BUILD, "--srcdir", str(docs), "--locale-dir", str(locale), "--outdir", str(outdir)]


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "jaxko", "site", "watch", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "JAXKO_PROGRESS_INTERVAL": "1000"})


def _until_watching(proc: subprocess.Popen, seen: list[str]) -> None:
    for line in proc.stdout:
        seen.append(line)
        if line.startswith("watching for changes"):
            return
    raise AssertionError("the watcher stopped before watching:\n" + "".join(seen))


def _set(catalog: Path, msgid: str, msgstr: str) -> None:
    po = polib.pofile(str(catalog))
    po.find(msgid).msgstr = msgstr
    po.save(str(catalog))


@pytest.fixture
def tree(tmp_path):
    docs, locale = _tree(tmp_path, hostile=False)
    return docs, locale, locale / "ko" / "LC_MESSAGES" / "page.po"


def _one_edit_watched(tree, outdir: Path, msgstr: str) -> tuple[str, str]:
    """The watcher's first build, then ``msgstr`` saved for 'Paragraph 1 of page.' and
    the build it starts; what it printed before the edit and after."""
    docs, locale, catalog = tree
    proc = _start(*_options(docs, locale, outdir), "--builds", "2")
    seen: list[str] = []
    try:
        _until_watching(proc, seen)
        assert msgstr not in (outdir / "page.html").read_text(encoding="utf-8")
        _set(catalog, "Paragraph 1 of page.", msgstr)
        rest, _ = proc.communicate(timeout=300)
    finally:
        proc.kill()
    assert proc.returncode == 0, "".join(seen) + rest
    return "".join(seen), rest


def test_an_edit_is_built_again_and_shows_on_the_page(tree, tmp_path):
    outdir = tmp_path / "html"
    before, rest = _one_edit_watched(tree, outdir, "고쳐 쓴 문단입니다.")
    output = before + rest
    assert output.count("built ") == 2, output
    assert "Sphinx: 1 documents read" in rest, rest  # the edited page only
    assert "고쳐 쓴 문단입니다." in (outdir / "page.html").read_text(encoding="utf-8")


def test_a_broken_catalog_is_one_line_and_the_watcher_waits_for_the_fix(tree, tmp_path):
    docs, locale, catalog = tree
    outdir = tmp_path / "html"
    proc = _start(*_options(docs, locale, outdir), "--builds", "3")
    seen: list[str] = []
    good = catalog.read_text(encoding="utf-8")
    try:
        _until_watching(proc, seen)
        catalog.write_text(good + '\nmsgid "broken\n', encoding="utf-8")
        _until_watching(proc, seen)
        catalog.write_text(good.replace(_msgstr_line(good), 'msgstr "고친 뒤의 문단입니다."'),
                           encoding="utf-8")
        rest, _ = proc.communicate(timeout=300)
    finally:
        proc.kill()
    output = "".join(seen) + rest
    assert proc.returncode == 0, output
    errors = [line for line in output.splitlines() if line.startswith("jaxko: ")]
    assert len(errors) == 1 and f"{catalog.name}:" in errors[0], output
    assert "Traceback" not in output
    assert "고친 뒤의 문단입니다." in (outdir / "page.html").read_text(encoding="utf-8")


def _msgstr_line(text: str) -> str:
    """The msgstr line of 'Paragraph 1 of page.' in a catalog's text."""
    lines = text.splitlines()
    start = lines.index('msgid "Paragraph 1 of page."')
    return next(line for line in lines[start:] if line.startswith("msgstr "))


def test_the_watcher_writes_the_pages_the_build_command_writes(tree, tmp_path):
    """Forks of a warm process, not a process per build: the same bytes, page for page."""
    docs, locale, _catalog = tree
    built = run_jaxko("site", "build", *_options(docs, locale, tmp_path / "a"))
    assert built.returncode == 0, built.stdout + built.stderr
    proc = _start(*_options(docs, locale, tmp_path / "b"), "--builds", "1")
    output, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, output
    pages = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*")
                   if p.is_file() and p.name != ".buildinfo")
    assert len([p for p in pages if p.suffix == ".html"]) >= 5
    different = [str(p) for p in pages
                 if (tmp_path / "a" / p).read_bytes() != (tmp_path / "b" / p).read_bytes()]
    assert different == []


def test_an_edits_new_korean_is_indexed_as_a_fresh_build_indexes_it(tree, tmp_path):
    """Each watched build's fork starts Kiwi's process as Sphinx reads its configuration
    (jaxko.site.ext.search.KiwiProcess): the search index after a watched edit is that
    of a fresh build of the edited catalogs, and nothing is left running when the
    watcher ends."""
    docs, locale, _catalog = tree
    outdir = tmp_path / "html"
    _one_edit_watched(tree, outdir, "고양이자동차를 새로 씁니다.")
    fresh = run_jaxko("site", "build", *_options(docs, locale, tmp_path / "fresh"))
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    watched = (outdir / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(watched[watched.index("(") + 1: watched.rindex(")")])["terms"]
    assert stem("자동차") in terms  # a noun only Kiwi finds, inside 고양이자동차를
    assert watched == (tmp_path / "fresh" / "searchindex.js").read_text(encoding="utf-8")
    assert processes_mentioning(str(tmp_path)) == []


def test_ctrl_c_stops_the_watcher_cleanly(tree, tmp_path):
    docs, locale, _catalog = tree
    proc = _start(*_options(docs, locale, tmp_path / "html"))
    seen: list[str] = []
    try:
        _until_watching(proc, seen)
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, "".join(seen) + rest
    assert rest.strip().splitlines()[-1] == "stopped"
    assert "Traceback" not in rest


def test_a_warm_process_that_died_leaves_a_process_per_build():
    """In a process of its own: the warm process is forked when WarmSphinx is made, which
    must be before any thread starts (a test runner's worker may run JAX's)."""
    code = """
import os, subprocess, sys
from jaxko.site.watch import WarmSphinx
sphinx = WarmSphinx()
try:
    command = [sys.executable, "-m", "sphinx", "--version"]
    first = sphinx(command, env=dict(os.environ), stderr=subprocess.PIPE, text=True)
    sphinx._process.kill()
    sphinx._process.join()
    again = sphinx(command, env=dict(os.environ), stderr=subprocess.PIPE, text=True)
    print(first.returncode, again.returncode, sphinx._process.is_alive())
finally:
    sphinx.close()
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "tools")})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-3:] == ["0", "0", "False"], proc.stdout + proc.stderr
