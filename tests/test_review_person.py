"""A person can review AI-passed pages: the person's queue, records per kind with their
history, one line per bad records file, and the translator-facing fixes of issue 27."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxko import catalogs
from jaxko import catalogs as pofile
from jaxko.cli import main
from jaxko.workflow import review
from jaxko.workflow.documents import Document
from test_workflow_review import key_of, project  # noqa: F401  (project: the fixture)

AI = "Claude (AI 2차 검토)"
ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def review_cmd(locale, action: str, *args: str) -> list[str]:
    return ["review", action, *args, "--locale-dir", str(locale)]


def person_queue(capsys, locale, *extra: str) -> dict:
    code, out, _ = run(capsys, *review_cmd(locale, "queue", "--format", "json", *extra))
    assert code == 0
    return {item["msgid"]: item for item in json.loads(out)["waiting"]}


def ai_pass_all(locale) -> None:
    assert main(review_cmd(locale, "approve", "doc", "--all-clean", "--kind", "ai-pass",
                           "--reviewer", AI)) == 0


def records_file(locale) -> Path:
    return locale / "ko" / "reviews" / "doc.yaml"


def test_person_approving_an_ai_passed_page_records_person_and_keeps_the_ai_records(
        project, capsys):
    locale = project["locale"]
    ai_pass_all(locale)
    ai_records = {(r.key, r.kind): r for r in review.load_records(records_file(locale))}
    assert {kind for _key, kind in ai_records} == {review.Kind.AI_PASS}
    # the person's queue holds the AI-passed messages, marked as such with the AI record
    waiting = person_queue(capsys, locale)
    assert set(waiting) == {"Hello world.", "Use the function."}
    for item in waiting.values():
        assert item["state"] == "ai-passed" and item["level"] == "ai_pass_only"
        (record,) = item["records"]
        assert (record["kind"], record["reviewer"], record["current"]) == ("ai-pass", AI, True)
    code, out, _ = run(capsys, *review_cmd(locale, "queue"))
    assert "[ai-passed] (AI pass only)" in out and f"ai-pass (AI 검토) approved by {AI}" in out
    assert out.rstrip().endswith("2 messages wait for a person's review (2 ai-passed)")
    assert person_queue(capsys, locale, "--kind", "ai-pass") == {}   # the AI pass is done
    # a person approves the whole page
    code, out, err = run(capsys, *review_cmd(locale, "approve", "doc", "--all-clean",
                                              "--reviewer", "검수자"))
    assert code == 0, err
    assert "2 messages approved by 검수자 (person: 검수)" in out
    records = review.load_records(records_file(locale))
    for msgid in ("Hello world.", "Use the function."):
        person = records.get(key_of(msgid), review.Kind.PERSON)
        assert (person.kind, person.reviewer, person.verdict) == (review.Kind.PERSON, "검수자",
                                                                  "approved")
        # the AI record is kept, unchanged
        assert records.get(key_of(msgid), review.Kind.AI_PASS) == \
            ai_records[(key_of(msgid), review.Kind.AI_PASS)]
    assert len(records) == 4
    assert person_queue(capsys, locale) == {}
    # the same approval again changes nothing: no history of identical verdicts
    before = records_file(locale).read_bytes()
    assert main(review_cmd(locale, "approve", "doc", "-m", key_of("Hello world."),
                           "--reviewer", "검수자")) == 0
    assert records_file(locale).read_bytes() == before


def test_approve_message_as_a_person_over_an_ai_pass(project, capsys):
    """Planted fault of the issue: `approve --message` over an AI pass once said
    'nothing to record' or replaced the AI record."""
    locale = project["locale"]
    ai_pass_all(locale)
    assert main(review_cmd(locale, "approve", "doc", "-m", key_of("Use the function."),
                           "--reviewer", "검수자")) == 0
    records = review.load_records(records_file(locale))
    kinds = {r.kind for r in records if r.key == key_of("Use the function.")}
    assert kinds == {review.Kind.PERSON, review.Kind.AI_PASS}
    assert set(person_queue(capsys, locale)) == {"Hello world."}


def test_editing_one_msgstr_puts_exactly_that_message_back_in_the_persons_queue(
        project, capsys):
    locale, catalog = project["locale"], project["catalog"]
    ai_pass_all(locale)
    assert main(review_cmd(locale, "approve", "doc", "--all-clean", "--reviewer", "검수자")) == 0
    assert person_queue(capsys, locale) == {}
    po = catalogs.load(catalog)
    po.find("Use the function.").msgstr = "함수를 씁니다."
    catalogs.save(po, catalog)
    waiting = person_queue(capsys, locale)
    assert list(waiting) == ["Use the function."]
    item = waiting["Use the function."]
    assert item["state"] == "changed" and item["level"] == "not_reviewed"
    assert item["diff"] == "함수를 [-사용합니다.-] {+씁니다.+}"
    assert {(r["kind"], r["current"]) for r in item["records"]} == {("person", False),
                                                                   ("ai-pass", False)}
    # it waits for the AI pass too, and the other message for nobody
    assert list(person_queue(capsys, locale, "--kind", "ai-pass")) == ["Use the function."]


def test_a_rejection_fixed_and_approved_stays_in_the_history(project, capsys):
    locale, catalog = project["locale"], project["catalog"]
    assert main(review_cmd(locale, "reject", "doc", "-m", key_of("Use the function."),
                           "--kind", "ai-pass", "--reviewer", AI,
                           "--note", "'사용합니다' 대신 '씁니다'")) == 0
    waiting = person_queue(capsys, locale, "--kind", "ai-pass")
    assert waiting["Use the function."]["state"] == "rejected"
    # --all-clean does not approve a message someone rejected
    ai_pass_all(locale)
    assert "Use the function." in person_queue(capsys, locale, "--kind", "ai-pass")
    po = catalogs.load(catalog)
    po.find("Use the function.").msgstr = "함수를 씁니다."
    catalogs.save(po, catalog)
    ai_pass_all(locale)
    record = review.load_records(records_file(locale)).get(key_of("Use the function."),
                                                           review.Kind.AI_PASS)
    assert record.verdict == "approved" and record.msgstr == "함수를 씁니다."
    (past,) = record.history
    assert (past.verdict, past.note, past.msgstr) == ("rejected", "'사용합니다' 대신 '씁니다'",
                                                      "함수를 사용합니다.")
    # the person sees the AI pass's rejected-then-fixed history
    item = person_queue(capsys, locale)["Use the function."]
    assert item["state"] == "ai-passed"
    assert item["records"][0]["history"][0]["verdict"] == "rejected"
    code, out, _ = run(capsys, *review_cmd(locale, "queue", "--state", "ai-passed"))
    assert f"earlier: rejected by {AI}" in out and "the Korean has changed since" in out
    text = records_file(locale).read_text(encoding="utf-8")
    assert "history:" in text and "verdict: rejected" in text


def test_duplicate_record_of_one_kind_is_one_line_exit_2(project, capsys):
    locale = project["locale"]
    ai_pass_all(locale)
    assert main(review_cmd(locale, "approve", "doc", "-m", key_of("Hello world."),
                           "--reviewer", "검수자")) == 0
    path = records_file(locale)
    text = path.read_text(encoding="utf-8")
    assert len(person_queue(capsys, locale)) == 1    # clean: two kinds of one message load
    blocks = ["- key:" + b for b in text.split("- key:")[1:]]
    ai_block = next(b for b in blocks if "kind: ai-pass" in b and key_of("Hello world.") in b)
    path.write_text(text + ai_block, encoding="utf-8")   # the same message and kind again
    line = text.count("\n") + 1
    code, out, err = run(capsys, *review_cmd(locale, "queue"))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert f"{path}:{line}: a second ai-pass record for message {key_of('Hello world.')}" in err
    assert "keep one record per message and kind" in err


@pytest.mark.parametrize("text, line, what", [
    ("- key: a\n  msgstr_hash: b\n  msgstr: c\n  reviewer: d\n  date: e\n  kind: robot\n", 1,
     "kind 'robot'"),
    ("- key: a\n  msgstr_hash: b\n  msgstr: c\n  reviewer: d\n  date: e\n"
     "- key: f\n  msgstr: c\n", 6, "lacks msgstr_hash"),
    ("- key: a\n  msgstr_hash: b\n  msgstr: c\n  reviewer: d\n  date: e\n  history: [1]\n", 1,
     "history entry"),
])
def test_malformed_records_name_their_line(project, capsys, text, line, what):
    path = records_file(project["locale"])
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, *review_cmd(project["locale"], "queue"))
    assert code == 2 and err.count("\n") == 1 and f"{path}:{line}: record" in err and what in err


def test_interactive_ai_pass_records_its_rejections_as_ai_pass(project):
    """Planted fault of the issue: `review start --kind ai-pass` recorded its rejections
    as a person's."""
    locale, catalog = project["locale"], project["catalog"]
    doc = Document("doc", "doc.md", catalog)
    answers = iter(["r", "고쳐 주세요", "a"])
    shown: list[str] = []
    tally = review.interactive(doc, review.reviews_dir(locale), reviewer=AI,
                               ask=lambda prompt: next(answers), show=shown.append,
                               kind="ai-pass")
    assert tally["rejected"] == 1 and tally["approved"] == 1
    records = list(review.load_records(records_file(locale)))
    assert {(r.kind, r.verdict) for r in records} == {(review.Kind.AI_PASS, "rejected"),
                                                      (review.Kind.AI_PASS, "approved")}
    # the person's session follows the person's queue: both messages, AI-passed one marked
    answers = iter(["s", "s"])
    shown.clear()
    review.interactive(doc, review.reviews_dir(locale), reviewer="검수자",
                       ask=lambda prompt: next(answers), show=shown.append)
    assert sum(line.startswith("[") for line in shown) == 2
    assert any("(ai-passed)" in line for line in shown)
    assert any("ai-pass (AI 검토) rejected by" in line and "고쳐 주세요" in line for line in shown)


