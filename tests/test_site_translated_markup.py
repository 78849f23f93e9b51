"""A msgstr that reads as block markup still translates its heading or paragraph.

A tiny site (one MyST page, one reST page, written here) built twice with real Sphinx,
MyST-NB and the project's conf.py: with ``jaxko_escape_translated_markup`` off, Sphinx's
i18n step drops each planted translation (the page shows the English); with it on
(the site as published) every one renders in Korean. Both builds run in conftest's warm
Sphinx process and skip Kiwi's nouns in the search index (search is not what they test).
"""

from __future__ import annotations

import html as html_lib
import json
import re
from pathlib import Path
from typing import NamedTuple

import polib
import pytest

from jaxko.site import audit
from jaxko.site import build as site_build
from jaxko.fragments import escape_markdown, escape_rest


class Planted(NamedTuple):
    kind: str
    english: str
    korean: str      # the msgstr as a translator writes it
    shown: str       # what the reader must see


# Each msgstr parses as another node kind than the one it translates.
COMMON = [
    Planted("ordered", "Taking gradients with jax.grad", "1. jax.grad로 기울기 구하기",
            "1. jax.grad로 기울기 구하기"),
    Planted("ordered-paren", "Second step of the recipe", "2) 두 번째 단계입니다",
            "2) 두 번째 단계입니다"),
    Planted("dash", "Minus one is the default", "- 1이 기본값입니다", "- 1이 기본값입니다"),
    Planted("plus", "Plus sign operator overview", "+ 연산자 개요", "+ 연산자 개요"),
    Planted("star", "Star import is discouraged", "* 가져오기는 권장하지 않습니다",
            "* 가져오기는 권장하지 않습니다"),
]
MARKDOWN = COMMON + [
    Planted("hash", "Hash sign comments", "# 기호로 시작하는 주석", "# 기호로 시작하는 주석"),
    Planted("quote", "Greater than comparison", "> 비교 연산자", "> 비교 연산자"),
    Planted("percent", "Percent of the total", "%는 전체 대비 비율입니다",
            "%는 전체 대비 비율입니다"),
]
REST = COMMON + [
    Planted("pipe", "Pipe separated values", "| 로 구분한 값", "| 로 구분한 값"),
    Planted("doctest", "Prompt of the interpreter", ">>> 는 인터프리터 프롬프트입니다",
            ">>> 는 인터프리터 프롬프트입니다"),
    Planted("explicit", "Two dots start a comment", ".. 은 주석을 시작합니다",
            ".. 은 주석을 시작합니다"),
    Planted("field", "Field names and values", ":이름: 값의 쌍입니다", ":이름: 값의 쌍입니다"),
]
# A translated message the HTML page never has (in a block only print builds show).
EXCLUDED = ("Only in the printed manual.", "인쇄본에만 있는 문장입니다.")
# A paragraph whose msgstr has a second line of "=" (a setext heading / a section).
UNDERLINED = Planted("equals-line", "A sentence that ends here", "여기서 끝나는 문장\n=====",
                     "여기서 끝나는 문장 =====")

# What Sphinx keeps on its own: docutils reads a line with an underline as a section
# title first, and a doctest block is a literal node Locale accepts (kept as regression
# cases: the escape must not break them). Every other case is lost without the fix.
KEPT_UPSTREAM = {("rest", "h2", "ordered"), ("rest", "h2", "ordered-paren"),
                 ("rest", "p", "doctest")}


def _markdown(items: list[Planted]) -> str:
    body = ["# Markdown page", ""]
    for item in items:
        body += [f"## {item.english} heading", "", f"{item.english} paragraph.", ""]
    body += [f"{UNDERLINED.english}.", ""]
    return "\n".join(body)


def _rest(items: list[Planted]) -> str:
    body = ["Rest page", "=========", ""]
    for item in items:
        title = f"{item.english} heading"
        body += [title, "-" * len(title), "", f"{item.english} paragraph.", ""]
    body += [f"{UNDERLINED.english}.", "", ".. only:: latex", "", f"   {EXCLUDED[0]}", ""]
    return "\n".join(body)


def _catalog(path: Path, items: list[Planted], title: str) -> None:
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    po.append(polib.POEntry(msgid=title, msgstr=title.replace("page", "페이지")))
    for item in items:
        po.append(polib.POEntry(msgid=f"{item.english} heading", msgstr=item.korean))
        po.append(polib.POEntry(msgid=f"{item.english} paragraph.", msgstr=item.korean))
    po.append(polib.POEntry(msgid=f"{UNDERLINED.english}.", msgstr=UNDERLINED.korean))
    if title.startswith("Rest"):
        po.append(polib.POEntry(msgid=EXCLUDED[0], msgstr=EXCLUDED[1]))
    path.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(path))


