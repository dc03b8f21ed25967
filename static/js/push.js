// Push on this device: the button on /me/notifications/ subscribes this browser to Web Push through the service
// worker's registration and sends the browser's PushSubscription JSON to POST /api/v1/me/push-subscriptions/
// (DELETE when turned off).  No third-party code.  The service worker is the PWA's (/sw.js), which imports
// static/js/sw-push.js for the push events; this file only registers /sw.js when no service worker is registered
// yet, through one helper the PWA's code shares (window.podiumServiceWorker), so it is registered in one way.
(function () {
  "use strict";

  var SW_URL = "/sw.js";

  // The registration of this page's service worker: the one registered (by the PWA's code or earlier), or /sw.js
  // registered now.  Shared: whichever script runs first defines it.
  if (!window.podiumServiceWorker) {
    window.podiumServiceWorker = function () {
      if (!("serviceWorker" in navigator)) return Promise.reject(new Error("no service worker"));
      return navigator.serviceWorker.getRegistration().then(function (found) {
        if (found) return navigator.serviceWorker.ready;
        return navigator.serviceWorker.register(SW_URL).then(function () { return navigator.serviceWorker.ready; });
      });
    };
  }

  function keyBytes(base64url) {
    var padded = base64url + "=".repeat((4 - (base64url.length % 4)) % 4);
    var raw = atob(padded.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function send(method, url, body) {
    return fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body),
    }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response;
    });
  }

  function start(box) {
    var on = document.getElementById("push-on");
    var off = document.getElementById("push-off");
    var status = document.getElementById("push-status");
    var endpoint = box.dataset.endpoint;

    function say(what) { status.textContent = status.dataset[what] || ""; }
    function show(subscribed) {
      on.hidden = subscribed;
      off.hidden = !subscribed;
      say(subscribed ? "on" : "off");
    }

    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      say("unsupported");
      return;
    }
    if (Notification.permission === "denied") say("denied");

    navigator.serviceWorker.getRegistration().then(function (registration) {
      if (!registration) return show(false);
      return registration.pushManager.getSubscription().then(function (subscription) { show(!!subscription); });
    }).catch(function () { show(false); });

    on.addEventListener("click", function () {
      on.disabled = true;
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") throw new Error("denied");
        return window.podiumServiceWorker();
      }).then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.vapidKey),
        });
      }).then(function (subscription) {
        return send("POST", endpoint, subscription.toJSON());
      }).then(function () {
        show(true);
      }).catch(function (error) {
        say(error && error.message === "denied" ? "denied" : "failed");
      }).finally(function () { on.disabled = false; });
    });

    off.addEventListener("click", function () {
      off.disabled = true;
      navigator.serviceWorker.getRegistration().then(function (registration) {
        return registration ? registration.pushManager.getSubscription() : null;
      }).then(function (subscription) {
        if (!subscription) return null;
        var gone = subscription.endpoint;
        return subscription.unsubscribe().then(function () { return send("DELETE", endpoint, { endpoint: gone }); });
      }).then(function () {
        show(false);
      }).catch(function () {
        say("failed");
      }).finally(function () { off.disabled = false; });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("push-controls");
    if (box) start(box);
  });
})();
