/* Conveniences only: every page works without this file. */
/* global document, navigator, window, Element, HTMLFormElement */
"use strict";
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute("data-copy") || "");
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent || "").then(() => {
    button.textContent = "Copied";
  });
});
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
});
/* Suggestions under the header's search box, from the server as one types; picking one opens its page. Without script the box is a plain search form. */
(function () {
  const box = document.getElementById("site-q");
  const list = document.getElementById("site-q-suggestions");
  if (!box || !list) return;
  const pages = new Map();
  let timer = 0;
  let asked = "";
  box.addEventListener("input", (event) => {
    const picked = pages.get(box.value);
    // A pick from the list arrives as a replacement of the whole text, not as typing.
    if (picked && (!(event instanceof window.InputEvent) || event.inputType === "insertReplacementText")) {
      window.location.assign(picked);
      return;
    }
    window.clearTimeout(timer);
    const q = box.value.trim();
    if (q.length < 2 || q === asked) return;
    timer = window.setTimeout(() => {
      asked = q;
      window.fetch("/search/suggestions?q=" + encodeURIComponent(q), { headers: { accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : { suggestions: [] }))
        .then((body) => {
          if (box.value.trim() !== q) return;
          list.replaceChildren();
          pages.clear();
          for (const s of body.suggestions || []) {
            const option = document.createElement("option");
            option.value = s.name;
            option.label = s.label;
            pages.set(s.name, s.page);
            list.appendChild(option);
          }
        })
        .catch(() => undefined);
    }, 200);
  });
})();
/* A table wider than its box scrolls inside it (phones); keyboard users can then reach it to scroll it too. */
(function () {
  const mark = () => {
    for (const table of document.querySelectorAll("main table")) {
      if (table.scrollWidth > table.clientWidth + 1) table.setAttribute("tabindex", "0");
      else table.removeAttribute("tabindex");
    }
  };
  window.addEventListener("load", mark);
  window.addEventListener("resize", mark);
})();
