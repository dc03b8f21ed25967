"""The top cut through the services and the API: seeded bracket, pods cut, recommendation, no draws."""

from __future__ import annotations

import pytest

from core.exceptions import ApplicationError, Conflict
from tests.support.events import make_event, play_swiss, report_all
from tournaments import services
from tournaments.models import Round, Seat, Standing

pytestmark = pytest.mark.django_db


def tables(round_: Round) -> list[list[int]]:
    answer = []
    for pod in round_.pods.filter(is_bye=False).order_by("table_number"):
        answer.append([s.player_id for s in pod.seats.order_by("seat_order")])
    return answer


def test_a_top_eight_bracket_is_seeded_from_the_standings_and_played_to_the_final(organiser, api) -> None:
    event = make_event(organiser, 24, rounds=5)
    play_swiss(event, organiser)
    seeds = list(Standing.objects.filter(event=event).order_by("rank", "player_id").values_list("player_id", flat=True))

    # 24 players: the Magic table recommends a top 8 (Pokémon as well).
    structure = api.get(f"/api/v1/events/{event.pk}/structure/").json()
    assert (structure["players"], structure["top_cut"], structure["swiss_rounds"]) == (24, 8, 5)

    response = api.post(f"/api/v1/events/{event.pk}/top-cut/", {}, format="json")
    assert response.status_code == 201, response.json()
    quarter = response.json()
    assert quarter["stage"] == "top_cut" and quarter["label"] == "Quarter-finals"
    got = [[s["player"]["id"] for s in t["seats"]] for t in quarter["tables"]]
    s = seeds
    assert got == [[s[0], s[7]], [s[3], s[4]], [s[1], s[6]], [s[2], s[5]]]
    assert [st["cut_seed"] for st in quarter["tables"][0]["seats"]] == [1, 8]

    # Seed 1 wins every match: the final is 1 against 2, and Swiss standings stay as they were.
    for label in ("Semi-finals", "Final"):
        report_all(event, organiser)
        round_ = services.round_start(event=event, by=organiser)
        assert api.get(f"/api/v1/events/{event.pk}/rounds/{round_.number}/").json()["label"] == label
    final = event.rounds.order_by("-number").first()
    assert tables(final) == [[s[0], s[1]]]
    report_all(event, organiser)
    with pytest.raises(Conflict) as over:
        services.round_start(event=event, by=organiser)
    assert over.value.code == "top_cut_complete"
    services.standings_recompute(event_id=event.pk)
    assert (
        list(Standing.objects.filter(event=event).order_by("rank", "player_id").values_list("player_id", flat=True))
        == seeds
    )
    services.event_finish(event=event, by=organiser)


def test_a_top_cut_match_needs_a_winner(organiser) -> None:
    event = make_event(organiser, 8, rounds=3)
    play_swiss(event, organiser)
    round_ = services.top_cut_start(event=event, by=organiser, size=4)
    a, b = tables(round_)[0]
    with pytest.raises(ApplicationError) as refused:
        services.pod_result_report(
            event=event, round_number=round_.number, table_number=1, placements={a: 1, b: 1}, by=organiser
        )
    assert refused.value.field == "placements"
    c, d = tables(round_)[1]
    for change in (
        lambda: services.round_swap(event=event, round_number=round_.number, player_a=a, player_b=c, by=organiser),
        lambda: services.round_repair(event=event, round_number=round_.number, by=organiser),
    ):
        with pytest.raises(Conflict) as seeded:
            change()
        assert seeded.value.code == "top_cut_round"


def test_the_cut_waits_for_the_planned_swiss_rounds_and_refuses_impossible_sizes(organiser) -> None:
    event = make_event(organiser, 8, rounds=3)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    with pytest.raises(Conflict) as early:
        services.top_cut_start(event=event, by=organiser, size=4)
    assert early.value.code == "swiss_incomplete"
    for _ in range(2):
        services.round_start(event=event, by=organiser)
        report_all(event, organiser)
    with pytest.raises(ApplicationError) as too_big:
        services.top_cut_start(event=event, by=organiser, size=16)
    assert too_big.value.field == "size"
    # 8 players: no cut is recommended, so the organiser must choose one.
    with pytest.raises(Conflict) as none:
        services.top_cut_start(event=event, by=organiser)
    assert none.value.code == "no_top_cut"


def test_a_pod_cut_plays_semi_final_pods_and_a_final_pod_seated_by_seed(organiser) -> None:
    event = make_event(organiser, 20, format="mt-silver", rounds=3)
    play_swiss(event, organiser)
    seeds = list(Standing.objects.filter(event=event).order_by("rank", "player_id").values_list("player_id", flat=True))
    semis = services.top_cut_start(event=event, by=organiser, size=16)
    s = [None, *seeds]  # s[1] is seed 1
    assert tables(semis) == [
        [s[1], s[8], s[9], s[16]], [s[2], s[7], s[10], s[15]], [s[3], s[6], s[11], s[14]], [s[4], s[5], s[12], s[13]]
    ]  # fmt: skip
    report_all(event, organiser, winner_seat=2)  # seeds 8, 7, 6 and 5 win their pods
    final = services.round_start(event=event, by=organiser)
    assert tables(final) == [[s[5], s[6], s[7], s[8]]]
    assert [st.cut_seed for st in Seat.objects.filter(round=final).order_by("seat_order")] == [5, 6, 7, 8]
