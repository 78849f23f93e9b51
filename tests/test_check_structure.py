"""safety.structure: what the parsers build, compared; nothing about spelling.

Each payload is parsed by the real parser (docutils for reST, MyST's markdown-it) and
must show a part its msgid lacks; each clean translation (text, emphasis, the msgid's
own roles and links) must show none.
"""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from jaxko.check.structure import MYST_EXTENSIONS, added, may_have_parts

PLANTED = [
    # (syntax, msgid, msgstr, kind of the part expected)
    ("rst", "Text.", "본문.\n\n.. plot:: scripts/plot.py", "directive"),
    ("rst", "Text.", "본문.\n\n.. PLOT :: x.py", "directive"),
    ("rst", "Text.", "본문 |x|.\n\n.. |x| image:: /etc/passwd", "directive"),
    ("rst", "Text.", "본문 :ref:`genindex`\\ 을 보세요.", "role"),
    ("rst", "See :func:`jax.jit`.", ":func:`jax.vmap`\\ 을 보세요.", "role"),
    ("rst", "Text.", "본문 https:evil.example 참고", "link"),
    ("rst", "Text.", "본문 a@evil.example", "link"),
    # A scheme docutils knows may end in `+` (whois++): no letter or digit before `:`.
    ("rst", "Text.", "본문 whois++:evil.example 참고", "link"),
    ("rst", "Text.", "`x <javascript:alert(1)>`_", "link"),
    ("rst", "Text.", "본문 |y|.", "substitution"),
    ("myst", "Text.", "본문 <?x><img src=x onerror=alert(1)>?>", "raw"),
    ("myst", "Text.", "본문 <![CDATA[x]]>", "raw"),
    ("myst", "Text.", "<div>\n<img/src/onerror=alert(1)>\n</div>", "raw"),
    ("myst", "Text.", "[x](https:evil.example)", "link"),
    ("myst", "Text.", "<https://evil.example>", "link"),
    ("myst", "Text.", "![x](../../etc/passwd)", "image"),
    ("myst", "Text.", "```{eval-rst}\n.. raw:: html\n```", "directive"),
    ("myst", "Text.", "~~~{csv-table}\n:file: /etc/passwd\n~~~", "directive"),
    ("myst", "Text.", ":::{raw} html\n<script>\n:::", "directive"),
    ("myst", "Text.", "{download}`x <../../etc/passwd>`", "role"),
    ("myst", "Text.", "---\nhtml_meta:\n  a: b\n---\n본문", "front-matter"),
    ("myst", "Read [the guide](guide.md).", "[안내서](other.md)를 읽으세요.", "link"),
    # What the reST prefilter must never let through unparsed.
    ("rst", "Text.", "본문.\n\n.. _타겟: 상대경로", "link"),
    ("rst", "Text.", "본문 `여기 <https://evil.example>`_ 참고", "link"),
    ("rst", "Text.", "본문 `이름`_ 참고", "reference"),
    ("rst", "Text.", "본문 이름_ 참고", "reference"),
    ("rst", "Text.", "본문 `이름`__ 참고\n\n__ https://evil.example", "link"),
    ("rst", "Text.", "`genindex`:ref: 참고", "role"),
    ("rst", "Text.", "- .. raw:: html\n\n     <script>", "directive"),
    ("rst", "Text.", ".. default-role:: download\n\n`x`", "directive"),
    # math is the msgid's math (issue #41): overlays, links, styles, macros
    ("myst", "The loss $L$.",
     '손실 $L$. $\\mmlToken{mtext}[href="https://evil.example/x" style="position:fixed"]{로그인}$',
     "math"),
    ("myst", "The loss $x$.", "손실 $\\newcommand{\\js}{javascript}\\href{\\js:alert(1)}{x}$", "math"),
    ("myst", "The loss $\\text{loss}$.", "손실 $\\text{$\\href{https://e.x}{a}$}$", "math"),
    ("myst", "$$x^2$$", "$$\\style{position:fixed}{x^2}$$", "math"),
    ("myst", "```{math}\nx^2\n```", "```{math}\n\\class{bd-header}{x^2}\n```", "math"),
    ("myst", "Text {math}`x`.", "본문 {math}`\\cssId{main}{x}`.", "math"),
    ("rst", "The loss :math:`x`.", "손실 :math:`\\href{https://evil.example}{x}`", "math"),
    ("rst", "Text.\n\n.. math::\n\n   x^2", "본문.\n\n.. math::\n\n   \\style{color:red}{x^2}", "math"),
]
CLEAN = [
    ("rst", "Use ``x`` in :func:`jax.jit`.", ":func:`jax.jit`\\ 에서 ``x``\\ 를 *꼭* **씁니다**."),
    ("rst", "See `the docs <https://docs.jax.dev>`_.", "`문서 <https://docs.jax.dev>`_\\ 를 보세요."),
    ("rst", "Python 3.12 docs `here <https://docs.python.org/3.12/>`_.",
     "파이썬 3.12 문서는 `여기 <https://docs.python.org/ko/3.12/>`_\\ 에 있습니다."),
    ("rst", "Press Ctrl.", ":kbd:`Ctrl`\\ 을 누르고 :sub:`2`\\ 를 씁니다."),
    ("myst", "JAX is <b>fast</b>.", "JAX는 <b>빠릅니다</b>."),
    ("myst", "See {func}`jax.jit` and [the guide](guide.md), $x^2$.",
     "{func}`jax.jit`과 [안내서](guide.md)를 보세요. $x^2$ *강조*"),
    # math: the msgid's, its \text words translated, spacing aside
    ("myst", "The loss $L = \\text{loss}(x)$.", "손실 $L=\\text{손실}(x)$입니다."),
    ("rst", "The loss :math:`L = \\mathrm{loss}`.", "손실 :math:`L = \\mathrm{손실}`\\ 입니다."),
    ("myst", "$$\nx^2\n$$", "$$x^2$$"),
    ("myst", "Text.", "예: 배열(array)은 값입니다."),
]


