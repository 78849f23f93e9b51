// Run Sphinx's own searchtools.js (and the build's language_data.js) in Node against a
// built site's searchindex.js: `node search_queries.js HTML_DIR < queries.json`.
// Prints {query: [docname, ...]} as JSON. Only the DOM calls searchtools makes while
// searching are stubbed; the query parsing, stemming and matching are Sphinx's code.
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const html = process.argv[2];
const stub = { removeChild() {}, lastChild: null };
globalThis.window = globalThis;
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

const run = (file) => vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
run(path.join(html, "_static", "language_data.js"));
run(path.join(html, "_static", "searchtools.js"));
run(path.join(html, "searchindex.js"));

const queries = JSON.parse(fs.readFileSync(0, "utf8"));
const out = {};
for (const query of queries) {
  const found = vm.runInThisContext(`(() => {
    const parsed = Search._parseQuery(${JSON.stringify(query)});
    return Search._performSearch(...parsed).map((r) => r[0]);
  })()`);
  out[query] = [...new Set(found)];
}
process.stdout.write(JSON.stringify(out));
