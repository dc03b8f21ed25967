"""Scarce places from both sides: a player applies to an event's lottery on their phone, the organiser draws it on
the dashboard, the player finds their place and the fee to pay, and the organiser marks it paid.

Every page on the way passes axe (no serious or critical violation) and fits its screen.
"""

from __future__ import annotations

import datetime
import os
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check, wait_for_htmx
from tournaments import services
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.browser

#: Where to keep the pages' screenshots for a person to look at (unset: none are taken).
SHOTS = os.environ.get("PODIUM_SCREENSHOTS", "")


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


@pytest.fixture
def event(organiser):
    event = services.event_create(
        organiser=organiser, name="Regional Cup", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4), venue="Battle City Games",
    )  # fmt: skip
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Joey Wheeler"), checked_in=False)
    return services.event_update(
        event=event, by=organiser, capacity=2, lottery=True, registration_open=True, entry_fee=Decimal("15.00"),
        fee_currency="EUR", checkout_url="https://shop.example.org/regional", unpaid_check_in=False,
    )  # fmt: skip


@pytest.fixture
def ash(django_user_model):
    user = django_user_model.objects.create_user(username="ash", password="pw")
    PlayerFactory(user=user, display_name="Ash Ketchum")
    return user


def test_a_player_applies_the_organiser_draws_and_marks_the_fee_paid(organiser_page, new_page, organiser, event, ash):
    phone = new_page(viewport=PHONE, user=ash)
    phone.goto(f"/events/{event.pk}/")
    expect(phone.locator("#entry")).to_contain_text("Entry fee: 15.00 EUR")
    phone.get_by_role("button", name="Apply to the lottery").click()
    panel = phone.locator(f"#player-panel-{event.pk}")
    expect(panel).to_contain_text("You have applied to the lottery for Regional Cup")
    expect(panel).to_contain_text("Applied to the lottery")
    assert_fits(phone)
    axe_check(phone)
    shot(phone, "1-player-applied")

    page = organiser_page
    page.goto(f"/dashboard/events/{event.pk}/")
    wait_for_htmx(page)
    lottery = page.locator("#lottery")
    expect(lottery).to_contain_text("1 applicant for 2 places")
    axe_check(page)
    shot(page, "2-dashboard-before-draw")
    page.get_by_label("Seed (optional)").fill("2026")
    page.get_by_role("button", name="Draw the lottery").click()
    expect(page.get_by_text("Lottery drawn (seed 2026): 1 registered, 0 on the waiting list")).to_be_visible()
    expect(page.locator("#lottery")).to_contain_text("with seed 2026")
    axe_check(page)

    phone.goto("/me/")
    panel = phone.locator(f"#player-panel-{event.pk}")
    expect(panel).to_contain_text("You won a place in the lottery (drawn number 1)")
    expect(panel).to_contain_text("Entry fee unpaid")
    expect(panel.get_by_role("link", name="https://shop.example.org/regional")).to_be_visible()
    assert_fits(phone)
    axe_check(phone)
    shot(phone, "3-player-won-unpaid")

    ash_row = page.locator("#players-rows tr", has_text="Ash Ketchum")
    ash_row.get_by_role("button", name="unpaid: mark paid the fee of Ash Ketchum").click()
    expect(page.locator("#players-rows tr", has_text="Ash Ketchum")).to_contain_text("✓ paid")
    axe_check(page)
    shot(page, "4-dashboard-paid")
    registration = Registration.objects.get(event=event, player__user=ash)
    assert registration.paid_at is not None and registration.paid_marked_by == organiser
    assert AuditEntry.objects.filter(event=event, action="registration.paid").count() == 1

    phone.reload()
    expect(phone.locator(f"#player-panel-{event.pk}")).to_contain_text("Entry fee paid")
    axe_check(phone)

    page.goto(f"/dashboard/events/{event.pk}/settings/")
    expect(page.get_by_label("Places by lottery")).to_be_checked()
    expect(page.get_by_label("Checkout link")).to_have_value("https://shop.example.org/regional")
    axe_check(page)
    shot(page, "5-settings")