@pytest.mark.parametrize("syntax, msgid, msgstr, kind", PLANTED)
def test_a_part_the_msgid_lacks_is_found(syntax, msgid, msgstr, kind):
    assert may_have_parts(msgstr, syntax)
    assert kind in {part.kind for part in added(msgid, msgstr, (syntax,))}


@pytest.mark.parametrize("text", [
    "``my_var``\\ 을 씁니다.", "`제목` 참고", "이름_을 보세요.", "값은 3입니다.", "*강조*와 **굵게**",
    # `::` builds no part: a literal block is literal, a line of colons an adornment.
    "예를 들면::\n\n   <script> *x*", "제목\n::::\n\n본문", "값은 ::\n\n  x",
])
def test_the_rest_prefilter_spares_text_without_parts(text):
    assert not may_have_parts(text, "rst")
    assert added("Text.", text, ("rst",)) == []


_PIECES = ["`", "``", "_", "__", ":", "::", "|", "@", ".. ", "__ ", "<", ">", "x", "이름", " ",
           "\n", "\n   ", "-", "*", "func", "https", "mailto", "a.b", "\\", "[", "]", "#", "1.",
           "whois++", "+", ".", "::::", "\n\n", "\n\n   ", "예::", ">>> ", "=", "\t"]
# Block-level shapes around `::` (literal blocks, adornments, transitions, field and
# option lists, quoted literal blocks, tables) with Hangul in between.
_BLOCKS = ["::", "::\n\n", "\n\n", "\n   ", "\n\n   ", "이름", "예", " ", "::::", "====", "+--+",
           "-", "--x", "|", ">", ":", "x", "\\", "`", ".", "*", "\n"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
def test_the_prefilters_are_sound_on_generated_text(text):
    """What may_have_parts spares, the parser finds no part in: docutils and MyST are
    run on the text whatever the prefilter says."""
    from jaxko.check.structure import structure

    for syntax in ("rst", "myst"):
        if not may_have_parts(text, syntax):
            assert structure(text, syntax) == {}, (syntax, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_BLOCKS), max_size=16).map("".join))
