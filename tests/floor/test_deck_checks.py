"""Deck checks: tables picked by hand or drawn by a kept seed, started and recorded with extra time and penalties,
the log through the API and as a CSV file whose cells run no formula."""

from __future__ import annotations

import csv
import io

import pytest

from core.exceptions import ApplicationError, Conflict
from floor import services
from floor.models import DeckCheck
from live.models import TableTimeExtension
from tests.factories import RegistrationFactory
from tests.support.api_checks import Api
from tests.support.events import report_all
from tournaments import services as tournament_services
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

LIST = "/events/{event_id}/deck-checks/"


@pytest.fixture
def api(wsgi_in_test_transaction):
    return Api


def test_a_random_draw_keeps_its_seed_and_the_same_seed_draws_the_same_tables(floor_event, crew, organiser):
    checks, draw = services.deck_checks_pick(event=floor_event, by=crew["jo"], count=2, seed=77)
    assert draw.seed == 77 and draw.tables == [c.table_number for c in checks] and len(set(draw.tables)) == 2
    again = tournament_services.event_create(
        organiser=organiser, name="Twin", format="deck-masters", planned_rounds=3, date=floor_event.date
    )
    for registration in floor_event.registrations.select_related("player"):
        RegistrationFactory(event=again, player=registration.player)
    tournament_services.round_start(event=again, by=organiser, seed=1)
    _, twin = services.deck_checks_pick(event=again, by=organiser, count=2, seed=77)
    assert twin.tables == draw.tables
    entry = AuditEntry.objects.get(event=floor_event, action="deck_checks.picked")
    assert entry.after == {"tables": draw.tables, "draw_seed": 77}


def test_tables_checked_this_round_are_left_out_and_those_checked_before_drawn_last(floor_event, crew, organiser):
    services.deck_checks_pick(event=floor_event, by=crew["jo"], tables=[1, 2])
    with pytest.raises(Conflict) as twice:
        services.deck_checks_pick(event=floor_event, by=crew["jo"], tables=[2])
    assert twice.value.code == "table_checked"
    rest, _ = services.deck_checks_pick(event=floor_event, by=crew["jo"], count=2, seed=1)
    assert {c.table_number for c in rest} == {3, 4}
    with pytest.raises(Conflict) as none_left:
        services.deck_checks_pick(event=floor_event, by=crew["jo"], count=1, seed=1)
    assert none_left.value.code == "too_few_tables"
    report_all(floor_event, organiser)
    round2 = tournament_services.round_start(event=floor_event, by=organiser, seed=2)
    checked = {t.table_number for t in round2.pods.all()}  # every player of round 1 was checked: all drawn last
    picked, _ = services.deck_checks_pick(event=floor_event, by=crew["jo"], count=4, seed=5)
    assert {c.table_number for c in picked} == checked


def test_a_check_is_started_recorded_with_extra_time_and_linked_to_its_penalty(floor_event, crew):
    (check,), _ = services.deck_checks_pick(event=floor_event, by=crew["jo"], tables=[1])
    started = services.deck_check_start(check=check, by=crew["jo"])
    with pytest.raises(Conflict):
        services.deck_check_start(check=check, by=crew["jo"])
    with pytest.raises(ApplicationError) as no_note:
        services.deck_check_finish(check=started, by=crew["jo"], outcome="problem")
    assert no_note.value.field == "note"
    done = services.deck_check_finish(
        check=started, by=crew["jo"], outcome="problem", note="40 cards, 41 listed", minutes=5
    )
    assert done.ended_at >= done.started_at and done.extension == TableTimeExtension.objects.get()
    seated = check.pod.seats.order_by("seat_order").first().player_id
    registration = floor_event.registrations.get(player_id=seated)
    penalty = tournament_services.penalty_issue(
        event=floor_event, registration_id=registration.pk, penalty="game_loss", infraction="Decklist problem",
        by=crew["jo"],
    )  # fmt: skip
    services.deck_check_penalty_link(check=done, by=crew["jo"], penalty_id=penalty.pk)
    assert list(DeckCheck.objects.get().penalties.all()) == [penalty]
    eve_table = floor_event.registrations.get(player__user=crew["eve"])
    other = tournament_services.penalty_issue(
        event=floor_event, registration_id=eve_table.pk, penalty="warning", infraction="Slow", by=crew["jo"]
    )
    with pytest.raises(ApplicationError) as elsewhere:
        services.deck_check_penalty_link(check=done, by=crew["jo"], penalty_id=other.pk)
    assert elsewhere.value.field == "penalty"
    actions = set(AuditEntry.objects.filter(event=floor_event).values_list("action", flat=True))
    assert {"deck_check.started", "deck_check.recorded", "deck_check.penalty_linked"} <= actions


def test_the_api_picks_records_and_lists_the_log(api, floor_event, crew):
    picked = api(crew["jo"])("post", LIST, 201, {"count": 2, "seed": 3}, event_id=floor_event.pk)
    assert picked["seed"] == 3 and [c["seed"] for c in picked["checks"]] == [3, 3]
    first = picked["checks"][0]["id"]
    started = api(crew["jo"])("post", LIST + "{check_id}/start/", 200, event_id=floor_event.pk, check_id=first)
    assert started["status"] == "started" and started["judge"] == "jo"
    done = api(crew["jo"])("post", LIST + "{check_id}/finish/", 200, {"outcome": "ok", "minutes": 4},
                           event_id=floor_event.pk, check_id=first)  # fmt: skip
    assert (done["status"], done["outcome"], done["extension_minutes"]) == ("recorded", "ok", 4)
    refused = api(crew["pat"])("get", LIST, 403, event_id=floor_event.pk)  # a player: the staff's log
    assert refused["error"]["code"] == "permission_denied"
    log = api(crew["sam"])("get", LIST, 200, event_id=floor_event.pk)
    assert [c["status"] for c in log["results"]].count("recorded") == 1 and log["count"] == 2


def test_bad_picks_are_400s_naming_their_fields(api, floor_event, crew):
    both = api(crew["jo"])("post", LIST, 400, {"tables": [1], "count": 1}, event_id=floor_event.pk)
    assert set(both["error"]["fields"]) == {"tables"}
    bad = api(crew["jo"])("post", LIST, 400, {"count": 0, "seed": -1}, event_id=floor_event.pk)
    assert set(bad["error"]["fields"]) == {"count", "seed"}
    missing = api(crew["jo"])("post", LIST, 404, {"tables": [9]}, event_id=floor_event.pk)
    assert missing["error"]["code"] == "table_not_found"


def test_the_log_exports_as_csv_with_formulas_neutralised(client, floor_event, crew):
    (check,), _ = services.deck_checks_pick(event=floor_event, by=crew["jo"], tables=[2])
    services.deck_check_finish(check=check, by=crew["jo"], outcome="problem", note="=HYPERLINK(1)")
    client.force_login(crew["jo"])
    answer = client.get(f"/dashboard/events/{floor_event.pk}/deck-checks/export.csv")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["round", "table", "players"] and rows[1][:2] == ["1", "2"]
    assert rows[1][rows[0].index("note")] == "'=HYPERLINK(1)" and rows[1][rows[0].index("outcome")] == "problem"
