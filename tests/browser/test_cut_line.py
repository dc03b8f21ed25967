"""What record makes the cut, in the browser: the event page's structure card and lines and the player's need,
at desktop and phone sizes, each passing axe."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check
from tests.support.events import make_event, report_all
from tournaments import services

pytestmark = pytest.mark.browser


@pytest.fixture
def half_played(organiser, django_user_model):
    user = django_user_model.objects.create_user("misty", password="pw-misty-123456")
    event = make_event(organiser, 11, rounds=4)
    RegistrationFactory(event=event, player=PlayerFactory(user=user, display_name="Misty"))
    for _ in range(2):
        services.round_start(event=event, by=organiser, allow_rematches=True)
        report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
    return event, user


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_player_reads_what_makes_the_cut_and_the_events_structure(new_page, half_played, viewport):
    event, user = half_played
    page = new_page(viewport=viewport, user=user)
    page.goto(f"/events/{event.pk}/")
    expect(page.locator(".cut-need")).to_contain_text("under any pairings")
    lines = page.get_by_role("region", name="What makes the cut")
    expect(lines).to_contain_text("Top 4 cut (recommended for the players entered)")
    expect(lines).to_contain_text("Projected line")
    structure = page.get_by_role("region", name="Event structure")
    expect(structure.get_by_role("table")).to_contain_text("this event")
    expect(structure).to_contain_text("1v8, 4v5, 2v7, 3v6")
    assert_fits(page)
    axe_check(page)

    page.goto(f"/events/{event.pk}/standings/")
    expect(page.get_by_role("region", name="What makes the cut")).to_contain_text("Safe line")
    assert_fits(page)
    axe_check(page)


def test_the_organiser_sees_the_lines_and_who_needs_what_on_the_dashboard(new_page, organiser, half_played):
    event, _ = half_played
    page = new_page(viewport=PHONE, user=organiser)
    page.goto(f"/dashboard/events/{event.pk}/")
    lines = page.get_by_role("region", name="What makes the cut")
    expect(lines).to_contain_text("Depend on other results")
    assert_fits(page)
    axe_check(page)
