"""Stage 1: the pinned upstream, its content hash, and staging that keeps mtimes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from jaxko import catalogs, extract, update, upstream
from jaxko.errors import UserError

ROOT = Path(__file__).resolve().parents[1]


def test_pin_matches_the_shared_copy(shared_upstream):
    pin = upstream.read_pin(ROOT)
    assert pin.tag == "jax-v0.10.2"
    assert pin.commit == "990e6a0b84138346e6a38785412f36356e0e5dc3"
    assert upstream.content_hash(shared_upstream) == pin.content_hash


def test_edited_copy_is_refused_naming_the_file(shared_upstream, tmp_path, jaxko):
    copy = tmp_path / "jax"
    shutil.copytree(shared_upstream, copy)
    edited = copy / "docs" / "key-concepts.md"
    edited.write_text(edited.read_text() + "\nAn edit that is not upstream's.\n")
    proc = jaxko("upstream", "sync", "--from", str(copy))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "does not match the pin" in proc.stderr and "docs/key-concepts.md" in proc.stderr


def test_missing_upstream_is_exit_2(tmp_path, jaxko):
    proc = jaxko("upstream", "sync", "--from", str(tmp_path / "nowhere"))
    assert proc.returncode == 2 and "nowhere" in proc.stderr and "Traceback" not in proc.stderr


def test_staging_again_changes_nothing(shared_upstream, tmp_path):
    dest = tmp_path / "staged"
    first = upstream.sync(str(shared_upstream), root=ROOT, dest=dest)
    assert first.copied > 250 and (dest / "CHANGELOG.md").is_file()
    assert (dest / "docs" / "hero.html").is_file()  # the project's stand-in, upstream lacks it
    mtimes = {p: p.stat().st_mtime_ns for p in dest.rglob("*") if p.is_file()}
    second = upstream.sync(str(shared_upstream), root=ROOT, dest=dest)
    assert (second.copied, second.removed) == (0, 0)
    assert {p: p.stat().st_mtime_ns for p in dest.rglob("*") if p.is_file()} == mtimes
    # A stray file in the staging area (e.g. upstream deleted a page) is removed.
    (dest / "docs" / "stale.md").write_text("# gone upstream\n")
    assert upstream.sync(str(shared_upstream), root=ROOT, dest=dest).removed == 1


def test_repin_accepts_a_new_tree(shared_upstream, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "upstream.toml", project / "upstream.toml")
    copy = tmp_path / "jax"
    shutil.copytree(shared_upstream, copy)
    (copy / "docs" / "new-page.md").write_text("# A page of the next release\n")
    with pytest.raises(UserError):
        upstream.sync(str(copy), root=project, dest=tmp_path / "staged")
    result = upstream.sync(str(copy), root=project, dest=tmp_path / "staged", repin=True, tag="jax-v0.10.3")
    pin = upstream.read_pin(project)
    assert (pin.tag, pin.content_hash) == ("jax-v0.10.3", result.content_hash)
    assert upstream.sync(str(copy), root=project, dest=tmp_path / "staged").copied == 0


def test_broken_pin_is_one_line(tmp_path):
    (tmp_path / "upstream.toml").write_text("[upstream\nrepository = 1\n")
    with pytest.raises(UserError) as err:
        upstream.read_pin(tmp_path)
    assert str(tmp_path / "upstream.toml") in err.value.format()


# Messages whose source line ends in a backslash (a\\<newline>b): the default toolchain
# (Sphinx 8.2, docutils 0.21) extracts "a\\ b", Sphinx 9 "a b" (README "Toolchains").
LINE_END_MESSAGES = {"type_promotion.pot", "pallas/CHANGELOG.pot"}


def as_default_toolchain_extracts(pot_dir: Path, locale: Path) -> set[str]:
    """The templates with each message that the committed catalog holds in the default
    toolchain's line-end form (``gate.line_end_aliases``) given that form; the names of
    the templates changed (none where this toolchain extracts as the default one does)."""
    import polib

    from jaxko.site.gate import line_end_aliases

    changed = set()
    for pot_path in sorted(pot_dir.rglob("*.pot")):
        name = str(pot_path.relative_to(pot_dir))
        po_path = locale / "ko" / "LC_MESSAGES" / name.replace(".pot", ".po")
        if not po_path.is_file():
            continue
        reference = {}
        for entry in polib.pofile(str(po_path)):
            for alias in line_end_aliases(entry.msgid):
                reference[(entry.msgctxt, alias)] = entry.msgid
        template = polib.pofile(str(pot_path), wrapwidth=0)
        found = [e for e in template if (e.msgctxt, e.msgid) in reference]
        for entry in found:
            entry.msgid = reference[(entry.msgctxt, entry.msgid)]
        if found:
            template.save(str(pot_path))
            changed.add(name)
    return changed


@pytest.mark.slow
def test_committed_catalogs_are_current(shared_upstream, tmp_path):
    """`make update-po` on a fresh clone leaves locale/ unchanged (committed and idempotent).

    The committed catalogs are the default toolchain's extraction; on Sphinx 9 the known
    line-end difference (:data:`LINE_END_MESSAGES`) is mapped back, nothing else."""
    staged = tmp_path / "upstream"
    upstream.sync(str(shared_upstream), root=ROOT, dest=staged)
    pot = tmp_path / "gettext"
    result = extract.extract(root=ROOT, srcdir=staged / "docs", outdir=pot)
    assert result.templates == 140
    assert result.unexpected == [], result.unexpected
    mapped = as_default_toolchain_extracts(pot, ROOT / "locale")
    # all of them or none: the toolchain extracts line-end backslashes one way or the other
    assert mapped in (set(), LINE_END_MESSAGES), mapped
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", locale)
    before = {p.relative_to(locale): p.read_bytes() for p in locale.rglob("*.po")}
    summary = update.update(pot_dir=pot, locale_dir=locale, srcdir=staged / "docs", root=ROOT,
                            progress=False)
    after = {p.relative_to(locale): p.read_bytes() for p in locale.rglob("*.po")}
    changed = sorted(str(k) for k in after if before.get(k) != after[k])
    assert changed == [], f"run `make update-po` and commit: {changed[:5]}"
    assert summary.catalogs == 140 and summary.totals.entries > 11000
    # every committed catalog parses
    for path in locale.rglob("*.po"):
        catalogs.load(path)
