"""The demo's big event in a real browser: its organiser runs "Battle City Regionals" through a day 2 and a cut.

The demo (:mod:`demo.big_event`) leaves it with round 1 played (two qualified players had pre-assigned byes) and
round 2 staged.  The organiser, at a desk (desktop width), publishes round 2; on phones, the demo player calls a
judge from their page and a judge adds a second table to the queue, claims and resolves both, then draws a table
for a deck check and records it.  The organiser stages and publishes Day 1's last round, advances Day 1's players
on 6+ points, runs Day 2, starts the planned top 6 (seeds 1 and 2 go straight to the semi-finals) and plays it to
the final; the public standings then show Day 1's own table and the champion.  Results are reported through the
services, as the players' reports would arrive: the test is about what the organiser and judges touch.  axe-core on
every kind of page, and no sideways scrolling.
"""

from __future__ import annotations

import datetime
import random
import re

import pytest
from playwright.sync_api import expect

from demo import big_event
from demo.management.commands.demo import NAMES
from floor.models import DeckCheck, JudgeCall
from tests.browser.conftest import DESKTOP, PHONE
from tests.support.browser import assert_fits, axe_check
from tests.support.events import report_all
from tournaments import services
from tournaments.models import Event, Pod, Registration, Seat

pytestmark = pytest.mark.browser


@pytest.fixture
def regionals(organiser, django_user_model):
    judge = django_user_model.objects.create_user(username="judge", password="pw")
    player = django_user_model.objects.create_user(username="player", password="pw", first_name="Red")
    event, _ = big_event.big_event_demo(
        organiser=organiser, player_user=player, judge_username="judge", names=NAMES, rng=random.Random(2026),
        today=datetime.date(2026, 12, 5),
    )  # fmt: skip
    return event, judge, player


def _table_of(event: Event, round_number: int, user) -> int:
    return Pod.objects.get(round__event=event, round__number=round_number, seats__player__user=user).table_number


def _stage_and_publish(desk, event: Event, start: str | re.Pattern) -> None:
    """Start the next round from the dashboard (it is staged), then publish it."""
    desk.goto(f"/dashboard/events/{event.pk}/")
    desk.locator("#event-actions").get_by_role("button", name=start).click()
    banner = desk.locator("#staged")
    expect(banner).to_contain_text("is staged")
    banner.get_by_role("button", name=re.compile("^Publish ")).click()
    expect(desk.get_by_text(re.compile(r"is published: players see their tables\."))).to_be_visible()


def _stage_and_publish_by_services(event: Event, organiser) -> None:
    round_ = services.round_start(event=event, by=organiser)
    assert not round_.published  # staged
    services.round_publish(event=event, round_number=round_.number, by=organiser)


