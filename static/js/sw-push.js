// The service worker's push handling, for the PWA's service worker (/sw.js) to import:
//
//     importScripts("/static/js/sw-push.js");
//
// A push from Podium (notifications/push.py) is JSON: {title, body, url, tag, kind, lang}.  It is shown as a
// notification (one per tag: a newer message about the same round or table replaces the older one); a click opens
// the page it links to, or focuses a window already showing it.  No third-party code.
/* eslint-env serviceworker */
(function () {
  "use strict";

  self.addEventListener("push", function (event) {
    var message = {};
    try {
      message = event.data ? event.data.json() : {};
    } catch (error) {
      message = { title: "Podium", body: event.data ? event.data.text() : "" };
    }
    var options = {
      body: message.body || "",
      tag: message.tag || undefined,
      renotify: !!message.tag,
      lang: message.lang || undefined,
      data: { url: message.url || "/me/" },
    };
    event.waitUntil(self.registration.showNotification(message.title || "Podium", options));
  });

  self.addEventListener("notificationclick", function (event) {
    event.notification.close();
    var url = (event.notification.data && event.notification.data.url) || "/me/";
    event.waitUntil(
      self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
        for (var i = 0; i < windows.length; i++) {
          if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
        }
        return self.clients.openWindow ? self.clients.openWindow(url) : null;
      })
    );
  });
})();
