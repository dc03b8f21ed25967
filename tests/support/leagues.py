"""Leagues for the tests: a league with a season of played events, in a 1v1 format and a pod format.

- :func:`make_league`: a league by ``organiser`` holding ``formats``, with one season (the ``balanced`` preset).
- :func:`committed`: run the readers a block's commits ask for as the block ends (a test's transaction never
  commits, so they would not run otherwise).
- :func:`played_event`: an event of ``format`` with ``players`` (the same :class:`Player` records across calls,
  so a season has regulars), every Swiss round played, standings stored, in ``season``.
"""

from __future__ import annotations

import datetime

from django.test import TestCase

from leagues import services as league_services
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import report_all
from tournaments import services
from tournaments.models import Event, Player


def committed():
    return TestCase.captureOnCommitCallbacks(execute=True)


def make_league(organiser, *, formats=("deck-masters", "mt-silver"), name="Thursday League", **season):
    league = league_services.league_create(name=name, formats=list(formats), by=organiser)
    created = league_services.season_create(
        league=league, name="Winter 2026", starts_on=datetime.date(2026, 12, 1),
        ends_on=datetime.date(2027, 2, 28), by=organiser, **season,
    )  # fmt: skip
    return league, created


def players(n: int, prefix: str = "L") -> list[Player]:
    return [PlayerFactory(display_name=f"{prefix}{i:02d}") for i in range(n)]


def played_event(
    organiser, *, season=None, format="deck-masters", field: list[Player], rounds: int = 3, day: int = 1,
    winner_seat: int = 1, **options,
) -> Event:  # fmt: skip
    event = services.event_create(
        organiser=organiser, name=f"Night {day}", format=format, planned_rounds=rounds,
        date=datetime.date(2026, 12, day), **options,
    )  # fmt: skip
    for player in field:
        RegistrationFactory(event=event, player=player)
    if season is not None:
        with committed():
            league_services.season_event_add(season=season, event=event, by=organiser)
    for _ in range(rounds):
        with committed():
            services.round_start(event=event, by=organiser, allow_rematches=True)
            report_all(event, organiser, winner_seat=winner_seat)
    with committed():
        services.standings_recompute(event_id=event.pk)
    return event