def _build(tmp: Path, escape: bool, sphinx) -> Path:
    docs = tmp / "docs"
    docs.mkdir()
    (docs / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   markdown\n   rest\n",
                                    encoding="utf-8")
    (docs / "markdown.md").write_text(_markdown(MARKDOWN), encoding="utf-8")
    (docs / "rest.rst").write_text(_rest(REST), encoding="utf-8")
    locale = tmp / "locale"
    _catalog(locale / "ko" / "LC_MESSAGES" / "markdown.po", MARKDOWN, "Markdown page")
    _catalog(locale / "ko" / "LC_MESSAGES" / "rest.po", REST, "Rest page")
    result = site_build.build(execute=False, srcdir=docs, outdir=tmp / "html", locale_dir=locale,
                              overrides={"jaxko_escape_translated_markup": "1" if escape else "0",
                                         "jaxko_search_morphology": "0"}, sphinx=sphinx)
    return result.outdir


@pytest.fixture(scope="module")
def fixed(tmp_path_factory, warm_sphinx) -> Path:
    return _build(tmp_path_factory.mktemp("fixed"), escape=True, sphinx=warm_sphinx)


@pytest.fixture(scope="module")
def dropped(tmp_path_factory, warm_sphinx) -> Path:
    return _build(tmp_path_factory.mktemp("dropped"), escape=False, sphinx=warm_sphinx)


def _elements(outdir: Path, page: str, tag: str) -> list[str]:
    """Visible text of each <tag> element of the page's article, whitespace normalised."""
    html = (outdir / f"{page}.html").read_text(encoding="utf-8")
    article = re.search(r"<article.*?</article>", html, re.S).group(0)
    article = re.sub(r'<a class="headerlink".*?</a>', "", article, flags=re.S)
    found = re.findall(rf"<{tag}\b[^>]*>(.*?)</{tag}>", article, re.S)
    texts = [html_lib.unescape(re.sub(r"<[^>]+>", " ", text)) for text in found]
    return [" ".join(text.split()) for text in texts]


CASES = [("markdown", item) for item in MARKDOWN] + [("rest", item) for item in REST]


@pytest.mark.parametrize(("page", "item"), CASES, ids=[f"{p}-{i.kind}" for p, i in CASES])
def test_heading_renders_translated(fixed, dropped, page, item):
    def shows(outdir: Path) -> bool:
        return item.shown in _elements(outdir, page, "h2")

    assert shows(fixed)
    # Without the fix the reader sees the English or a mangled heading ("#" eaten).
    assert shows(dropped) == ((page, "h2", item.kind) in KEPT_UPSTREAM)


@pytest.mark.parametrize(("page", "item"), CASES, ids=[f"{p}-{i.kind}" for p, i in CASES])
def test_paragraph_renders_translated(fixed, dropped, page, item):
    assert item.shown in _elements(fixed, page, "p")
    shown_upstream = item.shown in _elements(dropped, page, "p")
    assert shown_upstream == ((page, "p", item.kind) in KEPT_UPSTREAM)


@pytest.mark.parametrize("page", ["markdown", "rest"])
def test_underlined_paragraph_renders_translated(fixed, dropped, page):
    assert UNDERLINED.shown in _elements(fixed, page, "p")
    assert f"{UNDERLINED.english}." in _elements(dropped, page, "p")


def test_inline_markup_and_literal_blocks_are_left_alone():
    for text in ("**굵게** 쓴 글", "{func}`jax.grad`는", ":func:`jax.grad` 는", "`x` 코드",
                 "[링크](https://x)", "::\n\n   - code", "끝::\n\n   dummy literal"):
        assert escape_markdown(text) == text
        assert escape_rest(text) == text


def test_title_underline_grows_with_the_escape():
    title = "1. 제목"
    escaped = escape_rest(title + "\n" + "=" * (2 * len(title)))
    text, underline = escaped.split("\n")
    assert text == "1\\. 제목" and underline == "=" * (2 * len(text))


def test_page_table_of_contents_is_translated(fixed, dropped):
    def toc(outdir: Path) -> str:
        html = (outdir / "markdown.html").read_text(encoding="utf-8")
        # the theme's page-toc nav (pydata-sphinx-theme 0.15 gives it no id, later ones do)
        nav = re.search(r'<nav [^>]*class="[^"]*\bpage-toc\b[^"]*"[^>]*>.*?</nav>', html,
                        re.S).group(0)
        return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", nav)).split())

    assert "1. jax.grad로 기울기 구하기" in toc(fixed)
    assert "1. jax.grad로 기울기 구하기" not in toc(dropped)


# ------------------------------------------------------------- the applied-translation audit


