"""Results: what happened at a table, entered by staff, or reported by a player and confirmed by the others.

Terms
=====

* An **outcome** is what a result says: a *placement* per seated player (1 =
  won; equal placements = a draw or a shared place), for 1v1 optionally the
  **game score** of the match (games won, lost and drawn per player: 2-1,
  2-0, 1-1 with a drawn game), and whether the draw was **intentional** (an
  agreed draw, not played out: its unplayed games are worth no game points).
* A **staff result** (organisers, scorekeepers; judges settling a table) is
  final at once.
* A **player report** (when the event allows them) waits for every *other*
  player at the table: each **confirms** or **disputes** it.  When all have
  confirmed it becomes the table's result; a dispute, or a report that says
  something else, leaves the table **disputed** until staff enter its result,
  which **settles** it.  A report never overwrites anything.
* Staff who may settle a table may also **accept** a waiting report as it
  stands, when the other players cannot confirm it (a walk-in without an
  account, a player without a phone): it becomes the table's result as a
  confirmation would.
* A **correction** changes a recorded result of any round, with a reason,
  also after later rounds were paired (they stay as paired).

Every change is in the audit trail, and standings are asked for after commit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict, NotFound, PermissionDenied
from tournaments import audit, selectors
from tournaments.models import Event, Pod, PodResult, ResultReport, ResultResponse, Round, Seat
from tournaments.policy import Action, can, ensure, ensure_can_report_game_result
from tournaments.services._common import locked_event, shared_event

GameScore = tuple[int, int, int]

TOP_CUT_NEEDS_WINNER = gettext_lazy("A top-cut table needs one winner: play on until someone wins.")


@dataclass(frozen=True)
class Outcome:
    """A table's result as submitted (see the module docstring)."""

    placements: dict[int, int]
    games: dict[int, GameScore] | None = None
    intentional_draw: bool = False

    @classmethod
    def of(cls, placements: Mapping, games: Mapping | None = None, intentional_draw: bool = False) -> Outcome:
        """From request data: ids and numbers as the JSON gave them."""
        try:
            places = {int(k): int(v) for k, v in placements.items()}
            scores = None if games is None else {int(k): tuple(int(n) for n in v) for k, v in games.items()}
        except (TypeError, ValueError, AttributeError):
            raise ApplicationError(
                _("Placements and game scores are numbers per player id."), field="placements"
            ) from None
        if scores is not None and any(len(s) != 3 for s in scores.values()):
            raise ApplicationError(_("A game score is [won, lost, drawn] for each player."), field="games")
        return cls(places, cast("dict[int, GameScore] | None", scores), bool(intentional_draw))

    def as_json(self) -> dict:
        return {
            "placements": {str(k): v for k, v in sorted(self.placements.items())},
            "games": None if self.games is None else {str(k): list(v) for k, v in sorted(self.games.items())},
            "intentional_draw": self.intentional_draw,
        }


def _validate_placements(placements: Mapping[int, int], seated: list[int]) -> None:
    """Placements must name exactly the seated players and rank them like a competition (1, 1, 3)."""
    given, expected = set(placements), set(seated)
    if given != expected:
        unknown = sorted(given - expected)
        absent = sorted(expected - given)
        parts = []
        if unknown:
            parts.append(
                _("player(s) %(players)s are not seated at this table") % {"players": ", ".join(map(str, unknown))}
            )
        if absent:
            parts.append(_("no placement for player(s) %(players)s") % {"players": ", ".join(map(str, absent))})
        raise ApplicationError(
            _("Placements don't match the table: %(problems)s.") % {"problems": "; ".join(parts)}, field="placements"
        )
    values = sorted(placements.values())
    # Competition ranking: the k-th smallest placement is k, or equals the one before it (a tie).
    for k, value in enumerate(values, start=1):
        if value != k and (k == 1 or value != values[k - 2]):
            raise ApplicationError(
                _("Placements must rank players 1, 2, ... with ties sharing a place (e.g. 1, 1, 3); got %(values)s.")
                % {"values": ", ".join(map(str, values))},
                field="placements",
            )


