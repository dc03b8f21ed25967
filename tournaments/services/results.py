"""Results: a table's placements, checked against the seats and scored by the format."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone

from core.exceptions import ApplicationError, Conflict, NotFound
from games.formats import get_format
from tournaments.models import Event, Pod, PodResult, Round, Seat
from tournaments.policy import ensure_can_manage_event
from tournaments.services._common import shared_event
from tournaments.services.standings import bump_results_version, request_standings


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
    ensure_can_manage_event(by, event)
    placements = {int(k): int(v) for k, v in placements.items()}
    with transaction.atomic():
        # Reports of other tables go on in parallel; pairing, re-pairing and finishing wait for this one.
        event = shared_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished: results are closed.", code="event_finished")
        rounds = list(event.rounds.filter(number__gte=round_number).order_by("number")[:2])
        if not rounds or rounds[0].number != round_number:
            raise NotFound(f"Round {round_number} has not been paired.", code="round_not_found")
        round_ = rounds[0]
        if len(rounds) > 1:
            latest = event.rounds.order_by("-number").values_list("number", flat=True).first()
            raise Conflict(
                f"Round {round_number} is closed: results can only be reported for round {latest}.",
                code="round_closed",
            )
        seats = list(
            Seat.objects.select_for_update(of=("self",))
            .select_related("pod", "pod__result")
            .filter(round=round_, pod__table_number=table_number)
            .order_by("seat_order")
        )
        if not seats:
            raise NotFound(f"Round {round_number} has no table {table_number}.", code="table_not_found")
        pod = seats[0].pod
        _validate_placements(placements, [s.player_id for s in seats])

        existing = getattr(pod, "result", None)  # loaded with the seats
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
        # The only step reports of one event take in turn, kept to the end of the transaction: bumping the
        # version waits for any other report's commit, so the check below sees every other table's result.
        bump_results_version(event)
        if not Pod.objects.filter(round=round_, result__isnull=True).exists():
            Round.objects.filter(pk=round_.pk).update(completed_at=timezone.now())
    request_standings(event.pk)
    return result, True
