"""Rounds: pairing the next Swiss round, re-pairing and swaps, and the top cut.

:func:`round_start` loads the event's whole history in a constant number of
queries, calls the pure pairing engine (:mod:`tournaments.pairing`) and writes
the round, its tables and seats in bulk, in one transaction.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from django.db import transaction
from django.db.models import Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict, NotFound
from tournaments import audit, pairing, selectors, words
from tournaments.explain import CHANGED_BY_STAFF
from tournaments.models import (
    ByeAssignment,
    Event,
    KeepApart,
    Phase,
    Player,
    Pod,
    PodResult,
    Registration,
    Round,
    Seat,
)
from tournaments.pairing import topcut
from tournaments.policy import Action, ensure
from tournaments.seeding import rating_ranks
from tournaments.selectors.standings import compute_standings
from tournaments.services._common import locked_event, missing_message, tables_without_result
from tournaments.standings import phases as phase_rules


def round_start(
    *, event: Event, by, seed: int | None = None, allow_rematches: bool = False, seeding: str = "random"
) -> Round:
    """Pair and seat the next round of ``event`` in one transaction.

    In the Swiss part: refused when the event is finished, the previous round
    has tables without a result, every planned round has been played, or too
    few players are active (checked in and not dropped).  A 1v1 pairing that
    cannot avoid a rematch is refused unless ``allow_rematches``: the
    organiser is told how many the best pairing has and decides.  Once the top
    cut has started, the next round is the next round of the bracket.
    ``seeding`` seats round 1 at ``"random"`` or by ``"rating"`` (the players'
    displayed ratings in the event's format); later rounds ignore it.
    """
    ensure(by, Action.PAIR_ROUNDS, event)
    if seeding not in pairing.SEEDINGS:
        raise ApplicationError(
            _("Seed round 1 %(choices)s, not %(seeding)r.")
            % {"choices": " or ".join(map(repr, pairing.SEEDINGS)), "seeding": seeding},
            field="seeding",
        )
    with transaction.atomic():
        event = locked_event(event.pk)
        _ensure_next_round_possible(event)
        last = selectors.event_latest_round(event=event)
        if last is not None and last.stage == Round.Stage.TOP_CUT:
            round_ = _start_next_cut_round(event, last)
        else:
            number = (last.number if last else 0) + 1
            if number > event.planned_rounds:
                raise Conflict(
                    _(
                        "All %(rounds)s planned rounds have been played: start the top cut, finish the event, or raise the number of planned rounds."
                    )
                    % {"rounds": event.planned_rounds},
                    code="rounds_complete",
                )
            round_ = _start_swiss_round(
                event, number=number, seed=seed, allow_rematches=allow_rematches, seeding=seeding
            )
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            # Registration and its waiting list close when play starts.
            event.registration_open = False
            event.save(update_fields=["status", "registration_open"])
        facts = _round_facts(round_)
        events.record(
            event=event, by=by, action=DomainAction.ROUND_STARTED, subject=f"Round {round_.number}", after=facts,
            byes=len(facts["tables"].get("bye", ())),
        )  # fmt: skip
    return round_


def round_repair(
    *, event: Event, round_number: int, by, seed: int | None = None, allow_rematches: bool = False
) -> Round:
    """Throw away the pairing of the current round and pair it again (new seed unless given).

    Only for the latest Swiss round, before any table has a result or a game
    record: nothing recorded is ever discarded.  Players checked in, dropped,
    fixed to a table or given a bye since the pairing are taken into account.
    If the new pairing is refused, the old one stays.
    """
    ensure(by, Action.PAIR_ROUNDS, event)
    with transaction.atomic():
        event, round_ = _current_swiss_round(event, round_number)
        _ensure_untouched(round_, Pod.objects.filter(round=round_, is_bye=False))
        before = _round_facts(round_)
        round_.delete()
        new = _start_swiss_round(event, number=round_number, seed=seed, allow_rematches=allow_rematches)
        events.record(
            event=event, by=by, action=DomainAction.ROUND_REPAIRED, subject=f"Round {round_number}", before=before,
            after=_round_facts(new),
        )  # fmt: skip
    return new


def round_swap(*, event: Event, round_number: int, player_a: int, player_b: int, by) -> tuple[Round, list[str]]:
    """Swap two players' seats in the current round; returns the round and warnings (rematches it creates).

    Only at tables without a result or a game record.  A bye can be swapped
    too: the player moved in gets the bye.  The round is marked as edited, so
    its seed alone no longer reproduces it.  Every seat at the two tables
    says why it changed (:mod:`tournaments.explain`): the two players moved
    ``swapped``, the others ``table_changed``; ``rematch`` is said again for
    the tables as they are now.
    """
    ensure(by, Action.PAIR_ROUNDS, event)
    if player_a == player_b:
        raise ApplicationError(_("Choose two different players."), field="players")
    with transaction.atomic():
        event, round_ = _current_swiss_round(event, round_number)
        seats = {
            s.player_id: s
            for s in Seat.objects.select_for_update(of=("self",))
            .select_related("pod", "player")
            .filter(round=round_, player_id__in=[player_a, player_b])
        }
        absent = [p for p in (player_a, player_b) if p not in seats]
        if absent:
            raise ApplicationError(
                _("Player(s) %(players)s are not seated in round %(round)s.")
                % {"players": ", ".join(map(str, absent)), "round": round_number},
                field="players",
            )
        a, b = seats[player_a], seats[player_b]
        if a.pod_id == b.pod_id:
            raise ApplicationError(
                _("%(player)s and %(other)s already sit at the same table.") % {"player": a.player, "other": b.player},
                field="players",
            )
        _ensure_untouched(round_, Pod.objects.filter(pk__in=[a.pod_id, b.pod_id], is_bye=False))

        pod_ids = [a.pod_id, b.pod_id]
        table_seats = list(Seat.objects.filter(pod_id__in=pod_ids).order_by("seat_order"))
        members = defaultdict(list)
        for seat in table_seats:
            members[seat.pod_id].append(seat.player_id)
        involved = [p for pod_id in pod_ids for p in members[pod_id]]
        met = _met_before(event, round_, involved)
        names = dict(Player.objects.filter(pk__in=involved).values_list("pk", "display_name"))
        before = _repeat_pairs([members[pod_id] for pod_id in pod_ids], met)
        for pod_id in pod_ids:
            members[pod_id] = [{player_a: player_b, player_b: player_a}.get(p, p) for p in members[pod_id]]
        after = _repeat_pairs([members[pod_id] for pod_id in pod_ids], met)

        in_rematch = {p for pair in after for p in pair}

        def reasons(kept: list[str], player_id: int) -> list[str]:
            return [*kept, *(["rematch"] if player_id in in_rematch else [])]

        moved = []
        for seat, other in ((a, b), (b, a)):
            moved.append(
                Seat(
                    pod_id=other.pod_id, round=round_, player_id=seat.player_id, seat_order=other.seat_order,
                    placement=other.placement, points=other.points, points_before=seat.points_before,
                    rank_before=seat.rank_before, cut_seed=seat.cut_seed, reasons=reasons(["swapped"], seat.player_id),
                )
            )  # fmt: skip
        # Everyone else at the two tables sits with someone the pairing did not choose: their explanation says so.
        stayed = [seat for seat in table_seats if seat.pk not in (a.pk, b.pk)]
        for seat in stayed:
            kept = [c for c in seat.reasons if c != "rematch"]
            seat.reasons = reasons(kept if CHANGED_BY_STAFF & set(kept) else ["table_changed", *kept], seat.player_id)
        Seat.objects.bulk_update(stayed, ["reasons"])
        Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
        Seat.objects.bulk_create(moved)
        round_.rematches = max(0, round_.rematches + len(after) - len(before))
        round_.edited = True
        round_.save(update_fields=["rematches", "edited"])
        events.record(
            event=event, by=by, action=DomainAction.ROUND_SWAPPED, subject=f"Round {round_number}",
            before={audit.player_label(a.player): a.pod.table_number, audit.player_label(b.player): b.pod.table_number},
            after={audit.player_label(a.player): b.pod.table_number, audit.player_label(b.player): a.pod.table_number},
            byes=int(a.pod.is_bye) + int(b.pod.is_bye),  # a bye moved to another player: their points moved
        )  # fmt: skip
    warnings = [
        _("%(player)s and %(other)s have already played each other (%(rounds)s).")
        % {"player": names[p], "other": names[q], "rounds": words.rounds_words(met[p][q], capital=False)}
        for p, q in sorted(after - before)
    ]
    return round_, warnings


def round_publish(*, event: Event, round_number: int, by) -> Round:
    """Show a staged round to the players: their pages, the public pages and API, streams and overlays.

    Only the latest round, once; an event that does not stage its pairings publishes every round as it is paired.
    """
    ensure(by, Action.PAIR_ROUNDS, event)
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        round_ = _latest_round(event, round_number)
        if round_.published:
            raise Conflict(_("Round %(round)s is already published.") % {"round": round_number}, code="round_published")
        round_.published_at = timezone.now()
        round_.save(update_fields=["published_at"])
        # Its byes count in the stored standings from now on (a staged round's are left out of them).
        byes = round_.pods.filter(is_bye=True).count()
        events.record(
            event=event, by=by, action=DomainAction.ROUND_PUBLISHED, subject=f"Round {round_number}", byes=byes
        )
    return round_


def round_start_undo(*, event: Event, round_number: int, by) -> None:
    """Take back the latest round's start (a Swiss round, or a round of the cut) before any of its tables has a
    result or a game record: the round, its tables and seats (and byes) are deleted, as if never paired.

    Undoing the cut's first round ends the cut (the event can start it again, at another size); undoing round 1
    takes the event back to registration (registration stays closed).  Published or not, it goes: players who saw
    it see the round before it again.  The audit trail keeps the tables it had.
    """
    ensure(by, Action.PAIR_ROUNDS, event)
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        round_ = _latest_round(event, round_number)
        _ensure_untouched(round_, Pod.objects.filter(round=round_, is_bye=False))
        before = _round_facts(round_)
        cut_ended = (
            round_.stage == Round.Stage.TOP_CUT
            and not event.rounds.filter(stage=Round.Stage.TOP_CUT, number__lt=round_number).exists()
        )
        round_.delete()
        changed = []
        if cut_ended:
            event.top_cut_size = 0
            changed.append("top_cut_size")
        if round_number == 1:
            event.status = Event.Status.REGISTRATION
            changed.append("status")
        if changed:
            event.save(update_fields=changed)
        events.record(
            event=event, by=by, action=DomainAction.ROUND_UNDONE, subject=f"Round {round_number}", before=before,
            round=round_number, byes=len(before["tables"].get("bye", ())), cut_ended=cut_ended,
        )  # fmt: skip


def top_cut_start(*, event: Event, by, size: int | None = None) -> Round:
    """Start the single-elimination top cut after the Swiss rounds.

    ``size`` defaults to the planned cut (``Event.planned_cut_size``), else the recommendation for the attendance (Pokémon or
    Magic table for 1v1; for pods, see :mod:`tournaments.pairing.topcut`).
    1v1: a seeded bracket, seed 1 against the last seed at table 1.  Pods:
    semi-final pods filled by seed (snake), whose winners meet in a final pod;
    or, for a cut of one pod, the final straight away.  Seats by seed.
    Dropped players give their place to the next in the standings.
    """
    ensure(by, Action.PAIR_ROUNDS, event)
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        if event.top_cut_size:
            raise Conflict(_("The top cut has already started."), code="top_cut_started")
        _ensure_next_round_possible(event)
        swiss = selectors.swiss_rounds_paired(event)
        if swiss == 0:
            raise Conflict(_("Play the Swiss rounds before the top cut."), code="no_swiss_rounds")
        if swiss < event.planned_rounds:
            raise Conflict(
                _(
                    "%(rounds)s planned Swiss round(s) remain: play them, "
                    "or lower the number of planned rounds, before the top cut."
                )
                % {"rounds": event.planned_rounds - swiss},
                code="swiss_incomplete",
            )
        # The standings order (rank, then player ID between players who share a rank) is the seed order.
        registrations = list(event.registrations.all())
        eligible = [s for s in compute_standings(event, registrations) if not s.dropped]
        last_phase = event.phase_count
        if last_phase:
            # Only the players of the last phase play the cut (the overall standings rank them first anyway).
            in_last = {r.player_id for r in registrations if r.phase >= last_phase}
            eligible = [s for s in eligible if s.player_id in in_last]
        pod_size = selectors.cut_pod_size(event)
        entered = selectors.event_attendance(event=event).entered
        allowed = topcut.cut_sizes(players=len(eligible), pod_size=pod_size)
        if size is None and event.planned_cut_size is not None:
            size = event.planned_cut_size
            if not size:
                raise Conflict(_("No top cut is planned for this event: finish it, or plan a cut."), code="no_top_cut")
        if size is None:
            if entered < selectors.structure_minimum(event):
                raise Conflict(
                    _("%(entered)s player(s) entered: too few for a top cut. Finish the event.") % {"entered": entered},
                    code="no_top_cut",
                )
            recommended = topcut.recommended_structure(
                entered, convention=selectors.structure_table(event), pod_size=pod_size
            )
            size = recommended.top_cut
            if not size or size not in allowed:
                raise Conflict(
                    _(
                        "No top cut is recommended for %(entered)s players (%(source)s): choose a cut size or finish the event."
                    )
                    % {"entered": entered, "source": recommended.source},
                    code="no_top_cut",
                )
        if size not in allowed:
            choices = ", ".join(map(str, allowed)) or "none"
            raise ApplicationError(
                _("A top cut of %(size)s is not possible with %(players)s active players: choose %(choices)s.")
                % {"size": size, "players": len(eligible), "choices": choices},
                field="size",
            )
        seeded = eligible[:size]
        tables = topcut.first_cut_round([s.player_id for s in seeded], pod_size=pod_size)
        number = selectors.next_round_number(event)
        info = {
            s.player_id: _SeatInfo(points=s.points, rank=s.rank, reasons=("top_cut",), cut_seed=seed)
            for seed, s in enumerate(seeded, start=1)
        }
        round_ = _write_round(
            event, number=number, stage=Round.Stage.TOP_CUT, seed=0, objective=None, rematches=0,
            tables=list(enumerate(tables, start=1)), byes=[], info=info,
        )  # fmt: skip
        event.top_cut_size = size
        event.save(update_fields=["top_cut_size"])
        events.record(
            event=event, by=by, action=DomainAction.TOP_CUT_STARTED, subject=f"Top {size}", after=_round_facts(round_)
        )
    return round_


# --- rounds: the shared steps ----------------------------------------------------------------


def _round_facts(round_: Round) -> dict:
    """What the audit trail keeps of a pairing: its seed, objective and tables (player ids in seat order)."""
    tables: dict[str, list[int]] = defaultdict(list)
    for number, player_id in (
        Seat.objects.filter(round=round_)
        .order_by("pod__table_number", "seat_order")
        .values_list("pod__table_number", "player_id")
    ):
        tables["bye" if number is None else str(number)].append(player_id)
    return {"stage": round_.stage, "seed": str(round_.seed), "objective": round_.objective, "tables": dict(tables)}


@dataclass(frozen=True, slots=True)
class _SeatInfo:
    points: int | None
    rank: int | None
    reasons: tuple[str, ...]
    cut_seed: int | None = None


def _ensure_next_round_possible(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("The event is finished."), code="event_finished")
    missing = tables_without_result(event)
    if missing:
        raise Conflict(missing_message(missing), code="round_incomplete")


def _latest_round(event: Event, round_number: int) -> Round:
    latest = selectors.event_latest_round(event=event)
    if latest is None or round_number > latest.number:
        raise NotFound(_("Round %(round)s has not been paired.") % {"round": round_number}, code="round_not_found")
    if round_number != latest.number:
        raise Conflict(
            _("Round %(round)s is over: only the current round (%(latest)s) can change.")
            % {"round": round_number, "latest": latest.number},
            code="round_closed",
        )
    return latest


def _current_swiss_round(event: Event, round_number: int) -> tuple[Event, Round]:
    """Lock the event and return its current round, which a re-pairing or a swap may change."""
    event = locked_event(event.pk)
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("The event is finished."), code="event_finished")
    round_ = _latest_round(event, round_number)
    if round_.stage != Round.Stage.SWISS:
        raise Conflict(_("Top-cut tables follow the seeds: they cannot be re-paired or swapped."), code="top_cut_round")
    return event, round_


def _ensure_untouched(round_: Round, pods) -> None:
    """Refuse to change tables that already have a result or a game record (a cut bye's result aside: nobody
    recorded it)."""
    touched = sorted(
        pods.filter(Q(result__isnull=False) | Q(games__isnull=False))
        .exclude(result__source=PodResult.Source.BYE)
        .values_list("table_number", flat=True)
        .distinct()
    )
    if touched:
        tables = ", ".join(map(str, touched))
        raise Conflict(
            _(
                "Table(s) %(tables)s of round %(round)s already have a result or a game record: changing the pairing would lose it."
            )
            % {"tables": tables, "round": round_.number},
            code="round_has_results",
        )


def _start_swiss_round(
    event: Event, *, number: int, seed: int | None, allow_rematches: bool, seeding: str = "random"
) -> Round:
    table_size = event.table_size
    registrations = list(event.registrations.all())
    phase = _phase_of_round(event, number)
    active = [r for r in registrations if r.checked_in and not r.dropped and r.phase >= phase]
    if len(active) < table_size.min:
        raise Conflict(
            _("%(players)s active player(s): a %(format)s table needs at least %(min)s. Check players in first.")
            % {"players": len(active), "format": event.format_spec.name, "min": table_size.min},
            code="not_enough_players",
        )
    apart = _keep_apart(event)
    entrants = _entrants(event, registrations, active)
    active_ids = {r.player_id for r in active}
    assigned = sorted(
        p
        for p in ByeAssignment.objects.filter(registration__event=event, round_number=number).values_list(
            "registration__player_id", flat=True
        )
        if p in active_ids
    )
    fixed = {r.player_id: r.fixed_table for r in active if r.fixed_table}
    seed = secrets.randbits(62) if seed is None else seed
    seeding = seeding if number == 1 else "random"
    engine_entrants = entrants
    if seeding == "rating":
        ranks = rating_ranks(event.format, [e.id for e in entrants])
        engine_entrants = [dataclasses.replace(e, rank=ranks[e.id]) for e in entrants]
    try:
        result = pairing.pair_round(
            engine_entrants, table_size=table_size, round_number=number, seed=seed,
            fixed_tables=fixed, assigned_byes=assigned, leftovers=event.pod_leftovers, seeding=seeding,
            keep_apart=apart,
        )  # fmt: skip
    except pairing.PairingError as exc:
        raise Conflict(
            _("Round %(round)s cannot be paired: %(problem)s.") % {"round": number, "problem": exc},
            code="pairing_impossible",
        ) from None
    if apart:
        result = _real_rematches(result, entrants)
    if result.rematches and table_size.is_one_vs_one and not allow_rematches:
        raise Conflict(
            _(
                "No pairing of round %(round)s avoids every rematch: the best one has %(rematches)s. Pair it anyway by allowing rematches, or drop or add players first."
            )
            % {"round": number, "rematches": result.rematches},
            code="rematch_unavoidable",
        )
    by_id = {e.id: e for e in entrants}
    info = {
        pid: _SeatInfo(points=by_id[pid].points, rank=by_id[pid].rank or None, reasons=tuple(codes))
        for pid, codes in result.reasons.items()
    }
    return _write_round(
        event, number=number, stage=Round.Stage.SWISS, seed=seed, objective=result.objective,
        rematches=result.rematches, tables=[(t.number, t.seats) for t in result.tables], byes=list(result.byes),
        info=info,
    )  # fmt: skip


def _phase_of_round(event: Event, number: int) -> int:
    """The phase round ``number`` belongs to (1 without phases); refused while the phase before it has not
    advanced its players."""
    if not event.phase_count:
        return 1
    phases = list(Phase.objects.filter(event=event).order_by("number"))
    plan = phase_rules.plan_of(phases)
    phase = phase_rules.phase_of_round(plan, number)
    if phase > 1 and phases[phase - 2].advanced_at is None:
        previous = phases[phase - 2]
        raise Conflict(
            _("Round %(round)s opens %(phase)s: advance %(previous)s's players first (%(rule)s).")
            % {
                "round": number,
                "phase": phases[phase - 1].name,
                "previous": previous.name,
                "rule": words.phase_rule(
                    advance_points=plan[phase - 2].advance_points, advance_top=plan[phase - 2].advance_top
                ),
            },
            code="phase_not_advanced",
        )
    return phase


def _start_next_cut_round(event: Event, last: Round) -> Round:
    pods = list(
        Pod.objects.filter(round=last, is_bye=False)
        .order_by("table_number")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("seat_order")))
    )
    previous = [tuple(s.player_id for s in pod.seats.all()) for pod in pods]
    if topcut.is_final(previous):
        raise Conflict(_("The final has been played: finish the event."), code="top_cut_complete")
    winners = [next(s.player_id for s in pod.seats.all() if s.placement == 1) for pod in pods]
    seed_of = {s.player_id: cast(int, s.cut_seed) for pod in pods for s in pod.seats.all()}  # cut seats are seeded
    tables = topcut.next_cut_round(previous, winners, seed_of, pod_size=selectors.cut_pod_size(event))
    points = {s.player_id: s.points_before for pod in pods for s in pod.seats.all()}
    ranks = {s.player_id: s.rank_before for pod in pods for s in pod.seats.all()}
    info = {
        p: _SeatInfo(points=points[p], rank=ranks[p], reasons=("top_cut",), cut_seed=seed_of[p])
        for seats in tables
        for p in seats
    }
    return _write_round(
        event, number=last.number + 1, stage=Round.Stage.TOP_CUT, seed=0, objective=None, rematches=0,
        tables=list(enumerate(tables, start=1)), byes=[], info=info,
    )  # fmt: skip


def _write_round(
    event: Event,
    *,
    number: int,
    stage: str,
    seed: int,
    objective: int | None,
    rematches: int,
    tables: list[tuple[int, tuple[int, ...]]],
    byes: list[int],
    info: Mapping[int, _SeatInfo],
) -> Round:
    """Insert a round, its tables and seats in a constant number of queries; byes score at once."""
    bye_points = event.format_spec.scoring.bye_points
    round_ = Round.objects.create(
        event=event, number=number, stage=stage, seed=seed, objective=objective, rematches=rematches,
        published_at=None if event.stage_pairings else timezone.now(),
    )  # fmt: skip
    pods = [Pod(round=round_, table_number=n) for n, _ in tables]
    bye_pods = [Pod(round=round_, table_number=None, is_bye=True) for _ in byes]
    Pod.objects.bulk_create(pods + bye_pods)

    def seat(pod: Pod, player_id: int, order: int, **result) -> Seat:
        i = info.get(player_id) or _SeatInfo(points=None, rank=None, reasons=())
        return Seat(
            pod=pod, round=round_, player_id=player_id, seat_order=order, points_before=i.points,
            rank_before=i.rank, cut_seed=i.cut_seed, reasons=list(i.reasons), **result,
        )  # fmt: skip

    # A table of one is a cut bye (a top seed skipping the cut's first round, :func:`topcut.cut_byes`): won at
    # once, with no points (the cut scores nothing), its result a bye's.
    alone = [pod for pod, (_, players) in zip(pods, tables, strict=True) if len(players) == 1]
    seats = [
        seat(pod, player_id, order, **({"placement": 1, "points": 0} if len(players) == 1 else {}))
        for pod, (_, players) in zip(pods, tables, strict=True)
        for order, player_id in enumerate(players, start=1)
    ]
    seats += [seat(pod, p, 1, placement=1, points=bye_points) for pod, p in zip(bye_pods, byes, strict=True)]
    Seat.objects.bulk_create(seats)
    PodResult.objects.bulk_create(
        [PodResult(pod=pod, reported_by=None, source=PodResult.Source.BYE) for pod in bye_pods + alone]
    )
    return round_


def _met_before(event: Event, round_: Round, players: list[int]) -> dict[int, dict[int, list[int]]]:
    """``{player: {opponent: [round numbers]}}`` of earlier rounds, for ``players``."""
    rows = (
        Seat.objects.filter(round__event=event, round__number__lt=round_.number, pod__is_bye=False)
        .filter(pod__seats__player_id__in=players)
        .order_by()
        .values_list("pod_id", "round__number", "player_id")
        .distinct()
    )
    pods: dict[int, list[int]] = defaultdict(list)
    number_of: dict[int, int] = {}
    for pod_id, number, player_id in rows:
        pods[pod_id].append(player_id)
        number_of[pod_id] = number
    met: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for pod_id, members in pods.items():
        for p in members:
            for q in members:
                if p != q:
                    met[p][q].append(number_of[pod_id])
    return met


def _repeat_pairs(tables: list[list[int]], met) -> set[tuple[int, int]]:
    return {
        (min(p, q), max(p, q))
        for members in tables
        for i, p in enumerate(members)
        for q in members[i + 1 :]
        if q in met.get(p, {})
    }


def _keep_apart(event: Event) -> list[tuple[int, int]]:
    """The event's keep-apart pairs, lower id first (:mod:`tournaments.services.keep_apart`): one query."""
    return list(KeepApart.objects.filter(event=event).values_list("player_a_id", "player_b_id"))


def _real_rematches(result: pairing.Pairing, entrants: list[pairing.Entrant]) -> pairing.Pairing:
    """The engine counted a kept-apart pair seated together as a rematch: count only the real ones (the pairs that
    met before, as either remembers it), and say ``keep_apart`` rather than ``rematch`` on the seats of a player
    whose table holds no one they met."""
    met: dict[int, set[int]] = defaultdict(set)
    for e in entrants:
        for o in e.opponents:
            met[e.id].add(o)
            met[o].add(e.id)
    real = _repeat_pairs([list(t.seats) for t in result.tables], met)
    in_real = {p for pair in real for p in pair}
    reasons = {
        p: (*(c for c in codes if c != "rematch"), "keep_apart") if "rematch" in codes and p not in in_real else codes
        for p, codes in result.reasons.items()
    }
    return dataclasses.replace(result, rematches=len(real), reasons=reasons)


def _entrants(event: Event, registrations: list[Registration], active: list[Registration]) -> list[pairing.Entrant]:
    """Build the pairing engine's input from the event's history, in a constant number of queries."""
    table = compute_standings(event, registrations)
    by_player = {s.player_id: s for s in table}
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: Counter[int] = Counter()
    first_seats: Counter[int] = Counter()
    pod_players: dict[int, list[int]] = defaultdict(list)
    rows = (
        Seat.objects.filter(round__event=event, round__stage=Round.Stage.SWISS)
        .order_by()
        .values_list("pod_id", "player_id", "seat_order", "pod__is_bye")
    )
    for pod_id, player_id, seat_order, is_bye in rows:
        if is_bye:
            byes[player_id] += 1
            continue
        pod_players[pod_id].append(player_id)
        if seat_order == 1:
            first_seats[player_id] += 1
    for players in pod_players.values():
        for p in players:
            opponents[p].update(q for q in players if q != p)
    entrants = []
    for reg in active:
        s = by_player.get(reg.player_id)
        entrants.append(
            pairing.Entrant(
                id=reg.player_id,
                points=s.points if s else 0,
                rank=s.rank if s else 0,
                opponents=frozenset(opponents[reg.player_id]),
                byes=byes[reg.player_id],
                first_seats=first_seats[reg.player_id],
            )
        )
    return entrants