def test_the_organiser_runs_the_demo_regionals_through_day_two_and_the_cut_with_judges_on_phones(
    new_page, organiser, regionals, tmp_path
):
    event, judge, player = regionals
    qualified = Registration.objects.filter(event=event, player__display_name__in=big_event.QUALIFIED)
    assert all(r.bye_assignments.filter(round_number=1).exists() for r in qualified)

    # Round 2 is staged: the organiser reviews it at the desk and publishes it.
    desk = new_page(viewport=DESKTOP, user=organiser)
    desk.goto(f"/dashboard/events/{event.pk}/")
    expect(desk.locator("#staged")).to_contain_text("Round 2 is staged")
    axe_check(desk)
    assert_fits(desk)
    desk.locator("#staged").get_by_role("button", name="Publish round 2").click()
    expect(desk.get_by_text("Round 2 is published: players see their tables.")).to_be_visible()

    # Two judge calls: the demo player calls from their phone; a judge adds another table from the floor.
    mine = _table_of(event, 2, player)
    other = next(t for t in range(1, 12) if t != mine)
    phone = new_page(viewport=PHONE, user=player)
    phone.goto(f"/events/{event.pk}/")
    phone.get_by_role("button", name="Call a judge").click()
    expect(phone.get_by_text("Waiting for a judge")).to_be_visible()
    axe_check(phone)
    assert_fits(phone)

    floor = new_page(viewport=PHONE, user=judge)
    floor.goto(f"/dashboard/events/{event.pk}/judge/")
    floor.get_by_label("Table (round 2)").fill(str(other))
    floor.get_by_label("About (optional)").fill("A question on the Deck Master's Ability")
    floor.get_by_role("button", name="Add to the queue").click()
    expect(floor.locator(".call")).to_have_count(2)
    axe_check(floor)
    assert_fits(floor)
    for table in (mine, other):
        call = floor.locator(".call", has_text=f"Table {table}")
        call.get_by_role("button", name=f"Claim table {table}").click()
        call = floor.locator(".call", has_text=f"Table {table}")
        expect(call).to_contain_text("A judge is coming")
        call.locator("summary").click()
        call.get_by_label("Note (the ruling)").fill("Answered at the table.")
        call.get_by_role("button", name=f"Resolve table {table}").click()
        expect(floor.get_by_text(f"Table {table}'s call is resolved.")).to_be_visible()
    assert JudgeCall.objects.filter(event=event, round_number=2, state="resolved").count() == 2

    # A deck check of a table drawn at random, recorded as fine.
    floor.goto(f"/dashboard/events/{event.pk}/deck-checks/")
    floor.get_by_label("At random", exact=True).check()
    floor.get_by_label("How many (at random)").fill("1")
    floor.get_by_label("Seed (optional)").fill("7")
    floor.get_by_role("button", name="Pick").click()
    expect(floor.get_by_text("(drawn with seed 7)")).to_be_visible()
    check = floor.locator(".check", has_text="Round 2, table")
    check.get_by_role("button", name="Start").click()
    check.locator("summary").click()
    check.get_by_label("OK", exact=True).check()
    check.get_by_role("button", name="Record the end").click()
    expect(floor.locator(".check", has_text="Round 2, table").locator(".badge")).to_have_text("OK")
    axe_check(floor)
    assert_fits(floor)
    assert DeckCheck.objects.filter(event=event, round_number=2, outcome="ok").count() == 1

    # Day 1's last round (staged and published as round 2 was, here through the services for the suite's time);
    # then Day 1 advances from the dashboard.
    report_all(event, organiser)
    _stage_and_publish_by_services(event, organiser)
    report_all(event, organiser)
    desk.goto(f"/dashboard/events/{event.pk}/")
    expect(desk.locator("#event-actions").get_by_role("button", name="Start round 4")).to_have_count(0)
    advance = desk.get_by_role("button", name=re.compile(r"^Advance \d+ players from Day 1$"))
    going_on = int(re.search(r"\d+", advance.inner_text()).group())
    advance.click()
    expect(desk.get_by_text(f"{going_on} players go on to the next phase.")).to_be_visible()
    axe_check(desk)
    assert Registration.objects.filter(event=event, phase=2).count() == going_on >= big_event.CUT

    # Day 2: two rounds, each staged and published; Day 1's players who didn't go on are not paired.
    for _number in (4, 5):
        _stage_and_publish_by_services(event, organiser)
        report_all(event, organiser)
    seated = set(Seat.objects.filter(round__event=event, round__number=5).values_list("player_id", flat=True))
    assert seated == set(Registration.objects.filter(event=event, phase=2).values_list("player_id", flat=True))

    # The planned top 6: seeds 1 and 2 have byes into the semi-finals.
    desk.goto(f"/dashboard/events/{event.pk}/")
    expect(desk.get_by_label("Cut to")).to_have_value(str(big_event.CUT))
    desk.get_by_role("button", name="Start top cut").click()
    banner = desk.locator("#staged")
    expect(banner).to_contain_text("is staged")
    axe_check(desk)
    assert_fits(desk)
    desk.screenshot(path=str(tmp_path / "cut-staged.png"), full_page=True)
    banner.get_by_role("button", name=re.compile("^Publish ")).click()
    cut = event.rounds.get(number=6)
    assert cut.pods.filter(result__source="bye").count() == 2
    report_all(event, organiser)
    _stage_and_publish(desk, event, "Start the semi-finals")  # the seeds with byes meet the winners
    report_all(event, organiser)
    _stage_and_publish_by_services(event, organiser)  # the final
    report_all(event, organiser)

    # The public standings: Day 1's own table, and the champion.
    phone.goto(f"/events/{event.pk}/standings/?phase=1")
    expect(phone.get_by_role("navigation", name="Standings by phase")).to_be_visible()
    expect(phone.locator(".standings .badge", has_text="went on")).to_have_count(going_on)
    expect(phone.locator("#cut-line")).to_have_count(0)  # a phase's own table: the cut line is the overall page's
    axe_check(phone)
    assert_fits(phone)
    phone.screenshot(path=str(tmp_path / "day-1-standings.png"), full_page=True)
    phone.goto(f"/events/{event.pk}/")
    expect(phone.locator(".final-placements li").first).to_contain_text("Champion")
