"""An event's format options: the rulebook's variants and Podium's house rules, chosen once on the event and
read by the deck rules, the game engine and the pairing; shown on every page of the event and in the API."""

from __future__ import annotations

import datetime

import pytest
from django.apps import apps as django_apps

from games.models import Game
from rules.options import Use
from tests.factories import EventFactory, RegistrationFactory
from tests.support.games import append, record, seat_ids, seated_table, start_game
from tests.support.games.mintayn_master import E, end, mana, select, start
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db

EVENTS = "/api/v1/events/"


def _create(api, fmt: str, **extra):
    body = {"name": "Variant night", "format": fmt, "planned_rounds": 3, "date": "2026-12-04", **extra}
    return api.post(EVENTS, body, format="json")


# --- choosing options: once, on the event, checked against the format ----------------------------------


def test_the_api_creates_an_event_with_options_and_lists_every_options_value(api):
    response = _create(api, "mintayn-master", options={"mana_rate": 2, "hand_size": 12, "deck_size": 60})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["options"] == {
        "starting_lp": 8000, "mana_rate": 2, "hand_size": 12, "starting_hand": "7/8", "deck_size": 60,
    }  # fmt: skip
    assert body["house_rules"] == []  # the rulebook offers these: variants, not house rules
    assert Event.objects.get(pk=body["id"]).options == {"mana_rate": 2, "hand_size": 12}  # defaults not stored


@pytest.mark.parametrize(
    ("fmt", "options", "allowed"),
    [
        ("mintayn-master", {"hand_size": 13}, "hand_size is 8 to 12"),
        ("mintayn-master", {"mana_rate": "2"}, "mana_rate is 1 or 2"),
        ("mintayn-master", {"tempo": 1}, "has no option 'tempo'"),
        ("master-trainer", {"game_end": "sudden_death"}, "game_end is immediate or last_standing"),
        ("mt-silver", {"three_player_pods": "yes"}, "three_player_pods is false or true"),
        ("deck-masters", {"banlist": "No such list"}, "banlist is"),
        ("format3-trinity", {"game_end": "immediate"}, "has no option"),
    ],
)
def test_a_bad_option_is_a_400_naming_the_values_allowed_and_nothing_is_stored(api, fmt, options, allowed):
    before = Event.objects.count()
    response = _create(api, fmt, options=options)
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "invalid_option" and "options" in error["fields"]
    assert allowed in error["message"], error["message"]
    assert Event.objects.count() == before


def test_options_change_until_round_1_is_paired_and_then_are_fixed(api, organiser):
    event_id = _create(api, "mintayn-master").json()["id"]
    url = f"{EVENTS}{event_id}/"
    changed = api.patch(url, {"options": {"starting_lp": 6000, "hand_size": 9}}, format="json")
    assert changed.status_code == 200 and changed.json()["options"]["hand_size"] == 9
    back = api.patch(url, {"options": {"hand_size": None}}, format="json").json()  # null: the default again
    assert back["options"]["hand_size"] == 10 and back["options"]["starting_lp"] == 6000
    bad = api.patch(url, {"options": {"hand_size": 20}}, format="json")
    assert bad.status_code == 400 and "8 to 12" in bad.json()["error"]["message"]
    event = Event.objects.get(pk=event_id)
    assert event.options == {"starting_lp": 6000}
    for _ in range(2):
        RegistrationFactory(event=event, checked_in=True)
    services.round_start(event=event, by=organiser)
    fixed = api.patch(url, {"options": {"starting_lp": 10000}}, format="json")
    assert fixed.status_code == 409 and fixed.json()["error"]["code"] == "event_started"
    assert Event.objects.get(pk=event_id).options == {"starting_lp": 6000}


def test_changing_options_is_in_the_audit_trail(api, organiser):
    event_id = _create(api, "master-trainer").json()["id"]
    api.patch(f"{EVENTS}{event_id}/", {"options": {"game_end": "last_standing"}}, format="json")
    audit = api.get(f"{EVENTS}{event_id}/audit/?kind=event").json()
    entries = audit["results"] if isinstance(audit, dict) else audit
    change = next(e for e in entries if e["action"] == "event.updated")
    assert change["before"] == {"options": {}} and change["after"] == {"options": {"game_end": "last_standing"}}


