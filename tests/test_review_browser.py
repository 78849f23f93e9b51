"""The review pages (`make review-html`) in headless Chromium, opened as files (no server)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from jaxko import catalogs
from jaxko.cli import main
from jaxko.workflow import review
from jaxko.workflow.documents import Document

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]


AI = "Claude (AI 2차 검토)"


@pytest.fixture
def pages(tmp_path):
    """notebook: an AI pass over every message; a person approves one; one is edited
    after the AI pass, one gets an error finding; the rest wait, AI-passed."""
    locale = tmp_path / "locale"
    shutil.copytree(FIXTURES / "site" / "locale", locale)
    catalogs_dir = locale / "ko" / "LC_MESSAGES"
    documents = {p.stem: Document(p.stem, p.stem, p) for p in catalogs_dir.glob("*.po")
                 if p.stem != "sphinx"}
    reviews = review.reviews_dir(locale)
    notebook = documents["notebook"]
    review.decide(notebook, reviews, reviewer=AI, keys=None, all_clean=True, kind="ai-pass")
    po = catalogs.load(notebook.catalog)
    translated = [e for e in po if e.msgstr and e.msgid and not e.obsolete]
    approved, edited, faulty = translated[0], translated[1], translated[2]
    review.decide(notebook, reviews, reviewer="정검수",
                  keys=[review.message_key(approved.msgctxt, approved.msgid)])
    edited.msgstr += " 고침"
    faulty.msgstr += " <script>alert(1)</script>"   # an error finding (code or safety rule)
    catalogs.save(po, notebook.catalog)
    out = tmp_path / "review"
    # what `make review-html` runs (`jaxko review html`), on this locale
    assert main(["review", "html", "--outdir", str(out), "--locale-dir", str(locale)]) == 0
    keys = {name: review.message_key(e.msgctxt, e.msgid)
            for name, e in (("approved", approved), ("edited", edited), ("faulty", faulty))}
    return out, keys, len(translated)


def test_the_page_opens_on_the_persons_queue_with_ai_pass_marks(pages):
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} missing: run `make system-deps` (.ci/system-deps.sh)")
    out, keys, total = pages
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        page = browser.new_page()
        page.goto((out / "index.html").as_uri())
        row = page.locator("tr", has=page.locator("a", has_text="notebook"))
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        # 번역 | 사람 검수 | AI 검토만 | 검수 전 | 사람 검수 대기 | 검사 결과
        assert cells[1:6] == [str(total), "1", str(total - 3), "2", str(total - 1)]
        page.click("text=notebook")
        assert page.url.endswith("/doc/notebook.html")
        rows = page.locator("tr.message")
        assert rows.count() == total
        # it opens on the person's queue: everything but the person-approved message
        assert page.locator("#only-waiting").is_checked()
        approved = page.locator(f"#m-{keys['approved']}")
        assert not approved.is_visible()
        assert page.locator("#shown").inner_text() == str(total - 1)
        waiting = page.locator('tr.message[data-state="ai-passed"]')
        assert waiting.count() == total - 3 and waiting.first.is_visible()
        mark = waiting.first.locator(".record-ai-pass .kind")
        assert mark.inner_text() == "AI 검토" and mark.is_visible()
        assert AI in waiting.first.locator("td.state").inner_text()
        assert "AI 검토만" in waiting.first.locator(".level").inner_text()
        # the edited message: its AI pass is of an earlier text, with the word diff
        edited = page.locator(f"#m-{keys['edited']}")
        assert edited.get_attribute("data-state") == "changed" and edited.is_visible()
        assert edited.locator("ins").inner_text() == "고침"
        assert "이전 번역에 대한 기록" in edited.locator(".record-ai-pass").inner_text()
        faulty = page.locator(f"#m-{keys['faulty']}")
        assert faulty.locator("li.finding-error").count() >= 1   # the planted <script>
        # the AI-pass-only filter leaves the AI-passed messages
        page.check("#only-ai")
        assert page.locator("#shown").inner_text() == str(total - 3)
        assert not edited.is_visible() and waiting.first.is_visible()
        page.uncheck("#only-ai")
        page.uncheck("#only-waiting")
        assert approved.is_visible() and page.locator("#shown").inner_text() == str(total)
        assert "사람 검수" in approved.locator(".level").inner_text()
        assert "정검수" in approved.locator(".record-person").inner_text()
        assert approved.locator(".record-ai-pass").count() == 1     # the AI record is kept
        page.check("#only-findings")
        assert faulty.is_visible() and not edited.is_visible()
        assert page.locator("#shown").inner_text() == "1"
        # the catalog link points at the real file and the msgstr line
        link = edited.locator("td a").first
        name, line = link.inner_text().split(":")
        assert name == "notebook.po"
        target = (out / "doc" / link.get_attribute("href")).resolve()
        assert target == (out.parent / "locale" / "ko" / "LC_MESSAGES" / "notebook.po").resolve()
        assert target.read_text(encoding="utf-8").split("\n")[int(line) - 1].startswith("msgstr")
        (ROOT / "_build" / "test-artifacts").mkdir(parents=True, exist_ok=True)
        page.uncheck("#only-findings")
        page.check("#only-waiting")
        page.screenshot(path=str(ROOT / "_build" / "test-artifacts" / "review-page.png"),
                        full_page=True)
        browser.close()


SEVERITY_PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

#: doc.md:1
msgid "JAX arrays are immutable, unlike NumPy arrays."
msgstr "JAX arrays are immutable, unlike NumPy arrays."

#: doc.md:3
msgid "Use the function."
msgstr "함수를 사용합니다. <script>alert(1)</script>"

#: doc.md:5
msgid "Hello world."
msgstr "안녕하세요, 세계."
"""


