"""The installable app's three answers (core.pwa): the manifest, the service worker and the offline page."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_start_its_scope_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert (manifest["name"], manifest["short_name"]) == ("Podium", "Podium")
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/me/", "/", "standalone")
    assert manifest["theme_color"] == "#1d2330"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    assert [s["url"] for s in manifest["shortcuts"]] == ["/me/", "/events/"]


def test_on_an_events_page_the_manifest_has_shortcuts_to_its_pairings_and_its_judge_console(client):
    shortcuts = json.loads(client.get("/manifest.webmanifest?event=12").content)["shortcuts"]
    assert [s["url"] for s in shortcuts[:2]] == ["/events/12/pairings/", "/dashboard/events/12/judge/"]
    # Anything but an event's number is no event.
    assert len(json.loads(client.get("/manifest.webmanifest?event=-3").content)["shortcuts"]) == 2


def test_the_service_worker_is_served_from_the_root_and_checked_at_each_visit(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert "__VERSION__" not in body
    assert '"/static/css/podium.css"' in body and '"/offline/"' in body


def test_the_service_worker_imports_the_push_handler_only_when_it_exists(client, monkeypatch):
    from core import pwa

    monkeypatch.setattr(pwa.finders, "find", lambda path: None)
    assert "importScripts" not in client.get("/sw.js").content.decode()
    monkeypatch.setattr(pwa.finders, "find", lambda path: "/somewhere/" + path)
    assert 'importScripts("/static/js/sw-push.js")' in client.get("/sw.js").content.decode()


def test_the_offline_page_names_nobody(client, organiser):
    client.force_login(organiser)
    response = client.get("/offline/")
    assert response.status_code == 200
    assert b"You are offline" in response.content and b"organiser" not in response.content


def test_every_page_links_the_manifest_and_its_script(client):
    body = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in body
    assert "/static/js/pwa.js" in body
