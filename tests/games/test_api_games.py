"""The games API: whole games of every format recorded through it, and its refusals.

Each format's scripted game (the one its engine tests play, from :mod:`tests.support.games`) is
replayed here one entry at a time, as a judge's client would send it: over JSON, naming the
version it last saw.  When the game (or the Deck Masters match) ends, its
placements become the table's result and the standings follow.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from games.models import Game
from games.services import replay
from rules.engine import GameEvent
from tests.support.games import (
    append,
    deck_masters_duel,
    format3_trinity_game,
    games_url,
    master_trainer_game,
    mintayn_master_game,
    mt_silver_game,
    record,
    seat_ids,
    seated_table,
    start_game,
    yugioh_pool,
)
from tournaments.models import Pod, PodResult

pytestmark = pytest.mark.django_db

Script = Callable[[list[int]], list[GameEvent]]


# --- helpers ----------------------------------------------------------------------------------------


def void(client: APIClient, game: dict, seq: int, reason: str = "recorded by mistake", *, version: int | None = None):
    body = {"expected_version": game["version"] if version is None else version, "reason": reason}
    return client.post(f"/api/v1/games/{game['id']}/events/{seq}/void/", body, format="json")


def state_of(client: APIClient, game: dict) -> dict:
    response = client.get(f"/api/v1/games/{game['id']}/")
    assert response.status_code == 200
    return response.json()


def log_of(client: APIClient, game: dict) -> list[dict]:
    response = client.get(f"/api/v1/games/{game['id']}/events/")
    assert response.status_code == 200
    return response.json()["results"]


def assert_table_result(client: APIClient, pod: Pod, placements: list[int], points: list[int]) -> None:
    """The seats hold the placements and points, the result came from a game, and the standings show it."""
    seats = list(pod.seats.order_by("seat_order"))
    assert [s.placement for s in seats] == placements
    assert [s.points for s in seats] == points
    assert PodResult.objects.get(pod=pod).source == PodResult.Source.GAME
    standings = client.get(f"/api/v1/events/{pod.round.event_id}/standings/").json()
    assert standings["current"] is True
    assert {s["player"]["id"]: s["points"] for s in standings["standings"]} == {s.player_id: s.points for s in seats}


def mintayn_table(organiser, api: APIClient) -> tuple[dict, int, int]:
    """A Mintayn Master game just created at the only table: the quickest game to poke at."""
    pod = seated_table(organiser, "mintayn-master", 2)
    p1, p2 = seat_ids(pod)
    return start_game(api, pod), p1, p2


# --- whole games ------------------------------------------------------------------------------------

WHOLE_GAMES = [
    # format, script for the seat ids, placements by seat, points by seat (pods: 3, 1, 0, 0; 1v1: 3, 0)
    pytest.param("master-trainer", master_trainer_game, [1, 2, 3, 4], [3, 1, 0, 0], id="master-trainer"),
    pytest.param("format3-trinity", format3_trinity_game, [4, 1, 2, 3], [0, 3, 1, 0], id="format3-trinity"),
    pytest.param("mt-silver", mt_silver_game, [3, 2, 3, 1], [0, 1, 0, 3], id="mt-silver"),
    pytest.param("mintayn-master", lambda ids: mintayn_master_game(*ids), [1, 2], [3, 0], id="mintayn-master"),
]


@pytest.mark.parametrize(("fmt", "script", "placements", "points"), WHOLE_GAMES)
def test_a_whole_game_recorded_through_the_api_becomes_the_tables_result_and_updates_the_standings(
    api, organiser, django_capture_on_commit_callbacks, fmt: str, script: Script, placements, points
):
    pod = seated_table(organiser, fmt, len(placements))
    ids = seat_ids(pod)
    game = start_game(api, pod)
    assert (game["format"], game["number"], game["version"], game["status"]) == (fmt, 1, 0, "in_progress")
    assert game["players"] == ids
    events = script(ids)

    with django_capture_on_commit_callbacks(execute=True):
        game = record(api, game, events)

    assert game["status"] == "finished" and game["version"] == len(events)
    assert game["state"]["result"]["placements"] == {
        str(pid): place for pid, place in zip(ids, placements, strict=True)
    }
    assert_table_result(api, pod, placements, points)
    stored = Game.objects.get(pk=game["id"])
    assert stored.finished_at is not None
    assert replay(stored) == stored.state == game["state"], "the log replays from the database to the snapshot"
    log = log_of(api, game)
    assert [(e["seq"], e["type"]) for e in log] == [(n, e.type) for n, e in enumerate(events, start=1)]
    assert {e["recorded_by"] for e in log} == {"organiser"}
    # The table has its result: no further game can start there.
    response = api.post(games_url(pod), {}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "result_exists"


def test_a_deck_masters_match_goes_to_the_player_who_wins_two_duels(api, organiser, django_capture_on_commit_callbacks):
    pod = seated_table(organiser, "deck-masters", 2)
    a, b = seat_ids(pod)
    with django_capture_on_commit_callbacks(execute=True):
        first = record(api, start_game(api, pod), deck_masters_duel(a, b))
    assert first["status"] == "finished" and first["number"] == 1
    assert not PodResult.objects.filter(pod=pod).exists()

    second = start_game(api, pod)
    assert (second["number"], second["version"], second["players"]) == (2, 0, [a, b])
    assert second["state"]["players"][0]["lp"] == 8000, "a new duel starts afresh"
    with django_capture_on_commit_callbacks(execute=True):
        second = record(api, second, deck_masters_duel(a, b))

    assert second["state"]["result"]["placements"] == {str(a): 1, str(b): 2}
    assert_table_result(api, pod, [1, 2], [3, 0])
    games = api.get(games_url(pod)).json()["results"]
    assert [(g["number"], g["status"]) for g in games] == [(1, "finished"), (2, "finished")]
    response = api.post(games_url(pod), {}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "result_exists"


def test_after_one_deck_masters_duel_the_table_has_no_result_yet(api, organiser, django_capture_on_commit_callbacks):
    pod = seated_table(organiser, "deck-masters", 2)
    a, b = seat_ids(pod)
    game = start_game(api, pod)
    refused = api.post(games_url(pod), {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "game_in_progress"

    with django_capture_on_commit_callbacks(execute=True):
        game = record(api, game, deck_masters_duel(a, b))

    assert game["status"] == "finished"
    assert not PodResult.objects.filter(pod=pod).exists()
    assert list(pod.seats.values_list("placement", "points")) == [(None, None), (None, None)]
    assert pod.round.event.standings.count() == 0


def test_the_next_deck_masters_duel_starts_with_the_deck_masters_of_the_last_one(
    api, organiser, django_capture_on_commit_callbacks
):
    """Nobody registered a deck: the judge named the Deck Masters for duel 1, and duel 2 starts with them; a
    player may choose another for a duel (RULES OF THE DECK MASTERS), and the duel after carries that one."""
    pod = seated_table(organiser, "deck-masters", 2)
    a, b = seat_ids(pod)
    named = {str(a): "Jinzo", str(b): "Dark Magician"}
    first = api.post(games_url(pod), {"options": {"deck_masters": named}}, format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        record(api, first, [GameEvent("concede", {"player": a})])

    second = start_game(api, pod)
    cards = {p["id"]: p["deck_master"]["card"] for p in second["state"]["players"]}
    assert cards == {a: "Jinzo", b: "Dark Magician"}
    assert Game.objects.get(pk=second["id"]).options["deck_masters"] == named
    with django_capture_on_commit_callbacks(execute=True):
        record(api, second, [GameEvent("concede", {"player": b})])

    third = api.post(games_url(pod), {"options": {"deck_masters": {str(b): "Kuriboh"}}}, format="json").json()
    cards = {p["id"]: p["deck_master"]["card"] for p in third["state"]["players"]}
    assert cards == {a: "Jinzo", b: "Kuriboh"}


@pytest.fixture
def yugioh_cards():
    """A few Yu-Gi-Oh! cards in the pool; the in-memory pool is forgotten after the test (its rows roll back)."""
    from decks import catalogue

    yugioh_pool()
    yield
    catalogue.clear()


@pytest.mark.parametrize("card", ["Pot of Greed", "mirror force", "44095762"])
def test_a_spell_or_trap_named_as_deck_master_is_refused(api, organiser, yugioh_cards, card):
    """DUEL SETUP: "Only Monster Cards are allowed to be Deck Masters ... Spell Cards and Trap Cards are not allowed
    to be Deck Masters"."""
    pod = seated_table(organiser, "deck-masters", 2)
    a, b = seat_ids(pod)
    response = api.post(games_url(pod), {"options": {"deck_masters": {str(a): card}}}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_deck_master"
    assert "only Monster Cards" in error["message"] and error["fields"] == {"options": [error["message"]]}
    assert not Game.objects.filter(pod=pod).exists()


def test_a_deck_master_read_against_the_card_pool(api, organiser, yugioh_cards):
    """A monster of the pool is taken (a passcode becomes its name); a name the pool does not hold is refused as in a
    deck (unknown_card), with the pool's nearest name."""
    pod = seated_table(organiser, "deck-masters", 2)
    a, b = seat_ids(pod)
    unknown = api.post(games_url(pod), {"options": {"deck_masters": {str(a): "Dark Magican"}}}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["error"]["code"] == "unknown_card" and "Dark Magician" in unknown.json()["error"]["message"]
    named = {str(a): "Hyper Hammerhead", str(b): "46986414"}
    game = api.post(games_url(pod), {"options": {"deck_masters": named}}, format="json")
    assert game.status_code == 201, game.json()
    cards = {p["id"]: p["deck_master"]["card"] for p in game.json()["state"]["players"]}
    assert cards == {a: "Hyper Hammerhead", b: "Dark Magician"}


def test_without_card_data_a_deck_masters_name_is_taken_as_given(api, organiser):
    """No Yu-Gi-Oh! card data imported: nothing to read the name against."""
    from decks.models import CatalogueVersion

    CatalogueVersion.objects.filter(family="yugioh").update(card_count=0)
    pod = seated_table(organiser, "deck-masters", 2)
    a, _ = seat_ids(pod)
    game = api.post(games_url(pod), {"options": {"deck_masters": {str(a): "Pot of Greed"}}}, format="json")
    assert game.status_code == 201


def test_a_deck_masters_ability_is_recorded_once_per_turn_through_the_api(api, organiser):
    """THE ABILITY: Hyper Hammerhead's "Ability can only be activated once per turn by paying 700 Life Points ... The
    effect of the Ability is negated, and I cannot activate the Ability again this turn"."""
    pod = seated_table(organiser, "deck-masters", 2)
    a, b = seat_ids(pod)
    body = {"options": {"deck_masters": {str(a): "Hyper Hammerhead"}}}
    game = api.post(games_url(pod), body, format="json").json()
    game = record(api, game, [GameEvent("start_turn", {"player": a})])
    response = append(api, game, "activate_ability", {"player": a, "negated": True})
    assert response.status_code == 201, response.json()
    game = response.json()
    me = next(p for p in game["state"]["players"] if p["id"] == a)
    assert me["lp"] == 7300
    assert me["abilities_used"] == [{"deck_master": "Hyper Hammerhead", "ability": None, "negated": True}]
    again = append(api, game, "activate_ability", {"player": a})
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "ability_once_per_turn"
    assert again.json()["error"]["rule"] == "THE ABILITY"
    damage = record(api, game, [GameEvent("phase", {"phase": "battle", "step": "battle"}),
                                GameEvent("phase", {"phase": "battle", "step": "damage"})])  # fmt: skip
    refused = append(api, damage, "activate_ability", {"player": b})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "damage_step"


# --- refusals and conflicts -------------------------------------------------------------------------


def test_a_refused_event_answers_400_with_the_rule_and_changes_nothing(api, organiser):
    game, p1, p2 = mintayn_table(organiser, api)
    game = record(api, game, [GameEvent("start_turn", {"player": p1})])
    before = state_of(api, game)

    response = append(api, game, "attack", {"player": p1, "monster": "m1", "target": "lp"})

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "first_turn_attack"
    assert error["rule"] == "Game Setup"
    assert error["message"]
    assert state_of(api, game) == before
    assert len(log_of(api, game)) == 1


@pytest.mark.parametrize(
    ("type_", "data", "code"),
    [
        ("start_turn", {"player": "second"}, "not_your_turn"),
        ("teleport", {}, "unknown_event"),
        ("start_turn", {}, "missing_field"),
        ("void", {"seq": 1}, "use_void"),
    ],
)
def test_events_the_rules_refuse_keep_the_version(api, organiser, type_, data, code):
    game, p1, p2 = mintayn_table(organiser, api)
    data = {k: (p2 if v == "second" else v) for k, v in data.items()}
    response = append(api, game, type_, data)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert state_of(api, game)["version"] == 0


def test_a_format3_pass_for_no_valid_target_while_one_remains_answers_400_and_changes_nothing(api, organiser):
    # Rule Set #3: "you are also not allowed to pass your turn without attacking unless you are simply unable due
    # to having no valid targets remaining in play or by having insufficient energy to perform an attack."
    pod = seated_table(organiser, "format3-trinity", 4)
    a, b, c, d = seat_ids(pod)
    game = start_game(api, pod)
    first_round = [GameEvent("start_turn", {"player": a}), GameEvent("end_turn", {"player": a})]
    for pid in (b, c, d):
        first_round += [
            GameEvent("start_turn", {"player": pid}),
            GameEvent("end_turn", {"player": pid, "no_attack_reason": "insufficient_energy"}),
        ]
    game = record(api, game, [*first_round, GameEvent("start_turn", {"player": a})])
    before = state_of(api, game)

    response = append(api, game, "end_turn", {"player": a, "no_attack_reason": "no_valid_target"})

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "valid_target_remains"
    assert error["rule"].startswith("Rule Set #3")
    assert state_of(api, game) == before
    assert append(api, game, "end_turn", {"player": a, "no_attack_reason": "insufficient_energy"}).status_code == 201


def test_a_stale_expected_version_answers_409_with_the_current_state(api, organiser):
    game, p1, p2 = mintayn_table(organiser, api)
    current = record(api, game, [GameEvent("start_turn", {"player": p1})])

    response = append(api, game, "select", {"player": p1}, version=0)

    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "stale_version"
    assert error["version"] == 1
    assert error["state"] == current["state"]
    assert len(log_of(api, game)) == 1


def test_voiding_an_entry_replays_the_game_without_it_and_keeps_both_in_the_history(api, organiser):
    game, p1, p2 = mintayn_table(organiser, api)
    game = record(
        api,
        game,
        [
            GameEvent("start_turn", {"player": p1}),
            GameEvent("select", {"player": p1}),
            GameEvent("lp_change", {"changes": {p2: -1000}}),
        ],
    )
    assert game["state"]["players"][1]["lp"] == 7000

    response = void(api, game, 3, "wrong player")

    assert response.status_code == 201, response.json()
    game = response.json()
    assert game["version"] == 4
    assert game["state"]["players"][1]["lp"] == 8000
    log = log_of(api, game)
    assert [(e["seq"], e["type"], e["voided_by"]) for e in log] == [
        (1, "start_turn", None),
        (2, "select", None),
        (3, "lp_change", 4),
        (4, "void", None),
    ]
    assert log[2]["payload"] == {"changes": {str(p2): -1000}}
    assert log[3]["payload"] == {"seq": 3, "reason": "wrong player"}
    # The game goes on from the replayed state.
    game = record(api, game, [GameEvent("lp_change", {"changes": {p2: -500}})])
    assert game["state"]["players"][1]["lp"] == 7500


def test_a_void_that_would_make_a_later_entry_illegal_is_refused(api, organiser):
    game, p1, p2 = mintayn_table(organiser, api)
    game = record(api, game, [GameEvent("start_turn", {"player": p1}), GameEvent("select", {"player": p1})])

    response = void(api, game, 1)

    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "void_breaks_log"
    assert error["blocking_seq"] == 2 and error["rule"]
    assert state_of(api, game)["version"] == 2
    assert [e["voided_by"] for e in log_of(api, game)] == [None, None]


def test_voids_of_a_missing_or_void_entry_or_with_a_stale_version_are_refused(api, organiser):
    game, p1, p2 = mintayn_table(organiser, api)
    game = record(api, game, [GameEvent("start_turn", {"player": p1}), GameEvent("ruling_note", {"text": "ok"})])
    game = void(api, game, 2).json()

    assert void(api, game, 9).json()["error"]["code"] == "entry_not_found"
    assert void(api, game, 2).json()["error"]["code"] == "already_void"
    assert void(api, game, 3).json()["error"]["code"] == "already_void"
    stale = void(api, game, 1, version=2)
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_version"
    assert void(api, game, 1, reason="").status_code == 400


# --- reading, caching, permissions ------------------------------------------------------------------


def test_the_state_has_an_etag_and_if_none_match_answers_304_until_it_changes(api, anon_api, organiser):
    game, p1, p2 = mintayn_table(organiser, api)
    url = f"/api/v1/games/{game['id']}/"
    first = anon_api.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag

    cached = anon_api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert cached.status_code == 304
    assert cached["ETag"] == etag
    assert not cached.content

    record(api, game, [GameEvent("start_turn", {"player": p1})])
    fresh = anon_api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    assert fresh["ETag"] != etag
    assert fresh.json()["version"] == 1


def test_only_the_events_staff_write_but_anyone_reads(api, anon_api, outsider_api, organiser, site_staff):
    pod = seated_table(organiser, "mintayn-master", 2)
    p1, _ = seat_ids(pod)
    for client in (anon_api, outsider_api):
        assert client.post(games_url(pod), {}, format="json").status_code in (401, 403)
    game = start_game(api, pod)
    game = record(api, game, [GameEvent("start_turn", {"player": p1})])

    refused = append(outsider_api, game, "select", {"player": p1})
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "permission_denied"
    assert void(outsider_api, game, 1).status_code == 403
    assert append(anon_api, game, "select", {"player": p1}).status_code in (401, 403)
    assert void(anon_api, game, 1).status_code in (401, 403)
    assert len(log_of(anon_api, game)) == 1

    for client in (anon_api, outsider_api):
        assert state_of(client, game)["version"] == 1
        assert [e["type"] for e in log_of(client, game)] == ["start_turn"]

    judge = APIClient()
    judge.force_authenticate(site_staff)
    assert append(judge, game, "select", {"player": p1}).status_code == 201


def test_an_unknown_game_or_table_is_404(api, anon_api, organiser):
    body = {"expected_version": 0, "type": "start_turn", "data": {}}
    assert anon_api.get("/api/v1/games/424242/").status_code == 404
    assert anon_api.get("/api/v1/games/424242/events/").status_code == 404
    response = api.post("/api/v1/games/424242/events/", body, format="json")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert (
        api.post(
            "/api/v1/games/424242/events/1/void/", {"expected_version": 0, "reason": "x"}, format="json"
        ).status_code
        == 404
    )
    pod = seated_table(organiser, "mintayn-master", 2)
    assert api.post(games_url(pod).replace("/tables/1/", "/tables/9/"), {}, format="json").status_code == 404


def test_a_body_that_is_not_json_or_misses_fields_gets_a_400(api, organiser):
    game, p1, p2 = mintayn_table(organiser, api)
    url = f"/api/v1/games/{game['id']}/events/"
    response = api.post(url, "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"
    response = api.post(url, {"type": "start_turn", "data": "p1"}, format="json")
    assert response.status_code == 400
    assert {"expected_version", "data"} <= set(response.json()["error"]["fields"])
    assert state_of(api, game)["version"] == 0


def test_a_void_that_ends_the_game_records_the_tables_result(api, organiser, django_capture_on_commit_callbacks):
    game, p1, p2 = mintayn_table(organiser, api)
    game = record(
        api,
        game,
        [
            GameEvent("start_turn", {"player": p1}),
            GameEvent("lp_change", {"changes": {p2: 1000}}),
            GameEvent("lp_change", {"changes": {p2: -8500}}),
        ],
    )
    assert game["status"] == "in_progress"
    with django_capture_on_commit_callbacks(execute=True):
        game = void(api, game, 2, "the gain was never played").json()
    assert game["status"] == "finished"
    assert PodResult.objects.filter(pod_id=Game.objects.get(pk=game["id"]).pod_id).exists()


# --- Master Trainer: §18 Status Conditions and Creatures put into play by effects ---------------------------


def master_trainer_table(organiser, api: APIClient) -> tuple[dict, list[int]]:
    """A two-player Master Trainer game with the first player's first turn started."""
    pod = seated_table(organiser, "master-trainer", 2)
    ids = seat_ids(pod)
    game = record(api, start_game(api, pod), [GameEvent("start_turn", {"player": ids[0]})])
    return game, ids


def test_a_status_condition_is_applied_expires_and_is_not_reapplied_through_the_api(api, organiser):
    # §18: "Only one Status Condition may affect Creatures at a time. Status Conditions: - last a maximum of two
    # turns - cannot be immediately reapplied after removal"
    game, (p1, p2) = master_trainer_table(organiser, api)
    game = record(api, game, [GameEvent("apply_status_condition", {"player": p2, "condition": "asleep"})])
    assert game["state"]["players"][1]["status_condition"] == {"condition": "asleep", "turn": 1}
    second = append(api, game, "apply_status_condition", {"player": p2, "condition": "burned"})
    assert second.status_code == 400
    assert (second.json()["error"]["code"], second.json()["error"]["rule"]) == ("status_condition_present", "§18")
    game = record(
        api, game, [GameEvent("end_turn", {"player": p1}), GameEvent("start_turn", {"player": p2})]
    )  # the second turn
    assert game["state"]["players"][1]["status_condition"] is not None
    game = record(api, game, [GameEvent("end_turn", {"player": p2})])
    assert game["state"]["players"][1]["status_condition"] is None
    game = record(api, game, [GameEvent("start_turn", {"player": p1})])
    again = append(api, game, "apply_status_condition", {"player": p2, "condition": "asleep"})
    assert again.status_code == 400 and again.json()["error"]["code"] == "status_condition_reapplied"
    assert state_of(api, game)["version"] == game["version"]


def test_a_creature_an_item_puts_into_play_in_another_players_turn_is_accepted_through_the_api(api, organiser):
    # §3: "Card text always overrides the rulebook."; §11.1: Items "during any player's turn [...] in response
    # to effects".
    game, (p1, p2) = master_trainer_table(organiser, api)
    from_hand = append(api, game, "play_creature", {"player": p2, "to": "bench"})
    assert from_hand.status_code == 400 and from_hand.json()["error"]["code"] == "not_your_turn"
    game = record(
        api,
        game,
        [
            GameEvent("play_support", {"player": p2, "kind": "item"}),
            GameEvent("play_creature", {"player": p2, "to": "bench", "by_effect": True}),
        ],
    )
    assert game["state"]["players"][1]["bench"] == 1
