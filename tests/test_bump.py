"""`jaxko upstream bump` on a fixture upstream change: real Sphinx gettext and update.

A project root in a temporary folder (the repository's conf.py linked in) moves from a
first fixture release to a second with one paragraph new; changed ones: reworded, only
punctuation, only a link target, inline code, a link text; one removed; and one notebook
code cell edited. Review records (locale/ko/reviews) approve some of them first.
"""

from __future__ import annotations

import collections
import json
import re
import shutil
from pathlib import Path

import polib
import pytest

import release_edits
from conftest import FIXTURES, ROOT, run_jaxko


def _release(base: Path, name: str, edit=None) -> Path:
    tree = base / name
    shutil.copytree(FIXTURES / "pipeline" / "docs", tree / "docs")
    (tree / "CHANGELOG.md").write_text("# Changelog\n", encoding="utf-8")
    if edit:
        edit(tree / "docs")
    return tree


FIRST_EXTRA = """
See [the guide](https://example.org/guide) for the details of indexing.

Zebras are never compiled by the tracer in this fixture paragraph.

Use `x + 1` to shift every element of the array by one.

Read [the introduction](https://example.org/intro) before this page.
"""


def _first(docs: Path) -> None:
    page = docs / "page.md"
    page.write_text(page.read_text(encoding="utf-8") + FIRST_EXTRA, encoding="utf-8")


def _second(docs: Path) -> None:
    _first(docs)
    page = docs / "page.md"
    text = page.read_text(encoding="utf-8")
    for old, new in [
        ("JAX arrays are immutable; use `x.at[i].set(v)` to update them.",
         "JAX arrays are immutable: use `x.at[i].set(v)` to update them!"),        # punctuation
        ("This sentence about compilation will change slightly in the second version.",
         "This sentence about compilation changed in the second version of the page."),
        ("(https://example.org/guide)", "(https://example.org/guide/v2)"),          # link target
        ("Zebras are never compiled by the tracer in this fixture paragraph.\n", ""),  # removed
        ("`x + 1`", "`x - 1`"),                                                    # inline code
        ("[the introduction]", "[the intro]"),                                     # link text
    ]:
        assert old in text, old
        text = text.replace(old, new)
    page.write_text(text + "\nA brand new paragraph about sharding.\n", encoding="utf-8")
    nb = docs / "nb.ipynb"
    nb.write_text(nb.read_text(encoding="utf-8").replace("hello from ipynb", "hello again", 1),
                  encoding="utf-8")


def _project(tmp: Path) -> Path:
    root = tmp / "project"
    root.mkdir()
    (root / "conf.py").symlink_to(ROOT / "conf.py")
    (root / "upstream.toml").write_text(
        '[upstream]\nrepository = "https://github.com/jax-ml/jax"\ntag = "fixture-1"\n'
        'commit = "0"\ncontent_hash = ""\n', encoding="utf-8")
    return root


def _translate(root: Path) -> None:
    path = root / "locale" / "ko" / "LC_MESSAGES" / "page.po"
    po = polib.pofile(str(path))
    for entry in po:
        if entry.msgid and not entry.obsolete:
            entry.msgstr = f"번역: {entry.msgid}"
    po.save(str(path))


def _approve(root: Path, *starts: str) -> None:
    """Review records (a person's approval) for the page's messages starting so."""
    from jaxko.workflow import review

    po = polib.pofile(str(root / "locale" / "ko" / "LC_MESSAGES" / "page.po"))
    records = {}
    for entry in po:
        if entry.msgid.startswith(starts):
            key = review.message_key(entry.msgctxt, entry.msgid)
            records[key] = review.Record(key, review.text_hash(entry.msgstr), entry.msgstr,
                                         "검수자", "2026-01-01")
    assert len(records) == len(starts)
    review.save_records(root / "locale" / "ko" / "reviews" / "page.yaml", records.values())


