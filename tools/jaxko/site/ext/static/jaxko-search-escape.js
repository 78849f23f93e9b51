/* jax-docs-ko: translated text in the search index is text, never HTML.
 *
 * Sphinx stores section titles (alltitles) as plain text in searchindex.js, and
 * searchtools.js shows a result's title with innerHTML, so a translated heading
 * "<img src=x onerror=…> 제목" ran as markup on a crafted search.html?q=… link.
 * Document titles (titles) are HTML already (Sphinx renders them escaped) and stay as
 * they are. jaxko/site/ext/search.py appends this code to the Korean search language's
 * stemmer code, which Sphinx writes into language_data.js: it runs after searchtools.js
 * defines Search and before searchindex.js calls Search.setIndex, so every search sees
 * the escaped titles. A query typed with <, > or & no longer matches a title by those
 * characters (its other words still find the page).
 */
(() => {
  if (typeof Search === "undefined" || typeof Search.setIndex !== "function") return;
  const escapeHTML = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;")
    .replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  const setIndex = Search.setIndex;
  Search.setIndex = (index) => {
    if (index && index.alltitles) {
      const titles = {};
      for (const [title, found] of Object.entries(index.alltitles)) {
        const key = escapeHTML(title);
        titles[key] = (titles[key] || []).concat(found);
      }
      index.alltitles = titles;
    }
    return setIndex(index);
  };
})();
