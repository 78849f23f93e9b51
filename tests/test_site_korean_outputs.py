"""Notebook pages show the outputs of the Korean notebooks (the run `verify` made).

The notebooks fixture (tests/fixtures/notebooks) built as a site with execution: real
Sphinx, MyST-NB, nbmake and JAX. The MyST notebook prints a translated string; its
page and its downloadable Korean .ipynb must show what the Korean code printed, and a
changed translation of that string must change the page after re-running only that
notebook.
"""

from __future__ import annotations

import html as html_lib
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from jaxko import catalogs
from jaxko.site import build as site_build
from conftest import GOTCHAS
from notebook_project import DOCS, project  # noqa: F401

REPO = Path(__file__).resolve().parents[1]


def _outputs(page: Path) -> list[str]:
    return _outputs_text(page.read_text(encoding="utf-8"))


def _site(project: Path, docs: Path, name: str, progress: bool = False) -> site_build.SiteResult:
    return site_build.build(execute=True, root=REPO, srcdir=docs, outdir=project / name,
                            locale_dir=project / "locale", progress=progress)


def _edit(project: Path, old: str, new: str) -> None:
    path = project / "locale" / "ko" / "LC_MESSAGES" / "myst_tiny.po"
    po = catalogs.load(path)
    entry = next(e for e in po if old in e.msgstr)
    entry.msgstr = entry.msgstr.replace(old, new)
    catalogs.save(po, path)


def test_pages_and_downloads_show_the_korean_outputs(project, tmp_path, capsys, monkeypatch):
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    monkeypatch.setenv("JAXKO_PROGRESS_INTERVAL", "0.2")
    first = _site(project, docs, "html", progress=True)
    results = {r.notebook: r for r in first.verify.results}
    assert results["myst_tiny.md"].executed
    # not a terminal: lines with the notebooks executed so far while they run
    ran = sum(r.executed for r in first.verify.results)
    counts = re.findall(r"^executing Korean notebooks: (\d+)/(\d+) notebooks executed, \d+ s$",
                        capsys.readouterr().err, re.M)
    assert counts and all(int(total) == ran for _done, total in counts), counts
    assert "합: 6" in _outputs(first.outdir / "myst_tiny.html")
    assert not any("sum:" in o for o in _outputs(first.outdir / "myst_tiny.html"))
    download = project / "_build" / "notebooks" / "ko" / "myst_tiny.ipynb"
    texts = [o.get("text", "") for c in nbformat.read(str(download), 4).cells
             if c.cell_type == "code" for o in c.get("outputs", [])]
    assert any("합: 6" in t for t in texts)
    # an upstream notebook that is not executed keeps its stored outputs
    assert results["notebooks/convolutions.ipynb"].status == "skipped"

    _edit(project, '"합:"', '"총합:"')
    second = _site(project, docs, "html")  # incremental: the same output folder
    again = {r.notebook: r for r in second.verify.results}
    assert again["myst_tiny.md"].executed
    assert again["tiny.ipynb"].status == "cached" and not again["tiny.ipynb"].executed
    shown = _outputs(second.outdir / "myst_tiny.html")
    assert "총합: 6" in shown and "합: 6" not in shown


@pytest.mark.slow
def test_real_site_gotchas_page_and_download_print_korean(real_site_build):
    """The pinned upstream and the committed catalogs: the Sharp Bits page (executed
    through verify, as `jaxko site build` does) shows `첫 번째 호출` in an output, and
    every translated message of the site is shown (the audit `--strict` fails on)."""
    from jaxko.site import audit

    gotchas = GOTCHAS
    assert not real_site_build["report"].failed
    result, docs = real_site_build["result"], real_site_build["docs"]
    assert any("첫 번째 호출" in o for o in _outputs(result.outdir / f"{gotchas}.html"))
    assert not any("First call" in o for o in _outputs(result.outdir / f"{gotchas}.html"))
    executed = nbformat.read(str(real_site_build["executed"] / f"{gotchas}.ipynb"), 4)
    assert any("첫 번째 호출" in o.get("text", "") for c in executed.cells
               if c.cell_type == "code" for o in c.get("outputs", []))
    audited = audit.audit(result.outdir, REPO / "locale", srcdir=docs)
    assert audited.findings == [], [f.format() for f in audited.findings]


