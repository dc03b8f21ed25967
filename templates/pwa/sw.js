{% autoescape off %}/* Podium's service worker (served by core.pwa.service_worker at /sw.js, scope /).

   - Install: precache the app shell (styles, scripts, icons, the offline page) under a cache named after this
     worker's version; activate drops the caches of older versions.
   - Pages that must stay readable at a table without a network -- the player's page (/me/), an event's pairings,
     the judge console and the judges' page -- are network-first: each answer the network gives (200, the page
     itself, not a redirect) replaces the kept copy; without a network the kept copy is shown, marked so that
     static/js/pwa.js shows the "offline -- last updated" banner.  Other pages fall back to the offline page.
   - Static files are stale-while-revalidate: the kept copy at once, a fresh one fetched for the next time.
   - Never kept: anything but a GET (writes go to the network, or to the page's outbox: static/js/pwa.js), the API,
     the live streams, fragments (?fragment=) and htmx requests.
   - Signing in or out (a POST to their pages), a kept page answered by a sign-in redirect or a refusal, and the
     page's "clear" message forget every kept page: one person's pages are never shown to the next. */
"use strict";

const VERSION = "__VERSION__";
const SHELL_CACHE = "podium-shell-" + VERSION;
const PAGES_CACHE = "podium-pages";
const SHELL = {{ shell }};
const OFFLINE_URL = {{ offline_url }};
const SIGN_PATHS = {{ sign_paths }};
const LOGIN_URL = {{ login_url }};
const KEPT_PAGES = [
  /^\/me\/$/,
  /^\/events\/\d+\/pairings\/(by-name\/)?$/,
  /^\/dashboard\/games\/\d+\/$/,
  /^\/dashboard\/events\/\d+\/rounds\/\d+\/tables\/\d+\/game\/$/,
  /^\/dashboard\/events\/\d+\/judge\/$/,
];
{% if push_handler %}
// Notifications: the push handler, when Podium ships one (core.pwa.PUSH_HANDLER).
try { importScripts({{ push_handler }}); } catch (e) { /* a worker without push still keeps the pages */ }
{% endif %}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("podium-shell-") && k !== SHELL_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

function forgetPages() {
  return caches.delete(PAGES_CACHE);
}

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "clear") {
    event.waitUntil(forgetPages().then(() => event.source && event.source.postMessage({ type: "cleared" })));
  }
});

function kept(url) {
  return KEPT_PAGES.some((pattern) => pattern.test(url.pathname));
}

/* The kept copy, marked as such (static/js/pwa.js shows the offline banner on a page marked "cache"). */
async function fromCache(key) {
  const cached = await caches.match(key, { cacheName: PAGES_CACHE });
  if (!cached) return null;
  const html = (await cached.text()).replace('data-served="network"', 'data-served="cache"');
  return new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function page(request, url) {
  const key = url.origin + url.pathname;
  try {
    const response = await fetch(request);
    const signedOut = response.redirected && new URL(response.url).pathname === LOGIN_URL;
    if (signedOut) {
      await forgetPages();
    } else if (response.ok && !response.redirected && response.type === "basic") {
      const cache = await caches.open(PAGES_CACHE);
      await cache.put(key, response.clone());
    }
    return response;
  } catch (err) {
    return (await fromCache(key)) || (await caches.match(OFFLINE_URL)) || Response.error();
  }
}

/* The judges' outbox (static/js/pwa.js keeps it; the same database): a form whose post never reached the server
   is kept, and the judge is sent back to the page they posted from, which lists it as waiting.  Its owner is the
   next signed-in page that opens it (the page the judge comes back to). */
const RECORDERS = [
  /^\/dashboard\/games\/\d+\/events\/(\d+\/void\/)?$/,
  /^\/dashboard\/events\/\d+\/rounds\/\d+\/tables\/\d+\/game\/start\/$/,
  /^\/dashboard\/events\/\d+\/judge\/(calls|assignments)\//,
  /^\/dashboard\/events\/\d+\/deck-checks\/\d+\/(start|finish|penalty)\/$/,
];

function keep(entry) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("podium-outbox", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("entries", { keyPath: "id", autoIncrement: true });
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("entries", "readwrite");
      tx.objectStore("entries").put(entry);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    };
  });
}

async function recordOrKeep(request, url) {
  const copy = request.clone();
  try {
    return await fetch(request);
  } catch (err) {
    const fields = [];
    (await copy.formData()).forEach((value, name) => { if (typeof value === "string") fields.push([name, value]); });
    const back = request.referrer ? new URL(request.referrer) : null;
    await keep({
      user: null, url: url.pathname + url.search, page: back ? back.pathname : "", htmx: false, label: "",
      fields: fields, state: "queued", message: "", at: new Date().toISOString(),
    });
    return Response.redirect(back && back.origin === url.origin ? back.href : OFFLINE_URL, 303);
  }
}

async function elsewhere(request) {
  try {
    return await fetch(request);
  } catch (err) {
    return (await caches.match(OFFLINE_URL)) || Response.error();
  }
}

async function staleWhileRevalidate(event) {
  const request = event.request;
  const cached = await caches.match(request);
  const fresh = fetch(request).then(async (response) => {
    if (response.ok && response.type === "basic") {
      const cache = await caches.open(SHELL_CACHE);
      await cache.put(request, response.clone());
    }
    return response;
  });
  if (cached) {
    event.waitUntil(fresh.catch(() => null));
    return cached;
  }
  return fresh;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Signing in or out: whoever comes next doesn't see the pages kept for the last one.
    if (SIGN_PATHS.includes(url.pathname)) event.waitUntil(forgetPages());
    // A judges' form posted without JavaScript's help (the floor's plain forms) while the network is gone.
    if (request.method === "POST" && request.mode === "navigate" && RECORDERS.some((p) => p.test(url.pathname))) {
      event.respondWith(recordOrKeep(request, url));
    }
    return;
  }
  if (url.pathname.startsWith("/api/") || url.searchParams.has("fragment") || request.headers.get("HX-Request")) return;
  if ((request.headers.get("Accept") || "").includes("text/event-stream")) return;
  if (request.mode === "navigate") {
    event.respondWith(kept(url) && !url.search ? page(request, url) : elsewhere(request));
    return;
  }
  if (url.pathname.startsWith("/static/") || ["script", "style", "image", "font"].includes(request.destination)) {
    event.respondWith(staleWhileRevalidate(event));
  }
});
{% endautoescape %}