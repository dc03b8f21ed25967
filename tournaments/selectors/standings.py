"""Standings computed from the results as they are now: what the standings task stores, what pairing ranks by,
and a phase's own standings (computed on request: they are not stored).

Reads only, in a constant number of queries; the arithmetic is the pure engine's (:mod:`tournaments.standings`).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence

from tournaments import standings, words
from tournaments.models import Event, Phase, Registration, Round, Seat
from tournaments.standings import phases as phase_rules
from tournaments.standings.phases import rank_by_phase


def event_results(event_id: int, through_round: int | None = None) -> list[standings.TableResult]:
    """Every reported Swiss table of the event, as the standings engine's input (one query).

    Top-cut tables are left out: the cut decides the winner by elimination,
    and the standings stay the Swiss standings the cut was seeded from.  A 1v1
    game score goes with its seat; an intentional draw's is 0-0-0 (its
    unplayed games are worth no game points).  ``through_round``: only the rounds up to it (a phase's standings).
    """
    reported = Seat.objects.filter(round__event_id=event_id, placement__isnull=False, round__stage=Round.Stage.SWISS)
    if through_round is not None:
        reported = reported.filter(round__number__lte=through_round)
    rows = reported.order_by().values_list(
        "pod_id", "round__number", "player_id", "placement", "games_won", "games_lost", "games_drawn"
    )
    by_pod: dict[int, list[tuple]] = defaultdict(list)
    for pod_id, round_number, player_id, placement, won, lost, drawn in rows:
        by_pod[pod_id].append((round_number, player_id, placement, None if won is None else (won, lost, drawn)))
    results = []
    for seats in by_pod.values():
        places = [seat[2] for seat in seats]  # 2 to 5 of them: counting beats a Counter per table
        results.append(
            standings.TableResult(
                round_number=seats[0][0],
                seats=tuple(
                    standings.SeatResult(player_id=pid, placement=pl, shared=places.count(pl) > 1, games=games)
                    for _, pid, pl, games in seats
                ),
            )
        )
    return results


def tiebreak_config(event: Event) -> standings.TiebreakConfig:
    """The event's convention, with the Magic floor it chose (0.33, or exactly 1/3 as Melee and MTGO publish)."""
    config = standings.CONVENTIONS[event.tiebreakers]
    if config.name == standings.MAGIC.name and event.magic_floor == Event.Floor.THIRD:
        config = dataclasses.replace(config, win_pct_floor=1 / 3, game_win_pct_floor=1 / 3)
    return config


def compute_standings(
    event: Event, registrations: list[Registration], *, through_round: int | None = None, by_phase: bool = True
) -> list[standings.Standing]:
    """The event's standings from its reported Swiss tables.

    ``through_round``: over the rounds up to it only (a phase's standings, players dropped later not flagged).
    ``by_phase``: an event split into phases ranks the players who reached a later phase first
    (:func:`tournaments.standings.phases.rank_by_phase`).
    """
    fmt = event.format_spec
    results = event_results(event.pk, through_round)
    played = {seat.player_id for result in results for seat in result.seats}
    # Everyone who has played, and everyone checked in who has not dropped: a player who dropped before
    # playing a round has no standing.
    player_ids = [r.player_id for r in registrations if (r.checked_in and not r.dropped) or r.player_id in played]
    listed = set(player_ids)
    # Rounds a late entrant missed are losses, but only rounds that have been paired so far.
    paired = max((result.round_number for result in results), default=0)
    late = {
        r.player_id: min(r.missed_rounds, paired) for r in registrations if r.missed_rounds and r.player_id in listed
    }
    dropped = [
        r.player_id
        for r in registrations
        if r.dropped
        and r.player_id in listed
        and (through_round is None or (r.dropped_after_round or 0) <= through_round)
    ]
    table = standings.compute_standings(
        player_ids,
        results,
        scoring=fmt.scoring,
        multiplayer=not event.is_one_vs_one,
        dropped=dropped,
        convention=tiebreak_config(event),
        late_rounds={p: n for p, n in late.items() if n},
    )
    reached = phases_reached(registrations)
    return rank_by_phase(table, reached) if by_phase and reached else table


def phases_reached(registrations: list[Registration]) -> dict[int, int]:
    """The players who went on past phase 1, and the last phase each plays in."""
    return {r.player_id: r.phase for r in registrations if r.phase > 1}


def phase_standings(*, event: Event, number: int) -> tuple[list[standings.Standing], set[int]]:
    """Phase ``number``'s standings as it ended (or stands): the rounds up to its last, without the phase
    ranking; and the players who went on from it.  ``ValueError`` for a phase the event does not have."""
    last = phase_rules.last_round(event_plan(event), number)
    registrations = list(event.registrations.all())
    table = compute_standings(event, registrations, through_round=last, by_phase=False)
    return table, {r.player_id for r in registrations if r.phase > number}


def phase_going_on(*, event: Event, number: int, plan: Sequence[phase_rules.PhasePlan] | None = None) -> list[int]:
    """The players phase ``number``'s rule lets through as the results stand, in standings order: registered, not
    dropped, in the phase (the advance itself, and the dashboard's preview of it)."""
    plan = event_plan(event) if plan is None else plan
    registrations = list(event.registrations.all())
    table = compute_standings(event, registrations, through_round=phase_rules.last_round(plan, number), by_phase=False)
    eligible = [
        r.player_id
        for r in registrations
        if r.status == Registration.Status.REGISTERED and not r.dropped and r.phase >= number
    ]
    return phase_rules.advancing(table, plan[number - 1], eligible=eligible)


def event_plan(event: Event) -> list[phase_rules.PhasePlan]:
    """The event's plan as the pure rules take it (an empty list: no phases, one phase of every round)."""
    return phase_rules.plan_of(list(Phase.objects.filter(event=event).order_by("number")))


@dataclasses.dataclass(frozen=True)
class PhaseRow:
    """One phase of an event's plan, as pages and the API show it."""

    number: int
    name: str
    rounds: int
    first_round: int
    last_round: int
    advance_points: int | None
    advance_top: int | None
    #: "19 match points or more", "the top 64", "no further phase".
    rule: str
    #: ``planned`` (no round paired), ``playing`` (rounds paired, not advanced), ``advanced``; the last phase
    #: ``finished`` once the top cut starts or the event finishes.
    status: str
    advanced_count: int | None
    advanced_at: object
    #: Players in the phase: everyone registered for phase 1, those who went on for later ones.
    players: int


def event_phases(*, event: Event) -> list[PhaseRow]:
    """The event's phases with where each stands (three queries; none when it has no phases)."""
    if not event.phase_count:
        return []
    phases = list(Phase.objects.filter(event=event).order_by("number"))
    if not phases:
        return []
    plan = phase_rules.plan_of(phases)
    paired = event.rounds.filter(stage=Round.Stage.SWISS).count()
    reached = list(
        Registration.objects.filter(event=event, status=Registration.Status.REGISTERED).values_list("phase", flat=True)
    )
    over = event.top_cut_size > 0 or event.status == Event.Status.FINISHED
    rows = []
    for number, (phase, rule) in enumerate(zip(phases, plan, strict=True), start=1):
        first, last = phase_rules.first_round(plan, number), phase_rules.last_round(plan, number)
        if phase.advanced_at is not None:
            status = "advanced"
        elif number == len(plan) and over:
            status = "finished"
        elif paired >= first:
            status = "playing"
        else:
            status = "planned"
        rows.append(
            PhaseRow(
                number=number, name=phase.name, rounds=phase.rounds, first_round=first, last_round=last,
                advance_points=phase.advance_points, advance_top=phase.advance_top, rule=words.phase_rule(advance_points=rule.advance_points, advance_top=rule.advance_top),
                status=status, advanced_count=phase.advanced_count, advanced_at=phase.advanced_at,
                players=sum(1 for r in reached if r >= number),
            )
        )  # fmt: skip
    return rows


def current_phase(rows: list[PhaseRow]) -> PhaseRow | None:
    """The phase being played (or the next to be): the first that has not advanced."""
    return next((r for r in rows if r.status != "advanced"), None)


@dataclasses.dataclass(frozen=True)
class PhaseOperations:
    """What the dashboard offers for the event's phases now (the services check it again when asked)."""

    rows: list[PhaseRow]
    #: The phase whose players may go on now (its rounds played and reported), and how many would.
    advance: PhaseRow | None
    advancing: int
    #: The phase whose advance can still be taken back (the next phase has no round yet).
    undo: PhaseRow | None
    #: The next round opens a phase that has not been reached: the round button waits for the advance.
    next_round_waits: bool


def phase_operations(*, event: Event, results_missing: bool) -> PhaseOperations | None:
    """``None`` for an event without phases (no query)."""
    rows = event_phases(event=event)
    if not rows:
        return None
    rounds_paired = event.rounds.filter(stage=Round.Stage.SWISS).count()
    over = event.top_cut_size > 0 or event.status == Event.Status.FINISHED
    advance, advancing, undo = None, 0, None
    for row in rows[:-1]:
        if row.status == "advanced":
            undo = row if rounds_paired <= row.last_round and not over else None
            continue
        if rounds_paired >= row.last_round and not results_missing and not over:
            advance = row
            advancing = len(phase_going_on(event=event, number=row.number))
        break
    waits = (
        any(r.status != "advanced" and rounds_paired == r.last_round for r in rows[:-1])
        and rounds_paired < event.planned_rounds
    )
    return PhaseOperations(rows=rows, advance=advance, advancing=advancing, undo=undo, next_round_waits=waits)


def phase_standing_rows(*, event: Event, number: int) -> list[dict]:
    """Phase ``number``'s standings for pages and the API: each engine row as a dict with its ``player`` (a Player)
    and ``went_on`` (the player advanced from the phase).  One query more than :func:`phase_standings`."""
    from tournaments.models import Player

    table, went_on = phase_standings(event=event, number=number)
    players = Player.objects.in_bulk([s.player_id for s in table])
    return [{**s._asdict(), "player": players[s.player_id], "went_on": s.player_id in went_on} for s in table]


def event_phases_now(*, event_id: int) -> tuple[Event, list[PhaseRow]]:
    """The event as it is now (after a change to its phases) and its phases: as :func:`event_phases`, one query
    more."""
    event = Event.objects.get(pk=event_id)
    return event, event_phases(event=event)
