"""jaxko review: records keyed by content go stale by themselves; refusals; update keeps them."""

from __future__ import annotations

import json
import subprocess

import polib
import pytest

from jaxko import catalogs
from jaxko.cli import main
from jaxko.workflow import review

POT_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def write_pot(pot_dir, messages):
    pot_dir.mkdir(parents=True, exist_ok=True)
    body = "".join(f'#: doc.md:{n}\nmsgid "{m}"\nmsgstr ""\n\n' for n, m in enumerate(messages, 1))
    (pot_dir / "doc.pot").write_text(POT_HEADER + body, encoding="utf-8")


@pytest.fixture
def project(tmp_path, capsys):
    """A locale with one catalog made by `jaxko update`, two messages translated."""
    locale = tmp_path / "locale"
    pot = tmp_path / "pot"
    write_pot(pot, ["Hello world.", "Use the function.", "Another sentence."])
    update = ["update", "--pot-dir", str(pot), "--locale-dir", str(locale),
              "--srcdir", str(tmp_path)]
    assert main(update) == 0
    catalog = locale / "ko" / "LC_MESSAGES" / "doc.po"
    po = catalogs.load(catalog)
    po.find("Hello world.").msgstr = "안녕하세요, 세계."
    po.find("Use the function.").msgstr = "함수를 사용합니다."
    catalogs.save(po, catalog)
    (locale / "ko" / "assignments.yaml").write_text(
        "doc.md:\n  translator: 역자\n  status: in-review\n", encoding="utf-8")
    capsys.readouterr()
    return {"locale": locale, "pot": pot, "catalog": catalog, "update": update}


