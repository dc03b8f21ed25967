"""Stream stations and overlay tokens: the caster points a station at a table, puts a decklist on air, and what an
overlay reads with and without a token."""

from __future__ import annotations

import pytest

from decks import services as deck_services
from decks.models import DeckVersion
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def _stations(event) -> str:
    return f"/api/v1/events/{event.pk}/stations/"


def _deck(event, player_id: int, master: str) -> None:
    registration = Registration.objects.get(event=event, player_id=player_id)
    DeckVersion.objects.create(
        registration=registration, number=1, decklist=f"1 {master}", roles={"deck_master": master}
    )


@pytest.fixture
def station(duel, api_as):
    answer = api_as("cass").post(_stations(duel), {"slug": "stream-1", "name": "Main stage"}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_a_caster_adds_a_station_whose_urls_stay_the_same_and_points_it_at_a_table(duel, station, api_as, anon_api):
    assert station["overlay_url"] == f"/live/events/{duel.pk}/stations/stream-1/"
    assert station["stream_url"] == f"/api/v1/events/{duel.pk}/stations/stream-1/stream/"
    pointed = api_as("cass").patch(_stations(duel) + "stream-1/", {"table": 2}, format="json")
    assert pointed.status_code == 200 and pointed.json()["table"] == 2
    match = anon_api.get(_stations(duel) + "stream-1/").json()
    assert match["table"] == 2 and match["round"]["label"] == "Round 1"
    assert [p["seat"] for p in match["players"]] == [1, 2]
    assert all(p["record"] == "0-0-0" and p["game_wins"] == 0 for p in match["players"])


def test_station_refusals_answer_in_the_error_shape(duel, station, api, api_as, anon_api):
    again = api.post(_stations(duel), {"slug": "stream-1"}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "station_exists"
    assert api.post(_stations(duel), {"slug": "Stream One!"}, format="json").json()["error"]["code"] == "invalid"
    far = api.patch(_stations(duel) + "stream-1/", {"table": 9}, format="json")
    assert far.status_code == 404 and far.json()["error"]["code"] == "table_not_found"
    unknown = anon_api.get(_stations(duel) + "stream-9/")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "station_not_found"
    assert api_as("jo").patch(_stations(duel) + "stream-1/", {"table": 1}, format="json").status_code == 403
    assert anon_api.patch(_stations(duel) + "stream-1/", {"table": 1}, format="json").status_code in (401, 403)


def test_hidden_decklists_reach_an_overlay_only_with_a_token_and_when_casters_may_see_them(
    duel, station, api, api_as, anon_api, organiser
):
    api_as("cass").patch(_stations(duel) + "stream-1/", {"table": 1}, format="json")
    players = [p["id"] for p in anon_api.get(_stations(duel) + "stream-1/").json()["players"]]
    a, b = players
    _deck(duel, a, "Blue-Eyes White Dragon")
    _deck(duel, b, "Dark Magician")
    refused = api_as("cass").patch(_stations(duel) + "stream-1/", {"decklist_on_air": a}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "decklist_hidden"
    services.event_update(event=duel, by=organiser, casters_see_decklists=True)
    on_air = api_as("cass").patch(_stations(duel) + "stream-1/", {"decklist_on_air": a}, format="json")
    assert on_air.status_code == 200 and on_air.json()["decklist_on_air"] == a

    token = api_as("cass").post(f"/api/v1/events/{duel.pk}/overlay-tokens/", {"label": "OBS"}, format="json").json()
    public = anon_api.get(_stations(duel) + "stream-1/").json()
    assert [p["deck"] for p in public["players"]] == [None, None]
    assert public["decklist"] == {"player": a, "name": None, "deck": None, "decklist": None, "hidden": True}
    with_token = anon_api.get(_stations(duel) + "stream-1/", {"token": token["key"]}).json()
    assert [p["deck"] for p in with_token["players"]] == ["Blue-Eyes White Dragon", "Dark Magician"]
    assert with_token["decklist"]["decklist"] == "1 Blue-Eyes White Dragon"

    services.event_update(event=duel, by=organiser, casters_see_decklists=False)
    assert anon_api.get(_stations(duel) + "stream-1/", {"token": token["key"]}).json()["players"][0]["deck"] is None
    bad = anon_api.get(_stations(duel) + "stream-1/", {"token": "not-a-token"})
    assert bad.status_code in (401, 403) and bad.json()["error"]["code"] == "authentication_failed"
    api_as("cass").post(f"/api/v1/events/{duel.pk}/overlay-tokens/{token['id']}/revoke/")
    services.event_update(event=duel, by=organiser, casters_see_decklists=True)
    assert anon_api.get(_stations(duel) + "stream-1/", {"token": token["key"]}).status_code in (401, 403)
    assert api_as("jo").get(f"/api/v1/events/{duel.pk}/overlay-tokens/").status_code == 403


def test_published_decklists_show_their_deck_names_to_everyone(duel, station, api, anon_api, organiser):
    api.patch(_stations(duel) + "stream-1/", {"table": 1}, format="json")
    a, b = [p["id"] for p in anon_api.get(_stations(duel) + "stream-1/").json()["players"]]
    _deck(duel, a, "Blue-Eyes White Dragon")
    deck_services.event_decklists_publish(event=duel, by=organiser, public=True)
    decks = [p["deck"] for p in anon_api.get(_stations(duel) + "stream-1/").json()["players"]]
    assert decks == ["Blue-Eyes White Dragon", None]
