"""The games API and the judge console take as many queries after 50 rounds as after 5, and as many for a
long game log as for a short one.

The game is played at the latest round's first table (the one without a result) of an event built in bulk
by :mod:`tests.support.played_event`, through the games services, to the first ``entries`` entries of the
format's scripted game with one of them voided.  Each read must make exactly the number of queries below:
the request's own reads (session or token, the game or table, its rows), not one per round, seat or entry.
A change that makes a read cost more queries changes its number here, on purpose.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Game
from tests.support.games import mintayn_master_game, seat_ids
from tests.support.played_event import ROUNDS, build_played_event, read_counting
from tournaments.models import Pod

pytestmark = pytest.mark.django_db

#: A short log and a long one (the scripted game's first entries; it ends a few entries later).
ENTRIES = [4, 30]


def _played_game(organiser, *, rounds: int, entries: int) -> Game:
    event = build_played_event(organiser=organiser, rounds=rounds).event
    pod = Pod.objects.select_related("round__event").get(
        round__event=event, round__number=event.planned_rounds, table_number=1
    )
    game = services.game_create(pod=pod, by=organiser)
    for entry in mintayn_master_game(*seat_ids(pod))[:entries]:
        game, _ = services.game_event_append(
            game=game, expected_version=game.version, type=entry.type, data=dict(entry.data), by=organiser
        )
    # A voided entry and its void: the log shows both, with who recorded each.
    game, _ = services.game_event_void(
        game=game, expected_version=game.version, seq=game.version, reason="typo", by=organiser
    )
    assert game.status == Game.Status.IN_PROGRESS
    return game


@pytest.fixture(params=[(r, e) for r in ROUNDS for e in ENTRIES], ids=lambda p: f"{p[0]}-rounds-{p[1]}-entries")
def game(request, organiser):
    rounds, entries = request.param
    return _played_game(organiser, rounds=rounds, entries=entries)


@pytest.fixture
def judge(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def _table(game: Game) -> str:
    round_ = game.pod.round
    return f"events/{round_.event_id}/rounds/{round_.number}/tables/{game.pod.table_number}"


def test_the_tables_games_make_the_same_queries_whatever_the_rounds_and_entries(game, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/{_table(game)}/games/", 2, django_assert_num_queries)


def test_a_game_makes_the_same_queries_whatever_the_rounds_and_entries(game, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/games/{game.pk}/", 2, django_assert_num_queries)


def test_a_games_entries_make_the_same_queries_whatever_the_rounds_and_entries(game, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/games/{game.pk}/events/", 4, django_assert_num_queries)


def test_the_console_table_page_makes_the_same_queries_whatever_the_rounds_and_entries(
    game, judge, django_assert_num_queries
):
    read_counting(judge, f"/dashboard/{_table(game)}/game/", 8, django_assert_num_queries)


def test_the_console_makes_the_same_queries_whatever_the_rounds_and_entries(game, judge, django_assert_num_queries):
    read_counting(judge, f"/dashboard/games/{game.pk}/", 7, django_assert_num_queries)


def test_the_console_panel_makes_the_same_queries_whatever_the_rounds_and_entries(
    game, judge, django_assert_num_queries
):
    """The panel htmx swaps in."""
    with django_assert_num_queries(6):
        answer = judge.get(f"/dashboard/games/{game.pk}/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