def queue(capsys, locale) -> dict:
    capsys.readouterr()
    assert main(["review", "queue", "--locale-dir", str(locale), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return {item["msgid"]: item for item in data["waiting"]}


def key_of(msgid: str) -> str:
    return review.message_key(None, msgid)


def approve(locale, *extra: str) -> int:
    return main(["review", "approve", "doc", "--locale-dir", str(locale), "--reviewer", "검수자",
                 *extra])


def test_approve_then_edit_puts_message_back_with_diff(project, capsys):
    locale, catalog = project["locale"], project["catalog"]
    waiting = queue(capsys, locale)
    assert set(waiting) == {"Hello world.", "Use the function."}  # untranslated: not queued
    assert approve(locale, "-m", key_of("Hello world.")) == 0
    assert set(queue(capsys, locale)) == {"Use the function."}
    records = review.load_records(locale / "ko" / "reviews" / "doc.yaml")
    (record,) = records
    assert (record.reviewer, record.kind, record.msgstr) == ("검수자", "person", "안녕하세요, 세계.")
    # someone edits the approved Korean: back in the queue with the word diff
    po = catalogs.load(catalog)
    po.find("Hello world.").msgstr = "안녕하세요, 여러분."
    catalogs.save(po, catalog)
    item = queue(capsys, locale)["Hello world."]
    assert item["state"] == "changed"
    assert item["diff"] == "안녕하세요, [-세계.-] {+여러분.+}"
    assert item["records"][0]["reviewer"] == "검수자" and not item["records"][0]["current"]
    capsys.readouterr()
    assert main(["review", "queue", "--locale-dir", str(locale)]) == 0
    assert "diff since the earlier approval: 안녕하세요, [-세계.-] {+여러분.+}" in capsys.readouterr().out


def test_update_keeps_records_and_msgid_bump_shows_previous_english(project, capsys):
    locale, catalog = project["locale"], project["catalog"]
    assert approve(locale, "--all-clean") == 0
    assert queue(capsys, locale) == {}
    records_file = locale / "ko" / "reviews" / "doc.yaml"
    before = records_file.read_bytes()
    # an upstream bump that leaves "Hello world." alone and changes the other message
    write_pot(project["pot"], ["Hello world.", "Use the functions.", "Another sentence."])
    assert main(project["update"]) == 0
    assert records_file.read_bytes() == before          # update never touches the records
    entry = catalogs.load(catalog).find("Hello world.")
    assert entry.msgstr == "안녕하세요, 세계." and "fuzzy" not in entry.flags
    waiting = queue(capsys, locale)
    assert "Hello world." not in waiting                 # untouched approval survives
    bumped = waiting["Use the functions."]
    assert bumped["state"] == "fuzzy"
    assert bumped["previous_msgid"] == "Use the function."
    assert bumped["records"][0]["reviewer"] == "검수자"
    capsys.readouterr()
    assert main(["review", "queue", "--locale-dir", str(locale)]) == 0
    assert "was: Use the function." in capsys.readouterr().out


def test_error_finding_refuses_approval(project, capsys):
    locale, catalog = project["locale"], project["catalog"]
    po = catalogs.load(catalog)
    po.find("Another sentence.").msgstr = "다른 문장 <script>alert(1)</script>"  # safety.html
    catalogs.save(po, catalog)
    before = catalog.read_bytes()
    capsys.readouterr()
    assert approve(locale, "-m", key_of("Another sentence.")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has open errors" in err and f"{catalog}:" in err
    assert not (locale / "ko" / "reviews" / "doc.yaml").exists()
    assert catalog.read_bytes() == before
    # --all-clean approves the clean ones and leaves the faulty one waiting
    assert approve(locale, "--all-clean") == 0
    assert set(queue(capsys, locale)) == {"Another sentence."}


def test_self_review_refused_without_self(project, capsys):
    locale = project["locale"]
    args = ["review", "approve", "doc", "--locale-dir", str(locale), "--reviewer", "역자",
            "-m", key_of("Hello world.")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--self" in err
    assert main([*args, "--self"]) == 0
    (record,) = review.load_records(locale / "ko" / "reviews" / "doc.yaml")
    assert (record.reviewer, record.kind) == ("역자", "self")


def test_git_blame_names_the_last_translator(project, capsys):
    locale, catalog = project["locale"], project["catalog"]
    (locale / "ko" / "assignments.yaml").unlink()
    git = ["git", "-C", str(locale), "-c", "user.email=b@example.com", "-c", "user.name=블레임"]
    subprocess.run(["git", "init", "-q", str(locale)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "translate"], check=True)
    args = ["review", "approve", "doc", "--locale-dir", str(locale), "-m", key_of("Hello world.")]
    assert main([*args, "--reviewer", "블레임"]) == 2
    assert "--self" in capsys.readouterr().err
    subprocess.run(["git", "-C", str(locale), "config", "user.name", "다른사람"], check=True)
    assert main([*args, "--reviewer", "다른사람"]) == 0


def test_ai_pass_and_reject_are_recorded_as_such(project, capsys):
    locale = project["locale"]
    assert approve(locale, "--kind", "ai-pass", "-m", key_of("Hello world.")) == 0
    assert main(["review", "reject", "doc", "--locale-dir", str(locale), "--reviewer", "검수자",
                 "-m", key_of("Use the function."), "--note", "'사용합니다' 대신 '씁니다'"]) == 0
    records = review.load_records(locale / "ko" / "reviews" / "doc.yaml")
    assert records.get(key_of("Hello world."), review.Kind.AI_PASS).reviewer == "검수자"
    rejected = queue(capsys, locale)["Use the function."]
    assert rejected["state"] == "rejected" and "씁니다" in rejected["records"][0]["note"]
    text = (locale / "ko" / "reviews" / "doc.yaml").read_text(encoding="utf-8")
    keys = [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("- key: ")]
    assert keys == sorted(keys) and len(keys) == 2     # stable order: small diffs


def test_an_edit_answering_a_rejection_is_changed_with_the_diff_from_the_rejected_text(
        project, capsys):
    """The reviewer who rejected, or the next one, sees what the translator changed in
    answer: state changed, the word diff from the rejected Korean, in the queue's text
    and JSON."""
    locale, catalog = project["locale"], project["catalog"]
    assert main(["review", "reject", "doc", "--locale-dir", str(locale), "--kind", "ai-pass",
                 "--reviewer", "검수자", "-m", key_of("Use the function."),
                 "--note", "'사용합니다' 대신 '씁니다'"]) == 0
    po = catalogs.load(catalog)
    rejected = po.find("Use the function.").msgstr
    po.find("Use the function.").msgstr = rejected.replace("사용합니다", "씁니다")
    catalogs.save(po, catalog)
    capsys.readouterr()
    item = queue(capsys, locale)["Use the function."]
    assert item["state"] == "changed", item
    assert item["diff"] == review.word_diff(rejected, rejected.replace("사용합니다", "씁니다"))
    assert "[-" in item["diff"] and "{+" in item["diff"]
    assert main(["review", "queue", "--kind", "ai-pass", "--locale-dir", str(locale)]) == 0
    assert f"diff since the earlier rejection: {item['diff']}" in capsys.readouterr().out


@pytest.mark.parametrize("text", ["- key: [unclosed\n", "just a string\n", "- {key: a}\n"])
def test_broken_records_file_is_one_line(project, capsys, text):
    locale = project["locale"]
    (locale / "ko" / "reviews").mkdir(parents=True)
    (locale / "ko" / "reviews" / "doc.yaml").write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["review", "queue", "--locale-dir", str(locale)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "doc.yaml" in err and "Traceback" not in err


def test_unknown_message_id_is_refused(project, capsys):
    assert approve(project["locale"], "-m", "deadbeef0000") == 2
    assert "jaxko review queue" in capsys.readouterr().err


def test_stats_json_shows_the_three_levels_and_who(project, capsys):
    locale, catalog = project["locale"], project["catalog"]
    po = catalogs.load(catalog)
    po.find("Another sentence.").msgstr = "다른 문장입니다."
    catalogs.save(po, catalog)
    assert approve(locale, "--kind", "ai-pass", "-m", key_of("Hello world."),
                   "-m", key_of("Use the function.")) == 0
    assert main(["review", "approve", "doc", "--locale-dir", str(locale), "--reviewer", "사람",
                 "-m", key_of("Hello world.")]) == 0
    capsys.readouterr()
    assert main(["stats", "--locale-dir", str(locale), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (doc,) = data["documents"]
    levels = {"translated": 3, "person": 1, "ai_pass_only": 1, "not_reviewed": 1}
    assert {k: doc["review"][k] for k in levels} == levels
    assert doc["review"]["percent_person"] == 33.3
    assert [(c["name"], c["kind"], c["messages"]) for c in doc["review"]["reviewed_by"]] == [
        ("사람", "person", 1), ("검수자", "ai-pass", 2)]      # the AI pass is still credited
    assert {k: data["total"]["review"][k] for k in levels} == levels
    assert set(data["review_levels"]) == {"person", "ai_pass_only", "not_reviewed"}
    assert main(["stats", "--locale-dir", str(locale)]) == 0
    out = capsys.readouterr().out
    assert ("Review of the 3 translated messages: 1 reviewed by a person (33.3%), "
            "1 AI pass only (33.3%), 1 not reviewed (33.3%)") in out


# ------------------------------------------------------------------ the site


def test_site_banner_and_progress_page_show_the_three_levels(tmp_path):
    """Built HTML: 검수 완료 only where a person approved every message; an AI pass is
    named as such; the banner and the progress page give the three levels."""
    import re
    import shutil

    from conftest import FIXTURES
    from jaxko.site import build as site_build
    from jaxko.workflow.documents import Document

    site = FIXTURES / "site"
    locale = tmp_path / "locale"
    shutil.copytree(site / "locale", locale)
    docs = tmp_path / "docs"
    shutil.copytree(site / "docs", docs)
    reviews = review.reviews_dir(locale)
    catalogs_dir = locale / "ko" / "LC_MESSAGES"

    def doc(name):
        return Document(name, name, catalogs_dir / f"{name}.po")

    review.decide(doc("plain"), reviews, reviewer="정검수", keys=None, all_clean=True)
    # notebook: an AI pass over every message, then a person over one of them
    review.decide(doc("notebook"), reviews, reviewer="Claude (AI 2차 검토)", keys=None,
                  all_clean=True, kind="ai-pass")
    ai_passed = review.read_items(doc("notebook").catalog,
                                  review.load_records(review.records_path(reviews, "notebook")))
    translated = [i for i in ai_passed if i.translation == "translated"]
    review.decide(doc("notebook"), reviews, reviewer="정검수", keys=[translated[0].key])
    # mystnb: an AI pass only
    review.decide(doc("mystnb"), reviews, reviewer="Claude (AI 2차 검토)", keys=None,
                  all_clean=True, kind="ai-pass")
    # index: approved by a person, then one message edited: not 검수 완료 any more
    review.decide(doc("index"), reviews, reviewer="정검수", keys=None, all_clean=True)
    po = catalogs.load(catalogs_dir / "index.po")
    entry = next(e for e in po if e.msgstr and not e.obsolete and e.msgid)
    entry.msgstr += " (고침)"
    catalogs.save(po, catalogs_dir / "index.po")
    outdir = tmp_path / "html"
    site_build.build(execute=False, srcdir=docs, outdir=outdir, locale_dir=locale,
                     glossary=site / "glossary.yaml", overrides={"jaxko_search_morphology": "0"})

    def banner(name: str) -> str:
        html = (outdir / f"{name}.html").read_text(encoding="utf-8")
        return re.search(r'<div class="jaxko-status.*?</div>', html, re.S).group(0)

    def levels(html: str) -> tuple[int, int, int]:
        found = re.search(r'data-person="(\d+)" data-ai-pass-only="(\d+)" '
                          r'data-not-reviewed="(\d+)"', html)
        return tuple(int(n) for n in found.groups())

    n_notebook = len(translated)
    plain = banner("plain")
    assert re.search(r"검수 완료: 정검수, \d{4}-\d\d-\d\d", plain)
    assert "jaxko-review-complete" in plain and "검수: 정검수" in plain
    assert levels(plain)[1:] == (0, 0) and "사람 검수 " in plain
    notebook = banner("notebook")
    assert "jaxko-review-partial" in notebook and "검수 완료" not in notebook
    assert levels(notebook) == (1, n_notebook - 1, 0)
    assert f"AI 검토만 {n_notebook - 1}개" in notebook and "를 사람이 검수했습니다" in notebook
    # credits read naturally: each name once, under the label of its kind
    assert "검수: 정검수 · AI 검토: Claude (AI 2차 검토)</p>" in notebook
    assert "(AI 2차 검토) (AI 검토)" not in notebook
    mystnb = banner("mystnb")
    assert "jaxko-review-ai" in mystnb and "AI 검토만 마쳤습니다" in mystnb
    assert "사람의 검수는 아직입니다" in mystnb and "검수 완료" not in mystnb
    assert levels(mystnb)[0] == 0 and levels(mystnb)[2] == 0
    index = banner("index")
    assert "검수 완료" not in index and "jaxko-review-partial" in index
    assert levels(index)[2] == 1
    guide = banner("guide")                     # no records: honestly not reviewed
    assert "아직 검수되지 않았습니다" in guide and "검수 완료" not in guide
    assert levels(guide)[:2] == (0, 0)
    progress = (outdir / "translation" / "progress.html").read_text(encoding="utf-8")
    assert "사람 검수" in progress and "AI 검토만" in progress and "검수 전" in progress
    assert "정검수" in progress and "AI 검토: Claude (AI 2차 검토)" in progress
    assert "영어와 다르게 번역된 문장" in progress
    person = sum(levels(banner(n))[0] for n in ("plain", "notebook", "mystnb", "index", "guide"))
    assert re.search(rf"사람 검수 {person}개\(", progress)


def test_site_names_an_ai_pass_as_such(project):
    from jaxko.site.ext.status import credit_parts, review_text
    from jaxko.workflow import stats

    locale = project["locale"]
    assert approve(locale, "--kind", "ai-pass", "--all-clean") == 0
    (item,) = stats.collect(locale).__iter__()
    state, line = review_text(item)
    assert state == "ai" and line.startswith("AI 검토만 마쳤습니다: 검수자, ")
    assert "검수 완료" not in line
    assert credit_parts(item) == ["번역: 역자", "AI 검토: 검수자"]


def test_interactive_session_approves_rejects_and_edits(project):
    from jaxko.workflow.documents import Document

    locale, catalog = project["locale"], project["catalog"]
    doc = Document("doc", "doc.md", catalog)
    answers = iter(["a", "e", "q"])
    shown: list[str] = []
    tally = review.interactive(doc, review.reviews_dir(locale), reviewer="검수자",
                               ask=lambda prompt: next(answers), show=shown.append,
                               edit=lambda text: text + " 고침")
    assert tally == {"approved": 1, "rejected": 0, "skipped": 0, "edited": 1}
    assert any("en:  Hello world." in line for line in shown)
    assert catalogs.load(catalog).find("Use the function.").msgstr == "함수를 사용합니다. 고침"
    # a refusal is shown and the session goes on: the translator cannot approve
    answers = iter(["a", "r", "고쳐 주세요"])
    shown.clear()
    tally = review.interactive(doc, review.reviews_dir(locale), reviewer="역자",
                               ask=lambda prompt: next(answers), show=shown.append,
                               assignments_path=locale / "ko" / "assignments.yaml")
    assert tally["rejected"] == 1 and any("refused:" in line and "--self" in line for line in shown)


def test_interactive_mode_needs_a_terminal(project):
    from conftest import run_jaxko

    proc = run_jaxko("review", "start", "doc", "--reviewer", "x", "--locale-dir",
                     str(project["locale"]))
    assert proc.returncode == 2 and "needs a terminal" in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_ai_pass_under_the_translators_name_is_refused(project, capsys):
    args = ["review", "approve", "doc", "--locale-dir", str(project["locale"]), "--reviewer",
            "역자", "--kind", "ai-pass", "-m", key_of("Hello world.")]
    assert main(args) == 2 and main([*args, "--self"]) == 2
    assert "--self" in capsys.readouterr().err
