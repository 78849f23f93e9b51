"""jaxko.sphinxext.missing_deps: a document whose included file is missing is read again
when the file appears, not on every build (real Sphinx, a two-page fixture project)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

CONF = '''
import json, sys
sys.path.insert(0, {tools!r})
extensions = {extensions!r}
def _record(app, env, docnames):
    with open({log!r}, "a") as out:
        out.write(json.dumps(sorted(docnames)) + "\\n")
def setup(app):
    app.connect("env-before-read-docs", _record)
'''


def _project(tmp_path: Path, extensions: list[str]) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    tools = str(Path(__file__).resolve().parents[1] / "tools")
    (src / "conf.py").write_text(CONF.format(tools=tools, extensions=extensions,
                                             log=str(tmp_path / "read.log")), encoding="utf-8")
    (src / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   page\n   other\n",
                                   encoding="utf-8")
    (src / "page.rst").write_text("Page\n====\n\n.. literalinclude:: missing.py\n",
                                  encoding="utf-8")
    (src / "present.py").write_text("present = 1\n", encoding="utf-8")
    (src / "other.rst").write_text("Other\n=====\n\n.. literalinclude:: present.py\n",
                                   encoding="utf-8")
    return src


def _build(tmp_path: Path, src: Path) -> list[str]:
    """One incremental build; the documents Sphinx read."""
    log = tmp_path / "read.log"
    log.unlink(missing_ok=True)
    status = build_main(["-q", "-b", "html", "-d", str(tmp_path / "doctrees"), str(src),
                         str(tmp_path / "html")])
    assert status == 0
    return [doc for line in log.read_text().splitlines() for doc in json.loads(line)]


def test_plain_sphinx_reads_a_document_with_a_missing_include_on_every_build(tmp_path):
    """The behaviour the extension changes, so the test below can fail."""
    src = _project(tmp_path, [])
    assert _build(tmp_path, src) == ["index", "other", "page"]
    assert _build(tmp_path, src) == ["page"]


@pytest.fixture
def project(tmp_path):
    src = _project(tmp_path, ["jaxko.sphinxext.missing_deps"])
    assert _build(tmp_path, src) == ["index", "other", "page"]
    return tmp_path, src


def test_a_file_still_missing_reads_nothing_again(project):
    tmp_path, src = project
    assert _build(tmp_path, src) == []
    assert _build(tmp_path, src) == []


def test_the_document_is_read_again_when_its_missing_file_appears(project):
    tmp_path, src = project
    assert _build(tmp_path, src) == []
    (src / "missing.py").write_text("appeared = 'now here'\n", encoding="utf-8")
    assert _build(tmp_path, src) == ["page"]
    assert "now here" in (tmp_path / "html" / "page.html").read_text(encoding="utf-8")
    assert _build(tmp_path, src) == []  # now an ordinary dependency
    later = (src / "missing.py").stat().st_mtime_ns + 10_000_000_000
    os.utime(src / "missing.py", ns=(later, later))
    assert _build(tmp_path, src) == ["page"]


def test_sphinx_still_reads_a_document_whose_present_dependency_changed(project):
    tmp_path, src = project
    (src / "present.py").write_text("present = 2\n", encoding="utf-8")
    later = (src / "present.py").stat().st_mtime_ns + 10_000_000_000
    os.utime(src / "present.py", ns=(later, later))
    assert _build(tmp_path, src) == ["other"]
    # Deleted: read once more (the file is gone), then set aside like any missing file.
    (src / "present.py").unlink()
    assert _build(tmp_path, src) == ["other"]
    assert _build(tmp_path, src) == []
