"""What a site build keeps between runs (jaxko.memo, jaxko.site.state): a kept result
is used only for inputs equal byte for byte to those it came from, and no checkout can
hand the build a kept result.

Real builds of a small tree (the gate's own, tests/test_site_gate.py) with real Sphinx;
each test plants the change a stale result would hide and sees it found."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from conftest import FIXTURES, run_jaxko
from jaxko import memo
from jaxko.errors import UserError
from jaxko.site import audit as site_audit
from jaxko.site import build as site_build
from jaxko.memo import refuse_tracked
from jaxko.site.state import BuildState
from jaxko.workflow import stats
from test_site_gate import CLEAN, _tree

PAYLOAD = "본문 <script>alert(50)</script>"


def _set_msgstr(catalog: Path, msgid: str, msgstr: str) -> None:
    po = polib.pofile(str(catalog))
    po.find(msgid).msgstr = msgstr
    po.save(str(catalog))


# Every build here indexes for search without Kiwi's morphology (the rules alone): what
# these tests keep and compare is the pages and the kept state, not the search index
# (Kiwi in a build: test_site_kiwi_process, test_site_watch).
RULES = {"jaxko_search_morphology": "0"}


def _build(docs: Path, locale: Path, outdir: Path, **overrides):
    return site_build.build(execute=False, srcdir=docs, outdir=outdir, locale_dir=locale,
                            overrides={**RULES, **overrides})


def _build_keeping_nothing(docs: Path, locale: Path, outdir: Path):
    return _build(docs, locale, outdir, jaxko_template_cache="", jaxko_nav_cache="")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A clean tree built once: every kept result exists (``html``); and built once more
    keeping nothing (``cold``: no kept templates, no kept navigation). A test that
    changes the tree takes ``site``, which puts it back as it was built afterwards."""
    tmp = tmp_path_factory.mktemp("state") / "tree"
    tmp.mkdir()
    docs, locale = _tree(tmp, hostile=False)
    result = _build(docs, locale, tmp / "html")
    assert result.blocked == []
    _build_keeping_nothing(docs, locale, tmp / "cold")
    shutil.copytree(tmp, tmp.parent / "as-built", symlinks=True)
    return tmp, docs, locale


@pytest.fixture
def site(built):
    """The built tree with its output and kept state, where it was built, so a build
    after a change is incremental (Sphinx reads again only what changed, as in a
    translator's checkout). Put back byte for byte, mtimes included, after the test."""
    tmp, docs, locale = built
    yield docs, locale, tmp / "html"
    shutil.rmtree(tmp)
    shutil.copytree(tmp.parent / "as-built", tmp, symlinks=True)


def test_the_build_keeps_its_state_beside_the_output(built):
    tmp, *_ = built
    state = BuildState(tmp / "html")
    assert state.file("stats").is_file()  # the audit's is the command's (tested below)
    assert (state.folder / "gate" / "copies.json").is_file()
    assert (state.folder / "gate" / "check" / "check.json").is_file()
    assert not any((tmp / "html").rglob("*.json.tmp"))


def test_a_catalog_changed_after_a_clean_build_is_judged_again(site):
    docs, locale, html = site
    _set_msgstr(locale / "ko" / "LC_MESSAGES" / "page.po", "Paragraph 1 of page.", PAYLOAD)
    result = _build(docs, locale, html)
    assert {b.msgid for b in result.blocked} == {"Paragraph 1 of page."}
    page = (html / "page.html").read_text(encoding="utf-8")
    assert "alert(50)" not in page and "Paragraph 1 of page." in page


def test_a_gated_copy_changed_by_hand_is_written_again(site):
    """The copy Sphinx reads is checked against what the gate wrote, not trusted."""
    docs, locale, html = site
    gated = html.parent / "html-locale" / "ko" / "LC_MESSAGES" / "page.po"
    _set_msgstr(gated, "Paragraph 1 of page.", PAYLOAD)
    _build(docs, locale, html)
    assert polib.pofile(str(gated)).find("Paragraph 1 of page.").msgstr == CLEAN
    assert "alert(50)" not in (html / "page.html").read_text(encoding="utf-8")