def _checked(outcome: Outcome, seats: list[Seat], *, games_per_match: int, stage: str) -> Outcome:
    """The outcome, checked against the table, with an intentional draw's game score filled in (0-0-0)."""
    seated = [s.player_id for s in seats]
    _validate_placements(outcome.placements, seated)
    counts = Counter(outcome.placements.values())
    if stage == Round.Stage.TOP_CUT and counts[1] != 1:
        raise ApplicationError(str(TOP_CUT_NEEDS_WINNER), field="placements")
    one_vs_one = len(seats) == 2
    games = outcome.games
    if outcome.intentional_draw:
        if not one_vs_one:
            raise ApplicationError(_("Only a 1v1 match can be an intentional draw."), field="intentional_draw")
        if set(outcome.placements.values()) != {1}:
            raise ApplicationError(_("An intentional draw gives both players placement 1."), field="intentional_draw")
        if games is not None and any(g != (0, 0, 0) for g in games.values()):
            raise ApplicationError(_("An intentional draw is not played out: its game score is 0-0-0."), field="games")
        games = {p: (0, 0, 0) for p in seated}
    elif games is not None:
        if not one_vs_one:
            raise ApplicationError(_("Game scores are for 1v1 matches."), field="games")
        if set(games) != set(seated):
            raise ApplicationError(_("Give a game score for each of the two players."), field="games")
        a, b = seated
        (aw, al, ad), (bw, bl, bd) = games[a], games[b]
        if min(aw, al, ad, bw, bl, bd) < 0:
            raise ApplicationError(_("Game counts are 0 or more."), field="games")
        if (aw, al, ad) != (bl, bw, bd):
            raise ApplicationError(
                _("The two game scores must mirror each other (2-1 for one is 1-2 for the other)."), field="games"
            )
        needed = games_per_match // 2 + 1
        if max(aw, bw) > needed:
            raise ApplicationError(
                _("A match is won with %(needed)s game win(s): no one wins more.") % {"needed": needed}, field="games"
            )
        if aw == bw == 0 and ad == 0:
            raise ApplicationError(
                _("A played match has at least one game: 0-0-0 is an intentional draw."), field="games"
            )
        said = "won" if aw > bw else "lost" if aw < bw else "drew"
        placed = outcome.placements[a] < outcome.placements[b], outcome.placements[a] > outcome.placements[b]
        meant = "won" if placed[0] else "lost" if placed[1] else "drew"
        if said != meant:
            raise ApplicationError(
                _("The game score and the placements disagree about who won the match."), field="games"
            )
    return Outcome(outcome.placements, games, outcome.intentional_draw)


def _seat_games(seat: Seat) -> GameScore | None:
    if seat.games_won is None:
        return None
    return cast(GameScore, (seat.games_won, seat.games_lost, seat.games_drawn))  # the three are set together


def _recorded(seats: list[Seat], result: PodResult | None) -> Outcome:
    scores = {s.player_id: _seat_games(s) for s in seats}
    games = None if None in scores.values() else cast("dict[int, GameScore]", scores)
    return Outcome(
        {s.player_id: cast(int, s.placement) for s in seats},  # a table with a result has every placement
        games,
        bool(result and result.intentional_draw),
    )


def _same(outcome: Outcome, recorded: Outcome) -> bool:
    """The same result: placements equal, and game scores too where both give them."""
    if outcome.placements != recorded.placements or outcome.intentional_draw != recorded.intentional_draw:
        return False
    return outcome.games is None or recorded.games is None or outcome.games == recorded.games


def _apply(event: Event, round_: Round, seats: list[Seat], outcome: Outcome) -> None:
    """Write the outcome onto the seats: placement, match points and game score."""
    fmt = event.format_spec
    counts = Counter(outcome.placements.values())
    fields = ["placement", "points"]
    for seat in seats:
        seat.placement = outcome.placements[seat.player_id]
        seat.points = fmt.scoring.points_for(
            table_size=len(seats), placement=seat.placement, shared=counts[seat.placement] > 1
        )
        score = (outcome.games or {}).get(seat.player_id)
        games = score if score is not None else (None, None, None)
        if games != (seat.games_won, seat.games_lost, seat.games_drawn):
            seat.games_won, seat.games_lost, seat.games_drawn = games
            fields[2:] = ["games_won", "games_lost", "games_drawn"]
    # Only the columns that change: a result without game scores writes two (the hot path of a big event).
    _seats_write(seats, fields)


