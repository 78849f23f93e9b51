"""`jaxko review serve`: a person reviews in the browser, and the files hold what the
commands would have written; foreign requests and stale pages change nothing."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import threading
import types
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from jaxko.cli import main
from jaxko.errors import UserError
from jaxko.workflow import assignments as assignments_mod
from jaxko.workflow import review, review_serve
from jaxko.workflow.documents import Document

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
AI = "Claude (AI 2차 검토)"
TRANSLATOR = "김역자"          # notebook.ipynb's translator in the fixture's assignments.yaml
REVIEWER = "이검수"
TODAY = dt.date(2026, 11, 27)
XSS = '<img src=x onerror="alert(document.domain)">'


class FrozenDate(dt.date):
    @classmethod
    def today(cls):
        return cls(TODAY.year, TODAY.month, TODAY.day)


@pytest.fixture
def frozen_today(monkeypatch):
    """The records' date, the same for the app and the commands (both in this process)."""
    monkeypatch.setattr(review, "dt", types.SimpleNamespace(date=FrozenDate))


def git(cwd: Path, *args: str, env: dict | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True, env={**os.environ, **(env or {})}).stdout


def documents(locale: Path) -> dict[str, Document]:
    folder = locale / "ko" / "LC_MESSAGES"
    return {p.stem: Document(p.stem, p.stem, p) for p in folder.glob("*.po") if p.stem != "sphinx"}


@pytest.fixture
def project(tmp_path):
    """A git repository with the site fixture's catalogs committed by the translator,
    an AI pass over `notebook`, and the reviewer as the work tree's git user."""
    root = tmp_path / "project"
    locale = root / "locale"
    shutil.copytree(FIXTURES / "site" / "locale", locale)
    git(root, "init", "-q")
    git(root, "config", "user.email", "translator@example.org")
    git(root, "config", "user.name", TRANSLATOR)
    review.decide(documents(locale)["notebook"], review.reviews_dir(locale), reviewer=AI,
                  keys=None, all_clean=True, kind="ai-pass")
    git(root, "add", "-A")
    # an earlier day: git blame tells the newest author of a line by its time
    git(root, "commit", "-qm", "translation and an AI pass",
        env={"GIT_AUTHOR_DATE": "2026-11-20T10:00:00", "GIT_COMMITTER_DATE": "2026-11-20T10:00:00"})
    git(root, "config", "user.name", REVIEWER)
    return root


def keys_of(locale: Path) -> list[str]:
    doc = documents(locale)["notebook"]
    items = review.read_items(doc.catalog, review.load_records(
        review.records_path(review.reviews_dir(locale), "notebook")))
    return [i.key for i in items if i.waiting_for(review.Kind.PERSON)]


def start(locale: Path, reviewer: str = REVIEWER, names=("notebook",)):
    """The app as `jaxko review serve` builds it, serving in a thread of this process."""
    docs = {n: d for n, d in documents(locale).items() if n in names}
    app = review_serve.ReviewApp(
        docs, review.reviews_dir(locale), reviewer=reviewer,
        assignments_path=assignments_mod.default_path(locale, "ko"), workdir=locale.parent)
    server = review_serve.make_server(app)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return app, server


def stop(server) -> None:
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for the module's browser tests; each test has a context
    of its own (``browser_page``)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} missing: run `make system-deps` (.ci/system-deps.sh)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield browser
        browser.close()


@contextlib.contextmanager
def browser_page(chromium, dialogs: list):
    """A page in a fresh browser context (no cookies, storage or cache of another
    test's); the context is closed when the block ends."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        yield page
    finally:
        context.close()


def settle(page) -> None:
    page.evaluate("() => window.jaxkoReview.settled()")


def ready(page) -> None:
    """Wait for the queue's script: keys pressed before it runs are lost (a click on a
    link returns once the navigation commits, before the page's script has run)."""
    page.wait_for_function("() => window.jaxkoReview !== undefined")


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# --------------------------------------------------------------------------- the browser


