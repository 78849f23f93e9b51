"""`ignore.unused`: a `# jaxko: ignore` comment that suppressed nothing on its entry is
reported, on what ran (never a rule left out of the run), the same from the cache.

Every catalog is a real .po file written by polib and checked by the real runner (or
the real command line) against the test glossary."""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest

from jaxko.check.runner import Options, run
from jaxko.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "check"
GLOSSARY = FIXTURES / "glossary.yaml"
RULE = "ignore.unused"
WHOLE = "suppressed nothing on this entry: remove the comment, or keep the reason as a plain translator comment"

CLEAN = ("Use the array.", "배열을 쓰세요.")             # nothing to find
MISSING = ("Sort the array.", "목록을 정렬하세요.")       # glossary.missing: array is not 배열
MISSING2 = ("Copy the array.", "목록을 복사하세요.")


def catalog(folder: Path, name: str, entries) -> Path:
    """A catalog of (msgid, msgstr, translator comment) entries, one source line each."""
    po = polib.POFile(wrapwidth=79)
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    for number, (msgid, msgstr, comment) in enumerate(entries, start=1):
        entry = polib.POEntry(msgid=msgid, msgstr=msgstr, occurrences=[(name + ".md", str(number))])
        if comment:
            entry.tcomment = comment
        po.append(entry)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name + ".po")
    po.save(str(path))
    return path


def msgstr_line(path: Path, msgid: str) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    start = lines.index(f'msgid "{msgid}"')
    return next(n for n in range(start, len(lines)) if lines[n].startswith("msgstr ")) + 1


def check(folder: Path, **extra):
    options = dict(paths=[folder], glossary=GLOSSARY, source_dir=folder / "no-sources",
                   jobs=1, severity={})
    options.update(extra)
    return run(Options(**options))


def unused(result) -> list[tuple[str, int, str]]:
    return [(Path(f.path).name, f.line, f.message) for f in result.findings if f.rule == RULE]


def test_a_rule_that_finds_nothing_is_reported_at_the_msgstr(tmp_path):
    path = catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore glossary.missing -- old reason")])
    result = check(tmp_path / "po")
    assert unused(result) == [("guide.po", msgstr_line(path, CLEAN[0]),
                               f"`# jaxko: ignore glossary.missing` {WHOLE}")]
    finding = result.findings[0]
    assert (finding.severity, finding.msgid, finding.msgstr) == ("warning", *CLEAN)
    assert result.exit_code == 0  # a warning


def test_a_family_name_that_finds_nothing_is_reported(tmp_path):
    catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore markup -- reason")])
    assert [m for _, _, m in unused(check(tmp_path / "po"))] == [f"`# jaxko: ignore markup` {WHOLE}"]


def test_a_bare_ignore_is_unused_only_when_nothing_was_suppressed(tmp_path):
    catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore"), (*MISSING, "jaxko: ignore")])
    result = check(tmp_path / "po")
    # The clean entry's bare comment is reported; it does not hide the finding about itself.
    assert [(m, f.msgstr) for (_, _, m), f in zip(unused(result), result.findings)] == [
        (f"`# jaxko: ignore` {WHOLE}", CLEAN[1])]
    assert result.suppressed == 1  # the other entry's glossary.missing
    # With a rule deselected, a bare comment is not judged: not every rule ran.
    assert unused(check(tmp_path / "po", ignore=["code"])) == []


def test_a_comment_that_suppresses_stays_clean(tmp_path):
    catalog(tmp_path / "po", "guide", [(*MISSING, "jaxko: ignore glossary.missing -- 목록 is meant"),
                                       (*MISSING2, "jaxko: ignore glossary -- a family covers it")])
    result = check(tmp_path / "po")
    assert result.findings == [] and result.suppressed == 2
    # The same comments on entries with nothing to suppress are reported (the control).
    catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore glossary.missing -- 목록 is meant"),
                                       ("Use the arrays.", "배열들을 쓰세요.",
                                        "jaxko: ignore glossary -- a family covers it")])
    assert len(unused(check(tmp_path / "po"))) == 2


