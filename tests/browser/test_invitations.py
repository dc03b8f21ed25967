"""An invitation from both sides: the organiser enters a player ID that belongs to an account and sees the
invitation apart from the players; the player accepts it on ``/me/`` (a phone) and is then in the event.

Every page on the way passes axe (no serious or critical violation) and fits its screen.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check, wait_for_htmx
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.browser


@pytest.fixture
def event(organiser):
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4), venue="Battle City Games",
    )  # fmt: skip
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Joey Wheeler"))
    return event


@pytest.fixture
def ash(django_user_model):
    user = django_user_model.objects.create_user(username="ash", password="pw")
    PlayerFactory(user=user, display_name="Ash Ketchum", external_id="POP-1")
    return user


def test_the_organiser_invites_an_account_holder_who_accepts_on_their_phone(organiser_page, new_page, event, ash):
    page = organiser_page
    page.goto(f"/dashboard/events/{event.pk}/")
    wait_for_htmx(page)
    page.get_by_label("Player name").fill("Ash")
    page.get_by_label("Player ID (optional)").fill("POP-1")
    page.get_by_role("button", name="Register").click()
    invited = page.locator("#invited")
    expect(invited).to_contain_text("Ash Ketchum")
    expect(page.locator("#players-rows")).not_to_contain_text("Ash Ketchum")
    expect(page.locator("#dashboard-announcer")).to_contain_text("Invited Ash Ketchum")
    axe_check(page)

    phone = new_page(viewport=PHONE, user=ash)
    phone.goto("/me/")
    card = phone.locator(f"#invitation-{event.pk}")
    expect(card).to_contain_text("You are not in it until you accept.")
    assert_fits(phone)
    axe_check(phone)
    card.get_by_role("button", name="Accept the invitation to Duel Night").click()
    expect(phone.get_by_text("You are registered for Duel Night.")).to_be_visible()
    expect(phone.locator(f"#player-panel-{event.pk}")).to_contain_text("Registered")
    assert_fits(phone)
    axe_check(phone)
    assert Registration.objects.get(event=event, player__user=ash).status == "registered"

    page.reload()
    expect(page.locator("#players-rows")).to_contain_text("Ash Ketchum")
    expect(page.locator("#invited")).not_to_contain_text("Ash Ketchum")
