"""A pod event's final recorded from the dashboard in a real browser: every player's place, not only the winner.

Master Trainer ends a game at the first Life Depletion, the others placing by
Life total, so a final pod has a 1st, a 2nd, a 3rd and a 4th.  The organiser
picks each seat's place (one tap each), is refused a shared first place at the
table with the picks kept, fixes it, and the event's public page then reads
Champion, 2nd, 3rd, 4th; the correction page shows the same picks.  At desktop
and phone widths, with axe-core on every page and no sideways scrolling.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.support.browser import assert_fits, axe_check, wait_for_htmx
from tests.support.events import make_event, play_swiss
from tournaments import services
from tournaments.models import Event, Seat

pytestmark = pytest.mark.browser


@pytest.fixture
def final_pod(organiser) -> Event:
    """A Master Trainer event of 8, its two Swiss rounds played and its top 4 cut: one final pod (round 3)."""
    event = make_event(organiser, 8, format="master-trainer", rounds=2)
    play_swiss(event, organiser)
    services.top_cut_start(event=event, by=organiser, size=4)
    return event


def _final_seats(event: Event) -> list[Seat]:
    return list(
        Seat.objects.filter(round__event=event, round__number=3).select_related("player").order_by("seat_order")
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_final_pod_is_recorded_with_every_players_place_from_the_dashboard(
    new_page, organiser, final_pod, viewport
):
    seats = _final_seats(final_pod)
    names = [s.player.display_name for s in seats]
    page = new_page(viewport=viewport, user=organiser)
    page.goto(f"/dashboard/events/{final_pod.pk}/")
    wait_for_htmx(page)
    card = page.locator(".table-card").filter(has=page.get_by_text("Table 1", exact=True))
    expect(card.get_by_role("button", name=re.compile(" wins$"))).to_have_count(0)  # no winner-only shortcut
    assert_fits(page)
    axe_check(page)

    def pick(places: list[str]) -> None:
        for number, (name, place) in enumerate(zip(names, places, strict=True), start=1):
            card.get_by_role("group", name=f"{number} {name}").get_by_role("radio", name=place).check()
        card.get_by_role("button", name="Record result of table 1").click()

    # Two players placed 1st: refused at the table, the picks kept for fixing.
    pick(["2nd", "1st", "1st", "3rd"])
    expect(card.get_by_role("alert")).to_contain_text("A top-cut table needs one winner")
    expect(card).to_be_focused()
    expect(card.get_by_role("group", name=f"4 {names[3]}").get_by_role("radio", name="3rd")).to_be_checked()
    assert_fits(page)
    axe_check(page)

    # Seat 3 was 4th on Life: every place recorded, the 2nd, the 3rd and the 4th too.
    pick(["2nd", "1st", "4th", "3rd"])
    expect(card).to_contain_text("reported")
    expect(card.get_by_role("alert")).to_have_count(0)
    expect(card.locator(".seats .place")).to_have_text([re.compile(rf"^#{n} ") for n in (2, 1, 4, 3)])
    assert [s.placement for s in _final_seats(final_pod)] == [2, 1, 4, 3]
    axe_check(page)

    # The public page: Champion, 2nd, 3rd, 4th, not three players sharing 2nd.
    page.goto(f"/events/{final_pod.pk}/")
    placements = page.locator(".final-placements li")
    expect(placements).to_have_text(
        [re.compile(rf"^{label}: {re.escape(names[seat])}") for label, seat in zip(
            ["Champion", "2nd", "3rd", "4th"], [1, 0, 3, 2], strict=True)]
    )  # fmt: skip
    assert_fits(page)
    axe_check(page)

    # Correcting the final shows the same picks, as recorded.
    page.goto(f"/dashboard/events/{final_pod.pk}/rounds/3/tables/1/correct/")
    expect(page.get_by_role("group", name=f"2 {names[1]}").get_by_role("radio", name="1st")).to_be_checked()
    expect(page.get_by_role("group", name=f"3 {names[2]}").get_by_role("radio", name="4th")).to_be_checked()
    assert_fits(page)
    axe_check(page)
