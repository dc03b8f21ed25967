"""Every state change of the tournaments app goes through a function here.

Functions are keyword-only and named ``<entity>_<action>``.  Each one checks
who is asking, checks the rules, and writes inside one transaction; a refused
request raises :class:`core.exceptions.ApplicationError` (or a subclass) and
changes nothing.  Views, API views, the demo command and the games app all call
these, so there is one write path per change.
"""

from __future__ import annotations

import datetime
import secrets
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F, Prefetch, Q
from django.utils import timezone

from core.exceptions import ApplicationError, Conflict, NotFound, PermissionDenied
from games.formats import UnknownFormat, get_format
from tournaments import pairing, selectors, standings
from tournaments.models import ByeAssignment, Event, Player, Pod, PodResult, Registration, Round, Seat, Standing
from tournaments.pairing import topcut

# --- permissions --------------------------------------------------------------------------


def can_manage_event(user, event: Event) -> bool:
    """The event's organiser and staff change an event; everyone else only reads it."""
    return bool(user and user.is_authenticated and (user.is_staff or event.organiser_id == user.pk))


def _ensure_can_manage(user, event: Event) -> None:
    if not can_manage_event(user, event):
        raise PermissionDenied("Only the event's organiser or staff may change this event.")


def _locked_event(event_id: int) -> Event:
    try:
        return Event.objects.select_for_update().get(pk=event_id)
    except Event.DoesNotExist:
        raise NotFound(f"Event {event_id} does not exist.") from None


# --- players and events -------------------------------------------------------------------


def player_create(*, display_name: str, external_id: str | None = None, user=None) -> Player:
    display_name = display_name.strip()
    if not display_name:
        raise ApplicationError("A player needs a display name.", field="display_name")
    external_id = (external_id or "").strip() or None
    if external_id and Player.objects.filter(external_id=external_id).exists():
        raise Conflict(
            f"A player with external id {external_id!r} already exists.", code="duplicate_player", field="external_id"
        )
    try:
        with transaction.atomic():
            return Player.objects.create(display_name=display_name, external_id=external_id, user=user)
    except IntegrityError:
        raise Conflict("That player already exists.", code="duplicate_player", field="external_id") from None


def event_create(
    *,
    organiser,
    name: str,
    format: str,
    planned_rounds: int,
    date: datetime.date,
    venue: str = "",
    tiebreakers: str = Event.Tiebreakers.CLASSIC,
    players_per_table: int | None = None,
    pod_leftovers: str = Event.Leftovers.TABLES,
) -> Event:
    if not (organiser and organiser.is_authenticated):
        raise PermissionDenied("Sign in to create an event.")
    try:
        fmt = get_format(format)
    except UnknownFormat:
        raise ApplicationError(f"Unknown format {format!r}.", code="unknown_format", field="format") from None
    if not name.strip():
        raise ApplicationError("An event needs a name.", field="name")
    _check_planned_rounds(planned_rounds)
    _check_tiebreakers(tiebreakers)
    _check_table_options(fmt, players_per_table, pod_leftovers)
    return Event.objects.create(
        organiser=organiser,
        name=name.strip(),
        format=format,
        planned_rounds=planned_rounds,
        date=date,
        venue=venue,
        tiebreakers=tiebreakers,
        players_per_table=players_per_table,
        pod_leftovers=pod_leftovers,
    )


def _check_planned_rounds(planned_rounds: int) -> None:
    if not 1 <= planned_rounds <= 30:
        raise ApplicationError("Planned rounds must be between 1 and 30.", field="planned_rounds")


def _check_tiebreakers(tiebreakers: str) -> None:
    if tiebreakers not in Event.Tiebreakers.values:
        raise ApplicationError(f"Unknown tiebreakers {tiebreakers!r}.", field="tiebreakers")


def _check_table_options(fmt, players_per_table: int | None, pod_leftovers: str) -> None:
    if players_per_table is not None and not (
        players_per_table == 2 and fmt.table_size.min == 2 and not fmt.table_size.is_one_vs_one
    ):
        allowed = "2 (1v1 Swiss)" if fmt.table_size.min == 2 and not fmt.is_one_vs_one else "nothing but the default"
        raise ApplicationError(f"{fmt.name} events can set players per table to {allowed}.", field="players_per_table")
    if pod_leftovers not in Event.Leftovers.values:
        raise ApplicationError(
            f"Unknown choice {pod_leftovers!r}: use {' or '.join(Event.Leftovers.values)}.", field="pod_leftovers"
        )