def test_a_review_record_changed_after_a_build_shows_on_the_banner(site):
    """The stats kept for the banners follow the review records, not only the catalog."""
    docs, locale, html = site
    assert "Test AI" not in (html / "page.html").read_text(encoding="utf-8")
    proc = run_jaxko("review", "approve", "page", "--all-clean", "--kind", "ai-pass",
                     "--reviewer", "Test AI", "--locale-dir", str(locale))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _build(docs, locale, html)
    assert "Test AI" in (html / "page.html").read_text(encoding="utf-8")


def test_compiled_templates_are_kept_and_write_the_same_pages(built, tmp_path):
    """The theme's templates compiled by one build serve the next (Jinja's bytecode
    cache in the state folder), and the pages are the bytes a build without it writes
    (the tree's ``cold`` build, which keeps nothing)."""
    tmp, docs, locale = built
    kept = BuildState(tmp / "html").folder / "templates"
    assert len(list(kept.glob("*.cache"))) > 10
    warm = _build(docs, locale, tmp_path / "warm", jaxko_template_cache=str(kept))
    cold = tmp / "cold"
    pages = sorted(p.relative_to(warm.outdir) for p in warm.outdir.rglob("*.html"))
    assert len(pages) >= 5
    assert [p for p in pages if (warm.outdir / p).read_bytes() != (cold / p).read_bytes()] == []
    assert not (BuildState(cold).folder / "templates").exists()


def test_kept_navigation_writes_the_pages_a_build_without_it_writes(site):
    """The site's own conf and theme: after a paragraph edit, the rewritten pages take
    their navigation from the kept folder (a mark planted in it shows on them; no file
    of it written again), and every page is, mark aside, the bytes the same two builds
    write keeping nothing (the first two are the tree's own, ``html`` and ``cold``)."""
    docs, locale, html = site
    cold = html.parent / "cold"
    [digest] = list((BuildState(html).folder / "nav").iterdir())
    mark = "<!-- kept -->"
    for path in digest.iterdir():
        path.write_text(path.read_text(encoding="utf-8") + mark, encoding="utf-8")
    kept = {p.name: p.stat().st_mtime_ns for p in digest.iterdir()}
    assert len(kept) >= 5
    written = (html / "page.html").stat().st_mtime_ns
    _set_msgstr(locale / "ko" / "LC_MESSAGES" / "page.po", "Paragraph 1 of page.",
                "고쳐 쓴 문단입니다.")
    _build(docs, locale, html)
    _build_keeping_nothing(docs, locale, cold)
    assert (html / "page.html").stat().st_mtime_ns != written
    assert "고쳐 쓴 문단입니다." in (html / "page.html").read_text(encoding="utf-8")
    assert mark in (html / "page.html").read_text(encoding="utf-8")
    assert list((BuildState(html).folder / "nav").iterdir()) == [digest]
    assert {p.name: p.stat().st_mtime_ns for p in digest.iterdir()} == kept
    assert not (BuildState(cold).folder / "nav").exists()
    pages = sorted(p.relative_to(html) for p in html.rglob("*.html"))
    differ = [p for p in pages if (html / p).read_text(encoding="utf-8").replace(mark, "")
              != (cold / p).read_text(encoding="utf-8")]
    assert differ == []


def _translated_in_progress(html: Path) -> int:
    text = (html / "translation" / "progress.html").read_text(encoding="utf-8")
    return int(re.search(r"메시지 \d+개 중 (\d+)개 번역", text).group(1))


