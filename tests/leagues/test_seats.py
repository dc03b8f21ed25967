"""Seat fairness of an event and a season: the selectors' one query, the API (and its schema), the pages with their
charts, and the CSV exports."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.db import transaction
from django.test import Client

from leagues import selectors
from leagues.views import ONE_VS_ONE_SEATS, SEAT_HEADER
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.leagues import make_league, played_event, players
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _season_of_two(django_db_setup, django_db_blocker):
    """A season with a 1v1 event (4 players, 2 rounds, seat 1 always wins) and a pod event (7 players: a 4-player
    and a 3-player pod, seat 2 wins), built once for the module in a transaction rolled back at its end."""
    from django.contrib.auth import get_user_model

    with django_db_blocker.unblock(), transaction.atomic():
        organiser = get_user_model().objects.create_user(username="organiser", password="pw")
        _, season = make_league(organiser, formats=("deck-masters", "format3-trinity"))
        duel = played_event(organiser, season=season, field=players(4), rounds=2, day=3)
        pods = played_event(organiser, season=season, format="format3-trinity", field=players(7, "P"), rounds=1,
                            day=10, winner_seat=2)  # fmt: skip
        yield organiser, (season, duel, pods)
        transaction.set_rollback(True)


@pytest.fixture
def organiser(_season_of_two, db):
    return _season_of_two[0]


@pytest.fixture
def season_of_two(_season_of_two, db):
    return _season_of_two[1]


def test_the_event_api_gives_each_seat_its_figures_and_the_schema_lists_both_endpoints(season_of_two, anon_api):
    season, duel, _ = season_of_two
    answer = anon_api.get(f"/api/v1/events/{duel.pk}/seats/")
    assert answer.status_code == 200
    data = answer.json()
    (group,) = data["groups"]
    assert (group["format"], group["table_size"], group["tables"], group["too_small"]) == ("deck-masters", 2, 4, True)
    one, two = group["seats"]
    assert (one["seat"], one["wins"], one["win_rate"], one["average_placement"]) == (1, 4, 1.0, 1.0)
    assert (two["wins"], two["shared_firsts"], two["average_placement"]) == (0, 0, 2.0)
    assert one["ci95_low"] == pytest.approx(0.5101, abs=1e-3) and one["ci95_high"] == pytest.approx(1.0)
    assert data["byes"] == 0 and data["unreported"] == 0 and data["min_tables"] == 30
    missing = anon_api.get("/api/v1/events/999999/seats/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert anon_api.get("/api/v1/seasons/999999/seats/").json()["error"]["code"] == "not_found"
    paths = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()["paths"]
    assert "/api/v1/events/{event_id}/seats/" in paths and "/api/v1/seasons/{season_id}/seats/" in paths
    consent = paths["/api/v1/events/{event_id}/registrations/{registration_id}/stream-consent/"]["post"]
    assert "stream_opt_out" in str(paths["/api/v1/events/{event_id}/stations/{slug}/"]["patch"]["responses"]["409"])
    assert "200" in consent["responses"] and "403" in consent["responses"]


def test_the_season_keeps_formats_and_pod_sizes_apart(season_of_two, anon_api):
    season, _, _ = season_of_two
    data = anon_api.get(f"/api/v1/seasons/{season.pk}/seats/").json()
    sizes = [(g["format"], g["table_size"], g["tables"]) for g in data["groups"]]
    assert sizes == [("deck-masters", 2, 4), ("format3-trinity", 3, 1), ("format3-trinity", 4, 1)]
    for group in data["groups"][1:]:
        assert [s["wins"] for s in group["seats"]][:2] == [0, 1]  # seat 2 won every pod
        assert group["fair_share"] == pytest.approx(1 / group["table_size"])


def test_byes_and_tables_without_a_result_are_left_out(organiser):
    event = services.event_create(organiser=organiser, name="Odd", format="deck-masters", planned_rounds=2,
                                  date=datetime.date(2026, 12, 5))  # fmt: skip
    for i in range(5):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"O{i}"))
    services.round_start(event=event, by=organiser, seed=1)
    report = selectors.event_seat_report(event=event)
    assert report.groups == () and report.byes == 1 and report.unreported == 2


def test_the_selectors_read_the_seats_in_one_query(season_of_two, django_assert_num_queries):
    season, duel, _ = season_of_two
    with django_assert_num_queries(1):
        assert selectors.event_seat_report(event=duel).tables == 4
    with django_assert_num_queries(1):
        assert selectors.season_seat_report(season=season).tables == 6


def test_the_pages_show_a_chart_and_a_table_and_are_linked_from_the_event_the_season_and_the_dashboard(
    season_of_two, organiser
):
    season, duel, pods = season_of_two
    client = Client()
    page = client.get(f"/events/{duel.pk}/seats/").content.decode()
    assert "<svg" in page and "Win rate by seat: Yu-Gi-Oh! Deck Masters · 1v1 tables" in page and "100.0 %" in page
    assert ONE_VS_ONE_SEATS.replace("'", "&#x27;") in page and "too few to tell a seat advantage" in page
    assert f"/events/{duel.pk}/seats/" in client.get(f"/events/{duel.pk}/").content.decode()
    season_page = client.get(f"/seasons/{season.pk}/").content.decode()
    assert f"/seasons/{season.pk}/seats/" in season_page and f"/events/{duel.pk}/export/seats.csv" in season_page
    seats = client.get(f"/seasons/{season.pk}/seats/").content.decode()
    assert "3-player pods" in seats and "4-player pods" in seats and seats.count("<svg") == 3
    empty = client.get(f"/events/{pods.pk}/seats/")
    assert empty.status_code == 200
    client.force_login(organiser)
    assert f"/events/{duel.pk}/seats/" in client.get(f"/dashboard/events/{duel.pk}/").content.decode()


def test_the_csv_exports_write_every_seat_through_the_safe_helper(season_of_two):
    season, duel, _ = season_of_two
    for url, lines in ((f"/events/{duel.pk}/export/seats.csv", 2), (f"/seasons/{season.pk}/seats.csv", 9)):
        response = Client().get(url)
        assert response.status_code == 200 and response.content.startswith(b"\xef\xbb\xbf")
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        assert table[0] == SEAT_HEADER and len(table) == 1 + lines
    first = list(
        csv.reader(io.StringIO(Client().get(f"/events/{duel.pk}/export/seats.csv").content.decode("utf-8-sig")))
    )
    assert first[1][:7] == ["deck-masters", "2", "1", "4", "4", "0", "1.0000"] and first[1][-1] == "yes"