def _seats_write(seats: list[Seat], fields: list[str]) -> None:
    """Write ``fields`` of the seats in one statement.

    On PostgreSQL a plain ``UPDATE ... FROM (VALUES ...)``: what ``bulk_update`` sends is the same one statement,
    but building its ``CASE WHEN`` per column and seat cost a staff result more of the web worker's CPU than any
    other statement it makes.  Every column written is a small integer, or null."""
    if connection.vendor != "postgresql":
        Seat.objects.bulk_update(seats, fields)
        return
    quote = connection.ops.quote_name
    rows = ", ".join(["(%s" + ", %s::smallint" * len(fields) + ")"] * len(seats))
    sets = ", ".join(f"{quote(f)} = v.{quote(f)}" for f in fields)
    names = ", ".join(quote(f) for f in fields)
    params = [value for seat in seats for value in (seat.pk, *(getattr(seat, f) for f in fields))]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(Seat._meta.db_table)} AS s SET {sets} FROM (VALUES {rows}) AS v (id, {names}) "  # noqa: S608
            "WHERE s.id = v.id",
            params,
        )


def _result_facts(event: Event, seats: list[Seat]) -> dict:
    """What a result's readers need, from the seats as written: the live push's players (no second read of the
    table) and the event's format (the ratings' key)."""
    return {
        "format": event.format,
        "players": [
            {"id": s.player_id, "name": s.player.display_name, "placement": s.placement, "games_won": s.games_won,
             "games_lost": s.games_lost, "games_drawn": s.games_drawn}
            for s in seats
        ],
    }  # fmt: skip


def _finish_table(event: Event, round_: Round) -> None:
    """Close the round when its last table is in, and record ``round.completed`` (once: its clock stops).

    Call it at the end of the transaction, after recording the result's
    domain event: its standings handler bumps the event's results version,
    which waits for any other report's commit, so the check below sees every
    other table's result.
    """
    if Pod.objects.filter(round=round_, result__isnull=True).exists():
        return
    if Round.objects.filter(pk=round_.pk, completed_at__isnull=True).update(completed_at=timezone.now()):
        events.record(
            action=DomainAction.ROUND_COMPLETED, event=event, subject=f"Round {round_.number}", audit=False,
            round=round_.number,
        )  # fmt: skip


def _table(event: Event, round_number: int, table_number: int, *, latest_only: bool = True):
    """The round and the table's seats (locked), with the pod, its result and the players loaded.

    Two queries: the seats, locked, with their round, players and whether a later round is paired; then the
    table with its result (see below).  A round or table that is not there costs one more, to say which."""
    seats, later_round = selectors.table_seats_locked(event=event, number=round_number, table=table_number)
    rounds = [seats[0].round] if seats else list(event.rounds.filter(number=round_number))
    if not rounds:
        raise NotFound(_("Round %(round)s has not been paired.") % {"round": round_number}, code="round_not_found")
    round_ = rounds[0]
    round_.event = event
    if latest_only and (later_round if seats else event.rounds.filter(number__gt=round_number).exists()):
        latest = selectors.event_latest_round_number(event=event)
        raise Conflict(
            _("Round %(round)s is closed: results can only be reported for round %(latest)s.")
            % {"round": round_number, "latest": latest},
            code="round_closed",
        )
    if not seats:
        raise NotFound(
            _("Round %(round)s has no table %(table)s.") % {"round": round_number, "table": table_number},
            code="table_not_found",
        )
    for seat in seats:
        seat.round = round_
    # Read once the seats are ours: a result joined into the locking query would be as it was before the
    # wait (PostgreSQL re-reads only the locked rows), and one committed meanwhile would go unseen.  One query:
    # the table, its result, and whether it has an open report (locked by _open_report when it has).
    pod = selectors.table_with_result(pod_id=seats[0].pod_id, open_statuses=OPEN_REPORT)
    pod.round = round_
    for seat in seats:
        seat.pod = pod
    setattr(pod, selectors.SEATS_ATTR, seats)  # the answer is built from them (selectors.pod_answered)
    return round_, pod, seats


