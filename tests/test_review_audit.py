"""`jaxko review voided --since REV` in CI: approvals an edit voids (warnings), and
records that cannot stand (exit 1, file:line): a person's record not added by its
reviewer, a record whose hash does not match its text, a removed record."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess

import pytest

from jaxko import catalogs
from jaxko.cli import main
from jaxko.workflow import review
from test_workflow_review import key_of, project  # noqa: F401  (project: the fixture)

AI = "Claude (AI 2차 검토)"


def git(locale, *args: str, user: str = "역자") -> None:
    subprocess.run(["git", "-C", str(locale), "-c", f"user.name={user}",
                    "-c", f"user.email={user}@example.com", *args],
                   check=True, capture_output=True)


def commit_translations(locale) -> None:
    """Make ``locale`` a git repository whose translations 역자 committed (tag ``base``),
    with 역자 as the configured identity."""
    subprocess.run(["git", "init", "-q", str(locale)], check=True)
    git(locale, "config", "user.name", "역자")
    git(locale, "config", "user.email", "역자@example.com")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "translate")
    git(locale, "tag", "base")


@pytest.fixture
def repo(project):
    """The project's locale as a git repository, its translations committed by 역자."""
    commit_translations(project["locale"])
    return project


def voided(capsys, locale, *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["review", "voided", "--since", "base", "--locale-dir", str(locale), *extra])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out


@contextlib.contextmanager
def git_identity(name: str):
    """Git's user.name and user.email for the commands run inside (config of the
    command's scope, over the repository's): a reviewer at their own work tree."""
    saved = {k: os.environ.get(k) for k in ("GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0",
                                             "GIT_CONFIG_VALUE_0", "GIT_CONFIG_KEY_1",
                                             "GIT_CONFIG_VALUE_1")}
    os.environ.update(GIT_CONFIG_COUNT="2", GIT_CONFIG_KEY_0="user.name", GIT_CONFIG_VALUE_0=name,
                      GIT_CONFIG_KEY_1="user.email", GIT_CONFIG_VALUE_1=f"{name}@example.com")
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def approve(locale, reviewer: str, *extra: str) -> None:
    """An approval by ``reviewer`` at a work tree whose git identity is the reviewer's
    (approval refuses another one; the tests below forge what comes after)."""
    with git_identity(reviewer):
        assert main(["review", "approve", "doc", "--locale-dir", str(locale), "--reviewer",
                     reviewer, *extra]) == 0


def records_file(locale):
    return locale / "ko" / "reviews" / "doc.yaml"


def line_of(locale, key: str, kind: str) -> int:
    records = review.load_records(records_file(locale))
    return records.get(key, review.Kind(kind)).line


def test_voided_lists_approvals_an_edit_voids(repo, capsys):
    locale, catalog = repo["locale"], repo["catalog"]
    approve(locale, "검수자", "--all-clean")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "review", user="검수자")
    git(locale, "tag", "-f", "base")
    code, out = voided(capsys, locale, "--format", "json")
    assert code == 0 and json.loads(out) == {"voided": [], "forged": [], "documents": {}}
    po = catalogs.load(catalog)
    po.find("Hello world.").msgstr = "안녕, 세계."
    catalogs.save(po, catalog)
    code, out = voided(capsys, locale, "--format", "github")
    assert code == 0                                  # a voided approval is a warning
    assert f"::warning file={catalog},line=" in out and "검수자" in out
    assert out.count("::warning") == 1 and "::error" not in out
    assert "| 문서 | 번역 | 사람 검수 | AI 검토만 | 검수 전 |" in out
    assert "| `doc` | 2 | 1 | 0 | 1 |" in out
    assert voided(capsys, locale, "--since", "no-such-rev")[0] == 2


def test_voided_compares_the_previous_msgctxt(repo, capsys):
    """A message whose msgid and msgctxt changed upstream is matched to its record by
    the previous msgctxt and msgid (#|), not by the previous msgid alone."""
    locale, catalog = repo["locale"], repo["catalog"]
    po = catalogs.load(catalog)
    po.find("Hello world.").msgctxt = "greeting"
    catalogs.save(po, catalog)
    approve(locale, "검수자", "--all-clean")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "context and review", user="검수자")
    git(locale, "tag", "-f", "base")
    po = catalogs.load(catalog)
    entry = po.find("Hello world.", msgctxt="greeting")
    entry.previous_msgid, entry.previous_msgctxt = entry.msgid, entry.msgctxt
    entry.msgid, entry.msgctxt = "Hello, world.", "salutation"
    entry.flags.append("fuzzy")
    catalogs.save(po, catalog)
    code, out = voided(capsys, locale, "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert [(v["msgid"], v["state"], v["reviewer"]) for v in data["voided"]] == [
        ("Hello, world.", "fuzzy", "검수자")]


