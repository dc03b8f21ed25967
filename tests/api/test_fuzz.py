"""Fuzzing every operation of the API against its own OpenAPI schema (schemathesis, in-process).

Each operation of ``/api/schema/`` is called through the WSGI application, as the
organiser of a seeded database (token auth), with the inputs schemathesis
generates from the schema: the boundary and invalid values of every field (the
coverage phase), then random valid and invalid ones (the fuzzing phase).  Ids
in the path are mapped onto seeded rows most of the time and onto rows that
cannot exist otherwise, so operations reach real events, registrations, rounds,
tables, games and entries as well as their 404s; player ids in a body are mapped
onto the players of the event in the path, usernames (in the path or a body)
onto the seeded accounts, claim codes onto the seeded code.  The mapping depends
on the generated values alone, not on the ids the database hands out.  The
operations a player makes for themselves (registering, reporting and confirming
a result, claiming a record, ``/me/``) are fuzzed a second time as a player
with an account, seated at a table with an open report.

Every answer must not be a server error and must have a documented status,
content type, headers and body; a 4xx must carry a code its operation documents
(see :mod:`tests.support.api_checks`).  Generation is seeded and derandomized, so
the same command sends the same requests to the same rows every time (CI's
``./bin/test`` included).  Run it alone with ``pytest -m fuzz``; search deeper
with ``PODIUM_FUZZ_EXAMPLES`` and ``PODIUM_FUZZ_SEED``.
"""

from __future__ import annotations

import copy
import datetime
import re
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, settings
from schemathesis import Case

from decks import services as deck_services
from decks.models import DeckVersion
from games import services as game_services
from leagues import services as league_services
from tests.support.api_checks import CHECKS, schema
from tests.support.games.deck_masters import scripted_duel
from tests.support.people import token_for
from tournaments import services
from tournaments.models import Player, PodResult
from tournaments.services import registrations, results, staff

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
    seats: dict[tuple[int, int], list[int]] = field(default_factory=dict)  # (event, table) -> its players
    byes: dict[int, list[int]] = field(default_factory=dict)  # registration -> rounds it has a bye assigned
    games: list[int] = field(default_factory=list)
    entries: dict[int, int] = field(default_factory=dict)  # game -> entries recorded
    usernames: list[str] = field(default_factory=list)  # staff, players with accounts, the organisers
    claim_codes: list[str] = field(default_factory=list)
    penalties: dict[int, list[int]] = field(default_factory=dict)  # event -> its penalties
    player_token: str = ""  # a player with an account, at a table of the running event
    leagues: list[int] = field(default_factory=list)
    seasons: list[int] = field(default_factory=list)

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
            table = mapped.path_parameters.get("table")
            # At a seeded table, its own players (a result names exactly them); elsewhere the event's.
            players = self.seats.get((event, table)) or self.players.get(event, everyone)
            map_body_players(mapped.body, players)
            if "event" in mapped.body:  # an event to put in a season: one of the seeded events
                mapped.body["event"] = pick(self.events, mapped.body["event"])
            if "registration" in mapped.body:  # a penalty's player: a registration of the event
                mapped.body["registration"] = pick(self.registrations.get(event, []), mapped.body["registration"])
            if isinstance(mapped.body.get("user"), str):
                mapped.body["user"] = pick_text(self.usernames, mapped.body["user"])
            if isinstance(mapped.body.get("code"), str):
                mapped.body["code"] = pick_text(self.claim_codes, mapped.body["code"])
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
        if "penalty_id" in params:
            params["penalty_id"] = pick(self.penalties.get(event, []), params["penalty_id"], MISSING)
        if "game_id" in params:
            params["game_id"] = pick(self.games, params["game_id"], MISSING)
        if "seq" in params:
            params["seq"] = pick(list(range(1, self.entries.get(params["game_id"], 0) + 1)), params["seq"], MISSING)
        if isinstance(params.get("username"), str):
            params["username"] = pick_text(self.usernames, params["username"])
        if "league_id" in params:
            params["league_id"] = pick(self.leagues, params["league_id"], MISSING)
        if "season_id" in params:
            params["season_id"] = pick(self.seasons, params["season_id"], MISSING)
        if "player_id" in params:
            everyone = [p for players in self.players.values() for p in players]
            params["player_id"] = pick(everyone, params["player_id"], MISSING)
        if isinstance(params.get("format_slug"), str):
            params["format_slug"] = pick_text(["deck-masters", "mt-silver"], params["format_slug"])
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


