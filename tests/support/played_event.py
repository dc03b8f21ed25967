"""A running event with many rounds already played, built in bulk for the query-count tests (and, with
:func:`add_staff_penalties_and_audit`, its staff, penalties and audit trail).

``players`` (eight unless told; an even number) of a 1v1 format (Mintayn), ``rounds`` Swiss rounds, all with
results but the latest round's first table, whose player report waits for its confirmation; the
stored standings; one player (``alice``) with an account, for ``/me/``. Pairing and reporting
through the services would take minutes at 50 rounds (and rematches); the rows are what they would
write, made with ``bulk_create``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tests.factories import EventFactory, PlayerFactory
from tournaments.models import (
    AuditEntry,
    Event,
    EventStaff,
    Penalty,
    Player,
    Pod,
    PodResult,
    Registration,
    ResultReport,
    ResultResponse,
    Round,
    Seat,
    Standing,
)
from tournaments.services.penalties import penalty_issue, penalty_rescind
from tournaments.services.staff import staff_add

PLAYERS = 8


@dataclass
class PlayedEvent:
    event: Event
    players: list[Player]
    alice: Player


def _pairing(players: list[Player], number: int) -> list[tuple[Player, Player]]:
    """Round robin by the circle method: a different opponent each round, seven rounds before a rematch."""
    others = players[1:]
    turn = (number - 1) % len(others)
    ring = [players[0], *others[turn:], *others[:turn]]
    return [(ring[i], ring[-1 - i]) for i in range(len(ring) // 2)]


def build_played_event(*, organiser, rounds: int, players: int = PLAYERS) -> PlayedEvent:
    alice_user = get_user_model().objects.create_user(username="alice", password="pw")
    event = EventFactory(
        organiser=organiser,
        format="mintayn-master",
        planned_rounds=rounds,
        status=Event.Status.RUNNING,
        player_reports=True,
    )
    field = [PlayerFactory(user=alice_user if i == 0 else None) for i in range(players)]
    Registration.objects.bulk_create(Registration(event=event, player=p, checked_in=True) for p in field)
    now = timezone.now()
    round_rows = Round.objects.bulk_create(
        Round(event=event, number=n, seed=n, completed_at=None if n == rounds else now, published_at=now)
        for n in range(1, rounds + 1)
    )
    pods = Pod.objects.bulk_create(
        Pod(round=round_, table_number=t) for round_ in round_rows for t in range(1, players // 2 + 1)
    )
    seats, results, open_pod = [], [], None
    for pod in pods:
        round_ = pod.round
        a, b = _pairing(field, round_.number)[pod.table_number - 1]
        last_open = round_.number == rounds and pod.table_number == 1
        for order, player in enumerate((a, b), start=1):
            seats.append(
                Seat(
                    pod=pod,
                    round=round_,
                    player=player,
                    seat_order=order,
                    placement=None if last_open else order,
                    points=None if last_open else (3 if order == 1 else 0),
                    games_won=None if last_open else 2 - order + 1,
                    games_lost=None if last_open else order - 1,
                    games_drawn=None if last_open else 0,
                    points_before=0,
                    rank_before=order,
                    reasons=["paired"],
                )
            )
        if last_open:
            open_pod = (pod, a, b)
        else:
            results.append(PodResult(pod=pod, reported_by=organiser))
    Seat.objects.bulk_create(seats)
    PodResult.objects.bulk_create(results)
    pod, a, b = open_pod
    report = ResultReport.objects.create(
        pod=pod, player=a, placements={str(a.pk): 1, str(b.pk): 2}, games={str(a.pk): [2, 0, 0], str(b.pk): [0, 2, 0]}
    )
    ResultResponse.objects.create(report=report, player=b, agrees=False, placements={str(b.pk): 1, str(a.pk): 2})
    report.status = ResultReport.Status.DISPUTED
    report.save(update_fields=["status"])
    Standing.objects.bulk_create(
        Standing(
            event=event, player=p, rank=i + 1, points=3 * (players - i), wins=players - i, draws=0, losses=i, byes=0,
            matches=rounds, opp_match_win_pct=0.5, opp_opp_match_win_pct=0.5, opp_avg_points=3.0,
            results_version=0,
        )
        for i, p in enumerate(field)
    )  # fmt: skip
    return PlayedEvent(event=event, players=field, alice=field[0])


def add_staff_penalties_and_audit(played: PlayedEvent, organiser) -> PlayedEvent:
    """Two staff and three penalties (one rescinded), through the services; and the audit trail of the rounds.

    The same staff and penalties at 5 and at 50 rounds. The rounds' trail is what pairing and entering the
    results would have written (a pairing and each table's result per round, made in bulk): it grows with
    the rounds, as it does at a real event, and the audit pages read it a page at a time.
    """
    event, field = played.event, played.players
    for username, role in (("judge", EventStaff.Role.JUDGE), ("scorekeeper", EventStaff.Role.SCOREKEEPER)):
        get_user_model().objects.create_user(username=username, password="pw")
        staff_add(event=event, username=username, role=role, by=organiser)
    registrations = {r.player_id: r.pk for r in event.registrations.all()}
    for player, kind, round_number in (
        (field[0], Penalty.Kind.WARNING, None),
        (field[1], Penalty.Kind.GAME_LOSS, 1),
        (field[2], Penalty.Kind.CAUTION, 2),
    ):
        given = penalty_issue(
            event=event, registration_id=registrations[player.pk], penalty=kind, infraction="Drawing extra cards",
            note="Seen by the judge.", round_number=round_number, by=organiser,
        )  # fmt: skip
    penalty_rescind(penalty=given, by=organiser, reason="Given to the wrong player.")
    tables: dict[int, dict[int, list[Seat]]] = {}
    for seat in Seat.objects.filter(round__event=event).select_related("pod__round").order_by("seat_order"):
        tables.setdefault(seat.pod.round.number, {}).setdefault(seat.pod.table_number, []).append(seat)
    entries = []
    for number, seated in sorted(tables.items()):
        facts = {
            "stage": "swiss", "seed": str(number), "objective": 0,
            "tables": {str(t): [s.player_id for s in seats] for t, seats in seated.items()},
        }  # fmt: skip
        entries.append(
            AuditEntry(event=event, actor=organiser, action="round.started", subject=f"Round {number}", after=facts)
        )
        for table, seats in seated.items():
            if seats[0].placement is None:
                continue
            outcome = {
                "placements": {str(s.player_id): s.placement for s in seats},
                "games": {str(s.player_id): [s.games_won, s.games_lost, s.games_drawn] for s in seats},
                "intentional_draw": False,
            }
            entries.append(
                AuditEntry(
                    event=event,
                    actor=organiser,
                    action="result.entered",
                    subject=f"Round {number}, table {table}",
                    after=outcome,
                )
            )
    AuditEntry.objects.bulk_create(entries)
    return played


#: The two sizes every query-count test reads an event at: a count that grows with the rounds differs.
ROUNDS = (5, 50)


def signed_in(user) -> Client:
    """A browser client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def read_counting(client, url: str, queries: int, django_assert_num_queries) -> None:
    """GET ``url``: a 200, in exactly ``queries`` queries."""
    with django_assert_num_queries(queries):
        answer = client.get(url)
    assert answer.status_code == 200, answer.content[:300]