def test_the_rest_prefilter_is_sound_on_generated_blocks(text):
    from jaxko.check.structure import structure

    if not may_have_parts(text, "rst"):
        assert structure(text, "rst") == {}, text


def _docutils_own_parse(text: str) -> str:
    """``text`` parsed by a fresh ``docutils.parsers.rst.Parser`` (its own state machine
    and inliner), under the recording tables: the reference for the shared machine."""
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    from jaxko.check.structure import recording, rst_settings

    document = new_document("<message>", rst_settings().copy())
    with recording():
        Parser().parse(text, document)
    return document.pformat()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
def test_the_shared_machine_builds_what_docutils_builds(text):
    """parse_rst (one state machine and inliner per process, a shallow copy of the
    settings, no URI search in text without `:` or `@`) builds the same tree as
    docutils' own parser: the shortcuts change nothing the parser sees."""
    from jaxko.check.structure import parse_rst, recording

    with recording():
        shared = parse_rst(text).pformat()
    assert shared == _docutils_own_parse(text), text


@pytest.fixture(scope="module")
def committed_texts() -> dict[str, str]:
    """Every msgid and msgstr of the committed and the fixture catalogs, each distinct
    text once, with the first catalog that holds it (the sweeps below judge a text,
    wherever it stands; the project repeats thousands of them across pages)."""
    from jaxko import catalogs as pofile

    texts: dict[str, str] = {}
    for path in sorted((ROOT / "locale" / "ko").rglob("*.po")) + sorted(
            (ROOT / "tests" / "fixtures").rglob("*.po")):
        for entry in pofile.read(path):
            for text in (entry.msgid, entry.msgstr):
                if text:
                    texts.setdefault(text, str(path))
    return texts


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
def test_the_shared_machine_builds_what_docutils_builds_on_the_committed_catalogs(committed_texts):
    from jaxko.check.structure import parse_rst, recording

    compared = 0
    for text, path in committed_texts.items():
        # A line over docutils' limit is refused by both, in other words.
        if max(map(len, text.splitlines() or [""])) >= 10_000:
            continue
        if "\n" in text or ":" in text or "@" in text or "`" in text:
            with recording():
                shared = parse_rst(text).pformat()
            assert shared == _docutils_own_parse(text), (path, text)
            compared += 1
    assert compared > 100


def test_a_uri_search_skipped_where_one_could_match_is_caught(monkeypatch):
    """The comparison above catches a guard that skips too much: planted, a guard that
    also skips text with `@` loses the e-mail link docutils builds."""
    from docutils import nodes

    from jaxko.check import structure

    from docutils.parsers.rst import states

    inliner = structure._inliner_once()
    full = states.Inliner.implicit_inline.__get__(inliner)  # docutils' own, unguarded
    monkeypatch.setattr(inliner, "implicit_inline",
                        lambda text, lineno: [nodes.Text(text)] if ":" not in text else full(text, lineno))
    monkeypatch.setattr(structure, "_inliner_once", lambda: inliner)
    monkeypatch.setattr(structure, "_MACHINES", [])
    text = "본문 a@evil.example 참고"
    with structure.recording():
        shared = structure.parse_rst(text).pformat()
    assert shared != _docutils_own_parse(text)
    monkeypatch.undo()
    with structure.recording():
        assert structure.parse_rst(text).pformat() == _docutils_own_parse(text)


@pytest.mark.integration  # a sweep: `make test` runs it, not test-fast
def test_the_rest_prefilter_is_sound_on_the_committed_catalogs(committed_texts):
    from jaxko.check.structure import structure

    spared = 0
    for text, path in committed_texts.items():
        if not may_have_parts(text, "rst"):
            spared += 1
            assert structure(text, "rst") == {}, (path, text)
    assert spared > 100


