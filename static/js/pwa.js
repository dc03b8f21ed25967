/* Podium as an installable app, on every page (templates/pwa/_head.html and _status.html; core.pwa).

   - Registers the service worker (/sw.js, templates/pwa/sw.js), which keeps the player's page, the pairings and
     the judges' pages for a table without a network.
   - The offline banner: shown while the browser is offline, or when the worker answered with the copy it kept
     (it marks the page data-served="cache"); it says when the page was last loaded.  When the network comes back
     (the browser's "online" event, or the page's live stream reconnecting: live.js sets data-live="open") a kept
     copy is loaded again from the network.
   - The judges' outbox: an entry of the judge console or of the judges' pages (the forms posting to the URLs in
     RECORDERS) made while offline, or whose sending failed for want of a network, is kept in IndexedDB and sent in
     the order it was made when the network returns, with the page's current CSRF token.  Entries of one game are
     numbered in a row (expected_version: the first at the version the judge saw, the next one above it, ...), so
     a replay can't record one twice: the server refuses a version it has passed (409).  An entry the server
     refuses (4xx) stays in the list, marked refused, with the server's message, until the judge dismisses it.
     Entries belong to the judge who made them: another account signed in on the device doesn't send them.
   Online, nothing changes: forms post as they did.  Words go through Django's JavaScript catalogue when the page
   has it (window.gettext), else stay English. */
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="podium-pwa"]');
  if (!meta) { return; }

  /* Django's JavaScript catalogue when the page loads it, else English; named as makemessages looks for them. */
  function gettext(text) { return typeof window.gettext === "function" ? window.gettext(text) : text; }
  function ngettext(one, many, count) {
    return typeof window.ngettext === "function" ? window.ngettext(one, many, count) : (count === 1 ? one : many);
  }
  function interpolate(format, values) {
    if (typeof window.interpolate === "function") { return window.interpolate(format, values, true); }
    return format.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  }

  var served = meta.dataset.served; // "cache": the worker answered with its kept copy
  var user = meta.dataset.user || "";

  /* A kept copy's clocks: the server's time written in it is the time it was kept, not now, so the clocks
     (live.js) count down by this device's own clock instead.  This script runs before live.js and
     live-pages.js start (deferred scripts run in order, and it is in the head). */
  if (served === "cache") {
    document.querySelectorAll("[data-live-server-time]").forEach(function (el) { el.removeAttribute("data-live-server-time"); });
  }

  // --- The service worker ----------------------------------------------------------------------------------
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(meta.content, { scope: "/" }).catch(function () { return null; });
  }

  /* Signing out (or in as someone else): the worker forgets the kept pages (it also does on the POST itself). */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) { return; }
    var path = new URL(form.action, location.href).pathname;
    if ((path === meta.dataset.logout || path === meta.dataset.login) && navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "clear" });
    }
  });

  // --- The offline banner ----------------------------------------------------------------------------------
  function clockOf(date) {
    return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function banner() {
    var box = document.querySelector("[data-pwa-offline]");
    if (!box) { return; }
    var updated = box.querySelector("[data-pwa-updated]");
    if (updated && updated.dataset.local !== "yes" && updated.getAttribute("datetime")) {
      var when = new Date(updated.getAttribute("datetime"));
      if (!isNaN(when.getTime())) { updated.textContent = clockOf(when); updated.dataset.local = "yes"; }
    }
    var offline = served === "cache" || navigator.onLine === false;
    box.hidden = !offline;
    document.documentElement.classList.toggle("pwa-is-offline", offline);
  }

  /* The page was refreshed by its live stream: it is as new as now. */
  document.addEventListener("live:refreshed", function () {
    var updated = document.querySelector("[data-pwa-updated]");
    if (!updated) { return; }
    var now = new Date();
    updated.setAttribute("datetime", now.toISOString());
    updated.textContent = clockOf(now);
  });

  var reloading = false;
  function networkBack() {
    if (served === "cache") {
      if (!reloading) { reloading = true; location.reload(); }
      return;
    }
    probeDelay = 2000;
    banner();
    drain();
  }

  /* A kept copy shown while the browser says it is online (a Wi-Fi without internet, or the network just back):
     ask the server now and then, and load the page again once it answers. */
  var probeDelay = 2000;
  function probe() {
    if (served !== "cache" || reloading) { return; }
    setTimeout(function () {
      if (navigator.onLine === false) { probe(); return; }
      fetch(meta.dataset.probe, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
        .then(function (response) { if (response.ok) { networkBack(); } else { probe(); } })
        .catch(function () { probe(); });
    }, probeDelay);
    probeDelay = Math.min(probeDelay * 2, 30000);
  }

  window.addEventListener("offline", banner);
  window.addEventListener("online", networkBack);
  // The page's live stream (live.js) reconnected: the network is back even if the browser didn't say so.
  new MutationObserver(function () {
    if (document.documentElement.dataset.live === "open") { networkBack(); }
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-live"] });

  // --- The judges' outbox ----------------------------------------------------------------------------------
  /* The forms whose entries wait for the network: the judge console's entries, voids and next games; the judges'
     calls, assignments and deck checks (games/urls.py, floor/urls.py). */
  var RECORDERS = [
    /^\/dashboard\/games\/\d+\/events\/(\d+\/void\/)?$/,
    /^\/dashboard\/events\/\d+\/rounds\/\d+\/tables\/\d+\/game\/start\/$/,
    /^\/dashboard\/events\/\d+\/judge\/(calls|assignments)\//,
    /^\/dashboard\/events\/\d+\/deck-checks\/\d+\/(start|finish|penalty)\/$/
  ];
  var GAME = /^\/dashboard\/games\/(\d+)\/events\//;

  function recorder(form) {
    if (!(form instanceof HTMLFormElement) || (form.getAttribute("method") || "get").toLowerCase() !== "post") { return null; }
    var url = new URL(form.getAttribute("action") || location.href, location.href);
    if (url.origin !== location.origin) { return null; }
    return RECORDERS.some(function (pattern) { return pattern.test(url.pathname); }) ? url : null;
  }

  var dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var open = indexedDB.open("podium-outbox", 1);
        open.onupgradeneeded = function () { open.result.createObjectStore("entries", { keyPath: "id", autoIncrement: true }); };
        open.onsuccess = function () { resolve(open.result); };
        open.onerror = function () { reject(open.error); };
      });
    }
    return dbPromise;
  }
  function store(mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        var tx = database.transaction("entries", mode), result;
        result = work(tx.objectStore("entries"));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }
  /* The signed-in judge's entries, in the order they were made.  An entry the worker kept (a plain form posted
     without a network, templates/pwa/sw.js) has no owner yet: it is the judge's whose page it sent them back to. */
  function mine() {
    return store("readonly", function (entries) { return entries.getAll(); }).then(function (all) {
      var claimed = (all || []).filter(function (entry) { return entry.user === null && user; });
      return Promise.all(claimed.map(function (entry) {
        entry.user = user;
        entry.label = entry.label || gettext("An entry of the judges' page");
        return save(entry);
      })).then(function () { return all || []; });
    }).then(function (all) {
      return all.filter(function (entry) { return entry.user === user; }).sort(function (a, b) { return a.id - b.id; });
    });
  }
  function save(entry) { return store("readwrite", function (entries) { return entries.put(entry); }); }
  function forget(id) { return store("readwrite", function (entries) { return entries.delete(id); }); }

  function labelOf(form, submitter) {
    var text = (submitter && submitter.textContent) || form.getAttribute("aria-label") || "";
    text = text.replace(/\s+/g, " ").trim() || gettext("Entry");
    var where = document.title.split(" · ")[0];
    return where && where !== "Podium" ? where + ": " + text : text;
  }

  /* Keep a form's entry: fields as sent, numbered after the entries of the same game already waiting. */
  function queue(form, url, fields, submitter, unanswered) {
    var entry = {
      user: user, url: url.pathname + url.search, page: location.pathname, htmx: form.hasAttribute("hx-post"),
      label: labelOf(form, submitter), fields: fields, state: "queued", message: "", at: new Date().toISOString(),
      unanswered: !!unanswered // sent once already, without an answer: it may have been recorded
    };
    var game = GAME.exec(url.pathname);
    return mine().then(function (waiting) {
      var version = fields.filter(function (pair) { return pair[0] === "expected_version"; })[0];
      if (game && version) {
        entry.game = game[1];
        entry.base = version[1];
        var before = waiting.filter(function (other) { return other.state === "queued" && other.game === entry.game && other.base === entry.base; });
        var next = before.length ? Math.max.apply(null, before.map(function (other) { return Number(other.expected); })) + 1 : Number(version[1]);
        entry.expected = String(next);
        version[1] = entry.expected;
      }
      return save(entry);
    }).then(render);
  }

  function pairsOf(formData) {
    var pairs = [];
    formData.forEach(function (value, name) { if (typeof value === "string") { pairs.push([name, value]); } });
    return pairs;
  }

  /* Offline: the entry goes to the outbox instead of the network (before htmx or the browser sends it). */
  document.addEventListener("submit", function (event) {
    var form = event.target, url = recorder(form);
    if (!url || navigator.onLine !== false) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    var question = form.getAttribute("hx-confirm") || form.dataset.confirm;
    if (question && !window.confirm(question)) { return; }
    queue(form, url, pairsOf(new FormData(form, event.submitter || undefined)), event.submitter);
  }, true);

  /* Online in the browser's eyes, but the request never reached the server: the entry waits too. */
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt, url = recorder(form);
    if (!url) { return; }
    var config = event.detail.requestConfig, data = config && config.formData ? config.formData : new FormData(form);
    queue(form, url, pairsOf(data), null, true);
  });

  function csrfToken() {
    var headers = document.body && document.body.getAttribute("hx-headers");
    if (headers) {
      try { var token = JSON.parse(headers)["X-CSRFToken"]; if (token) { return token; } } catch (err) { /* below */ }
    }
    var field = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return field ? field.value : "";
  }

  /* What the server said when it refused: the page's alert, else its first error, else its status. */
  function refusal(html, response) {
    var doc = new DOMParser().parseFromString(html || "", "text/html");
    var found = doc.querySelector("#console-alert [role=alert], [role=alert], .field-error, .error, main p");
    var text = found ? found.textContent.replace(/\s+/g, " ").trim() : "";
    return (text || (response.status + " " + response.statusText)).slice(0, 400);
  }

  /* A game's entry sent before without an answer, now refused as stale (409): if the log's entry at the version
     it asked for was recorded by this judge, it was this one, recorded the first time; it is not refused. */
  function alreadyRecorded(entry, html) {
    if (!entry.unanswered || !entry.game || entry.expected === undefined) { return false; }
    var doc = new DOMParser().parseFromString(html || "", "text/html");
    var logged = doc.getElementById("entry-" + (Number(entry.expected) + 1));
    var by = logged && logged.querySelector(".entry-meta");
    return !!by && by.textContent.trim().split(" · ")[0].trim() === user;
  }

  var draining = false;
  function drain() {
    if (draining || !user || navigator.onLine === false) { return Promise.resolve(); }
    draining = true;
    var sent = [], refused = 0;
    function next(waiting) {
      var entry = waiting.shift();
      if (!entry) { return null; }
      var token = csrfToken(), body = new URLSearchParams();
      entry.fields.forEach(function (pair) { body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && token ? token : pair[1]); });
      var headers = { "X-CSRFToken": token };
      if (entry.htmx) { headers["HX-Request"] = "true"; headers["HX-Current-URL"] = location.href; }
      return fetch(entry.url, { method: "POST", body: body, headers: headers, credentials: "same-origin" }).then(function (response) {
        if (response.ok) {
          sent.push(entry);
          return forget(entry.id).then(function () { return next(waiting); });
        }
        if (response.status >= 400 && response.status < 500) {
          return response.text().then(function (html) {
            if (response.status === 409 && alreadyRecorded(entry, html)) {
              sent.push(entry);
              return forget(entry.id);
            }
            refused += 1;
            entry.state = "refused";
            entry.message = refusal(html, response);
            return save(entry);
          }).then(function () { return next(waiting); });
        }
        return null; // the server failed (5xx): the entry waits for the next try
      }, function () {
        // No answer: the entry may have reached the server or not; the next try finds out (alreadyRecorded).
        entry.unanswered = true;
        return save(entry).then(function () { return null; });
      });
    }
    return mine().then(function (all) {
      return next(all.filter(function (entry) { return entry.state === "queued"; }));
    }).catch(function () { return null; }).then(function () {
      draining = false;
      render();
      if (sent.length || refused) { caughtUp(sent); }
    });
  }

  /* Entries were recorded: the console shows the game as it is now; a judges' page is loaded again. */
  function caughtUp(sent) {
    var console_ = document.getElementById("console");
    if (console_ && window.htmx) {
      window.htmx.ajax("GET", location.pathname, { target: "#console", select: "#console", swap: "outerHTML" });
    } else if (sent.some(function (entry) { return !entry.htmx && entry.page === location.pathname; })) {
      location.reload();
    }
  }

  function render() {
    var box = document.querySelector("[data-pwa-outbox]");
    if (!box || !window.indexedDB) { return Promise.resolve(); }
    return mine().then(function (entries) {
      var list = box.querySelector("[data-pwa-outbox-list]"), queued = entries.filter(function (e) { return e.state === "queued"; }).length;
      var badge = box.querySelector("[data-pwa-queued]");
      badge.textContent = interpolate(ngettext("%(count)s entry waiting to be sent", "%(count)s entries waiting to be sent", queued), { count: queued });
      badge.hidden = queued === 0;
      list.textContent = "";
      entries.forEach(function (entry) {
        var item = document.createElement("li"), state = document.createElement("span");
        item.className = "pwa-entry pwa-" + entry.state;
        item.dataset.pwaEntry = entry.state;
        var label = document.createElement("strong");
        label.textContent = entry.label;
        item.appendChild(label);
        item.appendChild(document.createTextNode(" "));
        state.className = "badge " + (entry.state === "refused" ? "badge-refused" : "badge-pending");
        state.textContent = entry.state === "refused" ? gettext("Refused") : gettext("Waiting for the network");
        item.appendChild(state);
        if (entry.state === "refused") {
          var message = document.createElement("p");
          message.className = "pwa-message small";
          message.textContent = entry.message;
          item.appendChild(message);
          var dismiss = document.createElement("button");
          dismiss.type = "button";
          dismiss.textContent = gettext("Dismiss");
          dismiss.setAttribute("aria-label", interpolate(gettext("Dismiss: %(entry)s"), { entry: entry.label }));
          dismiss.addEventListener("click", function () { forget(entry.id).then(render); });
          item.appendChild(dismiss);
        }
        list.appendChild(item);
      });
      box.hidden = entries.length === 0;
    }).catch(function () { return null; });
  }

  function start() {
    banner();
    probe();
    render().then(function () { if (navigator.onLine !== false) { drain(); } });
    setInterval(function () { if (navigator.onLine !== false) { drain(); } }, 20000);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