@pytest.mark.browser
def test_a_person_reviews_in_the_browser_and_the_files_hold_what_the_commands_write(
        project, tmp_path, frozen_today, capsys, chromium):
    locale = project / "locale"
    copy = tmp_path / "by-commands"
    shutil.copytree(project, copy)               # the same start, for the commands
    keys = keys_of(locale)
    assert len(keys) == 6                        # the whole page waits for a person
    approved, rejected, edited = keys[:3], keys[3], keys[4]
    catalog = locale / "ko" / "LC_MESSAGES" / "notebook.po"
    records = locale / "ko" / "reviews" / "notebook.yaml"
    new_korean = "원소 하나"
    note = "'`nested`일 수' 대신 '중첩될 수'"
    app, server = start(locale)
    dialogs: list[str] = []
    try:
        with browser_page(chromium, dialogs) as page:
            page.goto(server.url)
            row = page.locator('tr[data-doc="notebook"]')
            assert row.locator("td.waiting").inner_text() == "6"
            page.click("text=notebook")
            ready(page)
            assert page.locator("tr.message").count() == 6
            assert "AI 검토" in page.locator(f"#m-{keys[0]} .record-ai-pass").inner_text()
            # three approvals with the keyboard: j to the first message, a three times
            page.keyboard.press("j")
            for _ in range(3):
                page.keyboard.press("a")
            settle(page)
            for key in approved:
                assert page.locator(f"#m-{key}").get_attribute("data-outcome") == "approved"
            # reject the next one with a note (r, type, Enter)
            assert page.locator("tr.message.current").get_attribute("data-key") == rejected
            page.keyboard.press("r")
            page.keyboard.type(note)
            page.keyboard.press("Enter")
            settle(page)
            assert page.locator(f"#m-{rejected}").get_attribute("data-outcome") == "rejected"
            # edit the next one: a planted fault is shown by the checker before saving
            page.keyboard.press("j")
            assert page.locator("tr.message.current").get_attribute("data-key") == edited
            page.keyboard.press("e")
            box = page.locator(f"#m-{edited} form.edit textarea")
            box.fill(new_korean + " <script>alert(1)</script>")
            page.keyboard.press("Control+Enter")
            settle(page)
            found = page.locator(f"#m-{edited} .edit-findings li.finding-error")
            assert found.count() >= 1
            assert page.locator(f"#m-{edited} form.edit button.save").is_disabled() is False
            assert catalog.read_text(encoding="utf-8").count("<script>") == 0   # not saved
            box.fill(new_korean)
            assert page.locator(f"#m-{edited} form.edit button.save").is_disabled()
            page.keyboard.press("Control+Enter")        # check the new text
            settle(page)
            assert page.locator(f"#m-{edited} .edit-findings li.finding-error").count() == 0
            page.keyboard.press("Control+Enter")        # save it
            settle(page)
            assert page.locator(f"#m-{edited}").get_attribute("data-outcome") == "edited"
            assert page.locator(f"#m-{edited} td.ko").inner_text() == new_korean
            # each message's level as the records now say
            levels = {k: page.locator(f"#m-{k} td.state .level").inner_text() for k in keys}
            assert [levels[k] for k in approved] == ["사람 검수"] * 3
            assert levels[rejected] == "AI 검토만 · 거부됨"
            assert levels[edited] == "검수 전 · 승인 후 바뀜"
            assert levels[keys[5]] == "AI 검토만"
            # progress: this session, left on the page and in the document, the commit
            assert page.locator("#done-approved").inner_text() == "3"
            assert page.locator("#done-rejected").inner_text() == "1"
            assert page.locator("#done-edited").inner_text() == "1"
            assert page.locator("#left-page").inner_text() == "1"
            assert page.locator("#left-document").inner_text() == "3"   # 6 - 3 approved
            assert page.locator('#banner [data-level="person"] b').inner_text() == "3"
            command = page.locator("#commit-command").inner_text()
            assert command.startswith("git add locale/ko/reviews/notebook.yaml "
                                      "locale/ko/LC_MESSAGES/notebook.po && git commit -m ")
            assert REVIEWER in command
            (ROOT / "_build" / "test-artifacts").mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ROOT / "_build" / "test-artifacts" / "review-serve.png"),
                            full_page=True)
        # the reviewer cannot approve their own edit (the app's request, refused)
        body = {"doc": "notebook", "keys": [edited], **{
            f"{k}_hash": v for k, v in app.hashes(app.documents["notebook"]).items()}}
        status, answer = post(server, "approve", body, {review_serve.TOKEN_HEADER: app.token})
        assert status == 422 and "another person reviews it" in answer["error"]
    finally:
        stop(server)
    assert dialogs == []
    # the same review with the commands on the copy: approve, reject, a hand edit + fmt
    clocale = copy / "locale"
    common = ["--locale-dir", str(clocale)]
    assert main(["review", "approve", "notebook", *sum((["-m", k] for k in approved), []),
                 "--reviewer", REVIEWER, *common]) == 0
    assert main(["review", "reject", "notebook", "-m", rejected, "--note", note,
                 "--reviewer", REVIEWER, *common]) == 0
    ccatalog = clocale / "ko" / "LC_MESSAGES" / "notebook.po"
    text = ccatalog.read_text(encoding="utf-8")
    old = 'msgstr "항목 하나"'
    assert text.count(old) == 1
    ccatalog.write_text(text.replace(old, f'msgstr "{new_korean}"'), encoding="utf-8")
    assert main(["fmt", str(ccatalog)]) == 0
    assert records.read_bytes() == (clocale / "ko" / "reviews" / "notebook.yaml").read_bytes()
    assert catalog.read_bytes() == ccatalog.read_bytes()
    assert "date: '2026-11-27'" in records.read_text(encoding="utf-8")
    # jaxko stats shows the person's reviews
    code, out, _ = run_cli(capsys, "stats", "notebook", "--format", "json",
                           "--locale-dir", str(locale))
    stats = json.loads(out)["documents"][0]["review"]
    assert (stats["person"], stats["ai_pass_only"], stats["not_reviewed"]) == (3, 2, 1)
    assert REVIEWER in json.dumps(json.loads(out), ensure_ascii=False)
    # and the site's banner and credits (the functions the page banner is made with)
    from jaxko.site.ext import status
    from jaxko.workflow import stats as stats_mod

    item = stats_mod.document_stats(locale, "ko", assignments_path=assignments_mod.default_path(
        locale, "ko"))["notebook"]
    assert status.review_text(item) == (
        "partial", "번역된 메시지 6개 중 3개(50%)를 사람이 검수했습니다.")
    assert f"검수: {REVIEWER}" in status.credit_parts(item)
    # the edited message is back in the person's queue, for another person
    code, out, _ = run_cli(capsys, "review", "queue", "notebook", "--format", "json",
                           "--locale-dir", str(locale))
    waiting = {w["id"]: w for w in json.loads(out)["waiting"]}
    assert set(waiting) == {rejected, edited, keys[5]}
    assert waiting[edited]["state"] == "changed" and waiting[edited]["msgstr"] == new_korean
    code, _, err = run_cli(capsys, "review", "approve", "notebook", "-m", edited,
                           "--reviewer", REVIEWER, "--locale-dir", str(locale))
    assert code == 2 and f"{REVIEWER} translated message {edited}" in err
    git(project, "add", "-A")                        # the edit, committed; another person's
    git(project, "commit", "-qm", "review and edit")  # work tree approves it
    git(project, "config", "user.name", "다른검수자")
    assert main(["review", "approve", "notebook", "-m", edited, "--reviewer", "다른검수자",
                 "--locale-dir", str(locale)]) == 0