def pick_text(options: list[str], value: str) -> str:
    """One of ``options`` chosen by the generated text's length; one time in ``len + 1``, the text as it is."""
    index = len(value) % (len(options) + 1)
    return options[index] if index < len(options) else value


def map_body_players(body: dict, players: list[int]) -> None:
    """Map player ids in a body (a registration's player, a swap's pair, a result's placements and game scores)
    onto ``players``."""
    if "player" in body:
        body["player"] = pick(players, body["player"])
    if isinstance(body.get("players"), list):
        body["players"] = [pick(players, p) for p in body["players"]]
    for key in ("placements", "games"):
        if isinstance(body.get(key), list):
            for item in body[key]:
                if isinstance(item, dict) and "player" in item:
                    item["player"] = pick(players, item["player"])


def seed_database(organiser, other, accounts) -> Seeded:
    """Three events, through the services as the dashboard and the players would make them.

    A running 1v1 event with player reports and check-in open (round 1 paired: a
    table with its result, a table with a game record, a table whose report waits
    for confirmation, a disputed table; a judge and a scorekeeper on its staff; a
    deck with a judge's ruling); a
    pod event still registering, open to self-registration with a full capacity
    and a waiting list (a player not checked in, a fixed table, an assigned bye, a
    claim code for a walk-in); and someone else's event.  ``accounts`` are the
    players' and the staff's users: ``player``, ``opponent``, ``rival``, ``rival2``,
    ``judge``, ``keeper``.
    """
    day = datetime.date(2026, 12, 4)
    duel = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3, date=day
    )
    services.event_update(event=duel, by=organiser, player_reports=True, check_in_open=True)
    staff.staff_add(event=duel, username=accounts["judge"].username, role="judge", by=organiser)
    staff.staff_add(event=duel, username=accounts["keeper"].username, role="scorekeeper", by=organiser)
    duel_regs = [
        services.registration_create(event=duel, by=organiser, display_name=f"Duelist {i}", checked_in=True)
        for i in range(8)
    ]
    # A deck a judge ruled legal: rulings are made and cleared on it (its number maps like a round's).
    deck = DeckVersion.objects.create(registration=duel_regs[0], number=1, decklist="#main\n", status="illegal")
    deck_services.deck_verdict_override(version=deck, status="legal", reason="A misprint.", by=organiser)
    pods = list(services.round_start(event=duel, by=organiser, seed=42).pods.order_by("table_number"))
    seats = [list(pod.seats.order_by("seat_order").values_list("player_id", flat=True)) for pod in pods]
    first, second, third, fourth = seats
    services.pod_result_report(
        event=duel, round_number=1, table_number=pods[0].table_number, placements={first[0]: 1, first[1]: 2},
        by=organiser, source=PodResult.Source.API,
    )  # fmt: skip
    game = game_services.game_create(pod=pods[1], by=organiser)
    for entry in scripted_duel(*second)[:3]:
        game, _ = game_services.game_event_append(
            game=game, expected_version=game.version, type=entry.type, data=dict(entry.data), by=organiser
        )
    # Players with accounts: a report waiting at table 3, a disputed one at table 4.
    for name, player in (("player", third[0]), ("opponent", third[1]), ("rival", fourth[0]), ("rival2", fourth[1])):
        Player.objects.filter(pk=player).update(user=accounts[name])
    results.result_player_report(
        event=duel, round_number=1, table_number=pods[2].table_number, placements={third[0]: 1, third[1]: 2},
        by=accounts["player"],
    )  # fmt: skip
    for name, placements in (("rival", {fourth[0]: 1, fourth[1]: 2}), ("rival2", {fourth[0]: 2, fourth[1]: 1})):
        results.result_player_report(
            event=duel, round_number=1, table_number=pods[3].table_number, placements=placements, by=accounts[name]
        )
    # Penalties: the player has a warning in force and a caution rescinded.
    mine = next(r for r in duel_regs if r.player_id == third[0])
    warning = services.penalty_issue(
        event=duel, registration_id=mine.pk, penalty="warning", infraction="Slow play", by=accounts["judge"]
    )
    caution = services.penalty_issue(
        event=duel, registration_id=mine.pk, penalty="caution", infraction="Shuffling", by=accounts["judge"]
    )
    services.penalty_rescind(penalty=caution, by=accounts["judge"], reason="Misheard.")

    league = services.event_create(organiser=organiser, name="League", format="mt-silver", planned_rounds=3, date=day)
    league_regs = [
        services.registration_create(event=league, by=organiser, display_name=f"Trainer {i}", checked_in=i < 6)
        for i in range(7)
    ]
    services.registration_update(registration=league_regs[0], by=organiser, fixed_table=1)
    services.bye_assign(registration=league_regs[1], round_number=2, by=organiser)
    services.event_update(event=league, by=organiser, registration_open=True, capacity=8)
    league_regs.append(registrations.registration_self_register(event=league, by=accounts["opponent"]))
    league_regs.append(registrations.registration_self_register(event=league, by=accounts["rival"]))  # waiting
    code = registrations.player_claim_code_create(registration=league_regs[2], by=organiser)

    theirs = services.event_create(
        organiser=other, name="Not Yours", format="mintayn-master", planned_rounds=2, date=day
    )
    their_regs = [
        services.registration_create(event=theirs, by=other, display_name=f"Guest {i}", checked_in=True)
        for i in range(2)
    ]

    # A league of the organiser's with a season holding the running event (the other event's format it lacks).
    thursdays = league_services.league_create(name="Thursdays", formats=["deck-masters", "mt-silver"], by=organiser)
    winter = league_services.season_create(
        league=thursdays, name="Winter", starts_on=day, ends_on=day + datetime.timedelta(days=60), by=organiser
    )
    league_services.season_event_add(season=winter, event=duel, by=organiser)

    seeded = Seeded(
        token=token_for(organiser),
        player_token=token_for(accounts["player"]),
    )
    for event, registrations_ in ((duel, duel_regs), (league, league_regs), (theirs, their_regs)):
        seeded.events.append(event.pk)
        seeded.registrations[event.pk] = [r.pk for r in registrations_]
        seeded.players[event.pk] = [r.player_id for r in registrations_]
        seeded.rounds[event.pk] = list(event.rounds.order_by("number").values_list("number", flat=True))
    seeded.tables[duel.pk] = [pod.table_number for pod in pods]
    seeded.seats = {(duel.pk, pod.table_number): players for pod, players in zip(pods, seats, strict=True)}
    seeded.byes[league_regs[1].pk] = [2]
    seeded.penalties[duel.pk] = [warning.pk, caution.pk]
    seeded.games = [game.pk]
    seeded.entries = {game.pk: game.version}
    staff_first = sorted(accounts, key=lambda name: name not in ("judge", "keeper"))
    seeded.usernames = [accounts[name].username for name in staff_first] + [organiser.username, other.username]
    seeded.claim_codes = [code]
    seeded.leagues = [thursdays.pk]
    seeded.seasons = [winter.pk]
    return seeded


