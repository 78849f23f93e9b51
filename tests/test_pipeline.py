"""Stage 2 end to end on fixture docs: real Sphinx gettext, real merge, real sphinx-intl.

The fixture has one page of each source kind the JAX docs use: reStructuredText, a MyST
page, a MyST-NB notebook and an .ipynb with stored outputs. It is extracted and merged
once per module; each test works on a copy of the docs, .pot files and catalogs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from jaxko import catalogs, extract, update
from jaxko.errors import UserError

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_DOCS = ROOT / "tests" / "fixtures" / "pipeline" / "docs"


def _extract(src: Path, out: Path) -> extract.ExtractResult:
    return extract.extract(root=ROOT, srcdir=src, outdir=out)


def _update(src: Path, pot: Path, locale: Path) -> update.UpdateSummary:
    return update.update(pot_dir=pot, locale_dir=locale, srcdir=src, root=ROOT, progress=False)


def _catalogs(locale: Path) -> dict[str, polib.POFile]:
    base = locale / "ko" / "LC_MESSAGES"
    return {p.relative_to(base).as_posix(): catalogs.load(p) for p in sorted(base.rglob("*.po"))}


def _snapshot(locale: Path) -> dict[str, bytes]:
    return {p.relative_to(locale).as_posix(): p.read_bytes() for p in sorted(locale.rglob("*.po"))}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The fixture docs extracted (real Sphinx gettext) and merged into new catalogs,
    once per module: (folder holding docs/, gettext/ and locale/, result, summary)."""
    base = tmp_path_factory.mktemp("pipeline")
    docs, pot, locale = base / "docs", base / "gettext", base / "locale"
    shutil.copytree(FIXTURE_DOCS, docs)
    result = _extract(docs, pot)
    summary = _update(docs, pot, locale)
    return base, result, summary


@pytest.fixture
def pipeline(tmp_path, extracted):
    """The test's own copy of the extracted pipeline: (docs, pot, locale, result, summary).
    Sphinx's environment is not copied: a test that extracts again reads every page."""
    base, result, summary = extracted
    for name in ("docs", "gettext", "locale"):
        shutil.copytree(base / name, tmp_path / name)
    return tmp_path / "docs", tmp_path / "gettext", tmp_path / "locale", result, summary


def test_extraction_covers_every_source_kind_and_skips_outputs(pipeline):
    _docs, pot, _locale, result, summary = pipeline
    assert result.unexpected == []
    names = sorted(p.relative_to(pot).as_posix() for p in pot.rglob("*.pot"))
    assert names == ["index.pot", "mystnb.pot", "nb.pot", "page.pot"]
    assert summary.created == 4
    msgids = {e.msgid for p in pot.rglob("*.pot") for e in catalogs.load(p)}
    # prose of each kind
    assert "JAX arrays are immutable; use `x.at[i].set(v)` to update them." in msgids
    assert "The {func}`jax.grad` function computes gradients." in msgids
    assert "Vectorization with `jax.vmap` maps a function over a batch axis." in msgids
    assert "This page is written in reStructuredText and links to :doc:`page`." in msgids
    # code: fenced code, code-block, MyST-NB code cell, ipynb code cell
    assert "# add two numbers\nx = 1 + 2" in msgids
    assert '# square a number\nprint("hello")' in msgids
    assert "# print a value\nprint('hello from ipynb')" in msgids
    # stored outputs never become messages
    assert not any("STREAM-OUTPUT-TEXT" in m or "STORED-RESULT-TEXT" in m for m in msgids)


def test_locations_are_docs_relative(pipeline):
    _docs, _pot, locale, _result, _summary = pipeline
    nb = _catalogs(locale)["nb.po"]
    locations = [occ for e in nb for occ in e.occurrences]
    assert locations and all(name == "nb.ipynb" for name, _line in locations)
    # .ipynb lines are cell * 10000 + line (MyST-NB's convention)
    assert ("nb.ipynb", "10002") in locations or any(int(line) >= 10000 for _n, line in locations)


def test_update_never_loses_a_translation(pipeline, tmp_path):
    docs, pot, locale, _result, _summary = pipeline
    # A translator translates everything.
    translated_before = 0
    for rel, po in _catalogs(locale).items():
        for entry in po:
            entry.msgstr = f"번역 {entry.msgid}"
            translated_before += 1
        catalogs.save(po)
    # Upstream changes one paragraph, deletes another, adds a third.
    page = docs / "page.md"
    page.write_text(page.read_text().replace("will change slightly", "will change a little"))
    index = docs / "index.rst"
    index.write_text(index.read_text().replace(
        "A paragraph that will be deleted in the second version.",
        "A brand new paragraph about sharding."))
    _extract(docs, pot)
    summary = _update(docs, pot, locale)
    cats = _catalogs(locale)

    changed = [e for e in cats["page.po"] if e.fuzzy]
    assert len(changed) == 1
    assert changed[0].msgid == "This sentence about compilation will change a little in the second version."
    assert changed[0].previous_msgid == "This sentence about compilation will change slightly in the second version."
    assert changed[0].msgstr == f"번역 {changed[0].previous_msgid}"

    gone = [e for e in cats["index.po"].obsolete_entries()]
    assert [e.msgid for e in gone] == ["A paragraph that will be deleted in the second version."]
    assert gone[0].msgstr == "번역 A paragraph that will be deleted in the second version."

    new = cats["index.po"].find("A brand new paragraph about sharding.")
    assert new is not None and new.msgstr == "" and not new.fuzzy

    t = summary.totals
    assert (t.kept, t.fuzzy, t.obsolete) == (translated_before - 2, 1, 1)
    assert translated_before == t.kept + t.fuzzy + t.obsolete

    # A second update with nothing changed is byte-identical.
    before = _snapshot(locale)
    again = _update(docs, pot, locale)
    assert again.changed == 0
    assert _snapshot(locale) == before

    # The deleted paragraph comes back: its obsolete translation is revived.
    index.write_text(index.read_text().replace(
        "A brand new paragraph about sharding.",
        "A paragraph that will be deleted in the second version."))
    _extract(docs, pot)
    revived = _update(docs, pot, locale)
    assert revived.totals.revived == 1
    entry = _catalogs(locale)["index.po"].find("A paragraph that will be deleted in the second version.")
    assert entry.msgstr.startswith("번역 ") and not entry.obsolete