def test_a_rule_left_out_of_the_run_is_not_judged(tmp_path):
    catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore glossary.missing -- reason")])
    assert len(unused(check(tmp_path / "po"))) == 1
    assert unused(check(tmp_path / "po", select=["markup", RULE])) == []
    assert unused(check(tmp_path / "po", ignore=["glossary.missing"])) == []
    assert unused(check(tmp_path / "po", use_glossary=False)) == []
    empty = tmp_path / "empty.yaml"
    empty.write_text("terms: []\n", encoding="utf-8")
    assert unused(check(tmp_path / "po", glossary=empty)) == []  # no terms: nothing to judge
    # A family is judged only when all its rules ran.
    catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore glossary -- reason")])
    assert len(unused(check(tmp_path / "po", select=["glossary", RULE]))) == 1
    assert unused(check(tmp_path / "po", select=["glossary.missing", RULE])) == []


def test_only_the_unused_names_of_a_comment_are_named(tmp_path):
    catalog(tmp_path / "po", "guide",
            [(*MISSING, "jaxko: ignore glossary.missing, markup.literal -- reason")])
    assert [m for _, _, m in unused(check(tmp_path / "po"))] == [
        "`# jaxko: ignore markup.literal` suppressed nothing on this entry: "
        "remove markup.literal from the comment"]


def test_words_that_name_no_rule_are_left_alone_as_today(tmp_path):
    """A name that is no rule suppressed nothing before this rule and is not judged
    (``jaxko: ignore glossary.missing because ...`` reads `because` as a name)."""
    catalog(tmp_path / "po", "guide", [(*MISSING, "jaxko: ignore glossary.missing because it is meant"),
                                       (*CLEAN, "jaxko: ignore nosuchrule -- reason")])
    assert unused(check(tmp_path / "po")) == []
    # The control: the known name on a clean entry is judged.
    catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore glossary.missing because it is meant")])
    assert len(unused(check(tmp_path / "po"))) == 1


def test_a_safety_name_never_suppresses_and_is_reported(tmp_path):
    catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore safety.raw -- reason")])
    assert [m for _, _, m in unused(check(tmp_path / "po"))] == [f"`# jaxko: ignore safety.raw` {WHOLE}"]


def test_ignore_unused_cannot_be_suppressed_by_a_comment(tmp_path):
    catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore ignore.unused -- quiet, please")])
    assert [m for _, _, m in unused(check(tmp_path / "po"))] == [
        f"`# jaxko: ignore ignore.unused` {WHOLE}"]


def test_the_project_wide_consistency_rule_is_tracked(tmp_path):
    folder = tmp_path / "po"
    label = "Just-in-time compilation"
    catalog(folder, "a", [(label, "적시 컴파일", None)])
    catalog(folder, "b", [(label, "적시 컴파일", None)])
    catalog(folder, "c", [(label, "JIT 컴파일", "jaxko: ignore consistency -- 이 문서의 표기")])
    severity = {"consistency.translation": "warning"}
    result = check(folder, severity=severity)
    assert result.findings == [] and result.suppressed == 1  # used: not reported
    catalog(folder, "c", [(label, "적시 컴파일", "jaxko: ignore consistency -- 이 문서의 표기")])
    assert [(n, m) for n, _, m in unused(check(folder, severity=severity))] == [
        ("c.po", f"`# jaxko: ignore consistency` {WHOLE}")]
    # consistency left out of the run: not judged.
    assert unused(check(folder, severity=severity, ignore=["consistency"])) == []


