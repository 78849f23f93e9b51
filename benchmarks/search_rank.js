// The ranking a reader sees: Sphinx's own searchtools.js (with the build's
// language_data.js, which holds the site's stemmer and scorer) run in Node against a
// built site's searchindex.js. `node search_rank.js HTML_DIR < queries.json` prints
// {query: [docname, ...]}, best first, each page once (its best result), as the search
// page lists them (it shows the results from the end of _performSearch's list). The
// page's address carries the query (?q=...), as on search.html; only the DOM calls
// searchtools makes while searching are stubbed.
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const html = process.argv[2];
const stub = { removeChild() {}, lastChild: null };
globalThis.window = globalThis;
globalThis.location = { search: "" };
globalThis.document = {
  readyState: "loading",
  addEventListener() {},
  getElementById() { return stub; },
  documentElement: { dataset: {} },
};
globalThis.localStorage = { setItem() {}, getItem() { return null; } };
globalThis.SPHINX_HIGHLIGHT_ENABLED = false;
globalThis.DOCUMENTATION_OPTIONS = {};
globalThis._ready = () => {};
globalThis._ = (text) => text;  // Sphinx's gettext (doctools.js); object results call it

const run = (file) => vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
run(path.join(html, "_static", "language_data.js"));
run(path.join(html, "_static", "searchtools.js"));
run(path.join(html, "searchindex.js"));

const queries = JSON.parse(fs.readFileSync(0, "utf8"));
const out = {};
for (const query of queries) {
  globalThis.location = { search: "?q=" + encodeURIComponent(query) };
  const found = vm.runInThisContext(`(() => {
    const parsed = Search._parseQuery(${JSON.stringify(query)});
    return Search._performSearch(...parsed).map((r) => r[0]);
  })()`);
  out[query] = [...new Set(found.reverse())];
}
process.stdout.write(JSON.stringify(out));
