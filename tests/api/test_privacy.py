"""No API answer shows one player's private data to another.

Before an event publishes its decklists, a deck's status (legal, illegal,
pending) is public, but what names its cards (the list, its roles, its card
count, its violations) is for the player and the staff who may see hidden
decklists.  A player's id from outside Podium (a Pokémon Player ID, a Konami
ID) is for the player and the staff who manage the event's registrations.
The audit trail and the staff list are for the event's staff.
"""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from decks import services as deck_services
from decks.models import DeckVersion
from tournaments import services
from tournaments.services import entry as entry_services
from tournaments.services import registrations as registration_services
from tournaments.services import staff as staff_services

pytestmark = pytest.mark.django_db

HIDDEN = {"card_count": None, "violations": None, "roles": None, "decklist": None}
ILLEGAL = [{"code": "banned", "rule": "3.1", "message": "Pot of Greed is banned.", "cards": ["Pot of Greed"]}]


@pytest.fixture
def world(organiser, django_user_model):
    """A Deck Masters event before publication: Ash (an account, an illegal deck) and Gary (a walk-in)."""
    users = {name: django_user_model.objects.create_user(username=name, password="pw") for name in
             ("ash", "misty", "judy", "carl", "rival")}  # fmt: skip
    site = django_user_model.objects.create_user(username="site", password="pw", is_staff=True)
    event = services.event_create(
        organiser=organiser, name="Duels", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    ash = services.registration_create(event=event, by=organiser, display_name="Ash", external_id="POP-111")
    ash.player.user = users["ash"]
    ash.player.save(update_fields=["user"])
    gary = services.registration_create(event=event, by=organiser, display_name="Gary", external_id="POP-222")
    misty = services.registration_create(event=event, by=organiser, display_name="Misty")
    misty.player.user = users["misty"]
    misty.player.save(update_fields=["user"])
    staff_services.staff_add(event=event, username="judy", role="judge", by=organiser)
    staff_services.staff_add(event=event, username="carl", role="caster", by=organiser)
    services.event_create(
        organiser=users["rival"], name="Elsewhere", format="deck-masters", planned_rounds=2,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    for registration in (ash, gary):
        DeckVersion.objects.create(
            registration=registration, number=1, decklist="3 Pot of Greed\n", roles={"deck_master": "Pot of Greed"},
            status=DeckVersion.Status.ILLEGAL, violations=ILLEGAL, card_count=3,
        )  # fmt: skip
    return event, ash, gary, users, site


def _client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def decks_of(client, event) -> dict[str, dict]:
    answer = client.get(f"/api/v1/events/{event.pk}/decks/")
    assert answer.status_code == 200
    return {row["player"]: row["version"] for row in answer.json()["results"]}


def private_part(version: dict) -> dict:
    return {key: version[key] for key in HIDDEN}


def test_before_publication_anyone_sees_a_decks_status_but_not_what_names_its_cards(world, anon_api):
    event, ash, gary, users, _ = world
    for client in (anon_api, _client_for(users["misty"]), _client_for(users["rival"]), _client_for(users["carl"])):
        decks = decks_of(client, event)
        assert {name: version["status"] for name, version in decks.items()} == {"Ash": "illegal", "Gary": "illegal"}
        assert private_part(decks["Ash"]) == HIDDEN
        assert private_part(decks["Gary"]) == HIDDEN
        own = client.get(f"/api/v1/events/{event.pk}/registrations/{ash.pk}/decks/").json()["results"]
        assert own[0]["status"] == "illegal" and private_part(own[0]) == HIDDEN


def test_the_player_sees_their_own_deck_in_full_and_nobody_elses(world):
    event, ash, gary, users, _ = world
    decks = decks_of(_client_for(users["ash"]), event)
    assert decks["Ash"]["violations"] == ILLEGAL and decks["Ash"]["decklist"] == "3 Pot of Greed\n"
    assert decks["Ash"]["roles"] == {"deck_master": "Pot of Greed"} and decks["Ash"]["card_count"] == 3
    assert private_part(decks["Gary"]) == HIDDEN


def test_staff_who_may_see_hidden_decklists_see_every_deck_and_casters_once_allowed(world, organiser):
    event, ash, gary, users, site = world
    for user in (organiser, users["judy"], site):
        decks = decks_of(_client_for(user), event)
        assert decks["Gary"]["violations"] == ILLEGAL and decks["Gary"]["decklist"] == "3 Pot of Greed\n"
    services.event_update(event=event, by=organiser, casters_see_decklists=True)
    assert decks_of(_client_for(users["carl"]), event)["Gary"]["violations"] == ILLEGAL


def test_once_published_every_decklist_and_its_violations_are_public(world, organiser, anon_api):
    event, *_ = world
    deck_services.event_decklists_publish(event=event, by=organiser)
    decks = decks_of(anon_api, event)
    assert decks["Gary"]["violations"] == ILLEGAL and decks["Gary"]["roles"] == {"deck_master": "Pot of Greed"}


def external_ids(client, url: str) -> dict[str, str | None]:
    """``{display name: external_id}`` of every player object in the answer."""
    found: dict[str, str | None] = {}

    def walk(value):
        if isinstance(value, dict):
            if {"id", "display_name", "external_id"} <= set(value):
                found[value["display_name"]] = value["external_id"]
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    answer = client.get(url)
    assert answer.status_code == 200, answer.json()
    walk(answer.json())
    return found


def test_a_players_external_id_is_shown_to_them_and_the_events_registration_staff_only(
    world, organiser, anon_api, django_capture_on_commit_callbacks
):
    event, ash, gary, users, site = world
    services.registration_check_in(registration=ash, by=organiser)
    services.registration_check_in(registration=gary, by=organiser)
    with django_capture_on_commit_callbacks(execute=True):  # Ash and Gary play; Misty is not checked in
        services.round_start(event=event, by=organiser, seed=1)
        services.pod_result_report(
            event=event, round_number=1, table_number=1, placements={ash.player_id: 1, gary.player_id: 2}, by=organiser
        )
    urls = [f"/api/v1/events/{event.pk}/{part}" for part in ("registrations/", "rounds/", "rounds/1/", "standings/")]
    for url in urls:
        assert set(external_ids(anon_api, url).values()) == {None}
        for user in (users["misty"], users["judy"], users["carl"], users["rival"]):
            seen = external_ids(_client_for(user), url)
            assert seen.get("Ash") is None and seen.get("Gary") is None, (user, url)
        assert external_ids(_client_for(users["ash"]), url)["Ash"] == "POP-111"
        assert external_ids(_client_for(users["ash"]), url).get("Gary") is None
        managed = external_ids(_client_for(organiser), url)
        assert managed["Ash"] == "POP-111" and managed["Gary"] == "POP-222"
    everyone = f"/api/v1/players/?event={event.pk}"
    assert external_ids(anon_api, everyone) == {"Ash": None, "Gary": None, "Misty": None}
    # The players list is everyone's: the event's staff see the ids in its registrations, not here.
    assert external_ids(_client_for(organiser), everyone)["Gary"] is None
    assert external_ids(_client_for(users["ash"]), everyone)["Ash"] == "POP-111"
    assert external_ids(_client_for(site), everyone)["Gary"] == "POP-222"


def test_the_audit_trail_and_the_staff_list_are_not_for_players(world, anon_api):
    event, ash, gary, users, _ = world
    for path in ("audit/", "staff/"):
        url = f"/api/v1/events/{event.pk}/{path}"
        assert anon_api.get(url).json()["error"]["code"] == "not_authenticated"
        for user in (users["ash"], users["rival"]):
            answer = _client_for(user).get(url)
            assert (answer.status_code, answer.json()["error"]["code"]) == (403, "permission_denied")
    assert _client_for(users["judy"]).get(f"/api/v1/events/{event.pk}/audit/").status_code == 200
    assert _client_for(users["judy"]).get(f"/api/v1/events/{event.pk}/staff/").status_code == 403


def test_me_answers_only_the_signed_in_players_own_events(world, anon_api):
    event, ash, gary, users, _ = world
    assert anon_api.get("/api/v1/me/").json()["error"]["code"] == "not_authenticated"
    mine = _client_for(users["ash"]).get("/api/v1/me/").json()
    assert mine["player"] == {"id": ash.player_id, "display_name": "Ash", "external_id": "POP-111"}
    assert [e["registration"]["id"] for e in mine["upcoming"]] == [ash.pk]
    nobody = _client_for(users["judy"]).get("/api/v1/me/").json()
    assert nobody == {"username": "judy", "language": "", "player": None, "upcoming": [], "running": [], "past": []}


def test_a_registrations_stream_consent_and_entry_fee_are_the_players_and_the_registration_staffs_only(
    world, organiser, anon_api
):
    event, ash, gary, users, _ = world
    registration_services.registration_stream_consent_set(registration=ash, by=organiser, stream_opt_out=True)
    entry_services.registration_mark_paid(registration=ash, by=organiser)

    def ash_seen_by(client) -> dict:
        rows = client.get(f"/api/v1/events/{event.pk}/registrations/").json()["results"]
        row = next(r for r in rows if r["player"]["display_name"] == "Ash")
        return {k: row[k] for k in ("stream_opt_out", "paid", "paid_at")}

    hidden = {"stream_opt_out": None, "paid": None, "paid_at": None}
    assert ash_seen_by(anon_api) == hidden
    assert ash_seen_by(_client_for(users["misty"])) == hidden
    for reader in (organiser, users["ash"]):
        seen = ash_seen_by(_client_for(reader))
        assert seen["stream_opt_out"] is True and seen["paid"] is True and seen["paid_at"]