def test_a_persons_record_added_by_someone_else_is_reported(repo, capsys):
    locale = repo["locale"]
    approve(locale, "검수자", "-m", key_of("Hello world."))
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "forged review", user="mallory")
    code, out = voided(capsys, locale)
    line = line_of(locale, key_of("Hello world."), "person")
    assert code == 1
    assert (f"{records_file(locale)}:{line}: person record by 검수자 was added by "
            "mallory, mallory@example.com, not by 검수자;") in out
    assert "인정할 수 없는 검수 기록: 1개" in out
    code, out = voided(capsys, locale, "--format", "github")
    assert code == 1
    assert f"::error file={records_file(locale)},line={line},title=review record cannot stand::" \
        in out


def test_a_persons_own_record_passes(repo, capsys):
    locale = repo["locale"]
    approve(locale, "검수자", "-m", key_of("Hello world."))
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "review", user="검수자")
    code, out = voided(capsys, locale)
    assert code == 0 and "cannot" not in out and "인정할 수 없는" not in out


def test_an_ai_pass_may_be_committed_by_anyone(repo, capsys):
    locale = repo["locale"]
    approve(locale, AI, "--all-clean", "--kind", "ai-pass")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "AI pass", user="maintainer")
    assert voided(capsys, locale)[0] == 0


def test_the_allowlist_at_the_base_revision_names_who_else_may_add_records(repo, capsys):
    locale = repo["locale"]
    allow = locale / "ko" / "reviewers.yaml"
    approve(locale, "검수자", "-m", key_of("Hello world."))
    allow.write_text("검수자: [maintainer]\n", encoding="utf-8")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "a pull request that allows itself", user="maintainer")
    assert voided(capsys, locale)[0] == 1          # the list it added does not count
    git(locale, "tag", "-f", "base", "HEAD~1")
    subprocess.run(["git", "-C", str(locale), "reset", "-q", "--hard", "base"], check=True)
    allow.write_text("검수자: [maintainer]\n", encoding="utf-8")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "allowlist", user="maintainer")
    git(locale, "tag", "-f", "base")
    approve(locale, "검수자", "-m", key_of("Hello world."))
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "review on 검수자's behalf", user="maintainer")
    assert voided(capsys, locale)[0] == 0


def test_author_given_by_ci_decides_not_git_author_fields(repo, capsys):
    locale = repo["locale"]
    approve(locale, "검수자", "-m", key_of("Hello world."))
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "git author set to the reviewer's name", user="검수자")
    code, out = voided(capsys, locale, "--author", "mallory")
    assert code == 1 and "was added by mallory, not by 검수자" in out
    assert voided(capsys, locale, "--author", "검수자")[0] == 0


def test_uncommitted_records_are_the_local_users(repo, capsys):
    locale = repo["locale"]
    approve(locale, "검수자", "-m", key_of("Hello world."))
    assert voided(capsys, locale)[0] == 1          # the local git user is 역자
    git(locale, "config", "user.name", "검수자")
    assert voided(capsys, locale)[0] == 0


def test_a_record_whose_hash_matches_the_msgstr_but_not_its_text_is_reported(repo, capsys):
    locale = repo["locale"]
    approve(locale, "검수자", "--all-clean")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "review", user="검수자")
    git(locale, "tag", "-f", "base")
    assert voided(capsys, locale)[0] == 0           # clean
    path = records_file(locale)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "msgstr: 안녕하세요, 세계.", "msgstr: 다른 말입니다."), encoding="utf-8")
    line = line_of(locale, key_of("Hello world."), "person")
    code, out = voided(capsys, locale)
    assert code == 1
    assert (f"{path}:{line}: person record by 검수자: its msgstr_hash is that of the present "
            "msgstr but its msgstr is other Korean") in out
    # hand-made hash that matches nothing
    path.write_text(path.read_text(encoding="utf-8").replace("다른 말입니다.", "안녕하세요, 세계.")
                    .replace(review.text_hash("안녕하세요, 세계."), "0123456789ab"),
                    encoding="utf-8")
    code, out = voided(capsys, locale)
    assert code == 1 and "its msgstr_hash is not the hash of its msgstr" in out


