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
