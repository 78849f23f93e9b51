"""jaxko.site.ext.speedups: the one place for private internals of the docs toolchain.

The shims change speed, never pages: on versions outside ``TESTED`` the extension
installs nothing and warns once, and the site is Sphinx's own. The scan below lists
every other use of a private internal of Sphinx, MyST, docutils or the theme in the
package: a new one fails here until it moves into ``speedups`` or goes."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from jaxko.site.ext import speedups

TOOLS = Path(__file__).resolve().parents[1] / "tools" / "jaxko"

# What reaches inside the toolchain: a private name of one of its modules (or of the
# objects it hands us: app, env, builder), a node's __dict__, a private import, or a
# module-level table or function of the toolchain replaced or rewritten.
PRIVATE = re.compile(
    r"\b(?:sphinx|docutils|myst_parser|myst_nb|pydata_sphinx_theme|sphinx_book_theme"
    r"|toctree_adapters|sphinx_i18n|myst_renderer)(?:\.\w+)*\._[a-z]\w*"
    r"|\b(?:env|app|builder)\._[a-z]\w*"
    r"|__dict__\s*\["
    r"|from (?:sphinx|docutils|myst_parser|myst_nb)[\w.]* import [^#\n]*\b_[a-z]\w*"
    r"|\broles\._roles\b"
    r"|\benv\.(?:mystnb_config|files_to_rebuild)\s*=(?!=)"
    r"|[\"']_jaxko_\w*[\"']"  # an attribute of ours named for getattr/setattr on app or env
    r"|\b(?:docutils_)?(?:directives\.directive|roles\.role)\s*(?:,[^=\n]*)?=(?!=)")

# Outside speedups, still: each awaits a public API or a decision (none left).
# Attributes of our own set on Sphinx's app/env (``app._jaxko_*``, or through
# ``setattr(app, "_jaxko_...")``) count as private too: they belong in a documented
# place (config values, the env's own data) or in the extension's own module.
KNOWN: dict[str, int] = {}


def private_uses() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(TOOLS.rglob("*.py")):
        name = path.relative_to(TOOLS).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            for match in PRIVATE.finditer(line):
                found.setdefault(name, []).append(f"{name}:{number}: {match.group(0)}")
    return found


def test_private_internals_live_in_speedups_or_are_listed():
    found = private_uses()
    assert found.pop("site/ext/speedups.py", None), "the scan finds nothing: it cannot fail"
    assert {name: len(uses) for name, uses in found.items()} == KNOWN, found


def test_the_scan_catches_a_planted_private_name(tmp_path, monkeypatch):
    planted = tmp_path / "jaxko"
    (planted / "site" / "ext").mkdir(parents=True)
    (planted / "site" / "ext" / "speedups.py").write_text("x = node.__dict__['_document']\n")
    (planted / "site" / "new.py").write_text(
        "from sphinx.util import _private\nsphinx.environment._x = 1\nenv._cache = 2\n"
        "setattr(app, '_jaxko_kept', 3)\nenv.jaxko_public = 4\nstate[app] = 5\n")
    monkeypatch.setattr(__import__(__name__), "TOOLS", planted)
    assert private_uses() == {"site/ext/speedups.py": [
        "site/ext/speedups.py:1: __dict__["], "site/new.py": [
        "site/new.py:1: from sphinx.util import _private",
        "site/new.py:2: sphinx.environment._x", "site/new.py:3: env._cache",
        "site/new.py:4: '_jaxko_kept'"]}


def test_versions_outside_tested_are_named(monkeypatch):
    for name in speedups.TESTED:  # every installed version taken as tested...
        monkeypatch.setitem(speedups.TESTED, name, ((0, 0), (999, 0)))
    assert speedups.untested() == []
    monkeypatch.setitem(speedups.TESTED, "sphinx", ((0, 1), (0, 1)))  # ... but Sphinx's
    assert [name.split()[0] for name in speedups.untested()] == ["sphinx"]


PAGE = "Title\n=====\n\nSee `Title`_ and the :term:`thing`.\n\n.. glossary::\n\n   thing\n      A term.\n"
# A toctree whose second entry's translation is the English (kept as is): Sphinx then
# marks the toctree translated, and the next entry's first-pass parse clears the mark.
INDEX = ("Index\n=====\n\n.. toctree::\n\n   First entry <page>\n   Kept <other>\n"
         "   Third entry <third>\n")
MESSAGES = {"First entry": "첫 항목", "Kept": "Kept", "Third entry": "세 번째 항목",
            "Other": "다른 쪽", "Third": "셋째", "Title": "제목", "See `Title`_ and the :term:`thing`.": "`제목`_ 과 :term:`thing` 을 보세요.",
            "thing": "것", "A term.": "용어입니다."}


CONF = """
import sys
sys.path.insert(0, {tools!r})
# as the site's conf.py: myst_nb, which sets MyST-Parser up (listing myst_parser as well
# fails the build on MyST-Parser < 5.2, whose setup then runs twice)
extensions = ["myst_nb", "jaxko.site.ext.i18n", "jaxko.site.ext.navigation", "jaxko.site.ext.speedups"]
html_theme = "sphinx_book_theme"
language = "ko"
locale_dirs = [{locale!r}]
gettext_compact = False
jaxko_speedups = {on}
"""


def _build(tmp: Path, speedups_on: bool, tested: bool, monkeypatch) -> list[str]:
    """A small Korean site built in this process (so TESTED can be planted); its warnings."""
    from sphinx.cmd.build import build_main

    docs = tmp / "docs"
    docs.mkdir(parents=True)
    (docs / "index.rst").write_text(INDEX, encoding="utf-8")
    (docs / "page.rst").write_text(PAGE, encoding="utf-8")
    (docs / "other.rst").write_text("Other\n=====\n", encoding="utf-8")
    (docs / "third.rst").write_text("Third\n=====\n", encoding="utf-8")
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    for msgid, msgstr in MESSAGES.items():
        catalog.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    folder = tmp / "locale" / "ko" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    for domain in ("index", "page"):  # each message where either page looks it up
        catalog.save(str(folder / f"{domain}.po"))
    (docs / "conf.py").write_text(CONF.format(tools=str(TOOLS.parent), locale=str(tmp / "locale"),
                                              on=speedups_on), encoding="utf-8")
    if not tested:
        monkeypatch.setitem(speedups.TESTED, "docutils", ((0, 1), (0, 1)))
    warnings = tmp / "warnings.txt"
    assert build_main(["-q", "-E", "-b", "html", "-w", str(warnings), "-d", str(tmp / "doctrees"),
                       str(docs), str(tmp / "html")]) == 0
    return warnings.read_text(encoding="utf-8").splitlines()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.name != ".buildinfo"}


def test_untested_versions_turn_the_speedups_off_with_one_warning(tmp_path, monkeypatch):
    off = _build(tmp_path / "off", True, False, monkeypatch)
    monkeypatch.undo()
    plain = _build(tmp_path / "plain", False, True, monkeypatch)
    warned = [line for line in off if "jaxko.site.ext.speedups is off" in line]
    assert len(warned) == 1 and "docutils" in warned[0]
    assert not [line for line in plain if "speedups" in line]
    assert _files(tmp_path / "off" / "html") == _files(tmp_path / "plain" / "html")


@pytest.mark.skipif(bool(speedups.untested()), reason="speedups are off on this toolchain")
def test_the_speedups_change_no_page(tmp_path, monkeypatch):
    on = _build(tmp_path / "on", True, True, monkeypatch)
    plain = _build(tmp_path / "plain", False, True, monkeypatch)
    assert not [line for line in on if "speedups" in line]
    assert _files(tmp_path / "on" / "html") == _files(tmp_path / "plain" / "html")
    index = (tmp_path / "on" / "html" / "index.html").read_text(encoding="utf-8")
    assert "첫 항목" in index and "세 번째 항목" in index  # every entry translated