#: Settings that can change while the event runs, and the ones fixed once round 1 is paired.
_EVENT_LIVE_FIELDS = {"name", "venue", "date", "planned_rounds", "tiebreakers"}
_EVENT_SETUP_FIELDS = {"players_per_table", "pod_leftovers"}


def event_update(*, event: Event, by, **changes) -> Event:
    """Change an event's settings.  Pairing settings are fixed once round 1 is paired.

    ``planned_rounds`` may go up at any time and down to the rounds already paired.
    """
    _ensure_can_manage(by, event)
    unknown = set(changes) - _EVENT_LIVE_FIELDS - _EVENT_SETUP_FIELDS
    if unknown:
        raise ApplicationError(f"These settings cannot be changed: {', '.join(sorted(unknown))}.")
    with transaction.atomic():
        event = _locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished.", code="event_finished")
        played = selectors.swiss_rounds_paired(event)
        fixed = sorted(f for f in set(changes) & _EVENT_SETUP_FIELDS if changes[f] != getattr(event, f))
        if fixed and played:
            raise Conflict(
                f"{', '.join(fixed)} cannot change once round 1 is paired.", code="event_started", field=fixed[0]
            )
        if "name" in changes:
            changes["name"] = changes["name"].strip()
            if not changes["name"]:
                raise ApplicationError("An event needs a name.", field="name")
        if "planned_rounds" in changes:
            _check_planned_rounds(changes["planned_rounds"])
            if changes["planned_rounds"] < played:
                raise Conflict(
                    f"{played} Swiss round(s) have been paired: planned rounds cannot be fewer.",
                    code="rounds_already_paired",
                    field="planned_rounds",
                )
        if "tiebreakers" in changes:
            _check_tiebreakers(changes["tiebreakers"])
        _check_table_options(
            get_format(event.format),
            changes.get("players_per_table", event.players_per_table),
            changes.get("pod_leftovers", event.pod_leftovers),
        )
        retiebreak = "tiebreakers" in changes and changes["tiebreakers"] != event.tiebreakers
        for field, value in changes.items():
            setattr(event, field, value)
        if changes:
            event.save(update_fields=sorted(changes))
        if retiebreak:
            _bump_results_version(event)
    if retiebreak:
        transaction.on_commit(lambda: _enqueue_standings(event.pk))
    return event


def event_finish(*, event: Event, by) -> Event:
    _ensure_can_manage(by, event)
    with transaction.atomic():
        event = _locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is already finished.", code="event_finished")
        missing = _tables_without_result(event)
        if missing:
            raise Conflict(_missing_message(missing), code="round_incomplete")
        event.status = Event.Status.FINISHED
        event.save(update_fields=["status"])
    return event


# --- registrations ---------------------------------------------------------------------------


def registration_create(
    *,
    event: Event,
    by,
    player: Player | None = None,
    display_name: str = "",
    external_id: str | None = None,
    checked_in: bool = False,
) -> Registration:
    """Register an existing player, or a new one by name (and optional external id).

    Registering (checked in) after pairing has begun is a late entry: the
    player joins the next pairing and every round before it counts as a loss.
    """
    _ensure_can_manage(by, event)
    with transaction.atomic():
        event = _locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished: registration is closed.", code="event_finished")
        if event.top_cut_size:
            raise Conflict("The top cut has started: registration is closed.", code="top_cut_started")
        if player is None:
            external_id = (external_id or "").strip() or None
            existing = Player.objects.filter(external_id=external_id).first() if external_id else None
            player = existing or player_create(display_name=display_name, external_id=external_id)
        if Registration.objects.filter(event=event, player=player).exists():
            raise Conflict(f"{player} is already registered for this event.", code="already_registered", field="player")
        # A player joining after pairing has begun plays from the next round; the rounds before it are losses.
        late_entry_round = (
            selectors.next_round_number(event) if checked_in and selectors.swiss_rounds_paired(event) else None
        )
        try:
            with transaction.atomic():
                registration = Registration.objects.create(
                    event=event, player=player, checked_in=checked_in, late_entry_round=late_entry_round
                )
        except IntegrityError:
            raise Conflict(
                f"{player} is already registered for this event.", code="already_registered", field="player"
            ) from None
        if late_entry_round:
            _bump_results_version(event)
    if late_entry_round:
        transaction.on_commit(lambda: _enqueue_standings(event.pk))
    return registration


