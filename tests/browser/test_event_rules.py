"""An event's variants and house rules in the browser: the event's pages, the format's rules page, the settings
page and the judge console, at desktop and phone sizes, each passing axe."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from games import services as game_services
from tests.browser.conftest import DESKTOP, PHONE
from tests.factories import RegistrationFactory
from tests.support.browser import assert_fits, axe_check
from tournaments import services

pytestmark = pytest.mark.browser


@pytest.fixture
def variant_event(organiser):
    event = services.event_create(
        organiser=organiser, name="Accelerated Cup", format="mintayn-master", planned_rounds=3,
        date=datetime.date(2026, 12, 4), options={"starting_lp": 6000, "mana_rate": 2, "hand_size": 12},
    )  # fmt: skip
    for _ in range(4):
        RegistrationFactory(event=event, checked_in=True)
    return event


@pytest.fixture
def house_rule_event(organiser):
    event = services.event_create(
        organiser=organiser, name="Johto Trek", format="mt-silver", planned_rounds=3,
        date=datetime.date(2026, 12, 4), options={"three_player_pods": True},
    )  # fmt: skip
    for _ in range(7):
        RegistrationFactory(event=event, checked_in=True)
    services.round_start(event=event, by=organiser, seed=1)
    return event


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_rules_show_on_the_events_pages_and_the_formats_page(new_page, variant_event, house_rule_event, viewport):
    page = new_page(viewport=viewport)
    page.goto(f"/events/{house_rule_event.pk}/pairings/")
    note = page.get_by_role("note")
    expect(note).to_contain_text("This event plays a house rule")
    expect(note).to_contain_text("3-player pods when numbers don't divide by 4")
    assert_fits(page)
    axe_check(page)

    page.goto(f"/events/{variant_event.pk}/")
    rules = page.get_by_role("region", name="Rules at this event")
    expect(rules).to_contain_text("2 cards a turn to the Mana Zone (accelerated)")
    expect(rules).to_contain_text("Hand size: 10 (default); 8–12 in variant play.")
    assert_fits(page)
    axe_check(page)

    rules.get_by_role("link", name="How Podium reads the Mintayn Master rulebook").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mintayn Master: how Podium reads the rulebook")
    expect(page.get_by_role("table").last).to_contain_text("Master Format — Timing Sequence")
    assert_fits(page)
    axe_check(page)


def test_an_organiser_sets_a_house_rule_on_the_settings_page_and_the_judge_sees_it(
    new_page, organiser, house_rule_event
):
    event = services.event_create(
        organiser=organiser, name="Master Night", format="master-trainer", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    for _ in range(3):
        RegistrationFactory(event=event, checked_in=True)
    page = new_page(viewport=DESKTOP, user=organiser)
    page.goto(f"/dashboard/events/{event.pk}/settings/")
    game_end = page.get_by_label("Game end with 3-4 players")
    game_end.select_option("last_standing")
    axe_check(page)
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Settings saved.")).to_be_visible()

    round_ = services.round_start(event=event, by=organiser, seed=1)
    game = game_services.game_create(pod=round_.pods.get(is_bye=False), by=organiser)
    page.goto(f"/dashboard/games/{game.pk}/")
    expect(page.get_by_role("note")).to_contain_text("play on to the last player standing (house rule)")
    axe_check(page)