def test_the_progress_page_is_read_again_when_what_it_shows_changed(site):
    """A reworded msgstr leaves the progress page (and the pages listing it) unwritten;
    a message that becomes untranslated rewrites it with the new count. (The built tree
    where it was built: in a copy elsewhere, Sphinx would read everything again.)"""
    docs, locale, html = site
    progress = html / "translation" / "progress.html"
    written, translated = progress.stat().st_mtime_ns, _translated_in_progress(html)
    catalog = locale / "ko" / "LC_MESSAGES" / "page.po"
    _set_msgstr(catalog, "Paragraph 1 of page.", "고쳐 쓴 문단입니다.")
    _build(docs, locale, html)
    assert "고쳐 쓴 문단입니다." in (html / "page.html").read_text(encoding="utf-8")
    assert progress.stat().st_mtime_ns == written
    _set_msgstr(catalog, "Paragraph 1 of page.", "")
    _build(docs, locale, html)
    assert progress.stat().st_mtime_ns != written
    assert _translated_in_progress(html) == translated - 1


def test_an_audit_kept_for_a_page_is_not_used_once_the_page_changed(site):
    docs, locale, html = site
    cache = BuildState(html).file("audit")
    first = site_audit.audit(html, locale, srcdir=docs, cache=cache)
    assert first.findings == [] and first.messages > 0
    page = html / "page.html"
    page.write_text(page.read_text(encoding="utf-8").replace(CLEAN, "Paragraph 1 of page.", 1),
                    encoding="utf-8")
    again = site_audit.audit(html, locale, srcdir=docs, cache=cache)
    assert [f.msgid for f in again.findings] == ["Paragraph 1 of page."]
    assert again.messages == first.messages


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def checkout(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    (root / ".gitignore").write_text("/_build/\n", encoding="utf-8")
    _git(root, "add", ".gitignore")
    return root


def test_build_state_that_git_tracks_stops_the_build(checkout):
    state = BuildState(checkout / "_build" / "html")
    planted = state.folder / "gate" / "check" / "check.json"
    planted.parent.mkdir(parents=True)
    planted.write_text("{}", encoding="utf-8")
    refuse_tracked(state.trusted(checkout))  # untracked: the build's own
    _git(checkout, "add", "-f", str(planted))
    with pytest.raises(UserError) as caught:
        refuse_tracked(state.trusted(checkout))
    assert "_build/.jaxko-state/html/gate/check/check.json" in caught.value.format()
    assert "git rm --cached" in caught.value.format()


def test_a_tracked_pickle_stops_the_command_with_one_line(checkout, tmp_path):
    """Sphinx's own pickled environment is build state too; exit 2, no traceback."""
    doctrees = checkout / "_build" / ".doctrees" / "html"
    doctrees.mkdir(parents=True)
    (doctrees / "environment.pickle").write_bytes(b"not a pickle")
    _git(checkout, "add", "-f", "_build/.doctrees/html/environment.pickle")
    proc = run_jaxko("site", "build", "--no-execute", "--no-notebooks",
                     "--outdir", str(checkout / "_build" / "html"),
                     env={"JAXKO_ROOT": str(checkout)})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "environment.pickle" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_tracked_check_cache_stops_jaxko_check(checkout, monkeypatch):
    """`jaxko check`'s own cache (.jaxko_cache/) is a kept result too: a planted one
    would hide findings. Untracked it is used; tracked, the check stops (exit 2)."""
    catalog = checkout / "locale" / "ko" / "LC_MESSAGES" / "a.po"
    catalog.parent.mkdir(parents=True)
    catalog.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                       '#: a.md:1\nmsgid "Paragraph."\nmsgstr "<script>alert(1)</script>"\n',
                       encoding="utf-8")
    monkeypatch.delenv("JAXKO_CACHE_DIR")  # the default: .jaxko_cache/ of the checkout
    first = run_jaxko("check", "--format", "json", "locale/ko", cwd=checkout)
    assert first.returncode == 1 and "safety." in first.stdout, first.stdout + first.stderr
    assert (checkout / ".jaxko_cache" / "check.json").is_file()
    again = run_jaxko("check", "--format", "json", "locale/ko", cwd=checkout)
    assert again.returncode == 1
    assert json.loads(again.stdout)["findings"] == json.loads(first.stdout)["findings"]
    assert '"cached": 1' in again.stdout
    _git(checkout, "add", "-f", ".jaxko_cache/check.json")
    planted = run_jaxko("check", "locale/ko", cwd=checkout)
    assert planted.returncode == 2, planted.stdout + planted.stderr
    assert ".jaxko_cache/check.json" in planted.stderr and "Traceback" not in planted.stderr
    assert run_jaxko("check", "--no-cache", "locale/ko", cwd=checkout).returncode == 1