@pytest.mark.browser
def test_a_catalog_edited_on_disk_while_the_page_shows_it_is_not_overwritten(project, chromium):
    locale = project / "locale"
    catalog = locale / "ko" / "LC_MESSAGES" / "notebook.po"
    records = locale / "ko" / "reviews" / "notebook.yaml"
    app, server = start(locale)
    try:
        with browser_page(chromium, []) as page:
            page.goto(server.url + "doc/notebook")
            # clean case: a write while nothing changed goes through
            page.keyboard.press("j")
            page.keyboard.press("a")
            settle(page)
            assert page.locator("#notice").inner_text() == ""
            before_records = records.read_bytes()
            # someone edits the catalog in an editor meanwhile
            text = catalog.read_text(encoding="utf-8").replace("항목 둘", "항목 두 개")
            catalog.write_text(text, encoding="utf-8")
            page.keyboard.press("a")
            settle(page)
            notice = page.locator("#notice").inner_text()
            assert "changed on disk since this page was shown" in notice
            assert str(catalog) in notice
            assert catalog.read_text(encoding="utf-8") == text
            assert records.read_bytes() == before_records
            # an edit is refused as well, and the approve-clean button is off
            page.keyboard.press("j")
            page.keyboard.press("e")
            page.locator("form.edit textarea").fill("덮어쓰기")
            page.keyboard.press("Control+Enter")
            settle(page)
            assert catalog.read_text(encoding="utf-8") == text
            assert page.locator("#approve-clean").is_disabled()
    finally:
        stop(server)


