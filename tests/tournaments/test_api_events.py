"""The REST API: events, registrations, rounds, results and standings, and its refusals."""

from __future__ import annotations

import pytest

from tournaments.models import Event, Seat

pytestmark = pytest.mark.django_db


def create_event(api, fmt="deck-masters", rounds=3, **extra):
    body = {"name": "Friday Night", "format": fmt, "planned_rounds": rounds, "date": "2026-11-27", **extra}
    response = api.post("/api/v1/events/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def register(api, event_id, names, checked_in=True):
    ids = []
    for name in names:
        response = api.post(
            f"/api/v1/events/{event_id}/registrations/", {"display_name": name, "checked_in": checked_in}, format="json"
        )
        assert response.status_code == 201, response.json()
        ids.append(response.json())
    return ids


def test_an_organiser_creates_an_event_with_a_token(api):
    event = create_event(api)
    assert event["status"] == "registration"
    assert event["organiser"] == "organiser"


def test_anyone_lists_events_but_only_signed_in_users_create_them(api, anon_api):
    create_event(api)
    assert anon_api.get("/api/v1/events/").status_code == 200
    response = anon_api.post("/api/v1/events/", {"name": "x"}, format="json")
    assert response.status_code in (401, 403)


def test_a_bad_event_gets_field_errors(api):
    response = api.post("/api/v1/events/", {"name": "", "format": "standard", "planned_rounds": 0}, format="json")
    assert response.status_code == 400
    fields = response.json()["error"]["fields"]
    assert {"name", "format", "planned_rounds", "date"} <= set(fields)


def test_a_body_that_is_not_json_gets_a_400(api):
    response = api.post("/api/v1/events/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"


def test_a_player_cannot_register_twice(api):
    event = create_event(api)
    first = register(api, event["id"], ["Ash"])[0]
    response = api.post(
        f"/api/v1/events/{event['id']}/registrations/", {"player": first["player"]["id"]}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "already_registered"
    assert Event.objects.get(pk=event["id"]).registrations.count() == 1


def test_registering_an_unknown_player_id_is_a_field_error(api):
    event = create_event(api)
    response = api.post(f"/api/v1/events/{event['id']}/registrations/", {"player": 99999}, format="json")
    assert response.status_code == 400
    assert "player" in response.json()["error"]["fields"]


def test_only_the_organiser_changes_an_event(api, outsider_api):
    event = create_event(api)
    response = outsider_api.post(f"/api/v1/events/{event['id']}/registrations/", {"display_name": "Eve"}, format="json")
    assert response.status_code == 403
    assert outsider_api.post(f"/api/v1/events/{event['id']}/rounds/").status_code == 403


def test_site_staff_may_change_any_event(api, site_staff):
    from tests.conftest import _client_for

    event = create_event(api)
    response = _client_for(site_staff).post(
        f"/api/v1/events/{event['id']}/registrations/", {"display_name": "Eve"}, format="json"
    )
    assert response.status_code == 201


def test_starting_a_round_returns_tables_and_seats_and_gives_the_odd_player_a_bye(api):
    event = create_event(api)
    register(api, event["id"], ["Ash", "Misty", "Brock", "May", "Dawn"])
    response = api.post(f"/api/v1/events/{event['id']}/rounds/")
    assert response.status_code == 201
    body = response.json()
    assert body["number"] == 1
    tables = [t for t in body["tables"] if not t["bye"]]
    byes = [t for t in body["tables"] if t["bye"]]
    assert [t["table"] for t in tables] == [1, 2]
    assert all(len(t["seats"]) == 2 for t in tables)
    assert len(byes) == 1 and byes[0]["seats"][0]["points"] == 3


def test_players_not_checked_in_are_not_paired(api):
    event = create_event(api)
    register(api, event["id"], ["Ash", "Misty"])
    register(api, event["id"], ["Brock"], checked_in=False)
    body = api.post(f"/api/v1/events/{event['id']}/rounds/").json()
    seated = {s["player"]["display_name"] for t in body["tables"] for s in t["seats"]}
    assert seated == {"Ash", "Misty"}


def test_starting_a_round_with_results_missing_is_refused_and_changes_nothing(api):
    event = create_event(api)
    register(api, event["id"], ["Ash", "Misty", "Brock", "May"])
    api.post(f"/api/v1/events/{event['id']}/rounds/")
    response = api.post(f"/api/v1/events/{event['id']}/rounds/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "round_incomplete"
    assert "tables 1, 2" in response.json()["error"]["message"]
    assert Event.objects.get(pk=event["id"]).rounds.count() == 1


def test_too_few_players_cannot_start_a_round(api):
    event = create_event(api, fmt="mt-silver")
    register(api, event["id"], ["Ash", "Misty"])
    response = api.post(f"/api/v1/events/{event['id']}/rounds/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_enough_players"


def _first_table(api, event_id):
    round_ = api.get(f"/api/v1/events/{event_id}/rounds/1/").json()
    return next(t for t in round_["tables"] if not t["bye"])


def test_a_result_is_recorded_and_a_repeat_of_it_changes_nothing(api, django_capture_on_commit_callbacks):
    event = create_event(api)
    register(api, event["id"], ["Ash", "Misty"])
    api.post(f"/api/v1/events/{event['id']}/rounds/")
    table = _first_table(api, event["id"])
    a, b = (s["player"]["id"] for s in table["seats"])
    body = {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]}
    url = f"/api/v1/events/{event['id']}/rounds/1/tables/1/result/"
    with django_capture_on_commit_callbacks(execute=True):
        first = api.post(url, body, format="json")
    assert first.status_code == 201
    assert [s["points"] for s in first.json()["seats"]] == [3, 0]
    again = api.post(url, body, format="json")
    assert again.status_code == 200
    standings = api.get(f"/api/v1/events/{event['id']}/standings/").json()
    assert standings["current"] is True
    assert [(s["player"]["id"], s["points"]) for s in standings["standings"]] == [(a, 3), (b, 0)]


def test_a_second_conflicting_result_is_refused_and_the_first_stays(api):
    event = create_event(api)
    register(api, event["id"], ["Ash", "Misty"])
    api.post(f"/api/v1/events/{event['id']}/rounds/")
    a, b = (s["player"]["id"] for s in _first_table(api, event["id"])["seats"])
    url = f"/api/v1/events/{event['id']}/rounds/1/tables/1/result/"
    api.post(url, {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]}, format="json")
    response = api.post(
        url, {"placements": [{"player": a, "placement": 2}, {"player": b, "placement": 1}]}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "result_exists"
    assert Seat.objects.get(player_id=a).placement == 1


def test_a_result_naming_players_of_another_table_is_refused(api):
    event = create_event(api)
    register(api, event["id"], ["Ash", "Misty", "Brock", "May"])
    round_ = api.post(f"/api/v1/events/{event['id']}/rounds/").json()
    other = round_["tables"][1]["seats"]
    body = {
        "placements": [
            {"player": other[0]["player"]["id"], "placement": 1},
            {"player": other[1]["player"]["id"], "placement": 2},
        ]
    }
    response = api.post(f"/api/v1/events/{event['id']}/rounds/1/tables/1/result/", body, format="json")
    assert response.status_code == 400
    assert "placements" in response.json()["error"]["fields"]
    assert not Seat.objects.filter(placement__isnull=False).exists()


def test_a_result_for_a_table_of_a_closed_round_is_refused(api):
    event = create_event(api)
    register(api, event["id"], ["Ash", "Misty"])
    api.post(f"/api/v1/events/{event['id']}/rounds/")
    a, b = (s["player"]["id"] for s in _first_table(api, event["id"])["seats"])
    url = f"/api/v1/events/{event['id']}/rounds/1/tables/1/result/"
    api.post(url, {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]}, format="json")
    assert (
        api.post(f"/api/v1/events/{event['id']}/rounds/", {"allow_rematches": True}, format="json").status_code == 201
    )
    response = api.post(
        url, {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 1}]}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "round_closed"


@pytest.mark.parametrize(
    ("placements", "status"),
    [
        ([], 400),
        ([{"player": "x", "placement": 1}], 400),
        ([{"player": 1, "placement": 0}], 400),
        ("not a list", 400),
        ([{"player": 1, "placement": 1}, {"player": 1, "placement": 2}], 400),
    ],
)
def test_malformed_placements_get_field_errors(api, placements, status):
    event = create_event(api)
    register(api, event["id"], ["Ash", "Misty"])
    api.post(f"/api/v1/events/{event['id']}/rounds/")
    response = api.post(
        f"/api/v1/events/{event['id']}/rounds/1/tables/1/result/", {"placements": placements}, format="json"
    )
    assert response.status_code == status
    assert "placements" in response.json()["error"]["fields"]


def test_placements_that_skip_a_place_are_refused(api):
    event = create_event(api, fmt="mt-silver")
    register(api, event["id"], ["Ash", "Misty", "Brock", "May"])
    round_ = api.post(f"/api/v1/events/{event['id']}/rounds/").json()
    ids = [s["player"]["id"] for s in round_["tables"][0]["seats"]]
    body = {"placements": [{"player": p, "placement": pl} for p, pl in zip(ids, [1, 1, 2, 4], strict=True)]}
    response = api.post(f"/api/v1/events/{event['id']}/rounds/1/tables/1/result/", body, format="json")
    assert response.status_code == 400
    assert "ties sharing a place" in response.json()["error"]["fields"]["placements"][0]


def test_unknown_rounds_and_tables_are_404(api):
    event = create_event(api)
    register(api, event["id"], ["Ash", "Misty"])
    api.post(f"/api/v1/events/{event['id']}/rounds/")
    body = {"placements": [{"player": 1, "placement": 1}]}
    assert api.post(f"/api/v1/events/{event['id']}/rounds/7/tables/1/result/", body, format="json").status_code == 404
    assert api.post(f"/api/v1/events/{event['id']}/rounds/1/tables/9/result/", body, format="json").status_code == 404
    assert api.get("/api/v1/events/424242/standings/").status_code == 404


def test_a_dropped_player_is_not_paired_again_but_stays_in_the_standings(api, django_capture_on_commit_callbacks):
    event = create_event(api)
    regs = register(api, event["id"], ["Ash", "Misty", "Brock", "May"])
    round_ = api.post(f"/api/v1/events/{event['id']}/rounds/").json()
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_["tables"]:
            a, b = (s["player"]["id"] for s in table["seats"])
            api.post(
                f"/api/v1/events/{event['id']}/rounds/1/tables/{table['table']}/result/",
                {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]},
                format="json",
            )
        dropped = api.post(f"/api/v1/events/{event['id']}/registrations/{regs[0]['id']}/drop/").json()
    assert dropped["dropped"] is True and dropped["dropped_after_round"] == 1
    round2 = api.post(f"/api/v1/events/{event['id']}/rounds/").json()
    seated = {s["player"]["id"] for t in round2["tables"] for s in t["seats"]}
    assert regs[0]["player"]["id"] not in seated
    standings = api.get(f"/api/v1/events/{event['id']}/standings/").json()["standings"]
    assert any(s["player"]["id"] == regs[0]["player"]["id"] and s["dropped"] for s in standings)


def test_the_schema_and_docs_are_served(anon_api):
    assert anon_api.get("/api/schema/").status_code == 200
    docs = anon_api.get("/api/docs/")
    assert docs.status_code == 200
    assert "cdn." not in docs.content.decode(), "the docs page must work offline: assets come from the sidecar package"


def test_formats_are_listed(anon_api):
    slugs = [f["slug"] for f in anon_api.get("/api/v1/formats/").json()["results"]]
    assert slugs == ["master-trainer", "format3-trinity", "mt-silver", "deck-masters", "mintayn-master"]


def test_an_event_picks_its_tiebreakers_and_standings_show_them(api, django_capture_on_commit_callbacks):
    event = create_event(api, tiebreakers="magic")
    assert event["tiebreakers"] == "magic"
    register(api, event["id"], ["Ash", "Misty"])
    round_ = api.post(f"/api/v1/events/{event['id']}/rounds/").json()
    a, b = (s["player"]["id"] for s in round_["tables"][0]["seats"])
    with django_capture_on_commit_callbacks(execute=True):
        api.post(
            f"/api/v1/events/{event['id']}/rounds/1/tables/1/result/",
            {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]},
            format="json",
        )
    rows = api.get(f"/api/v1/events/{event['id']}/standings/").json()["standings"]
    assert rows[0]["game_win_pct"] == 1.0 and rows[1]["opp_game_win_pct"] == 1.0


