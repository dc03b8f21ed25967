"""Stream consent: a player opts out of being streamed (their page, the API), staff see and set it (the dashboard,
the API), the audit trail keeps it, and no station shows, or may be pointed at, a table where such a player sits."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from live import payloads, selectors
from live.models import LiveEvent, Station
from tests.conftest import _client_for
from tests.support.events import report_all
from tournaments import selectors as tournament_selectors
from tournaments import services
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def yugi(duel, django_user_model):
    """Yugi's registration, his player record linked to his account."""
    registration = Registration.objects.select_related("player").get(event=duel, player__display_name="Yugi")
    user = django_user_model.objects.create_user(username="yugi", password="pw")
    registration.player.user = user
    registration.player.save(update_fields=["user"])
    return registration


def _table_of(registration) -> int:
    seats = tournament_selectors.table_seats_at(event=registration.event_id, number=1, table=1)
    if any(s.player_id == registration.player_id for s in seats):
        return 1
    return 2


def _consent_url(registration) -> str:
    return f"/api/v1/events/{registration.event_id}/registrations/{registration.pk}/stream-consent/"


def _station(duel, table=None) -> Station:
    return Station.objects.create(event=duel, slug="stream-1", name="Main stage", table_number=table)


def test_the_player_opts_out_on_the_api_and_the_audit_trail_keeps_who_did_it(yugi, outsider_api, anon_api):
    client = _client_for(yugi.player.user)
    answer = client.post(_consent_url(yugi), {"stream_opt_out": True}, format="json")
    assert answer.status_code == 200 and answer.json()["stream_opt_out"] is True
    entry = AuditEntry.objects.get(event=yugi.event, action="registration.stream_consent")
    assert entry.actor == yugi.player.user and entry.before == {"stream_opt_out": False}
    assert entry.after == {"stream_opt_out": True}
    again = client.post(_consent_url(yugi), {"stream_opt_out": True}, format="json")
    assert again.status_code == 200 and AuditEntry.objects.filter(action="registration.stream_consent").count() == 1
    bad = client.post(_consent_url(yugi), {"stream_opt_out": "perhaps"}, format="json")
    assert bad.status_code == 400 and "stream_opt_out" in bad.json()["error"]["fields"]
    refused = outsider_api.post(_consent_url(yugi), {"stream_opt_out": False}, format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "permission_denied"
    assert anon_api.post(_consent_url(yugi), {"stream_opt_out": False}, format="json").status_code == 401
    # The consent is the player's and the registration staff's business: the public list doesn't show it.
    listed = anon_api.get(f"/api/v1/events/{yugi.event_id}/registrations/").json()["results"]
    assert {r["player"]["display_name"]: r["stream_opt_out"] for r in listed}["Yugi"] is None
    listed = client.get(f"/api/v1/events/{yugi.event_id}/registrations/").json()["results"]
    assert {r["player"]["display_name"]: r["stream_opt_out"] for r in listed}["Yugi"] is True


def test_staff_set_it_on_the_api_and_the_dashboard(yugi, api_as, staff_users):
    answer = api_as("sam").post(_consent_url(yugi), {"stream_opt_out": True}, format="json")
    assert answer.status_code == 200 and answer.json()["stream_opt_out"] is True
    assert AuditEntry.objects.get(action="registration.stream_consent").actor == staff_users["sam"]
    assert api_as("jo").post(_consent_url(yugi), {"stream_opt_out": False}, format="json").status_code == 403
    client = Client()
    client.force_login(staff_users["sam"])
    url = reverse("dashboard:registration-stream-consent", args=[yugi.event_id, yugi.pk])
    row = client.post(url, {"stream_opt_out": "no"}, HTTP_HX_REQUEST="true")
    assert row.status_code == 200 and "not streamed" not in row.content.decode()
    assert "don&#x27;t stream" in row.content.decode() or "don't stream" in row.content.decode()
    yugi.refresh_from_db()
    assert yugi.stream_opt_out is False and yugi.stream_consent_changed_at is not None
    page = client.get(f"/dashboard/events/{yugi.event_id}/audit/")
    assert "Stream consent changed" in page.content.decode()


def test_the_player_toggles_it_on_their_page(yugi):
    client = Client()
    client.force_login(yugi.player.user)
    me = client.get("/me/").content.decode()
    assert "Don&#x27;t stream my table" in me or "Don't stream my table" in me
    answer = client.post(f"/events/{yugi.event_id}/stream-consent/", {"stream_opt_out": "yes", "place": "me"},
                         HTTP_HX_REQUEST="true")  # fmt: skip
    body = answer.content.decode()
    assert answer.status_code == 200 and "Not streamed" in body and "Allow streaming my table" in body
    yugi.refresh_from_db()
    assert yugi.stream_opt_out is True
    stranger = Client()
    stranger.force_login(type(yugi.player.user).objects.create_user(username="nobody", password="pw"))
    refused = stranger.post(f"/events/{yugi.event_id}/stream-consent/", {"stream_opt_out": "yes"},
                            HTTP_HX_REQUEST="true")  # fmt: skip
    assert refused.status_code == 422 and "not registered" in refused.content.decode()


def test_a_station_cannot_be_pointed_at_a_table_where_an_opted_out_player_sits(duel, yugi, api_as, organiser):
    services.registration_stream_consent_set(registration=yugi, by=organiser, stream_opt_out=True)
    _station(duel)
    table = _table_of(yugi)
    refused = api_as("cass").patch(f"/api/v1/events/{duel.pk}/stations/stream-1/", {"table": table}, format="json")
    error = refused.json()["error"]
    assert refused.status_code == 409 and error["code"] == "stream_opt_out"
    assert "Yugi has opted out of being streamed" in error["message"]
    assert error["players"] == [{"id": yugi.player_id, "name": "Yugi"}] and "table" in error["fields"]
    other = 3 - table
    assert api_as("cass").patch(f"/api/v1/events/{duel.pk}/stations/stream-1/", {"table": other},
                                format="json").status_code == 200  # fmt: skip
    deck = api_as("cass").patch(f"/api/v1/events/{duel.pk}/stations/stream-1/", {"decklist_on_air": yugi.player_id},
                                format="json")  # fmt: skip
    assert deck.status_code == 409 and deck.json()["error"]["code"] == "stream_opt_out"
    assert "decklist_on_air" in deck.json()["error"]["fields"]
    caster = Client()
    caster.force_login(organiser)
    page = caster.get(f"/live/events/{duel.pk}/caster/").content.decode()
    assert "(off stream: a player opted out)" in page and " disabled>" in page


def test_a_station_already_on_the_table_stops_showing_it_and_shows_it_again_once_the_player_opts_back_in(
    duel, yugi, organiser, anon_api
):
    station = _station(duel, _table_of(yugi))
    services.registration_stream_consent_set(registration=yugi, by=organiser, stream_opt_out=True)
    match = anon_api.get(f"/api/v1/events/{duel.pk}/stations/stream-1/").json()
    assert match["withheld"] is True and match["players"] == [] and match["round"]["label"] == "Round 1"
    assert match["timer"] is not None and match["decklist"] is None
    pushed = LiveEvent.objects.filter(event=duel, kind="feature.changed").latest("id")
    assert pushed.stations == ["stream-1"] and pushed.data["withheld"] is True and pushed.data["players"] == []
    snapshot = payloads.event_snapshot(selectors.event_snapshot(event=duel))
    assert snapshot["stations"] == [{"slug": "stream-1", "name": "Main stage", "table": None}]
    overlay = Client().get(f"/live/events/{duel.pk}/stations/stream-1/").content.decode()
    assert f"Table {station.table_number} is off stream" in overlay and "Yugi" not in overlay
    services.registration_stream_consent_set(registration=yugi, by=organiser, stream_opt_out=False)
    shown = anon_api.get(f"/api/v1/events/{duel.pk}/stations/stream-1/").json()
    assert shown["withheld"] is False and "Yugi" in [p["name"] for p in shown["players"]]


def test_no_station_stream_carries_a_withheld_tables_results(duel, yugi, organiser):
    _station(duel, _table_of(yugi))
    services.registration_stream_consent_set(registration=yugi, by=organiser, stream_opt_out=True)
    report_all(duel, organiser)
    results = LiveEvent.objects.filter(event=duel, kind="table.result")
    by_table = {e.data["table"]: e for e in results}
    assert by_table[_table_of(yugi)].stations == [] and yugi.player_id in by_table[_table_of(yugi)].players
    assert selectors.stations_on_table(event_id=duel.pk, round_number=1, table=_table_of(yugi)) == []


def test_a_new_round_that_seats_an_opted_out_player_at_a_stations_table_is_withheld(duel, yugi, organiser):
    services.registration_stream_consent_set(registration=yugi, by=organiser, stream_opt_out=True)
    report_all(duel, organiser)
    services.round_start(event=duel, by=organiser, seed=5)
    round_2 = tournament_selectors.table_seats_at(event=duel.pk, number=2, table=1)
    table = 1 if any(s.player_id == yugi.player_id for s in round_2) else 2
    station = _station(duel, table)
    station.event = duel
    assert selectors.feature_match(station=station, decks_visible=False).withheld