OPEN_REPORT = [ResultReport.Status.PENDING, ResultReport.Status.DISPUTED]


def _open_report(pod: Pod) -> ResultReport | None:
    """The table's open report, locked: its row only (the model's ordering joins the event, whose row a
    plain ``FOR UPDATE`` would lock too, deadlocking with a report of the same table that holds it shared).

    No query when :func:`_table` found none: it looked with the table's seats locked, and a report is only
    opened by someone holding them."""
    if getattr(pod, "open_report_id", 0) is None:
        return None
    return (
        ResultReport.objects.select_for_update(of=("self",))
        .filter(pod=pod, status__in=OPEN_REPORT)
        .order_by("pk")
        .first()
    )


def pod_result_check(
    *, pod: Pod, placements: Mapping, games: Mapping | None = None, intentional_draw: bool = False
) -> None:
    """Refuse an outcome the table could not take as its result, recording nothing.

    The games app asks it inside the transaction of a judge's entry that ends
    a game (or decides a match), before it reports the result in the same
    transaction, so a game never ends with a result its table then refuses.  A top-cut table without one
    winner is refused with ``top_cut_needs_winner`` (and the rule, like the
    engine's refusals); any other fault of the outcome as
    :func:`pod_result_report` would refuse it.
    """
    outcome = Outcome.of(placements, games, intentional_draw)
    round_ = pod.round
    if round_.stage == Round.Stage.TOP_CUT and Counter(outcome.placements.values())[1] != 1:
        raise ApplicationError(
            str(TOP_CUT_NEEDS_WINNER), code="top_cut_needs_winner", extra={"rule": "tournament rules"}
        )
    seats = list(pod.seats.order_by("seat_order"))
    _checked(outcome, seats, games_per_match=round_.event.format_spec.games_per_match, stage=round_.stage)


# --- staff --------------------------------------------------------------------------------------


def pod_result_report(
    *,
    event: Event,
    round_number: int,
    table_number: int,
    placements: Mapping[int, int],
    by,
    source: str = PodResult.Source.DASHBOARD,
    games: Mapping | None = None,
    intentional_draw: bool = False,
) -> tuple[PodResult, bool]:
    """Record a table's result as staff: final at once.  Returns ``(result, created)``.

    Organisers and scorekeepers; judges too for a table whose player report
    is disputed or waiting (they settle it).  A result a finished game
    produces (``source`` game) names the judge who recorded the game: anyone
    who may record games reports it
    (:func:`tournaments.policy.can_report_game_result`).  The same result
    entered again is accepted and changes nothing (so a retried request is
    safe); a different one is refused: that is a correction
    (:func:`result_correct`).
    """
    outcome = Outcome.of(placements, games, intentional_draw)
    with transaction.atomic():
        # Reports of other tables go on in parallel; pairing, re-pairing and finishing wait for this one.
        event = shared_event(event.pk)
        from_game = source == PodResult.Source.GAME
        if from_game:
            ensure_can_report_game_result(by, event)
        elif not can(by, Action.ENTER_RESULTS, event) and not can(by, Action.SETTLE_DISPUTES, event):
            ensure(by, Action.ENTER_RESULTS, event)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished: results are closed."), code="event_finished")
        round_, pod, seats = _table(event, round_number, table_number)
        existing = getattr(pod, "result", None)
        # A recorded result settled or confirmed any report: look for an open one only without it.
        report = _open_report(pod) if existing is None else None
        if not from_game and not can(by, Action.ENTER_RESULTS, event) and report is None:
            raise PermissionDenied(_("Judges enter the result of a disputed or unconfirmed table only."))
        outcome = _checked(outcome, seats, games_per_match=event.format_spec.games_per_match, stage=round_.stage)
        if existing is not None:
            if _same(outcome, _recorded(seats, existing)):
                return existing, False
            raise Conflict(
                _("Table %(table)s of round %(round)s already has a different result: correct it instead.")
                % {"table": table_number, "round": round_number},
                code="result_exists",
            )
        _apply(event, round_, seats, outcome)
        result = PodResult.objects.create(
            pod=pod, reported_by=by if by and by.is_authenticated else None, source=source,
            intentional_draw=outcome.intentional_draw,
        )  # fmt: skip
        if report is not None:
            report.status, report.resolved_at = ResultReport.Status.SETTLED, timezone.now()
            report.save(update_fields=["status", "resolved_at"])
        events.record(
            event=event, by=by,
            action=DomainAction.RESULT_SETTLED if report is not None else DomainAction.RESULT_ENTERED,
            subject=audit.table_label(round_number, table_number), after=outcome.as_json(),
            round=round_number, table=table_number, pod_id=pod.pk, **_result_facts(event, seats),
        )  # fmt: skip
        _finish_table(event, round_)
    return result, True


