"""A push received, in Chromium: a Spanish-speaking player's round is paired and her browser's service worker shows
the notification, in Spanish, naming her table and opponent.

A headless Chromium here cannot subscribe at its own push service (Google's, out of reach), so the test stands in
for the push service: the player's subscription is a test browser's (:class:`tests.support.notifications.Browser`,
its own P-256 keys) at a local :class:`~tests.support.notifications.PushEndpoint`, registered from her page through
the API as ``static/js/push.js`` registers a real one.  The real pipeline (the round's domain event, the reader, the
delivery task in-process, pywebpush) sends the encrypted, VAPID-signed push there; the test decrypts it with the
subscription's keys, then hands exactly that payload to the page's real service worker (``/sw.js``, which imports
``static/js/sw-push.js``) through the DevTools protocol (``ServiceWorker.deliverPushMessage``), as the push service
would.  What the worker shows is read back with ``registration.getNotifications()``.
"""

from __future__ import annotations

import datetime
import json

import pytest
from django.test import override_settings
from django.utils import translation
from playwright.sync_api import expect

from accounts import services as account_services
from notifications import push
from tests.browser.conftest import PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.notifications import Browser, PushEndpoint
from tournaments import services, words

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The page posts the subscription as push.js does: JSON, the session's cookie and the form's CSRF token.
SUBSCRIBE = """async ([url, subscription]) => {
  const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const response = await fetch(url, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": token}, body: JSON.stringify(subscription)});
  return response.status;
}"""

#: What the service worker shows now (title, body, tag, lang, data) for this page's scope.
SHOWN = """async () => (await (await navigator.serviceWorker.ready).getNotifications()).map(
  (n) => ({title: n.title, body: n.body, tag: n.tag, lang: n.lang, data: n.data}))"""


@pytest.fixture
def pushing(live_server):
    endpoint, keys = PushEndpoint().start(), push.generate_keys()
    with override_settings(
        VAPID_PUBLIC_KEY=keys.public, VAPID_PRIVATE_KEY=keys.private, VAPID_SUBJECT="mailto:td@podium.test",
        PODIUM_SITE_URL=live_server.url, PODIUM_PUSH_LOCAL_ENDPOINTS=True,
    ):  # fmt: skip
        yield endpoint
    endpoint.stop()


def worker_registration(page, cdp) -> str:
    """The id of the page's service worker registration, as DevTools names it: ``ServiceWorker.enable`` reports
    every registration of the context in events that arrive after its answer, so they are waited for (boundedly)."""
    found: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: found.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(100):
        live = [r for r in found if not r["isDeleted"]]
        if live:
            break
        page.wait_for_timeout(20)  # lets Playwright dispatch the session's events
    assert len(live) == 1, found
    return live[0]["registrationId"]


def notifications_shown(page, *, until) -> list[dict]:
    """The notifications the worker shows, once ``until(them)`` holds (a push is handled after DevTools answers;
    polled here, as ``page.wait_for_function`` would take the promise of an async check for a truthy answer)."""
    for _ in range(100):
        shown = page.evaluate(SHOWN)
        if until(shown):
            return shown
        page.wait_for_timeout(50)
    raise AssertionError(f"the service worker shows {shown}")


def test_a_spanish_speaking_player_is_shown_her_pairing_by_the_service_worker(
    new_page, organiser, django_user_model, pushing, live_server
):
    endpoint = pushing
    lucia = django_user_model.objects.create_user(username="lucia", password="pw")
    account_services.account_language_set(user=lucia, language="es")
    event = services.event_create(
        organiser=organiser, name="Torneo de Madrid", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 5),
    )  # fmt: skip
    for player in (PlayerFactory(display_name="Lucía Pérez", user=lucia), PlayerFactory(display_name="Seto Kaiba")):
        RegistrationFactory(event=event, player=player, checked_in=True)

    # Her notifications page, with notifications allowed, and Podium's service worker active.
    page = new_page(viewport=PHONE, user=lucia)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.goto("/me/notifications/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert page.evaluate("async () => (await navigator.serviceWorker.ready).active.scriptURL").endswith("/sw.js")
    assert page.evaluate("Notification.permission") == "granted"

    # Her browser's subscription (the test's stand-in), registered from the page as push.js does.
    phone = Browser(endpoint.base + "/push/lucia")
    assert page.evaluate(SUBSCRIBE, ["/api/v1/me/push-subscriptions/", phone.subscription()]) == 201

    # The round is paired: the real pipeline pushes to her subscription, encrypted for it and signed (VAPID).
    services.round_start(event=event, by=organiser, seed=5)
    [pushed] = endpoint.to("/push/lucia")
    assert pushed["headers"]["authorization"].startswith("vapid t=")
    message = phone.read(pushed)
    with translation.override("es"):
        title = translation.gettext("%(event)s: %(round)s is paired") % {
            "event": event.name, "round": words.round_name(1, cut=False, tables=0, pods=False),
        }  # fmt: skip
        body = translation.gettext("Table %(table)s, against %(opponents)s.") % {"table": 1, "opponents": "Seto Kaiba"}
    assert body != "Table 1, against Seto Kaiba."  # Spanish, not the English left untranslated
    assert (message["title"], message["body"], message["lang"]) == (title, body, "es")

    # The push service hands exactly that payload to her browser's service worker, which shows it.
    cdp = page.context.new_cdp_session(page)
    registration = worker_registration(page, cdp)
    deliver = {"origin": live_server.url, "registrationId": registration}
    cdp.send("ServiceWorker.deliverPushMessage", {**deliver, "data": json.dumps(message)})
    [shown] = notifications_shown(page, until=lambda shown: len(shown) > 0)
    assert (shown["title"], shown["body"], shown["lang"]) == (title, body, "es")
    assert shown["tag"] == message["tag"] == f"round_paired:round:{event.rounds.get().pk}:table:1"
    assert shown["data"] == {"url": f"{live_server.url}/me/"}

    # A newer message with the same tag (the same round and table) replaces it: still one notification.
    newer = {**message, "body": body + " (2)"}
    cdp.send("ServiceWorker.deliverPushMessage", {**deliver, "data": json.dumps(newer)})
    shown_now = notifications_shown(page, until=lambda shown: any(n["body"] == newer["body"] for n in shown))
    assert [n["body"] for n in shown_now] == [newer["body"]]
