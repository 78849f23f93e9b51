"""`jaxko upstream bump` on a fixture upstream change: real Sphinx gettext and update.

A project root in a temporary folder (the repository's conf.py linked in) moves from a
first fixture release to a second with one paragraph new, one changed, one changed
only in punctuation, one removed and one notebook code cell edited.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polib

from conftest import FIXTURES, ROOT, run_jaxko


def _release(base: Path, name: str, edit=None) -> Path:
    tree = base / name
    shutil.copytree(FIXTURES / "pipeline" / "docs", tree / "docs")
    (tree / "CHANGELOG.md").write_text("# Changelog\n", encoding="utf-8")
    if edit:
        edit(tree / "docs")
    return tree


def _second(docs: Path) -> None:
    page = docs / "page.md"
    text = page.read_text(encoding="utf-8")
    text = text.replace("JAX arrays are immutable; use `x.at[i].set(v)` to update them.",
                        "JAX arrays are immutable: use `x.at[i].set(v)` to update them!")
    text = text.replace("This sentence about compilation will change slightly in the second version.",
                        "This sentence about compilation changed in the second version of the page.")
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


def test_bump_reports_new_fuzzy_obsolete_trivial_and_notebooks(tmp_path):
    root = _project(tmp_path)
    env = {"JAXKO_ROOT": str(root)}
    first = _release(tmp_path, "v1")
    proc = run_jaxko("upstream", "bump", "--from", str(first), env=env, cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _translate(root)
    page_po = root / "locale" / "ko" / "LC_MESSAGES" / "page.po"
    translated_before = {e.msgid: e.msgstr for e in polib.pofile(str(page_po)) if e.msgstr}

    second = _release(tmp_path, "v2", _second)
    proc = run_jaxko("upstream", "bump", "--from", str(second), "--accept-trivial",
                     "--format", "json", env=env, cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report == json.loads((root / "_build" / "bump-report.json").read_text())
    [page] = [p for p in report["pages"] if p["page"] == "page"]
    assert (page["new"], page["fuzzy"]) == (1, 2)  # the trivial change is a changed one too
    assert page["percent_before"] == 100.0 and page["percent_after"] < 100.0
    assert report["notebooks_changed"] == ["nb.ipynb"]
    # The punctuation-only change is re-applied without fuzzy; nothing else is.
    [trivial] = report["trivial"]
    assert trivial["msgid"].endswith("to update them!")
    catalog = polib.pofile(str(page_po))
    by_id = {e.msgid: e for e in catalog}
    kept = by_id["JAX arrays are immutable: use `x.at[i].set(v)` to update them!"]
    assert not kept.fuzzy and kept.msgstr.startswith("번역: JAX arrays are immutable;")
    changed = by_id["This sentence about compilation changed in the second version of the page."]
    assert changed.fuzzy and changed.msgstr.startswith("번역: This sentence")
    # Nothing lost: every old translation is still somewhere in the catalog.
    texts = {e.msgstr for e in catalog}
    assert set(translated_before.values()) <= texts
    assert "# Upstream bump" in (root / "_build" / "bump-report.md").read_text(encoding="utf-8")

    snapshot = {p: p.read_bytes() for p in (root / "locale").rglob("*.po")}
    proc = run_jaxko("upstream", "bump", "--from", str(second), "--format", "json",
                     env=env, cwd=root)
    assert proc.returncode == 0, proc.stderr
    again = json.loads(proc.stdout)
    assert again["pages"] == [] and again["notebooks_changed"] == []
    assert {p: p.read_bytes() for p in (root / "locale").rglob("*.po")} == snapshot
