"""An organiser runs an event from the dashboard in a real browser, keyboard included.

Create the event, register players (typing a name and pressing Enter, again and
again), check one in, start round 1, report results (a refused one first, fixed
at the same table), watch the standings follow, play round 2 and finish after
confirming.  htmx does the in-page work: the page is never reloaded in between.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.support.browser import assert_fits, axe_check, wait_for_htmx

pytestmark = pytest.mark.browser

PLAYERS = ["Ash", "Misty", "Brock", "Gary", "Erika", "Sabrina", "Blaine"]


def _same_page(page) -> None:
    page.evaluate("window.stillTheSamePage = true")


def _still_same_page(page) -> bool:
    return page.evaluate("window.stillTheSamePage === true")


def _report(page, table: int, places: list[str]) -> str:
    """Choose placements at a table (in seat order) and submit; returns the first seat's player."""
    card = page.locator(".table-card").filter(has=page.get_by_text(f"Table {table}", exact=True))
    selects = card.get_by_role("combobox")
    for select, place in zip(selects.all(), places, strict=True):
        select.select_option(place)
    first = card.locator("label").first.inner_text().split(" ", 1)[1]
    card.get_by_role("button", name=f"Record result of table {table}").click()
    return first


def test_an_organiser_runs_an_event_from_the_dashboard(new_page, organiser):
    page = new_page(viewport={"width": 1280, "height": 600}, user=organiser)
    page.goto("/dashboard/")
    axe_check(page)
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name", exact=True).fill("Friday Pods")
    page.get_by_label("Format").select_option(label="Master Trainer")
    page.get_by_label("Planned rounds").fill("2")
    axe_check(page)
    page.get_by_role("button", name="Create event").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday Pods")
    wait_for_htmx(page)
    axe_check(page)

    # Registering by keyboard: type, Enter, and the name field is ready for the next one, page unmoved.
    _same_page(page)
    name = page.get_by_label("Player name", exact=True)
    for player in PLAYERS:
        name.press_sequentially(player)
        # The page grows with each player: scroll it down a little, keeping the field in view.
        scrolled = page.evaluate(
            "() => { window.scrollTo(0, document.getElementById('id_display_name').getBoundingClientRect().top"
            " + window.scrollY - 100); return window.scrollY; }"
        )
        name.press("Enter")
        expect(page.locator("#players tbody")).to_contain_text(player)
        expect(name).to_be_focused()
        expect(name).to_have_value("")
        assert page.evaluate("window.scrollY") == scrolled
    assert scrolled > 0  # the last registrations were made with the page scrolled down
    expect(page.get_by_role("status").filter(has_text="Registered Blaine.")).to_have_count(1)

    # An eighth player, registered not checked in with the mouse, then checked in from their row.
    name.fill("Koga")
    page.get_by_label("checked in", exact=True).uncheck()
    page.get_by_role("button", name="Register").click()
    expect(page.locator("#players tbody")).to_contain_text("Koga")
    page.get_by_role("button", name="check in Koga").click()
    expect(page.get_by_role("button", name="✓ checked in Koga")).to_be_focused()  # the new row keeps the focus
    expect(page.locator("#players h2")).to_contain_text("8 active of 8")
    # The header's recommendation follows the players checked in, without a reload: eight players make a top 4.
    expect(page.locator("#structure")).to_contain_text("Recommended for 8 players: 3 Swiss rounds, top 4 cut")
    assert _still_same_page(page)

    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_role("heading", name="Round 1 pairings")).to_be_visible()
    wait_for_htmx(page)
    axe_check(page)

    # A refused result stays at its table; the corrected one is recorded there, without a reload.
    _same_page(page)
    _report(page, 1, ["1", "3", "3", "4"])
    table_1 = page.locator(".table-card").filter(has=page.get_by_text("Table 1", exact=True))
    expect(table_1.get_by_role("alert")).to_contain_text("Placements must rank players 1, 2, ...")
    expect(table_1).to_be_focused()
    expect(page.locator(".messages")).not_to_contain_text("Placements")  # at the table, not in the banner
    expect(table_1.get_by_role("combobox").nth(1)).to_have_value("3")  # the choices are kept
    winner = _report(page, 1, ["1", "2", "3", "4"])
    expect(table_1).to_contain_text("reported")
    expect(table_1.get_by_role("alert")).to_have_count(0)
    expect(page.locator("#round-status")).to_have_text("1 table to report")
    expect(page.locator("#standings tbody tr").first).to_contain_text(winner)  # the standings followed
    expect(page.locator("#dashboard-announcer")).to_have_text("Recorded the result of table 1.")
    _report(page, 2, ["2", "1", "3", "4"])
    expect(page.locator("#round-status")).to_have_text("complete")
    assert _still_same_page(page)
    axe_check(page)

    page.get_by_role("button", name="Start round 2").click()
    expect(page.get_by_role("heading", name="Round 2 pairings")).to_be_visible()
    wait_for_htmx(page)
    for table in (1, 2):
        _report(page, table, ["1", "2", "3", "4"])
        expect(page.locator(".table-card").filter(has=page.get_by_text(f"Table {table}", exact=True))).to_contain_text(
            "reported"
        )

    # Finishing asks first, on a page of its own.
    page.get_by_role("link", name="Finish event").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Finish Friday Pods?")
    axe_check(page)
    page.get_by_role("button", name="Finish the event").click()
    expect(page.locator(".messages")).to_contain_text("The event is finished.")
    expect(page.locator(".badge-finished")).to_have_text("Finished")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_dashboard_pages_of_a_running_event_fit_the_screen_and_pass_axe(
    new_page, organiser, running_event, viewport
):
    page = new_page(viewport=viewport, user=organiser)
    for url in (
        "/dashboard/",
        f"/dashboard/events/{running_event.pk}/",
        f"/dashboard/events/{running_event.pk}/settings/",
        f"/dashboard/events/{running_event.pk}/finish/",
        f"/dashboard/events/{running_event.pk}/decks/",
        f"/dashboard/events/{running_event.pk}/archetypes/",
        "/dashboard/events/new/",
    ):
        response = page.goto(url)
        assert response.status == 200, url
        assert_fits(page)
        axe_check(page)
    # The row tools open inside the players card without pushing the page sideways.
    page.goto(f"/dashboard/events/{running_event.pk}/")
    page.locator("#players summary").first.click()
    assert_fits(page)
    axe_check(page)

    # A disabled button looks disabled and says why.
    page.goto(f"/dashboard/events/{running_event.pk}/finish/")
    finish = page.get_by_role("button", name="Finish the event")
    expect(finish).to_be_disabled()
    expect(finish).to_have_accessible_description(
        "3 tables of Round 1 have no result yet. Record them on the dashboard first."
    )
    look = "b => { const s = getComputedStyle(b); return [s.cursor, s.borderTopStyle, s.backgroundColor]; }"
    assert finish.evaluate(look) == ["not-allowed", "dashed", "rgb(236, 238, 242)"]
    assert page.get_by_role("link", name="Cancel").evaluate(look)[0] == "pointer"
