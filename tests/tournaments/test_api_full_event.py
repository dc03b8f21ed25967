"""A whole 4-round event of every format, run through the REST API as a script would."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules import get_format

pytestmark = pytest.mark.django_db

PLAYERS = {"master-trainer": 11, "format3-trinity": 10, "mt-silver": 13, "deck-masters": 9, "mintayn-master": 10}


def random_placements(rng: random.Random, player_ids: list[int]) -> list[dict]:
    order = player_ids[:]
    rng.shuffle(order)
    if rng.random() < 0.1:  # now and then a shared first place (a draw)
        return [{"player": p, "placement": 1} for p in order[:2]] + [
            {"player": p, "placement": i} for i, p in enumerate(order[2:], start=3)
        ]
    return [{"player": p, "placement": i} for i, p in enumerate(order, start=1)]


@pytest.mark.parametrize("slug", sorted(PLAYERS))
def test_an_organiser_runs_a_whole_four_round_event(slug, api, anon_api, django_capture_on_commit_callbacks):
    fmt = get_format(slug)
    rng = random.Random(slug)
    event = api.post(
        "/api/v1/events/",
        {"name": f"{fmt.name} league", "format": slug, "planned_rounds": 4, "date": "2026-12-01"},
        format="json",
    ).json()
    eid = event["id"]
    for i in range(PLAYERS[slug]):
        assert (
            api.post(
                f"/api/v1/events/{eid}/registrations/", {"display_name": f"P{i:02d}", "checked_in": True}, format="json"
            ).status_code
            == 201
        )

    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for number in range(1, 5):
        response = api.post(f"/api/v1/events/{eid}/rounds/")
        assert response.status_code == 201, response.json()
        round_ = response.json()
        assert round_["number"] == number
        seated = [s["player"]["id"] for t in round_["tables"] for s in t["seats"]]
        assert len(seated) == len(set(seated)) == PLAYERS[slug]
        with django_capture_on_commit_callbacks(execute=True):
            for table in round_["tables"]:
                ids = [s["player"]["id"] for s in table["seats"]]
                if table["bye"]:
                    byes[ids[0]] += 1
                    continue
                assert fmt.table_size.min <= len(ids) <= fmt.table_size.max
                for a in ids:
                    for b in ids:
                        if a < b:
                            met[frozenset((a, b))] += 1
                reply = api.post(
                    f"/api/v1/events/{eid}/rounds/{number}/tables/{table['table']}/result/",
                    {"placements": random_placements(rng, ids)},
                    format="json",
                )
                assert reply.status_code == 201, reply.json()
        standings = anon_api.get(f"/api/v1/events/{eid}/standings/").json()
        assert standings["current"] is True
        rows = standings["standings"]
        assert len(rows) == PLAYERS[slug]
        assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
        assert all(r["matches"] == number for r in rows)
        points = [r["points"] for r in rows]
        assert points == sorted(points, reverse=True)

    if fmt.is_one_vs_one:
        assert max(met.values()) == 1, "a 1v1 Swiss event of 4 rounds never needs a rematch"
        assert max(byes.values(), default=0) <= 1
    refused = api.post(f"/api/v1/events/{eid}/rounds/")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "rounds_complete"
    finished = api.post(f"/api/v1/events/{eid}/finish/")
    assert finished.status_code == 200 and finished.json()["status"] == "finished"
    by_table = anon_api.get(f"/events/{eid}/pairings/?round=4")
    by_name = anon_api.get(f"/events/{eid}/pairings/by-name/?round=4")
    assert by_table.status_code == by_name.status_code == 200
    assert "P00" in by_name.content.decode()
