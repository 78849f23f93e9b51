"""``jaxko site watch``: builds again after each edit, through a warm Sphinx process,
and writes the pages ``jaxko site build`` writes (real Sphinx, the gate's fixture tree)."""

from __future__ import annotations

import json
import os
import shutil
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


def _interruptible() -> None:
    # As in a terminal: a runner started in the background ignores SIGINT, and the
    # watcher would inherit that (Python then installs no KeyboardInterrupt handler).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "jaxko", "site", "watch", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "JAXKO_PROGRESS_INTERVAL": "1000"},
                            preexec_fn=_interruptible)


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


def _tree_of(folder: Path) -> tuple[Path, Path, Path]:
    docs, locale = _tree(folder, hostile=False)
    return docs, locale, locale / "ko" / "LC_MESSAGES" / "page.po"


EDITED = "고양이자동차를 새로 씁니다."


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    """One watcher, two builds, read by the tests below: ``jaxko site build`` of the tree
    into ``command``; the watcher's first build of it into ``html`` (copied to ``first``
    once it watches); then EDITED saved for 'Paragraph 1 of page.' and the build that
    starts; then ``jaxko site build`` of the edited tree into ``fresh``. Keys: ``tmp``,
    ``tree``, ``before`` and ``rest`` (what the watcher printed before the edit and
    after), ``returncode``, ``shown`` (whether EDITED was on the page before the edit)."""
    tmp = tmp_path_factory.mktemp("watched")
    tree = _tree_of(tmp)
    docs, locale, catalog = tree
    built = run_jaxko("site", "build", *_options(docs, locale, tmp / "command"))
    assert built.returncode == 0, built.stdout + built.stderr
    outdir = tmp / "html"
    proc = _start(*_options(docs, locale, outdir), "--builds", "2")
    seen: list[str] = []
    try:
        _until_watching(proc, seen)
        shutil.copytree(outdir, tmp / "first")
        shown = EDITED in (outdir / "page.html").read_text(encoding="utf-8")
        _set(catalog, "Paragraph 1 of page.", EDITED)
        rest, _ = proc.communicate(timeout=300)
    finally:
        proc.kill()
    fresh = run_jaxko("site", "build", *_options(docs, locale, tmp / "fresh"))
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    return {"tmp": tmp, "tree": tree, "before": "".join(seen), "rest": rest,
            "returncode": proc.returncode, "shown": shown}


def test_an_edit_is_built_again_and_shows_on_the_page(watched):
    before, rest = watched["before"], watched["rest"]
    output = before + rest
    assert watched["returncode"] == 0, output
    assert not watched["shown"], before
    assert output.count("built ") == 2, output
    assert "Sphinx: 1 documents read" in rest, rest  # the edited page only
    assert EDITED in (watched["tmp"] / "html" / "page.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """A watcher without ``--builds``: its first build; a broken catalog saved (it
    reports it and watches again); the fix saved and built; then Ctrl-C (SIGINT). Keys:
    ``tree``, ``outdir``, ``seen`` (what it printed before the Ctrl-C), ``rest`` (after
    it), ``returncode``."""
    tmp = tmp_path_factory.mktemp("interrupted")
    tree = _tree_of(tmp)
    docs, locale, catalog = tree
    outdir = tmp / "html"
    proc = _start(*_options(docs, locale, outdir))
    seen: list[str] = []
    good = catalog.read_text(encoding="utf-8")
    try:
        _until_watching(proc, seen)
        catalog.write_text(good + '\nmsgid "broken\n', encoding="utf-8")
        _until_watching(proc, seen)
        catalog.write_text(good.replace(_msgstr_line(good), 'msgstr "고친 뒤의 문단입니다."'),
                           encoding="utf-8")
        _until_watching(proc, seen)
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return {"tree": tree, "outdir": outdir, "seen": "".join(seen), "rest": rest,
            "returncode": proc.returncode}


def test_a_broken_catalog_is_one_line_and_the_watcher_waits_for_the_fix(interrupted):
    _docs, _locale, catalog = interrupted["tree"]
    output = interrupted["seen"] + interrupted["rest"]
    assert interrupted["returncode"] == 0, output
    assert output.count("built ") == 2, output  # the first build and the fixed one
    errors = [line for line in output.splitlines() if line.startswith("jaxko: ")]
    assert len(errors) == 1 and f"{catalog.name}:" in errors[0], output
    assert "Traceback" not in output
    assert "고친 뒤의 문단입니다." in (interrupted["outdir"] / "page.html").read_text(encoding="utf-8")


def _msgstr_line(text: str) -> str:
    """The msgstr line of 'Paragraph 1 of page.' in a catalog's text."""
    lines = text.splitlines()
    start = lines.index('msgid "Paragraph 1 of page."')
    return next(line for line in lines[start:] if line.startswith("msgstr "))


def test_the_watcher_writes_the_pages_the_build_command_writes(watched):
    """Forks of a warm process, not a process per build: the same bytes, page for page
    (the watcher's first build against the command's build of the same tree)."""
    command, first = watched["tmp"] / "command", watched["tmp"] / "first"
    pages = sorted(p.relative_to(command) for p in command.rglob("*")
                   if p.is_file() and p.name != ".buildinfo")
    assert len([p for p in pages if p.suffix == ".html"]) >= 5
    different = [str(p) for p in pages
                 if (command / p).read_bytes() != (first / p).read_bytes()]
    assert different == []


def test_an_edits_new_korean_is_indexed_as_a_fresh_build_indexes_it(watched):
    """Each watched build's fork starts Kiwi's process as Sphinx reads its configuration
    (jaxko.site.ext.search.KiwiProcess): the search index after a watched edit is that
    of a fresh build of the edited catalogs, and nothing is left running when the
    watcher ends."""
    tmp = watched["tmp"]
    assert watched["returncode"] == 0, watched["before"] + watched["rest"]
    index = (tmp / "html" / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(index[index.index("(") + 1: index.rindex(")")])["terms"]
    assert stem("자동차") in terms  # a noun only Kiwi finds, inside 고양이자동차를
    assert index == (tmp / "fresh" / "searchindex.js").read_text(encoding="utf-8")
    assert processes_mentioning(str(tmp)) == []


def test_ctrl_c_stops_the_watcher_cleanly(interrupted):
    rest = interrupted["rest"]
    assert interrupted["returncode"] == 0, interrupted["seen"] + rest
    assert rest.strip().splitlines()[-1] == "stopped"
    assert "Traceback" not in rest
    assert "stopped" not in interrupted["seen"]  # it stopped at the Ctrl-C, not before


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
