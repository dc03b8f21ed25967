/* Podium live pages: what each page of the live app does with its stream, started from data attributes (the
   Content-Security-Policy allows no inline script).  An element with data-live-page="<kind>" names the page;
   data-live-stream is the stream's URL, data-live-since the last event id the page was rendered with, and
   data-live-url the page's own URL, fetched again (?fragment=1) when a push says it changed.  Needs live.js. */
(function () {
  "use strict";
  var L = window.PodiumLive;
  /* The words are translated by Django's JavaScript catalogue (base.html loads it first); a page without it keeps
     the English. */
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };

  function json(id) {
    var element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  }

  /* Overlays are styled by query parameters the server checked: CSS variables set through the CSSOM. */
  function style(body) {
    var raw = body.dataset.overlayStyle;
    if (!raw) { return; }
    var vars = JSON.parse(raw);
    Object.keys(vars).forEach(function (name) { body.style.setProperty(name, vars[name]); });
  }

  /* Fetch the page again on these pushes. */
  function refresher(root, kinds, then) {
    var handlers = {};
    var again = function () { L.refresh(root, root.dataset.liveUrl); };
    kinds.forEach(function (kind) { handlers[kind] = again; });
    if (then) { root.addEventListener("live:refreshed", then); }
    return { handlers: handlers, again: again };
  }

  /* Show one page of items at a time, turning every `seconds`. */
  function rotate(items, size, seconds) {
    var page = 0;
    function show() {
      var all = items(), pages = Math.max(1, Math.ceil(all.length / size));
      page = page % pages;
      all.forEach(function (item, i) { item.hidden = Math.floor(i / size) !== page; });
    }
    show();
    setInterval(function () { page += 1; show(); }, seconds * 1000);
    return show;
  }

  var pages = {
    /* The public bracket and the bracket and standings overlays: fetched again when a result or round comes. */
    refresh: function (root) {
      var kinds = (root.dataset.liveOn || "snapshot round.started table.result").split(" ");
      L.follow(root.dataset.liveStream, root.dataset.liveSince, refresher(root, kinds).handlers);
    },

    /* The pairings overlay: pages of 45 tables, in turn every 10 s. */
    pairings: function (root) {
      var show = rotate(function () { return root.querySelectorAll(".pairing-grid li"); }, 45, 10);
      var r = refresher(root, ["snapshot", "round.started", "table.result"], show);
      L.follow(root.dataset.liveStream, root.dataset.liveSince, r.handlers);
    },

    /* The round timer overlay. */
    timer: function (root) {
      var clock = root.querySelector(".round-clock"), label = clock.querySelector(".clock-label");
      L.setClock(clock, json("timer-state"));
      L.follow(root.dataset.liveStream, root.dataset.liveSince, {
        "snapshot": function (data) { L.setClock(clock, data.timer); if (label && data.round) { label.textContent = data.round.label; } },
        "round.started": function (data) { if (label) { label.textContent = data.round.label; } L.setClock(clock, { state: "not_started", remaining: null }); },
        "timer.changed": function (data) { if (data.table === null) { L.setClock(clock, data.timer); } }
      });
    },

    /* The venue display: one panel at a time, every 12 s; the panels fetched again after a push. */
    display: function (root) {
      var clock = document.querySelector(".display-clock"), label = clock.querySelector(".clock-label");
      var show = rotate(function () { return root.querySelectorAll(".panel"); }, 1, 12);
      var r = refresher(root, ["table.result", "standings.updated"], show);
      L.setClock(clock, json("timer-state"));
      r.handlers.snapshot = function (data) { L.setClock(clock, data.timer); r.again(); };
      r.handlers["round.started"] = function (data) {
        if (label) { label.textContent = data.round.label; }
        L.setClock(clock, { state: "not_started", remaining: null });
        r.again();
      };
      r.handlers["timer.changed"] = function (data) { if (data.table === null) { L.setClock(clock, data.timer); } };
      L.follow(root.dataset.liveStream, root.dataset.liveSince, r.handlers);
    },

    /* The feature match: counters change in place as the judge records the game; the rest is fetched again. */
    feature: function (root) {
      function state() { return json("feature-state"); }
      function clock() { L.setClock(root.querySelector(".feature-clock"), state().timer); }
      function counter(counters, c) {
        var el = counters.querySelector('[data-counter="' + c.name + '"]');
        if (!el) {
          el = document.createElement("span"); el.className = "counter counter-" + c.name; el.dataset.counter = c.name;
          var label = document.createElement("span"); label.className = "label"; label.textContent = c.label;
          var value = document.createElement("span"); value.className = "value";
          el.appendChild(label); el.appendChild(document.createTextNode(" ")); el.appendChild(value); counters.appendChild(el);
        }
        var shown = el.querySelector(".value");
        if (shown.textContent !== String(c.value)) {
          shown.textContent = c.value; el.classList.remove("changed"); void el.offsetWidth; el.classList.add("changed");
        }
      }
      function conditions(box, list) {
        if (!box) { return; }
        var shown = Array.prototype.map.call(box.querySelectorAll(".condition"), function (el) { return el.textContent; });
        if (shown.join("\n") === list.join("\n")) { return; }
        box.textContent = "";
        list.forEach(function (c) {
          var el = document.createElement("span"); el.className = "condition"; el.textContent = c; box.appendChild(el);
        });
        box.hidden = !list.length;
      }
      function players(list) {
        list.forEach(function (p) {
          var plate = root.querySelector('[data-player="' + p.id + '"]');
          if (!plate) { return; }
          plate.classList.toggle("active", !!p.active);
          plate.classList.toggle("out", !!p.out);
          plate.querySelector(".turn").hidden = !p.active;
          plate.querySelector(".out-label").hidden = !p.out;
          var counters = plate.querySelector(".counters");
          (p.counters || []).forEach(function (c) { counter(counters, c); });
          conditions(plate.querySelector(".conditions"), p.status_conditions || []);
          if (p.game_wins !== null && p.game_wins !== undefined) {
            plate.querySelectorAll(".win").forEach(function (dot, i) { dot.classList.toggle("won", i < p.game_wins); });
          }
        });
      }
      var r = refresher(root, ["snapshot", "feature.changed", "table.result", "round.started"], clock);
      r.handlers["game.state_changed"] = function (data) {
        var current = state();
        if (!current.round || data.round !== current.round.number || data.table !== current.table) { return r.again(); }
        if (!current.game || data.game.id !== current.game.id) { return r.again(); }
        players(data.players);
        var caption = document.getElementById("caption");
        if (caption && data.entry) { caption.textContent = data.entry.summary || data.entry.label; }
      };
      r.handlers["timer.changed"] = function (data) {
        var current = state();
        if (data.table !== null && data.table !== current.table) { return; }
        if (data.table === null && current.timer && current.timer.extension) { return r.again(); }
        L.setClock(root.querySelector(".feature-clock"), data.timer);
      };
      clock();
      L.follow(root.dataset.liveStream, state().seq, r.handlers);
    },

    /* The dashboard's round clock card: set from the page, corrected on each push of this round's clock; when the
       push changes the clock's state (another's pause, every result in) the card is fetched again with its buttons. */
    "timer-card": function (root) {
      var clock = root.querySelector(".dashboard-clock"), round = parseInt(root.dataset.liveRound || "0", 10);
      if (!clock) { return; }
      L.setClock(clock, json("round-timer-state"));
      if (window.__podiumTimerSource) { window.__podiumTimerSource.close(); }
      window.__podiumTimerSource = L.follow(root.dataset.liveStream, root.dataset.liveSince, {
        "timer.changed": function (data) {
          if (data.table !== null || data.timer.round !== round) { return; }
          L.setClock(clock, data.timer);
          if (data.timer.state !== root.dataset.liveState && window.htmx && root.dataset.liveUrl) {
            root.dataset.liveState = data.timer.state;
            window.htmx.ajax("GET", root.dataset.liveUrl, { target: root, swap: "outerHTML" });
          }
        }
      });
    },

    /* A player's table clock (/me/, the event page, check-in): the round's clock plus the table's extra time. */
    "table-clock": function (root) {
      var clock = root.querySelector(".table-clock"), note = root.querySelector(".clock-note");
      var round = parseInt(root.dataset.liveRound, 10), table = parseInt(root.dataset.liveTable, 10);
      var extra = parseInt(root.dataset.liveExtension || "0", 10);
      if (!clock) { return; }
      function later(timer, seconds) {
        var shifted = Object.assign({}, timer, { extension: seconds });
        if (shifted.deadline && seconds) { shifted.deadline = new Date(Date.parse(shifted.deadline) + seconds * 1000).toISOString(); }
        if (typeof shifted.remaining === "number") { shifted.remaining += seconds; }
        return shifted;
      }
      function show(timer) {
        L.setClock(clock, timer);
        var text = timer.state === "not_started" ? gettext("The clock has not started.")
          : timer.state === "paused" ? gettext("The clock is paused.")
          : timer.state === "finished" ? gettext("Every table has its result: the round is over.") : "";
        if (extra) {
          text += (text ? " " : "") + interpolate(
            gettext("Your table has %(minutes)s min of extra time."), { minutes: Math.round(extra / 60) }, true);
        }
        note.textContent = text;
      }
      var remaining = clock.dataset.remaining;
      L.setClock(clock, { state: clock.dataset.state, deadline: clock.dataset.deadline || null,
                          remaining: remaining === "" ? null : parseInt(remaining, 10), server_time: root.dataset.liveServerTime });
      function timerChanged(data) {
        if (!data.timer || data.timer.round !== round) { return; }
        if (data.table === null) { show(later(data.timer, extra)); }
        else if (data.table === table) { extra = data.timer.extension || 0; show(data.timer); }
      }
      /* In a panel that follows the event's stream, that stream feeds the clock (one stream per panel), and a new
         round brings a new panel. */
      if (root.closest("[data-live-page='player-panel']")) {
        root.addEventListener("live:timer.changed", function (event) { timerChanged(event.detail); });
        return;
      }
      /* A panel swapped in by htmx starts again: one stream per table clock. */
      var streams = window.__podiumTableClocks = window.__podiumTableClocks || {};
      if (streams[root.id]) { streams[root.id].close(); }
      streams[root.id] = L.follow(root.dataset.liveStream, root.dataset.liveSince, {
        "timer.changed": timerChanged,
        "round.started": function (data) {
          if (!data.round) { return; }
          if (data.round.number !== round) {
            clock.hidden = true;
            note.textContent = interpolate(
              gettext("%(round)s is paired: reload the page to see your table."), { round: data.round.label }, true);
          } else if (data.change === "repaired" || data.change === "swapped") {
            note.textContent = gettext("The round's pairings changed: reload the page to see your table.");
          }
        }
      });
    },

    /* A player's panel of an event (/me/, the event page, check-in: accounts/_live_panel.html).  When a round is
       paired, or a report, a result or a judge call's change comes at the player's table, the panel is fetched again (data-live-url) and
       swapped in if what it says changed, so the news of the player's own action stays; a swap waits for the
       player's own request to answer, keeps the focus in the panel, and the table is announced politely.  The
       table's clock inside is fed by the same stream. */
    "player-panel": function (root) {
      var player = parseInt(root.dataset.livePlayer, 10), announce = root.querySelector("[data-live-announce]");
      var waiting = null, fetching = false, dirty = false;
      function current() { return root.querySelector(".player-panel"); }
      function mine(data) {
        return (data.players || []).some(function (p) { return (p !== null && typeof p === "object" ? p.id : p) === player; });
      }
      /* What a panel says, without its news and its clock (the stream sets that). */
      function says(panel) {
        var copy = panel.cloneNode(true);
        copy.querySelectorAll("[role='status'], .table-clock-box").forEach(function (el) { el.remove(); });
        return copy.textContent.replace(/\s+/g, " ").trim();
      }
      function busy(panel) { return !!(panel && panel.querySelector(".htmx-request")); }
      function swap(fresh) {
        var old = current();
        if (!old) { return; }
        if (busy(old)) { again(); return; } // the player's own action answers first; then compare again
        if (says(old) === says(fresh)) { return; }
        var focused = old.contains(document.activeElement);
        old.replaceWith(fresh);
        if (window.htmx) { window.htmx.process(fresh); }
        start(root);
        L.tick();
        if (focused) { fresh.setAttribute("tabindex", "-1"); fresh.focus(); }
        var table = fresh.querySelector("[data-live-summary]");
        if (announce) { announce.textContent = table ? table.dataset.liveSummary : ""; }
      }
      /* At most one fetch at a time, 300 ms after the first push; a push during a fetch asks for another after it. */
      function again() {
        if (fetching) { dirty = true; return; }
        if (waiting) { return; }
        waiting = setTimeout(function () {
          waiting = null; fetching = true; dirty = false;
          fetch(root.dataset.liveUrl, { headers: { "Accept": "text/html" }, credentials: "same-origin" })
            .then(function (response) { return response.ok ? response.text() : null; })
            .then(function (html) {
              if (html === null) { return; }
              var box = document.createElement("div");
              box.innerHTML = html;
              var fresh = box.querySelector(".player-panel");
              if (fresh) { swap(fresh); }
            })
            .catch(function () { return null; })
            .then(function () {
              fetching = false;
              if (dirty) { again(); }
            });
        }, 300);
      }
      function ifMine(data) { if (mine(data)) { again(); } }
      L.follow(root.dataset.liveStream, root.dataset.liveSince, {
        "snapshot": again,
        "round.started": again,
        "table.result": ifMine,
        "table.report_changed": ifMine,
        "judge_call.changed": ifMine,
        "timer.changed": function (data) {
          root.querySelectorAll("[data-live-page='table-clock']").forEach(function (clock) {
            clock.dispatchEvent(new CustomEvent("live:timer.changed", { detail: data }));
          });
        }
      });
    },

    /* The caster's page: each preview shows the whole 1920x1080 overlay, scaled to the width of its box. */
    caster: function () {
      function fit() {
        document.querySelectorAll(".preview").forEach(function (box) {
          var frame = box.querySelector("iframe");
          if (frame) { frame.style.transform = "scale(" + (box.clientWidth / 1920) + ")"; }
        });
      }
      fit();
      window.addEventListener("resize", fit);
    }
  };

  function start(scope) {
    (scope || document).querySelectorAll("[data-live-page]").forEach(function (root) {
      if (root.dataset.liveStarted) { return; }
      root.dataset.liveStarted = "yes";
      var page = pages[root.dataset.livePage];
      if (page) { page(root); }
    });
  }

  function ready() {
    style(document.body);
    start(document);
    /* The dashboard swaps its round clock card in with htmx: start the new one. */
    document.body.addEventListener("htmx:afterSwap", function () { start(document); });
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { ready(); }
}());