def test_html_of_the_korean_run_is_sanitized_before_the_page_shows_it():
    """A translated string can flow into `display(HTML(...))` (pallas/tpu/hardware joins a
    header list): the page takes the Korean run's HTML through the sanitizer and drops
    active output types, keeping the plain-text form."""
    from jaxko.site.ext.korean_outputs import merge_outputs

    page = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("show()")])
    ran = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("show()", outputs=[
        nbformat.v4.new_output("display_data", data={
            "text/html": "<table><tr><th>코어</th><th><img src=x onerror=alert(1)></th>"
                         "<td style='x'><a href='javascript:alert(2)'>링크</a></td></tr></table>",
            "application/javascript": "alert(3)",
            "text/plain": "<IPython.core.display.HTML object>"})])])
    assert merge_outputs(page, ran) == ""
    data = page.cells[0].outputs[0]["data"]
    assert "application/javascript" not in data and data["text/plain"]
    html = data["text/html"]
    assert "<th>코어</th>" in html and "<table>" in html
    assert "onerror" not in html and "javascript:" not in html and "style" not in html


TEXT_NOTEBOOK = """---
jupytext:
  text_representation:
    format_name: myst
kernelspec:
  name: python3
  display_name: Python 3
  language: python
---
# Page

```{code-cell}
print("hello")
```
"""

TEXT_NOTEBOOK_CONF = """
import sys
sys.path.insert(0, {tools!r})
extensions = ["myst_nb", "jaxko.site.ext.korean_outputs"]
nb_execution_mode = "off"
jaxko_executed_notebooks_dir = {executed!r}
"""


def _text_notebook_site(tmp: Path) -> tuple[str, list[str]]:
    """A MyST text notebook built (in this process, so READER_TESTED can be planted)
    beside an executed Korean copy that printed 안녕; its page and the warnings."""
    from sphinx.cmd.build import build_main

    docs, executed = tmp / "docs", tmp / "executed"
    docs.mkdir(parents=True)
    executed.mkdir()
    (docs / "index.md").write_text(TEXT_NOTEBOOK, encoding="utf-8")
    ran = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('print("hello")', outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="안녕\n")])])
    nbformat.write(ran, str(executed / "index.ipynb"))
    (docs / "conf.py").write_text(TEXT_NOTEBOOK_CONF.format(
        tools=str(REPO / "tools"), executed=str(executed)), encoding="utf-8")
    warnings = tmp / "warnings.txt"
    assert build_main(["-q", "-E", "-b", "html", "-w", str(warnings), "-d", str(tmp / "doctrees"),
                       str(docs), str(tmp / "html")]) == 0
    return (tmp / "html" / "index.html").read_text(encoding="utf-8"), \
        warnings.read_text(encoding="utf-8").splitlines()


def test_a_text_notebook_shows_the_korean_run_and_an_untested_myst_nb_shows_none(
        tmp_path, monkeypatch):
    """The reader swap (jaxko.site.ext.speedups.ipynb_reader, MyST-NB's private
    ``env.mystnb_config``) runs on the MyST-NB series it was tested with only: on another
    the page keeps its stored outputs (none, for a text notebook) and says why once."""
    from jaxko.site.ext import speedups

    page, warnings = _text_notebook_site(tmp_path / "tested")
    assert "안녕" in " ".join(_outputs_text(page)) and warnings == []
    monkeypatch.setitem(speedups.READER_TESTED, "myst-nb", ((0, 1), (0, 1)))
    page, warnings = _text_notebook_site(tmp_path / "untested")
    assert "안녕" not in page and 'print("hello")' in html_lib.unescape(re.sub(r"<[^>]+>", "", page))
    assert len(warnings) == 1 and "READER_TESTED" in warnings[0], warnings


def _outputs_text(html: str) -> list[str]:
    blocks = re.findall(r'<div class="cell_output docutils container">(.*?)</div>\s*</div>',
                        html, re.S)
    return [" ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", b)).split()) for b in blocks]