def registration_check_in(*, registration: Registration, by, checked_in: bool = True) -> Registration:
    """Check a player in (or out).  Checking in after pairing has begun is a late entry.

    A late entrant who has not played yet joins the next pairing; every round
    before it counts as a loss.  The round being played is not rebuilt.
    """
    _ensure_can_manage(by, registration.event)
    with transaction.atomic():
        event = _locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished.", code="event_finished")
        registration = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
        if registration.dropped and checked_in:
            raise Conflict(f"{registration.player} has dropped.", code="dropped")
        if registration.checked_in == checked_in:
            return registration
        registration.checked_in = checked_in
        fields = ["checked_in"]
        late = (
            checked_in
            and selectors.swiss_rounds_paired(event) > 0
            and not Seat.objects.filter(round__event=event, player_id=registration.player_id).exists()
        )
        if late:
            registration.late_entry_round = selectors.next_round_number(event)
            fields.append("late_entry_round")
        registration.save(update_fields=fields)
        if late:
            _bump_results_version(event)
    if late:
        transaction.on_commit(lambda: _enqueue_standings(event.pk))
    return registration


def registration_update(*, registration: Registration, by, fixed_table: int | None) -> Registration:
    """Fix a player to one table for every round (or free them with ``None``).

    Applies from the next pairing; the round being played is not changed.
    """
    _ensure_can_manage(by, registration.event)
    if fixed_table is not None and fixed_table < 1:
        raise ApplicationError("A table number is 1 or more.", field="fixed_table")
    with transaction.atomic():
        event = _locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished.", code="event_finished")
        registration = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
        if fixed_table is not None:
            other = (
                Registration.objects.filter(event=event, fixed_table=fixed_table)
                .exclude(pk=registration.pk)
                .select_related("player")
                .first()
            )
            if other is not None:
                raise Conflict(
                    f"Table {fixed_table} is already fixed for {other.player}.",
                    code="fixed_table_taken",
                    field="fixed_table",
                )
        registration.fixed_table = fixed_table
        registration.save(update_fields=["fixed_table"])
    return registration


def bye_assign(*, registration: Registration, round_number: int, by) -> ByeAssignment:
    """Give a player a bye in a round that has not been paired yet (a win, like any bye)."""
    _ensure_can_manage(by, registration.event)
    with transaction.atomic():
        event = _locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished.", code="event_finished")
        registration = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
        if registration.dropped:
            raise Conflict(f"{registration.player} has dropped.", code="dropped")
        next_number = selectors.next_round_number(event)
        if round_number < next_number:
            raise Conflict(
                f"Round {round_number} is already paired: assign byes before pairing "
                f"(the next round is {next_number}), or re-pair the round.",
                code="round_already_paired",
                field="round",
            )
        if round_number > event.planned_rounds:
            raise ApplicationError(f"The event plans {event.planned_rounds} Swiss round(s).", field="round")
        assignment, _ = ByeAssignment.objects.get_or_create(
            registration=registration, round_number=round_number, defaults={"assigned_by": by}
        )
    return assignment


def bye_unassign(*, registration: Registration, round_number: int, by) -> None:
    """Take back a bye assigned for a round that has not been paired yet."""
    _ensure_can_manage(by, registration.event)
    with transaction.atomic():
        event = _locked_event(registration.event_id)
        if round_number < selectors.next_round_number(event):
            raise Conflict(
                f"Round {round_number} is already paired: re-pair it to take the bye back.",
                code="round_already_paired",
            )
        deleted, _ = ByeAssignment.objects.filter(registration=registration, round_number=round_number).delete()
        if not deleted:
            raise NotFound(f"{registration.player} has no bye assigned in round {round_number}.")


