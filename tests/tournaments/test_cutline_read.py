"""The cut line through its selector and ``GET /api/v1/events/{id}/cut-line/``, and the planned cut."""

from __future__ import annotations

import pytest

from core.exceptions import ApplicationError, Conflict
from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import Registration
from tournaments.selectors.cutline import event_cut_line, need_words

pytestmark = pytest.mark.django_db


def planned(event, organiser, size: int):
    return services.event_update(event=event, by=organiser, planned_cut_size=size)


def test_during_the_swiss_every_active_player_gets_what_they_need_for_the_recommended_cut(organiser, api) -> None:
    event = make_event(organiser, 12, rounds=4)  # 12 players: a top 4 is recommended
    for _ in range(2):
        services.round_start(event=event, by=organiser, allow_rematches=True)
        report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)

    body = api.get(f"/api/v1/events/{event.pk}/cut-line/").json()
    assert body["state"] == "swiss"
    assert (body["cut_size"], body["cut_source"], body["rounds_left"]) == (4, "recommended", 2)
    assert body["projected_line"] is not None and body["simulations"] == 100
    assert len(body["players"]) == 12
    leader = body["players"][0]
    assert leader["rank"] == 1 and leader["points"] == 6 and leader["rounds_left"] == 2
    assert leader["status"] in {"control", "alive"}
    assert leader["best_case"] == 12
    assert leader["message"]
    # The bottom of the table cannot be guaranteed anything with two rounds left among twelve.
    assert body["players"][-1]["guaranteed_with"] is None
    assert "conservative" in body["caveat"]


def test_a_player_whose_table_has_reported_has_a_round_fewer_left(organiser) -> None:
    event = planned(make_event(organiser, 8, rounds=3), organiser, 4)
    services.round_start(event=event, by=organiser)
    round_ = event.rounds.get()
    pod = round_.pods.filter(is_bye=False).order_by("table_number").first()
    seats = sorted(pod.seats.all(), key=lambda s: s.seat_order)
    services.pod_result_report(event=event, round_number=1, table_number=pod.table_number,
                               placements={seats[0].player_id: 1, seats[1].player_id: 2}, by=organiser)  # fmt: skip
    services.standings_recompute(event_id=event.pk)
    cut = event_cut_line(event=event)
    assert cut.cut_source == "planned"
    assert cut.row_of(seats[0].player_id).need.rounds_left == 2
    others = [r for r in cut.rows if r.player_id not in {seats[0].player_id, seats[1].player_id}]
    assert {r.need.rounds_left for r in others} == {3}


def test_without_a_cut_or_once_it_has_started_it_says_so_in_words(organiser, api) -> None:
    event = make_event(organiser, 6, rounds=3)  # 6 players: no cut recommended
    body = api.get(f"/api/v1/events/{event.pk}/cut-line/").json()
    assert body["state"] == "no_cut" and "No top cut is recommended" in body["message"]
    assert body["players"] == [] and body["safe_line"] is None

    services.event_update(event=event, by=organiser, planned_cut_size=4)
    assert api.get(f"/api/v1/events/{event.pk}/cut-line/").json()["state"] == "swiss"
    services.event_update(event=event, by=organiser, planned_cut_size=0)
    assert "The organiser plans no top cut" in api.get(f"/api/v1/events/{event.pk}/cut-line/").json()["message"]


def test_the_top_cut_starts_at_the_planned_size(organiser, api) -> None:
    event = make_event(organiser, 12, rounds=1)
    response = api.patch(f"/api/v1/events/{event.pk}/", {"planned_cut_size": 8}, format="json")
    assert response.status_code == 200 and response.json()["planned_cut_size"] == 8
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    services.top_cut_start(event=event, by=organiser)
    event.refresh_from_db()
    assert event.top_cut_size == 8
    body = api.get(f"/api/v1/events/{event.pk}/cut-line/").json()
    assert body["state"] == "cut_started" and "top 8" in body["message"]
    refused = api.patch(f"/api/v1/events/{event.pk}/", {"planned_cut_size": 4}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "top_cut_started"


def test_a_planned_cut_the_bracket_cannot_take_is_refused_with_a_field_error(organiser, api) -> None:
    event = make_event(organiser, 12, rounds=4)
    response = api.patch(f"/api/v1/events/{event.pk}/", {"planned_cut_size": 5}, format="json")
    assert response.status_code == 400
    assert "planned_cut_size" in str(response.json())
    pods = make_event(organiser, 20, rounds=3, format="format3-trinity")
    with pytest.raises(ApplicationError) as refused:
        services.event_update(event=pods, by=organiser, planned_cut_size=8)
    assert refused.value.field == "planned_cut_size"
    pods = services.event_update(event=pods, by=organiser, planned_cut_size=16)
    cut = event_cut_line(event=pods)
    assert cut.state == "swiss" and cut.cut_size == 16


def test_a_dropped_player_is_not_in_the_lines_and_nobody_else_sees_them(organiser, outsider_api) -> None:
    event = planned(make_event(organiser, 10, rounds=4), organiser, 4)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
    registration = event.registrations.order_by("pk").first()
    Registration.objects.filter(pk=registration.pk).update(dropped=True)
    services.standings_recompute(event_id=event.pk)
    body = outsider_api.get(f"/api/v1/events/{event.pk}/cut-line/").json()
    assert registration.player_id not in {p["player_id"] for p in body["players"]}
    assert len(body["players"]) == 9


def test_the_finished_event_and_an_unknown_event(organiser, api) -> None:
    event = make_event(organiser, 4, rounds=1)
    services.event_finish(event=event, by=organiser)
    assert api.get(f"/api/v1/events/{event.pk}/cut-line/").json()["state"] == "finished"
    missing = api.get("/api/v1/events/999999/cut-line/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_the_sentence_for_each_status() -> None:
    from tournaments.standings.cutline import PlayerCut, Record

    def need(**kw):
        base = {"points": 6, "rounds_left": 2, "guaranteed_with": None, "guaranteed_record": None,
                "possible_with": None, "likely_with": None, "best_case": 12}  # fmt: skip
        return PlayerCut(**(base | kw))

    assert "whatever happens" in need_words(need(guaranteed_with=0, possible_with=0))
    words = need_words(need(guaranteed_with=4, guaranteed_record=Record(1, 0, 1), possible_with=0))
    assert words == "4 more points in your 2 rounds left (a record of 1-0-1 or better) guarantee you a place."
    assert "depends on other tables" in need_words(need(possible_with=3))
    assert "out of reach" in need_words(need())


def test_conflict_is_raised_for_a_cut_planned_as_none_when_starting(organiser) -> None:
    event = planned(make_event(organiser, 12, rounds=1), organiser, 0)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    with pytest.raises(Conflict) as refused:
        services.top_cut_start(event=event, by=organiser)
    assert refused.value.code == "no_top_cut"