# --- players ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReportAnswer:
    """What a player's report or answer did: the table's result if it is final now, else the open report."""

    result: PodResult | None
    report: ResultReport | None
    #: "pending" (waiting for confirmations), "confirmed" (final now), "disputed", or "unchanged".
    state: str


def _seat_of(by, seats: list[Seat]) -> Seat:
    for seat in seats:
        if by is not None and by.is_authenticated and seat.player.user_id == by.pk:
            return seat
    raise PermissionDenied(_("Only the players at this table may report or confirm its result."), code="not_at_table")


def _ensure_published(round_: Round) -> None:
    """Players report and confirm only what they can see: a staged round waits for the staff to publish it."""
    if not round_.published:
        raise Conflict(
            _("Round %(round)s is not published yet: the staff publish it before players report.")
            % {"round": round_.number},
            code="round_not_published",
        )


def _agreed_by_all(report: ResultReport, seats: list[Seat]) -> bool:
    agreed = set(report.responses.filter(agrees=True).values_list("player_id", flat=True)) | {report.player_id}
    return {s.player_id for s in seats} <= agreed


def _confirm(
    event: Event,
    round_: Round,
    seats: list[Seat],
    report: ResultReport,
    by,
    *,
    source: str = PodResult.Source.PLAYERS,
    reason: str = "",
) -> PodResult:
    outcome = Outcome.of(report.placements, report.games, report.intentional_draw)
    _apply(event, round_, seats, outcome)
    result = PodResult.objects.create(
        pod=seats[0].pod, reported_by=report.user, source=source, intentional_draw=outcome.intentional_draw,
    )  # fmt: skip
    report.status, report.resolved_at = ResultReport.Status.CONFIRMED, timezone.now()
    report.save(update_fields=["status", "resolved_at"])
    events.record(
        event=event, by=by, action=DomainAction.RESULT_CONFIRMED,
        subject=audit.table_label(round_.number, seats[0].pod.table_number), after=outcome.as_json(), reason=reason,
        round=round_.number, table=seats[0].pod.table_number, pod_id=seats[0].pod_id, **_result_facts(event, seats),
    )  # fmt: skip
    _finish_table(event, round_)
    return result


def result_player_report(
    *,
    event: Event,
    round_number: int,
    table_number: int,
    placements: Mapping,
    by,
    games: Mapping | None = None,
    intentional_draw: bool = False,
) -> ReportAnswer:
    """A player at the table reports its result; the other players confirm it.

    If another player's report is already open, the same outcome confirms it
    and a different one disputes it.  Refused when the event does not take
    player reports (``player_reports_off``), for anyone not seated at the
    table (403 ``not_at_table``), and for a table with a result already
    (``result_exists``, or unchanged when it is the same).
    """
    outcome = Outcome.of(placements, games, intentional_draw)
    with transaction.atomic():
        event = shared_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished: results are closed."), code="event_finished")
        if not event.player_reports:
            raise Conflict(_("This event takes results from its staff only."), code="player_reports_off")
        round_, pod, seats = _table(event, round_number, table_number)
        seat = _seat_of(by, seats)
        _ensure_published(round_)
        outcome = _checked(outcome, seats, games_per_match=event.format_spec.games_per_match, stage=round_.stage)
        existing = getattr(pod, "result", None)
        if existing is not None:
            if _same(outcome, _recorded(seats, existing)):
                return ReportAnswer(existing, None, "unchanged")
            raise Conflict(
                _("This table's result is recorded already: ask a judge to correct it."), code="result_exists"
            )
        subject = audit.table_label(round_number, table_number)
        report = _open_report(pod)
        if report is None:
            report = ResultReport.objects.create(
                pod=pod, player=seat.player, user=by, placements=outcome.as_json()["placements"],
                games=outcome.as_json()["games"], intentional_draw=outcome.intentional_draw,
            )  # fmt: skip
            events.record(
                event=event, by=by, action=DomainAction.RESULT_REPORTED, subject=subject, after=outcome.as_json(),
                round=round_number, table=table_number,
            )  # fmt: skip
            return ReportAnswer(None, report, ResultReport.Status.PENDING)
        if report.player_id == seat.player_id or report.responses.filter(player_id=seat.player_id).exists():
            same = _same(outcome, Outcome.of(report.placements, report.games, report.intentional_draw))
            if same:
                return ReportAnswer(None, report, "unchanged")
            raise Conflict(
                _("You have answered for this table already: a judge will settle it."), code="already_answered"
            )
        return _respond(event, round_, seats, report, seat, by, outcome=outcome)


