"""Who may do what through the API: every role x every write operation of the schema, as a table.

Each row is a write operation (every POST, PUT, PATCH and DELETE of ``/api/schema/``: an operation
added without a row fails :func:`test_every_write_operation_of_the_schema_has_a_row`), each column a
role, each cell the status the request below the table answers for that role.  A cell of the policy
reads 2xx where the role may act and 403 where it may not; 409 means the role may act but the event's
state refuses (the round has tables without results, a game is in progress): the permission was
granted before the state was looked at.  Anonymous callers get 401 ``not_authenticated`` with a
``WWW-Authenticate`` header wherever a signed-in user is needed (see ``core.api``).

The world every request is sent into (:func:`world`), with its roles:

* **running**: a 1v1 event (Deck Masters) with player reports and check-in open, round 1 reported,
  round 2 paired.  At table 1 of round 2 sit *alice* (**at table**, seat 1) and *bob*; bob has
  reported the result (pending) and a judge has started the table's game.  *eve* (**elsewhere**)
  sits at table 2.  Alice has a bye assigned for round 3.
  Alice's deck at the running event (version 1, illegal to the checker) is legal by a judge's ruling.
* **upcoming**: an event with registration open, where alice has registered herself.
* **invitational**: olivia entered alice's record (linked to her account): alice is invited, and only she
  accepts or declines.
* **lottery**: an event whose places are drawn by lottery, not drawn yet; bob has applied.
* olivia also runs a league (Deck Masters) whose season holds the running event; *carl* is its caster.
  Only she (and site staff) change the league: the events' co-organiser is not the league's.
* On the floor: eve has called a judge to her table (waiting), alice's table is picked for a deck check, and
  judy is assigned tables 5 to 6.
* The organiser *olivia* (**organiser**) gave both events the same staff: *cora* (**co-organiser**),
  *sam* (**scorekeeper**), *judy* (**judge**) and *carl* (**caster**).  *oscar* (**other organiser**)
  runs an event of his own; *site* (**site staff**) is Django staff.  Olivia and oscar have the organiser
  permission (site staff gave it): they, and site staff, create events and player records; organising is not
  open to everyone (``PODIUM_OPEN_ORGANISING`` off, production's default).

Requests about a registration are about alice's (a walk-in's for a claim code); requests about a table
about alice's table (in round 1 for a correction).  The world is built once for the module; each cell runs in a
savepoint rolled back after it, so every role meets the same world.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass, field

import pytest
from django.db import transaction
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from decks import services as deck_services
from decks.models import DeckVersion
from floor import services as floor_services
from games import services as game_services
from leagues import services as league_services
from live import services as live_services
from tests.support.games.deck_masters import scripted_duel
from tests.support.people import token_for
from tournaments import services
from tournaments.models import Event, Player, Registration
from tournaments.services import registrations, results, staff

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "at table", "elsewhere", "other organiser", "judge", "scorekeeper", "caster",
         "co-organiser", "organiser", "site staff")  # fmt: skip

# fmt: off
TABLE = """
operation                                                                 anon  at   else  other  judge  score  caster  co   org  site
POST   /auth/token/                                                       200   200  200   200    200    200    200     200  200  200
POST   /auth/signup/                                                      201   201  201   201    201    201    201     201  201  201
POST   /auth/logout/                                                      401   204  204   204    204    204    204     204  204  204
POST   /auth/logout-all/                                                  401   204  204   204    204    204    204     204  204  204
PATCH  /me/                                                               401   200  200   200    200    200    200     200  200  200
POST   /deck-checks/                                                      200   200  200   200    200    200    200     200  200  200
POST   /players/                                                          401   403  403   201    403    403    403     403  201  201
POST   /players/claim/                                                    401   409  409   200    200    200    200     200  200  200
POST   /events/                                                           401   403  403   201    403    403    403     403  201  201
PATCH  /events/{event_id}/                                                401   403  403   403    403    403    403     200  200  200
POST   /events/{event_id}/finish/                                         401   403  403   403    403    403    403     409  409  409
POST   /events/{event_id}/staff/                                          401   403  403   403    403    403    403     201  201  201
DELETE /events/{event_id}/staff/{username}/                               401   403  403   403    403    403    403     204  204  204
POST   /events/{event_id}/register/                                       401   409  201   201    201    201    201     201  201  201
POST   /events/{event_id}/registrations/                                  401   403  403   403    403    201    403     201  201  201
POST   /events/{event_id}/registrations/import/                           401   403  403   403    403    201    403     201  201  201
PATCH  /events/{event_id}/registrations/{registration_id}/                401   403  403   403    403    200    403     200  200  200
POST   /events/{event_id}/registrations/{registration_id}/withdraw/       401   200  403   403    403    200    403     200  200  200
POST   /events/{event_id}/registrations/{registration_id}/accept/         401   200  403   403    403    403    403     403  403  403
POST   /events/{event_id}/registrations/{registration_id}/decline/        401   200  403   403    403    403    403     403  403  403
POST   /events/{event_id}/registrations/{registration_id}/check-in/       401   200  403   403    403    200    403     200  200  200
POST   /events/{event_id}/registrations/{registration_id}/stream-consent/ 401   200  403   403    403    200    403     200  200  200
POST   /events/{event_id}/registrations/{registration_id}/drop/           401   409  403   403    403    200    403     200  200  200
POST   /events/{event_id}/registrations/{registration_id}/undrop/         401   403  403   403    403    200    403     200  200  200
POST   /events/{event_id}/registrations/{registration_id}/byes/           401   403  403   403    403    201    403     201  201  201
DELETE /events/{event_id}/registrations/{registration_id}/byes/{number}/  401   403  403   403    403    200    403     200  200  200
POST   /events/{event_id}/registrations/{registration_id}/claim-code/     401   403  403   403    403    201    403     201  201  201
POST   /events/{event_id}/keep-apart/                                     401   403  403   403    403    201    403     201  201  201
DELETE /events/{event_id}/keep-apart/{pair_id}/                           401   403  403   403    403    204    403     204  204  204
POST   /events/{event_id}/registrations/{registration_id}/payment/        401   403  403   403    403    200    403     200  200  200
POST   /events/{event_id}/lottery/draw/                                   401   403  403   403    403    403    403     201  201  201
POST   /events/{event_id}/penalties/                                      401   403  403   403    201    403    403     201  201  201
POST   /events/{event_id}/penalties/{penalty_id}/rescind/                 401   403  403   403    200    403    403     200  200  200
POST   /events/{event_id}/registrations/{registration_id}/decks/          401   201  403   403    403    403    403     201  201  201
POST   /events/{event_id}/registrations/{registration_id}/decks/{number}/ruling/        401  403  403  403  200  403  403  200  200  200
POST   /events/{event_id}/registrations/{registration_id}/decks/{number}/ruling/clear/  401  403  403  403  200  403  403  200  200  200
POST   /events/{event_id}/deck-options/                                   401   403  403   403    403    403    403     200  200  200
POST   /events/{event_id}/decks/recheck/                                  401   403  403   403    403    403    403     202  202  202
POST   /events/{event_id}/rounds/                                         401   403  403   403    403    409    403     409  409  409
POST   /events/{event_id}/rounds/{number}/repair/                         401   403  403   403    403    409    403     409  409  409
POST   /events/{event_id}/rounds/{number}/swap/                           401   403  403   403    403    200    403     200  200  200
POST   /events/{event_id}/rounds/{number}/publish/                        401   403  403   403    403    409    403     409  409  409
POST   /events/{event_id}/rounds/{number}/undo/                           401   403  403   403    403    409    403     409  409  409
POST   /events/{event_id}/top-cut/                                        401   403  403   403    403    409    403     409  409  409
PUT    /events/{event_id}/phases/                                         401   403  403   403    403    403    403     200  200  200
POST   /events/{event_id}/phases/{number}/advance/                        401   403  403   403    403    404    403     404  404  404
POST   /events/{event_id}/phases/{number}/advance/undo/                   401   403  403   403    403    404    403     404  404  404
POST   /events/{event_id}/rounds/{number}/tables/{table}/result/          401   403  403   403    201    201    403     201  201  201
POST   /events/{event_id}/rounds/{number}/tables/{table}/report/          401   201  403   403    403    403    403     403  403  403
POST   /events/{event_id}/rounds/{number}/tables/{table}/confirm/         401   200  403   403    403    403    403     403  403  403
POST   /events/{event_id}/rounds/{number}/tables/{table}/report/accept/   401   403  403   403    200    200    403     200  200  200
POST   /events/{event_id}/rounds/{number}/tables/{table}/correction/      401   403  403   403    403    200    403     200  200  200
POST   /events/{event_id}/rounds/{number}/tables/{table}/games/           401   403  403   403    409    403    403     409  409  409
POST   /games/{game_id}/events/                                           401   403  403   403    201    403    403     201  201  201
POST   /games/{game_id}/events/{seq}/void/                                401   403  403   403    201    403    403     201  201  201
POST   /leagues/                                                          401   403  403   201    403    403    403     403  201  201
PATCH  /leagues/{league_id}/                                              401   403  403   403    403    403    403     403  200  200
POST   /leagues/{league_id}/staff/                                        401   403  403   403    403    403    403     403  201  201
DELETE /leagues/{league_id}/staff/{username}/                             401   403  403   403    403    403    403     403  204  204
POST   /leagues/{league_id}/seasons/                                      401   403  403   403    403    403    403     403  201  201
PATCH  /seasons/{season_id}/                                              401   403  403   403    403    403    403     403  200  200
POST   /seasons/{season_id}/events/                                       401   403  403   403    403    403    403     403  201  201
DELETE /seasons/{season_id}/events/{event_id}/                            401   403  403   403    403    403    403     403  204  204
PUT    /events/{event_id}/registrations/{registration_id}/archetype/      401   403  403   403    403    403    403     200  200  200
POST   /events/{event_id}/rounds/{number}/timer/start/                    401   403  403   403    200    200    403     200  200  200
POST   /events/{event_id}/rounds/{number}/timer/pause/                    401   403  403   403    409    409    403     409  409  409
POST   /events/{event_id}/rounds/{number}/timer/resume/                   401   403  403   403    409    409    403     409  409  409
POST   /events/{event_id}/rounds/{number}/timer/extend/                   401   403  403   403    409    409    403     409  409  409
POST   /events/{event_id}/rounds/{number}/tables/{table}/extension/       401   403  403   403    201    403    403     201  201  201
POST   /events/{event_id}/stations/                                       401   403  403   403    403    403    201     201  201  201
PATCH  /events/{event_id}/stations/{slug}/                                401   403  403   403    403    403    200     200  200  200
POST   /events/{event_id}/overlay-tokens/                                 401   403  403   403    403    403    201     201  201  201
POST   /events/{event_id}/overlay-tokens/{token_id}/revoke/               401   403  403   403    403    403    200     200  200  200
POST   /events/{event_id}/judge-calls/                                    401   201  403   403    201    403    403     201  201  201
POST   /events/{event_id}/judge-calls/{call_id}/claim/                    401   403  403   403    200    403    403     200  200  200
POST   /events/{event_id}/judge-calls/{call_id}/resolve/                  401   403  403   403    200    403    403     200  200  200
POST   /events/{event_id}/judge-calls/{call_id}/cancel/                   401   403  200   403    200    403    403     200  200  200
POST   /events/{event_id}/deck-checks/                                    401   403  403   403    201    403    403     201  201  201
POST   /events/{event_id}/deck-checks/{check_id}/start/                   401   403  403   403    200    403    403     200  200  200
POST   /events/{event_id}/deck-checks/{check_id}/finish/                  401   403  403   403    200    403    403     200  200  200
POST   /events/{event_id}/deck-checks/{check_id}/penalties/               401   403  403   403    200    403    403     200  200  200
POST   /events/{event_id}/judge-assignments/                              401   403  403   403    201    403    403     201  201  201
POST   /events/{event_id}/judge-assignments/{assignment_id}/unassign/     401   403  403   403    204    403    403     204  204  204
PUT    /me/notifications/                                                 401   200  200   200    200    200    200     200  200  200
POST   /me/push-subscriptions/                                            401   201  201   201    201    201    201     201  201  201
DELETE /me/push-subscriptions/                                            401   204  204   204    204    204    204     204  204  204
"""
# fmt: on


def parse(table: str) -> dict[str, dict[str, int]]:
    """``{"METHOD /path": {role: status}}`` from the table above."""
    rows = {}
    for line in table.strip().splitlines()[1:]:
        method, path, *statuses = line.split()
        assert len(statuses) == len(ROLES), line
        rows[f"{method} {path}"] = dict(zip(ROLES, map(int, statuses), strict=True))
    return rows


EXPECTED = parse(TABLE)

#: The state that refuses the 409 cells above: the role was allowed, the event's state was not.
CONFLICTS = {
    "POST /players/claim/": "player_has_history",
    "POST /events/{event_id}/finish/": "round_incomplete",
    "POST /events/{event_id}/register/": "already_registered",
    "POST /events/{event_id}/registrations/{registration_id}/drop/": "round_in_progress",
    "POST /events/{event_id}/rounds/": "round_incomplete",
    "POST /events/{event_id}/rounds/{number}/repair/": "round_has_results",
    "POST /events/{event_id}/rounds/{number}/publish/": "round_published",
    "POST /events/{event_id}/rounds/{number}/undo/": "round_has_results",
    "POST /events/{event_id}/top-cut/": "round_incomplete",
    "POST /events/{event_id}/rounds/{number}/tables/{table}/games/": "game_in_progress",
    "POST /events/{event_id}/rounds/{number}/timer/pause/": "timer_not_started",
    "POST /events/{event_id}/rounds/{number}/timer/resume/": "timer_not_started",
    "POST /events/{event_id}/rounds/{number}/timer/extend/": "timer_not_started",
}

#: Why a 403 cell is refused: the role may not (or is not at the table).  Anonymous callers are answered 401
#: ``not_authenticated`` instead: they are not signed in.
REFUSED = {"permission_denied", "not_at_table"}


@dataclass
class World:
    users: dict[str, object]
    running: Event
    upcoming: Event
    alice: int  # her registration at the running event
    alice_upcoming: int  # ... and at the upcoming one
    alice_invited: int  # ... and her invitation to the invitational
    walk_in: int  # a registration at the running event whose player has no account
    players: dict[str, int]  # alice, bob, eve, and the two players to swap
    round1_table: int  # alice's table in round 1
    claim_code: str
    penalty: int  # a warning alice was given at the running event
    game: int
    game_version: int
    token: int  # an overlay token of the running event (its station is stream-1)
    next_entry: dict = field(default_factory=dict)
    judge_call: int = 0  # eve's call (table 2), waiting
    deck_check: int = 0  # alice's table (1), picked for a deck check
    assignment: int = 0  # judy on tables 5 to 6
    league: int = 0
    season: int = 0
    lottery: int = 0  # an event of olivia's whose places are drawn by lottery (bob applied), not drawn yet
    keep_apart: int = 0  # alice and bob, kept apart at the running event


@pytest.fixture(autouse=True)
def closed_organising(settings):
    """Organising as production has it by default: only organisers (here olivia and oscar) create events."""
    settings.PODIUM_OPEN_ORGANISING = False


@pytest.fixture(scope="module")
def _world(django_db_setup, django_db_blocker):
    """The world, built once for the module in a transaction rolled back at its end: each test's own transaction
    (and each cell's savepoint) is rolled back inside it, so every operation still meets the same world (building
    it for each of the ninety operations was most of the module's time)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(_world, db) -> World:
    return _world


def _build_world() -> World:
    from django.contrib.auth import get_user_model

    def account(name: str, **extra):
        return get_user_model().objects.create_user(username=name, password="pw", **extra)

    olivia, oscar = account("olivia"), account("oscar")
    for organiser in (olivia, oscar):
        services.organiser_permission_grant(user=organiser)
    people = {name: account(name) for name in ("cora", "sam", "judy", "carl", "alice", "bob", "eve")}
    site = account("site", is_staff=True)
    day = datetime.date(2026, 12, 4)
    running = services.event_create(organiser=olivia, name="Running", format="deck-masters", planned_rounds=3, date=day)
    upcoming = services.event_create(organiser=olivia, name="Upcoming", format="deck-masters", planned_rounds=3,
                                     date=day)  # fmt: skip
    services.event_create(organiser=oscar, name="Oscar's", format="deck-masters", planned_rounds=3, date=day)
    draw = services.event_create(organiser=olivia, name="Lottery", format="deck-masters", planned_rounds=3, date=day)
    for event in (running, upcoming, draw):
        for username, role in (("cora", "co_organiser"), ("sam", "scorekeeper"), ("judy", "judge"), ("carl", "caster")):
            staff.staff_add(event=event, username=username, role=role, by=olivia)
    services.event_update(event=running, by=olivia, player_reports=True, check_in_open=True)
    services.event_update(event=upcoming, by=olivia, registration_open=True)
    services.event_update(event=draw, by=olivia, registration_open=True, capacity=4, lottery=True)
    entries = [
        services.registration_create(event=running, by=olivia, display_name=f"Player {i}", checked_in=True)
        for i in range(8)
    ]
    round1 = services.round_start(event=running, by=olivia, seed=1)
    for pod in round1.pods.order_by("table_number"):
        a, b = pod.seats.order_by("seat_order").values_list("player_id", flat=True)
        services.pod_result_report(
            event=running, round_number=1, table_number=pod.table_number, placements={a: 1, b: 2}, by=olivia
        )
    tables = list(services.round_start(event=running, by=olivia, seed=2).pods.order_by("table_number"))
    seats = [list(pod.seats.order_by("seat_order").values_list("player_id", flat=True)) for pod in tables]
    (alice, bob), (eve, _), (swap_a, _), (swap_b, walk_in) = seats
    for name, player in (("alice", alice), ("bob", bob), ("eve", eve)):
        Player.objects.filter(pk=player).update(user=people[name])
    results.result_player_report(
        event=running, round_number=2, table_number=1, placements={alice: 2, bob: 1}, by=people["bob"]
    )
    game = game_services.game_create(pod=tables[0], by=people["judy"])
    duel = scripted_duel(alice, bob)
    for entry in duel[:3]:
        game, _ = game_services.game_event_append(
            game=game, expected_version=game.version, type=entry.type, data=dict(entry.data), by=people["judy"]
        )
    by_player = {r.player_id: r for r in entries}
    registrations.bye_assign(registration=by_player[alice], round_number=3, by=olivia)
    deck = DeckVersion.objects.create(registration=by_player[alice], number=1, decklist="40 Kuriboh", status="illegal")
    deck_services.deck_verdict_override(version=deck, status="legal", reason="A misprint the checker reads.", by=olivia)
    alice_upcoming = registrations.registration_self_register(event=upcoming, by=people["alice"])
    registrations.registration_self_register(event=draw, by=people["bob"])
    invitational = services.event_create(organiser=olivia, name="Invitational", format="deck-masters",
                                         planned_rounds=3, date=day)  # fmt: skip
    alice_invited = services.registration_create(event=invitational, by=olivia, player=Player.objects.get(pk=alice))
    claimable = services.registration_create(event=upcoming, by=olivia, display_name="Walk-in")
    code = registrations.player_claim_code_create(registration=claimable, by=olivia)
    round1_table = round1.seats.get(player_id=alice).pod.table_number
    warning = services.penalty_issue(
        event=running, registration_id=by_player[alice].pk, penalty="warning", infraction="Slow play", by=people["judy"]
    )
    league = league_services.league_create(name="Olivia's League", formats=["deck-masters"], by=olivia)
    season = league_services.season_create(
        league=league, name="Winter", starts_on=day, ends_on=day + datetime.timedelta(days=60), by=olivia
    )
    league_services.season_event_add(season=season, event=running, by=olivia)
    league_services.league_staff_add(league=league, username="carl", role="caster", by=olivia)
    live_services.station_create(event=running, slug="stream-1", by=olivia)
    token, _ = live_services.overlay_token_create(event=running, label="OBS", by=olivia)
    call = floor_services.judge_call_open(event=running, by=people["eve"])
    (check,), _ = floor_services.deck_checks_pick(event=running, by=people["judy"], tables=[1])
    assignment = floor_services.judge_assign(event=running, by=olivia, judge="judy", first_table=5, last_table=6)
    apart = services.keep_apart_add(event=running, player_a=alice, player_b=bob, by=olivia)
    return World(
        judge_call=call.pk,
        deck_check=check.pk,
        assignment=assignment.pk,
        keep_apart=apart.pk,
        lottery=draw.pk,
        league=league.pk,
        season=season.pk,
        token=token.pk,
        users={
            "at table": people["alice"],
            "elsewhere": people["eve"],
            "other organiser": oscar,
            "judge": people["judy"],
            "scorekeeper": people["sam"],
            "caster": people["carl"],
            "co-organiser": people["cora"],
            "organiser": olivia,
            "site staff": site,
        },
        running=running,
        upcoming=upcoming,
        alice=by_player[alice].pk,
        alice_upcoming=alice_upcoming.pk,
        alice_invited=alice_invited.pk,
        walk_in=by_player[walk_in].pk,
        players={"alice": alice, "bob": bob, "eve": eve, "swap_a": swap_a, "swap_b": swap_b},
        round1_table=round1_table,
        claim_code=code,
        penalty=warning.pk,
        game=game.pk,
        game_version=game.version,
        next_entry={"type": duel[3].type, "data": dict(duel[3].data)},
    )


#: A browser's push subscription as it sends it: a P-256 public key (65 bytes) and an auth secret (16), base64url.
PUSH_SUBSCRIPTION = {
    "endpoint": "https://push.example.org/send/1",
    "keys": {"p256dh": "BA" + "A" * 85, "auth": "A" * 22},
}


def requests(w: World) -> dict[str, tuple[dict, dict | None]]:
    """Each operation's path parameters and body in the world ``w`` (see the module docstring)."""
    run, up = {"event_id": w.running.pk}, {"event_id": w.upcoming.pk}
    alice = {**run, "registration_id": w.alice}
    alice_up = {**up, "registration_id": w.alice_upcoming}
    invitation = {"event_id": Registration.objects.get(pk=w.alice_invited).event_id, "registration_id": w.alice_invited}
    walk_in = {**run, "registration_id": w.walk_in}
    table1 = {**run, "number": 2, "table": 1}
    p = w.players
    return {
        "POST /auth/token/": ({}, {"username": "olivia", "password": "pw"}),
        "POST /auth/signup/": ({}, {"username": "newcomer", "password": "a long pass phrase 7"}),
        "POST /auth/logout/": ({}, None),
        "POST /auth/logout-all/": ({}, None),
        "PATCH /me/": ({}, {"language": "es"}),
        "POST /deck-checks/": ({}, {"format": "mintayn-master", "decklist": "1 Nothing Known"}),
        "POST /players/": ({}, {"display_name": "Newcomer"}),
        "POST /players/claim/": ({}, {"code": w.claim_code}),
        "POST /events/": ({}, {"name": "Mine", "format": "mintayn-master", "planned_rounds": 2, "date": "2026-12-05"}),
        "PATCH /events/{event_id}/": (run, {"venue": "Hall B"}),
        "POST /events/{event_id}/finish/": (run, None),
        "POST /events/{event_id}/staff/": (run, {"user": "bob", "role": "judge"}),
        "DELETE /events/{event_id}/staff/{username}/": ({**run, "username": "carl"}, None),
        "POST /events/{event_id}/register/": (up, None),
        "POST /events/{event_id}/registrations/": (run, {"display_name": "Late Walk-in"}),
        "POST /events/{event_id}/registrations/import/": (run, {"text": "name\nLate Walk-in\n"}),
        "PATCH /events/{event_id}/registrations/{registration_id}/": (alice, {"fixed_table": 7}),
        "POST /events/{event_id}/registrations/{registration_id}/withdraw/": (alice_up, None),
        "POST /events/{event_id}/registrations/{registration_id}/accept/": (invitation, None),
        "POST /events/{event_id}/registrations/{registration_id}/decline/": (invitation, None),
        "POST /events/{event_id}/registrations/{registration_id}/check-in/": (alice, {"checked_in": True}),
        "POST /events/{event_id}/registrations/{registration_id}/stream-consent/": (alice, {"stream_opt_out": True}),
        "POST /events/{event_id}/registrations/{registration_id}/drop/": (alice, None),
        "POST /events/{event_id}/registrations/{registration_id}/undrop/": (alice, {"reason": "Dropped by mistake."}),
        "POST /events/{event_id}/registrations/{registration_id}/byes/": (alice, {"round": 3}),
        "DELETE /events/{event_id}/registrations/{registration_id}/byes/{number}/": ({**alice, "number": 3}, None),
        "POST /events/{event_id}/registrations/{registration_id}/claim-code/": (walk_in, None),
        "POST /events/{event_id}/keep-apart/": (run, {"players": [p["bob"], p["eve"]]}),
        "DELETE /events/{event_id}/keep-apart/{pair_id}/": ({**run, "pair_id": w.keep_apart}, None),
        "POST /events/{event_id}/registrations/{registration_id}/payment/": (alice, {"paid": True}),
        "POST /events/{event_id}/lottery/draw/": ({"event_id": w.lottery}, {"seed": 1}),
        "POST /events/{event_id}/penalties/": (
            run, {"registration": w.alice, "penalty": "caution", "infraction": "Shuffling too little"}),
        "POST /events/{event_id}/penalties/{penalty_id}/rescind/": (
            {**run, "penalty_id": w.penalty}, {"reason": "Given to the wrong player."}),
        "POST /events/{event_id}/registrations/{registration_id}/decks/": (alice_up, {"decklist": "40 Kuriboh"}),
        "POST /events/{event_id}/registrations/{registration_id}/decks/{number}/ruling/": (
            {**alice, "number": 1}, {"status": "illegal", "reason": "The misprint is not the card."}),
        "POST /events/{event_id}/registrations/{registration_id}/decks/{number}/ruling/clear/": (
            {**alice, "number": 1}, {"reason": "Ruled in error."}),
        "POST /events/{event_id}/deck-options/": (run, {"deck_options": {}}),
        "POST /events/{event_id}/decks/recheck/": (run, None),
        "POST /events/{event_id}/rounds/": (run, {}),
        "POST /events/{event_id}/rounds/{number}/repair/": ({**run, "number": 2}, {}),
        "POST /events/{event_id}/rounds/{number}/publish/": ({**run, "number": 2}, None),
        "POST /events/{event_id}/rounds/{number}/undo/": ({**run, "number": 2}, None),
        "POST /events/{event_id}/rounds/{number}/swap/": ({**run, "number": 2}, {"players": [p["swap_a"], p["swap_b"]]}),
        "POST /events/{event_id}/top-cut/": (run, {}),
        "PUT /events/{event_id}/phases/": (run, {"phases": []}),
        "POST /events/{event_id}/phases/{number}/advance/": ({**run, "number": 1}, None),
        "POST /events/{event_id}/phases/{number}/advance/undo/": ({**run, "number": 1}, None),
        "POST /events/{event_id}/rounds/{number}/tables/{table}/result/": (
            table1, {"placements": [{"player": p["alice"], "placement": 1}, {"player": p["bob"], "placement": 2}]}),
        "POST /events/{event_id}/rounds/{number}/tables/{table}/report/": (
            table1, {"placements": [{"player": p["alice"], "placement": 2}, {"player": p["bob"], "placement": 1}]}),
        "POST /events/{event_id}/rounds/{number}/tables/{table}/confirm/": (table1, {"agrees": True}),
        "POST /events/{event_id}/rounds/{number}/tables/{table}/report/accept/": (table1, None),
        "POST /events/{event_id}/rounds/{number}/tables/{table}/correction/": (
            {**run, "number": 1, "table": w.round1_table}, {"placements": round1_reversed(w), "reason": "Wrong slip."}),
        "POST /events/{event_id}/rounds/{number}/tables/{table}/games/": (table1, {}),
        "POST /games/{game_id}/events/": ({"game_id": w.game}, {"expected_version": w.game_version, **w.next_entry}),
        "POST /games/{game_id}/events/{seq}/void/": (
            {"game_id": w.game, "seq": 3}, {"expected_version": w.game_version, "reason": "Recorded twice."}),
        "POST /leagues/": ({}, {"name": "Mine", "formats": ["deck-masters"]}),
        "PATCH /leagues/{league_id}/": ({"league_id": w.league}, {"description": "Thursdays at the shop."}),
        "POST /leagues/{league_id}/staff/": ({"league_id": w.league}, {"user": "bob", "role": "judge"}),
        "DELETE /leagues/{league_id}/staff/{username}/": ({"league_id": w.league, "username": "carl"}, None),
        "POST /leagues/{league_id}/seasons/": (
            {"league_id": w.league}, {"name": "Spring", "starts_on": "2027-03-01", "ends_on": "2027-05-31"}),
        "PATCH /seasons/{season_id}/": ({"season_id": w.season}, {"preset": "attendance", "reason": "Turn up!"}),
        "POST /seasons/{season_id}/events/": ({"season_id": w.season}, {"event": w.upcoming.pk}),
        "DELETE /seasons/{season_id}/events/{event_id}/": ({"season_id": w.season, "event_id": w.running.pk}, None),
        "PUT /events/{event_id}/registrations/{registration_id}/archetype/": (alice, {"name": "Kuriboh Stall"}),
        "POST /events/{event_id}/rounds/{number}/timer/start/": ({**run, "number": 2}, {"minutes": 50}),
        "POST /events/{event_id}/rounds/{number}/timer/pause/": ({**run, "number": 2}, None),
        "POST /events/{event_id}/rounds/{number}/timer/resume/": ({**run, "number": 2}, None),
        "POST /events/{event_id}/rounds/{number}/timer/extend/": ({**run, "number": 2}, {"minutes": 5}),
        "POST /events/{event_id}/rounds/{number}/tables/{table}/extension/": (table1, {"minutes": 3, "reason": "Judge call"}),
        "POST /events/{event_id}/stations/": (run, {"slug": "stream-2"}),
        "PATCH /events/{event_id}/stations/{slug}/": ({**run, "slug": "stream-1"}, {"table": 2}),
        "POST /events/{event_id}/overlay-tokens/": (run, {"label": "Laptop"}),
        "POST /events/{event_id}/overlay-tokens/{token_id}/revoke/": ({**run, "token_id": w.token}, None),
        "POST /events/{event_id}/judge-calls/": (run, {"table": 1}),
        "POST /events/{event_id}/judge-calls/{call_id}/claim/": ({**run, "call_id": w.judge_call}, None),
        "POST /events/{event_id}/judge-calls/{call_id}/resolve/": ({**run, "call_id": w.judge_call}, {"note": "Ruled."}),
        "POST /events/{event_id}/judge-calls/{call_id}/cancel/": ({**run, "call_id": w.judge_call}, {}),
        "POST /events/{event_id}/deck-checks/": (run, {"tables": [3]}),
        "POST /events/{event_id}/deck-checks/{check_id}/start/": ({**run, "check_id": w.deck_check}, None),
        "POST /events/{event_id}/deck-checks/{check_id}/finish/": ({**run, "check_id": w.deck_check}, {"outcome": "ok"}),
        "POST /events/{event_id}/deck-checks/{check_id}/penalties/": (
            {**run, "check_id": w.deck_check}, {"penalty": w.penalty}),
        "POST /events/{event_id}/judge-assignments/": (run, {"judge": "judy", "first_table": 1, "last_table": 4}),
        "POST /events/{event_id}/judge-assignments/{assignment_id}/unassign/": (
            {**run, "assignment_id": w.assignment}, None),
        "PUT /me/notifications/": ({}, {"kinds": [{"kind": "round_paired", "email": True}]}),
        "POST /me/push-subscriptions/": ({}, PUSH_SUBSCRIPTION),
        "DELETE /me/push-subscriptions/": ({}, {"endpoint": PUSH_SUBSCRIPTION["endpoint"]}),
    }  # fmt: skip


def round1_reversed(w: World) -> list[dict]:
    """Alice's round-1 table with the placements swapped."""
    seats = w.running.rounds.get(number=1).pods.get(table_number=w.round1_table).seats.all()
    return [{"player": s.player_id, "placement": 3 - s.placement} for s in seats]


def client(user) -> APIClient:
    """A client as scripts use it: a token, or nothing; from an address of its own (anonymous deck
    checks are throttled per address)."""
    api = APIClient(REMOTE_ADDR="192.0.2.10")
    if user is not None:
        api.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return api


def send(w: World, role: str, operation: str, params: dict, body: dict | None) -> tuple[int, str | None]:
    """The status of the answer, and its error code if it is one."""
    method, path = operation.split()
    url = "/api/v1" + re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), path)
    response = client(w.users.get(role)).generic(
        method, url, data="" if body is None else json.dumps(body), content_type="application/json"
    )
    code = response.json()["error"]["code"] if response.status_code >= 400 else None
    return response.status_code, code


def write_operations() -> set[str]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        f"{method.upper()} {path.removeprefix('/api/v1')}"
        for path, methods in schema["paths"].items()
        for method in methods
        if method in {"post", "put", "patch", "delete"}
    }


def test_every_write_operation_of_the_schema_has_a_row():
    assert sorted(write_operations()) == sorted(EXPECTED)


@pytest.mark.parametrize("operation", list(EXPECTED))
def test_each_role_gets_the_status_the_policy_gives_it(operation, world):
    params, body = requests(world)[operation]
    answered, codes = {}, {}
    for role in ROLES:
        with transaction.atomic():
            answered[role], codes[role] = send(world, role, operation, params, body)
            transaction.set_rollback(True)
    assert answered == EXPECTED[operation]
    for role, status in answered.items():
        if status == 401:
            assert role == "anonymous" and codes[role] == "not_authenticated", (role, codes[role])
        if status == 403:
            assert codes[role] in REFUSED, (role, codes[role])
        if status == 409:
            assert codes[role] == CONFLICTS[operation], (role, codes[role])
