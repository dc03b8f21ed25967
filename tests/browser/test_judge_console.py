"""The judge console in a real browser: a floor judge records a game by name, by tap and by form, and voids a mistake.

From the event's dashboard to the table, a game started, a turn begun with a
one-tap button, LP taken with another, an LP change for both players in one
entry typed by name (no ids, no JSON), an entry voided with its reason and
the state replayed without it; the page passes axe-core and fits a phone.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.support.browser import assert_fits, axe_check, wait_for_htmx

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def duel(organiser):
    """A Mintayn Master event of two players with round 1 paired: table 1 is Tea Gardner (seat 1) v Marik Ishtar."""
    from tests.factories import PlayerFactory, RegistrationFactory
    from tournaments import services

    event = services.event_create(
        organiser=organiser, name="Mintayn Night", format="mintayn-master", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    for name in ("Tea Gardner", "Marik Ishtar"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    round_ = services.round_start(event=event, by=organiser, seed=1)
    seats = [s.player.display_name for s in round_.pods.get(table_number=1).seats.order_by("seat_order")]
    return event, seats


def test_a_judge_records_a_duel_by_name_and_by_tap_and_voids_a_mistake(new_page, organiser, duel):
    event, (first, second) = duel
    page = new_page(user=organiser)
    page.goto(f"/dashboard/events/{event.pk}/")
    page.get_by_role("link", name="Record game at table 1").click()
    expect(page.get_by_role("button", name="Start game")).to_be_visible()
    axe_check(page)
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url("**/dashboard/games/**")
    wait_for_htmx(page)
    axe_check(page)

    # One tap: the player who plays next starts their turn; another: the opponent loses 1000 LP.
    page.get_by_role("button", name=f"{first}: Start turn").click()
    expect(page.get_by_text("Recorded #1")).to_be_visible()
    page.get_by_role("button", name=f"{second}: −1000 LP").click()
    expect(page.get_by_text("Recorded #2")).to_be_visible()
    state = page.locator("#console")
    expect(state).to_contain_text("7000")

    # A form built from the vocabulary: a signed amount per player, picked by name, both in one entry.
    form = page.get_by_role("form", name="Lp change")
    page.locator("#event-lp_change summary").click()
    form.get_by_label(first, exact=True).fill("-500")
    form.get_by_label(second, exact=True).fill("-500")
    form.get_by_role("button", name="Lp change").click()
    expect(page.get_by_text("Recorded #3")).to_be_visible()
    expect(state).to_contain_text("7500")
    expect(state).to_contain_text("6500")
    log = page.get_by_role("region", name="Log")
    expect(log).to_contain_text(f"{first} −500")
    assert "{" not in log.inner_text(), "the log names players, it shows no JSON or ids"

    # A wrong entry is voided with its reason; the state is replayed without it, and the numbers stay the log's.
    entry = page.locator("#entry-2")
    entry.get_by_text("Void…").click()
    entry.get_by_label("Why is entry #2 void?").fill("wrong player")
    entry.get_by_role("button", name="Void #2").click()
    expect(page.get_by_text("Entry #2 is void (#4).")).to_be_visible()
    expect(page.locator("#entry-2")).to_contain_text("wrong player")
    expect(state).to_contain_text("7500")
    expect(state).not_to_contain_text("6500")
    axe_check(page)

    # The same console on a phone: it fits, and the one-tap buttons are there.
    phone = new_page(viewport=PHONE, user=organiser)
    phone.goto(page.url)
    expect(phone.get_by_role("button", name=f"{second}: −1000 LP")).to_be_visible()
    assert_fits(phone)
    axe_check(phone)


def test_a_game_the_staff_result_superseded_says_it_is_closed_and_refuses_a_stale_tap(
    new_page, organiser, duel, tmp_path
):
    from games import services as game_services
    from tournaments import services

    event, (first, second) = duel
    pod = event.rounds.get().pods.get(table_number=1)
    game = game_services.game_create(pod=pod, by=organiser)
    page = new_page(viewport=PHONE, user=organiser)
    page.goto(f"/dashboard/games/{game.pk}/")
    wait_for_htmx(page)
    a, b = game.players
    services.pod_result_report(event=event, round_number=1, table_number=1, placements={a: 1, b: 2}, by=organiser)

    # The judge's page was loaded before the result: their next tap is refused, and says why.
    page.get_by_role("button", name=f"{first}: Start turn").click()
    expect(page.get_by_role("alert").first).to_contain_text("recorded by hand")
    page.goto(f"/dashboard/games/{game.pk}/")
    closed = page.get_by_role("region", name="Closed")
    expect(closed).to_contain_text("This game is closed")
    expect(page.locator(".badge-superseded")).to_have_text("Closed: result recorded by hand")
    expect(page.locator(".quick-btn")).to_have_count(0)
    assert_fits(page)
    axe_check(page)
    page.screenshot(path=tmp_path / "console-closed.png", full_page=True)
    print(f"screenshots in {tmp_path}")
