"""Placing translated messages back into markdown cells, as Sphinx extracted them."""

from __future__ import annotations

import pytest

from jaxko.notebooks import markdown, sources
from jaxko.notebooks.build import _code_key

# (name, markdown, {msgid: msgstr}, expected markdown)
CASES = [
    ("paragraph over two lines",
     "First line of a\nparagraph with `code`.\n",
     {"First line of a paragraph with `code`.": "`code`가 있는 문단입니다."},
     "`code`가 있는 문단입니다.\n"),
    ("heading with closing hashes",
     "## Installation ##\n\nText.",
     {"Installation": "설치"},
     "## 설치 ##\n\nText."),
    ("a short msgid is not replaced inside a longer block",
     "# Installation\n\nInstallation is easy.\n",
     {"Installation": "설치"},
     "# 설치\n\nInstallation is easy.\n"),
    ("the same message twice",
     "**Key concepts:**\n\nBody.\n\n**Key concepts:**\n",
     {"**Key concepts:**": "**핵심 개념:**"},
     "**핵심 개념:**\n\nBody.\n\n**핵심 개념:**\n"),
    ("list item with a continuation line; msgstr over two lines",
     "- First item that\n  continues.\n- Second\n",
     {"First item that continues.": "이어지는\n첫 항목.", "Second": "둘째"},
     "- 이어지는\n  첫 항목.\n- 둘째\n"),
    ("ordered list item",
     "1. Step one\n2. Step two\n",
     {"Step two": "두 번째 단계"},
     "1. Step one\n2. 두 번째 단계\n"),
    ("block quote over two lines",
     "> Quoted text\n> goes on.\n",
     {"Quoted text goes on.": "인용문이 이어집니다."},
     "> 인용문이 이어집니다.\n"),
    ("table cells; a newline in a cell msgstr is joined",
     "| Name | Meaning |\n|------|---------|\n| jit  | compile |\n",
     {"Name": "이름", "compile": "컴파일\n하기"},
     "| 이름 | Meaning |\n|------|---------|\n| jit  | 컴파일 하기 |\n"),
    ("image alt in an untranslated paragraph",
     "See ![a cat](cat.png) here.\n",
     {"a cat": "고양이"},
     "See ![고양이](cat.png) here.\n"),
    ("image alt inside a translated paragraph",
     "See ![a cat](cat.png) here.\n",
     {"See ![a cat](cat.png) here.": "여기 ![a cat](cat.png)를 보세요.", "a cat": "고양이"},
     "여기 ![고양이](cat.png)를 보세요.\n"),
    ("alt text already translated in the block's msgstr",
     "[![Open in\nColab](badge.svg)](https://colab)\n",
     {"[![Open in Colab](badge.svg)](https://colab)": "[![Colab에서 열기](badge.svg)](https://colab)",
      "Open inColab": "Colab에서 열기"},
     "[![Colab에서 열기](badge.svg)](https://colab)\n"),
    ("alt text already translated over a line break of the block's msgstr",
     "[![Open in\nColab](badge.svg)](https://colab)\n",
     {"[![Open in Colab](badge.svg)](https://colab)": "[![Colab에서\n열기](badge.svg)](https://colab)",
      "Open inColab": "Colab에서 열기"},
     "[![Colab에서\n열기](badge.svg)](https://colab)\n"),
    ("alt text over a line break",
     "[![Open in\nColab](badge.svg)](https://colab)\n",
     {"Open inColab": "Colab에서 열기"},
     "[![Colab에서 열기](badge.svg)](https://colab)\n"),
    ("directive body and admonition title",
     "```{admonition} A title\nBody of the admonition.\n```\n\n```{note}\n:class: dropdown\n\nA note.\n```\n",
     {"A title": "제목", "Body of the admonition.": "본문.", "A note.": "참고."},
     "```{admonition} 제목\n본문.\n```\n\n```{note}\n:class: dropdown\n\n참고.\n```\n"),
    ("code fence inside a list item keeps its indentation",
     "- Run:\n\n  ```python\n  # say hi\n  print('hi')\n  ```\n",
     {"# say hi\nprint('hi')\n": "# 인사\nprint('hi')\n"},
     "- Run:\n\n  ```python\n  # 인사\n  print('hi')\n  ```\n"),
    ("code-block directive with options",
     "```{code-block} python\n:caption: x\n\n# add\ny = 1\n```\n",
     {"# add\ny = 1": "# 더하기\ny = 1"},
     "```{code-block} python\n:caption: x\n\n# 더하기\ny = 1\n```\n"),
    ("math block",
     "$$\n\\text{loss} = x\n$$\n",
     {"\\text{loss} = x": "\\text{손실} = x"},
     "$$\n\\text{손실} = x\n$$\n"),
    ("nothing translated: byte for byte",
     "# Title\n\nSome *text*\nover lines.   \n\n- a\n- b\n",
     {},
     "# Title\n\nSome *text*\nover lines.   \n\n- a\n- b\n"),
]


