"""The changelog after a release: what translation memory fills, and the bump report.

Same-form matches (:mod:`jaxko.workflow.tmforms`) on their own first, then end to end:
a fixture project whose docs/changelog.md includes CHANGELOG.md (as JAX's does) is
bumped to a first release, its changelog translated, then bumped to a "next release"
with a new version heading, the recurring labels, a commit link, new prose, a changed
entry and look-alikes that must not be filled as exact; real Sphinx gettext, update and
``jaxko tm fill``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polib
import pytest

from conftest import FIXTURES, run_jaxko
from jaxko.workflow import tmforms
from test_bump import _project


# ------------------------------------------------------------------ forms, one by one


def test_a_version_heading_takes_the_new_version_and_date():
    made = tmforms.substitute("JAX 0.10.1 (May 20, 2026)", "JAX 0.10.1 (2026년 5월 20일)",
                              "JAX 0.10.3 (June 18, 2026)")
    assert made == tmforms.Substituted("JAX 0.10.3 (2026년 6월 18일)", True, "")
    # abbreviated months, and a URL with the versions inside it
    assert tmforms.substitute("jax 0.5.3 (Mar 19, 2025)", "jax 0.5.3 (2025년 3월 19일)",
                              "jax 0.5.4 (Sept 5, 2025)").msgstr == "jax 0.5.4 (2025년 9월 5일)"
    link = "[GitHub commits](https://github.com/jax-ml/jax/compare/jax-v0.3.20...jax-v0.3.21)."
    made = tmforms.substitute(link, link.replace("commits", "커밋"),
                              link.replace("0.3.21", "0.3.22").replace("0.3.20", "0.3.21"))
    assert made.exact and made.msgstr == (
        "[GitHub 커밋](https://github.com/jax-ml/jax/compare/jax-v0.3.21...jax-v0.3.22).")


def test_a_particle_after_a_number_follows_the_new_reading():
    # 3.12 (일이) takes 가, 3.11 (일일) takes 이; 0.4.32 (이) 와, 0.4.37 (칠) 과
    assert tmforms.substitute("Python 3.12 is the minimum.", "파이썬 3.12가 최소입니다.",
                              "Python 3.11 is the minimum.").msgstr == "파이썬 3.11이 최소입니다."
    assert tmforms.substitute("Released with jax 0.4.32", "jax 0.4.32와 함께 릴리스",
                              "Released with jax 0.4.37").msgstr == "jax 0.4.37과 함께 릴리스"
    assert tmforms.substitute("Released with jax 0.4.32", "**jax 0.4.32**와 함께",
                              "Released with jax 0.4.33").msgstr == "**jax 0.4.33**과 함께"
    # after a bracket or a URL the particle belongs to the word before: untouched
    assert tmforms.substitute("Added `f` ({jax-issue}`#102`).", "`f`({jax-issue}`#102`)를 추가",
                              "Added `f` ({jax-issue}`#101`).").msgstr == \
        "`f`({jax-issue}`#101`)를 추가"
    assert tmforms.substitute("See https://a.org/1.", "https://a.org/1 를 보세요.",
                              "See https://a.org/3.").msgstr == "https://a.org/3 를 보세요."
    assert tmforms.substitute("See [it](https://a.org/1).", "[이것](https://a.org/1)을 보세요.",
                              "See [it](https://a.org/2).").msgstr == "[이것](https://a.org/2)을 보세요."


def test_not_the_same_form_or_not_an_exact_substitution():
    # planted: one word differs (or its case): not the same form at all
    for old, new in [("JAX 0.10.1 (May 20, 2026)", "jaxlib 0.10.3 (June 18, 2026)"),
                     ("JAX 0.10.1 (May 20, 2026)", "jax 0.10.3 (June 18, 2026)"),
                     ("Fixed 2 bugs.", "Fixed 3 bags."),
                     ("Fixed 2 bugs.", "Fixed 2 bugs."),           # equal: exact TM's job
                     ("See the guide.", "See the guides.")]:      # no slot at all
        assert tmforms.substitute(old, "번역", new) is None, new
    # the translation does not show the number: a fuzzy suggestion, with the reason
    made = tmforms.substitute("Removed 2 functions.", "함수 두 개를 제거했습니다.",
                              "Removed 3 functions.")
    assert not made.exact and "'2'" in made.reason
    # the number shows more often in the translation than in the English
    made = tmforms.substitute("Use 2 devices.", "장치 2개(2)를 쓰세요.", "Use 4 devices.")
    assert not made.exact and "2 times" in made.reason
    # "10" is not found inside "10144" or "0.10.1"
    made = tmforms.substitute("Fixed 10 bugs ({jax-issue}`#10144`).",
                              "버그를 고쳤습니다({jax-issue}`#10144`).",
                              "Fixed 11 bugs ({jax-issue}`#10144`).")
    assert not made.exact
    # one old value, two new ones: ambiguous
    made = tmforms.substitute("From 0.1 to 0.1.", "0.1에서 0.1로.", "From 0.1 to 0.2.")
    assert not made.exact and "becomes both" in made.reason
    # a clean one stays exact, and code never has a form
    assert tmforms.substitute("Fixed 10 bugs.", "버그 10개를 고쳤습니다.",
                              "Fixed 12 bugs.").exact
    forms = tmforms.Forms()
    from jaxko.workflow.tm import Unit
    forms.add(Unit("x = jnp.ones(3)\nprint(x)", "x = jnp.ones(3)\nprint(x)  # 출력",
                   Path("a.po"), "a.ipynb:1", False))
    assert forms.match("x = jnp.ones(4)\nprint(x)") is None


# ------------------------------------------------------------------ a release, end to end

FIRST = """# Change log

