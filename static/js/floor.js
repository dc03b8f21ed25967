/* The judges' queue (templates/floor/judge.html): it follows the event's staff stream (live.streams, with the
   judge's session) and fetches the queue again (?fragment=1) at each change of a call, at most once per 300 ms.
   A call that comes in is announced politely.  Forms inside stay plain forms: they post and the page comes back. */
(function () {
  "use strict";
  /* The words are translated by Django's JavaScript catalogue (base.html loads it first); a page without it keeps
     the English. */
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
  function start() {
    var root = document.querySelector("[data-floor-queue]");
    if (!root || !window.PodiumLive) { return; }
    var body = root.querySelector("#queue-body"), announce = root.querySelector("[data-floor-announce]");
    var state = root.querySelector("[data-floor-state]");
    var waiting = null;
    function busy() {
      var active = document.activeElement;
      return !!(active && body.contains(active) && (active.tagName === "TEXTAREA" || active.tagName === "INPUT"))
        || !!body.querySelector("details[open]");
    }
    function refresh() {
      if (waiting) { return; }
      waiting = setTimeout(function () {
        waiting = null;
        if (busy()) { refresh(); return; } // a judge typing a note keeps their form; the queue follows after
        fetch(root.dataset.liveUrl + "?fragment=1", { headers: { "Accept": "text/html" }, credentials: "same-origin" })
          .then(function (response) { return response.ok ? response.text() : null; })
          .then(function (html) { if (html !== null) { body.innerHTML = html; } })
          .catch(function () { return null; });
      }, 300);
    }
    var source = window.PodiumLive.follow(root.dataset.liveStream, root.dataset.liveSince, {
      "snapshot": refresh,
      "judge_call.changed": function (data) {
        if (announce && data.state === "open") { announce.textContent = interpolate(gettext("Table %(table)s is calling a judge."), { table: data.table }, true); }
        refresh();
      }
    });
    source.addEventListener("open", function () { if (state) { state.textContent = gettext("live"); state.dataset.live = "open"; } });
    source.addEventListener("error", function () { if (state) { state.textContent = gettext("reconnecting"); state.dataset.live = "reconnecting"; } });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
