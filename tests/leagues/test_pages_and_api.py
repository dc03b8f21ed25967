"""League pages, the API and the exports, on the database: what people read, what scripts parse, what stays hidden."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.db import transaction
from django.test import Client

from decks.models import DeckVersion
from decks.services import event_decklists_publish
from leagues import services as league_services
from leagues.models import PlayerRating
from tests.support.leagues import committed, make_league, played_event, players
from tournaments.services import registrations as registration_services

pytestmark = pytest.mark.django_db


def read_csv(response) -> list[list[str]]:
    """An export's rows (the file starts with a byte-order mark)."""
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.fixture(scope="module")
def _season_of_two(django_db_setup, django_db_blocker):
    """The season and its organiser, built once for the module in a transaction rolled back at its end; each
    test's own transaction rolls back inside it, so every test meets the same season."""
    from django.contrib.auth import get_user_model

    with django_db_blocker.unblock(), transaction.atomic():
        organiser = get_user_model().objects.create_user(username="organiser", password="pw")
        yield organiser, _build_season(organiser)
        transaction.set_rollback(True)


@pytest.fixture
def organiser(_season_of_two, db):
    return _season_of_two[0]


@pytest.fixture
def season_of_two(_season_of_two, db):
    return _season_of_two[1]


def _build_season(organiser):
    league, season = make_league(organiser)
    field = players(8)
    dm = played_event(organiser, season=season, field=field, day=3)
    ms = played_event(organiser, season=season, field=field[:4] + players(4, "M"), day=10, format="mt-silver")
    for registration in dm.registrations.select_related("player"):
        DeckVersion.objects.create(
            registration=registration, number=1, roles={"deck_master": "Dark Magician"}, decklist="#main\n"
        )
    return league, season, dm, ms, field


def test_the_league_page_shows_the_season_standings_with_a_chart_and_its_events(season_of_two):
    league, season, dm, ms, field = season_of_two
    page = Client().get(f"/leagues/{league.pk}/").content.decode()
    assert '<svg class="chart"' in page and "<title id=" in page and "<desc id=" in page
    assert "Season standings" in page and dm.name in page and ms.name in page
    assert "/ratings/deck-masters/" in page


def test_a_private_league_is_for_its_staff_and_the_players_of_its_events(season_of_two, outsider, django_user_model):
    league, season, dm, _, field = season_of_two
    with committed():
        league_services.league_update(league=league, by=league.organiser, is_public=False)
    assert Client().get(f"/leagues/{league.pk}/").status_code == 404
    assert Client().get(f"/api/v1/seasons/{season.pk}/standings/").status_code == 404
    account = django_user_model.objects.create_user(username="regular", password="pw")
    field[0].user = account
    field[0].save(update_fields=["user"])
    client = Client()
    client.force_login(account)
    assert client.get(f"/leagues/{league.pk}/").status_code == 200


