"""`jaxko notebooks build`: Korean notebooks from the fixture notebooks and catalogs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import polib
import pytest

from jaxko import catalogs, extract
from jaxko.notebooks import build, markdown, sources

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "notebooks"
DOCS = FIXTURES / "docs"


from notebook_project import build_fixture_notebooks as _build, project  # noqa: F401,E402


def _edit_msgstr(project: Path, catalog: str, msgid_part: str, old: str, new: str) -> None:
    path = project / "locale" / "ko" / "LC_MESSAGES" / catalog
    po = catalogs.load(path)
    entry = next(e for e in po if msgid_part in e.msgid)
    assert old in entry.msgstr
    entry.msgstr = entry.msgstr.replace(old, new)
    catalogs.save(po, path)


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(str(path), as_version=4)


def test_fully_translated_notebook_has_no_untranslated_message(project):
    summary = _build(project)
    assert not summary.errors and not summary.warnings
    out = project / "_build" / "notebooks" / "ko"
    for rel in ("tiny.ipynb", "myst_tiny.md"):
        source = next(s for s in sources.find_notebooks(DOCS) if s.rel == rel)
        po = polib.pofile(str(project / "locale" / "ko" / "LC_MESSAGES" / f"{source.docname}.po"))
        translated = {e.msgid: e.msgstr for e in po if catalogs.is_translated(e)}
        korean = _read(out / source.ipynb_rel)
        for cell in korean.cells:
            if cell.cell_type == "markdown":
                for slot in markdown.message_slots(cell.source):
                    for found in [slot, *slot.children]:
                        # Every message left in the cell is a translation, none a msgid.
                        assert markdown.lookup(found, translated) is None or \
                            found.msgid in translated.values(), (rel, found.msgid)
            elif cell.cell_type == "code" and cell.source.strip():
                assert cell.source not in translated or cell.source in translated.values()
        text = json.dumps(korean.cells, ensure_ascii=False)
        for msgid, msgstr in translated.items():
            if msgid != msgstr:
                assert json.dumps(msgstr, ensure_ascii=False)[1:-1] in text, msgstr
        report = next(nb for nb in summary.notebooks if nb.rel == rel)
        assert report.applied == report.translated == len(translated)


def test_korean_notebook_keeps_metadata_tags_and_drops_outputs(project):
    _build(project)
    upstream = _read(DOCS / "tiny.ipynb")
    korean = _read(project / "_build" / "notebooks" / "ko" / "tiny.ipynb")
    assert korean.metadata == upstream.metadata  # kernelspec and language_info kept
    assert [c.get("id") for c in korean.cells] == [c.get("id") for c in upstream.cells]
    assert [c.metadata for c in korean.cells] == [c.metadata for c in upstream.cells]
    assert upstream.cells[1].outputs  # the fixture has a stored output ...
    for cell in korean.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None  # ... cleared
    assert korean.cells[3].metadata.tags == ["raises-exception"]
    assert "# 모든 원소에 1을 더합니다." in korean.cells[1].source


def test_myst_source_gets_a_myst_text_and_an_ipynb(project):
    _build(project)
    out = project / "_build" / "notebooks" / "ko"
    text = (out / "myst_tiny.md").read_text(encoding="utf-8")
    upstream = (DOCS / "myst_tiny.md").read_text(encoding="utf-8")
    # Front matter, cell options, block breaks and untranslated cells stay as written.
    assert text.split("\n# ")[0] == upstream.split("\n# ")[0]
    for kept in (':tags: [remove-cell]', '# Hidden setup: not extracted, stays as is.',
                 '+++ {"tags": ["keep-me"]}', ":tags: [raises-exception]", "```{tip}"):
        assert kept in text
    assert 'x = jax.numpy.arange(4)  # 숫자 네 개' in text
    # The MyST text and the .ipynb are the same notebook.
    from myst_parser.config.main import MdParserConfig
    from myst_nb.core.read import read_myst_markdown_notebook

    again = read_myst_markdown_notebook(text, MdParserConfig())
    korean = _read(out / "myst_tiny.ipynb")
    assert [(c.cell_type, c.source, c.metadata) for c in again.cells] == \
        [(c.cell_type, c.source, c.metadata) for c in korean.cells]
    assert korean.metadata.kernelspec.name == "python3"


def _notebook_files(out: Path) -> dict[str, bytes]:
    return {path.relative_to(out).as_posix(): path.read_bytes()
            for path in sorted(out.rglob("*")) if path.is_file()}


def _valid_unique_ids(notebook: nbformat.NotebookNode) -> list[str]:
    nbformat.validate(notebook)  # 4.5: every cell has an id of 1-64 [a-zA-Z0-9-_]
    ids = [cell.id for cell in notebook.cells]
    assert len(set(ids)) == len(ids), ids
    return ids


def test_two_builds_are_byte_identical_and_ipynb_ids_are_kept(project, tmp_path):
    # MyST cells have no ids in their text; the reader makes up random ones.
    first = _build(project)
    out = project / "_build" / "notebooks" / "ko"
    before = _notebook_files(out)
    again = build.build(srcdir=DOCS, locale_dir=project / "locale", out_dir=tmp_path / "again")
    assert not first.errors and not again.errors
    assert set(before) >= {"myst_tiny.ipynb", "myst_tiny.md", "tiny.ipynb"}
    assert _notebook_files(tmp_path / "again") == before
    myst_ids = _valid_unique_ids(_read(out / "myst_tiny.ipynb"))
    assert myst_ids == [sources._derived_id("myst_tiny.md", index, 0)
                        for index in range(1, len(myst_ids) + 1)]
    # An .ipynb's own ids are kept as they are.
    assert _valid_unique_ids(_read(out / "tiny.ipynb")) == \
        [cell.id for cell in _read(DOCS / "tiny.ipynb").cells]


def test_missing_and_repeated_ipynb_ids_get_stable_unique_ones(project, tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    data = json.loads((docs / "tiny.ipynb").read_text(encoding="utf-8"))
    upstream_ids = [cell["id"] for cell in data["cells"]]
    del data["cells"][1]["id"]
    data["cells"][3]["id"] = upstream_ids[2]  # a repeat: the later cell gets a new id
    (docs / "tiny.ipynb").write_text(json.dumps(data, indent=1), encoding="utf-8")
    outputs = []
    for name in ("one", "two"):
        summary = build.build(srcdir=docs, locale_dir=project / "locale",
                              out_dir=tmp_path / name, only=["tiny"])
        assert summary.errors == []
        outputs.append((tmp_path / name / "tiny.ipynb").read_bytes())
    assert outputs[0] == outputs[1]
    ids = _valid_unique_ids(_read(tmp_path / "one" / "tiny.ipynb"))
    assert [ids[0], ids[2], *ids[4:]] == [upstream_ids[0], upstream_ids[2], *upstream_ids[4:]]
    assert ids[1] == sources._derived_id("tiny.ipynb", 2, 0)
    assert ids[3] == sources._derived_id("tiny.ipynb", 4, 0)


def test_derived_id_never_takes_an_id_already_in_the_notebook():
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("a", id=sources._derived_id("x.ipynb", 2, 0)),
        nbformat.v4.new_markdown_cell("b"), nbformat.v4.new_code_cell("c", id="c")])
    del notebook.cells[1]["id"]
    sources.stable_cell_ids(notebook, "x.ipynb")
    assert [cell.id for cell in notebook.cells] == [
        sources._derived_id("x.ipynb", 2, 0), sources._derived_id("x.ipynb", 2, 1), "c"]
    _valid_unique_ids(notebook)


def test_untranslated_catalog_reproduces_upstream(project, tmp_path):
    empty = tmp_path / "empty-locale"
    (empty / "ko" / "LC_MESSAGES").mkdir(parents=True)
    summary = build.build(srcdir=DOCS, locale_dir=empty, out_dir=tmp_path / "out")
    assert [nb.translated for nb in summary.notebooks] == [0, 0, 0]
    assert (tmp_path / "out" / "myst_tiny.md").read_text(encoding="utf-8") == \
        (DOCS / "myst_tiny.md").read_text(encoding="utf-8")
    korean, upstream = _read(tmp_path / "out" / "tiny.ipynb"), _read(DOCS / "tiny.ipynb")
    assert [c.source for c in korean.cells] == [c.source for c in upstream.cells]


def test_planted_identifier_change_fails_the_static_check(project, jaxko):
    _edit_msgstr(project, "tiny.po", "def add_one", "def add_one", "def 하나_더하기")
    out = project / "_build" / "notebooks" / "ko"
    proc = jaxko("notebooks", "build", "--srcdir", str(DOCS),
                 "--locale-dir", str(project / "locale"), env={"JAXKO_ROOT": str(project)})
    assert proc.returncode == 1
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: tiny.ipynb: cell 2: translated code cell differs from upstream beyond comments "
        "and strings: line 4: 'add_one' became '하나_더하기' "
        "(msgstr at locale/ko/LC_MESSAGES/tiny.po:56)"]
    assert "Traceback" not in proc.stderr
    assert not (out / "tiny.ipynb").exists()  # never written with broken code
    assert (out / "myst_tiny.ipynb").exists()  # the others are


def test_translated_comment_and_string_pass_the_static_check(project):
    # The fixture translates comments and strings in every code cell; add an f-string text.
    _edit_msgstr(project, "tiny.po", "total = add_one", '"합계 = {total}"', '"합계는 {total}입니다"')
    summary = _build(project)
    assert summary.errors == []
    assert next(nb for nb in summary.notebooks if nb.rel == "tiny.ipynb").code_cells == 3


def test_planted_fstring_field_change_is_caught(project):
    _edit_msgstr(project, "tiny.po", "total = add_one", "{total}", "{합계}")
    summary = _build(project)
    assert [e.format() for e in summary.errors] == [
        "tiny.ipynb: cell 5: translated code cell differs from upstream beyond comments and "
        "strings: line 2: 'f\"…{total}…\"' became 'f\"…{합계}…\"' "
        "(msgstr at locale/ko/LC_MESSAGES/tiny.po:98)"]


def test_planted_change_in_a_markdown_code_block_is_caught(project):
    _edit_msgstr(project, "tiny.po", "pip install jax", "pip install jax", "pip install 잭스")
    summary = _build(project)
    assert len(summary.errors) == 1
    assert "cell 3: translated code block differs" in summary.errors[0].message
    assert "'pip install jax' became 'pip install 잭스'" in summary.errors[0].message


def test_unchecked_code_writes_the_notebook_with_a_warning(project):
    _edit_msgstr(project, "tiny.po", "def add_one", "def add_one", "def 하나_더하기")
    summary = _build(project, static_check=False)
    assert summary.errors == []
    assert any("'add_one' became '하나_더하기'" in w.message for w in summary.warnings)
    korean = _read(project / "_build" / "notebooks" / "ko" / "tiny.ipynb")
    assert "def 하나_더하기(x):" in korean.cells[1].source


def test_unplaceable_translation_is_a_warning_naming_it(project):
    path = project / "locale" / "ko" / "LC_MESSAGES" / "tiny.po"
    po = catalogs.load(path)
    po.append(polib.POEntry(msgid="A paragraph upstream no longer has.", msgstr="사라진 문단.",
                            occurrences=[("tiny.ipynb", "10020")]))
    catalogs.save(po, path)
    summary = _build(project)
    assert summary.errors == []
    [warning] = summary.warnings
    assert warning.path == "locale/ko/LC_MESSAGES/tiny.po" and warning.line
    assert "translated message not placed in tiny.ipynb: 'A paragraph upstream no longer has.'" \
        in warning.message
    report = next(nb for nb in summary.notebooks if nb.rel == "tiny.ipynb")
    assert (report.applied, report.translated) == (16, 17)


ROOT = Path(__file__).resolve().parents[1]
# An "Open in Colab" / "Open in Kaggle" badge pair as upstream writes it at the top of a
# notebook; the Colab alt text runs over a line break, as in upstream's parallel.ipynb.
BADGE_CELL = ("[![Open in\nColab](https://colab.research.google.com/assets/colab-badge.svg)]"
              "(https://colab.research.google.com/github/jax-ml/jax/blob/main/docs/tiny.ipynb) "
              "[![Open in Kaggle](https://kaggle.com/static/images/open-in-kaggle.svg)]"
              "(https://kaggle.com/kernels/welcome?src=https://github.com/jax-ml/jax/blob/main"
              "/docs/tiny.ipynb)")
BADGE_ALTS = {"Open inColab": "Colab에서 열기", "Open in Kaggle": "Kaggle에서 열기"}


@pytest.fixture(scope="module")
def badge_docs(tmp_path_factory) -> tuple[Path, list[polib.POEntry]]:
    """The fixture docs with a badge cell appended to tiny.ipynb, and the messages
    Sphinx's gettext builder extracts from that cell."""
    base = tmp_path_factory.mktemp("badge")
    docs = base / "docs"
    shutil.copytree(DOCS, docs)
    notebook = _read(docs / "tiny.ipynb")
    notebook.cells.append(nbformat.v4.new_markdown_cell(BADGE_CELL, id="badges"))
    nbformat.write(notebook, str(docs / "tiny.ipynb"))
    result = extract.extract(root=ROOT, srcdir=docs, outdir=base / "pot")
    assert result.unexpected == []  # (a newer toolchain's speedups notice is accepted)
    cell = len(notebook.cells)  # occurrences are tiny.ipynb:<cell * 10000 + line>
    messages = [e for e in polib.pofile(str(base / "pot" / "tiny.pot"))
                if any(int(line) // 10000 == cell for _name, line in e.occurrences)]
    return docs, messages


@pytest.mark.parametrize("block", ["korean alts", "english alts", "untranslated"])
def test_badge_alt_texts_are_placed_and_a_lost_message_still_warns(project, badge_docs, block):
    docs, messages = badge_docs
    # Sphinx extracts the badge paragraph and, as messages of their own, the alt text of
    # each image in it; MyST drops the line break inside "Open in\nColab" from the alt.
    [paragraph] = [e.msgid for e in messages if e.msgid not in BADGE_ALTS]
    assert {e.msgid for e in messages} == {paragraph, *BADGE_ALTS}
    assert "[![Open in Colab](" in paragraph  # the paragraph's msgid joins the line break
    path = project / "locale" / "ko" / "LC_MESSAGES" / "tiny.po"
    po = catalogs.load(path)
    where = [("tiny.ipynb", line) for _name, line in messages[0].occurrences]  # ../docs/
    msgstr = {"korean alts": paragraph.replace("Open in Colab", "Colab에서 열기")
              .replace("Open in Kaggle", "Kaggle에서 열기"),  # as the real catalogs have it
              "english alts": paragraph, "untranslated": ""}[block]
    po.append(polib.POEntry(msgid=paragraph, msgstr=msgstr, occurrences=where))
    for alt, korean in BADGE_ALTS.items():
        po.append(polib.POEntry(msgid=alt, msgstr=korean, occurrences=where))
    po.append(polib.POEntry(msgid="A paragraph upstream no longer has.", msgstr="사라진 문단.",
                            occurrences=[("tiny.ipynb", "10020")]))
    catalogs.save(po, path)

    summary = build.build(srcdir=docs, locale_dir=project / "locale",
                          out_dir=project / "_build" / "notebooks" / "ko", only=["tiny"])
    assert summary.errors == []
    # The alt texts are placed; the message no cell holds is still reported.
    assert [(w.path, w.message) for w in summary.warnings] == [
        ("locale/ko/LC_MESSAGES/tiny.po",
         "translated message not placed in tiny.ipynb: 'A paragraph upstream no longer has.'")]
    [report] = summary.notebooks
    assert (report.applied, report.translated) == ((19, 20) if msgstr else (18, 19))
    korean = _read(project / "_build" / "notebooks" / "ko" / "tiny.ipynb")
    assert korean.cells[-1].source == BADGE_CELL.replace("Open in\nColab", "Colab에서 열기") \
        .replace("Open in Kaggle", "Kaggle에서 열기")


def test_fuzzy_translations_are_not_applied(project):
    path = project / "locale" / "ko" / "LC_MESSAGES" / "tiny.po"
    po = catalogs.load(path)
    next(e for e in po if e.msgid == "Second item").flags.append("fuzzy")
    catalogs.save(po, path)
    _build(project)
    korean = _read(project / "_build" / "notebooks" / "ko" / "tiny.ipynb")
    assert "- Second item" in korean.cells[0].source


def test_broken_catalog_is_one_line_exit_2(project, jaxko):
    path = project / "locale" / "ko" / "LC_MESSAGES" / "tiny.po"
    path.write_text(path.read_text(encoding="utf-8") + '\nmsgid "unterminated\n',
                    encoding="utf-8")
    proc = jaxko("notebooks", "build", "--srcdir", str(DOCS),
                 "--locale-dir", str(project / "locale"), env={"JAXKO_ROOT": str(project)})
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "tiny.po" in proc.stderr and "Traceback" not in proc.stderr


def test_invalid_notebook_is_one_line_with_file_and_line(project, tmp_path, jaxko):
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    text = (docs / "tiny.ipynb").read_text(encoding="utf-8")
    (docs / "tiny.ipynb").write_text(text.replace('"cell_type": "code"', '"cell_type": code', 1),
                                     encoding="utf-8")
    proc = jaxko("notebooks", "build", "--srcdir", str(docs),
                 "--locale-dir", str(project / "locale"), env={"JAXKO_ROOT": str(project)})
    assert proc.returncode == 2
    [line] = proc.stderr.strip().splitlines()
    assert "tiny.ipynb:" in line and "not a valid notebook (JSON" in line
    line_number = int(line.split("tiny.ipynb:")[1].split(":")[0])
    assert "cell_type\": code" in text.replace('"cell_type": "code"', '"cell_type": code', 1) \
        .splitlines()[line_number - 1]


def test_wrong_option_and_unknown_notebook_are_exit_2(project, jaxko):
    proc = jaxko("notebooks", "build", "--format", "yaml")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    proc = jaxko("notebooks", "build", "--srcdir", str(DOCS), "no-such-notebook",
                 env={"JAXKO_ROOT": str(project)})
    assert proc.returncode == 2 and "no notebook matches no-such-notebook" in proc.stderr


@pytest.mark.parametrize("command", [["notebooks"], ["notebooks", "build"],
                                     ["notebooks", "verify"], ["notebooks", "list"]])
def test_help(jaxko, command):
    proc = jaxko(*command, "--help")
    assert proc.returncode == 0 and "usage: jaxko notebooks" in proc.stdout


def test_json_report(project, jaxko):
    proc = jaxko("notebooks", "build", "--srcdir", str(DOCS), "--locale-dir",
                 str(project / "locale"), "--format", "json", env={"JAXKO_ROOT": str(project)})
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert (data["applied"], data["translated"], data["errors"]) == (25, 25, 0)
    assert {nb["notebook"] for nb in data["notebooks"]} == \
        {"tiny.ipynb", "myst_tiny.md", "notebooks/convolutions.ipynb"}


def test_fixture_catalogs_match_what_sphinx_extracts(project, tmp_path, root):
    """The hand-translated fixture catalogs hold exactly Sphinx's messages for the docs."""
    result = extract.extract(root=root, srcdir=DOCS, outdir=tmp_path / "pot")
    assert result.unexpected == []  # (a newer toolchain's speedups notice is accepted)
    for pot in (tmp_path / "pot").rglob("*.pot"):
        rel = pot.relative_to(tmp_path / "pot").with_suffix(".po")
        extracted = {e.msgid for e in polib.pofile(str(pot))}
        fixture = {e.msgid for e in polib.pofile(str(FIXTURES / "locale" / "ko" / "LC_MESSAGES" / rel))
                   if not e.obsolete}
        assert extracted == fixture, rel


def test_every_upstream_myst_notebook_round_trips(shared_upstream):
    """Each MyST cell is found in upstream's text, and the rewritten text reads back."""
    import copy

    from myst_nb.core.read import read_myst_markdown_notebook
    from myst_parser.config.main import MdParserConfig

    myst = [s for s in sources.find_notebooks(shared_upstream / "docs") if s.kind == "myst"]
    assert len(myst) == 21
    for source in myst:
        read = sources.read(source)
        changed = copy.deepcopy(read.notebook)
        for index, cell in enumerate(changed.cells):
            if cell.source:
                cell.source = cell.source + f"\n# changed {index}"
        text = build.myst_text(read, changed)
        assert text is not None, source.rel
        again = read_myst_markdown_notebook(text, MdParserConfig())
        assert [c.source for c in again.cells] == [c.source for c in changed.cells], source.rel