@pytest.mark.browser
def test_untrusted_text_shows_as_text_and_no_script_runs(project, chromium):
    locale = project / "locale"
    catalog = locale / "ko" / "LC_MESSAGES" / "notebook.po"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(text.replace('msgstr "항목 하나"', f'msgstr "항목 {XSS.replace(chr(34), chr(92) + chr(34))}"'),
                       encoding="utf-8")
    key = review.message_key(None, "one item")
    two = review.message_key(None, "two items")
    # a rejection whose note and reviewer's name are markup
    review.decide(documents(locale)["notebook"], review.reviews_dir(locale),
                  reviewer=f"<b>{XSS}</b>", keys=[two], verdict=review.REJECTED,
                  kind="ai-pass", note=XSS)
    app, server = start(locale)
    dialogs: list[str] = []
    try:
        with browser_page(chromium, dialogs) as page:
            page.goto(server.url + "doc/notebook")
            shown = page.locator(f"#m-{key} td.ko").inner_text()
            assert shown.startswith(f"항목 {XSS}\n") and shown.endswith(f"하나 {XSS}")  # and diff
            assert page.locator("main img").count() == 0
            assert XSS in page.locator(f"#m-{two} td.state").inner_text()
            # the app's own rendering of a saved edit and of findings: text as well
            page.locator(f"#m-{two} button[data-action=edit]").click()
            page.locator(f"#m-{two} form.edit textarea").fill(f"항목 둘 {XSS}")
            page.locator(f"#m-{two} form.edit button.check").click()
            settle(page)
            page.locator(f"#m-{two} form.edit button.save").click()
            settle(page)
            assert page.locator(f"#m-{two} td.ko").inner_text() == f"항목 둘 {XSS}"
            page.locator(f"#m-{key} button[data-action=reject]").click()
            page.locator(f"#m-{key} form.note textarea").fill(XSS)
            page.keyboard.press("Enter")
            settle(page)
            assert XSS in page.locator(f"#m-{key} .outcome").inner_text()
            assert page.locator("main img").count() == 0
            page.wait_for_timeout(200)
    finally:
        stop(server)
    assert dialogs == []


