"""The Korean site on a small fixture (tests/fixtures/site): real Sphinx builds.

One build with everything on (the site as published), one "baseline" build with our
i18n fixes, Korean search and theme strings turned off (what Sphinx, MyST-Parser,
MyST-NB and sphinx-book-theme do on their own): the baseline shows each upstream bug
is real, the site shows it fixed. The builds run in conftest's warm Sphinx process (the
one `jaxko site watch` uses: a fresh fork per build), but for the two tests about
sphinx-build's own process (MyST-NB's execution cache, a failed build's leftovers).
"""

from __future__ import annotations

import gettext
import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, run_jaxko
from jaxko.site import build as site_build
from jaxko.site.ext.search import SHORT_MARK, stem, strip_particles

SITE = FIXTURES / "site"
NOTEBOOK_CODE_COMMENT = "# 배열의 항목을 더합니다"
MYSTNB_CODE_COMMENT = "# 배열의 제곱 손실을 계산합니다"
GUIDE_CODE_COMMENT = "# 항목이 세 개인 배열을 만듭니다"


def _copy_docs(tmp: Path) -> Path:
    # A copy: the HTML build writes its generated pages into the source tree.
    docs = tmp / "docs"
    shutil.copytree(SITE / "docs", docs)
    return docs


@pytest.fixture(scope="module")
def site(tmp_path_factory, warm_sphinx) -> site_build.SiteResult:
    tmp = tmp_path_factory.mktemp("site")
    notebooks = tmp / "notebooks-ko"
    notebooks.mkdir()
    (notebooks / "notebook.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, '
                                              '"nbformat_minor": 5}\n', encoding="utf-8")
    return site_build.build(
        execute=False, srcdir=_copy_docs(tmp), outdir=tmp / "html",
        locale_dir=SITE / "locale", glossary=SITE / "glossary.yaml",
        overrides={"jaxko_notebooks_dir": str(notebooks),
                   "jaxko_github_repo": "jax-docs-ko/jax-docs-ko"}, sphinx=warm_sphinx)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory, warm_sphinx) -> site_build.SiteResult:
    tmp = tmp_path_factory.mktemp("baseline")
    return site_build.build(
        execute=False, srcdir=_copy_docs(tmp), outdir=tmp / "html",
        locale_dir=SITE / "locale", glossary=SITE / "glossary.yaml",
        overrides={"jaxko_i18n_fixes": "0", "jaxko_korean_search": "0",
                   "jaxko_search_morphology": "0", "jaxko_theme_messages": "0"},
        sphinx=warm_sphinx)


def page(result: site_build.SiteResult, name: str) -> str:
    return (result.outdir / f"{name}.html").read_text(encoding="utf-8")


