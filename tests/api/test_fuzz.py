"""Fuzzing every operation of the API against its own OpenAPI schema (schemathesis, in-process).

Each operation of ``/api/schema/`` is called through the WSGI application, as the
organiser of a seeded database (token auth), with the inputs schemathesis
generates from the schema: the boundary and invalid values of every field (the
coverage phase), then random valid and invalid ones (the fuzzing phase).  Ids
in the path are mapped onto seeded rows most of the time and onto rows that
cannot exist otherwise, so operations reach real events, registrations, rounds,
tables, games and entries as well as their 404s; player ids in a body are mapped
onto the players of the event in the path.  The mapping depends on the generated
values alone, not on the ids the database hands out.

Every answer must not be a server error and must have a documented status,
content type, headers and body; a 4xx must carry a code its operation documents
(see :mod:`tests.api.schema_checks`).  Generation is seeded and derandomized, so
the same command sends the same requests to the same rows every time (CI's
``./bin/test`` included).  Run it alone with ``pytest -m fuzz``; search deeper
with ``PODIUM_FUZZ_EXAMPLES`` and ``PODIUM_FUZZ_SEED``.
"""

from __future__ import annotations

import copy
import datetime
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis import Case

from games import services as game_services
from tests.api.schema_checks import CHECKS, schema
from tests.games.test_engine_deck_masters import scripted_duel
from tournaments import services
from tournaments.models import PodResult

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db]

#: Added to a generated id left unmapped: far beyond any row, so it is missing in every run.
MISSING = 10**15


@dataclass
class Seeded:
    """Ids of the seeded rows, and the mapping of generated ids onto them."""

    token: str = ""
    events: list[int] = field(default_factory=list)
    registrations: dict[int, list[int]] = field(default_factory=dict)  # event -> its registrations
    players: dict[int, list[int]] = field(default_factory=dict)  # event -> its players
    rounds: dict[int, list[int]] = field(default_factory=dict)  # event -> its round numbers
    tables: dict[int, list[int]] = field(default_factory=dict)  # event -> tables of its latest round
    byes: dict[int, list[int]] = field(default_factory=dict)  # registration -> rounds it has a bye assigned
    games: list[int] = field(default_factory=list)
    entries: dict[int, int] = field(default_factory=dict)  # game -> entries recorded

    def on_rows(self, case: Case) -> Case:
        """A copy of ``case`` with its ids mapped onto seeded rows.

        The generated case stays as it is: the coverage phase builds its cases
        before the database is seeded, and Hypothesis may run a case twice.
        """
        mapped = case.derive(keep_auth=True)
        event = self.map_path(mapped.path_parameters)
        if isinstance(case.body, dict):
            mapped.body = copy.deepcopy(case.body)
            everyone = [p for players in self.players.values() for p in players]
            map_body_players(mapped.body, self.players.get(event, everyone))
        return mapped

    def map_path(self, params: dict) -> int | None:
        """Map the path's ids in place; return the event in the path (if any)."""
        if "event_id" not in params:
            event = None
        else:
            event = params["event_id"] = pick(self.events, params["event_id"], MISSING)
        if "registration_id" in params:
            params["registration_id"] = pick(self.registrations.get(event, []), params["registration_id"], MISSING)
        if "number" in params:
            rounds = self.rounds.get(event, []) + self.byes.get(params.get("registration_id"), [])
            params["number"] = pick(rounds, params["number"], MISSING)
        if "table" in params:
            params["table"] = pick(self.tables.get(event, []), params["table"], MISSING)
        if "game_id" in params:
            params["game_id"] = pick(self.games, params["game_id"], MISSING)
        if "seq" in params:
            params["seq"] = pick(list(range(1, self.entries.get(params["game_id"], 0) + 1)), params["seq"], MISSING)
        return event