# ------------------------------------------------------------------- the stats' memo

STATS = FIXTURES / "workflow" / "stats" / "locale"


def _summary(items) -> list:
    return [(d.docname, d.document.source, d.counts, d.review, d.translators) for d in items]


def test_stats_kept_between_runs_equal_stats_read_anew(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(STATS, locale)
    cache = tmp_path / "stats.json"
    cold = stats.collect(locale, cache=cache)
    assert cache.is_file()
    assert _summary(stats.collect(locale, cache=cache)) == _summary(cold) \
        == _summary(stats.collect(locale))
    catalog = locale / "ko" / "LC_MESSAGES" / "index.po"
    po = polib.pofile(str(catalog))
    entry = next(e for e in po if not e.translated() and not e.obsolete)
    entry.msgstr = "번역했습니다."
    entry.flags = [f for f in entry.flags if f != "fuzzy"]
    po.save(str(catalog))
    warm = {d.docname: d.counts for d in stats.collect(locale, cache=cache)}
    fresh = {d.docname: d.counts for d in stats.collect(locale)}
    assert warm == fresh and warm["index"].translated == \
        next(d for d in cold if d.docname == "index").counts.translated + 1


def test_a_broken_catalog_fails_every_run_after_a_kept_one(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(STATS, locale)
    cache = tmp_path / "stats.json"
    stats.collect(locale, cache=cache)
    catalog = locale / "ko" / "LC_MESSAGES" / "index.po"
    catalog.write_text(catalog.read_text(encoding="utf-8") + '\nmsgid "x"\nmsgstr "y\n',
                       encoding="utf-8")
    for _ in range(2):
        with pytest.raises(UserError) as caught:
            stats.collect(locale, cache=cache)
        assert "index.po" in caught.value.format()


@pytest.mark.parametrize("damage", ["", "{", '{"stamp": 1}', "[1, 2]",
                                    '{"stamp": null, "results": {"a b": [1]}}'])
def test_a_damaged_memo_is_a_cold_start(tmp_path, damage):
    locale = tmp_path / "locale"
    shutil.copytree(STATS, locale)
    cache = tmp_path / "stats.json"
    cache.write_text(damage, encoding="utf-8")
    assert _summary(stats.collect(locale, cache=cache)) == _summary(stats.collect(locale))
    assert json.loads(cache.read_text(encoding="utf-8"))["stamp"][0] == "stats"


def test_a_kept_result_of_the_wrong_shape_is_read_again(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(STATS, locale)
    cache = tmp_path / "stats.json"
    stats.collect(locale, cache=cache)
    data = json.loads(cache.read_text(encoding="utf-8"))
    data["results"] = {key: [{}, {"translated": "many"}, [0, 0, 0, []]]
                       for key in data["results"]}
    cache.write_text(json.dumps(data), encoding="utf-8")
    assert _summary(stats.collect(locale, cache=cache)) == _summary(stats.collect(locale))


def test_a_memo_of_other_code_is_not_used(tmp_path, monkeypatch):
    path = tmp_path / "m.json"
    kept = memo.Memo(path, "test")
    kept.put("k", 1)
    kept.save()
    assert memo.Memo(path, "test").get("k") == 1
    assert memo.Memo(path, "other").get("k") is None
    monkeypatch.setattr(memo, "_CODE", "another source")
    assert memo.Memo(path, "test").get("k") is None