def registration_drop(*, registration: Registration, by) -> Registration:
    """Drop a player from future rounds; their results and standing stay."""
    _ensure_can_manage(by, registration.event)
    with transaction.atomic():
        event = _locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished: nobody can drop any more.", code="event_finished")
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.dropped:
            return registration
        last_round = event.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        registration.dropped = True
        registration.dropped_after_round = last_round
        registration.save(update_fields=["dropped", "dropped_after_round"])
        _bump_results_version(event)
    transaction.on_commit(lambda: _enqueue_standings(event.pk))
    return registration


# --- rounds ----------------------------------------------------------------------------------


def _tables_without_result(event: Event) -> list[int]:
    return list(
        Pod.objects.filter(round__event=event, result__isnull=True, is_bye=False)
        .order_by("table_number")
        .values_list("table_number", flat=True)
    )


def _missing_message(tables: list[int]) -> str:
    shown = ", ".join(str(t) for t in tables[:10]) + (" ..." if len(tables) > 10 else "")
    noun = "table" if len(tables) == 1 else "tables"
    return f"Results are missing for {noun} {shown} of the current round."


def _event_results(event_id: int) -> list[standings.TableResult]:
    """Every reported Swiss table of the event, as the standings engine's input (one query).

    Top-cut tables are left out: the cut decides the winner by elimination,
    and the standings stay the Swiss standings the cut was seeded from.
    """
    rows = (
        Seat.objects.filter(round__event_id=event_id, placement__isnull=False, round__stage=Round.Stage.SWISS)
        .order_by()
        .values_list("pod_id", "round__number", "player_id", "placement")
    )
    by_pod: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for pod_id, round_number, player_id, placement in rows:
        by_pod[pod_id].append((round_number, player_id, placement))
    results = []
    for seats in by_pod.values():
        counts = Counter(placement for _, _, placement in seats)
        results.append(
            standings.TableResult(
                round_number=seats[0][0],
                seats=tuple(
                    standings.SeatResult(player_id=pid, placement=pl, shared=counts[pl] > 1) for _, pid, pl in seats
                ),
            )
        )
    return results


def _compute_standings(event: Event, registrations: list[Registration]) -> list[standings.Standing]:
    fmt = get_format(event.format)
    results = _event_results(event.pk)
    played = {seat.player_id for result in results for seat in result.seats}
    player_ids = [r.player_id for r in registrations if r.checked_in or r.player_id in played]
    listed = set(player_ids)
    # Rounds a late entrant missed are losses, but only rounds that have been paired so far.
    paired = max((result.round_number for result in results), default=0)
    late = {
        r.player_id: min(r.missed_rounds, paired) for r in registrations if r.missed_rounds and r.player_id in listed
    }
    return standings.compute_standings(
        player_ids,
        results,
        scoring=fmt.scoring,
        multiplayer=not event.is_one_vs_one,
        dropped=[r.player_id for r in registrations if r.dropped],
        convention=event.tiebreakers,
        late_rounds={p: n for p, n in late.items() if n},
    )


def round_start(*, event: Event, by, seed: int | None = None, allow_rematches: bool = False) -> Round:
    """Pair and seat the next round of ``event`` in one transaction.

    In the Swiss part: refused when the event is finished, the previous round
    has tables without a result, every planned round has been played, or too
    few players are active (checked in and not dropped).  A 1v1 pairing that
    cannot avoid a rematch is refused unless ``allow_rematches``: the
    organiser is told how many the best pairing has and decides.  Once the top
    cut has started, the next round is the next round of the bracket.
    """
    _ensure_can_manage(by, event)
    with transaction.atomic():
        event = _locked_event(event.pk)
        _ensure_next_round_possible(event)
        last = event.rounds.order_by("-number").first()
        if last is not None and last.stage == Round.Stage.TOP_CUT:
            round_ = _start_next_cut_round(event, last)
        else:
            number = (last.number if last else 0) + 1
            if number > event.planned_rounds:
                raise Conflict(
                    f"All {event.planned_rounds} planned rounds have been played: start the top cut, "
                    "finish the event, or raise the number of planned rounds.",
                    code="rounds_complete",
                )
            round_ = _start_swiss_round(event, number=number, seed=seed, allow_rematches=allow_rematches)
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
    transaction.on_commit(lambda: _enqueue_standings(event.pk))
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
    _ensure_can_manage(by, event)
    with transaction.atomic():
        event, round_ = _current_swiss_round(event, round_number)
        _ensure_untouched(round_, Pod.objects.filter(round=round_, is_bye=False))
        round_.delete()
        new = _start_swiss_round(event, number=round_number, seed=seed, allow_rematches=allow_rematches)
        _bump_results_version(event)  # byes may have moved
    transaction.on_commit(lambda: _enqueue_standings(event.pk))
    return new