def test_cached_and_fresh_runs_give_the_same_findings(tmp_path):
    folder = tmp_path / "po"
    catalog(folder, "a", [(*CLEAN, "jaxko: ignore glossary.missing -- reason"),
                          (*MISSING, "jaxko: ignore glossary -- reason")])
    catalog(folder, "b", [("Just-in-time compilation", "적시 컴파일", "jaxko: ignore"),
                          ("Call `f` once.", "`g`를 한 번 호출합니다.",
                           "jaxko: ignore markup.literal, particle -- reason")])

    def seen(result):
        return [(f.path, f.line, f.rule, f.severity, f.message, f.msgid, f.msgstr, f.msgctxt)
                for f in result.findings]

    cold = check(folder, cache_dir=tmp_path / "cache")
    warm = check(folder, cache_dir=tmp_path / "cache")
    fresh = check(folder, cache_dir=None)
    assert (cold.cached, warm.cached, fresh.cached) == (0, 2, 0)
    assert len(unused(cold)) == 3
    assert seen(warm) == seen(cold) == seen(fresh)
    assert warm.suppressed == cold.suppressed == fresh.suppressed == 2
    # A comment edited after a warm run: the catalog is checked again.
    catalog(folder, "a", [(*CLEAN, "reason, as a plain comment"),
                          (*MISSING, "jaxko: ignore glossary -- reason")])
    again = check(folder, cache_dir=tmp_path / "cache")
    assert again.cached == 1
    assert seen(again) == seen(check(folder, cache_dir=None))
    assert len(unused(again)) == 2


def test_prefilters_do_not_change_the_verdict(tmp_path):
    catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore markup.literal -- reason"),
                                       ("Call `f`.", "`g`를 호출합니다.", "jaxko: ignore markup.literal -- r")])
    assert unused(check(tmp_path / "po")) == unused(check(tmp_path / "po", prefilter=False))
    assert len(unused(check(tmp_path / "po"))) == 1


@pytest.mark.parametrize("form", ["json", "github"])
def test_report_formats_carry_it(tmp_path, capsys, form):
    path = catalog(tmp_path / "po", "guide", [(*CLEAN, "jaxko: ignore glossary.missing -- reason")])
    code = main(["check", "--glossary", str(GLOSSARY), "--no-cache", "--source-dir",
                 str(tmp_path / "none"), "--format", form, str(tmp_path / "po")])
    out = capsys.readouterr().out
    line = msgstr_line(path, CLEAN[0])
    assert code == 0
    if form == "json":
        data = json.loads(out)
        assert [(f["rule"], f["severity"], f["line"]) for f in data["findings"]] == [(RULE, "warning", line)]
        assert data["summary"]["warnings"] == 1
    else:
        assert out.startswith(f"::warning file={path},line={line},title=ignore.unused::"
                              "`# jaxko: ignore glossary.missing` suppressed nothing")


def test_a_since_run_does_not_judge_the_project_wide_rules(tmp_path, monkeypatch):
    """--since compares only the catalogs it read: a consistency comment that suppresses
    a finding against an unread catalog is not reported; message rules are judged."""
    import subprocess

    folder = tmp_path / "po"
    label = "Just-in-time compilation"
    catalog(folder, "a", [(label, "적시 컴파일", None)])
    catalog(folder, "b", [(label, "적시 컴파일", None)])
    catalog(folder, "c", [(label, "JIT 컴파일", "jaxko: ignore consistency -- 이 문서의 표기"),
                          (*CLEAN, None)])
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "start"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)
    # Both entries of c.po change (their comments): a --since run reads c.po only.
    catalog(folder, "c", [(label, "JIT 컴파일", "jaxko: ignore consistency -- 이 문서의 표기법"),
                          (*CLEAN, "jaxko: ignore glossary.missing -- reason")])
    severity = {"consistency.translation": "warning"}
    monkeypatch.chdir(tmp_path)
    since = check(folder, severity=severity, since="HEAD")
    assert [m for _, _, m in unused(since)] == [f"`# jaxko: ignore glossary.missing` {WHOLE}"]
    # The whole run judges both, and the consistency comment is used there.
    assert [m for _, _, m in unused(check(folder, severity=severity))] == [
        f"`# jaxko: ignore glossary.missing` {WHOLE}"]
