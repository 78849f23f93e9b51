"""The security gate of the site build: hostile msgstrs never reach _build/html.

A small docs tree (reST and MyST) whose catalogs carry an injection corpus, built with
real Sphinx through `jaxko site build`: no payload's effect appears in the output (no
file content from outside the tree, no script/data URL, no script or event handler the
English page lacks), each payload is reported with its catalog line, and `--strict`
fails. A clean catalog of the same tree builds with nothing blocked.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from conftest import run_jaxko
from jaxko.site import build as site_build

OUTSIDE = "../" * 12 + "etc/passwd"
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
]
CLEAN = "번역된 문단입니다."


def _tree(tmp: Path, hostile: bool) -> tuple[Path, Path]:
    docs = tmp / "docs"
    docs.mkdir()
    counts = {"index": 0, "page": 0}
    for page, _ in PAYLOADS:
        counts[page] += 1
    counts = {k: v + 1 for k, v in counts.items()}  # and one clean paragraph each
    (docs / "index.rst").write_text(
        "Gate test\n=========\n\n.. toctree::\n\n   page\n\n"
        + "".join(f"Paragraph {i} of index.\n\n" for i in range(1, counts["index"] + 1)),
        encoding="utf-8")
    (docs / "page.md").write_text(
        "# Page\n\n" + "".join(f"Paragraph {i} of page.\n\n" for i in range(1, counts["page"] + 1)),
        encoding="utf-8")
    locale = tmp / "locale"
    out = locale / "ko" / "LC_MESSAGES"
    out.mkdir(parents=True)
    seen = {"index": 0, "page": 0}
    catalogs = {name: polib.POFile() for name in seen}
    for name, catalog in catalogs.items():
        catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8",
                            "Plural-Forms": "nplurals=1; plural=0;"}
    for page, payload in PAYLOADS:
        seen[page] += 1
        catalogs[page].append(polib.POEntry(
            msgid=f"Paragraph {seen[page]} of {page}.",
            msgstr=payload if hostile else CLEAN,
            occurrences=[(f"{page}.{'rst' if page == 'index' else 'md'}", str(seen[page]))]))
    for page, catalog in catalogs.items():
        catalog.append(polib.POEntry(msgid=f"Paragraph {counts[page]} of {page}.", msgstr=CLEAN))
        catalog.save(str(out / f"{page}.po"))
    return docs, locale


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
    text = _output_text(result.outdir)
    assert SECRET not in text  # no file content from outside the tree
    assert not list(result.outdir.rglob("passwd"))
    whole = "\n".join((result.outdir / f"{n}.html").read_text(encoding="utf-8")
                       for n in ("index", "page"))
    # The theme has its own scripts and handlers; the translated content has none.
    pages = "\n".join(re.findall(r"<article.*?</article>", whole, re.S))
    assert pages.count("<article") == 2
    assert not re.search(r"""href=["']?\s*(?:javascript|data|vbscript):""", whole, re.I)
    assert not re.search(r"""href=["']?\s*(?:javascript|data|vbscript):""", pages, re.I)
    assert "alert(" not in whole
    assert "<script" not in pages and "onerror" not in pages and "onclick" not in pages
    assert "<iframe" not in pages and "evil.example" not in pages
    # The refused messages keep the English; the clean ones are translated.
    assert "Paragraph 1 of page." in pages and CLEAN in pages


def test_every_payload_is_reported_with_its_catalog_line(hostile):
    _, _, locale, result = hostile
    reported = {(Path(b.path).name, b.msgid) for b in result.blocked}
    expected = set()
    seen = {"index": 0, "page": 0}
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