def round_swap(*, event: Event, round_number: int, player_a: int, player_b: int, by) -> tuple[Round, list[str]]:
    """Swap two players' seats in the current round; returns the round and warnings (rematches it creates).

    Only at tables without a result or a game record.  A bye can be swapped
    too: the player moved in gets the bye.  The round is marked as edited, so
    its seed alone no longer reproduces it.
    """
    _ensure_can_manage(by, event)
    if player_a == player_b:
        raise ApplicationError("Choose two different players.", field="players")
    with transaction.atomic():
        event, round_ = _current_swiss_round(event, round_number)
        seats = {
            s.player_id: s
            for s in Seat.objects.select_for_update()
            .select_related("pod", "player")
            .filter(round=round_, player_id__in=[player_a, player_b])
        }
        absent = [p for p in (player_a, player_b) if p not in seats]
        if absent:
            raise ApplicationError(
                f"Player(s) {', '.join(map(str, absent))} are not seated in round {round_number}.", field="players"
            )
        a, b = seats[player_a], seats[player_b]
        if a.pod_id == b.pod_id:
            raise ApplicationError(f"{a.player} and {b.player} already sit at the same table.", field="players")
        _ensure_untouched(round_, Pod.objects.filter(pk__in=[a.pod_id, b.pod_id], is_bye=False))

        pod_ids = [a.pod_id, b.pod_id]
        members = defaultdict(list)
        for pod_id, player_id in Seat.objects.filter(pod_id__in=pod_ids).values_list("pod_id", "player_id"):
            members[pod_id].append(player_id)
        involved = [p for pod_id in pod_ids for p in members[pod_id]]
        met = _met_before(event, round_, involved)
        names = dict(Player.objects.filter(pk__in=involved).values_list("pk", "display_name"))
        before = _repeat_pairs([members[pod_id] for pod_id in pod_ids], met)
        for pod_id in pod_ids:
            members[pod_id] = [{player_a: player_b, player_b: player_a}.get(p, p) for p in members[pod_id]]
        after = _repeat_pairs([members[pod_id] for pod_id in pod_ids], met)

        moved = []
        for seat, other in ((a, b), (b, a)):
            moved.append(
                Seat(
                    pod_id=other.pod_id, round=round_, player_id=seat.player_id, seat_order=other.seat_order,
                    placement=other.placement, points=other.points, points_before=seat.points_before,
                    rank_before=seat.rank_before, cut_seed=seat.cut_seed, reasons=["swapped"],
                )
            )  # fmt: skip
        Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
        Seat.objects.bulk_create(moved)
        round_.rematches = max(0, round_.rematches + len(after) - len(before))
        round_.edited = True
        round_.save(update_fields=["rematches", "edited"])
        if a.pod.is_bye or b.pod.is_bye:
            _bump_results_version(event)
    if a.pod.is_bye or b.pod.is_bye:
        transaction.on_commit(lambda: _enqueue_standings(event.pk))
    warnings = [
        f"{names[p]} and {names[q]} have already played each other ({_rounds_text(met[p][q])})."
        for p, q in sorted(after - before)
    ]
    return round_, warnings


