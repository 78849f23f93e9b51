"""Issue 43's checker fixes, each with its planted fault and its clean case:

* a named reference written with the catalog's translation of a section title is the
  same reference (Sphinx's i18n resolves it), for ``safety.structure`` and
  ``markup.link`` alike; a name no entry translates so is still refused;
* one defect, one finding: a changed named link `text <url>`_ or role target is said
  once, by ``safety.structure``, not again by ``markup.link``/``markup.role`` (and the
  named link's own target node is no second link);
* a missing space before `<` in a reST link is named as such (sphinx-lint's check).

The catalogs are written here in the shape of the held-out Godot catalog's entries
(its FAQ's section names and references), checked by the real runner and docutils.
"""

from __future__ import annotations

import polib

from jaxko.check.runner import Options, run

TITLE = ("The Godot editor is a Godot game", "Godot 에디터는 Godot 게임입니다")


def findings(tmp_path, entries, fuzzy=()):
    """Every finding (all rules) on one reST catalog of (msgid, msgstr) entries."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    folder = tmp_path / "catalogs"
    folder.mkdir(exist_ok=True)
    (tmp_path / "sources").mkdir(exist_ok=True)
    (tmp_path / "glossary.yaml").write_text("terms: []\n", encoding="utf-8")
    catalog = polib.POFile(wrapwidth=79)
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "ko"}
    for number, (msgid, msgstr) in enumerate(entries):
        entry = polib.POEntry(msgid=msgid, msgstr=msgstr,
                              occurrences=[("about/faq.rst", str(10 * number + 1))])
        if msgid in fuzzy:
            entry.flags.append("fuzzy")
        catalog.append(entry)
    catalog.save(str(folder / "faq.po"))
    result = run(Options(paths=[folder], glossary=tmp_path / "glossary.yaml",
                         source_dir=tmp_path / "sources", jobs=1))
    return result.findings


def messages(found, *rules):
    """(rule, message) of the findings ``jaxko check`` shows by default (info hints, such
    as safety.new-url's second opinion on a new URL, only with --show-info)."""
    return [(f.rule, f.message) for f in found
            if (not rules or f.rule in rules) and f.severity != "info"]


def test_a_reference_by_the_translated_section_name_is_the_same_reference(tmp_path):
    reference = ("See `The Godot editor is a Godot game`_ for details.",
                 "자세한 내용은 `Godot 에디터는 Godot 게임입니다`_\\ 를 보세요.")
    clean = findings(tmp_path / "clean", [TITLE, reference])
    assert messages(clean, "safety.structure", "markup.link") == []
    assert not [f for f in clean if f.rule == "markup.link"]  # not even the info hint
    assert not [f for f in clean if f.severity != "info"]

    # Planted: a Korean name that no entry of the catalog translates the title to.
    wrong = ("See `The Godot editor is a Godot game`_ for details.",
             "자세한 내용은 `Godot 편집기는 게임입니다`_\\ 를 보세요.")
    found = messages(findings(tmp_path / "wrong", [TITLE, wrong]), "safety.structure")
    assert found == [("safety.structure", "reference to `godot 편집기는 게임입니다` is not in the "
                      "msgid (reST parse); a translation may add text and emphasis, not structure")]

    # Planted: the title's translation is fuzzy, so Sphinx does not use it.
    found = messages(findings(tmp_path / "fuzzy", [TITLE, reference], fuzzy=(TITLE[0],)),
                     "safety.structure")
    assert [rule for rule, _ in found] == ["safety.structure"]

    # Planted: the translated name used where the msgid has no reference at all.
    added = ("Read the FAQ.", "`Godot 에디터는 Godot 게임입니다`_\\ 를 읽으세요.")
    found = messages(findings(tmp_path / "added", [TITLE, added]), "safety.structure")
    assert [rule for rule, _ in found] == ["safety.structure"]


def test_a_changed_named_link_is_one_finding(tmp_path):
    changed = ("Read `the garbage collection page <https://example.org/gc>`_ first.",
               "먼저 `가비지 컬렉션 <https://example.org/other>`_\\ 을 읽으세요.")
    found = messages(findings(tmp_path / "changed", [changed]))
    assert found == [("safety.structure", "link to `https://example.org/other` is not in the msgid "
                      "(reST parse); a translation may add text and emphasis, not structure")]

    clean = ("Read `the garbage collection page <https://example.org/gc>`_ first.",
             "먼저 `가비지 컬렉션 <https://example.org/gc>`_\\ 을 읽으세요.")
    assert messages(findings(tmp_path / "clean", [clean])) == []

    # A lost link with nothing new in its place is still markup.link's (no safety part).
    lost = ("Read `the garbage collection page <https://example.org/gc>`_ first.",
            "먼저 가비지 컬렉션 문서를 읽으세요.")
    found = messages(findings(tmp_path / "lost", [lost]))
    assert [rule for rule, _ in found] == ["markup.link"]


def test_a_changed_role_target_is_one_finding(tmp_path):
    changed = ("Use :ref:`the guide <guide-label>` here.",
               ":ref:`안내서 <other-label>`\\ 를 여기서 쓰세요.")
    found = messages(findings(tmp_path / "changed", [changed]))
    assert found == [("safety.structure", "role `ref other-label` is not in the msgid (reST parse); "
                      "a translation may add text and emphasis, not structure")]
    clean = ("Use :ref:`the guide <guide-label>` here.",
             ":ref:`안내서 <guide-label>`\\ 를 여기서 쓰세요.")
    assert messages(findings(tmp_path / "clean", [clean])) == []
    lost = ("Use :ref:`the guide <guide-label>` here.", "안내서를 여기서 쓰세요.")
    assert [r for r, _ in messages(findings(tmp_path / "lost", [lost]))] == ["markup.role"]


def test_a_missing_space_before_the_link_target_is_named(tmp_path):
    glued = ("Read `the garbage collection page <https://example.org/gc>`_ now.",
             "지금 `가비지 컬렉션<https://example.org/gc>`_\\ 을 읽으세요.")
    found = messages(findings(tmp_path / "glued", [glued]))
    assert found == [("safety.structure",
                      "a space is missing before `<` in `가비지 컬렉션<https://example.org/gc>`_: reST "
                      "reads it as a reference to a name no target has, not a link, and the link "
                      "breaks; write `가비지 컬렉션 <https://example.org/gc>`_")]
    anonymous = ("Read `the page <https://example.org/gc>`__ now.",
                 "지금 `문서<https://example.org/gc>`__\\ 를 읽으세요.")
    found = messages(findings(tmp_path / "anonymous", [anonymous]), "safety.structure")
    assert len(found) == 1 and "a space is missing before `<` in `문서<https://example.org/gc>`__" \
        in found[0][1]
    spaced = ("Read `the garbage collection page <https://example.org/gc>`_ now.",
              "지금 `가비지 컬렉션 <https://example.org/gc>`_\\ 을 읽으세요.")
    assert messages(findings(tmp_path / "spaced", [spaced])) == []


def test_fix_is_no_longer_held_back_by_a_translated_section_name(tmp_path):
    """The escaped space that `--fix` adds makes docutils read the translated name as
    a reference; judged the same reference, the fix is applied (it was refused as a new
    structure before)."""
    from conftest import run_jaxko

    catalog = tmp_path / "faq.po"
    catalog.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        f'#: about/faq.rst:10\nmsgid "{TITLE[0]}"\nmsgstr "{TITLE[1]}"\n\n'
        '#: about/faq.rst:20\nmsgid "See `The Godot editor is a Godot game`_ below."\n'
        'msgstr "아래의 `Godot 에디터는 Godot 게임입니다`_를 참조하세요."\n', encoding="utf-8")
    glossary = tmp_path / "glossary.yaml"
    glossary.write_text("terms: []\n", encoding="utf-8")
    proc = run_jaxko("check", str(catalog), "--glossary", str(glossary), "--no-cache", "--fix",
                     cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert 'msgstr "아래의 `Godot 에디터는 Godot 게임입니다`_\\\\ 를 참조하세요."' in \
        catalog.read_text(encoding="utf-8")
    # Planted: a name the catalog does not translate the title to: the fix is held back.
    wrong = catalog.read_text(encoding="utf-8").replace(
        "`Godot 에디터는 Godot 게임입니다`_\\\\ 를", "`Godot 편집기`_를")
    catalog.write_text(wrong, encoding="utf-8")
    proc = run_jaxko("check", str(catalog), "--glossary", str(glossary), "--no-cache", "--fix",
                     cwd=tmp_path)
    assert proc.returncode == 1
    assert "`Godot 편집기`_를" in catalog.read_text(encoding="utf-8")
