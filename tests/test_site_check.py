"""`jaxko site build` says what `jaxko check` knows: real CLI, real Sphinx, fixture site.

Translations with broken markup used to publish with exit 0 under `--strict` when
Sphinx had nothing to say (a role missing its closing backtick, a stray backtick), and
Sphinx's warnings about a translation named the upstream source line, not the catalog.
Now the build runs the checker over the catalogs it reads: its errors are in the
summary with `file.po:line` and `--strict` exits 1 on them; each warning about a
translated message names the catalog entry. A clean tree still builds with exit 0.

The first build of the --strict failure runs as a real `jaxko` process (its exit status
is the user's); the other builds run the command in this process (``jaxko.cli.main``,
output captured at the file descriptors; Sphinx runs in a process of its own either way).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run_jaxko, run_jaxko_in_process, write_newer
from jaxko.site.ext import speedups
from jaxko.site.build import catalog_locations

SITE = FIXTURES / "site"

# On a toolchain the speedups were not tested with (jaxko.site.ext.speedups: they switch
# themselves off) the build warns once that they are off (an accepted warning), and
# Sphinx's own Locale parses each translated message in both of its passes, so a
# msgstr that does not parse is warned about twice; with them, once.
SPEEDUPS_ON = not speedups.untested()
NOTICES = 0 if SPEEDUPS_ON else 1
PARSE_WARNINGS = 1 if SPEEDUPS_ON else 2


def _tree(tmp: Path) -> Path:
    shutil.copytree(SITE / "docs", tmp / "docs")
    shutil.copytree(SITE / "locale", tmp / "locale")
    return tmp


def _plant(tmp: Path) -> None:
    """A role missing its closing backtick (Sphinx warns at guide.md:3), a stray
    backtick (no warning at all) and an unclosed reST literal (a <translated> warning)."""
    guide = tmp / "locale" / "ko" / "LC_MESSAGES" / "guide.po"
    text = guide.read_text(encoding="utf-8")
    text = text.replace("{func}`len`을 쓰고", "{func}`len을 쓰고")
    text = text.replace('"배열은 바꿀 수 없습니다.', '"배열은 `바꿀 수 없습니다.')
    guide.write_text(text, encoding="utf-8")
    plain = tmp / "locale" / "ko" / "LC_MESSAGES" / "plain.po"
    plain.write_text(plain.read_text(encoding="utf-8").replace(
        '"비교용 reStructuredText', '"비교용 ``reStructuredText'), encoding="utf-8")


def _build(tmp: Path, *extra: str, run=run_jaxko_in_process):
    return run("site", "build", "--no-execute", "--no-notebooks",
               "--srcdir", str(tmp / "docs"), "--outdir", str(tmp / "html"),
               "--locale-dir", str(tmp / "locale"),
               "--glossary", str(SITE / "glossary.yaml"), *extra, cwd=tmp)


def _line_of(catalog: Path, needle: str) -> int:
    """The line of the msgstr that holds ``needle``."""
    lines = catalog.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines, 1) if needle in line)
    return max(i for i in range(1, at + 1) if lines[i - 1].startswith("msgstr"))


def test_strict_build_fails_on_check_errors_and_names_the_catalog_lines(tmp_path):
    tmp = _tree(tmp_path)
    _plant(tmp)
    catalogs = tmp / "locale" / "ko" / "LC_MESSAGES"
    role = _line_of(catalogs / "guide.po", "{func}`len을")
    stray = _line_of(catalogs / "guide.po", "`바꿀")
    literal = _line_of(catalogs / "plain.po", "``reStructuredText")
    proc = _build(tmp, "--strict", run=run_jaxko)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "Traceback" not in proc.stderr
    assert re.search(r"jaxko check: [3-9] errors", out), out
    assert f"locale/ko/LC_MESSAGES/guide.po:{role}: markup.role" in out
    assert f"locale/ko/LC_MESSAGES/guide.po:{stray}: syntax.stray-backtick" in out
    assert f"locale/ko/LC_MESSAGES/plain.po:{literal}: syntax.parse" in out
    # Sphinx's warnings, each with the catalog entry of the message it is about
    lines = out.splitlines()
    for source, catalog in ((r"docs/guide\.md:3: WARNING: inconsistent term references",
                             f"guide.po:{role}"),
                            (r"docs/plain\.rst:4:<translated>:1: WARNING: Inline literal",
                             f"plain.po:{literal}")):
        at = next(i for i, line in enumerate(lines) if re.search(source, line))
        assert lines[at + 1].strip() == \
            f"from the translated message at locale/ko/LC_MESSAGES/{catalog}", lines[at:at + 2]
    # without --strict the same build is published, and says the same
    relaxed = _build(tmp)
    assert relaxed.returncode == 0 and f"guide.po:{stray}: syntax.stray-backtick" in relaxed.stdout


def test_clean_tree_builds_with_strict(tmp_path):
    tmp = _tree(tmp_path)
    proc = _build(tmp, "--strict")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "jaxko check:" not in proc.stdout
    assert "from the translated message" not in proc.stdout


def test_warnings_elsewhere_are_not_pinned_on_a_catalog(tmp_path):
    tmp = _tree(tmp_path)
    docs = tmp / "docs"
    warnings = [f"{docs}/guide.md:12: WARNING: a warning about a translated message",
                f"{docs}/guide.md:14: WARNING: two messages come from this line",
                f"{docs}/guide.md:99: WARNING: no message comes from this line",
                f"{docs}/missing.md:3: WARNING: a page without a catalog",
                "/elsewhere/conf.py:3: WARNING: outside the docs",
                "WARNING: no location at all"]
    found = catalog_locations(warnings, docs, tmp / "locale", "ko")
    guide = str(tmp / "locale" / "ko" / "LC_MESSAGES" / "guide.po")
    assert set(found) == set(warnings[:2])
    line = _line_of(Path(guide), "배열은 바꿀 수 없습니다")
    assert [loc.rsplit(":", 1)[1] for loc in found[warnings[0]]] == [str(line)]
    # guide.md:14 has two messages, one of them untranslated: only the translated one
    assert len(found[warnings[1]]) == 1


def test_a_check_error_alone_fails_strict(tmp_path):
    """A stray backtick: Sphinx warns about nothing and the audit finds the text shown,
    yet the page shows a literal backtick; only the checker sees it."""
    tmp = _tree(tmp_path)
    guide = tmp / "locale" / "ko" / "LC_MESSAGES" / "guide.po"
    guide.write_text(guide.read_text(encoding="utf-8").replace(
        '"배열은 바꿀 수 없습니다.', '"배열은 `바꿀 수 없습니다.'), encoding="utf-8")
    proc = _build(tmp, "--strict")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f": {NOTICES} warnings, 0 from translations, 0 not on the accepted list" in proc.stdout
    assert "jaxko check: 1 errors" in proc.stdout
    assert "<p>배열은 `바꿀 수 없습니다." in (tmp / "html" / "guide.html").read_text(encoding="utf-8")


def test_a_rebuild_keeps_the_warnings_of_pages_it_did_not_read(tmp_path):
    """Sphinx warns about a page's translation only when it reads the page: a rebuild
    that reads nothing used to say "0 warnings" and pass --strict. The warnings of the
    pages not read again are kept; reading a page again (its catalog fixed) drops them."""
    tmp = _tree(tmp_path)
    plain = tmp / "locale" / "ko" / "LC_MESSAGES" / "plain.po"
    clean = plain.read_text(encoding="utf-8")
    plain.write_text(clean.replace('"비교용 reStructuredText', '"비교용 ``reStructuredText'),
                     encoding="utf-8")
    first = _build(tmp)
    total = PARSE_WARNINGS + NOTICES
    assert f": {total} warnings, {PARSE_WARNINGS} from translations" in first.stdout, first.stdout
    again = _build(tmp, "--strict")
    assert again.returncode == 1, again.stdout
    assert (f"{total} warnings ({PARSE_WARNINGS} kept from pages this build did not read again), "
            f"{PARSE_WARNINGS} from translations") in again.stdout, again.stdout
    assert "docs/plain.rst:4:<translated>:1: WARNING: Inline literal" in again.stdout
    listed = (tmp / ".jaxko-state" / "html" / "warnings.txt").read_text(encoding="utf-8")
    assert "plain.rst:4:<translated>:1: WARNING: Inline literal" in listed
    assert "all warnings: .jaxko-state/html/warnings.txt" in again.stdout
    write_newer(plain, clean)
    fixed = _build(tmp, "--strict")
    assert fixed.returncode == 0, fixed.stdout
    assert f": {NOTICES} warnings, 0 from translations" in fixed.stdout


def test_every_warning_of_the_build_is_reported(tmp_path):
    """A warning in Sphinx's `<translated>.rst` pseudo-file belongs to its page; one
    whose location is no page of the tree, or none at all, is this build's only."""
    from jaxko.site.build import remember_warnings

    docs = _tree(tmp_path) / "docs"
    now = [f"{docs}/guide.md:3: WARNING: about the guide",
           f"{docs}/index.rst:9:<translated>.rst: WARNING: in a translated message",
           f"{docs}/gone.md:1: WARNING: a page that is not there",
           "WARNING: no location"]
    state = tmp_path / "warnings.json"
    everything, kept = remember_warnings(state, now, {"guide", "index"}, docs)
    assert sorted(everything) == sorted(now) and kept == 0
    # next build reads nothing: the pages' warnings are kept, the others were this build's
    everything, kept = remember_warnings(state, [], set(), docs)
    assert sorted(everything) == sorted(now[:2]) and kept == 2
    # the index is read again, without its warning: the guide's alone is left
    everything, kept = remember_warnings(state, [], {"index"}, docs)
    assert everything == [now[0]] and kept == 1