def article(html: str) -> str:
    return re.search(r"<article.*?</article>", html, re.S).group(0)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def search_index(result: site_build.SiteResult) -> dict:
    raw = (result.outdir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(raw[raw.index("(") + 1: raw.rindex(")")])


def docs_for(index: dict, term: str) -> set[str]:
    """Documents whose text or title has the term (as searchtools.js looks it up)."""
    found = set()
    for table in ("terms", "titleterms"):
        files = index[table].get(term, [])
        files = [files] if isinstance(files, int) else files
        found.update(index["docnames"][f] for f in files)
    return found


# ------------------------------------------------------------------- the build itself


def test_build_has_no_warnings(site):
    from jaxko.site.ext import speedups

    # On a toolchain newer than the speedups were tested with, their one warning only.
    expected = 1 if speedups.untested() else 0
    assert len([w for w in site.warnings if "[jaxko.speedups]" in w]) == expected
    assert [w for w in site.warnings if "[jaxko.speedups]" not in w] == []
    assert site.i18n_warnings == []


def test_html_is_korean(site):
    html = page(site, "guide")
    assert '<html lang="ko"' in html
    assert "_static/jaxko-site.css" in html
    css = (site.outdir / "_static" / "jaxko-site.css").read_text(encoding="utf-8")
    assert "word-break: keep-all" in css and "Noto Sans KR" in css


def footer_author(result: site_build.SiteResult, name: str) -> str:
    found = re.search(r'<p class="component-author">(.*?)</p>', page(result, name), re.S)
    return " ".join(found.group(1).split())


def test_footer_names_the_authors_in_natural_korean(site, baseline):
    """sphinx-book-theme's Korean catalog renders the footer's "By" as a bare particle."""
    for name in ("index", "guide", "notebook"):
        assert footer_author(site, name) == "© The JAX authors", name
    # the theme's own catalog (if this fails, the theme fixed it: drop the override)
    assert footer_author(baseline, "guide") == "으로 The JAX authors"


def test_fullscreen_button_tooltip_is_spaced_korean(site, baseline):
    """The theme's catalog writes the header button's tooltip without its space."""
    shown = page(site, "guide")
    assert "전체 화면 모드" in shown and "전체 화면으로보기" not in shown
    assert "전체 화면으로보기" in page(baseline, "guide")


def test_theme_message_override_wraps_once_and_unwraps():
    from sphinx import locale

    from jaxko.site.ext import theme

    key = (theme.NAMESPACE, theme.CATALOG)
    saved = locale.translators.get(key)
    catalog = gettext.NullTranslations()
    locale.translators[key] = catalog
    try:
        theme.install(theme.MESSAGES["ko"])
        theme.install(theme.MESSAGES["ko"])   # a second build in the same process
        wrapped = locale.translators[key]
        assert wrapped.wrapped is catalog
        assert wrapped.gettext("By") == "©" and wrapped.gettext("Contents") == "Contents"
        theme.install({})
        assert locale.translators[key] is catalog
    finally:
        if saved is None:
            locale.translators.pop(key, None)
        else:
            locale.translators[key] = saved


# ------------------------------------------- MyST-NB#587 and MyST-Parser#444 (i18n)


def test_translated_ipynb_renders_markdown_roles_math_and_code(site):
    body = article(page(site, "notebook"))
    assert "노트북으로 보는 배열의 기초" in body
    # the role, the math and the link of the translated markdown cell
    assert re.search(r'<code class="xref py py-func[^"]*"><span class="pre">sum\(\)</span>', body)
    assert r'<span class="math notranslate nohighlight">\(\mathbf{x}^\top \mathbf{x}\)</span>' in body
    assert '<a class="reference internal" href="guide.html"><span class="std std-doc">안내서</span></a>' in body
    assert "<em>배열은</em>" in body
    # the translated code cell: highlighted code with the Korean comment, output kept
    assert f'<span class="c1">{NOTEBOOK_CODE_COMMENT}</span>' in body
    assert "<p>::</p>" not in body
    assert re.search(r"<pre><span></span>6\s*</pre>", body)


def test_translated_myst_notebook_and_markdown_code_blocks(site):
    mystnb = article(page(site, "mystnb"))
    assert f'<span class="c1">{MYSTNB_CODE_COMMENT}</span>' in mystnb
    assert r"\(L(\theta)\)" in mystnb and "<strong>절대 음수가 아닙니다</strong>" in mystnb
    guide = article(page(site, "guide"))
    assert f'<span class="c1">{GUIDE_CODE_COMMENT}</span>' in guide
    for body in (mystnb, guide):
        assert "<p>::</p>" not in body


def test_translated_reference_style_link_resolves(site):
    body = article(page(site, "guide"))
    # the docs' home is built here: the link opens the Korean one (jaxko.site.ext.links)
    assert ('<a class="reference internal" href="index.html">JAX 웹사이트</a>'
            '를 보세요.') in body
    assert "[jax-site]" not in body


def test_baseline_shows_the_upstream_bugs(baseline):
    """Without jaxko.site.ext.i18n every translated MyST code block renders as ``::``."""
    for name, comment in (("notebook", NOTEBOOK_CODE_COMMENT), ("mystnb", MYSTNB_CODE_COMMENT),
                          ("guide", GUIDE_CODE_COMMENT)):
        body = article(page(baseline, name))
        # the code became "::": a paragraph (MyST pages) or the code block's only text
        assert re.search(r'<p>::</p>|<pre><span></span><span class="p">::</span>\s*</pre>', body), name
        assert comment not in body, name
    # reST was never affected
    assert "# 배열의 항목을 합합니다" in article(page(baseline, "plain"))
    # a reference-style link without its definition: literal brackets, no link (and
    # no warning: Sphinx compares only named references, MyST resolves these to URLs)
    assert "[JAX 웹사이트][jax-site]" in article(page(baseline, "guide"))


def test_literal_text_undoes_locales_notation():
    from jaxko.site.ext.i18n import literal_text

    code = "# 주석\nx = 1\n    \n    y = 2\n"
    indented = "\n".join(("   " + line) if line.strip() else line for line in code.split("\n"))
    assert literal_text("::\n\n" + indented) == code
    assert literal_text("배열은 값입니다.") is None
    # Locale appends a dummy literal when a msgstr ends in '::'; it is not code.
    tail = "x[::]  # 끝::"
    dummy = tail + "\n\n   dummy literal"
    wrapped = "::\n\n" + "\n".join(("   " + l) if l.strip() else l for l in dummy.split("\n"))
    assert literal_text(wrapped) == tail


# ------------------------------------------------------------------ status banner


def test_banner_of_a_partly_translated_page(site):
    body = article(page(site, "guide"))
    banner = re.search(r'<div class="jaxko-status jaxko-status-partial".*?</div>', body, re.S).group(0)
    assert "번역 83%" in banner
    assert "아직 번역되지 않은 부분은 영어 원문으로 표시됩니다" in banner
    assert 'href="https://docs.jax.dev/en/latest/guide.html"' in banner
    assert "번역: 김역자" in banner and "검수 예정: 이검수" in banner
    assert "아직 검수되지 않았습니다" in banner  # no review records in the fixture
    # the untranslated paragraph is shown in English
    assert "This paragraph stays in English in the Korean site." in body


def test_banner_of_a_complete_page(site):
    body = article(page(site, "plain"))
    assert "jaxko-status-complete" in body and "모두 번역되었습니다" in body
    assert "영어 원문으로 표시됩니다" not in body
    assert 'href="https://docs.jax.dev/en/latest/plain.html"' in body


def test_notebook_page_offers_korean_notebook_and_colab(site):
    body = article(page(site, "notebook"))
    assert 'href="_downloads/ko/notebook.ipynb"' in body
    assert ('href="https://colab.research.google.com/github/jax-docs-ko/jax-docs-ko/blob/'
            'gh-pages/_downloads/ko/notebook.ipynb"') in body
    assert (site.outdir / "_downloads" / "ko" / "notebook.ipynb").is_file()
    # a non-notebook page, and a notebook without a built Korean copy, offer none
    assert "jaxko-download" not in page(site, "guide")
    assert "jaxko-download" not in page(site, "mystnb")


# ------------------------------------------------------------- glossary and progress


def test_glossary_page_is_generated_and_in_the_navigation(site):
    html = page(site, "translation/glossary")
    body = text_of(article(html))
    assert "번역 용어집" in body
    assert "array" in body and "배열" in body and "어레이" in body and "NumPy 배열과 같은 뜻" in body
    assert "원문 그대로 (읽기: 잭스)" in body and "컴파일링" in body
    index = page(site, "index")
    assert 'href="translation/glossary.html"' in index and "한국어 번역" in index


def test_progress_page_has_chart_and_per_page_rows(site):
    html = page(site, "translation/progress")
    body = article(html)
    assert "<svg" in body and 'role="img"' in body
    text = text_of(body)
    # fixture: 5 catalogs, 21 messages, 20 translated (guide has one untranslated)
    assert "전체 문서 5개, 메시지 21개 중 20개 번역(95.2%)" in text
    assert re.search(r'href="\.\./guide\.html"', body)
    assert "김역자, 박번역" in text


def test_generated_pages_never_reach_gettext(site, tmp_path, warm_sphinx):
    """A gettext run over a tree an HTML build wrote into removes the stubs first."""
    from jaxko.extract import run_sphinx, sphinx_env

    srcdir = site.outdir.parent / "docs"
    assert (srcdir / "translation" / "glossary.rst").is_file()
    status, warnings = run_sphinx("gettext", srcdir, tmp_path / "pot", confdir=FIXTURES.parents[1],
                                  env=sphinx_env("narrative", "off", srcdir), run=warm_sphinx)
    assert status == 0, warnings
    assert not (tmp_path / "pot" / "translation").exists()
    assert not (srcdir / "translation").exists()


# ----------------------------------------------------------------------- search


def test_korean_search_indexes_nouns_without_particles(site, baseline):
    ours, fallback = search_index(site), search_index(baseline)
    # 배열 only ever appears with a particle (배열은, 배열을, 배열의 ...)
    assert {"guide", "mystnb", "notebook", "plain"} <= docs_for(ours, stem("배열"))
    assert docs_for(fallback, "배열") & {"guide", "mystnb", "notebook", "plain"} == set()
    assert "배열을" in fallback["terms"] or "배열의" in fallback["terms"]
    # a noun found by Kiwi inside a longer word: 예측값 -> 예측
    assert "mystnb" in docs_for(ours, stem("예측"))
    # a standalone particle after inline code (`len`을) is not a term
    assert not {"을", stem("을")} & set(ours["terms"])


ROOT_LOCALE = ROOT / "locale"


def test_kiwi_nouns_of_a_batch_are_those_of_each_text():
    """A page's texts go to Kiwi as one batch (on its threads): the nouns must be the
    ones each text gives alone, on the project's own Korean text."""
    import polib
    from jaxko.site.ext.search import KoreanMorphology, korean_runs

    texts = [korean_runs(e.msgstr) for name in ("automatic-differentiation", "faq")
             for e in polib.pofile(str(ROOT_LOCALE / "ko" / "LC_MESSAGES" / f"{name}.po"))
             if e.msgstr]
    texts = [t for t in texts if t][:400]
    assert len(texts) > 50
    kiwi = KoreanMorphology()
    assert kiwi.nouns_of_many(texts) == {t: kiwi.nouns(t) for t in texts}
    # Without threads (a parallel Sphinx build), the same nouns.
    assert KoreanMorphology(workers=None).nouns_of_many(texts) == kiwi.nouns_of_many(texts)


def test_a_page_of_known_texts_does_not_load_kiwi(tmp_path, monkeypatch):
    """A rebuild re-indexes pages whose texts the noun cache knows: Kiwi's model (a
    second and some 200 MB) must not load for them; a new text loads it."""
    from jaxko.site.ext import search

    cache = search.NounCache(tmp_path / "nouns.json", "test")
    cache.nouns["배열 함수"] = ["배열", "함수"]
    monkeypatch.setitem(search._SETTINGS, "cache", cache)
    monkeypatch.setitem(search._SETTINGS, "morphology", True)
    loaded = []
    monkeypatch.setattr(search, "_morphology", lambda glossary, workers: loaded.append(1))
    language = search.SearchKorean({})
    language.prepare(["배열 함수", "jit", ""])
    assert loaded == []
    language.prepare(["새 문장입니다"])
    assert loaded == [1]


def test_kiwi_nouns_are_kept_between_builds(site, tmp_path, warm_sphinx):
    """The rebuild re-indexes pages from the noun cache: no new entry, file not rewritten."""
    cache = site.outdir.parent / ".doctrees" / site.outdir.name / "jaxko-nouns.json"
    data = json.loads(cache.read_text(encoding="utf-8"))
    assert data["signature"].startswith("kiwipiepy ")
    assert any("배열" in nouns for nouns in data["nouns"].values())
    before = (cache.stat().st_mtime_ns, search_index(site))
    (site.outdir.parent / "docs" / "guide.md").touch()  # written and indexed again
    again = site_build.build(
        execute=False, srcdir=site.outdir.parent / "docs", outdir=site.outdir,
        locale_dir=SITE / "locale", glossary=SITE / "glossary.yaml",
        overrides={"jaxko_notebooks_dir": str(site.outdir.parent / "notebooks-ko"),
                   "jaxko_github_repo": "jax-docs-ko/jax-docs-ko"}, sphinx=warm_sphinx)
    assert (cache.stat().st_mtime_ns, search_index(again)) == before


def test_search_language_code_reaches_the_browser(site):
    data = (site.outdir / "_static" / "language_data.js").read_text(encoding="utf-8")
    # Snowball's Porter stemmer as Sphinx ships it ("var PorterStemmer = function" in 9.x)
    assert "var KoreanTables" in data and "PorterStemmer = function" in data


@pytest.mark.parametrize("word, stripped", [
    ("배열", "배열"), ("배열을", "배열"), ("배열은", "배열"), ("배열의", "배열"),
    ("배열들을", "배열"), ("함수를", "함수"), ("함수입니다", "함수"), ("파일로", "파일"),
    ("손실이", "손실"), ("모델로부터", "모델"), ("자동미분에서는", "자동미분"),
    ("JAX를", "jax"), ("jit을", "jit"), ("컴파일을", "컴파일"),
    # nouns that end like a particle keep their ending: 추가, 속도, 길이
    ("추가", "추가"), ("추가를", "추가"), ("속도", "속도"), ("속도가", "속도"),
    ("길이", "길이"), ("길이를", "길이"), ("평가가", "평가"),
    # a particle needs the right preceding sound: 나이 (이 after a vowel) is kept
    ("나이", "나이"),
    ("arrays", "arrai"),
])
def test_stem(word, stripped):
    key = stem(word)
    # short Korean keys carry the mark that makes searchtools.js require them
    assert key.removesuffix(SHORT_MARK) == stripped
    assert key.endswith(SHORT_MARK) == (len(stripped) <= 2 and bool(re.match("[가-힣]", stripped)))


def test_a_particle_alone_is_not_stripped_to_nothing():
    for particle in ("을", "를", "은", "는", "이", "가", "도"):
        assert strip_particles(particle) == particle


# --------------------------------------------------------------------- command line


def test_cli_reports_bad_input_in_one_line(tmp_path):
    proc = run_jaxko("site", "build", "--no-execute", "--srcdir", str(tmp_path / "missing"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "no staged docs here" in proc.stderr

    locale = tmp_path / "locale"
    shutil.copytree(SITE / "locale", locale)
    (locale / "ko" / "assignments.yaml").write_text("guide.md:\n  translator: [\n",
                                                    encoding="utf-8")
    proc = run_jaxko("site", "build", "--no-execute", "--srcdir", str(SITE / "docs"),
                     "--locale-dir", str(locale), "--outdir", str(tmp_path / "out"))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "assignments.yaml" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_help():
    proc = run_jaxko("site", "build", "--help")
    assert proc.returncode == 0 and "--no-execute" in proc.stdout
    proc = run_jaxko("site", "watch", "--help")
    assert proc.returncode == 0 and "--no-execute" in proc.stdout and "--builds" in proc.stdout


def test_changed_credits_reach_the_page_in_an_incremental_build(tmp_path, warm_sphinx):
    """assignments.yaml is no Sphinx input; the banner must follow it all the same."""
    locale = tmp_path / "locale"
    shutil.copytree(SITE / "locale", locale)
    docs = _copy_docs(tmp_path)
    kwargs = dict(execute=False, srcdir=docs, outdir=tmp_path / "html", locale_dir=locale,
                  glossary=SITE / "glossary.yaml", overrides={"jaxko_search_morphology": "0"},
                  sphinx=warm_sphinx)
    site_build.build(**kwargs)
    assert "번역: 김역자" in page_at(tmp_path / "html", "guide")
    assignments = locale / "ko" / "assignments.yaml"
    assignments.write_text(assignments.read_text(encoding="utf-8").replace(
        "translator: 김역자\n", "translator: 최새역자\n", 1), encoding="utf-8")
    site_build.build(**kwargs)
    html = page_at(tmp_path / "html", "guide")
    assert "번역: 최새역자" in html and "김역자" not in html


def page_at(outdir: Path, name: str) -> str:
    return (outdir / f"{name}.html").read_text(encoding="utf-8")


def test_notebooks_execute_once_then_come_from_the_cache(tmp_path):
    """MyST-NB's own execution and cache (the `--language en` build): run once, then cached."""
    import subprocess
    import sys

    from jaxko.extract import sphinx_env

    docs = _copy_docs(tmp_path)
    cache = tmp_path / "jupyter_cache"

    def build(outdir: Path) -> str:
        cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-c", str(FIXTURES.parents[1]),
               "-d", str(outdir) + ".doctrees", "-D", "language=ko",
               "-D", f"locale_dirs={SITE / 'locale'}", "-D", f"nb_execution_cache_path={cache}",
               "-D", "jaxko_search_morphology=0", str(docs), str(outdir)]
        proc = subprocess.run(cmd, env=sphinx_env("narrative", "cache", docs),
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout + proc.stderr

    first = build(tmp_path / "first")
    assert "Executed notebook" in first and "Using cached notebook" not in first
    # the output of real execution (the MyST notebook has no stored outputs)
    assert re.search(r"<pre><span></span>5\.0\s*</pre>", page_at(tmp_path / "first", "mystnb"))
    second = build(tmp_path / "second")  # a fresh output, the same cache
    assert "Using cached notebook" in second and "Executed notebook" not in second
    assert re.search(r"<pre><span></span>5\.0\s*</pre>", page_at(tmp_path / "second", "mystnb"))


@pytest.mark.parametrize("value, text", [(100.0, "100%"), (99.6, "99%"), (80.0, "80%"),
                                         (0.4, "1% 미만"), (0.0, "0%")])
def test_percent_text(value, text):
    from jaxko.site.ext.status import percent_text

    assert percent_text(value) == text


def test_a_failed_build_leaves_no_static_file_behind(tmp_path, warm_sphinx):
    """pydata-sphinx-theme copies the logo into _static even after a failed build."""
    import subprocess
    import sys

    from jaxko.extract import sphinx_env

    docs = _copy_docs(tmp_path)
    # A notebook whose execution fails stops the build while reading, before Sphinx
    # has created _static (conf.py: nb_execution_raise_on_error = True).
    mystnb = (docs / "mystnb.md").read_text(encoding="utf-8")
    (docs / "broken.md").write_text(mystnb.split("# Loss functions")[0]
                                    + "# Broken\n\n```{code-cell}\nraise ValueError('broken')\n```\n",
                                    encoding="utf-8")
    outdir = tmp_path / "html"
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(FIXTURES.parents[1]),
           "-d", str(tmp_path / "doctrees"), "-D", "language=ko",
           "-D", f"locale_dirs={SITE / 'locale'}", "-D", "jaxko_search_morphology=0",
           "-D", f"nb_execution_cache_path={tmp_path / 'cache'}", str(docs), str(outdir)]
    failed = subprocess.run(cmd, env=sphinx_env("narrative", "cache", docs), capture_output=True,
                            text=True)
    assert failed.returncode != 0 and "broken" in failed.stderr
    assert not (outdir / "_static").is_file()
    (docs / "broken.md").unlink()
    result = site_build.build(execute=False, srcdir=docs, outdir=outdir,
                              locale_dir=SITE / "locale", overrides={"jaxko_search_morphology": "0"},
                              sphinx=warm_sphinx)
    assert (result.outdir / "_static" / "jax_logo_250px.png").is_file()


READ_PAGE_CASES = {
    "nav and code": ('<nav class="bd-links bd-docs-nav" aria-label="Main"><div><ul><li>'
                     '<a href="a.html">배열 &amp; 함수</a></li></ul></div></nav><article>'
                     '<ul><li><p>목록</p><div class="highlight"><pre><span class="n">x</span>'
                     '<span class="o">&lt;</span>1</pre></div></li></ul><p>끝</p></article>'),
    "an image in the navigation": ('<nav class="bd-links bd-docs-nav"><ul><li><img alt="로고">'
                                   '</li></ul></nav><article><p>본문</p></article>'),
    "a script holding <pre>": ('<script>var s = "<pre>x</pre>";</script><article><p>본문</p>'
                               '<pre><span>y</span></pre></article>'),
    "an unbalanced div": ('<nav class="bd-links bd-docs-nav"><div><ul><li>a</li></ul></nav>'
                          '<article><p>본문</p></article>'),
    "code in a hidden template": '<template><pre><span>숨김</span></pre></template><p>보임</p>',
}


@pytest.mark.parametrize("name", READ_PAGE_CASES)
def test_the_audit_reads_plain_regions_as_the_parser_would(name):
    """Navigation and highlighted code are read as one piece of text each; a region
    holding anything else the parser acts on is read tag by tag."""
    from jaxko.site.audit import _PageText, read_page

    html_text = READ_PAGE_CASES[name]
    slow = _PageText()
    slow.feed(html_text)
    slow.close()
    fast = read_page(html_text)
    assert "".join(fast.chunks) == "".join(slow.chunks)
    assert fast.prose == slow.prose
    assert ("로고" in "".join(fast.chunks)) == (name == "an image in the navigation")
    assert "숨김" not in "".join(fast.chunks)