def result_respond(*, event: Event, round_number: int, table_number: int, agrees: bool, by) -> ReportAnswer:
    """Another player at the table confirms (``agrees``) or disputes the open report of its result."""
    with transaction.atomic():
        event = shared_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished: results are closed."), code="event_finished")
        round_, pod, seats = _table(event, round_number, table_number)
        seat = _seat_of(by, seats)
        _ensure_published(round_)
        report = _open_report(pod)
        if report is None:
            if getattr(pod, "result", None) is not None:
                raise Conflict(_("This table's result is recorded already."), code="result_exists")
            raise NotFound(_("Nobody has reported this table's result yet."), code="no_report")
        if report.player_id == seat.player_id:
            raise Conflict(_("You reported this result: the other players confirm it."), code="own_report")
        if report.responses.filter(player_id=seat.player_id).exists():
            raise Conflict(_("You have answered for this table already."), code="already_answered")
        return _respond(event, round_, seats, report, seat, by, agrees=agrees)


def _respond(
    event: Event,
    round_: Round,
    seats: list[Seat],
    report: ResultReport,
    seat: Seat,
    by,
    *,
    agrees: bool | None = None,
    outcome: Outcome | None = None,
) -> ReportAnswer:
    """Record a player's answer: an explicit one, or a report of their own compared with the open one."""
    subject = audit.table_label(round_.number, seats[0].pod.table_number)
    if outcome is not None:
        agrees = _same(outcome, Outcome.of(report.placements, report.games, report.intentional_draw))
    if agrees is None:
        raise TypeError("give the player's answer (agrees) or their own report (outcome)")
    claim = outcome.as_json() if outcome is not None and not agrees else {}
    ResultResponse.objects.create(
        report=report, player=seat.player, agrees=agrees, placements=claim.get("placements"), games=claim.get("games")
    )
    if not agrees:
        report.status = ResultReport.Status.DISPUTED
        report.save(update_fields=["status"])
        events.record(
            event=event, by=by, action=DomainAction.RESULT_DISPUTED, subject=subject,
            before={"reported": Outcome.of(report.placements, report.games, report.intentional_draw).as_json()},
            after={"says": claim or None}, round=round_.number, table=seats[0].pod.table_number,
        )  # fmt: skip
        return ReportAnswer(None, report, ResultReport.Status.DISPUTED)
    events.record(
        event=event, by=by, action=DomainAction.RESULT_AGREED, subject=subject, round=round_.number,
        table=seats[0].pod.table_number,
    )  # fmt: skip
    if report.status == ResultReport.Status.PENDING and _agreed_by_all(report, seats):
        result = _confirm(event, round_, seats, report, by)
        return ReportAnswer(result, report, ResultReport.Status.CONFIRMED)
    return ReportAnswer(None, report, report.status)