def test_check_and_queue_point_at_the_same_msgstr_line(project, capsys):
    locale, catalog = project["locale"], project["catalog"]
    po = catalogs.load(catalog)
    po.find("Another sentence.").msgstr = "다른 문장 <script>alert(1)</script>"  # an error
    catalogs.save(po, catalog)
    code, out, _ = run(capsys, "check", "--format", "json", str(catalog))
    assert code == 1
    found = {f["line"] for f in json.loads(out)["findings"] if f["msgid"] == "Another sentence."}
    (line,) = found
    queued = person_queue(capsys, locale)["Another sentence."]
    lines = catalog.read_text(encoding="utf-8").split("\n")
    assert line == queued["line"]
    assert lines[queued["line"] - 1].startswith("msgstr ")
    code, out, _ = run(capsys, *review_cmd(locale, "queue"))
    assert f"{catalog}:{queued['line']}: {key_of('Another sentence.')}" in out


def test_check_summary_explains_suppressed(tmp_path, capsys):
    catalog = tmp_path / "a.po"
    catalog.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                       '# jaxko: ignore particle.agreement -- 예시\n#: guide.md:3\n'
                       'msgid "Use the array."\nmsgstr "배열를 쓰세요."\n', encoding="utf-8")
    glossary = ROOT / "tests" / "fixtures" / "check" / "glossary.yaml"
    code, out, _ = run(capsys, "check", "--glossary", str(glossary), str(catalog))
    assert code == 0
    assert "1 suppressed by `# jaxko: ignore RULE` comments" in out


