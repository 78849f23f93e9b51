"""Switching between `make html` (executes the Korean notebooks) and `make watch`
(``--no-execute``) reads again only the pages that changed (issue #44).

The notebooks fixture built as a site into one output folder, alternately with and
without execution: real Sphinx, MyST-NB, nbmake and JAX. Both builds give Sphinx the
same settings (the pages show the last Korean run's outputs either way), so after the
first builds a switch reads only the edited page; a build that does not execute still
shows what the Korean code printed, reads a page again when its Korean run appears,
and shows stored outputs, without a warning but with a banner line that says so, where
the translated code has not run yet.
The planted fault gives the build that does not execute the settings it had before
(no executed notebooks): Sphinx reads every page.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from jaxko import catalogs
from jaxko.site import build as site_build
from notebook_project import DOCS, project  # noqa: F401
from test_site_korean_outputs import _outputs

REPO = Path(__file__).resolve().parents[1]
EDITED = "여기까지 이어지는 목록 항목입니다."


def _site(project: Path, docs: Path, execute: bool, **kwargs) -> site_build.SiteResult:
    return site_build.build(execute=execute, root=REPO, srcdir=docs, outdir=project / "html",
                            locale_dir=project / "locale", **kwargs)


def _save(project: Path, catalog: str, old: str, new: str) -> None:
    """One saved edit of a msgstr (as a translator's editor saves it)."""
    path = project / "locale" / "ko" / "LC_MESSAGES" / catalog
    po = catalogs.load(path)
    entry = next(e for e in po if old in e.msgstr)
    entry.msgstr = entry.msgstr.replace(old, new)
    before = path.stat().st_mtime_ns
    catalogs.save(po, path)
    later = before + 10_000_000_000  # newer than anything read, whatever the clock's grain
    os.utime(path, ns=(later, later))


def _edit(project: Path, mark: str) -> None:
    """A paragraph of the `tiny` page."""
    _save(project, "tiny.po", EDITED, EDITED + mark)


def test_switching_between_executing_and_watching_reads_only_the_edited_page(project, tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    page = project / "html" / "myst_tiny.html"

    # make watch on a fresh checkout: no Korean run yet, every page read
    watched = _site(project, docs, execute=False)
    every = set(watched.documents_read)
    assert {"index", "tiny", "myst_tiny"} <= every
    assert not any("합: 6" in o for o in _outputs(page))

    # make html: the notebooks run; the pages read before their run existed are read
    # again (the notebook pages), no other
    built = _site(project, docs, execute=True)
    assert built.verify.count("passed") >= 2
    assert "myst_tiny" in built.documents_read and "index" not in built.documents_read
    assert "합: 6" in _outputs(page)

    # the switches, each after one edit: only the edited page is read
    _edit(project, " (watch)")
    watched = _site(project, docs, execute=False)
    assert watched.documents_read == ["tiny"]
    assert "합: 6" in _outputs(page)  # the watcher shows what the Korean code printed
    assert "jaxko-notebook-run-passed" in page.read_text(encoding="utf-8")
    assert "(watch)" in (project / "html" / "tiny.html").read_text(encoding="utf-8")

    _edit(project, " (html)")
    built = _site(project, docs, execute=True)
    assert not any(r.executed for r in built.verify.results)  # nothing ran again
    assert built.documents_read == ["tiny"]
    assert "(html)" in (project / "html" / "tiny.html").read_text(encoding="utf-8")

    # a Korean run that appears between two builds (`jaxko notebooks verify` by hand):
    # the page read while there was none is read again and shows it
    executed = project / "_build" / "notebooks" / "executed" / "myst_tiny.ipynb"
    kept = tmp_path / "kept.ipynb"
    shutil.move(executed, kept)
    gone = _site(project, docs, execute=False)
    assert gone.documents_read == ["myst_tiny"]
    assert not any("합: 6" in o for o in _outputs(page))
    shutil.copyfile(kept, executed)
    later = executed.stat().st_mtime_ns + 10_000_000_000
    os.utime(executed, ns=(later, later))
    back = _site(project, docs, execute=False)
    assert back.documents_read == ["myst_tiny"]
    assert "합: 6" in _outputs(page)

    # a translated code cell: the watcher shows the stored outputs (the Korean run is
    # due: a note, no warning); the next make html runs it and shows what it printed
    _save(project, "myst_tiny.po", '"합:"', '"총합:"')
    watched = _site(project, docs, execute=False, notebooks=True)
    assert watched.documents_read == ["myst_tiny"]
    assert not any("합: 6" in o for o in _outputs(page))
    assert not [w for w in watched.warnings if "other code" in w]
    assert "jaxko-notebook-run-due" in page.read_text(encoding="utf-8")  # the banner says so
    built = _site(project, docs, execute=True)
    assert [r.notebook for r in built.verify.results if r.executed] == ["myst_tiny.md"]
    assert built.documents_read == ["myst_tiny"]
    assert "총합: 6" in _outputs(page)
    assert "jaxko-notebook-run-passed" in page.read_text(encoding="utf-8")

    # planted fault: the watcher's build with the settings it had before (no executed
    # notebooks): Sphinx sees a changed configuration and reads every page again
    _edit(project, " (fault)")
    faulty = _site(project, docs, execute=False,
                   overrides={"jaxko_executed_notebooks_dir": ""})
    assert faulty.documents_read != ["tiny"]
    assert set(faulty.documents_read) == every
