"""Season standings and ratings computed by a real Celery worker, over real Redis, from real PostgreSQL.

Results are reported through the services in this process; the readers of the domain events send the
standings, season and ratings tasks to Redis after each commit, and the worker process (started on a queue of
its own, pointed at the test database) runs them: the event's standings, then its season's (the reader of
``standings.updated``), and the format's ratings, table by table as results arrive.
"""

from __future__ import annotations

import datetime
import re
import time

import pytest

from config.celery import app as celery_app
from leagues import services as league_services
from leagues.models import PlayerRating, RatingChange, Season, SeasonStanding
from leagues.services.ratings import ratings_recompute
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import report_all
from tournaments import services
from tournaments.models import Event

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _until(check, what: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    pytest.fail(f"{what} not done by the worker within {timeout} s")


def _runs(worker, task: str) -> int:
    text = worker.log.read_text() if worker.log.exists() else ""
    return len(re.findall(rf"{re.escape(task)}\[[^\]]+\] succeeded", text))


def _snapshot(season: Season, fmt: str):
    standings = list(SeasonStanding.objects.filter(season=season).order_by("player_id").values_list(
        "player_id", "rank", "points", "events_played", "average_placing", "events"))  # fmt: skip
    history = list(RatingChange.objects.filter(format=fmt).order_by("key", "player_id").values_list(
        "key", "player_id", "mu_after", "sigma_after", "games"))  # fmt: skip
    return standings, history


def test_the_worker_keeps_season_standings_and_ratings_and_a_second_run_changes_nothing(worker, organiser):
    league = league_services.league_create(name="Worker League", formats=["deck-masters"], by=organiser)
    season = league_services.season_create(
        league=league, name="S", starts_on=datetime.date(2026, 12, 1), ends_on=datetime.date(2027, 1, 31),
        by=organiser,
    )  # fmt: skip
    field = [PlayerFactory(display_name=f"W{i}") for i in range(6)]
    for day in (2, 9):
        event = services.event_create(
            organiser=organiser, name=f"Night {day}", format="deck-masters", planned_rounds=2,
            date=datetime.date(2026, 12, day),
        )  # fmt: skip
        for player in field:
            RegistrationFactory(event=event, player=player)
        league_services.season_event_add(season=season, event=event, by=organiser)
        for _ in range(2):
            services.round_start(event=event, by=organiser, allow_rematches=True)
            report_all(event, organiser)
    last = Event.objects.get(pk=event.pk)
    _until(lambda: Event.objects.get(pk=last.pk).standings_current, "the event's standings")
    _until(lambda: RatingChange.objects.filter(format="deck-masters").count() == 2 * 2 * 6, "rating every table")
    _until(
        lambda: (
            (s := Season.objects.get(pk=season.pk)).standings_current
            and SeasonStanding.objects.filter(season=s, events_played=2).count() == 6
        ),
        "the season's standings",
    )
    log = worker.log.read_text()
    assert "leagues.tasks.recompute_season" in log and "leagues.tasks.update_ratings" in log
    assert PlayerRating.objects.filter(format="deck-masters", games=4).count() == 6

    # The worker's table-by-table updates are what rating everything from scratch gives.
    before = _snapshot(season, "deck-masters")
    # Both tasks a second time, through the broker: nothing changes.
    for task, args in (("leagues.tasks.update_ratings", ["deck-masters"]), ("leagues.tasks.recompute_season",
                                                                             [season.pk])):  # fmt: skip
        runs = _runs(worker, task)
        celery_app.send_task(task, args=args, queue=celery_app.conf.task_default_queue)
        _until(lambda task=task, runs=runs: _runs(worker, task) > runs, f"a second run of {task}")
    assert _snapshot(season, "deck-masters") == before
    ratings_recompute(format_slug="deck-masters")
    assert _snapshot(season, "deck-masters")[1] == before[1]