def test_classic_standings_answer_the_game_win_percentages_of_the_game_scores(api, django_capture_on_commit_callbacks):
    event = create_event(api)  # Deck Masters, best of 3, classic tiebreakers
    assert event["tiebreakers"] == "classic"
    register(api, event["id"], ["Ash", "Misty"])
    round_ = api.post(f"/api/v1/events/{event['id']}/rounds/").json()
    a, b = (s["player"]["id"] for s in round_["tables"][0]["seats"])
    with django_capture_on_commit_callbacks(execute=True):
        reported = api.post(
            f"/api/v1/events/{event['id']}/rounds/1/tables/1/result/",
            {
                "placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}],
                "games": [
                    {"player": a, "won": 2, "lost": 1, "drawn": 0},
                    {"player": b, "won": 1, "lost": 2, "drawn": 0},
                ],
            },
            format="json",
        )
    assert reported.status_code == 201, reported.json()

    rows = {r["player"]["id"]: r for r in api.get(f"/api/v1/events/{event['id']}/standings/").json()["standings"]}
    # 2-1: 6 game points of 9 for the winner, 3 of 9 for the loser; each one's opponent is the other
    # (the loser's 1/3 is above the 0.33 floor of the opponents' figure).
    assert (rows[a]["game_win_pct"], rows[a]["opp_game_win_pct"]) == (0.666667, 0.333333)
    assert (rows[b]["game_win_pct"], rows[b]["opp_game_win_pct"]) == (0.333333, 0.666667)


def test_unknown_tiebreakers_are_a_field_error(api):
    body = {"name": "x", "format": "deck-masters", "planned_rounds": 3, "date": "2026-11-27", "tiebreakers": "chess"}
    response = api.post("/api/v1/events/", body, format="json")
    assert response.status_code == 400 and "tiebreakers" in response.json()["error"]["fields"]
