"""A person's review is checked at approval time for what `jaxko review voided` (CI)
will check: the git identity that commits it is the reviewer or listed for the reviewer
in reviewers.yaml (refused otherwise, exit 2, nothing written); what cannot be known
locally (no git identity; a reviewer name that no GitHub login can be) is a warning."""

from __future__ import annotations

import subprocess

import pytest

from jaxko.cli import main
from jaxko.errors import UserError
from jaxko.workflow import review, review_serve
from test_review_audit import commit_translations, voided
from test_workflow_review import key_of, project  # noqa: F401  (project: the fixture)


def git(locale, *args: str) -> None:
    subprocess.run(["git", "-C", str(locale), *args], check=True, capture_output=True)


@pytest.fixture
def repo(project):
    """The locale as a git repository committed by 역자; the work tree now belongs to a
    maintainer (the identity the issue met: approvals accepted, then refused in CI)."""
    locale = project["locale"]
    commit_translations(locale)
    git(locale, "config", "user.name", "maintainers")
    git(locale, "config", "user.email", "maintainers@users.noreply.github.com")
    return project


def approve(capsys, locale, reviewer: str, *extra: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["review", "approve", "doc", "--locale-dir", str(locale), "--reviewer", reviewer,
                 "-m", key_of("Hello world."), *extra])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def records(locale):
    return locale / "ko" / "reviews" / "doc.yaml"


def test_a_reviewer_who_is_not_the_git_identity_is_refused_at_approval(repo, capsys):
    locale = repo["locale"]
    code, out, err = approve(capsys, locale, "박검수")
    assert code == 2 and not records(locale).exists()      # nothing written
    line = err.strip()
    assert "\n" not in line
    assert "your git identity maintainers <maintainers@users.noreply.github.com> is not 박검수" \
        in line
    assert "`jaxko review voided` (CI) will refuse this record" in line
    assert 'set `git config user.name "박검수"`' in line and "reviewers.yaml" in line
    # a rejection is a person's record too; an AI pass is not checked
    assert main(["review", "reject", "doc", "--locale-dir", str(locale), "--reviewer", "박검수",
                 "-m", key_of("Hello world."), "--note", "고쳐 주세요"]) == 2
    assert approve(capsys, locale, "Claude (AI 2차 검토)", "--kind", "ai-pass")[0] == 0


def review_serve_doc(project):
    from jaxko.workflow.documents import Document

    return Document("doc", "doc", project["catalog"])


def test_the_refusal_matches_what_review_voided_refuses(repo, capsys):
    """Planted: a record by 박검수 added from the maintainer's work tree. The approval
    refuses it; written by hand, `review voided` refuses it for the same reason."""
    locale = repo["locale"]
    assert approve(capsys, locale, "박검수")[0] == 2
    git(locale, "config", "user.name", "박검수")               # written as 박검수 ...
    assert approve(capsys, locale, "박검수")[0] == 0
    git(locale, "config", "user.name", "maintainers")          # ... committed by another
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "review")
    code, out = voided(capsys, locale)
    assert code == 1 and "was added by maintainers" in out and "not by 박검수" in out


def test_the_reviewers_own_identity_passes_and_ci_agrees(repo, capsys):
    locale = repo["locale"]
    git(locale, "config", "user.name", "박검수")
    git(locale, "config", "user.email", "park@example.com")
    code, out, err = approve(capsys, locale, "박검수")
    assert code == 0 and "1 messages approved by 박검수" in out
    # 박검수 can be no GitHub login and none is listed: a pull request's check refuses it
    assert "warning: 박검수 is no GitHub login" in err and "--author LOGIN" in err
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "review")
    assert voided(capsys, locale)[0] == 0                     # git authors: accepted
    assert voided(capsys, locale, "--author", "parkgs")[0] == 1   # CI with the login: refused


def test_a_listed_login_clears_the_warning_and_lets_a_maintainer_record(repo, capsys):
    locale = repo["locale"]
    (locale / "ko" / "reviewers.yaml").write_text("박검수: [parkgs, maintainers]\n",
                                                  encoding="utf-8")
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "reviewers")
    git(locale, "tag", "-f", "base")
    code, out, err = approve(capsys, locale, "박검수")          # git user: maintainers
    assert code == 0 and err == ""
    git(locale, "add", "-A")
    git(locale, "commit", "-qm", "review")
    assert voided(capsys, locale)[0] == 0
    assert voided(capsys, locale, "--author", "parkgs")[0] == 0


def test_an_ascii_reviewer_name_that_matches_has_no_warning(repo, capsys):
    locale = repo["locale"]
    git(locale, "config", "user.name", "parkgs")
    code, out, err = approve(capsys, locale, "parkgs")
    assert code == 0 and err == ""


def test_no_git_identity_is_a_warning(repo, capsys, monkeypatch, tmp_path):
    locale = repo["locale"]
    git(locale, "config", "--unset", "user.name")
    git(locale, "config", "--unset", "user.email")
    empty = tmp_path / "empty.gitconfig"
    empty.write_text("", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    code, out, err = approve(capsys, locale, "박검수")
    assert code == 0
    assert "warning: git user.name and user.email are not set" in err


def test_outside_git_nothing_is_checked(project, capsys):
    code, out, err = approve(capsys, project["locale"], "박검수")
    assert code == 0 and err == ""


def test_the_review_app_refuses_the_same(repo):
    locale = repo["locale"]
    docs = {"doc": review_serve_doc(repo)}
    app = review_serve.ReviewApp(docs, review.reviews_dir(locale), reviewer="박검수")
    hashes = app.hashes(docs["doc"])
    with pytest.raises(UserError, match="will refuse this record"):
        app.approve({"doc": "doc", "keys": [key_of("Hello world.")],
                     "catalog_hash": hashes["catalog"], "records_hash": hashes["records"]})
    assert not records(locale).exists()


def test_serve_refuses_to_start_for_a_reviewer_ci_would_refuse(repo, capsys):
    code = main(["review", "serve", "--locale-dir", str(repo["locale"]), "--reviewer", "박검수",
                 "--no-browser"])
    err = capsys.readouterr().err
    assert code == 2 and "will refuse this record" in err
