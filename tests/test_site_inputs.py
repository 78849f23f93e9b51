"""`jaxko site build` on broken inputs, and its progress when the output is piped.

A glossary, catalog, assignments file or review record that does not read stops the
build: exit 2, one line `file:line: what; what to do`, no traceback, and no page is
published with a placeholder where the broken input's content belongs. A plain
sphinx-build with a glossary that does not load fails too. The clean case builds.

Piped (a CI log), the build prints a line with counts while Sphinx runs, at least every
`Progress.INTERVAL` seconds (here shortened by $JAXKO_PROGRESS_INTERVAL), and a line
with the notebooks executed N/M while notebooks run.

The clean case is built once, piped, as a real process (``clean_build``): the progress
test reads its stderr, the glossary test its pages. The broken inputs stop the build in
this process (``jaxko.cli.main``, output captured at the file descriptors; an escaping
exception fails the test), one of them as a real process.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, run_jaxko, run_jaxko_in_process
from jaxko.site.build import Progress

SITE = FIXTURES / "site"

# name: (file relative to the case folder, bytes written there, file named in the error)
BROKEN = {
    "glossary-yaml": ("glossary.yaml", b"terms: [\n", "glossary.yaml:2:"),
    "glossary-duplicate": ("glossary.yaml",
                           "terms:\n  - en: array\n    ko: 배열\n  - en: array\n    ko: 배열\n"
                           .encode(), "glossary.yaml:"),
    "glossary-missing-ko": ("glossary.yaml", b"terms:\n  - en: array\n", "glossary.yaml:"),
    "catalog-unterminated": ("locale/ko/LC_MESSAGES/guide.po", None, "guide.po:"),
    "assignments-yaml": ("locale/ko/assignments.yaml", b"guide.md: [\n", "assignments.yaml:2:"),
    "assignments-status": ("locale/ko/assignments.yaml",
                           b"guide.md:\n  translator: x\n  status: bogus\n", "assignments.yaml"),
    "review-yaml": ("locale/ko/reviews/guide.yaml", b"- key: x\n  reviewer: [1\n",
                    "guide.yaml:"),
}
AS_PROCESS = "catalog-unterminated"  # the case run as a real `jaxko` process
PLACEHOLDERS = ("읽지 못했습니다", "아직 없습니다", "카탈로그가 없습니다")


def _project(tmp_path: Path) -> Path:
    shutil.copytree(SITE / "docs", tmp_path / "docs")
    shutil.copytree(SITE / "locale", tmp_path / "locale")
    shutil.copyfile(SITE / "glossary.yaml", tmp_path / "glossary.yaml")
    return tmp_path


def _build(project: Path, run=run_jaxko, **env) -> subprocess.CompletedProcess:
    return run("site", "build", "--no-execute", "--no-notebooks",
               "--srcdir", str(project / "docs"), "--outdir", str(project / "html"),
               "--locale-dir", str(project / "locale"),
               "--glossary", str(project / "glossary.yaml"), env=env)


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_input_stops_the_build_with_one_line(tmp_path, case):
    project = _project(tmp_path)
    rel, data, named = BROKEN[case]
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if data is None:  # an unterminated string appended to a real catalog
        data = path.read_bytes() + b'\nmsgid "x"\nmsgstr "y\n'
    path.write_bytes(data)
    proc = _build(project, run_jaxko if case == AS_PROCESS else run_jaxko_in_process)
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr[-500:])
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = [line for line in (proc.stderr + proc.stdout).splitlines() if line.strip()]
    assert len(lines) == 1 and named in lines[0] and str(path) in lines[0], lines
    assert re.match(r"jaxko: \S+:(\d+:)? \S", lines[0]), lines
    published = list((project / "html").rglob("*.html")) if (project / "html").exists() else []
    assert not any(p in page.read_text(encoding="utf-8") for page in published
                   for p in PLACEHOLDERS)


@pytest.fixture(scope="module")
def clean_build(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The fixture site with clean inputs, built once by a real `jaxko` process whose
    output is piped, with a short progress interval: the project and the process."""
    project = _project(tmp_path_factory.mktemp("clean"))
    return project, _build(project, JAXKO_PROGRESS_INTERVAL="0.3")