def test_unknown_options_point_at_the_subcommands_help(project):
    from conftest import run_jaxko

    proc = run_jaxko(*review_cmd(project["locale"], "queue", "--bogus"))
    assert proc.returncode == 2 and proc.stderr == (
        "jaxko review queue: unrecognized arguments: --bogus; see `jaxko review queue --help`\n")
    proc = run_jaxko("stats", "--nope")
    assert proc.returncode == 2 and "see `jaxko stats --help`" in proc.stderr
    proc = run_jaxko("--nope")
    assert proc.returncode == 2 and "see `jaxko --help`" in proc.stderr


def test_stats_for_one_document_and_totals_of_the_listed_ones(project, capsys):
    locale = project["locale"]
    pot = project["pot"]
    (pot / "other.pot").write_text((pot / "doc.pot").read_text(encoding="utf-8"),
                                   encoding="utf-8")
    assert main(project["update"]) == 0
    code, out, err = run(capsys, "stats", "doc", "--locale-dir", str(locale))
    assert code == 0, err
    assert "doc" in out and "other" not in out
    assert "Total of the 1 document listed (the documents named): 2/3 messages" in out
    code, out, _ = run(capsys, "stats", "--todo", "--locale-dir", str(locale))
    assert "Total of the 2 documents listed (not fully translated): 2/6 messages" in out
    code, out, _ = run(capsys, "stats", "--locale-dir", str(locale))
    assert "Total of all 2 documents: 2/6 messages" in out
    code, _, err = run(capsys, "stats", "nothing-here", "--locale-dir", str(locale))
    assert code == 2 and "no catalog for document 'nothing-here'" in err


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
def test_committed_records_load_and_write_back_unchanged():
    """The committed records (honest AI passes) round-trip byte for byte: the record
    model never rewrites them."""
    folder = ROOT / "locale" / "ko" / "reviews"
    files = sorted(folder.rglob("*.yaml"))
    assert files
    for path in files:
        records = review.load_records(path)
        assert records
        rendered = review.yaml.safe_dump([review._as_yaml(r) for r in records],
                                         allow_unicode=True, sort_keys=False, width=100)
        assert rendered == path.read_text(encoding="utf-8"), path