def _audit(outdir: Path) -> audit.AuditResult:
    return audit.audit(outdir, outdir.parent / "locale", srcdir=outdir.parent / "docs")


def _line(outdir: Path, page: str, msgid: str) -> int:
    po = polib.pofile(str(outdir.parent / "locale" / "ko" / "LC_MESSAGES" / f"{page}.po"))
    return po.find(msgid).linenum


def test_audit_reports_each_dropped_message_with_file_and_line(dropped):
    found = {(Path(f.path).name, f.line, f.why) for f in _audit(dropped).findings}
    heading = "Taking gradients with jax.grad heading"
    for page in ("markdown", "rest"):
        # the numbered heading (reST keeps it: see KEPT_UPSTREAM) and a msgstr read as a list
        if page == "markdown":
            assert (f"{page}.po", _line(dropped, page, heading), audit.DROPPED) in found
        paragraph = "Minus one is the default paragraph."
        assert (f"{page}.po", _line(dropped, page, paragraph), audit.DROPPED) in found
    # the page's catalog is complete, so the English heading left is reported as well
    assert ("markdown.po", _line(dropped, "markdown", heading), audit.ENGLISH) in found


def test_audit_reports_a_message_the_page_cannot_place(fixed):
    findings = _audit(fixed).findings
    assert [(Path(f.path).name, f.line, f.msgid, f.why) for f in findings] == [
        ("rest.po", _line(fixed, "rest", EXCLUDED[0]), EXCLUDED[0], audit.EXCLUDED)]


def test_audit_of_the_fixed_build_is_clean_but_for_the_excluded_block(fixed):
    result = _audit(fixed)
    assert result.pages == 2
    assert result.messages == 2 * len(MARKDOWN) + 2 * len(REST) + 2 + 3  # + titles + excluded


def test_audit_cli_exits_1_with_findings_and_reports_json(dropped, fixed):
    from conftest import run_jaxko

    args = ["site", "audit", "--locale-dir", str(dropped.parent / "locale"),
            "--srcdir", str(dropped.parent / "docs"), "--format", "json"]
    proc = run_jaxko(*args[:2], str(dropped), *args[2:])
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert any(f["why"] == audit.DROPPED and f["path"].endswith("markdown.po")
               for f in report["findings"])
    missing = run_jaxko("site", "audit", str(dropped.parent / "nowhere"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_site_build_shows_one_line_per_stage_when_not_a_terminal(fixed, tmp_path):
    from conftest import run_jaxko

    root = fixed.parent
    proc = run_jaxko("site", "build", "--no-execute", "--no-notebooks", "--strict",
                     "--srcdir", str(root / "docs"), "--locale-dir", str(root / "locale"),
                     "--outdir", str(tmp_path / "html"))
    # --strict: the planted message of the excluded block fails the build
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"rest.po:{_line(fixed, 'rest', EXCLUDED[0])}: " + audit.EXCLUDED in proc.stdout
    assert "audit: 2 pages" in proc.stdout
    # (a slow machine may also show the lines with counts a long stage prints every
    # Progress.INTERVAL seconds: tests/test_site_inputs.py)
    stages = [line for line in proc.stderr.splitlines() if line.strip()
              and not re.fullmatch(r"Sphinx: (\d+/\d+ documents read, \d+ pages written|"
                                   r"loading the extensions and the environment), \d+ s", line)]
    assert len(stages) == 1 and "\r" not in proc.stderr
    assert re.fullmatch(r"Sphinx: 5 documents read, 7 pages written, [\d.]+ s", stages[0])


def test_audit_reads_a_link_whose_url_holds_brackets():
    """[text](https://en.wikipedia.org/wiki/Pushforward_(differential)): the reader sees
    the text only (the audit reported three such messages as missing from their pages)."""
    message = "이 사상을 [푸시포워드 사상](https://en.wikipedia.org/wiki/Pushforward_(differential))이라고 합니다."
    assert audit.shown_text(message) == "이 사상을 푸시포워드 사상이라고 합니다."


@pytest.mark.parametrize("message, page", [
    # A code span of three backticks (MyST): the reader sees the flag, not the backticks.
    ("``X`` 환경 변수나 ```--flag``` 플래그를 설정합니다.",
     "X 환경 변수나 --flag 플래그를 설정합니다."),
    # A bare GitHub URL the theme shows shortened.
    ("새 동작을 쓰려면 https://github.com/jax-ml/jax/pull/15677 을 참고하세요.",
     "새 동작을 쓰려면 jax-ml/jax#15677 을 참고하세요."),
])
def test_audit_sees_a_message_shown_with_rendered_markup(message, page):
    """Both were reported as "not on the page" on changelog and config_options."""
    assert audit.visible(message, audit.normalise(page))
    assert not audit.visible(message, audit.normalise("다른 문장입니다."))
