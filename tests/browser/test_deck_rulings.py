"""A judge rules on a deck from the decks page, in a real browser, at desktop width and on a 390 px phone.

The judge opens the decks page from the event's dashboard, opens a deck's ruling
tools, records a ruling without a reason (told so at the reason), then with one;
the page shows the ruling, its reason and who made it, and the player reads it on
their deck page.  axe-core and no sideways scrolling at every step.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from decks.models import DeckVersion
from tests.browser.conftest import DESKTOP, PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check
from tournaments import services
from tournaments.services import staff as staff_services

pytestmark = pytest.mark.browser

VIOLATION = {"code": "main_size", "rule": "Deck Masters 2.1", "message": "The main deck has 39 cards.", "cards": []}


@pytest.fixture
def duel(django_user_model, organiser):
    """A Deck Masters event with a judge, and Yugi's deck the checker found illegal."""
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    judge = django_user_model.objects.create_user(username="judy", password="pw")
    staff_services.staff_add(event=event, username="judy", role="judge", by=organiser)
    yugi = django_user_model.objects.create_user(username="yugi", password="pw")
    registration = RegistrationFactory(event=event, player=PlayerFactory(display_name="Yugi Muto", user=yugi))
    DeckVersion.objects.create(
        registration=registration, number=1, decklist="#main\n89631139\n", status="illegal", violations=[VIOLATION],
        violation_count=1, violations_by_code={"main_size": 1}, card_count=39,
    )  # fmt: skip
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Joey Wheeler"))
    return event, judge, yugi


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_judge_rules_a_deck_legal_with_a_reason(new_page, duel, viewport):
    event, judge, yugi = duel
    page = new_page(viewport=viewport, user=judge)
    page.goto(f"/dashboard/events/{event.pk}/")
    page.get_by_role("navigation", name="Event dashboard").get_by_role("link", name="Decks").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Decks")
    assert_fits(page)
    axe_check(page)

    page.locator("tr", has_text="Yugi Muto").locator("summary").click()  # "rule": Yugi's ruling tools
    form = page.locator("form.ruling-form").first
    form.get_by_label("Legal", exact=True).check()
    form.get_by_role("button", name="record the ruling on Yugi Muto's deck").click()
    reason = page.get_by_label("Reason for the ruling on Yugi Muto's deck")
    expect(reason).to_have_attribute("aria-invalid", "true")
    expect(reason).to_have_accessible_description("This field is required.")
    assert_fits(page)
    axe_check(page)

    reason.fill("The checker counts a misprint of Dark Magician twice.")
    page.locator("form.ruling-form").first.get_by_role("button", name="record the ruling on Yugi Muto's deck").click()
    expect(page.locator(".messages")).to_contain_text("Ruling recorded: Yugi Muto's deck is legal.")
    row = page.locator("tr", has_text="Yugi Muto")
    expect(row.locator(".badge")).to_have_text("Legal")
    expect(row.locator(".ruling")).to_contain_text("by judy")
    expect(row.locator(".ruling")).to_contain_text("misprint of Dark Magician")
    row.locator("summary").click()  # "change the ruling": the clear form is there now
    expect(page.get_by_label("Reason for clearing the ruling on Yugi Muto's deck")).to_be_visible()
    assert_fits(page)
    axe_check(page)

    player = new_page(viewport=viewport, user=yugi)
    player.goto(f"/events/{event.pk}/deck/")
    expect(player.locator(".verdict")).to_contain_text(
        "Legal (judge's ruling: The checker counts a misprint of Dark Magician twice.)"
    )
    assert_fits(player)
    axe_check(player)
