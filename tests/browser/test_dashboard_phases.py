"""Two days in a real browser: the organiser plans day 1 and day 2, advances day 1's players from the dashboard,
and the public standings show day 1's own table and the overall one (desktop and phone); and, on a phone, keeps two
players apart and publishes a staged round.  Axe on every page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.support.browser import assert_fits, axe_check
from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_organiser_plans_two_days_and_advances_day_one_from_the_dashboard(
    new_page, organiser, viewport, tmp_path
) -> None:
    event = make_event(organiser, 8, rounds=3)
    page = new_page(viewport=viewport, user=organiser)
    page.goto(f"/dashboard/events/{event.pk}/phases/")
    axe_check(page)
    assert_fits(page)
    page.get_by_label("Phase 1 name").fill("Day 1")
    page.get_by_label("Phase 1 rounds").fill("1")
    page.get_by_label("Phase 1: who goes on").select_option("top")
    page.get_by_label("Phase 1: points or players").fill("4")
    page.get_by_label("Phase 2 name").fill("Day 2")
    page.get_by_label("Phase 2 rounds").fill("1")
    page.get_by_role("button", name="Save phases").click()
    expect(page.get_by_role("heading", name="Phases")).to_be_visible()

    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    page.reload()
    expect(page.get_by_role("button", name="Start round 2")).to_have_count(0)
    page.get_by_role("button", name="Advance 4 players from Day 1").click()
    expect(page.get_by_text("4 players go on to the next phase.")).to_be_visible()
    expect(page.get_by_role("button", name="Start round 2")).to_be_visible()
    axe_check(page)
    assert_fits(page)
    page.screenshot(path=str(tmp_path / f"phases-dashboard-{viewport['width']}.png"), full_page=True)
    assert Registration.objects.filter(event=event, phase=2).count() == 4

    page.goto(f"/events/{event.pk}/standings/?phase=1")
    expect(page.get_by_role("navigation", name="Standings by phase")).to_be_visible()
    expect(page.locator(".standings .badge", has_text="went on")).to_have_count(4)
    axe_check(page)
    assert_fits(page)


def test_a_staged_round_is_published_and_two_players_kept_apart_from_the_dashboard(new_page, organiser) -> None:
    viewport = PHONE  # the suite's budget: the dashboard's desktop layout is checked by the phases test above
    event = make_event(organiser, 8, rounds=3)
    services.event_update(event=event, by=organiser, stage_pairings=True)
    page = new_page(viewport=viewport, user=organiser)

    page.goto(f"/dashboard/events/{event.pk}/keep-apart/")
    axe_check(page)
    assert_fits(page)
    page.get_by_label("Keep").select_option("P00")
    page.get_by_label("apart from").select_option("P01")
    page.get_by_label("Why (for the staff)").fill("siblings")
    page.get_by_role("button", name="Keep apart").click()
    expect(page.get_by_text("Kept apart from the next pairing on.")).to_be_visible()
    expect(page.locator("li", has_text="siblings")).to_have_count(1)
    axe_check(page)

    services.round_start(event=event, by=organiser)
    page.goto(f"/dashboard/events/{event.pk}/")
    banner = page.locator("#staged")
    expect(banner).to_contain_text("Round 1 is staged")
    axe_check(page)
    assert_fits(page)
    banner.get_by_role("button", name="Publish round 1").click()
    expect(page.get_by_text("Round 1 is published: players see their tables.")).to_be_visible()
    expect(page.locator("#staged")).to_have_count(0)
