/* jax-docs-ko: filter the glossary page (번역 용어집) by English or Korean.
 *
 * jaxko/site/ext/pages.py adds this file to translation/glossary.html only. Typing in the
 * box keeps the rows whose English term, renderings or note contain what was typed
 * (case and Unicode normalisation aside); the count says how many are shown. Without
 * JavaScript the box stays hidden and the whole table shows. */
"use strict";

(() => {
  const start = () => {
    const box = document.querySelector(".jaxko-glossary-filter");
    const input = document.getElementById("jaxko-glossary-filter");
    const count = document.querySelector(".jaxko-glossary-count");
    const rows = [...document.querySelectorAll("table.jaxko-glossary tbody tr")];
    if (!box || !input || !rows.length) return;
    const fold = (text) => text.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
    // A row's words without the labels the phone layout shows ("정한 번역", ...).
    const texts = rows.map((row) => fold([...row.cells].map((cell) => {
      const copy = cell.cloneNode(true);
      copy.querySelectorAll(".jaxko-label").forEach((label) => label.remove());
      return copy.textContent;
    }).join(" ")));
    const update = () => {
      const query = fold(input.value);
      let shown = 0;
      rows.forEach((row, index) => {
        const match = !query || texts[index].includes(query);
        row.hidden = !match;
        if (match) shown += 1;
      });
      count.textContent = query ? `용어 ${rows.length}개 중 ${shown}개` : "";
    };
    input.addEventListener("input", update);
    const initial = new URLSearchParams(window.location.search).get("q");
    if (initial) input.value = initial;
    box.hidden = false;
    update();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
