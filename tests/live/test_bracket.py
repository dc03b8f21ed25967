"""The top cut on the public pages: the bracket fills in as results arrive, the dashboard's round button ends with
the final, and once the final is played the final placements are on the event page and in the API."""

from __future__ import annotations

import datetime

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.people import as_user
from tournaments import services

pytestmark = pytest.mark.django_db


def _win_every_table(event, organiser, number: int) -> None:
    round_ = event.rounds.get(number=number)
    for pod in round_.pods.filter(is_bye=False):
        seats = list(pod.seats.order_by("seat_order"))  # the better seed sits first and wins
        services.pod_result_report(
            event=event, round_number=number, table_number=pod.table_number, by=organiser,
            placements={seats[0].player_id: 1, **{s.player_id: 2 for s in seats[1:]}},
        )  # fmt: skip


@pytest.fixture
def cut(organiser):
    event = services.event_create(
        organiser=organiser, name="Cup", format="mintayn-master", planned_rounds=1, date=datetime.date(2026, 12, 4)
    )
    for n in range(8):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"Player {n + 1}"))
    services.round_start(event=event, by=organiser, seed=5)
    _win_every_table(event, organiser, 1)
    services.top_cut_start(event=event, by=organiser, size=8)
    return event


def test_the_bracket_fills_in_and_the_round_button_ends_with_the_final(cut, organiser, client, anon_api):
    dashboard = as_user(client, organiser)
    bracket = anon_api.get(f"/api/v1/events/{cut.pk}/bracket/").json()
    assert [r["label"] for r in bracket["rounds"]] == ["Quarter-finals", "Semi-finals", "Final"]
    assert [[s["seed"] for s in t["seats"]] for t in bracket["rounds"][0]["tables"]] == [[1, 8], [4, 5], [2, 7], [3, 6]]
    assert bracket["rounds"][1]["tables"][0] == {
        "number": 1, "decided": False, "to_come": True, "fed_by": [1, 2], "seats": []
    }  # fmt: skip
    assert bracket["placements"] == [] and not bracket["complete"]
    _win_every_table(cut, organiser, 2)
    assert "Start the semi-finals" in dashboard.get(f"/dashboard/events/{cut.pk}/").content.decode()
    services.round_start(event=cut, by=organiser)
    semis = anon_api.get(f"/api/v1/events/{cut.pk}/bracket/").json()["rounds"][1]
    assert [[s["seed"] for s in t["seats"]] for t in semis["tables"]] == [[1, 4], [2, 3]]
    _win_every_table(cut, organiser, 3)
    assert "Start the final" in dashboard.get(f"/dashboard/events/{cut.pk}/").content.decode()
    services.round_start(event=cut, by=organiser)
    page = dashboard.get(f"/dashboard/events/{cut.pk}/").content.decode()
    assert "Start the" not in page and "Next top-cut round" not in page  # the final is paired: finishing is left
    assert anon_api.get(f"/api/v1/events/{cut.pk}/").json()["final_placements"] == []

    _win_every_table(cut, organiser, 4)
    done = anon_api.get(f"/api/v1/events/{cut.pk}/bracket/").json()
    assert done["complete"]
    places = [(p["place"], p["label"], p["seed"]) for p in done["placements"]]
    assert places == [
        (1, "Champion", 1), (2, "Finalist", 2), (3, "Semi-finalist", 3), (3, "Semi-finalist", 4),
        (5, "Quarter-finalist", 5), (5, "Quarter-finalist", 6), (5, "Quarter-finalist", 7),
        (5, "Quarter-finalist", 8),
    ]  # fmt: skip
    detail = anon_api.get(f"/api/v1/events/{cut.pk}/").json()["final_placements"]
    assert [(p["place"], p["label"]) for p in detail[:2]] == [(1, "Champion"), (2, "Finalist")]
    public = client.get(f"/events/{cut.pk}/").content.decode()
    assert "Final placements" in public and "Champion" in public
    assert "Champion" in client.get(f"/events/{cut.pk}/bracket/").content.decode()


def test_a_pod_cut_plays_semi_final_pods_then_a_final_pod(organiser, anon_api):
    event = services.event_create(
        organiser=organiser, name="Pods", format="master-trainer", planned_rounds=1, date=datetime.date(2026, 12, 4)
    )
    for n in range(16):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"Trainer {n + 1}"))
    services.round_start(event=event, by=organiser, seed=5)
    _win_every_table(event, organiser, 1)
    services.top_cut_start(event=event, by=organiser, size=16)
    bracket = anon_api.get(f"/api/v1/events/{event.pk}/bracket/").json()
    assert [r["label"] for r in bracket["rounds"]] == ["Semi-final pods", "Final pod"]
    assert bracket["rounds"][1]["tables"][0]["fed_by"] == [1, 2, 3, 4]
    _win_every_table(event, organiser, 2)
    services.round_start(event=event, by=organiser)
    _win_every_table(event, organiser, 3)
    placements = anon_api.get(f"/api/v1/events/{event.pk}/bracket/").json()["placements"]
    assert [p["label"] for p in placements[:5]] == ["Champion", "2nd", "2nd", "2nd", "Semi-finalist, 2nd at their pod"]
    assert len(placements) == 16 and placements[-1]["place"] == 5


def _place_every_table_in_seat_order(event, organiser, number: int) -> None:
    for pod in event.rounds.get(number=number).pods.filter(is_bye=False):
        seats = list(pod.seats.order_by("seat_order"))
        services.pod_result_report(
            event=event, round_number=number, table_number=pod.table_number, by=organiser,
            placements={s.player_id: place for place, s in enumerate(seats, start=1)},
        )  # fmt: skip


def test_the_semi_final_pods_other_players_place_by_their_place_at_their_pod_as_the_league_counts_them(
    organiser, anon_api
):
    from leagues.points.placings import CutTable, final_placings

    event = services.event_create(
        organiser=organiser, name="Pods", format="master-trainer", planned_rounds=1, date=datetime.date(2026, 12, 4)
    )
    for n in range(16):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"Trainer {n + 1}"))
    services.round_start(event=event, by=organiser, seed=5)
    _win_every_table(event, organiser, 1)
    services.top_cut_start(event=event, by=organiser, size=16)
    _place_every_table_in_seat_order(event, organiser, 2)
    services.round_start(event=event, by=organiser)
    _place_every_table_in_seat_order(event, organiser, 3)

    placements = anon_api.get(f"/api/v1/events/{event.pk}/bracket/").json()["placements"]
    assert [p["place"] for p in placements] == [1, 2, 3, 4] + [5] * 4 + [9] * 4 + [13] * 4
    assert placements[4]["label"] == "Semi-finalist, 2nd at their pod"
    assert placements[8]["label"] == "Semi-finalist, 3rd at their pod"
    assert placements[12]["label"] == "Semi-finalist, 4th at their pod"

    # The league's placings of the same cut (its pure engine) give every player the same place.
    by_table: dict[tuple[int, int], dict[int, int]] = {}
    for number in (2, 3):
        for pod in event.rounds.get(number=number).pods.all():
            by_table[(number, pod.pk)] = {s.player_id: s.placement for s in pod.seats.all()}
    cut_tables = [CutTable(round_number=number, placements=seats) for (number, _), seats in by_table.items()]
    ids = [p["player"] for p in placements]
    league = final_placings(dict.fromkeys(ids, 1), cut_tables, cut_size=16)
    assert dict(zip(ids, (p["place"] for p in placements), strict=True)) == league