@pytest.mark.parametrize("name,text,translations,expected", CASES, ids=[c[0] for c in CASES])
def test_apply(name, text, translations, expected):
    result, placed, _code = markdown.apply(text, translations)
    assert result == expected
    assert placed == set(translations)


def test_alt_text_the_translated_block_contradicts_is_not_placed():
    """The block's msgstr decides the image; an alt msgstr it does not show stays unplaced
    (and the build warns about it), never silently counted."""
    text = "[![Open in\nColab](badge.svg)](https://colab)\n"
    block = "[![Open in Colab](badge.svg)](https://colab)"
    result, placed, _code = markdown.apply(
        text, {block: "[![Colab에서 실행](badge.svg)](https://colab)", "Open inColab": "Colab에서 열기"})
    assert result == "[![Colab에서 실행](badge.svg)](https://colab)\n"
    assert placed == {block}


def test_translated_code_blocks_are_returned_for_the_static_check():
    text = "```python\nx = 1  # one\n```\n\n$$\na\n$$\n"
    _result, _placed, code = markdown.apply(text, {"x = 1  # one\n": "x = 1  # 하나\n", "a": "b"})
    assert [(slot.msgid, slot.language, msgstr) for slot, msgstr in code] == [
        ("x = 1  # one\n", "python", "x = 1  # 하나\n")]  # math is not code


def _upstream_notebooks(shared_upstream):
    docs = shared_upstream / "docs"
    return [sources.read(source) for source in sources.find_notebooks(docs)]


def test_every_upstream_message_is_placeable(shared_upstream, root):
    """All catalog messages of the 52 built upstream notebooks find their place."""
    import polib

    missing = []
    total = 0
    notebooks = _upstream_notebooks(shared_upstream)
    assert len(notebooks) == 52
    for read in notebooks:
        catalog = root / "locale" / "ko" / "LC_MESSAGES" / f"{read.source.docname}.po"
        ids = {e.msgid: e.msgid for e in polib.pofile(str(catalog))
               if not e.obsolete and any(name == read.source.rel for name, _ in e.occurrences)}
        placed: set[str] = set()
        for cell in read.notebook.cells:
            if cell.cell_type == "markdown":
                placed |= markdown.apply(cell.source, ids)[1]
            elif cell.cell_type == "code" and _code_key(cell.source, ids):
                placed.add(_code_key(cell.source, ids))
        total += len(ids)
        missing += [(read.source.rel, msgid[:50]) for msgid in ids if msgid not in placed]
    assert total > 4000
    assert missing == []


def test_translated_cells_keep_their_block_structure(shared_upstream):
    """Replacing every inline message with a marker leaves each block where it was."""
    for read in _upstream_notebooks(shared_upstream)[:20]:
        for cell in read.notebook.cells:
            if cell.cell_type != "markdown":
                continue
            slots = [s for s in markdown.message_slots(cell.source) if s.kind == "inline"]
            markers = {s.msgid: f"M{i}X" for i, s in enumerate(slots)}
            result, _placed, _ = markdown.apply(cell.source, markers)
            after = [s.msgid for s in markdown.message_slots(result) if s.kind == "inline"]
            assert after == [markers[s.msgid] for s in slots], (read.source.rel, cell.source[:80])
