"""Input the database cannot hold is refused by the API (400 with ``fields``), never a server error.

Found by the fuzzing in :mod:`tests.api.test_fuzz`: PostgreSQL stores a fixed
table as a 32-bit ``integer`` and refuses a NUL character in a query; SQLite
cannot bind an integer beyond 64 bits.
"""

from __future__ import annotations

import pytest

from tests.factories import EventFactory, RegistrationFactory
from tournaments import services

pytestmark = pytest.mark.django_db


def test_a_fixed_table_beyond_the_databases_integers_is_refused(api, organiser):
    registration = RegistrationFactory(event=EventFactory(organiser=organiser))
    url = f"/api/v1/events/{registration.event_id}/registrations/{registration.pk}/"

    response = api.patch(url, {"fixed_table": 2**31}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert list(response.json()["error"]["fields"]) == ["fixed_table"]
    registration.refresh_from_db()
    assert registration.fixed_table is None
    assert api.patch(url, {"fixed_table": 2**31 - 1}, format="json").status_code == 200


def test_swapping_a_player_id_beyond_the_databases_ids_is_refused_before_any_query(api, organiser):
    event = EventFactory(organiser=organiser)
    registrations = [RegistrationFactory(event=event) for _ in range(4)]
    services.round_start(event=event, by=organiser, seed=1)

    response = api.post(
        f"/api/v1/events/{event.pk}/rounds/1/swap/",
        {"players": [2**63, registrations[0].player_id]},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert list(response.json()["error"]["fields"]["players"]) == ["0"]  # the first id, refused by the serializer


def test_registering_a_player_id_beyond_the_databases_ids_is_refused(api, organiser):
    event = EventFactory(organiser=organiser)

    response = api.post(f"/api/v1/events/{event.pk}/registrations/", {"player": 2**63}, format="json")

    assert response.status_code == 400
    assert "less than or equal to" in response.json()["error"]["fields"]["player"][0]


def test_searching_players_for_a_null_character_is_refused(anon_api):
    response = anon_api.get("/api/v1/players/", {"q": "a\x00b"})

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert list(response.json()["error"]["fields"]) == ["q"]


def test_searching_players_still_finds_them_by_part_of_their_name(anon_api):
    services.player_create(display_name="Yugi Muto")
    services.player_create(display_name="Seto Kaiba")

    response = anon_api.get("/api/v1/players/", {"q": "MUT"})

    assert [p["display_name"] for p in response.json()["results"]] == ["Yugi Muto"]
