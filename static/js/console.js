/*
 * Judge console: keep the keyboard where the judge was when htmx swaps the panel in place.
 *
 * A form's button is disabled while its entry is sent, which drops the focus; once the new panel
 * is in, the focus goes to the first field with an error, else back to the control the judge used
 * (forms and one-tap buttons have stable ids), else to the message saying what happened.
 */
(() => {
  "use strict";
  let lastId = null;

  document.addEventListener("htmx:beforeRequest", () => {
    const active = document.activeElement;
    lastId = active && active.id && active.closest("#console") ? active.id : null;
  });

  document.addEventListener("htmx:afterSettle", () => {
    const panel = document.getElementById("console");
    if (!panel) return;
    const active = document.activeElement;
    if (active && active !== document.body && panel.contains(active)) return;
    const target =
      panel.querySelector("[aria-invalid=true]") ||
      (lastId && document.getElementById(lastId)) ||
      panel.querySelector("#console-alert [tabindex]");
    lastId = null;
    if (target) target.focus();
  });
})();
