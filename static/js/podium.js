/*
 * What the pages do in the browser beyond htmx, declared with data attributes: the Content-Security-Policy
 * allows no inline script, no inline event handler and no eval (htmx's hx-on), so the behaviour lives here.
 *
 * - form[data-confirm="..."]: a plain (not htmx) form asks before it is sent.
 * - form[data-clear-on-success="field other"]: after its htmx request answers 200, those fields are emptied
 *   and the first one gets the focus (type name after name).
 * - [data-swap-statuses="409 422"]: htmx requests made inside swap these answers in like a 200 (the judge
 *   console shows a refused entry with the current state).
 * - button[data-print]: opens the browser's print dialog (the printouts).
 */
(() => {
  "use strict";

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
    if (form.hasAttribute("hx-post") || form.hasAttribute("hx-get")) return; // htmx asks (hx-confirm)
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt;
    if (!(form instanceof HTMLFormElement) || !form.dataset.clearOnSuccess) return;
    if (event.detail.xhr.status !== 200) return;
    const names = form.dataset.clearOnSuccess.split(/\s+/).filter(Boolean);
    for (const name of names) {
      if (form.elements[name]) form.elements[name].value = "";
    }
    if (names.length && form.elements[names[0]]) form.elements[names[0]].focus();
  });

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("button[data-print]") : null;
    if (button) window.print();
  });

  document.addEventListener("htmx:beforeSwap", (event) => {
    const scope = event.target instanceof Element ? event.target.closest("[data-swap-statuses]") : null;
    if (!scope) return;
    const statuses = scope.dataset.swapStatuses.split(/\s+/).map(Number);
    if (statuses.includes(event.detail.xhr.status)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