def top_cut_start(*, event: Event, by, size: int | None = None) -> Round:
    """Start the single-elimination top cut after the Swiss rounds.

    ``size`` defaults to the recommendation for the attendance (Pokémon or
    Magic table for 1v1; for pods, see :mod:`tournaments.pairing.topcut`).
    1v1: a seeded bracket, seed 1 against the last seed at table 1.  Pods:
    semi-final pods filled by seed (snake), whose winners meet in a final pod;
    or, for a cut of one pod, the final straight away.  Seats by seed.
    Dropped players give their place to the next in the standings.
    """
    _ensure_can_manage(by, event)
    with transaction.atomic():
        event = _locked_event(event.pk)
        _ensure_next_round_possible(event)
        if event.top_cut_size:
            raise Conflict("The top cut has already started.", code="top_cut_started")
        swiss = selectors.swiss_rounds_paired(event)
        if swiss == 0:
            raise Conflict("Play the Swiss rounds before the top cut.", code="no_swiss_rounds")
        if swiss < event.planned_rounds:
            raise Conflict(
                f"{event.planned_rounds - swiss} planned Swiss round(s) remain: play them, "
                "or lower the number of planned rounds, before the top cut.",
                code="swiss_incomplete",
            )
        registrations = list(event.registrations.all())
        table = _compute_standings(event, registrations)
        pod_size = _cut_pod_size(event)
        recommended = topcut.recommended_structure(
            len(table), convention=selectors.structure_table(event), pod_size=pod_size
        )
        eligible = [s for s in table if not s.dropped]
        if size is None:
            size = recommended.top_cut
            if not size:
                raise Conflict(
                    f"No top cut is recommended for {len(table)} players ({recommended.source}): "
                    "choose a cut size or finish the event.",
                    code="no_top_cut",
                )
        allowed = topcut.cut_sizes(players=len(eligible), pod_size=pod_size)
        if size not in allowed:
            choices = ", ".join(map(str, allowed)) or "none"
            raise ApplicationError(
                f"A top cut of {size} is not possible with {len(eligible)} active players: choose {choices}.",
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
    return round_


# --- rounds: the shared steps ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _SeatInfo:
    points: int | None
    rank: int | None
    reasons: tuple[str, ...]
    cut_seed: int | None = None


def _ensure_next_round_possible(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise Conflict("The event is finished.", code="event_finished")
    missing = _tables_without_result(event)
    if missing:
        raise Conflict(_missing_message(missing), code="round_incomplete")


def _latest_round(event: Event, round_number: int) -> Round:
    latest = event.rounds.order_by("-number").first()
    if latest is None or round_number > latest.number:
        raise NotFound(f"Round {round_number} has not been paired.", code="round_not_found")
    if round_number != latest.number:
        raise Conflict(
            f"Round {round_number} is over: only the current round ({latest.number}) can change.",
            code="round_closed",
        )
    return latest


def _current_swiss_round(event: Event, round_number: int) -> tuple[Event, Round]:
    """Lock the event and return its current round, which a re-pairing or a swap may change."""
    event = _locked_event(event.pk)
    if event.status == Event.Status.FINISHED:
        raise Conflict("The event is finished.", code="event_finished")
    round_ = _latest_round(event, round_number)
    if round_.stage != Round.Stage.SWISS:
        raise Conflict("Top-cut tables follow the seeds: they cannot be re-paired or swapped.", code="top_cut_round")
    return event, round_


def _ensure_untouched(round_: Round, pods) -> None:
    """Refuse to change tables that already have a result or a game record."""
    touched = sorted(
        pods.filter(Q(result__isnull=False) | Q(games__isnull=False)).values_list("table_number", flat=True).distinct()
    )
    if touched:
        tables = ", ".join(map(str, touched))
        raise Conflict(
            f"Table(s) {tables} of round {round_.number} already have a result or a game record: "
            "changing the pairing would lose it.",
            code="round_has_results",
        )


def _cut_pod_size(event: Event) -> int | None:
    size = event.table_size
    return None if size.is_one_vs_one else size.preferred


def _start_swiss_round(event: Event, *, number: int, seed: int | None, allow_rematches: bool) -> Round:
    table_size = event.table_size
    registrations = list(event.registrations.all())
    active = [r for r in registrations if r.checked_in and not r.dropped]
    if len(active) < table_size.min:
        raise Conflict(
            f"{len(active)} active player(s): a {get_format(event.format).name} table needs at least "
            f"{table_size.min}. Check players in first.",
            code="not_enough_players",
        )
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
    try:
        result = pairing.pair_round(
            entrants, table_size=table_size, round_number=number, seed=seed,
            fixed_tables=fixed, assigned_byes=assigned, leftovers=event.pod_leftovers,
        )  # fmt: skip
    except pairing.PairingError as exc:
        raise Conflict(f"Round {number} cannot be paired: {exc}.", code="pairing_impossible") from None
    if result.rematches and table_size.is_one_vs_one and not allow_rematches:
        raise Conflict(
            f"No pairing of round {number} avoids every rematch: the best one has {result.rematches}. "
            "Pair it anyway by allowing rematches, or drop or add players first.",
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


def _start_next_cut_round(event: Event, last: Round) -> Round:
    pods = list(
        Pod.objects.filter(round=last, is_bye=False)
        .order_by("table_number")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("seat_order")))
    )
    previous = [tuple(s.player_id for s in pod.seats.all()) for pod in pods]
    if topcut.is_final(previous):
        raise Conflict("The final has been played: finish the event.", code="top_cut_complete")
    winners = [next(s.player_id for s in pod.seats.all() if s.placement == 1) for pod in pods]
    seed_of = {s.player_id: s.cut_seed for pod in pods for s in pod.seats.all()}
    tables = topcut.next_cut_round(previous, winners, seed_of, pod_size=_cut_pod_size(event))
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
    bye_points = get_format(event.format).scoring.bye_points
    round_ = Round.objects.create(
        event=event, number=number, stage=stage, seed=seed, objective=objective, rematches=rematches
    )
    pods = [Pod(round=round_, table_number=n) for n, _ in tables]
    bye_pods = [Pod(round=round_, table_number=None, is_bye=True) for _ in byes]
    Pod.objects.bulk_create(pods + bye_pods)

    def seat(pod: Pod, player_id: int, order: int, **result) -> Seat:
        i = info.get(player_id) or _SeatInfo(points=None, rank=None, reasons=())
        return Seat(
            pod=pod, round=round_, player_id=player_id, seat_order=order, points_before=i.points,
            rank_before=i.rank, cut_seed=i.cut_seed, reasons=list(i.reasons), **result,
        )  # fmt: skip

    seats = [
        seat(pod, player_id, order)
        for pod, (_, players) in zip(pods, tables, strict=True)
        for order, player_id in enumerate(players, start=1)
    ]
    seats += [seat(pod, p, 1, placement=1, points=bye_points) for pod, p in zip(bye_pods, byes, strict=True)]
    Seat.objects.bulk_create(seats)
    PodResult.objects.bulk_create(
        [PodResult(pod=pod, reported_by=None, source=PodResult.Source.BYE) for pod in bye_pods]
    )
    if byes:
        _bump_results_version(event)
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


def _rounds_text(numbers: list[int]) -> str:
    numbers = sorted(set(numbers))
    return ("round " if len(numbers) == 1 else "rounds ") + ", ".join(map(str, numbers))


def _entrants(event: Event, registrations: list[Registration], active: list[Registration]) -> list[pairing.Entrant]:
    """Build the pairing engine's input from the event's history, in a constant number of queries."""
    table = _compute_standings(event, registrations)
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


# --- results -----------------------------------------------------------------------------------


def _validate_placements(placements: Mapping[int, int], seated: list[int]) -> None:
    """Placements must name exactly the seated players and rank them like a competition (1, 1, 3)."""
    given, expected = set(placements), set(seated)
    if given != expected:
        unknown = sorted(given - expected)
        absent = sorted(expected - given)
        parts = []
        if unknown:
            parts.append(f"player(s) {', '.join(map(str, unknown))} are not seated at this table")
        if absent:
            parts.append(f"no placement for player(s) {', '.join(map(str, absent))}")
        raise ApplicationError("Placements don't match the table: " + "; ".join(parts) + ".", field="placements")
    values = sorted(placements.values())
    # Competition ranking: the k-th smallest placement is k, or equals the one before it (a tie).
    for k, value in enumerate(values, start=1):
        if value != k and (k == 1 or value != values[k - 2]):
            raise ApplicationError(
                "Placements must rank players 1, 2, ... with ties sharing a place (e.g. 1, 1, 3); "
                f"got {', '.join(map(str, values))}.",
                field="placements",
            )


def pod_result_report(
    *,
    event: Event,
    round_number: int,
    table_number: int,
    placements: Mapping[int, int],
    by,
    source: str = PodResult.Source.DASHBOARD,
) -> tuple[PodResult, bool]:
    """Record a table's result.  Returns ``(result, created)``.

    The same result reported again is accepted and changes nothing (so a
    retried request is safe); a different one is refused: corrections go
    through the organiser, never by overwriting.
    """
    _ensure_can_manage(by, event)
    with transaction.atomic():
        event = _locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished: results are closed.", code="event_finished")
        latest = event.rounds.order_by("-number").first()
        try:
            round_ = event.rounds.get(number=round_number)
        except Round.DoesNotExist:
            raise NotFound(f"Round {round_number} has not been paired.", code="round_not_found") from None
        if round_.pk != latest.pk:
            raise Conflict(
                f"Round {round_number} is closed: results can only be reported for round {latest.number}.",
                code="round_closed",
            )
        try:
            pod = round_.pods.get(table_number=table_number)
        except Pod.DoesNotExist:
            raise NotFound(f"Round {round_number} has no table {table_number}.", code="table_not_found") from None
        seats = list(pod.seats.select_for_update().order_by("seat_order"))
        placements = {int(k): int(v) for k, v in placements.items()}
        _validate_placements(placements, [s.player_id for s in seats])

        existing = PodResult.objects.filter(pod=pod).first()
        if existing is not None:
            if all(s.placement == placements[s.player_id] for s in seats):
                return existing, False
            raise Conflict(
                f"Table {table_number} of round {round_number} already has a different result. "
                "Ask the organiser to correct it.",
                code="result_exists",
            )

        fmt = get_format(event.format)
        counts = Counter(placements.values())
        if round_.stage == Round.Stage.TOP_CUT and counts[1] != 1:
            raise ApplicationError("A top-cut table needs one winner: play on until someone wins.", field="placements")
        for seat in seats:
            seat.placement = placements[seat.player_id]
            seat.points = fmt.scoring.points_for(
                table_size=len(seats), placement=seat.placement, shared=counts[seat.placement] > 1
            )
        Seat.objects.bulk_update(seats, ["placement", "points"])
        result = PodResult.objects.create(
            pod=pod, reported_by=by if by and by.is_authenticated else None, source=source
        )
        _bump_results_version(event)
        if not round_.pods.filter(result__isnull=True).exists():
            round_.completed_at = timezone.now()
            round_.save(update_fields=["completed_at"])
    transaction.on_commit(lambda: _enqueue_standings(event.pk))
    return result, True


# --- standings ---------------------------------------------------------------------------------


def _bump_results_version(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)


def _enqueue_standings(event_id: int) -> None:
    from tournaments.tasks import recompute_standings

    recompute_standings.delay(event_id)


def standings_recompute(*, event_id: int) -> int:
    """Recompute and store an event's standings; returns the results version stored.

    Safe to run twice or concurrently: it works under a lock on the event row
    and replaces the stored rows with the figures of the results as they are.
    """
    with transaction.atomic():
        try:
            event = Event.objects.select_for_update().get(pk=event_id)
        except Event.DoesNotExist:
            return 0  # deleted since the task was queued: nothing to do
        version = event.results_version
        registrations = list(event.registrations.all())
        table = _compute_standings(event, registrations)
        Standing.objects.filter(event=event).delete()
        Standing.objects.bulk_create(
            Standing(
                event=event,
                player_id=s.player_id,
                rank=s.rank,
                points=s.points,
                wins=s.wins,
                draws=s.draws,
                losses=s.losses,
                byes=s.byes,
                matches=s.matches,
                opp_match_win_pct=s.opp_match_win_pct,
                opp_opp_match_win_pct=s.opp_opp_match_win_pct,
                opp_avg_points=s.opp_avg_points,
                game_win_pct=s.game_win_pct,
                opp_game_win_pct=s.opp_game_win_pct,
                dropped=s.dropped,
                results_version=version,
            )
            for s in table
        )
        Event.objects.filter(pk=event.pk).update(standings_version=version)
    return version
