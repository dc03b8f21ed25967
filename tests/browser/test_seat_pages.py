"""Seat fairness in a real browser: an event's and a season's seat pages with their charts and tables, the event's at
desktop size and the season's on a phone, each checked by axe-core."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.support.browser import assert_fits, axe_check
from tests.support.leagues import make_league, played_event, players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_seat_pages_show_a_chart_and_a_table_per_table_size_fit_the_screen_and_pass_axe(
    new_page, organiser, tmp_path
):
    _, season = make_league(organiser, formats=("deck-masters", "format3-trinity"))
    duel = played_event(organiser, season=season, field=players(4), rounds=2, day=3)
    played_event(organiser, season=season, format="format3-trinity", field=players(7, "P"), rounds=1, day=10,
                 winner_seat=2)  # fmt: skip
    shots = Path(os.environ.get("PODIUM_SCREENSHOTS", tmp_path))
    page = new_page(viewport=DESKTOP)
    page.goto(f"/events/{duel.pk}/")
    page.get_by_role("link", name="Seats", exact=True).click()
    page.wait_for_url(f"**/events/{duel.pk}/seats/")
    expect(page.get_by_role("img", name="Win rate by seat: Yu-Gi-Oh! Deck Masters · 1v1 tables")).to_be_visible()
    expect(page.get_by_role("table")).to_contain_text("100.0 %")
    axe_check(page)
    assert_fits(page)
    page.screenshot(path=shots / "seats-event-desktop.png", full_page=True)
    phone = new_page(viewport=PHONE)
    phone.goto(f"/seasons/{season.pk}/")
    phone.get_by_role("link", name="Seats", exact=True).click()
    phone.wait_for_url(f"**/seasons/{season.pk}/seats/")
    expect(phone.locator("svg.chart")).to_have_count(3)
    expect(phone.get_by_role("heading", name="Format3 Trinity · 3-player pods")).to_be_visible()
    axe_check(phone)
    assert_fits(phone)
    phone.screenshot(path=shots / "seats-season-phone.png", full_page=True)
