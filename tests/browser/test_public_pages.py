"""The public pages at desktop and phone sizes: nothing scrolls sideways, axe-core finds nothing serious.

The event has a long player name, a bye, two rounds played and a third paired,
so every page has its widest content: the round picker, full standings with
tiebreakers and the *why?* of every pairing.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from decks import services as deck_services
from decks.models import DeckVersion
from tests.browser.conftest import DESKTOP, PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check
from tests.support.events import report_all
from tournaments import services

pytestmark = pytest.mark.browser

NAMES = ["Maximiliana Featherstonehaugh-Cholmondeley", "Yugi", "Joey", "Kaiba", "Mai", "Bakura", "Marik"]


@pytest.fixture
def played_event(organiser):
    event = services.event_create(
        organiser=organiser, name="Battle City Championship Qualifier", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4), venue="Kaiba Corporation Dome, Domino City",
    )  # fmt: skip
    for name in NAMES:  # seven players: a bye every round
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    for seed in (1, 2):
        services.round_start(event=event, by=organiser, seed=seed)
        report_all(event, organiser)
    services.round_start(event=event, by=organiser, seed=3)
    yugi = event.registrations.get(player__display_name="Yugi")
    DeckVersion.objects.create(
        registration=yugi, number=1, decklist="#main\n89631139\n", roles={"deck_master": "89631139"}
    )
    deck_services.event_decklists_publish(event=event, by=organiser, public=True)
    return event


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_public_pages_and_the_404_fit_the_screen_and_pass_axe(new_page, played_event, viewport):
    page = new_page(viewport=viewport)
    event = f"/events/{played_event.pk}"
    for url in (
        "/",
        f"{event}/",
        f"{event}/pairings/",
        f"{event}/pairings/?round=1",
        f"{event}/pairings/by-name/",
        f"{event}/standings/",
        f"{event}/decks/{played_event.registrations.get(player__display_name='Yugi').pk}/",
        "/accounts/login/",
    ):
        response = page.goto(url)
        assert response.status == 200, url
        assert_fits(page)
        axe_check(page)

    # An unknown page is a 404 in the site's design.
    response = page.goto(f"/events/{played_event.pk + 1000}/")
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
    expect(page.get_by_role("navigation", name="Site")).to_be_visible()
    assert_fits(page)
    axe_check(page)


def test_pairings_by_name_explain_why_and_mark_the_current_page_and_round(page, played_event):
    page.goto(f"/events/{played_event.pk}/pairings/by-name/?round=2")
    expect(
        page.get_by_role("navigation", name="Event pages").get_by_role("link", name="Pairings by name")
    ).to_have_attribute("aria-current", "page")
    rounds = page.get_by_role("navigation", name="Rounds")
    expect(rounds.get_by_role("link", name="Round 2")).to_have_attribute("aria-current", "page")
    expect(rounds.get_by_role("link", name="Round 1")).not_to_have_attribute("aria-current", "page")

    yugi = played_event.registrations.get(player__display_name="Yugi").player_id
    why = page.locator(f"#player-{yugi} details")
    expect(why).not_to_have_attribute("open", "")
    why.get_by_text("why?").click()
    expect(why).to_have_attribute("open", "")
    expect(why.locator("p").first).to_be_visible()
    axe_check(page)

    # ?player=ID opens that player's why? and highlights their row.
    page.goto(f"/events/{played_event.pk}/pairings/by-name/?round=2&player={yugi}")
    highlighted = page.locator("tr.highlight")
    expect(highlighted).to_contain_text("Yugi")
    expect(highlighted.locator("details")).to_have_attribute("open", "")


def test_the_skip_link_is_the_first_stop_and_jumps_to_the_main_content(page, played_event):
    page.goto(f"/events/{played_event.pk}/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()

    # From there the next stop is the event's first tab, with a visible focus ring.
    page.keyboard.press("Tab")
    overview = page.get_by_role("link", name="Overview")
    expect(overview).to_be_focused()
    ring = overview.evaluate(
        "a => { const s = getComputedStyle(a); return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert ring[0] == "solid" and ring[1] >= 2


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_top_eight_bracket_fits_the_screen_and_passes_axe(new_page, organiser, viewport):
    """Three rounds side by side don't fit a 390 px phone: there the rounds are listed one under the other, and
    where they scroll sideways a keyboard reaches the bracket."""
    event = services.event_create(
        organiser=organiser, name="Mintayn Cup", format="mintayn-master", planned_rounds=1,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    for name in NAMES + ["Ishizu"]:
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    services.round_start(event=event, by=organiser, seed=5)
    report_all(event, organiser)
    services.top_cut_start(event=event, by=organiser, size=8)
    report_all(event, organiser)  # the quarter-finals: the semi-finals are paired, the final is to come
    page = new_page(viewport=viewport)
    page.goto(f"/events/{event.pk}/bracket/")
    expect(page.locator(".slot.won")).to_have_count(4)
    assert_fits(page)
    axe_check(page)
    rounds = page.get_by_role("region", name="Bracket").get_by_role("heading", level=3)
    expect(rounds).to_have_text(["Quarter-finals", "Semi-finals", "Final"])