@pytest.mark.parametrize("syntax, msgid, msgstr", CLEAN)
def test_text_and_emphasis_add_nothing(syntax, msgid, msgstr):
    assert added(msgid, msgstr, (syntax,)) == []


def test_the_check_parses_every_myst_extension_the_site_enables():
    """The check must see any structure Sphinx's MyST parser can build: its MyST
    extensions are a superset of conf.py's."""
    tree = ast.parse((ROOT / "conf.py").read_text(encoding="utf-8"))
    enabled = next(ast.literal_eval(node.value) for node in ast.walk(tree)
                   if isinstance(node, ast.Assign) and any(
                       getattr(t, "id", None) == "myst_enable_extensions" for t in node.targets))
    assert set(enabled) <= set(MYST_EXTENSIONS)


def test_no_project_setting_lowers_a_safety_rule(tmp_path):
    import jaxko.check.safety  # noqa: F401 (registers the rules)
    from jaxko.check import config
    from jaxko.errors import UserError

    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxko.check.severity]\n"safety.structure" = "info"\n', encoding="utf-8")
    with pytest.raises(UserError, match="safety rules are always errors"):
        config.severities([tmp_path])


def test_checking_a_msgstr_reads_no_file(tmp_path):
    """syntax.parse runs docutils on the msgstr: an `include` there must not read a file
    of the machine running the check (its content could surface in a finding)."""
    from jaxko.check.syntax import rst_problems

    secret = tmp_path / "secret.rst"
    secret.write_text("Title\n=====\n\n.. unknown-directive-s3cr3t::\n", encoding="utf-8")
    problems = rst_problems(f"본문.\n\n.. include:: {secret}\n")
    assert not any("s3cr3t" in problem for problem in problems), problems
    # Known directives are inert stand-ins: nothing runs, whatever the settings.
    assert problems == {}, problems


def test_a_parse_leaves_nothing_to_the_cyclic_collector(monkeypatch):
    """A parsed document is freed as soon as it is read (structure.discard): its
    cycles would otherwise be left to the collector, a tenth of a check's time.
    (A nested block, a list item, still leaves docutils' own nested state machine to
    the collector: docutils builds one per nested list and never frees its cycles.)"""
    import gc

    from jaxko.check import structure

    texts = [f"본문 {i} :func:`f{i}`\\ 을 `링크 <https://x.example/{i}>`_ *보세요*.\n\n끝 {i}."
             for i in range(100)]

    def cyclic_garbage() -> int:
        structure.structure.cache_clear()
        gc.collect()
        gc.disable()
        try:
            for text in texts:
                assert structure.structure(text, "rst")  # each has its role and link
            return gc.collect()
        finally:
            gc.enable()

    assert cyclic_garbage() < 5 * len(texts)  # a few, once (first use), not ~70 a parse
    # Planted: the trees left to the collector.
    monkeypatch.setattr(structure, "discard", lambda document: None)
    assert cyclic_garbage() > 20 * len(texts)


def _default_role():
    from docutils.parsers.rst import languages, roles

    return roles.role("", languages.get_language("en"), 0, None)[0]


def test_a_default_role_in_a_message_changes_no_later_message():
    """No directive of a message runs (recorders answer every lookup), so a
    `default-role` in one message leaves docutils' default role as it was for the next;
    planted, a default role registered as a real `default-role` would is caught."""
    from sphinx.util.docutils import register_role, unregister_role

    from jaxko.check.structure import structure
    from jaxko.check.syntax import rst_problems

    before = _default_role()
    text = ".. default-role:: download\n\n`x`"
    structure(text, "rst")
    rst_problems(text)
    assert _default_role() is before
    assert rst_problems("`y`") == {} and structure("`y`", "rst") == {}
    register_role("", lambda *args, **kwargs: ([], []))  # what a real `default-role` does
    try:
        assert _default_role() is not before
    finally:
        unregister_role("")
    assert _default_role() is before
