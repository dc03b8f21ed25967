"""The notifications page in a real browser, at phone width, checked by axe-core: a player reaches it from /me/,
turns a kind on by e-mail and saves; the push button is offered where the browser can push (Chromium on localhost).
Receiving pushes is tested against a real push endpoint in ``tests/notifications/``, and shown by the page's own
service worker in ``test_push_received.py`` (a headless browser's push service is Google's, out of reach here)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from notifications import push
from notifications.models import Preference
from tests.browser.conftest import PHONE
from tests.support.browser import assert_fits, axe_check

pytestmark = pytest.mark.browser

KEYS = push.generate_keys()


def test_a_player_chooses_their_notifications_on_a_phone(new_page, django_user_model, tmp_path):
    user = django_user_model.objects.create_user(username="yugi", password="pw", email="yugi@podium.test")
    shots = Path(os.environ.get("PODIUM_SCREENSHOTS", tmp_path))
    with override_settings(VAPID_PUBLIC_KEY=KEYS.public, VAPID_PRIVATE_KEY=KEYS.private):
        page = new_page(viewport=PHONE, user=user)
        page.goto("/me/")
        page.get_by_role("link", name="Notifications").click()
        expect(page.get_by_role("heading", name="Notifications", level=1)).to_be_visible()
        expect(page.get_by_role("button", name="Turn on push on this device")).to_be_visible()
        expect(page.get_by_role("status")).to_have_text("This device does not receive pushes.")
        page.get_by_role("group", name="Round paired: your table and opponents").get_by_label("E-mail").check()
        page.get_by_role("button", name="Save").click()
        expect(page.get_by_text("Your notification choices are saved.")).to_be_visible()
        axe_check(page)
        assert_fits(page)
        page.screenshot(path=shots / "notifications-phone.png", full_page=True)
    chosen = Preference.objects.get(user=user, kind="round_paired")
    assert (chosen.email, chosen.push) == (True, True)
