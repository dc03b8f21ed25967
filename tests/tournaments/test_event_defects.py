"""Defects found by running whole events end to end, each pinned by a test.

* A top cut asked of an event too small for one answers 409, never 500.
* One count of players everywhere: the structure's recommendation and the cut agree.
* One order of tied players: the standings list them as the cut seeds them.
* The structure below a table's worth answers 409 ``too_few_players``; a second cut ``top_cut_started``.
* The event list counts each player once, however many rounds there were.
* A player dropped before round 1 has no standing.
* ``GET /events/?format=`` filters by game format.
"""

from __future__ import annotations

import pytest

from tests.support.events import make_event, play_swiss, report_all
from tournaments import services
from tournaments.models import Registration, Standing

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("slug", "options"),
    [("master-trainer", {}), ("format3-trinity", {}), ("mt-silver", {"three_player_pods": True})],
)
def test_a_top_cut_of_a_three_player_pod_event_is_refused_not_a_server_error(slug, options, organiser, api) -> None:
    # Mt. Silver seats 3 only under its house rule ("To play Mt. Silver, 4 players come together").
    event = make_event(organiser, 3, format=slug, rounds=1, options=options)
    play_swiss(event, organiser)
    response = api.post(f"/api/v1/events/{event.pk}/top-cut/", {}, format="json")
    assert response.status_code == 409, response.content
    assert response.json()["error"]["code"] == "no_top_cut"
    sized = api.post(f"/api/v1/events/{event.pk}/top-cut/", {"size": 4}, format="json")
    assert sized.status_code == 400, sized.content
    assert "size" in sized.json()["error"]["fields"]


def _drop(event, organiser, n: int) -> None:
    for registration in Registration.objects.filter(event=event).order_by("-pk")[:n]:
        services.registration_drop(registration=registration, by=organiser)


@pytest.mark.parametrize(
    ("slug", "players", "dropped", "cut"),
    [("mintayn-master", 18, 2, 8), ("format3-trinity", 8, 1, 4)],
)
def test_the_structure_and_the_cut_count_the_same_players(slug, players, dropped, cut, organiser, api) -> None:
    event = make_event(organiser, players, format=slug, rounds=2)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    _drop(event, organiser, dropped)  # they played round 1, then left
    services.round_start(event=event, by=organiser, allow_rematches=True)
    report_all(event, organiser)
    structure = api.get(f"/api/v1/events/{event.pk}/structure/").json()
    assert structure["players"] == players, "players who played and then dropped still count"
    assert structure["top_cut"] == cut
    started = api.post(f"/api/v1/events/{event.pk}/top-cut/", {}, format="json")
    assert started.status_code == 201, started.json()
    event.refresh_from_db()
    assert event.top_cut_size == structure["top_cut"]


def test_tied_players_are_listed_in_the_order_the_cut_seeds_them(organiser, api) -> None:
    event = make_event(organiser, 8, rounds=1)
    # Names in the reverse order of player ids: a listing by name would disagree with one by id.
    for registration, name in zip(
        Registration.objects.filter(event=event).order_by("player_id"), "HGFEDCBA", strict=True
    ):
        registration.player.display_name = name
        registration.player.save(update_fields=["display_name"])
    play_swiss(event, organiser)
    listed = [row["player"]["id"] for row in api.get(f"/api/v1/events/{event.pk}/standings/").json()["standings"]]
    ranks = dict(Standing.objects.filter(event=event).values_list("player_id", "rank"))
    assert len(set(ranks.values())) < len(ranks), "the test needs players who share a rank"
    response = api.post(f"/api/v1/events/{event.pk}/top-cut/", {"size": 4}, format="json")
    assert response.status_code == 201, response.json()
    seeds = {s["player"]["id"]: s["cut_seed"] for t in response.json()["tables"] for s in t["seats"]}
    assert sorted(seeds, key=seeds.get) == listed[:4]
    for table in response.json()["tables"]:
        for seat in table["seats"]:
            assert listed.index(seat["player"]["id"]) + 1 == seat["cut_seed"]
    page = [s.player_id for s in Standing.objects.filter(event=event)]  # the model's own order
    assert page == listed


def test_the_structure_below_one_table_answers_409_too_few_players(organiser, api) -> None:
    event = make_event(organiser, 3, format="mt-silver", rounds=1)
    response = api.get(f"/api/v1/events/{event.pk}/structure/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "too_few_players"
    assert "at least 4" in response.json()["error"]["message"]


def test_a_second_top_cut_answers_top_cut_started(organiser, api) -> None:
    event = make_event(organiser, 8, rounds=3)
    play_swiss(event, organiser)
    assert api.post(f"/api/v1/events/{event.pk}/top-cut/", {"size": 4}, format="json").status_code == 201
    again = api.post(f"/api/v1/events/{event.pk}/top-cut/", {}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "top_cut_started"


def test_the_event_list_counts_each_player_once_whatever_the_rounds(organiser, api, anon_api) -> None:
    event = make_event(organiser, 10, rounds=5)
    play_swiss(event, organiser)
    from tournaments import selectors

    listed = selectors.event_list().get(pk=event.pk)
    assert (listed.player_count, listed.round_count) == (10, 5)


def test_a_player_dropped_before_round_one_has_no_standing(organiser) -> None:
    event = make_event(organiser, 6, rounds=2)
    gone = Registration.objects.filter(event=event).first()
    services.registration_drop(registration=gone, by=organiser)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
    assert not Standing.objects.filter(event=event, player_id=gone.player_id).exists()
    assert Standing.objects.filter(event=event).count() == 5


def test_the_event_list_filters_by_game_format(organiser, anon_api) -> None:
    make_event(organiser, 0, format="deck-masters")
    make_event(organiser, 0, format="mt-silver")
    response = anon_api.get("/api/v1/events/?format=deck-masters")
    assert response.status_code == 200, response.content
    assert [e["format"] for e in response.json()["results"]] == ["deck-masters"]