def test_clean_inputs_build_and_the_glossary_page_shows_the_terms(clean_build):
    project, proc = clean_build
    assert proc.returncode == 0, proc.stderr[-1000:]
    glossary = (project / "html" / "translation" / "glossary.html").read_text(encoding="utf-8")
    assert "용어 4개" in glossary and "<strong>array</strong>" in glossary
    assert not any(p in glossary for p in PLACEHOLDERS)


def test_plain_sphinx_build_fails_on_a_glossary_that_does_not_load(tmp_path):
    """Without `jaxko site build` in front, the glossary page itself refuses."""
    project = _project(tmp_path)
    (project / "glossary.yaml").write_text("terms: [\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(ROOT),
         "-D", "language=ko", "-D", f"locale_dirs={project / 'locale'}",
         "-D", f"jaxko_glossary_path={project / 'glossary.yaml'}",
         str(project / "docs"), str(project / "html")],
        capture_output=True, text=True, env={**__import__("os").environ,
                                             "JAXKO_SRCDIR": str(project / "docs")})
    assert proc.returncode != 0
    assert "glossary.yaml:2: YAML syntax error" in proc.stderr, proc.stderr[-800:]
    page = project / "html" / "translation" / "glossary.html"
    assert not page.exists() or "읽지 못했습니다" not in page.read_text(encoding="utf-8")


# -------------------------------------------------------------------------- progress

HEARTBEAT = re.compile(r"Sphinx: (\d+)/(\d+) documents read, (\d+) pages written, \d+ s")


def test_piped_build_prints_counts_while_sphinx_runs(clean_build):
    assert Progress.INTERVAL <= 15
    _, proc = clean_build
    assert proc.returncode == 0, proc.stderr[-800:]
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    beats = [HEARTBEAT.fullmatch(line) for line in lines]
    counts = [tuple(map(int, m.groups())) for m in beats if m]
    final = re.fullmatch(r"Sphinx: (\d+) documents read, (\d+) pages written, [\d.]+ s", lines[-1])
    assert final, lines
    assert len(counts) >= 2, lines
    assert all(total == int(final.group(1)) for _read, total, _pages in counts), counts
    assert counts == sorted(counts)  # counts only grow
    assert "\r" not in proc.stderr
    others = [line for line, m in zip(lines, beats) if not m][:-1]
    assert all(re.fullmatch(r"Sphinx: loading the extensions and the environment, \d+ s", line)
               for line in others), others


def test_notebook_progress_lines_come_from_verify_counts():
    """verify's watcher reports executed/total to the build's heartbeat (the real
    execution path is covered in test_site_korean_outputs)."""
    from jaxko.notebooks import verify

    stream = io.StringIO()
    shown = Progress(True, stream=stream, interval=0.1)
    assert not shown.live
    with tempfile_events() as events, shown.notebooks() as update:
        assert callable(update)
        stop = threading.Event()
        watcher = threading.Thread(target=verify._watch, args=(events, 3, stop, update))
        watcher.start()
        time.sleep(0.35)
        events.write_text('{"path": "a.ipynb"}\n{"path": "b.ipynb"}\n', encoding="utf-8")
        time.sleep(0.9)
        stop.set()
        watcher.join()
    lines = stream.getvalue().splitlines()
    assert any(re.fullmatch(r"executing Korean notebooks: checking which notebooks changed, \d+ s", l)
               for l in lines) or any("0/3" in line for line in lines), lines
    assert any(re.fullmatch(r"executing Korean notebooks: 2/3 notebooks executed, \d+ s", line)
               for line in lines), lines


class tempfile_events:
    def __enter__(self) -> Path:
        import tempfile

        self._dir = tempfile.TemporaryDirectory()
        path = Path(self._dir.name) / "events.jsonl"
        path.touch()
        return path

    def __exit__(self, *exc) -> None:
        self._dir.cleanup()