def test_kinds_and_levels_have_one_label_each():
    assert [k.label for k in review.Kind] == ["검수", "역자 본인 검수", "AI 검토"]
    assert [lv.label for lv in review.Level] == ["검수 전", "AI 검토만", "사람 검수"]
    assert review.Kind.SELF.level is review.Level.PERSON
    assert review.Kind.AI_PASS.level is review.Level.AI_PASS
    msgstr_lines = {e.msgstr_line for e in pofile.parse(
        'msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "b"\n', "x.po")}
    assert msgstr_lines == {2, 5}


def test_stats_and_banner_name_the_person_once_a_person_approved(project, capsys):
    """Issue 44: `jaxko stats` said "review: Claude (AI 2차 검토) (in-review)" for a page a
    person had fully approved (the assigned reviewer and status of assignments.yaml)."""
    from jaxko.site.ext.status import credit_parts, review_text
    from jaxko.workflow import stats

    locale, catalog = project["locale"], project["catalog"]
    (locale / "ko" / "assignments.yaml").write_text(
        f'doc.md:\n  translator: 역자\n  reviewer: "{AI}"\n  status: in-review\n',
        encoding="utf-8")

    def text() -> str:
        code, out, _ = run(capsys, "stats", "--locale-dir", str(locale))
        assert code == 0
        (line,) = [line for line in out.splitlines() if line.startswith("  doc ")]
        return line

    def review_json() -> dict:
        code, out, _ = run(capsys, "stats", "--locale-dir", str(locale), "--format", "json")
        (doc,) = json.loads(out)["documents"]
        return doc["review"]

    assert text().endswith(f"역자 reviewer assigned: {AI} (in-review)")   # nothing recorded
    ai_pass_all(locale)
    assert text().endswith(f"역자 AI pass: {AI} (in-review)")
    assert "reviewed by" not in text() and review_json()["state"] == "ai"
    # the Korean of one message changes: the AI pass on it is no longer current
    po = catalogs.load(catalog)
    po.find("Hello world.").msgstr = "안녕, 세계."
    catalogs.save(po, catalog)
    assert main(review_cmd(locale, "approve", "doc", "--all-clean", "--reviewer", "검수자")) == 0
    line = text()
    assert line.endswith(f"역자 reviewed by: 검수자; AI pass: {AI} (in-review; every translated "
                         "message reviewed by a person)")
    assert f"reviewer assigned: {AI}" not in line
    data = review_json()
    assert data["state"] == "complete" and data["person"] == data["translated"] == 2
    assert [(r["name"], r["kind"]) for r in data["reviewed_by"]] == [
        ("검수자", "person"), (AI, "ai-pass")]
    code, out, _ = run(capsys, "stats", "--locale-dir", str(locale), "--format", "markdown")
    assert f"| 역자 | 검수자; AI 검토: {AI} | 검토 중 |" in out
    # the banner: 검수 완료 by the person; the AI named as an AI pass, never as 검수 (예정)
    (item,) = stats.collect(locale).__iter__()
    state, banner_line = review_text(item)
    assert state == "complete" and banner_line.startswith("검수 완료: 검수자, ")
    assert credit_parts(item) == ["번역: 역자", "검수: 검수자", f"AI 검토: {AI}"]
    # a page not yet fully reviewed still names the assigned reviewer as assigned
    po.find("Use the function.").msgstr = "함수를 쓰세요."
    catalogs.save(po, catalog)
    assert text().endswith(f"reviewed by: 검수자; reviewer assigned: {AI} (in-review)")
    assert review_json()["state"] == "partial"
    # the person approves the edit too: no AI pass is current any more, and the AI still
    # assigned as reviewer is not shown as a reviewer to come (검수 예정 names people)
    assert main(review_cmd(locale, "approve", "doc", "--all-clean", "--reviewer", "검수자")) == 0
    assert text().endswith("역자 reviewed by: 검수자 (in-review; every translated message "
                           "reviewed by a person)")
    (item,) = stats.collect(locale).__iter__()
    assert credit_parts(item) == ["번역: 역자", "검수: 검수자"]