@pytest.mark.browser
def test_approve_every_clean_message_only_after_scrolling_through_them(project, chromium):
    locale = project / "locale"
    catalog = locale / "ko" / "LC_MESSAGES" / "notebook.po"
    # the reviewer's own edit in an editor, not committed: never approved by them
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("항목 둘", "항목 두 개"),
                       encoding="utf-8")
    own = review.message_key(None, "two items")
    app, server = start(locale)
    try:
        with browser_page(chromium, []) as page:
            page.set_viewport_size({"width": 900, "height": 420})
            page.goto(server.url + "doc/notebook")
            button = page.locator("#approve-clean")
            assert button.is_disabled()                       # the end is not seen yet
            for _ in range(6):
                page.keyboard.press("j")
            assert not button.is_disabled()
            button.click()
            settle(page)
            assert page.locator('tr.message[data-outcome="approved"]').count() == 5
            assert page.locator(f"#m-{own}").get_attribute("data-outcome") is None
            assert "1개는 승인하지 않음" in page.locator("#notice").inner_text()
            assert page.locator("#left-page").inner_text() == "1"
    finally:
        stop(server)
    assert keys_of(locale) == [own]


# --------------------------------------------------------------------------- HTTP


def post(server, action: str, body: dict, headers: dict) -> tuple[int, dict]:
    request = urllib.request.Request(server.url + "api/" + action, method="POST",
                                     data=json.dumps(body).encode("utf-8"),
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_foreign_requests_and_stale_pages_change_nothing(project):
    locale = project / "locale"
    catalog = locale / "ko" / "LC_MESSAGES" / "notebook.po"
    records = locale / "ko" / "reviews" / "notebook.yaml"
    key = keys_of(locale)[0]
    app, server = start(locale)
    try:
        doc = app.documents["notebook"]
        body = {"doc": "notebook", "keys": [key], **{f"{k}_hash": v for k, v in
                                                   app.hashes(doc).items()}}
        token = {review_serve.TOKEN_HEADER: app.token}
        before = (catalog.read_bytes(), records.read_bytes())
        own = server.url.rstrip("/")
        for headers in ({}, {review_serve.TOKEN_HEADER: "x" * 43},
                        {**token, "Origin": "http://evil.example"},
                        {**token, "Origin": "null"},
                        {**token, "Sec-Fetch-Site": "cross-site"},
                        {**token, "Host": "evil.example"}):
            for action in ("approve", "edit"):
                status, answer = post(server, action, {**body, "msgstr": "덮어씀"}, headers)
                assert status == 403, (headers, answer)
        assert (catalog.read_bytes(), records.read_bytes()) == before
        # a stale page: the records file changed since the hashes were taken
        stale = dict(body, records_hash="0" * 64)
        status, answer = post(server, "approve", stale, {**token, "Origin": own})
        assert status == 409 and answer["conflict"] and str(records) in answer["error"]
        assert (catalog.read_bytes(), records.read_bytes()) == before
        # clean case: the page's own request goes through
        status, answer = post(server, "approve", body, {**token, "Origin": own})
        assert status == 200 and answer["keys"] == [key]
        assert review.load_records(records).get(key, review.Kind.PERSON).reviewer == REVIEWER
        # a page's GET under another Host name (DNS rebinding) is refused too
        request = urllib.request.Request(server.url, headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(request, timeout=30)
        assert err.value.code == 403
    finally:
        stop(server)


def test_the_translator_is_refused_at_approval_time(project):
    locale = project / "locale"
    records = locale / "ko" / "reviews" / "notebook.yaml"
    key = keys_of(locale)[0]
    app, server = start(locale, reviewer=TRANSLATOR)
    try:
        body = {"doc": "notebook", "keys": [key], **{
            f"{k}_hash": v for k, v in app.hashes(app.documents["notebook"]).items()}}
        before = records.read_bytes()
        status, answer = post(server, "approve", body, {review_serve.TOKEN_HEADER: app.token})
        assert status == 422 and f"{TRANSLATOR} translated message {key}" in answer["error"]
        assert records.read_bytes() == before
        status, answer = post(server, "approve-clean", body, {review_serve.TOKEN_HEADER: app.token})
        assert status == 422 and records.read_bytes() == before
    finally:
        stop(server)


def test_an_uncommitted_edit_makes_the_work_trees_user_its_translator(project, capsys):
    """`jaxko review approve` too: a hand edit not yet committed is the git user's work."""
    locale = project / "locale"
    catalog = locale / "ko" / "LC_MESSAGES" / "notebook.po"
    key = review.message_key(None, "two items")
    catalog.write_text(catalog.read_text(encoding="utf-8").replace("항목 둘", "항목 두 개"),
                       encoding="utf-8")
    code, _, err = run_cli(capsys, "review", "approve", "notebook", "-m", key,
                           "--reviewer", REVIEWER, "--locale-dir", str(locale))
    assert code == 2 and f"{REVIEWER} translated message {key}" in err
    other = review.message_key(None, "one item")     # not edited: the reviewer may approve
    code, _, err = run_cli(capsys, "review", "approve", "notebook", "-m", other,
                           "--reviewer", REVIEWER, "--locale-dir", str(locale))
    assert code == 0, err
    git(project, "commit", "-qam", "edit by the reviewer")   # committed: still theirs
    code, _, err = run_cli(capsys, "review", "approve", "notebook", "-m", key,
                           "--reviewer", REVIEWER, "--locale-dir", str(locale))
    assert code == 2


def test_the_command_prints_its_url_and_serves_loopback_only(project):
    locale = project / "locale"
    proc = subprocess.Popen([sys.executable, "-m", "jaxko", "review", "serve", "notebook",
                             "--no-browser", "--locale-dir", str(locale)],
                            cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("jaxko review serve: http://127.0.0.1:"), line
        assert f"reviewer {REVIEWER}" in line          # git config user.name
        url = line.split()[3]
        assert url.endswith("/doc/notebook")
        with urllib.request.urlopen(url, timeout=60) as response:
            html = response.read().decode("utf-8")
        assert 'name="jaxko-token"' in html and "검토: notebook" in html
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()


def test_bad_options_are_one_line_exit_2(project, jaxko):
    locale = project / "locale"
    proc = jaxko("review", "serve", "--port", "70000", "--no-browser",
                 "--locale-dir", str(locale))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "--port 70000 is not a port" in proc.stderr and "Traceback" not in proc.stderr
    proc = jaxko("review", "serve", "nothing-here", "--no-browser", "--locale-dir", str(locale))
    assert proc.returncode == 2 and "no catalog for document 'nothing-here'" in proc.stderr
    proc = jaxko("review", "serve", "--help")
    assert proc.returncode == 0 and "127.0.0.1" in proc.stdout
    with pytest.raises(UserError):
        review_serve.ReviewApp({}, locale, reviewer="  ")


def test_an_edit_is_checked_before_it_is_saved(project):
    """The checker's findings on the one edited message, the catalog untouched."""
    locale = project / "locale"
    catalog = locale / "ko" / "LC_MESSAGES" / "notebook.po"
    key = review.message_key(None, "one item")
    app = review_serve.ReviewApp(documents(locale), review.reviews_dir(locale),
                                 reviewer=REVIEWER, workdir=project)
    before = catalog.read_bytes()
    body = {"doc": "notebook", "keys": [key], **{
        f"{k}_hash": v for k, v in app.hashes(app.documents["notebook"]).items()}}
    faulty = app.check_edit({**body, "msgstr": "항목 <script>alert(1)</script> 하나"})
    assert any(f["severity"] == "error" for f in faulty["findings"])
    assert app.check_edit({**body, "msgstr": "원소 하나"})["findings"] == []
    assert catalog.read_bytes() == before
    with pytest.raises(UserError, match="empty"):
        app.check_edit({**body, "msgstr": "  "})
