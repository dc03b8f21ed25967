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

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from core.exceptions import ApplicationError, Conflict, NotFound, PermissionDenied
from games.formats import UnknownFormat, get_format
from tournaments import pairing, standings
from tournaments.models import Event, Player, Pod, PodResult, Registration, Round, Seat, Standing

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
) -> Event:
    if not (organiser and organiser.is_authenticated):
        raise PermissionDenied("Sign in to create an event.")
    try:
        get_format(format)
    except UnknownFormat:
        raise ApplicationError(f"Unknown format {format!r}.", code="unknown_format", field="format") from None
    if not name.strip():
        raise ApplicationError("An event needs a name.", field="name")
    if not 1 <= planned_rounds <= 30:
        raise ApplicationError("Planned rounds must be between 1 and 30.", field="planned_rounds")
    if tiebreakers not in Event.Tiebreakers.values:
        raise ApplicationError(f"Unknown tiebreakers {tiebreakers!r}.", field="tiebreakers")
    return Event.objects.create(
        organiser=organiser,
        name=name.strip(),
        format=format,
        planned_rounds=planned_rounds,
        date=date,
        venue=venue,
        tiebreakers=tiebreakers,
    )


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
    """Register an existing player, or a new one by name (and optional external id)."""
    _ensure_can_manage(by, event)
    if event.status == Event.Status.FINISHED:
        raise Conflict("The event is finished: registration is closed.", code="event_finished")
    with transaction.atomic():
        if player is None:
            external_id = (external_id or "").strip() or None
            existing = Player.objects.filter(external_id=external_id).first() if external_id else None
            player = existing or player_create(display_name=display_name, external_id=external_id)
        if Registration.objects.filter(event=event, player=player).exists():
            raise Conflict(f"{player} is already registered for this event.", code="already_registered", field="player")
        try:
            with transaction.atomic():
                return Registration.objects.create(event=event, player=player, checked_in=checked_in)
        except IntegrityError:
            raise Conflict(
                f"{player} is already registered for this event.", code="already_registered", field="player"
            ) from None


def registration_check_in(*, registration: Registration, by, checked_in: bool = True) -> Registration:
    _ensure_can_manage(by, registration.event)
    if registration.event.status == Event.Status.FINISHED:
        raise Conflict("The event is finished.", code="event_finished")
    if registration.checked_in != checked_in:
        registration.checked_in = checked_in
        registration.save(update_fields=["checked_in"])
    return registration


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
    """Every reported table of the event, as the standings engine's input (one query)."""
    rows = (
        Seat.objects.filter(round__event_id=event_id, placement__isnull=False)
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
    return standings.compute_standings(
        player_ids,
        results,
        scoring=fmt.scoring,
        multiplayer=not fmt.is_one_vs_one,
        dropped=[r.player_id for r in registrations if r.dropped],
        convention=event.tiebreakers,
    )


def round_start(*, event: Event, by, seed: int | None = None) -> Round:
    """Pair and seat the next round of ``event`` in one transaction.

    Refused when the event is finished, the previous round has tables without a
    result, every planned round has been played, or too few players are active
    (checked in and not dropped).
    """
    _ensure_can_manage(by, event)
    with transaction.atomic():
        event = _locked_event(event.pk)
        fmt = get_format(event.format)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished.", code="event_finished")
        missing = _tables_without_result(event)
        if missing:
            raise Conflict(_missing_message(missing), code="round_incomplete")
        last_number = event.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        if last_number >= event.planned_rounds:
            raise Conflict(
                f"All {event.planned_rounds} planned rounds have been played: finish the event, "
                "or raise the number of planned rounds.",
                code="rounds_complete",
            )
        registrations = list(event.registrations.all())
        active = [r for r in registrations if r.checked_in and not r.dropped]
        if len(active) < fmt.table_size.min:
            raise Conflict(
                f"{len(active)} active player(s): a {fmt.name} table needs at least {fmt.table_size.min}. "
                "Check players in first.",
                code="not_enough_players",
            )

        entrants = _entrants(event, registrations, active)
        seed = secrets.randbits(62) if seed is None else seed
        number = last_number + 1
        result = pairing.pair_round(entrants, table_size=fmt.table_size, round_number=number, seed=seed)

        round_ = Round.objects.create(event=event, number=number, seed=seed, rematches=result.rematches)
        pods = [Pod(round=round_, table_number=t.number) for t in result.tables]
        pods += [Pod(round=round_, table_number=None, is_bye=True) for _ in result.byes]
        Pod.objects.bulk_create(pods)
        seats = [
            Seat(pod=pod, round=round_, player_id=player_id, seat_order=order)
            for pod, table in zip(pods, result.tables, strict=False)
            for order, player_id in enumerate(table.seats, start=1)
        ]
        bye_pods = pods[len(result.tables) :]
        seats += [
            Seat(pod=pod, round=round_, player_id=player_id, seat_order=1, placement=1, points=fmt.scoring.bye_points)
            for pod, player_id in zip(bye_pods, result.byes, strict=True)
        ]
        Seat.objects.bulk_create(seats)
        PodResult.objects.bulk_create(
            [PodResult(pod=pod, reported_by=None, source=PodResult.Source.BYE) for pod in bye_pods]
        )
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
        if result.byes:
            _bump_results_version(event)
    transaction.on_commit(lambda: _enqueue_standings(event.pk))
    return round_


def _entrants(event: Event, registrations: list[Registration], active: list[Registration]) -> list[pairing.Entrant]:
    """Build the pairing engine's input from the event's history, in a constant number of queries."""
    table = _compute_standings(event, registrations)
    by_player = {s.player_id: s for s in table}
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: Counter[int] = Counter()
    first_seats: Counter[int] = Counter()
    pod_players: dict[int, list[int]] = defaultdict(list)
    rows = (
        Seat.objects.filter(round__event=event)
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