def pick(options: list[int], value, missing: int = 0):
    """One of ``options``, chosen by the generated ``value``; one time in ``len + 1``, ``value + missing``.

    Anything but a non-negative integer, or its digits (the coverage phase sends path values as
    text), stays as it is: an invalid value, for the API to refuse.
    """
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        return value
    index = value % (len(options) + 1)
    return options[index] if index < len(options) else value + missing


def map_body_players(body: dict, players: list[int]) -> None:
    """Map player ids in a body (a registration's player, a swap's pair, a result's placements) onto ``players``."""
    if "player" in body:
        body["player"] = pick(players, body["player"])
    if isinstance(body.get("players"), list):
        body["players"] = [pick(players, p) for p in body["players"]]
    if isinstance(body.get("placements"), list):
        for item in body["placements"]:
            if isinstance(item, dict) and "player" in item:
                item["player"] = pick(players, item["player"])


def seed_database(organiser, other) -> Seeded:
    """Three events, through the services as the dashboard would make them.

    A running 1v1 event (round 1 paired: a table with its result, a table with a
    game record, tables untouched); a pod event still registering (a player not
    checked in, a fixed table, an assigned bye); and someone else's event.
    """
    day = datetime.date(2026, 12, 4)
    duel = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3, date=day
    )
    duel_regs = [
        services.registration_create(event=duel, by=organiser, display_name=f"Duelist {i}", checked_in=True)
        for i in range(8)
    ]
    pods = list(services.round_start(event=duel, by=organiser, seed=42).pods.order_by("table_number"))
    first = list(pods[0].seats.order_by("seat_order").values_list("player_id", flat=True))
    services.pod_result_report(
        event=duel, round_number=1, table_number=pods[0].table_number, placements={first[0]: 1, first[1]: 2},
        by=organiser, source=PodResult.Source.API,
    )  # fmt: skip
    second = list(pods[1].seats.order_by("seat_order").values_list("player_id", flat=True))
    game = game_services.game_create(pod=pods[1], by=organiser)
    for entry in scripted_duel(*second)[:3]:
        game, _ = game_services.game_event_append(
            game=game, expected_version=game.version, type=entry.type, data=dict(entry.data), by=organiser
        )

    league = services.event_create(organiser=organiser, name="League", format="mt-silver", planned_rounds=3, date=day)
    league_regs = [
        services.registration_create(event=league, by=organiser, display_name=f"Trainer {i}", checked_in=i < 6)
        for i in range(7)
    ]
    services.registration_update(registration=league_regs[0], by=organiser, fixed_table=1)
    services.bye_assign(registration=league_regs[1], round_number=2, by=organiser)

    theirs = services.event_create(
        organiser=other, name="Not Yours", format="mintayn-master", planned_rounds=2, date=day
    )
    their_regs = [
        services.registration_create(event=theirs, by=other, display_name=f"Guest {i}", checked_in=True)
        for i in range(2)
    ]

    seeded = Seeded(token=Token.objects.get_or_create(user=organiser)[0].key)
    for event, registrations in ((duel, duel_regs), (league, league_regs), (theirs, their_regs)):
        seeded.events.append(event.pk)
        seeded.registrations[event.pk] = [r.pk for r in registrations]
        seeded.players[event.pk] = [r.player_id for r in registrations]
        seeded.rounds[event.pk] = list(event.rounds.order_by("number").values_list("number", flat=True))
    seeded.tables[duel.pk] = [pod.table_number for pod in pods]
    seeded.byes[league_regs[1].pk] = [2]
    seeded.games = [game.pk]
    seeded.entries = {game.pk: game.version}
    return seeded


@pytest.fixture
def seeded(wsgi_in_test_transaction, django_user_model) -> Seeded:
    organiser = django_user_model.objects.create_user(username="fuzz-organiser", password="pw")
    other = django_user_model.objects.create_user(username="fuzz-other", password="pw")
    return seed_database(organiser, other)


@schema.parametrize()
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_operation_answers_as_its_schema_says(case, seeded):
    seeded.on_rows(case).call_and_validate(headers={"Authorization": f"Token {seeded.token}"}, checks=CHECKS)
