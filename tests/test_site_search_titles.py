"""The search scorer's title match (jaxko.site.ext.search, static/jaxko-scorer.js), in Node.

The scorer that the site's language_data.js carries is run on a small index: the
query is the page's ?q=, a page titled by the query (or by the glossary's Korean
rendering of it) gets a boost by how well the title matches, any other page none.
The ranking it gives on the real site is measured by benchmarks/search_ranking.py
and checked in tests/test_site_real.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import FIXTURES
from jaxko.site.ext.search import API_CONCEPTS, scorer_code, title_renderings

NODE = shutil.which("node")

INDEX = {
    "docnames": ["jit-compilation", "control-flow", "automatic-vectorization", "pallas/index",
                 "pallas/quickstart", "notebooks/shard_map", "jep/14273-shard-map", "jitted",
                 "faq", "html"],
    "titles": ["JIT 컴파일", "JIT에서의 제어 흐름", "자동 벡터화", "Pallas: JAX 커널 언어",
               "Pallas 빠른 시작", '<code class="literal">shard_map</code>을 이용한 병렬 처리',
               '<code>shmap</code> (<code>shard_map</code>) for per-device code',
               "Jitted functions", "자주 묻는 질문(FAQ)", "&lt;b&gt; tags"],
}


# The same titles as Sphinx 9 writes them into searchindex.js: plain text, not HTML.
TEXT_INDEX = {
    "docnames": INDEX["docnames"] + ["compare"],
    "titles": ["JIT 컴파일", "JIT에서의 제어 흐름", "자동 벡터화", "Pallas: JAX 커널 언어",
               "Pallas 빠른 시작", "shard_map을 이용한 병렬 처리",
               "shmap (shard_map) for per-device code", "Jitted functions", "자주 묻는 질문(FAQ)",
               "<b> tags", "x < y and y > z"],
}
HTML_INDEX = {**INDEX, "docnames": TEXT_INDEX["docnames"],
              "titles": INDEX["titles"] + ["x &lt; y and y &gt; z"]}


def boosts(code: str, query: str, index: dict = INDEX) -> dict[str, int]:
    script = code + f"""
var Search = {{ _index: {json.dumps(index, ensure_ascii=False)} }};
var window = {{ location: {{ search: "?q=" + encodeURIComponent({json.dumps(query)}) }} }};
const out = {{}};
for (const d of Search._index.docnames) out[d] = Scorer.score([d, "", "", null, 5, "", "text"]) - 5;
process.stdout.write(JSON.stringify(out));
"""
    proc = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def code() -> str:
    if NODE is None:
        pytest.fail("node missing: run `make system-deps`")
    return scorer_code({"vmap": ["자동 벡터화"], "automatic vectorization": ["자동 벡터화"]},
                       titles_are_text=False)


def ranked(found: dict[str, int]) -> list[str]:
    return [d for d, b in sorted(found.items(), key=lambda x: -x[1]) if b]


def test_a_title_with_the_query_as_a_word_ranks_first(code):
    found = boosts(code, "jit")
    # "JIT 컴파일" and "JIT에서의 …" (a particle after the word) match, the shorter title
    # first; "Jitted" holds jit only inside a word
    assert ranked(found) == ["jit-compilation", "control-flow"]
    assert found["jitted"] == 0


def test_a_page_named_after_the_query_ranks_above_titles_that_mention_it(code):
    assert ranked(boosts(code, "pallas")) == ["pallas/index", "pallas/quickstart"]
    assert ranked(boosts(code, "shard_map")) == ["notebooks/shard_map", "jep/14273-shard-map"]
    assert ranked(boosts(code, "FAQ")) == ["faq"]


def test_an_english_query_finds_the_korean_title_through_the_glossary(code):
    assert ranked(boosts(code, "vmap")) == ["automatic-vectorization"]
    assert ranked(boosts(code, "Automatic  Vectorization")) == ["automatic-vectorization"]
    # without the glossary's rendering, no title matches vmap
    bare = scorer_code({})
    assert ranked(boosts(bare, "vmap")) == []


def test_no_query_no_boost(code):
    assert ranked(boosts(code, "")) == []
    assert ranked(boosts(code, "없는 낱말")) == []


def test_titles_are_compared_as_text(code):
    assert ranked(boosts(code, "<b> tags")) == ["html"]


def test_renderings_come_from_the_glossary():
    found = title_renderings(FIXTURES / "site" / "glossary.yaml")
    assert found and all(key == key.lower() for key in found)
    assert all(isinstance(v, list) and v for v in found.values())
    real = title_renderings(FIXTURES.parent.parent / "glossary" / "ko.yaml")
    assert real["automatic vectorization"] == ["자동 벡터화"]
    for api, concept in API_CONCEPTS.items():
        assert real[api] == real[concept]
    assert title_renderings(FIXTURES / "no-such.yaml") == {}


def test_renderings_cannot_end_the_script():
    code = scorer_code({"x": ["</script><script>alert(1)</script>"], "y": ["\u2028"]})
    assert "</script>" not in code and "\u2028" not in code
    assert "\\u003c/script>" in code


QUERIES = ["jit", "pallas", "shard_map", "FAQ", "vmap", "<b> tags", "x < y", "자동 벡터화"]


def test_plain_text_titles_rank_as_html_titles_do():
    """Sphinx 9 indexes plain-text titles, 8.2 HTML ones: the scorer made for each
    ranks the same pages first for the same queries."""
    renderings = {"vmap": ["자동 벡터화"], "automatic vectorization": ["자동 벡터화"]}
    on_html = scorer_code(renderings, titles_are_text=False)
    on_text = scorer_code(renderings, titles_are_text=True)
    for query in QUERIES:
        assert ranked(boosts(on_text, query, TEXT_INDEX)) == ranked(boosts(on_html, query, HTML_INDEX)), query
    assert ranked(boosts(on_text, "x < y", TEXT_INDEX)) == ["compare"]


def test_plain_text_titles_read_as_html_lose_their_angle_brackets():
    """The planted fault: Sphinx 9's plain-text titles read as HTML, "x < y and y > z"
    loses "< y and y >" as if it were a tag, and the query no longer finds it."""
    on_html = scorer_code({}, titles_are_text=False)
    assert ranked(boosts(on_html, "x < y", TEXT_INDEX)) == []


def test_the_scorer_reads_titles_as_this_sphinx_writes_them():
    from jaxko.site.ext.search import index_titles_are_text

    import sphinx

    assert index_titles_are_text() == (sphinx.version_info[0] >= 9)
    assert ("TITLES_ARE_TEXT = true" in scorer_code({})) == index_titles_are_text()