@pytest.mark.integration  # real Sphinx gettext: `make test` runs it, not test-fast
def test_bump_reports_new_fuzzy_obsolete_trivial_and_notebooks(tmp_path):
    root = _project(tmp_path)
    env = {"JAXKO_ROOT": str(root)}
    first = _release(tmp_path, "v1", _first)
    proc = run_jaxko("upstream", "bump", "--from", str(first), env=env, cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _translate(root)
    _approve(root, "A MyST page", "JAX arrays", "This sentence", "Zebras")
    page_po = root / "locale" / "ko" / "LC_MESSAGES" / "page.po"
    translated_before = {e.msgid: e.msgstr for e in polib.pofile(str(page_po)) if e.msgstr}

    second = _release(tmp_path, "v2", _second)
    proc = run_jaxko("upstream", "bump", "--from", str(second), "--accept-trivial",
                     "--format", "json", env=env, cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report == json.loads((root / "_build" / "bump-report.json").read_text())
    [page] = [p for p in report["pages"] if p["page"] == "page"]
    # Changed: punctuation, reworded, link target, inline code, link text; a trivially
    # changed message is a changed one too. Removed: the zebra paragraph.
    assert (page["new"], page["fuzzy"], page["obsolete"]) == (1, 5, 1)
    # Approvals of the punctuation and the reworded messages are void; the title's stands,
    # the removed paragraph's is no approval of anything now.
    assert page["approvals_voided"] == 2
    assert page["percent_before"] == 100.0 and page["percent_after"] < 100.0
    assert report["notebooks_changed"] == ["nb.ipynb"]
    assert (report["translations_lost"], report["translations_before"]) == (0, 8)
    # The punctuation-only and the link-target-only changes are re-applied without fuzzy
    # (the translation's link moves along); nothing else is.
    assert [(t["kinds"], t["msgid"][:12]) for t in report["trivial"]] == [
        (["punctuation"], "JAX arrays a"), (["link target"], "See [the gui")]
    catalog = polib.pofile(str(page_po))
    by_id = {e.msgid: e for e in catalog if not e.obsolete}
    kept = by_id["JAX arrays are immutable: use `x.at[i].set(v)` to update them!"]
    assert not kept.fuzzy and kept.msgstr.startswith("번역: JAX arrays are immutable;")
    link = by_id["See [the guide](https://example.org/guide/v2) for the details of indexing."]
    assert not link.fuzzy
    assert link.msgstr == "번역: See [the guide](https://example.org/guide/v2) for the details of indexing."
    for msgid in ["This sentence about compilation changed in the second version of the page.",
                  "Use `x - 1` to shift every element of the array by one.",
                  "Read [the intro](https://example.org/intro) before this page."]:
        assert by_id[msgid].fuzzy and by_id[msgid].msgstr.startswith("번역: "), msgid
    assert "A brand new paragraph about sharding." in by_id
    assert [e.msgid for e in catalog if e.obsolete] == [
        "Zebras are never compiled by the tracer in this fixture paragraph."]
    # Nothing lost: every old translation is still somewhere in the catalog (the trivial
    # link change's translation with its target moved).
    texts = {e.msgstr for e in catalog}
    for text in translated_before.values():
        assert text in texts or text.replace("guide)", "guide/v2)") in texts, text
    markdown = (root / "_build" / "bump-report.md").read_text(encoding="utf-8")
    assert "# Upstream bump" in markdown and "Translations lost: 0 of 8" in markdown

    snapshot = {p: p.read_bytes() for p in (root / "locale").rglob("*") if p.is_file()}
    proc = run_jaxko("upstream", "bump", "--from", str(second), "--accept-trivial",
                     "--format", "json", env=env, cwd=root)
    assert proc.returncode == 0, proc.stderr
    again = json.loads(proc.stdout)
    assert again["pages"] == [] and again["notebooks_changed"] == [] and again["trivial"] == []
    assert {p: p.read_bytes() for p in (root / "locale").rglob("*") if p.is_file()} == snapshot


def test_trivial_means_whitespace_punctuation_or_link_target_only():
    from jaxko.bump import reapplied, trivial_kinds

    assert trivial_kinds("Use it.", "Use  it.") == ["whitespace"]
    assert trivial_kinds("Use it; now.", "Use it: now!") == ["punctuation"]
    assert trivial_kinds("See [a](x.md).", "See [a](y.md).") == ["link target"]
    assert trivial_kinds("See :doc:`a <x>`.", "See :doc:`a <y>`") == ["punctuation", "link target"]
    # Not trivial: code, link texts, words, markup.
    for old, new in [("Use `x + 1`.", "Use `x - 1`."), ("Use ``-1``.", "Use ``1``."),
                     ("See [a](x.md).", "See [b](x.md)."), ("Use it.", "Use them."),
                     ("Use *it*.", "Use it."), ("Same.", "Same.")]:
        assert trivial_kinds(old, new) == [], (old, new)
    assert reapplied("[가](x.md)를 보세요.", "See [a](x.md).", "See [a](y.md).") == "[가](y.md)를 보세요."
    # A translation without the old target is not re-applied (it stays fuzzy).
    assert reapplied("가를 보세요.", "See [a](x.md).", "See [a](y.md).") is None


# ------------------------------------------------------------------ the real catalogs


def _all_translations(locale: Path) -> collections.Counter:
    found = collections.Counter()
    for path in locale.rglob("*.po"):
        found.update(e.msgstr for e in polib.pofile(str(path)) if e.msgid and e.msgstr)
    return found


@pytest.mark.slow
def test_bump_of_the_real_catalogs_loses_nothing_and_is_a_no_op_twice(tmp_path, shared_upstream):
    project = tmp_path / "project"
    project.mkdir()
    (project / "conf.py").symlink_to(ROOT / "conf.py")
    shutil.copy(ROOT / "upstream.toml", project / "upstream.toml")
    shutil.copytree(ROOT / "overlay", project / "overlay")
    shutil.copytree(ROOT / "locale", project / "locale")
    newer = tmp_path / "jax-next"
    shutil.copytree(shared_upstream, newer)
    assert release_edits.apply(newer / "docs") == 12
    env = {"JAXKO_ROOT": str(project), "JAX_PLATFORMS": "cpu"}
    run_jaxko("upstream", "sync", "--from", str(shared_upstream), env=env, cwd=project,
              check=True)
    before = _all_translations(project / "locale")

    proc = run_jaxko("upstream", "bump", "--from", str(newer), "--format", "json",
                     env=env, cwd=project, check=True)
    report = json.loads(proc.stdout)
    assert report["translations_lost"] == 0
    assert not before - _all_translations(project / "locale")  # 0 lost, counted here too
    totals = {k: sum(p[k] for p in report["pages"]) for k in ("new", "fuzzy", "obsolete")}
    assert totals["new"] >= 12 and totals["fuzzy"] >= 12 and totals["obsolete"] >= 1
    assert report["notebooks_changed"] == []  # prose edits only
    kinds = [kind for t in report["trivial"] for kind in t["kinds"]]
    assert "link target" in kinds and "punctuation" in kinds

    # The maintainer accepts the trivial ones afterwards: only those change, a moved link
    # target moves in the translation too; every other translation stays as it was.
    fuzzy_before = _fuzzy(project / "locale")
    proc = run_jaxko("upstream", "bump", "--from", str(newer), "--accept-trivial",
                     "--format", "json", env=env, cwd=project, check=True)
    accepted = json.loads(proc.stdout)
    assert accepted["trivial"] == report["trivial"]
    assert fuzzy_before - _fuzzy(project / "locale") == {t["msgid"] for t in report["trivial"]}
    assert not _fuzzy(project / "locale") - fuzzy_before
    after = _all_translations(project / "locale")
    retargeted = before - after
    assert sum(retargeted.values()) == kinds.count("link target")
    moves = [(re.search(r"\]\(([^)]*)\)", t["previous"]).group(1),
              re.search(r"\]\(([^)]*)\)", t["msgid"]).group(1))
             for t in report["trivial"] if "link target" in t["kinds"]]
    for text in retargeted:
        assert any(text.replace(f"]({old})", f"]({new})") in after for old, new in moves), text

    snapshot = {p: p.read_bytes() for p in (project / "locale").rglob("*") if p.is_file()}
    proc = run_jaxko("upstream", "bump", "--from", str(newer), "--accept-trivial",
                     "--format", "json", env=env, cwd=project, check=True)
    again = json.loads(proc.stdout)
    assert again["pages"] == [] and again["trivial"] == []
    assert {p: p.read_bytes() for p in (project / "locale").rglob("*") if p.is_file()} == snapshot


def _fuzzy(locale: Path) -> set[str]:
    return {e.msgid for path in locale.rglob("*.po") for e in polib.pofile(str(path))
            if e.fuzzy and not e.obsolete}