def test_a_removed_record_is_reported(repo, capsys):
    locale = repo["locale"]
    approve(locale, AI, "--all-clean", "--kind", "ai-pass")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "AI pass", user="maintainer")
    git(locale, "tag", "-f", "base")
    records = review.load_records(records_file(locale))
    kept = [r for r in records if r.key != key_of("Hello world.")]
    review.save_records(records_file(locale), kept)
    code, out = voided(capsys, locale)
    assert code == 1 and f"for message {key_of('Hello world.')} was removed" in out
    assert f"{records_file(locale)}:1: ai-pass record by {AI}" in out


def test_recover_history_puts_overwritten_verdicts_back(repo, capsys):
    """A records file written before records kept history: a rejection, overwritten by
    the approval of the fixed text in a later commit, comes back from git."""
    locale, catalog = repo["locale"], repo["catalog"]
    key = key_of("Use the function.")
    path = records_file(locale)
    # the old tools: the rejection record ...
    old = review.Record(key, review.text_hash("함수를 사용합니다."), "함수를 사용합니다.", AI,
                        "2026-11-24", review.Kind.AI_PASS, "rejected", "'씁니다'로")
    review.save_records(path, [old])
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "AI pass: rejected", user="maintainer")
    # ... overwritten, no history, by the approval of the fixed text
    po = catalogs.load(catalog)
    po.find("Use the function.").msgstr = "함수를 씁니다."
    catalogs.save(po, catalog)
    new = review.Record(key, review.text_hash("함수를 씁니다."), "함수를 씁니다.", AI,
                        "2026-11-25", review.Kind.AI_PASS, "approved")
    review.save_records(path, [new])
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "AI pass: approved", user="maintainer")
    args = ["review", "recover-history", "--locale-dir", str(locale)]
    capsys.readouterr()
    assert main([*args, "--dry-run"]) == 0
    assert "1 earlier verdicts would be restored" in capsys.readouterr().out
    assert main(args) == 0
    (record,) = review.load_records(path)
    assert record.verdict == "approved" and record.msgstr == "함수를 씁니다."
    (past,) = record.history
    assert (past.verdict, past.note, past.msgstr, past.date) == (
        "rejected", "'씁니다'로", "함수를 사용합니다.", "2026-11-24")
    before = path.read_bytes()
    assert main(args) == 0 and path.read_bytes() == before      # a second run: nothing
    # restored history of an AI pass is no forged record
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "recover history", user="maintainer")
    git(locale, "tag", "-f", "base", "HEAD~1")
    assert voided(capsys, locale)[0] == 0


# ---------------------------------------------------------------- issue #41: three open doors


def _hand_record(locale, key: str, msgstr: str, reviewer: str) -> None:
    """A person's record written by hand, as anyone can (no `review approve`)."""
    path = records_file(locale)
    records = review.load_records(path)
    records.put(review.Record(key, review.text_hash(msgstr), msgstr, reviewer, "2026-11-28",
                              review.Kind.PERSON, "approved"))
    review.save_records(path, list(records))


def test_a_translators_own_person_record_is_refused(repo, capsys):
    """A translator (not assigned) changes a msgstr and records a person's review of it
    under their own name: they wrote the file, so only the translator rule stops it."""
    locale, catalog = repo["locale"], repo["catalog"]
    po = catalogs.load(catalog)
    po.find("Hello world.").msgstr = "안녕, 세계."
    catalogs.save(po, catalog)
    _hand_record(locale, key_of("Hello world."), "안녕, 세계.", "번역가")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "translate and review", user="번역가")
    code, out = voided(capsys, locale)
    line = line_of(locale, key_of("Hello world."), "person")
    assert code == 1
    assert (f"{records_file(locale)}:{line}: person record by 번역가 for message "
            f"{key_of('Hello world.')}: 번역가 translated it; a second person reviews it") in out
    # in CI the pull request's author decides, whatever git's author fields say
    subprocess.run(["git", "-C", str(locale), "commit", "-q", "--amend", "--no-edit",
                    "--author", "누군가 <someone@example.com>"], check=True)
    code, out = voided(capsys, locale, "--author", "번역가")
    assert code == 1 and "번역가 translated it" in out
    # the same record by a second person, who did not write the msgstr, stands
    git(locale, "tag", "-f", "base", "HEAD")
    _hand_record(locale, key_of("Hello world."), "안녕, 세계.", "검수자")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "review", user="검수자")
    assert voided(capsys, locale)[0] == 0
    assert voided(capsys, locale, "--author", "검수자")[0] == 0