def test_the_api_creates_a_league_and_a_season_and_refuses_what_cannot_be(api, organiser, season_of_two):
    created = api.post("/api/v1/leagues/", {"name": "Sunday Cup", "formats": ["mintayn-master"]}, format="json")
    assert created.status_code == 201
    league = created.json()["id"]
    bad = api.post(
        f"/api/v1/leagues/{league}/seasons/",
        {"name": "S1", "starts_on": "2027-01-01", "ends_on": "2027-03-01", "points_table": {"placement": [[4, 1], [2, 5]]}},
        format="json",
    )  # fmt: skip
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_points_table"
    season = api.post(
        f"/api/v1/leagues/{league}/seasons/",
        {"name": "S1", "starts_on": "2027-01-01", "ends_on": "2027-03-01", "preset": "match_wins"}, format="json",
    ).json()  # fmt: skip
    assert season["points_table"]["match_win"] == 3 and season["preset"] == "match_wins"
    _, _, dm, *_ = season_of_two
    refused = api.post(f"/api/v1/seasons/{season['id']}/events/", {"event": dm.pk}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "format_not_in_league"
    unknown = api.post("/api/v1/leagues/", {"name": "X", "formats": ["chess"]}, format="json")
    assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "unknown_format"


def test_season_standings_and_leaderboards_are_paginated(anon_api, season_of_two):
    _, season, *_ = season_of_two
    page = anon_api.get(f"/api/v1/seasons/{season.pk}/standings/?limit=5").json()
    assert page["count"] == 12 and len(page["results"]) == 5 and page["next"] and page["previous"] is None
    assert [r["rank"] for r in page["results"]] == sorted(r["rank"] for r in page["results"])
    board = anon_api.get("/api/v1/ratings/deck-masters/?min_games=3").json()
    assert board["count"] == PlayerRating.objects.filter(format="deck-masters", games__gte=3).count() == 8
    ratings = [r["rating"] for r in board["results"]]
    assert ratings == sorted(ratings, reverse=True)
    assert anon_api.get("/api/v1/ratings/chess/").status_code == 404


def test_the_json_export_has_the_limitless_shape(season_of_two):
    _, _, dm, *_ = season_of_two
    rows = json.loads(Client().get(f"/events/{dm.pk}/export/standings.json").content)
    assert len(rows) == 8 and [r["placing"] for r in rows] == sorted(r["placing"] for r in rows)
    for row in rows:
        assert set(row) == {"name", "player", "placing", "record", "drop", "deck"}
        assert set(row["record"]) == {"wins", "losses", "ties"} and set(row["deck"]) == {"name"}
    assert all(row["deck"]["name"] is None for row in rows)  # decklists not published: no deck names


def test_decklists_and_archetypes_stay_hidden_until_the_lists_are_published(organiser, season_of_two):
    _, season, dm, *_ = season_of_two
    client = Client()
    assert client.get(f"/events/{dm.pk}/export/decklists.csv").status_code == 404
    meta = client.get(f"/api/v1/events/{dm.pk}/meta/").json()
    assert [r["archetype"] for r in meta["rows"]] == ["Lists not published"] and meta["rows"][0]["win_rate"] is None
    assert "Dark Magician" not in client.get(f"/events/{dm.pk}/meta/").content.decode()
    assert "Dark Magician" not in client.get(f"/events/{dm.pk}/export/standings.csv").content.decode()
    with committed():
        event_decklists_publish(event=dm, by=organiser)
    meta = client.get(f"/api/v1/seasons/{season.pk}/meta/").json()
    named = {r["archetype"]: r for r in meta["rows"]}
    assert named["Dark Magician"]["players"] == 8 and named["Dark Magician"]["win_rate"] == 0.5
    assert named["Lists not published"]["players"] == 8  # the Mt. Silver night, still hidden
    lists = read_csv(client.get(f"/events/{dm.pk}/export/decklists.csv"))
    assert lists[0] == ["placing", "player_id", "player", "deck", "decklist"] and len(lists) == 9
    assert json.loads(client.get(f"/events/{dm.pk}/export/standings.json").content)[0]["deck"] == {
        "name": "Dark Magician"
    }


def test_the_csv_exports_of_an_event_and_a_season(season_of_two):
    _, season, dm, *_ = season_of_two
    client = Client()
    standings = read_csv(client.get(f"/events/{dm.pk}/export/standings.csv"))
    assert standings[0][:4] == ["placing", "swiss_rank", "player_id", "player"] and len(standings) == 9
    results = read_csv(client.get(f"/events/{dm.pk}/export/results.csv"))
    assert results[0][0] == "round" and len(results) == 1 + 3 * 8
    table = read_csv(client.get(f"/seasons/{season.pk}/standings.csv"))
    assert table[0][:4] == ["rank", "player_id", "player", "points"] and len(table) == 13 and len(table[0]) == 11


def test_a_claimed_walk_in_keeps_one_history_on_their_own_page(organiser, season_of_two, django_user_model):
    _, _, dm, _, field = season_of_two
    walk_in = field[0]
    registration = dm.registrations.get(player=walk_in)
    code = registration_services.player_claim_code_create(registration=registration, by=organiser)
    account = django_user_model.objects.create_user(username="walkin", password="pw")
    registration_services.player_for_user(account, display_name="Walk In")  # an empty profile of their own
    registration_services.player_claim(user=account, code=code)
    client = Client()
    client.force_login(account)
    page = client.get("/me/").content.decode()
    assert "Leagues and ratings" in page and "Winter 2026" in page
    assert f'id="rating-{walk_in.pk}-deck-masters"' in page
    assert PlayerRating.objects.filter(player=walk_in).count() == 2


def test_the_pages_read_the_same_number_of_queries_for_a_longer_season(
    organiser, season_of_two, django_assert_max_num_queries, django_assert_num_queries
):
    league, season, dm, ms, field = season_of_two
    urls = [f"/leagues/{league.pk}/", f"/seasons/{season.pk}/", f"/seasons/{season.pk}/meta/",
            f"/events/{dm.pk}/meta/", "/ratings/deck-masters/", f"/players/{field[0].pk}/ratings/",
            f"/api/v1/seasons/{season.pk}/standings/", f"/api/v1/seasons/{season.pk}/meta/",
            f"/seasons/{season.pk}/seats/", f"/events/{dm.pk}/seats/", f"/api/v1/seasons/{season.pk}/seats/",
            f"/api/v1/events/{dm.pk}/seats/"]  # fmt: skip
    client = Client()
    counts = {}
    for url in urls:
        with django_assert_max_num_queries(12) as captured:
            assert client.get(url).status_code == 200
        counts[url] = len(captured)
    for day in (17, 24):
        played_event(organiser, season=season, field=field, day=day)
    for url in urls:
        with django_assert_num_queries(counts[url]):
            client.get(url)
