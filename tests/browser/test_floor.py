"""The venue floor in a real browser, on a 390 px phone: a player calls a judge from their page, a judge claims
the call on the queue and resolves it with extra time, which the player's page then tells them; then a judge draws
two tables at random for deck checks and records one.  axe-core and no sideways scrolling on every page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from floor.models import DeckCheck, JudgeCall
from tests.browser.conftest import PHONE
from tests.support.browser import assert_fits, axe_check
from tournaments.models import Player
from tournaments.services import staff

pytestmark = pytest.mark.browser


@pytest.fixture
def people(django_user_model, organiser, running_event):
    """jo judges the running event; pat plays at its table 1."""
    jo = django_user_model.objects.create_user(username="jo", password="pw")
    staff.staff_add(event=running_event, username="jo", role="judge", by=organiser)
    pat = django_user_model.objects.create_user(username="pat", password="pw")
    seat = running_event.rounds.get(number=1).pods.get(table_number=1).seats.order_by("seat_order").first()
    Player.objects.filter(pk=seat.player_id).update(user=pat)
    return {"judge": jo, "player": pat}


def test_a_player_calls_a_judge_who_claims_and_resolves_with_extra_time_then_draws_deck_checks(
    new_page, people, running_event
):
    event = running_event
    player = new_page(viewport=PHONE, user=people["player"])
    player.goto(f"/events/{event.pk}/")
    player.get_by_role("button", name="Call a judge").click()
    expect(player.get_by_text("Waiting for a judge")).to_be_visible()
    assert_fits(player)
    axe_check(player)

    judge = new_page(viewport=PHONE, user=people["judge"])
    assert judge.goto(f"/dashboard/events/{event.pk}/judge/").status == 200
    call = judge.locator(".call").first
    expect(call).to_contain_text("Table 1")
    assert_fits(judge)
    axe_check(judge)
    call.get_by_role("button", name="Claim table 1").click()
    expect(judge.locator(".call").first).to_contain_text("A judge is coming")
    judge.locator(".call").first.locator("summary").click()
    judge.get_by_label("Note (the ruling)").fill("Explained the effect's timing.")
    judge.get_by_label("Extra time for the table (minutes)").fill("3")
    axe_check(judge)
    judge.get_by_role("button", name="Resolve table 1").click()
    expect(judge.get_by_text("Table 1's call is resolved, +3 min.")).to_be_visible()
    assert JudgeCall.objects.get().state == "resolved"

    player.reload()
    expect(player.get_by_text("your table has 3 more minutes")).to_be_visible()

    judge.goto(f"/dashboard/events/{event.pk}/deck-checks/")
    judge.get_by_label("At random", exact=True).check()
    judge.get_by_label("How many (at random)").fill("2")
    judge.get_by_label("Seed (optional)").fill("11")
    judge.get_by_role("button", name="Pick").click()
    expect(judge.get_by_text("(drawn with seed 11)")).to_be_visible()
    assert_fits(judge)
    axe_check(judge)
    first = judge.locator(".check").first
    first.get_by_role("button", name="Start").click()
    first = judge.locator(".check").first
    first.locator("summary").click()
    first.get_by_label("OK", exact=True).check()
    first.get_by_role("button", name="Record the end").click()
    expect(judge.locator(".check").first.locator(".badge")).to_have_text("OK")
    assert sorted(DeckCheck.objects.values_list("outcome", flat=True)) == ["", "ok"]
    axe_check(judge)
