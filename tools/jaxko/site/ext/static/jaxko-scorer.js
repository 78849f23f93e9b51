// jax-docs-ko: Sphinx's search scorer (html_search_scorer; jaxko.site.ext.search).
// Sphinx's default weights, and one change: a page whose title matches the query
// comes first. The title matches when it is the query, holds the query as a word
// (Korean particles may follow: "shard_map을"), or holds the Korean rendering the
// glossary gives the query ("automatic differentiation" -> 자동 미분; API names
// through the concept they name: vmap -> automatic vectorization -> 자동 벡터화). A page
// named after the query (pallas/index, notebooks/shard_map) ranks above one that
// only mentions it in its title; then the shorter title, as Sphinx ranks titles.
// The query is the search page's ?q=; titles are compared as text (tags removed where
// the index holds them as HTML: Sphinx 8.2; Sphinx 9 holds plain text).
var JaxkoTitleRank = (() => {
  const RENDERINGS = /*JAXKO_RENDERINGS*/{};
  const TITLES_ARE_TEXT = /*JAXKO_TITLES_ARE_TEXT*/false;
  const WORD = /[\p{L}\p{N}_]/u;
  const LATIN = /[A-Za-z0-9_]/;
  let cache = { index: null, query: null, boosts: null };

  const squeeze = (text) => text.toLowerCase().replace(/\s+/g, " ").trim();
  const normal = (text) => squeeze(text.replace(/<[^>]*>/g, "").replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'"));
  const titleText = TITLES_ARE_TEXT ? squeeze : normal;

  // `needle` in `title` with no word character before it and no Latin one after it
  // (a Korean particle may follow).
  const holds = (title, needle) => {
    for (let at = title.indexOf(needle); at >= 0; at = title.indexOf(needle, at + 1)) {
      const before = at > 0 ? title[at - 1] : "";
      const after = title[at + needle.length] || "";
      if (!(before && WORD.test(before)) && !(after && LATIN.test(after))) return true;
    }
    return false;
  };

  // The page's own name: its last path part, or its folder's for an index page.
  const named = (docname) => {
    const parts = docname.toLowerCase().split("/");
    const last = parts[parts.length - 1];
    return (last === "index" && parts.length > 1 ? parts[parts.length - 2] : last)
      .replace(/-/g, "_");
  };

  const query = () => {
    try {
      return normal(new URLSearchParams(window.location.search).get("q") || "");
    } catch (error) {
      return "";
    }
  };

  const boostsFor = (index, q) => {
    const boosts = new Map();
    if (!q) return boosts;
    const renderings = (RENDERINGS[q] || []).map(normal);
    index.docnames.forEach((docname, i) => {
      const title = titleText(index.titles[i] || "");
      if (!title) return;
      let level = 0, matched = "";
      if (title === q || named(docname) === q.replace(/[-\s]/g, "_")) {
        level = 4;
        matched = title === q ? q : title;
      } else if (holds(title, q)) {
        level = 3;
        matched = q;
      } else {
        const found = renderings.find((r) => r && holds(title, r));
        if (found) {
          level = 2;
          matched = found;
        }
      }
      if (level) {
        const share = Math.min(1, matched.length / title.length);
        boosts.set(docname, 1000 * level + Math.round(100 * share));
      }
    });
    return boosts;
  };

  return {
    boost(docname) {
      const index = typeof Search !== "undefined" ? Search._index : null;
      if (!index || !index.docnames) return 0;
      const q = query();
      if (cache.index !== index || cache.query !== q) {
        cache = { index, query: q, boosts: boostsFor(index, q) };
      }
      return cache.boosts.get(docname) || 0;
    },
  };
})();

var Scorer = {
  score: (result) => {
    const [docname, title, anchor, descr, score, filename, kind] = result;
    return score + JaxkoTitleRank.boost(docname);
  },
  // Sphinx's defaults (searchtools.js)
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};