def test_the_assigned_translators_person_record_is_refused(repo, capsys):
    locale = repo["locale"]                       # assignments.yaml: doc.md by 역자
    _hand_record(locale, key_of("Use the function."), "함수를 사용합니다.", "역자")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "own review", user="역자")
    code, out = voided(capsys, locale)
    assert code == 1 and "역자 translated it" in out


def test_allowlist_identities_are_exact(repo, capsys):
    """`홍길동: [hong@company.example]` lets that e-mail add 홍길동's records, not the
    login `hong`, which anyone may register."""
    locale = repo["locale"]
    (locale / "ko" / "reviewers.yaml").write_text("홍길동: [hong@company.example]\n",
                                                  encoding="utf-8")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "allowlist", user="maintainer")
    git(locale, "tag", "-f", "base")
    _hand_record(locale, key_of("Hello world."), "안녕하세요, 세계.", "홍길동")
    git(locale, "add", "-A")
    subprocess.run(["git", "-C", str(locale), "-c", "user.name=hong", "-c",
                    "user.email=hong@company.example", "commit", "-qm", "review"], check=True)
    assert voided(capsys, locale)[0] == 0                       # the e-mail itself
    code, out = voided(capsys, locale, "--author", "hong")       # its local part as a login
    assert code == 1 and "was added by hong, not by 홍길동" in out
    assert voided(capsys, locale, "--author", "hong@company.example")[0] == 0


def _ai_pass_committed(locale) -> None:
    approve(locale, AI, "--all-clean", "--kind", "ai-pass")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "AI pass", user="maintainer")
    git(locale, "tag", "-f", "base")


@pytest.mark.parametrize("with_catalog", [True, False], ids=["with-its-catalog", "alone"])
def test_a_removed_records_file_is_reported(repo, capsys, with_catalog):
    locale, catalog = repo["locale"], repo["catalog"]
    _ai_pass_committed(locale)
    records = review.load_records(records_file(locale))
    lines = sorted(r.line for r in records)
    records_file(locale).unlink()
    if with_catalog:
        catalog.unlink()
    code, out = voided(capsys, locale)
    assert code == 1
    for line in lines:
        assert f"{records_file(locale)}:{line}: ai-pass record by {AI}" in out
    assert out.count(" was removed") == len(lines)


def test_no_removal_no_report(repo, capsys):
    locale = repo["locale"]
    _ai_pass_committed(locale)
    (locale / "ko" / "reviews" / "other.yaml").write_text("[]\n", encoding="utf-8")
    assert voided(capsys, locale)[0] == 0


def test_a_records_entry_that_is_not_a_mapping_has_its_line(repo, capsys):
    locale = repo["locale"]
    _ai_pass_committed(locale)
    path = records_file(locale)
    path.write_text(path.read_text(encoding="utf-8") + "- just a string\n", encoding="utf-8")
    line = path.read_text(encoding="utf-8").count("\n")
    capsys.readouterr()
    code = main(["review", "voided", "--since", "base", "--locale-dir", str(locale)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert f"{path}:{line}: record 3 is not a mapping" in err


@pytest.mark.parametrize("text, line", [
    ('"홍길동": 3\n', 1), ("a: [x]\n'검수자': {z: 1}\n", 2), ("a: [x]\n? 검수자\n: 12\n", 2),
    ("a: [x]\n7: 8\n", 2)])
def test_a_bad_allowlist_entry_has_its_line(tmp_path, text, line):
    from jaxko.errors import UserError
    from jaxko.workflow import review_audit

    path = tmp_path / "reviewers.yaml"
    with pytest.raises(UserError) as caught:
        review_audit.load_allowlist(text, path)
    assert caught.value.line == line, str(caught.value)