def test_the_formats_endpoint_lists_each_formats_options_and_interpretations(anon_api):
    formats = {f["slug"]: f for f in anon_api.get("/api/v1/formats/").json()["results"]}
    hand = next(o for o in formats["mintayn-master"]["options"] if o["name"] == "hand_size")
    assert (hand["minimum"], hand["maximum"], hand["default"], hand["uses"]) == (8, 12, 10, ["game"])
    assert hand["quote"] == "Hand size: 10 (default); 8–12 in variant play."
    pods = formats["mt-silver"]
    assert (pods["min_players"], pods["max_players"]) == (4, 4)
    assert pods["options"][0]["name"] == "three_player_pods" and pods["options"][0]["house_rule"] is True
    assert all(f["interpretations"] for f in formats.values())
    assert any(i["option"] == "game_end" for i in formats["master-trainer"]["interpretations"])


# --- the engine plays by the event's options -----------------------------------------------------------


def test_a_game_starts_with_the_events_options_and_keeps_them(api, organiser):
    pod = seated_table(organiser, "mintayn-master", 2, options={"hand_size": 12, "mana_rate": 2})
    game = start_game(api, pod)
    assert Game.objects.get(pk=game["id"]).options == {
        "starting_lp": 8000, "mana_rate": 2, "hand_size": 12, "starting_hand": "7/8",
    }  # fmt: skip
    p1, _ = seat_ids(pod)
    # "Hand size: 10 (default); 8–12 in variant play": an end_turn with 12 cards is legal in the 12-card variant.
    game = record(api, game, [start(p1), mana(p1), mana(p1, "obscura"), select(p1), end(p1, 12)])
    assert game["state"]["players"][0]["hand_size"] == 12
    assert game["state"]["players"][0]["mana_zone"]["obscura"] == 1


