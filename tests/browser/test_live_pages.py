"""The live pages of the site in Chromium, at desktop and phone widths: the caster's page, the dashboard's clock card
(at zero: the procedure, and the tables without a result outlined), the venue display and a printout."""

from __future__ import annotations

import pytest

from live import services as live_services
from live.models import RoundTimer
from tests.browser.conftest import DESKTOP, PHONE
from tests.support.browser import assert_fits, axe_check

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_casters_page_points_a_station_at_a_table(new_page, organiser, running_event, viewport):
    live_services.station_create(event=running_event, slug="stream-1", by=organiser)
    page = new_page(viewport=viewport, user=organiser)
    page.goto(f"/live/events/{running_event.pk}/caster/")
    page.select_option("#table-stream-1", "2")
    page.get_by_role("button", name="Show on Stream 1").click()
    page.get_by_text("Stream 1 updated.").wait_for()
    assert page.locator("#table-stream-1").input_value() == "2"
    axe_check(page)
    assert_fits(page)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_new_overlay_token_shows_its_key_once_then_only_its_start(new_page, organiser, running_event, viewport):
    page = new_page(viewport=viewport, user=organiser)
    page.goto(f"/live/events/{running_event.pk}/caster/")
    page.fill("#token-label", "OBS laptop")
    page.get_by_role("button", name="Make a token").click()
    shown = page.get_by_role("status").filter(has_text="shown once")
    shown.wait_for()
    key = shown.locator("code").inner_text().removeprefix("?token=")
    axe_check(page)
    assert_fits(page)
    page.goto(f"/live/events/{running_event.pk}/caster/")
    assert key not in page.content() and f"{key[:8]}…" in page.content()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_dashboard_clock_says_time_and_outlines_the_tables_still_playing(
    new_page, organiser, running_event, viewport
):
    page = new_page(viewport=viewport, user=organiser)
    page.goto(f"/dashboard/events/{running_event.pk}/")
    page.get_by_role("button", name="Start the clock").click()
    page.locator(".dashboard-clock[data-state='running']").wait_for()
    axe_check(page)
    # Time runs out (the deadline moved to the past), and the page is opened again.
    timer = RoundTimer.objects.get(round__event=running_event)
    RoundTimer.objects.filter(pk=timer.pk).update(deadline=timer.started_at)
    page.goto(f"/dashboard/events/{running_event.pk}/")
    page.locator(".dashboard-clock.time-up").wait_for()
    assert page.locator(".dashboard-clock .clock-time").inner_text() == "Time"
    assert "then 3 more turns" in page.locator(".dashboard-clock .clock-procedure").inner_text()
    outlined = page.locator(".table-card:not(.reported)").first
    assert outlined.evaluate("el => getComputedStyle(el).borderTopColor") == "rgb(168, 50, 31)"
    axe_check(page)
    assert_fits(page)


def test_the_venue_display_and_the_printed_slips(new_page, organiser, running_event):
    page = new_page()
    page.goto(f"/live/events/{running_event.pk}/display/")
    page.get_by_text("pairings by name").wait_for()
    axe_check(page)
    slips = new_page(user=organiser)
    slips.goto(f"/live/events/{running_event.pk}/print/slips/")
    assert slips.locator(".slip").count() == 3
    axe_check(slips)
