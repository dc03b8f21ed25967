"""The league pages in a real browser: the season standings with their chart, the meta report with its charts,
the leaderboard and a player's rating history, at desktop and phone sizes, each checked by axe-core."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from decks.models import DeckVersion
from decks.services import event_decklists_publish
from tests.browser.conftest import DESKTOP, PHONE
from tests.support.browser import assert_fits, axe_check
from tests.support.leagues import make_league, played_event, players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def league(organiser):
    league, season = make_league(organiser, name="Thursday Night Featherstonehaugh-Cholmondeley League")
    field = players(8)
    night = played_event(organiser, season=season, field=field, day=3)
    played_event(organiser, season=season, field=field[:4] + players(4, "M"), day=10, format="mt-silver")
    for i, registration in enumerate(night.registrations.all()):
        DeckVersion.objects.create(registration=registration, number=1, decklist="#main\n",
                                   roles={"deck_master": ["Dark Magician", "Blue-Eyes White Dragon"][i % 2]})  # fmt: skip
    event_decklists_publish(event=night, by=organiser)
    return league, season, night, field


def test_the_league_pages_show_their_charts_fit_the_screen_and_pass_axe(new_page, league, tmp_path):
    league_, season, night, field = league
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = new_page(viewport=viewport)
        page.goto(f"/leagues/{league_.pk}/")
        chart = page.locator("svg.chart").first
        expect(chart).to_be_visible()
        expect(chart).to_have_attribute("role", "img")
        # The chart's title and description are what a screen reader says; the table has the same figures.
        expect(page.get_by_role("img", name="Winter 2026: points of the top 10")).to_be_visible()
        expect(page.get_by_role("table").first).to_contain_text(field[0].display_name)
        page.screenshot(path=tmp_path / f"league-{name}.png", full_page=True)
        axe_check(page)
        assert_fits(page)
        for url in (f"/seasons/{season.pk}/", f"/seasons/{season.pk}/meta/", f"/events/{night.pk}/meta/",
                    "/ratings/deck-masters/", f"/players/{field[0].pk}/ratings/", "/leagues/"):  # fmt: skip
            page.goto(url)
            axe_check(page)
            assert_fits(page)
            if "meta" in url:
                expect(page.get_by_role("img", name="share of players and match win rate")).to_be_visible()
                expect(page.get_by_role("table")).to_contain_text("Dark Magician")
        page.goto(f"/seasons/{season.pk}/meta/")
        page.screenshot(path=tmp_path / f"meta-{name}.png", full_page=True)
        page.goto(f"/players/{field[0].pk}/ratings/")
        expect(page.locator("svg.chart path.chart-line").first).to_be_attached()
        page.screenshot(path=tmp_path / f"ratings-{name}.png", full_page=True)
    print(f"screenshots in {tmp_path}")


def test_an_organiser_renames_an_archetype_on_the_archetypes_page_and_the_meta_report_shows_it(
    new_page, organiser, league, tmp_path
):
    _, _, night, field = league
    registration = night.registrations.get(player=field[0])
    podiums = DeckVersion.objects.get(registration=registration).roles["deck_master"]
    page = new_page(user=organiser)
    page.goto(f"/events/{night.pk}/meta/")
    page.get_by_role("link", name="Name the archetypes").click()
    page.wait_for_url(f"**/dashboard/events/{night.pk}/archetypes/")
    axe_check(page)
    row = page.locator(f"#deck-{registration.pk}")
    expect(row).to_contain_text(podiums)
    expect(row).not_to_contain_text("Renamed")
    page.get_by_label(f"Archetype of {field[0].display_name}'s deck").fill("Toon Magician")
    page.get_by_role("button", name=f"Save the archetype of {field[0].display_name}'s deck").click()
    expect(page.locator(".messages")).to_contain_text(
        f"{field[0].display_name}'s deck is “Toon Magician” in the meta report."
    )
    expect(row).to_contain_text("Renamed")
    expect(row.get_by_label(f"Archetype of {field[0].display_name}'s deck")).to_have_value("Toon Magician")
    page.screenshot(path=tmp_path / "archetypes-desktop.png", full_page=True)
    axe_check(page)
    assert_fits(page)
    page.get_by_role("link", name="The meta report").click()
    expect(page.get_by_role("table")).to_contain_text("Toon Magician")

    phone = new_page(viewport=PHONE, user=organiser)
    phone.goto(f"/dashboard/events/{night.pk}/archetypes/")
    phone.screenshot(path=tmp_path / "archetypes-phone.png", full_page=True)
    axe_check(phone)
    assert_fits(phone)
    phone.get_by_role("button", name=f"Use Podium's name for {field[0].display_name}'s deck").click()
    expect(phone.locator(".messages")).to_contain_text("has Podium's name again")
    expect(phone.locator(f"#deck-{registration.pk}")).not_to_contain_text("Renamed")
    print(f"screenshots in {tmp_path}")
