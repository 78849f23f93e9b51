"""jaxko glean: fuzzy cleared only for invariant changes; code comments carried, still fuzzy."""

from __future__ import annotations

import json
import shutil

import polib
import pytest

from jaxko.cli import main
from jaxko.workflow import codesync, glean

from conftest import FIXTURES

GUIDE = FIXTURES / "workflow" / "glean" / "guide.po"
GLOSSARY = ["--glossary", str(FIXTURES / "workflow" / "glossary" / "ko.yaml")]


@pytest.fixture
def result(tmp_path, capsys) -> tuple[dict[str, polib.POEntry], dict[str, polib.POEntry], dict]:
    target = tmp_path / "guide.po"
    shutil.copy(GUIDE, target)
    assert main(["glean", str(target), *GLOSSARY, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    by_location = lambda path: {e.occurrences[0][0] + ":" + e.occurrences[0][1]: e  # noqa: E731
                                for e in polib.pofile(str(path))}
    return by_location(GUIDE), by_location(target), report


def entry_state(e: polib.POEntry) -> tuple:
    return (e.msgid, e.msgstr, tuple(e.flags), e.previous_msgid, e.tcomment)


def test_invariant_changes_clear_fuzzy(result):
    before, after, report = result
    gleaned = {e["location"] for e in report["entries"] if e["kind"] == "glean"}
    assert gleaned == {"guide.rst:1", "guide.rst:3", "guide.md:5", "guide.md:7"}
    # inline literal changed; the particle after it is re-chosen (jit 짓 -> 은, grad 그래드 -> 는)
    e = after["guide.rst:1"]
    assert e.msgstr == "``jax.grad``\\ 는 함수를 받아 변환된 함수를 돌려줍니다."
    assert not e.fuzzy and e.previous_msgid is None and e.translated()
    # role target and titled-role target; the title and particles stay
    assert after["guide.rst:3"].msgstr == (
        "자세한 내용은 :func:`jax.lax.scan`\\ 과 :doc:`컴파일 안내서 <jit-compilation>`\\ 를 보세요.")
    # a link target
    assert after["guide.md:5"].msgstr == (
        "먼저 [설치 안내서](https://docs.jax.dev/en/latest/installation.html)를 읽으세요.")
    # whitespace only: translation unchanged, fuzzy cleared
    assert after["guide.md:7"].msgstr == before["guide.md:7"].msgstr and not after["guide.md:7"].fuzzy


def test_everything_else_stays_fuzzy_and_untouched(result):
    before, after, report = result
    for location in ("guide.rst:2",    # old token twice in the translation, once in the English
                     "guide.md:9",     # look-alike: same literal change plus a prose change
                     "guide.md:11",    # `x` twice, only one became `y`
                     "guide.md:13",    # the translation dropped the backticks
                     "guide.md:15",    # `->`: cannot tell which particle follows
                     "guide.md:17",    # no previous msgid
                     "guide.md:19",    # translated, not fuzzy
                     "guide.ipynb:30002"):  # the translation changed code (identifier)
        assert entry_state(after[location]) == entry_state(before[location]), location
    assert report["kept_fuzzy"] == {
        glean.MISSING_IN_TRANSLATION: 2, glean.PROSE_CHANGED: 2, glean.AMBIGUOUS: 1,
        glean.PARTICLE_UNKNOWN: 1, glean.NO_PREVIOUS: 1}


def test_code_cell_comments_carried_as_fuzzy(result):
    before, after, report = result
    e = after["guide.ipynb:20002"]
    assert e.fuzzy and not e.translated()
    assert e.previous_msgid == before["guide.ipynb:20002"].previous_msgid
    assert e.msgstr == ("import jax\nimport jax.numpy as jnp\n\n# 각 원소의 제곱을 계산합니다\n"
                        "def f(x):\n  return jnp.square(x)  # 원소별\n\n"
                        "# A comment added upstream\nprint(\"결과:\", f(4))")
    assert report["code_synced"] == 1


def test_second_run_changes_nothing(tmp_path, capsys):
    target = tmp_path / "guide.po"
    shutil.copy(GUIDE, target)
    assert main(["glean", str(target), *GLOSSARY]) == 0
    capsys.readouterr()
    once = target.read_bytes()
    assert main(["glean", str(target), *GLOSSARY, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["changed"] == []
    assert target.read_bytes() == once


def test_dry_run_and_no_code(tmp_path, capsys):
    target = tmp_path / "guide.po"
    shutil.copy(GUIDE, target)
    assert main(["glean", str(target), *GLOSSARY, "--dry-run", "--no-code", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["gleaned"], report["code_synced"]) == (4, 0)
    assert target.read_bytes() == GUIDE.read_bytes()


def test_particle_rule_veto_keeps_fuzzy(tmp_path):
    target = tmp_path / "guide.po"
    shutil.copy(GUIDE, target)
    veto = lambda entry, msgstr: ["particle.agreement"] if "jax.grad" in msgstr else []  # noqa: E731
    result = glean.glean([target], particle_check=veto)
    assert result.kept[glean.PARTICLE_FINDING] == 1
    entry = next(e for e in polib.pofile(str(target)) if e.occurrences[0][1] == "1")
    assert entry.fuzzy and "jax.jit" in entry.msgstr


@pytest.mark.parametrize("old, new, translation, expected", [
    # comment added in the translation: pairing by order is unsafe -> nothing carried
    ("x = 1", "x = 2", "# 설명\nx = 1", None),
    # nothing translated
    ("x = 1  # one", "x = 2  # one", "x = 1  # one", None),
    # shell code (not Python): whole comment lines carried
    ("# install it\npip install jax==1 &&", "# install it\npip install jax==2 &&",
     "# 설치합니다\npip install jax==1 &&", "# 설치합니다\npip install jax==2 &&"),
])
def test_codesync_cases(old, new, translation, expected):
    assert codesync.carry(old, new, translation) == expected


def test_particle_rule_reports_only_new_findings():
    check = glean.particle_rule_check(None)
    entry = polib.POEntry(msgid="JAX and ``jax.jit``.", occurrences=[("a.rst", "1")],
                          msgstr="JAX을 쓰고 ``jax.jit``\\ 을 쓰세요.")   # JAX을: already wrong
    assert check(entry, "JAX을 쓰고 ``jax.grad``\\ 를 쓰세요.") == []
    found = check(entry, "JAX을 쓰고 ``jax.grad``\\ 을 쓰세요.")
    assert len(found) == 1 and "jax.grad" in found[0]
