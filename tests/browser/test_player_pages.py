"""A player's evening on a 390 px phone: sign up, register, check in, find the table, report; the opponent confirms.

Every page on the way is checked with axe-core (no serious or critical
violation) and for sideways scrolling; the report is made with the keyboard
alone.  The opponent answers in a second browser context (their own phone).
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check, wait_for_htmx
from tournaments import services
from tournaments.models import PodResult, Registration, Seat

pytestmark = pytest.mark.browser


def check(page) -> None:
    assert_fits(page)
    axe_check(page)


@pytest.fixture
def event(organiser):
    """Duel Night takes self-registrations (room for two) and player reports."""
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4), venue="Battle City Games",
    )  # fmt: skip
    services.event_update(event=event, by=organiser, registration_open=True, capacity=2, player_reports=True)
    return event


@pytest.fixture
def gary(django_user_model, event):
    """Gary has an account and a place already."""
    user = django_user_model.objects.create_user(username="gary", password="pw")
    RegistrationFactory(event=event, player=PlayerFactory(user=user, display_name="Gary Oak"), checked_in=True)
    return user


def test_a_player_signs_up_registers_checks_in_and_reports_and_the_opponent_confirms(new_page, event, gary, organiser):
    page = new_page(viewport=PHONE)
    page.goto(f"/events/{event.pk}/")
    expect(page.get_by_text("Registration is open: sign in to register.")).to_be_visible()
    check(page)

    # Sign up from the event page, and come back to it.
    page.get_by_role("link", name="Create an account").click()
    check(page)
    page.get_by_label("Username").fill("ash")
    page.get_by_label("Name at events").fill("Ash Ketchum")
    page.get_by_label("Email").fill("ash@example.org")
    page.get_by_label("Password", exact=True).fill("Pikachu-Thunder-77")
    page.get_by_label("Password confirmation").fill("Pikachu-Thunder-77")
    page.get_by_role("button", name="Create the account").click()
    expect(page).to_have_url(f"{page.url.split('/events/')[0]}/events/{event.pk}/")
    expect(page.get_by_text("Welcome, Ash Ketchum")).to_be_visible()
    wait_for_htmx(page)

    # Register: the last place.
    expect(page.get_by_text("1 of 2 places taken.")).to_be_visible()
    page.get_by_role("button", name="Register").click()
    panel = page.locator(".player-panel")
    expect(panel).to_contain_text("You are registered for Duel Night.")
    expect(panel).to_contain_text("Check-in is not open")
    check(page)

    # At the venue the organiser opens check-in; the QR code leads to the check-in page.
    services.event_update(event=event, by=organiser, check_in_open=True)
    page.goto(f"/events/{event.pk}/check-in/")
    wait_for_htmx(page)
    check(page)
    page.get_by_role("button", name="Check in").click()
    expect(panel).to_contain_text("You are checked in.")
    expect(panel).to_be_focused()
    check(page)
    ash = Registration.objects.get(event=event, player__user__username="ash")
    assert ash.checked_in

    # Round 1: the two of them at table 1.
    services.round_start(event=event, by=organiser, seed=1)
    seat = Seat.objects.get(round__event=event, player=ash.player)
    page.get_by_role("link", name="My events").click()
    wait_for_htmx(page)
    expect(page.get_by_role("heading", name="Round 1 · Table 1")).to_be_visible()
    expect(panel).to_contain_text(f"Seat {seat.seat_order}")
    expect(panel).to_contain_text(f"Gary Oak #{gary.player.pk}")
    if seat.seat_order == 1:
        expect(panel).to_contain_text("you go first")
    check(page)

    # The report, with the keyboard alone: pick "I won 2–1", submit with Enter.
    page.get_by_label("I won 2–1").focus()
    page.keyboard.press("Space")
    expect(page.get_by_label("I won 2–1")).to_be_checked()
    page.keyboard.press("Enter")
    expect(panel).to_contain_text("You reported: You won 2–1")
    expect(panel).to_contain_text("Waiting for the other players at the table to confirm.")
    check(page)
    assert not PodResult.objects.filter(pod=seat.pod).exists()

    # Gary, on his own phone, confirms.
    opponent = new_page(viewport=PHONE, user=gary)
    opponent.goto("/me/")
    wait_for_htmx(opponent)
    theirs = opponent.locator(".player-panel")
    expect(theirs).to_contain_text(f"Ash Ketchum #{ash.player.pk} reported: You lost 1–2")
    check(opponent)
    opponent.get_by_role("button", name="Confirm").click()
    expect(theirs).to_contain_text("Confirmed: the result is recorded.")
    expect(theirs).to_contain_text("Result: You lost 1–2")
    check(opponent)

    result = PodResult.objects.get(pod=seat.pod)
    assert result.source == PodResult.Source.PLAYERS
    page.reload()
    expect(panel).to_contain_text("Result: You won 2–1")
    expect(page.locator("details.history")).to_contain_text("You won 2–1")
    check(page)


def test_disputing_on_a_phone_sends_what_happened(new_page, event, gary, organiser, django_user_model):
    user = django_user_model.objects.create_user(username="ash", password="pw")
    RegistrationFactory(event=event, player=PlayerFactory(user=user, display_name="Ash"), checked_in=True)
    services.round_start(event=event, by=organiser, seed=1)
    from tournaments.services import results

    ash, oak = user.player.pk, gary.player.pk
    results.result_player_report(
        event=event, round_number=1, table_number=1, placements={ash: 1, oak: 2},
        games={ash: [2, 0, 0], oak: [0, 2, 0]}, by=user,
    )  # fmt: skip
    page = new_page(viewport=PHONE, user=gary)
    page.goto("/me/")
    wait_for_htmx(page)
    page.get_by_text("Dispute…").click()
    check(page)
    page.get_by_label("I won 2–1").check()
    page.get_by_role("button", name="Dispute: send my result").click()
    panel = page.locator(".player-panel")
    expect(panel).to_contain_text("a judge will settle the table")
    expect(panel).to_contain_text("The players disagree about this result")
    check(page)


def test_the_sign_in_pages_fit_a_phone(new_page):
    page = new_page(viewport=PHONE)
    for url in ("/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"):
        page.goto(url)
        check(page)
