"""A 16-player event run by its players through the API, every answer validated against the OpenAPI schema.

The organiser sets the event up and pairs nothing: a scorekeeper pairs the
rounds and a judge settles the one dispute.  The players sign up (accounts
made here; the sign-up pages are tested with the accounts), register
themselves for an event with a capacity (the two last join the waiting list,
and the first of them moves up when a player withdraws), check themselves in
while the window is open, find their table on ``/me/``, report their results
with game scores and confirm their opponents' reports.  After round 3 is
paired, a round-2 result is corrected.  The standings at the end are checked
against a ledger kept here, and the audit trail shows every step, by whom.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from tests.support.api_checks import Api

pytestmark = pytest.mark.django_db

E = "/events/{event_id}"
R = E + "/registrations/{registration_id}"
T = E + "/rounds/{number}/tables/{table}"


class Ledger:
    """Match points, wins, draws and losses per player, from the results as they stand."""

    def __init__(self):
        self.results: dict[tuple[int, int], dict[int, int]] = {}  # (round, table) -> {player: placement}
        self.byes: Counter[int] = Counter()

    def record(self, round_: int, table: int, placements: dict[int, int]) -> None:
        self.results[round_, table] = placements

    def totals(self) -> dict[int, dict[str, int]]:
        totals: dict[int, dict[str, int]] = defaultdict(
            lambda: {"points": 0, "wins": 0, "draws": 0, "losses": 0, "byes": 0}
        )
        for placements in self.results.values():
            drawn = len(set(placements.values())) == 1
            for player, placement in placements.items():
                key = "draws" if drawn else "wins" if placement == 1 else "losses"
                totals[player][key] += 1
                totals[player]["points"] += {"wins": 3, "draws": 1, "losses": 0}[key]
        for player, byes in self.byes.items():  # a bye is a win
            totals[player]["points"] += 3 * byes
            totals[player]["wins"] += byes
            totals[player]["byes"] += byes
        return totals


def placements_body(placements: dict[int, int]) -> list[dict]:
    return [{"player": p, "placement": n} for p, n in placements.items()]


def games_body(winner: int, loser: int, score: tuple[int, int]) -> list[dict]:
    won, lost = score
    return [
        {"player": winner, "won": won, "lost": lost, "drawn": 0},
        {"player": loser, "won": lost, "lost": won, "drawn": 0},
    ]


@pytest.fixture
def people(wsgi_in_test_transaction, django_user_model):
    """Accounts as sign-up makes them: the organiser, a scorekeeper, a judge and 18 players."""

    def account(name: str):
        return django_user_model.objects.create_user(username=name, password="pw")

    return {
        "organiser": account("olivia"),
        "scorekeeper": account("sam"),
        "judge": account("judy"),
        "players": [account(f"player{i:02d}") for i in range(18)],
    }


def test_sixteen_players_run_their_event_through_the_api(people, django_capture_on_commit_callbacks):
    organiser = Api(people["organiser"])
    scorekeeper, judge, anonymous = Api(people["scorekeeper"]), Api(people["judge"]), Api()
    players = [Api(user) for user in people["players"]]

    # The organiser sets up the event and its staff; registration opens with 16 places.
    event = organiser("post", "/events/", 201, {"name": "Duel League", "format": "deck-masters", "planned_rounds": 3,
                                                 "date": "2026-12-04", "tiebreakers": "magic"})  # fmt: skip
    eid = event["id"]
    organiser("post", E + "/staff/", 201, {"user": "sam", "role": "scorekeeper"}, event_id=eid)
    organiser("post", E + "/staff/", 201, {"user": "judy", "role": "judge"}, event_id=eid)
    staff = organiser("get", E + "/staff/", 200, event_id=eid)["results"]
    assert [(s["user"], s["role"]) for s in staff] == [("judy", "judge"), ("sam", "scorekeeper")]
    assert players[0]("get", E + "/staff/", 403, event_id=eid)["error"]["code"] == "permission_denied"
    assert players[0]("post", E + "/register/", 409, event_id=eid)["error"]["code"] == "registration_closed"
    event = organiser("patch", E + "/", 200, {"registration_open": True, "capacity": 16, "player_reports": True,
                                              "magic_floor": "1/3"}, event_id=eid)  # fmt: skip
    assert (event["registration_open"], event["capacity"], event["player_reports"]) == (True, 16, True)
    assert event["magic_floor"] == "1/3" and event["check_in_open"] is False

    # 18 players register themselves: the two last wait.
    assert anonymous("post", E + "/register/", 401, event_id=eid)["error"]["code"] == "not_authenticated"
    registrations = [player("post", E + "/register/", 201, event_id=eid) for player in players]
    assert [r["status"] for r in registrations] == ["registered"] * 16 + ["waitlisted"] * 2
    assert all(r["self_registered"] for r in registrations)
    assert players[0]("post", E + "/register/", 409, event_id=eid)["error"]["code"] == "already_registered"

    # One withdraws (not for someone else): the first waiting moves up, the second still waits.
    gone = registrations[3]
    refused = players[4]("post", R + "/withdraw/", 403, event_id=eid, registration_id=gone["id"])
    assert refused["error"]["code"] == "permission_denied"
    assert players[3]("post", R + "/withdraw/", 200, event_id=eid, registration_id=gone["id"])["status"] == "withdrawn"
    status = {r["id"]: r["status"] for r in anonymous("get", E + "/registrations/", 200, event_id=eid)["results"]}
    assert status[registrations[16]["id"]] == "registered"
    assert status[registrations[17]["id"]] == "waitlisted"
    field = [p for i, p in enumerate(players) if i not in (3, 17)]
    entries = {id(p): r for p, r in zip(players, registrations, strict=True)}

    # Check-in: closed until the organiser opens it; then each player checks themselves in.
    first = entries[id(field[0])]
    closed = field[0]("post", R + "/check-in/", 409, {}, event_id=eid, registration_id=first["id"])
    assert closed["error"]["code"] == "check_in_closed"
    organiser("patch", E + "/", 200, {"registration_open": False, "check_in_open": True}, event_id=eid)
    for player in field:
        answer = player("post", R + "/check-in/", 200, {}, event_id=eid, registration_id=entries[id(player)]["id"])
        assert answer["checked_in"] is True
    waiting = players[17]("post", R + "/check-in/", 409, {}, event_id=eid, registration_id=registrations[17]["id"])
    assert waiting["error"]["code"] == "not_registered"
    organiser("patch", E + "/", 200, {"check_in_open": False}, event_id=eid)

    by_player_id = {entries[id(p)]["player"]["id"]: p for p in field}
    ledger = Ledger()

    def play_round(number: int, *, dispute: bool = False, draw: bool = False) -> dict:
        """The scorekeeper pairs; at each table seat 1 reports a 2-1 win and the opponent confirms it."""
        round_ = scorekeeper("post", E + "/rounds/", 201, {"seed": number}, event_id=eid)
        assert round_["number"] == number
        for table in round_["tables"]:
            ids = [s["player"]["id"] for s in table["seats"]]
            if table["bye"]:
                ledger.byes[ids[0]] += 1
                continue
            a, b = (by_player_id[i] for i in ids)
            me = a("get", "/me/", 200)
            (mine,) = me["running"]
            assert (mine["table"]["round"], mine["table"]["table"], mine["table"]["goes_first"]) == (
                number, table["table"], True,
            )  # fmt: skip
            assert [o["player"] for o in mine["table"]["opponents"]] == [ids[1]]
            where = {"event_id": eid, "number": number, "table": table["table"]}
            if draw and table["table"] == 2:  # an intentional draw, reported by both
                placements = {ids[0]: 1, ids[1]: 1}
                body = {"placements": placements_body(placements), "intentional_draw": True}
                assert a("post", T + "/report/", 201, body, **where)["state"] == "pending"
                answer = b("post", T + "/report/", 201, body, **where)
                assert answer["state"] == "confirmed" and answer["table"]["intentional_draw"] is True
                ledger.record(number, table["table"], placements)
                continue
            placements = {ids[0]: 1, ids[1]: 2}
            body = {"placements": placements_body(placements), "games": games_body(ids[0], ids[1], (2, 1))}
            reported = a("post", T + "/report/", 201, body, **where)
            assert reported["state"] == "pending"
            assert reported["table"]["report"]["reported_by"]["id"] == ids[0]
            assert a("post", T + "/report/", 200, body, **where)["state"] == "unchanged"
            if dispute and table["table"] == 1:  # the opponent says they won 2-0: a judge settles it
                claim = {ids[0]: 2, ids[1]: 1}
                other = {"placements": placements_body(claim), "games": games_body(ids[1], ids[0], (2, 0))}
                answer = b("post", T + "/report/", 201, other, **where)
                assert answer["state"] == "disputed"
                assert answer["table"]["reported"] is False
                assert answer["table"]["report"]["responses"][0]["agrees"] is False
                elsewhere = next(p for i, p in by_player_id.items() if i not in ids)
                assert elsewhere("post", T + "/report/", 403, body, **where)["error"]["code"] == "not_at_table"
                table_answer = judge("post", T + "/result/", 201, body, **where)
                assert table_answer["reported"] is True and table_answer["report"] is None
                assert [s["games_won"] for s in table_answer["seats"]] == [2, 1]
                ledger.record(number, table["table"], placements)
                continue
            assert b("get", "/me/", 200)["running"][0]["table"]["to_answer"] is True
            confirmed = b("post", T + "/confirm/", 200, {"agrees": True}, **where)
            assert confirmed["state"] == "confirmed"
            assert confirmed["table"]["reported"] is True and confirmed["table"]["report"] is None
            ledger.record(number, table["table"], placements)
        return round_

    with django_capture_on_commit_callbacks(execute=True):
        play_round(1)
        round2 = play_round(2, dispute=True, draw=True)

        # A player drops themselves between rounds (their table has its result).
        leaver = field[5]
        dropped = leaver("post", R + "/drop/", 200, event_id=eid, registration_id=entries[id(leaver)]["id"])
        assert dropped["dropped"] is True

        # Round 3 is paired; then a round-2 result is corrected: round 3 stays as it was paired.
        round3 = scorekeeper("post", E + "/rounds/", 201, {"seed": 3}, event_id=eid)
        assert entries[id(leaver)]["player"]["id"] not in {
            s["player"]["id"] for t in round3["tables"] for s in t["seats"]
        }
        fixed = next(t for t in round2["tables"] if not t["bye"] and t["table"] == 3)
        x, y = (s["player"]["id"] for s in fixed["seats"])
        body = {"placements": placements_body({x: 2, y: 1}), "games": games_body(y, x, (2, 1)),
                "reason": "The players swapped the scoresheet's names."}  # fmt: skip
        refused = judge("post", T + "/correction/", 403, body, event_id=eid, number=2, table=3)
        assert refused["error"]["code"] == "permission_denied"
        corrected = scorekeeper("post", T + "/correction/", 200, body, event_id=eid, number=2, table=3)
        assert corrected["later_rounds"] == [3]
        assert corrected["table"]["corrected"] is True
        assert [s["placement"] for s in corrected["table"]["seats"]] == [2, 1]
        ledger.record(2, 3, {x: 2, y: 1})
        after = anonymous("get", E + "/rounds/{number}/", 200, event_id=eid, number=3)
        assert [[s["player"]["id"] for s in t["seats"]] for t in after["tables"]] == [
            [s["player"]["id"] for s in t["seats"]] for t in round3["tables"]
        ]

        # Round 3 is reported by its players like round 1.
        for table in round3["tables"]:
            ids = [s["player"]["id"] for s in table["seats"]]
            if table["bye"]:
                ledger.byes[ids[0]] += 1
                continue
            a, b = (by_player_id[i] for i in ids)
            where = {"event_id": eid, "number": 3, "table": table["table"]}
            body = {"placements": placements_body({ids[0]: 2, ids[1]: 1}), "games": games_body(ids[1], ids[0], (2, 0))}
            b("post", T + "/report/", 201, body, **where)
            assert a("post", T + "/confirm/", 200, {"agrees": True}, **where)["state"] == "confirmed"
            ledger.record(3, table["table"], {ids[0]: 2, ids[1]: 1})
        assert organiser("post", E + "/finish/", 200, event_id=eid)["status"] == "finished"

    # The standings, right at the end: every player's record as the ledger has it, ranked by points.
    standings = anonymous("get", E + "/standings/", 200, event_id=eid)
    assert standings["current"] is True
    rows = standings["standings"]
    assert len(rows) == 16
    totals = ledger.totals()
    for row in rows:
        expected = totals[row["player"]["id"]]
        assert {k: row[k] for k in expected} == expected, row["player"]
        assert row["dropped"] is (row["player"]["id"] == entries[id(leaver)]["player"]["id"])
    assert [row["points"] for row in rows] == sorted((row["points"] for row in rows), reverse=True)
    past = field[0]("get", "/me/", 200)
    assert [e["event"]["id"] for e in past["past"]] == [eid] and past["running"] == []

    # The audit trail: every step, by whom, newest first; players may not read it.
    assert field[0]("get", E + "/audit/", 403, event_id=eid)["error"]["code"] == "permission_denied"
    entries_seen, offset = [], 0
    while True:
        page = judge("get", E + "/audit/", 200, query={"limit": 100, "offset": offset}, event_id=eid)
        entries_seen += page["results"]
        if page["next"] is None:
            break
        offset += 100
    assert len(entries_seen) == page["count"]
    trail = list(reversed(entries_seen))  # oldest first
    assert [e["id"] for e in trail] == sorted(e["id"] for e in trail)
    did = Counter((e["actor"], e["action"]) for e in trail)
    assert did["olivia", "event.created"] == 1
    assert did["olivia", "staff.added"] == 2
    assert did["olivia", "event.updated"] == 3
    assert sum(n for (_, action), n in did.items() if action == "registration.self_registered") == 16
    assert sum(n for (_, action), n in did.items() if action == "registration.waitlisted") == 2
    assert did["player03", "registration.withdrawn"] == 1
    assert did["player03", "registration.promoted"] == 1  # the withdrawal moved the first waiting player up
    assert sum(n for (_, action), n in did.items() if action == "registration.checked_in") == 16
    assert did["sam", "round.started"] == 3
    # Round 1: 8 tables; round 2: 6 confirmed, an intentional draw reported by both, one settled; round 3: 7 and a bye.
    assert sum(n for (_, action), n in did.items() if action == "result.confirmed") == 8 + 7 + 7
    assert did["judy", "result.settled"] == 1
    assert sum(n for (_, action), n in did.items() if action == "result.disputed") == 1
    assert did[leaver.user.username, "registration.dropped"] == 1
    assert did["olivia", "event.finished"] == 1
    correction = next(e for e in trail if e["action"] == "result.corrected")
    assert correction["actor"] == "sam" and correction["subject"] == "Round 2, table 3"
    assert correction["reason"] == "The players swapped the scoresheet's names."
    assert correction["before"]["placements"] == {str(x): 1, str(y): 2}
    assert correction["after"]["placements"] == {str(x): 2, str(y): 1}
    assert correction["after"]["rounds_paired_since"] == [3]
    only_results = judge("get", E + "/audit/", 200, query={"kind": "results", "limit": 500}, event_id=eid)
    assert {e["action"].split(".")[0] for e in only_results["results"]} == {"result"}