@pytest.fixture
def seeded(wsgi_in_test_transaction, django_user_model) -> Seeded:
    def account(name: str):
        return django_user_model.objects.create_user(username=f"fuzz-{name}", password="pw")

    organiser, other = account("organiser"), account("other")
    accounts = {name: account(name) for name in ("player", "opponent", "rival", "rival2", "judge", "keeper")}
    return seed_database(organiser, other, accounts)


@schema.parametrize()
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_operation_answers_as_its_schema_says(case, seeded):
    seeded.on_rows(case).call_and_validate(headers={"Authorization": f"Token {seeded.token}"}, checks=CHECKS)


#: What a player does for themselves: sign up to events, check in, drop, report and confirm results, claim a
#: record, read /me/ and their own penalties (paths ending so).
PLAYER_PATHS = ("/me/", "/players/claim/", "/register/", "/check-in/", "/drop/", "/withdraw/", "/report/", "/confirm/",
                "/penalties/")  # fmt: skip
PLAYER_OPERATIONS = "(" + "|".join(re.escape(path) for path in PLAYER_PATHS) + ")$"


@schema.include(path_regex=PLAYER_OPERATIONS).parametrize()
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_players_own_operations_answer_as_their_schema_says(case, seeded):
    seeded.on_rows(case).call_and_validate(headers={"Authorization": f"Token {seeded.player_token}"}, checks=CHECKS)
