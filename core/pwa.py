"""Podium as an installable app: the web app manifest, the service worker and the page shown offline.

* ``/manifest.webmanifest`` (:func:`manifest`): name, icons (``bin/make-icons`` draws them), the top bar's colours,
  ``start_url`` the player's page (``/me/``), ``scope`` the whole site.  Linked from every page
  (``templates/pwa/_head.html``); a page of an event links it with ``?event=<id>``, which adds shortcuts to that
  event's pairings and its judges' page.  It reads nothing from the database: a shortcut to an event the visitor
  may not see leads to the page that says so.
* ``/sw.js`` (:func:`service_worker`): the service worker, a template (``templates/pwa/sw.js``) so that it
  precaches the app shell by its static URLs (hashed in production) and imports the push handler
  (``static/js/sw-push.js``) only when that file exists.  Served from the root with ``Service-Worker-Allowed: /``
  and ``Cache-Control: no-cache``, so the browser checks for a new worker at each visit.  What it caches and when
  it forgets it is said in the template's header.
* ``/offline/`` (:func:`offline`): the page the worker shows for a page it has no copy of; it names nobody, so
  it is precached once for everyone.

The Content-Security-Policy (``SECURE_CSP``) needs nothing more: the manifest and the worker come from Podium
itself (``default-src 'self'`` covers ``manifest-src`` and ``worker-src``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

#: The top bar's ink and the page's background (static/css/podium.css, --ink and --bg).
THEME_COLOR = "#1d2330"
BACKGROUND_COLOR = "#f6f7fa"

#: What the worker stores when it is installed: the styles, the scripts and the icons of every page it keeps.
SHELL = (
    "css/podium.css",
    "css/console.css",
    "css/dashboard.css",
    "css/floor.css",
    "css/live.css",
    "js/podium.js",
    "js/pwa.js",
    "js/live.js",
    "js/live-pages.js",
    "js/console.js",
    "js/floor.js",
    "django_htmx/htmx-2.min.js",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/icon.svg",
)

#: The push handler another part of Podium may ship (notifications); the worker imports it when it exists.
PUSH_HANDLER = "js/sw-push.js"


def _event_id(request: HttpRequest) -> int | None:
    raw = request.GET.get("event", "")
    return int(raw) if raw.isascii() and raw.isdigit() and 0 < int(raw) < 2**31 else None


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    me = reverse("accounts:me")
    shortcuts: list[dict[str, Any]] = [
        {"name": _("My events"), "url": me},
        {"name": _("Events"), "url": reverse("public:events")},
    ]
    event_id = _event_id(request)
    if event_id is not None:
        shortcuts = [
            {"name": _("Pairings"), "url": reverse("public:pairings", args=[event_id])},
            {"name": _("Judge console"), "url": reverse("floor:judge", args=[event_id])},
            *shortcuts,
        ]
    icon = {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"}
    for shortcut in shortcuts:
        shortcut["icons"] = [icon]
    data = {
        "id": me,
        "name": "Podium",
        "short_name": "Podium",
        "description": _("Your table, your opponents and the round clock; the judges' console."),
        "lang": get_language() or "en",
        "start_url": me,
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            icon,
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
        "shortcuts": shortcuts,
    }
    return HttpResponse(json.dumps(data, ensure_ascii=False, indent=1), content_type="application/manifest+json")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    shell = [static(path) for path in SHELL] + [reverse("pwa-offline")]
    context = {
        "shell": json.dumps(shell),
        "offline_url": json.dumps(reverse("pwa-offline")),
        "sign_paths": json.dumps([reverse("login"), reverse("logout")]),
        "login_url": json.dumps(reverse("login")),
        "push_handler": json.dumps(static(PUSH_HANDLER)) if finders.find(PUSH_HANDLER) else "",
    }
    body = render_to_string("pwa/sw.js", context)
    # A new shell (a static file's hashed name changed) or a new worker makes a new cache; the old one is dropped.
    version = hashlib.sha256(body.encode()).hexdigest()[:12]
    response = HttpResponse(body.replace("__VERSION__", version), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@cache_control(no_cache=True)
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html", {"me_url": reverse("accounts:me")})