def result_report_accept(*, event: Event, round_number: int, table_number: int, by) -> ReportAnswer:
    """Staff accept a table's waiting player report as it stands: it becomes the table's result.

    For a report the other players cannot confirm (a walk-in has no account).
    Those who may settle a table (:data:`~tournaments.policy.Action.SETTLE_DISPUTES`:
    organisers, scorekeepers, judges).  The result is the report's, reported by
    its player (source ``accepted``); the audit trail and the domain events
    are a confirmation's (``result.confirmed``), by the staff member, naming
    who had not confirmed.  A disputed report is settled by entering the
    result instead (``report_disputed``); none open: ``no_report``; a table
    with its result: ``result_exists``.
    """
    ensure(by, Action.SETTLE_DISPUTES, event)
    with transaction.atomic():
        event = shared_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished: results are closed."), code="event_finished")
        round_, pod, seats = _table(event, round_number, table_number)
        if getattr(pod, "result", None) is not None:
            raise Conflict(_("This table's result is recorded already."), code="result_exists")
        report = _open_report(pod)
        if report is None:
            raise NotFound(_("Nobody has reported this table's result yet."), code="no_report")
        if report.status == ResultReport.Status.DISPUTED:
            raise Conflict(
                _("The players disagree about this table: enter its result to settle it."), code="report_disputed"
            )
        # The table may have changed since the report (a swap): the report must still fit it.
        _checked(
            Outcome.of(report.placements, report.games, report.intentional_draw), seats,
            games_per_match=event.format_spec.games_per_match, stage=round_.stage,
        )  # fmt: skip
        agreed = set(report.responses.filter(agrees=True).values_list("player_id", flat=True)) | {report.player_id}
        waiting = [audit.player_label(s.player) for s in seats if s.player_id not in agreed]
        reason = f"Accepted by staff as reported; not confirmed by {', '.join(waiting)}." if waiting else ""
        result = _confirm(event, round_, seats, report, by, source=PodResult.Source.ACCEPTED, reason=reason)
    return ReportAnswer(result, report, ResultReport.Status.CONFIRMED)


# --- corrections --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Correction:
    result: PodResult
    #: Rounds paired after the corrected one: they stay as they were paired.
    later_rounds: list[int]


def result_correct(
    *,
    event: Event,
    round_number: int,
    table_number: int,
    placements: Mapping,
    reason: str,
    by,
    games: Mapping | None = None,
    intentional_draw: bool = False,
) -> Correction:
    """Correct a recorded result of any round, with a reason; standings are recomputed.

    Organisers and scorekeepers; once the event is finished, its organiser
    only.  Rounds paired since stay as they are (the answer lists them).  A
    top-cut table whose winner already plays the next cut round cannot change
    (``cut_advanced``).
    """
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("Say why the result is corrected."), field="reason")
    outcome = Outcome.of(placements, games, intentional_draw)
    ensure(by, Action.CORRECT_RESULTS, event)
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            ensure(by, Action.CORRECT_FINISHED, event)
        round_, pod, seats = _table(event, round_number, table_number, latest_only=False)
        result = getattr(pod, "result", None)
        if result is None or pod.is_bye:
            raise Conflict(_("This table has no result to correct: enter it instead."), code="no_result")
        outcome = _checked(outcome, seats, games_per_match=event.format_spec.games_per_match, stage=round_.stage)
        later = list(event.rounds.filter(number__gt=round_number).order_by("number").values_list("number", flat=True))
        if round_.stage == Round.Stage.TOP_CUT and later:
            raise Conflict(
                _("The next cut round is paired from this table's winner: it cannot change now."), code="cut_advanced"
            )
        before = _recorded(seats, result)
        if _same(outcome, before) and outcome.games == before.games:
            return Correction(result, later)
        _apply(event, round_, seats, outcome)
        result.intentional_draw = outcome.intentional_draw
        result.corrected_at, result.corrected_by = timezone.now(), by
        result.save(update_fields=["intentional_draw", "corrected_at", "corrected_by"])
        events.record(
            event=event, by=by, action=DomainAction.RESULT_CORRECTED,
            subject=audit.table_label(round_number, table_number), before=before.as_json(),
            after={**outcome.as_json(), "rounds_paired_since": later}, reason=reason,
            round=round_number, table=table_number, pod_id=pod.pk, **_result_facts(event, seats),
        )  # fmt: skip
    return Correction(result, later)