Best viewed on the JAX site.

## JAX 0.10.1 (May 20, 2026)

* New features
  * Added {func}`jax.numpy.frobnicate` for frobnicating arrays ({jax-issue}`#101`).

* Bug fixes
  * Fixed a crash in {func}`jax.jit` with donated buffers.

* Deprecations
  * Python 3.12 is now the minimum version.
  * Removed 2 deprecated functions.

* [GitHub commits](https://github.com/jax-ml/jax/compare/jax-v0.10.0...jax-v0.10.1).
"""

NEXT = """# Change log

Best viewed on the JAX site.

## JAX 0.10.3 (June 18, 2026)

* New features
  * The tracer now keeps weak types through {func}`jax.lax.cond` ({jax-issue}`#202`).

* Bug fixes
  * Python 3.11 is now the minimum version.
  * Removed 3 deprecated functions.

* Deprecations
  * Jaxlib 0.10.3 (June 18, 2026)

* [GitHub commits](https://github.com/jax-ml/jax/compare/jax-v0.10.1...jax-v0.10.3).

## JAX 0.10.1 (May 20, 2026)

* New features
  * Added {func}`jax.numpy.frobnicate` for frobnicating arrays ({jax-issue}`#101`).

* Bug fixes
  * Fixed a crash in {func}`jax.jit` with donated input buffers.

* Deprecations
  * Python 3.12 is now the minimum version.
  * Removed 2 deprecated functions.

* [GitHub commits](https://github.com/jax-ml/jax/compare/jax-v0.10.0...jax-v0.10.1).
"""

KOREAN = {
    "Change log": "변경 기록",
    "Best viewed on the JAX site.": "JAX 사이트에서 보는 것이 가장 좋습니다.",
    "JAX 0.10.1 (May 20, 2026)": "JAX 0.10.1 (2026년 5월 20일)",
    "New features": "새 기능",
    "Added {func}`jax.numpy.frobnicate` for frobnicating arrays ({jax-issue}`#101`).":
        "배열을 프로브니케이트하는 {func}`jax.numpy.frobnicate`를 추가했습니다({jax-issue}`#101`).",
    "Bug fixes": "버그 수정",
    "Fixed a crash in {func}`jax.jit` with donated buffers.":
        "기증된 버퍼로 {func}`jax.jit`이 비정상 종료되던 문제를 고쳤습니다.",
    "Deprecations": "지원 중단",
    "Python 3.12 is now the minimum version.": "이제 파이썬 3.12가 최소 버전입니다.",
    "Removed 2 deprecated functions.": "지원 중단된 함수 두 개를 제거했습니다.",
    "[GitHub commits](https://github.com/jax-ml/jax/compare/jax-v0.10.0...jax-v0.10.1).":
        "[GitHub 커밋](https://github.com/jax-ml/jax/compare/jax-v0.10.0...jax-v0.10.1).",
}


def _release(base: Path, name: str, changelog: str) -> Path:
    tree = base / name
    shutil.copytree(FIXTURES / "pipeline" / "docs", tree / "docs")
    (tree / "docs" / "changelog.md").write_text("```{include} ../CHANGELOG.md\n```\n",
                                                encoding="utf-8")
    index = tree / "docs" / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").replace("   nb\n", "   nb\n   changelog\n"),
                     encoding="utf-8")
    (tree / "CHANGELOG.md").write_text(changelog, encoding="utf-8")
    return tree


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
def test_next_release_headings_labels_and_links_filled_prose_left_for_a_translator(tmp_path):
    root = _project(tmp_path)
    env = {"JAXKO_ROOT": str(root)}
    proc = run_jaxko("upstream", "bump", "--from", str(_release(tmp_path, "v1", FIRST)),
                     env=env, cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    po_path = root / "locale" / "ko" / "LC_MESSAGES" / "changelog.po"
    po = polib.pofile(str(po_path))
    assert {e.msgid for e in po if not e.obsolete} == set(KOREAN)
    for entry in po:
        entry.msgstr = KOREAN[entry.msgid]
    po.save(str(po_path))

    proc = run_jaxko("upstream", "bump", "--from", str(_release(tmp_path, "v2", NEXT)),
                     "--format", "json", env=env, cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)["changelog"]
    by_msgid = {item["msgid"]: item for item in report["items"]}
    heading = "JAX 0.10.3 (June 18, 2026)"
    link = "[GitHub commits](https://github.com/jax-ml/jax/compare/jax-v0.10.1...jax-v0.10.3)."
    prose = "The tracer now keeps weak types through {func}`jax.lax.cond` ({jax-issue}`#202`)."
    assert (report["new"], report["changed"]) == (6, 1)
    statuses = {m: i["status"] for m, i in by_msgid.items()}
    # planted: a heading that differs in a word is never filled as exact
    assert statuses.pop("Jaxlib 0.10.3 (June 18, 2026)") in ("suggested", "translate")
    assert statuses == {
        heading: "filled", link: "filled",
        "Python 3.11 is now the minimum version.": "filled",
        "Removed 3 deprecated functions.": "suggested",       # 두 개: not an exact substitution
        prose: "translate",
        "Fixed a crash in {func}`jax.jit` with donated input buffers.": "changed"}
    assert (report["filled"], report["need_translator"]) == (3, 4)
    assert (report["suggested"] + report["translate"], report["changed_fuzzy"]) == (3, 1)
    # the labels repeat exactly: no new message at all
    assert not {"New features", "Bug fixes", "Deprecations"} & set(by_msgid)
    markdown = (root / "_build" / "bump-report.md").read_text(encoding="utf-8")
    assert "## Changelog (`changelog`): 6 new, 1 changed messages" in markdown
    assert "Translation memory fills 3 (translated); 4 need a translator" in markdown
    assert (f"| ../upstream/CHANGELOG.md:5 | ` {heading} ` | filled: same form as "
            "../upstream/CHANGELOG.md:19, numbers/dates/URLs substituted |") in markdown
    assert f"| ` {link} ` | filled: same form as " in markdown
    assert "` Removed 3 deprecated functions. ` | suggested: same form as " in markdown
    # the bump wrote no translation: the report is a dry run of tm fill
    assert not polib.pofile(str(po_path)).find(heading).msgstr

    proc = run_jaxko("tm", "fill", str(po_path), "--format", "json", env=env, cwd=root)
    assert proc.returncode == 0, proc.stderr
    filled = json.loads(proc.stdout)
    assert (filled["exact"], filled["form"], filled["form_fuzzy"]) == (0, 3, 1)
    after = {e.msgid: e for e in polib.pofile(str(po_path)) if not e.obsolete}
    assert after[heading].msgstr == "JAX 0.10.3 (2026년 6월 18일)" and not after[heading].fuzzy
    assert after[link].msgstr == link.replace("commits", "커밋") and not after[link].fuzzy
    minimum = after["Python 3.11 is now the minimum version."]
    assert minimum.msgstr == "이제 파이썬 3.11이 최소 버전입니다." and not minimum.fuzzy
    removed = after["Removed 3 deprecated functions."]
    assert removed.fuzzy and removed.msgstr == "지원 중단된 함수 두 개를 제거했습니다."
    assert removed.previous_msgid == "Removed 2 deprecated functions."
    assert removed.tcomment.startswith("tm: same form as") and "'2'" in removed.tcomment
    assert not after["Jaxlib 0.10.3 (June 18, 2026)"].translated()
    assert after[prose].msgstr == "" and not after[prose].fuzzy
    for label in ("New features", "Bug fixes", "Deprecations"):
        assert after[label].translated()