def test_findings_are_labelled_and_counted_by_severity_hints_apart(tmp_path):
    """Issue 44: the pages counted info hints as findings without saying so. A copied
    English sentence (a hint, and a glossary warning), an active <script> (errors), a
    clean message."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} missing: run `make system-deps` (.ci/system-deps.sh)")
    folder = tmp_path / "locale" / "ko" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "doc.po").write_text(SEVERITY_PO, encoding="utf-8")
    out = tmp_path / "review"
    assert main(["review", "html", "--outdir", str(out), "--locale-dir",
                 str(tmp_path / "locale")]) == 0
    copied, script, clean = (review.message_key(None, m) for m in (
        "JAX arrays are immutable, unlike NumPy arrays.", "Use the function.", "Hello world."))
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        page = browser.new_page()
        page.goto((out / "index.html").as_uri())
        heads = [h.strip() for h in page.locator("thead th").all_inner_texts()]
        assert heads[-3:] == ["검사 오류", "검사 경고", "검사 힌트"]
        cells = [c.strip() for c in page.locator("tbody tr").first.locator("td").all_inner_texts()]
        assert cells[-3:] == ["4", "1", "1"]
        page.locator("tbody a").first.click()
        assert page.url.endswith("/doc/doc.html")
        assert page.locator("#severities").inner_text().startswith(
            "검사 결과: 오류 4개 · 경고 1개 · 힌트 1개")
        hint = page.locator(f"#m-{copied} li.finding-info")
        assert hint.count() == 1 and hint.locator(".severity").inner_text() == "힌트"
        assert "leftover.untranslated" in hint.inner_text()
        assert page.locator(f"#m-{copied} li.finding-warning .severity").inner_text() == "경고"
        labels = page.locator(f"#m-{script} li .severity").all_inner_texts()
        assert labels and set(labels) == {"오류"}
        # errors and warnings are the findings to fix: a hint alone would not pass the filter
        page.check("#only-findings")
        assert page.locator(f"#m-{script}").is_visible()
        assert page.locator(f"#m-{copied}").is_visible()         # it has a warning too
        assert not page.locator(f"#m-{clean}").is_visible()
        assert page.locator(f"#m-{copied}").get_attribute("data-findings") == "1"
        assert page.locator(f"#m-{copied}").get_attribute("data-hints") == "1"
        browser.close()
