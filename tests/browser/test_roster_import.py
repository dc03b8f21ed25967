"""Importing players in a real browser: the organiser picks a file with a problem, reads it by line, picks the
corrected file and lands on the players card with everyone; axe-core and no sideways scrolling at desktop size
and on a 390 px phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.support.browser import assert_fits, axe_check
from tests.support.events import make_event

pytestmark = pytest.mark.browser


def test_an_organiser_imports_players_after_correcting_the_file(new_page, organiser):
    event = make_event(organiser, 0)
    page = new_page(viewport=PHONE, user=organiser)
    page.goto(f"/dashboard/events/{event.pk}/")
    page.get_by_role("link", name="Import players").click()
    assert_fits(page)
    axe_check(page)

    wrong = {"name": "roster.csv", "mimeType": "text/csv", "buffer": b"name;checked_in\nAsh Ketchum;maybe\nMisty;no\n"}
    page.get_by_label("Roster file").set_input_files(wrong)
    page.get_by_role("button", name="Import").click()
    problems = page.get_by_role("table")
    expect(problems).to_contain_text("'maybe' is not yes or no.")
    expect(page.get_by_text("1 problem in the file: nothing was imported.")).to_be_visible()
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        assert_fits(page)
        axe_check(page)

    right = {**wrong, "buffer": b"name;checked_in\nAsh Ketchum;yes\nMisty;no\n"}
    page.get_by_label("Roster file").set_input_files(right)
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Imported 2 players: 2 registered.")).to_be_visible()
    expect(page.locator("#players")).to_contain_text("Ash Ketchum")
    expect(page.locator("#players")).to_contain_text("Misty")
