/* Podium live: keep a page up to date from an event's (or a station's) stream of Server-Sent Events, and count
   the round's clock down locally.  No library.  A page calls PodiumLive.follow(url, since, handlers) with what to do
   for each kind of event; the browser reconnects by itself and sends the last id it saw (Last-Event-ID), so nothing
   is missed.  Clocks are elements with data-clock (see setClock): the deadline comes once, each push corrects it; a
   clock whose round has every result in (state "finished") reads Finished and counts nothing down. */
(function () {
  "use strict";
  /* The words are translated by Django's JavaScript catalogue (base.html loads it first); a page without it keeps
     the English. */
  var pgettext = window.pgettext || function (context, text) { return text; };
  var offset = 0; // the server's clock minus this browser's, in ms

  function follow(url, since, handlers) {
    var first = since === null || since === undefined || since === "" ? url
      : url + (url.indexOf("?") < 0 ? "?" : "&") + "last_event_id=" + encodeURIComponent(since);
    var source = new EventSource(first);
    var root = document.documentElement;
    source.addEventListener("open", function () { root.dataset.live = "open"; });
    source.addEventListener("error", function () { root.dataset.live = "reconnecting"; });
    Object.keys(handlers).forEach(function (kind) {
      source.addEventListener(kind, function (event) {
        var data;
        try { data = JSON.parse(event.data); } catch (err) { return; }
        root.dataset.liveSeq = event.lastEventId;
        handlers[kind](data, event);
      });
    });
    return source;
  }

  var pending = {};
  /* Replace the element's content with the page's fragment (?fragment=1), at most every 300 ms. */
  function refresh(element, url) {
    if (!element) { return; }
    var key = element.id || url;
    if (pending[key]) { return; }
    pending[key] = setTimeout(function () {
      var full = url + (url.indexOf("?") < 0 ? "?" : "&") + "fragment=1";
      fetch(full, { headers: { "Accept": "text/html" } }).then(function (response) {
        return response.ok ? response.text() : null;
      }).then(function (html) {
        pending[key] = null;
        if (html !== null) { element.innerHTML = html; tick(); element.dispatchEvent(new CustomEvent("live:refreshed", { bubbles: true })); }
      }).catch(function () { pending[key] = null; });
    }, 300);
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function format(seconds) {
    var s = Math.max(0, seconds), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    return (h ? h + ":" + pad(m) : m) + ":" + pad(r);
  }

  /* Give a clock element the timer of a push: {state, deadline, remaining, server_time, procedure}. */
  function setClock(element, timer) {
    if (!element || !timer) { return; }
    if (timer.server_time) { offset = Date.parse(timer.server_time) - Date.now(); }
    element.dataset.state = timer.state;
    element.dataset.deadline = timer.deadline || "";
    element.dataset.remaining = timer.remaining === null || timer.remaining === undefined ? "" : timer.remaining;
    // The page wrote the format's procedure in the reader's language; a push (in English) only fills an empty one.
    var procedure = element.querySelector(".clock-procedure");
    if (procedure && timer.procedure && !procedure.textContent.trim()) { procedure.textContent = timer.procedure; }
    tick();
  }

  function remaining(element) {
    if (element.dataset.state === "running" && element.dataset.deadline) {
      return Math.ceil((Date.parse(element.dataset.deadline) - (Date.now() + offset)) / 1000);
    }
    return element.dataset.remaining === "" ? null : parseInt(element.dataset.remaining, 10);
  }

  function tick() {
    var anyUp = false;
    document.querySelectorAll("[data-clock]").forEach(function (element) {
      var left = remaining(element), shown = element.querySelector(".clock-time");
      var finished = element.dataset.state === "finished"; // every table has its result: the clock has stopped
      var up = !finished && left !== null && left <= 0 && element.dataset.state !== "not_started";
      if (shown) {
        shown.textContent = finished ? pgettext("the round's clock", "Finished") : left === null ? "–:––"
          : (up ? pgettext("the round's clock: time is up", "Time") : format(left));
      }
      element.classList.toggle("finished", finished);
      element.classList.toggle("time-up", up);
      element.classList.toggle("paused", element.dataset.state === "paused");
      var procedure = element.querySelector(".clock-procedure");
      if (procedure) { procedure.hidden = !up; }
      if (up && element.hasAttribute("data-clock-round")) { anyUp = true; }
    });
    document.documentElement.classList.toggle("round-time-up", anyUp);
  }

  if (!window.__podiumLiveTicking) {
    window.__podiumLiveTicking = true;
    if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", tick); } else { tick(); }
    setInterval(tick, 250);
  }

  window.PodiumLive = { follow: follow, refresh: refresh, setClock: setClock, tick: tick, format: format };
}());
