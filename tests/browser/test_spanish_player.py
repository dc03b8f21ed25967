"""A Spanish-speaking player, end to end, on a phone: signs up, gets the pages, the mail and the push in Spanish,
has Podium installed, loses the network at the table and still sees their pairing.

The browser asks for Spanish (``Accept-Language: es-ES``), so the sign-up page is in Spanish and the account keeps
Spanish as its language; the round's pairing then reaches the player by e-mail (a real SMTP server in this
process) and by Web Push (a local push endpoint, the push decrypted with the test subscription's key), both in
Spanish; their page, kept by the service worker, still shows their table and opponent offline, under the Spanish
offline banner.  Every expected word is read from the Spanish catalogue, and must differ from the English: an
untranslated word fails the test.
"""

from __future__ import annotations

import datetime
from email.header import decode_header, make_header

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import translation
from playwright.sync_api import expect

from notifications import push
from notifications import services as notification_services
from tests.browser.conftest import PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check
from tests.support.notifications import Browser, MailServer, PushEndpoint, body_of
from tournaments import services, words
from tournaments.services import registrations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def spanish(text: str, *, context: str | None = None) -> str:
    """The catalogue's Spanish for ``text``; an untranslated word fails here."""
    with translation.override("es"):
        said = translation.pgettext(context, text) if context else translation.gettext(text)
    assert said != text, f"{text!r} has no Spanish"
    return said


@pytest.fixture
def wired(django_mail_patch_dns, live_server):
    mail, endpoint, keys = MailServer().start(), PushEndpoint().start(), push.generate_keys()
    with override_settings(
        MAILERS={"default": mail.mailer()}, VAPID_PUBLIC_KEY=keys.public, VAPID_PRIVATE_KEY=keys.private,
        VAPID_SUBJECT="mailto:td@podium.test", PODIUM_SITE_URL=live_server.url, PODIUM_PUSH_LOCAL_ENDPOINTS=True,
    ):  # fmt: skip
        yield mail, endpoint
    mail.stop()
    endpoint.stop()


def test_a_spanish_speaking_player_signs_up_is_told_in_spanish_and_keeps_their_pairing_offline(
    new_page, organiser, wired, tmp_path
):
    mail, endpoint = wired
    event = services.event_create(
        organiser=organiser, name="Torneo de Madrid", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 5),
    )  # fmt: skip
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Seto Kaiba"), checked_in=True)

    # Sign-up, in Spanish because the phone's browser asks for it.
    page = new_page(viewport=PHONE)
    page.set_extra_http_headers({"Accept-Language": "es-ES,es;q=0.9"})
    page.goto("/accounts/signup/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("heading", name=spanish("Create an account"))).to_be_visible()
    axe_check(page)
    assert_fits(page)
    page.locator("input[name=username]").fill("lucia")
    page.locator("input[name=display_name]").fill("Lucía Pérez")
    page.locator("input[name=email]").fill("lucia@podium.test")
    page.locator("input[name=password1]").fill("castillo de madrid 1995")
    page.locator("input[name=password2]").fill("castillo de madrid 1995")
    page.get_by_role("button", name=spanish("Create the account")).click()
    page.wait_for_url("**/me/**")
    lucia = get_user_model().objects.get(username="lucia")
    assert lucia.preferences.language == "es"  # the browser's language, kept as the account's

    # She wants her pairings by mail and on her phone (the push subscription is the test's stand-in browser's).
    notification_services.preferences_set(user=lucia, choices={"round_paired": {"email": True, "push": True}})
    phone = Browser(endpoint.base + "/push/lucia")
    keys = phone.subscription()["keys"]
    notification_services.push_subscription_add(
        user=lucia, endpoint=phone.endpoint, p256dh=keys["p256dh"], auth=keys["auth"]
    )
    services.event_update(event=event, by=organiser, registration_open=True)
    mine = registrations.registration_self_register(event=event, by=lucia)
    services.registration_check_in(registration=mine, by=organiser)
    services.round_start(event=event, by=organiser, seed=5)

    with translation.override("es"):
        title = translation.gettext("%(event)s: %(round)s is paired") % {
            "event": event.name, "round": words.round_name(1, cut=False, tables=0, pods=False),
        }  # fmt: skip
        body = translation.gettext("Table %(table)s, against %(opponents)s.") % {"table": 1, "opponents": "Seto Kaiba"}
    assert title != f"{event.name}: Round 1 is paired"
    [message] = mail.wait(1)
    subject = str(make_header(decode_header(message["Subject"])))
    assert subject.endswith(title) and message["Content-Language"] == "es"
    assert body in body_of(message, "plain")
    [pushed] = endpoint.to("/push/lucia")
    shown = phone.read(pushed)
    assert shown["lang"] == "es" and shown["title"] == title and shown["body"] == body

    # Her page, kept on the phone: offline at the table, her pairing is still there.
    page.goto("/me/")
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.reload()
    table = page.locator(".my-table")
    expect(table).to_contain_text(spanish("Table %(table)s") % {"table": 1})
    page.context.set_offline(True)
    page.reload()
    expect(page.locator('meta[name="podium-pwa"]')).to_have_attribute("data-served", "cache")
    banner = page.locator("[data-pwa-offline]")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(
        spanish("What you see is the copy kept on this device; it updates when the network comes back.")
    )
    expect(table.locator(".opponents")).to_contain_text("Seto Kaiba")
    axe_check(page)
    assert_fits(page)
    page.screenshot(path=str(tmp_path / "offline-es.png"), full_page=True)