def test_catalogs_are_valid_for_msgfmt_and_sphinx_intl(pipeline, tmp_path):
    docs, pot, locale, _result, _summary = pipeline
    po = _catalogs(locale)["page.po"]
    po.find("JAX arrays are immutable; use `x.at[i].set(v)` to update them.").msgstr = "번역"
    catalogs.save(po)
    page = docs / "page.md"
    page.write_text(page.read_text().replace("JAX arrays are immutable", "JAX arrays are never mutable"))
    _extract(docs, pot)
    _update(docs, pot, locale)
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "msgfmt missing: `make setup` installs gettext"
    for path in (locale / "ko" / "LC_MESSAGES").glob("*.po"):
        subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(path)], check=True)
    # sphinx-intl (babel underneath) reads our catalogs, fuzzy + #| included.
    stat = subprocess.run([sys.executable, "-m", "sphinx_intl", "stat", "-d", str(locale), "-l", "ko"],
                          capture_output=True, text=True, cwd=tmp_path)
    # (sphinx-intl stat exits 1 while anything is untranslated: that is not an error here)
    assert "Traceback" not in stat.stderr, stat.stderr
    page_line = next(line for line in stat.stdout.splitlines() if "page.po" in line)
    assert "1 fuzzy" in page_line, stat.stdout


def test_korean_build_uses_the_catalogs(pipeline, tmp_path):
    docs, pot, locale, _result, _summary = pipeline
    po = _catalogs(locale)["page.po"]
    po.find("JAX arrays are immutable; use `x.at[i].set(v)` to update them.").msgstr = \
        "JAX 배열은 변경할 수 없으므로 `x.at[i].set(v)`로 갱신합니다."
    catalogs.save(po)
    out = tmp_path / "html"
    status, warnings = extract.run_sphinx(
        "html", docs, out, confdir=ROOT, env=extract.sphinx_env("narrative", "off", docs),
        extra=["-D", "language=ko", "-D", f"locale_dirs={locale}"])
    assert status == 0, warnings
    html = (out / "page.html").read_text(encoding="utf-8")
    assert "JAX 배열은 변경할 수 없으므로" in html


def test_missing_include_is_a_hard_error(fixture_docs, tmp_path):
    (fixture_docs / "changelog.md").write_text("# Changes\n\n```{include} ../CHANGELOG.md\n```\n")
    with pytest.raises(UserError) as err:
        _extract(fixture_docs, tmp_path / "gettext")
    assert "gettext failed" in err.value.format()
    # With the included file present the same page extracts its text.
    (fixture_docs.parent / "CHANGELOG.md").write_text("## 1.0\n\nFirst release of the fixture.\n")
    _extract(fixture_docs, tmp_path / "gettext")
    pot = catalogs.load(tmp_path / "gettext" / "changelog.pot")
    assert pot.find("First release of the fixture.") is not None


def test_broken_catalog_is_one_line_with_file_and_line(pipeline, jaxko, tmp_path):
    docs, pot, locale, _result, _summary = pipeline
    page = locale / "ko" / "LC_MESSAGES" / "page.po"
    lines = page.read_text().splitlines()
    bad_line = next(i for i, line in enumerate(lines) if line.startswith("msgstr")) + 1
    lines[bad_line - 1] = 'msgstr "unterminated'
    page.write_text("\n".join(lines) + "\n")
    before = page.read_bytes()
    proc = jaxko("update", "--pot-dir", str(pot), "--locale-dir", str(locale), "--srcdir", str(docs))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert f"{page}:{bad_line}:" in proc.stderr
    assert page.read_bytes() == before


def test_unwritable_locale_dir_is_exit_2(pipeline, jaxko, tmp_path):
    _docs, pot, _locale, _result, _summary = pipeline
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the locale dir should be")
    proc = jaxko("update", "--pot-dir", str(pot), "--locale-dir", str(blocker))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and str(blocker) in proc.stderr
    assert blocker.read_text() == "a file where the locale dir should be"


def test_wrong_option_is_one_line_exit_2(jaxko):
    proc = jaxko("update", "--no-such-option")
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "--no-such-option" in proc.stderr


@pytest.mark.parametrize("command", [[], ["upstream", "sync"], ["extract"], ["update"]])
def test_help_everywhere(jaxko, command):
    proc = jaxko(*command, "--help")
    assert proc.returncode == 0 and "usage:" in proc.stdout
