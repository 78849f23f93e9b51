"""`jaxko check` as translators and CI run it: formats, exit codes, --since, bad input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from jaxko.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "check"
GLOSSARY = FIXTURES / "glossary.yaml"

CLEAN = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
         '#: guide.md:3\nmsgid "Use the array."\nmsgstr "배열을 쓰세요."\n')
BROKEN_PARTICLE = CLEAN.replace("배열을", "배열를")


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def check(*args: str) -> int:
    return main(["check", "--glossary", str(GLOSSARY), *args])


def test_clean_catalog_exits_zero(tmp_path, capsys):
    write(tmp_path, "a.po", CLEAN)
    assert check(str(tmp_path)) == 0
    out = capsys.readouterr().out
    assert "0 errors, 0 warnings" in out and "1 translated entries checked" in out


def test_text_format(tmp_path, capsys):
    path = write(tmp_path, "a.po", BROKEN_PARTICLE)
    assert check(str(path)) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (f"{path}:7: error particle.agreement: `배열를`: after `배열` the particle "
                     "is `을`, not `를` [배열을]")


def test_json_format(tmp_path, capsys):
    path = write(tmp_path, "a.po", BROKEN_PARTICLE)
    assert check("--format", "json", str(path)) == 1
    data = json.loads(capsys.readouterr().out)
    finding = data["findings"][0]
    assert set(finding) == {"path", "line", "rule", "severity", "message", "msgid", "msgctxt",
                            "msgstr", "suggestion", "fix"}
    assert (finding["line"], finding["rule"], finding["msgid"], finding["suggestion"]) == (
        7, "particle.agreement", "Use the array.", "배열을")
    assert finding["fix"] == [[2, 3, "을"]]  # the edit of the msgstr, as data
    assert data["summary"]["errors"] == 1 and data["summary"]["rules"] == {"particle.agreement": 1}


def test_github_format(tmp_path, capsys):
    path = write(tmp_path, "a.po", BROKEN_PARTICLE)
    assert check("--format", "github", str(path)) == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith(f"::error file={path},line=7,title=particle.agreement::")


def test_select_and_ignore(tmp_path, capsys):
    write(tmp_path, "a.po", BROKEN_PARTICLE)
    assert check("--ignore", "particle", str(tmp_path)) == 0
    assert check("--select", "markup,safety", str(tmp_path)) == 0
    assert check("--select", "particle.agreement", str(tmp_path)) == 1
    capsys.readouterr()
    assert check("--select", "nonsense", str(tmp_path)) == 2
    assert "unknown rule or family nonsense" in capsys.readouterr().err


def test_fail_on_warning(tmp_path):
    write(tmp_path, "a.po", CLEAN.replace("배열을 쓰세요.", "어레이를 쓰세요."))
    assert check(str(tmp_path)) == 0
    assert check("--fail-on", "warning", str(tmp_path)) == 1


def test_syntax_can_be_forced(tmp_path):
    text = CLEAN.replace("Use the array.", "Use ``x``.").replace("배열을 쓰세요.", "``x``를 쓰세요.")
    write(tmp_path, "a.po", text)
    assert check(str(tmp_path)) == 0                        # MyST: `x` is not even a literal
    assert check("--syntax", "rst", str(tmp_path)) == 1     # reST: needs the escaped space


@pytest.mark.parametrize("text, line", [
    ('msgid "a"\nmsgstr "b"c"\n', 2),
    ('msgid "a"\n', 1),
])
def test_broken_catalog_is_exit_2_one_line(tmp_path, capsys, text, line):
    path = write(tmp_path, "bad.po", text)
    write(tmp_path, "good.po", CLEAN)
    assert check(str(tmp_path)) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"jaxko: {path}:{line}: ") and "\n" not in err


def test_bad_glossary_is_exit_2(tmp_path, capsys):
    write(tmp_path, "a.po", CLEAN)
    bad = write(tmp_path, "g.yaml", "terms:\n  - en: array\n    kor: 배열\n")
    assert main(["check", "--glossary", str(bad), str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"jaxko: {bad}:3: unknown key `kor`")


def test_missing_path_is_exit_2(tmp_path, capsys):
    assert check(str(tmp_path / "nope")) == 2
    assert "no such file or directory" in capsys.readouterr().err


def test_no_glossary_runs_the_other_rules(tmp_path):
    write(tmp_path, "a.po", BROKEN_PARTICLE.replace("배열를", "`x`을"))
    assert main(["check", "--no-glossary", str(tmp_path)]) == 1  # particle after code


def test_parallel_run_equals_serial(tmp_path):
    """In a process of its own: the checker forks only where no other thread runs, and a
    test runner's worker may run some (execnet's, JAX's)."""
    for i in range(6):
        shutil.copy(FIXTURES / "catalogs" / "quickstart.po", tmp_path / f"q{i}.po")
    code = f"""
from pathlib import Path
from jaxko.check import runner
from jaxko.forked import single_threaded
options = dict(paths=[Path({str(tmp_path)!r})], glossary=Path({str(GLOSSARY)!r}),
               source_dir=Path({str(tmp_path / "none")!r}))
serial = runner.run(runner.Options(jobs=1, **options))
runner.PARALLEL_MIN_BYTES = 0
assert single_threaded()  # so the run below forks
parallel = runner.run(runner.Options(jobs=2, **options))
assert serial.findings == parallel.findings and serial.findings
# The same msgid translated the same way in six catalogs is consistent.
assert not any(f.rule == "consistency.translation" for f in serial.findings)
print("same", len(serial.findings))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT / "tools")})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("same "), proc.stdout


def git(cwd: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", *args], cwd=cwd, check=True, env=env, capture_output=True)


def test_since_checks_only_changed_entries(tmp_path, capsys):
    two = BROKEN_PARTICLE + '\n#: guide.md:5\nmsgid "A file."\nmsgstr "파일."\n'
    write(tmp_path, "locale/a.po", two)
    write(tmp_path, "locale/b.po", BROKEN_PARTICLE)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "start")
    # Only the second entry of a.po changes (and it is now wrong); b.po is untouched.
    write(tmp_path, "locale/a.po", two.replace('msgstr "파일."', 'msgstr "파일으로."'))
    write(tmp_path, "locale/new.po", BROKEN_PARTICLE)  # untracked: checked whole
    assert check("--since", "HEAD", "--format", "json", str(tmp_path / "locale")) == 1
    found = {(Path(f["path"]).name, f["line"]) for f in json.loads(capsys.readouterr().out)["findings"]}
    assert found == {("a.po", 11), ("new.po", 7)}  # the msgstr lines
    assert check("--since", "no-such-rev", str(tmp_path / "locale")) == 2
    assert "--since no-such-rev" in capsys.readouterr().err


def test_help_lists_options(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    for option in ("--glossary", "--syntax", "--since", "--select", "--ignore", "--format"):
        assert option in out


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
def test_project_catalogs_have_no_errors():
    """`make check`: the committed catalogs pass (warnings are for review)."""
    root = Path(__file__).resolve().parents[1]
    assert main(["check", "--format", "json", str(root / "locale" / "ko")]) == 0


def test_no_prefilter_gives_the_same_report(capsys):
    """--no-prefilter runs every rule on every message: the prefilters only spare work."""
    args = [str(FIXTURES / "catalogs"), "--glossary", str(GLOSSARY), "--format", "json", "--no-cache"]
    assert main(["check", *args]) == 1
    screened = capsys.readouterr().out
    assert main(["check", *args, "--no-prefilter"]) == 1
    assert capsys.readouterr().out == screened
    assert '"findings": [' in screened


def test_check_false_entry_is_not_looked_for_where_its_rendering_is_absent(tmp_path, capsys):
    """A general word recorded with `check: false` raises no glossary.missing; the same
    entry without the key is reported on the same message."""
    catalog = write(tmp_path / "catalogs", "a.po", (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#: guide.md:3\nmsgid "Each row of the table corresponds to one device."\n'
        'msgstr "표의 각 행은 장치 하나를 나타냅니다."\n'))
    entry = ("terms:\n  - en: correspond\n    ko: 대응\n    variants: [해당]\n"
             "    forms: [corresponds, corresponding]\n    pos: verb\n")
    checked = write(tmp_path, "checked.yaml", entry)
    unchecked = write(tmp_path, "unchecked.yaml", entry + "    check: false\n")
    args = ["--select", "glossary.missing", "--format", "json", "--no-cache", str(catalog)]

    assert main(["check", "--glossary", str(checked), "--fail-on", "warning", *args]) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["rule"], f["severity"]) for f in found] == [("glossary.missing", "warning")]
    assert "`대응` or `해당`" in found[0]["message"]

    assert main(["check", "--glossary", str(unchecked), "--fail-on", "warning", *args]) == 0
    assert json.loads(capsys.readouterr().out)["findings"] == []


def test_particle_after_a_check_false_rendering_is_still_checked(tmp_path, capsys):
    """`check: false` stops looking for the term, not knowing its rendering as a word:
    명세을 is still a wrong particle; 명세를 is clean."""
    glossary = write(tmp_path, "g.yaml", "terms:\n  - en: spec\n    ko: 명세\n"
                     "    variants: [사양]\n    check: false\n")

    def findings(msgstr: str) -> list[str]:
        catalog = write(tmp_path / "catalogs", "a.po", (
            'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
            f'#: guide.md:3\nmsgid "Write the input spec first."\nmsgstr "{msgstr}"\n'))
        main(["check", "--glossary", str(glossary), "--select", "particle.agreement",
              "--format", "json", "--no-cache", str(catalog)])
        return [f["rule"] for f in json.loads(capsys.readouterr().out)["findings"]]

    assert findings("먼저 입력 명세을 씁니다.") == ["particle.agreement"]
    assert findings("먼저 입력 명세를 씁니다.") == []
