"""The review pages (`make review-html`) in headless Chromium, opened as files (no server)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from jaxko import catalogs
from jaxko.workflow import review, review_html
from jaxko.workflow.documents import Document

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]


@pytest.fixture
def pages(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(FIXTURES / "site" / "locale", locale)
    catalogs_dir = locale / "ko" / "LC_MESSAGES"
    documents = {p.stem: Document(p.stem, p.stem, p) for p in catalogs_dir.glob("*.po")
                 if p.stem != "sphinx"}
    reviews = review.reviews_dir(locale)
    review.decide(documents["notebook"], reviews, reviewer="정검수", keys=None, all_clean=True)
    po = catalogs.load(documents["notebook"].catalog)
    translated = [e for e in po if e.msgstr and e.msgid and not e.obsolete]
    edited, faulty = translated[0], translated[1]
    edited.msgstr += " 고침"
    faulty.msgstr += " <script>alert(1)</script>"   # safety.html: an error finding
    catalogs.save(po, documents["notebook"].catalog)
    out = tmp_path / "review"
    review_html.write_pages(documents, reviews, out)
    return out, review.message_key(edited.msgctxt, edited.msgid), \
        review.message_key(faulty.msgctxt, faulty.msgid)


def test_filters_hide_reviewed_rows_without_a_server(pages):
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} missing: run `make system-deps` (.ci/system-deps.sh)")
    out, changed_key, faulty_key = pages
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        page = browser.new_page()
        page.goto((out / "index.html").as_uri())
        page.click("text=notebook")
        assert page.url.endswith("/doc/notebook.html")
        rows = page.locator("tr.message")
        total = rows.count()
        reviewed = page.locator('tr.message[data-state="reviewed"]')
        assert total >= 3 and reviewed.count() == total - 2
        changed = page.locator(f"#m-{changed_key}")
        assert changed.get_attribute("data-state") == "changed"
        assert changed.locator("ins").inner_text() == "고침"
        assert "승인된 번역과의 차이" in changed.inner_text()
        assert reviewed.first.is_visible()
        page.check("#only-unreviewed")
        assert not reviewed.first.is_visible() and changed.is_visible()
        assert page.locator("#shown").inner_text() == "2"
        page.uncheck("#only-unreviewed")
        assert reviewed.first.is_visible()
        faulty = page.locator(f"#m-{faulty_key}")
        assert "safety.html" in faulty.locator("li.finding-error").first.inner_text()
        page.check("#only-findings")
        assert faulty.is_visible() and not changed.is_visible()
        assert not reviewed.first.is_visible()
        assert page.locator("#shown").inner_text() == "1"
        # the catalog link points at the real file and line
        link = changed.locator("td a").first
        assert link.inner_text().startswith("notebook.po:")
        target = (out / "doc" / link.get_attribute("href")).resolve()
        assert target == (out.parent / "locale" / "ko" / "LC_MESSAGES" / "notebook.po").resolve()
        (ROOT / "_build" / "test-artifacts").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ROOT / "_build" / "test-artifacts" / "review-page.png"),
                        full_page=True)
        browser.close()
