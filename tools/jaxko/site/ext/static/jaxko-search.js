/* jax-docs-ko: search result excerpts for Korean queries (jaxko/site/ext/search.py adds
 * this file to search.html only, after searchtools.js).
 *
 * Sphinx's makeSearchSummary looks for the *index keys* of the query in the page text.
 * The Korean keys of one- and two-syllable words carry an invisible mark (U+200D, see
 * SHORT_MARK in search.py), and a key is a stem (배열 for 배열을), so the summary of
 * most Korean results was empty or the start of the page. It also took the text of
 * the whole [role=main] element, which in sphinx-book-theme begins with the header
 * buttons ("System Settings Light Dark"). Here:
 *
 * - the excerpt comes from the article only, without the translation banner;
 * - it is centred on the first place any query word occurs, found by the key without
 *   its mark, by the word as typed, or by the stem of the word as typed;
 * - every occurrence of those words in the excerpt is wrapped in span.highlighted;
 * - a result always gets an excerpt (the start of the article when no word is found).
 */
"use strict";

(() => {
  if (typeof Search === "undefined") return;

  const SHORT_MARK = "\u200d";
  const BEFORE = 80;   // characters of context before the first hit
  const LENGTH = 240;  // characters in an excerpt, as Sphinx's
  const CHROME = [".headerlink", "script", "style", "noscript", ".jaxko-status",
                  ".bd-header-article", "#searchbox", ".prev-next-area",
                  ".copybtn", "button"].join(", ");

  const escapeRegExp = (text) => text.replace(/[.*+\-?^${}()|[\]\\]/g, "\\$&");

  /** The readable text of a result page (or of its anchored section). */
  const articleText = (htmlString, anchor) => {
    const doc = new DOMParser().parseFromString(htmlString, "text/html");
    const article = doc.querySelector("article.bd-article, article[role=main], article")
      || doc.querySelector("[role=main]");
    if (!article) return "";
    article.querySelectorAll(CHROME).forEach((el) => el.remove());
    let block = article;
    if (anchor && anchor.startsWith("#")) {
      const target = doc.getElementById(decodeURIComponent(anchor.slice(1)));
      if (target && article.contains(target)) block = target;
    }
    return block.textContent.replace(/\s+/g, " ").trim();
  };

  /** The words to find and highlight, longest first (lower case, no marks). */
  const queryTerms = (keywords) => {
    const terms = new Set();
    const add = (word) => {
      const plain = (word || "").split(SHORT_MARK).join("").toLowerCase().trim();
      if (plain && !plain.startsWith("-")) terms.add(plain);
    };
    [...keywords].forEach(add);
    const query = new URLSearchParams(window.location.search).get("q") || "";
    const stemmer = typeof Stemmer === "undefined" ? null : new Stemmer();
    const words = typeof splitQuery === "function" ? splitQuery(query) : query.split(/\s+/);
    // language_data.js's stopwords: an array in Sphinx 8.2, a Set in Sphinx 9
    const skip = new Set(typeof stopwords === "undefined" ? [] : stopwords);
    words.forEach((word) => {
      const lower = word.toLowerCase();
      if (!lower || skip.has(lower)) return;
      add(lower);
      if (stemmer) add(stemmer.stemWord(lower));
    });
    return [...terms].sort((a, b) => b.length - a.length);
  };

  /** Where the excerpt starts: some context before the first hit, at a space. */
  const excerptStart = (textLower, terms) => {
    const hits = terms.map((term) => textLower.indexOf(term)).filter((i) => i > -1);
    if (!hits.length) return 0;
    const first = Math.min(...hits);
    let start = Math.max(first - BEFORE, 0);
    if (start > 0) {
      const space = textLower.indexOf(" ", start);
      if (space > -1 && space < first) start = space + 1;
    }
    return start;
  };

  /** Append text to an element, wrapping each term in span.highlighted. */
  const appendHighlighted = (element, text, terms) => {
    if (!terms.length) {
      element.appendChild(document.createTextNode(text));
      return;
    }
    const pattern = new RegExp(terms.map(escapeRegExp).join("|"), "gi");
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      if (match.index > last)
        element.appendChild(document.createTextNode(text.slice(last, match.index)));
      const span = document.createElement("span");
      span.classList.add("highlighted");
      span.textContent = match[0];
      element.appendChild(span);
      last = match.index + match[0].length;
    }
    if (last < text.length) element.appendChild(document.createTextNode(text.slice(last)));
  };

  Search.htmlToText = articleText;

  Search.makeSearchSummary = (htmlText, keywords, anchor) => {
    const text = articleText(htmlText, anchor);
    const summary = document.createElement("p");
    summary.classList.add("context");
    if (!text) return summary;
    const terms = queryTerms(keywords);
    const start = excerptStart(text.toLowerCase(), terms);
    let excerpt = text.substr(start, LENGTH);
    if (start + LENGTH < text.length) {
      const space = excerpt.lastIndexOf(" ");
      if (space > LENGTH / 2) excerpt = excerpt.slice(0, space);
    }
    if (start > 0) summary.appendChild(document.createTextNode("… "));
    appendHighlighted(summary, excerpt.trim(), terms);
    if (start + excerpt.length < text.length) summary.appendChild(document.createTextNode(" …"));
    return summary;
  };
})();

/* Sphinx's own Korean catalog translates the result count as "" (an empty msgstr of a
 * plural message new in Sphinx 8.2), so the search page said nothing about what it
 * found. Fill in the two messages where the catalog has them empty. */
(() => {
  if (typeof Documentation === "undefined" || !Documentation.TRANSLATIONS) return;
  const found = "검색을 마쳤습니다. 검색어와 일치하는 문서 ${resultCount}개를 찾았습니다.";
  const messages = {  // one form per plural index, whatever the plural expression
    "Search finished, found one page matching the search query.": [found, found],
    "Search finished, found ${resultCount} pages matching the search query.": [found, found],
  };
  for (const [msgid, forms] of Object.entries(messages)) {
    const current = Documentation.TRANSLATIONS[msgid];
    if (current === undefined || (Array.isArray(current) && !current.some((f) => f)))
      Documentation.TRANSLATIONS[msgid] = forms;
  }
})();