def test_a_game_started_with_another_value_of_an_event_option_is_refused(api, organiser):
    pod = seated_table(organiser, "mintayn-master", 2, options={"starting_lp": 6000})
    url = f"/api/v1/events/{pod.round.event_id}/rounds/1/tables/{pod.table_number}/games/"
    refused = api.post(url, {"options": {"starting_lp": 10000}}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_option"
    assert "6000" in refused.json()["error"]["message"]
    assert not Game.objects.filter(pod=pod).exists()
    same = api.post(url, {"options": {"starting_lp": 6000}}, format="json")
    assert same.status_code == 201 and same.json()["state"]["starting_lp"] == 6000


def test_a_master_trainer_event_under_the_house_rule_plays_on_after_life_depletion(api, organiser):
    pod = seated_table(organiser, "master-trainer", 3, options={"game_end": "last_standing"})
    game = start_game(api, pod)
    a, b, c = seat_ids(pod)
    game = record(api, game, [E("start_turn", {"player": a})])
    response = append(api, game, "adjust_life", {"player": b, "amount": -200, "reason": "card effect"})
    assert response.json()["status"] == "in_progress"


def test_a_master_trainer_game_ends_at_the_first_life_depletion_by_default(api, organiser):
    # §3.2: "The game immediately ends when any of the following occur: Life Depletion [...]"
    pod = seated_table(organiser, "master-trainer", 3)
    game = start_game(api, pod)
    a, b, c = seat_ids(pod)
    game = record(api, game, [E("start_turn", {"player": a})])
    response = append(api, game, "adjust_life", {"player": b, "amount": -200, "reason": "card effect"})
    assert response.json()["status"] == "finished"
    assert {s.player_id: s.placement for s in pod.seats.all()} == {a: 1, c: 1, b: 3}


# --- the pairing seats the tables the options allow ----------------------------------------------------


def _mt_silver_round(organiser, players: int, **options) -> list[int]:
    event = EventFactory(format="mt-silver", organiser=organiser, options=options)
    for _ in range(players):
        RegistrationFactory(event=event, checked_in=True)
    round_ = services.round_start(event=event, by=organiser, seed=3)
    return sorted(p.seats.count() if not p.is_bye else 0 for p in round_.pods.all())


def test_mt_silver_gives_byes_to_players_left_over_and_3_player_pods_only_under_the_house_rule(organiser):
    # Preparation: "To play Mt. Silver, 4 players come together"
    assert _mt_silver_round(organiser, 14) == [0, 0, 4, 4, 4]
    assert _mt_silver_round(organiser, 14, three_player_pods=True) == [3, 3, 4, 4]


def test_a_3_player_mt_silver_table_records_its_game_under_the_house_rule(api, organiser):
    pod = seated_table(organiser, "mt-silver", 3, options={"three_player_pods": True})
    game = start_game(api, pod)
    assert game["state"]["players"] and len(game["state"]["players"]) == 3


def test_three_checked_in_players_cannot_start_a_mt_silver_round_by_the_rulebook(api, organiser):
    event = EventFactory(format="mt-silver", organiser=organiser)
    for _ in range(3):
        RegistrationFactory(event=event, checked_in=True)
    response = api.post(f"{EVENTS}{event.pk}/rounds/", {}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_enough_players"
    assert "needs at least 4" in response.json()["error"]["message"]


# --- the deck rules read theirs --------------------------------------------------------------------------


def test_the_deck_options_endpoint_sets_only_the_deck_options_and_keeps_the_others(api, organiser):
    event_id = _create(api, "mintayn-master", options={"mana_rate": 2}).json()["id"]
    url = f"{EVENTS}{event_id}/deck-options/"
    assert api.post(url, {"deck_options": {"deck_size": 50}}, format="json").json() == {
        "deck_options": {"deck_size": 50}
    }
    event = Event.objects.get(pk=event_id)
    assert event.options == {"mana_rate": 2, "deck_size": 50}
    assert event.options_for(Use.DECK) == {"deck_size": 50}
    not_deck = api.post(url, {"deck_options": {"mana_rate": 1}}, format="json")
    assert not_deck.status_code == 400 and not_deck.json()["error"]["code"] == "invalid_option"
    assert api.post(url, {"deck_options": {}}, format="json").json() == {"deck_options": {}}
    assert Event.objects.get(pk=event_id).options == {"mana_rate": 2}


# --- every page of the event shows them -----------------------------------------------------------------


def test_the_event_page_lists_the_rules_and_every_page_labels_a_house_rule(client, organiser):
    event = EventFactory(format="mt-silver", organiser=organiser, options={"three_player_pods": True})
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Rules at this event" in page and "3-player pods when numbers don" in page
    assert "House rule" in page and "To play Mt. Silver, 4 players come together" in page
    for path in ("pairings/", "pairings/by-name/", "standings/"):
        assert "House rule" in client.get(f"/events/{event.pk}/{path}").content.decode(), path
    plain = EventFactory(format="mt-silver", organiser=organiser)
    assert "House rule" not in client.get(f"/events/{plain.pk}/pairings/").content.decode()
    assert "tables of 4; players left over get byes" in client.get(f"/events/{plain.pk}/").content.decode()


def test_a_variant_is_labelled_as_the_rulebooks_variant(client, organiser):
    event = EventFactory(format="mintayn-master", organiser=organiser, options={"mana_rate": 2})
    page = client.get(f"/events/{event.pk}/pairings/").content.decode()
    assert "rulebook variant" in page and "2 cards a turn to the Mana Zone" in page


def test_the_format_page_shows_the_interpretations_table(client):
    page = client.get("/formats/master-trainer/").content.decode()
    assert "how Podium reads the rulebook" in page
    assert "game_end" in page and "The game immediately ends" in page
    assert client.get("/formats/standard/").status_code == 404


def test_the_settings_page_sets_the_formats_options_until_the_event_starts(client, organiser):
    client.force_login(organiser)
    event = services.event_create(
        organiser=organiser, name="Cup", format="mintayn-master", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    url = f"/dashboard/events/{event.pk}/settings/"
    page = client.get(url).content.decode()
    assert "Format rules: variants and house rules" in page and "Hand limit" in page
    form = {
        "name": "Cup", "planned_rounds": 3, "date": "2026-12-04", "tiebreakers": "classic", "magic_floor": "0.33",
        "pod_leftovers": "tables", "option_starting_lp": "6000", "option_mana_rate": "2",
        "option_hand_size": "12", "option_starting_hand": "7/8", "option_deck_size": "60",
    }  # fmt: skip
    assert client.post(url, form).status_code == 302
    event.refresh_from_db()
    assert event.options == {"starting_lp": 6000, "mana_rate": 2, "hand_size": 12}


# --- events already under way keep the rules they were played by ---------------------------------------


def test_the_migration_keeps_the_old_rules_for_events_already_under_way(organiser):
    from importlib import import_module

    migration = import_module("tournaments.migrations.0008_event_options")
    running = EventFactory(format="master-trainer", organiser=organiser, status="running")
    silver = EventFactory(format="mt-silver", organiser=organiser, status="finished")
    fresh = EventFactory(format="mt-silver", organiser=organiser)
    migration.keep_the_rules_of_started_events(django_apps, None)
    running.refresh_from_db(), silver.refresh_from_db(), fresh.refresh_from_db()
    assert running.options == {"game_end": "last_standing"}
    assert silver.options == {"three_player_pods": True}
    assert fresh.options == {}
