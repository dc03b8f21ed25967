"""State changes of the live app: the round timer, tables' extra time, stream stations, overlay tokens.

Each service asks :mod:`tournaments.policy`, checks the state, writes in one
transaction and records a domain event (:mod:`core.events`); the live push
(:mod:`live.readers`) and the audit trail follow those.  A timer operation on a
round that is over (every table has its result, a later round has started, or
the event is finished) is refused with 409 ``round_finished``.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict, NotFound
from live.models import (
    TOKEN_PREFIX_LENGTH,
    OverlayToken,
    RoundTimer,
    Station,
    TableTimeExtension,
    new_token_key,
    token_digest,
)
from tournaments import audit
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Pod, PodResult, Registration, Round
from tournaments.policy import Action, can, ensure
from tournaments.selectors import people as people_selectors
from tournaments.services._common import shared_event

#: A round's length: 1 minute to 4 hours; extra time for the round or a table: 1 to 60 minutes.
MAX_ROUND_MINUTES = 240
MAX_EXTRA_MINUTES = 60
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

_UNSET: Any = object()


# --- the round timer ----------------------------------------------------------------------------------------------


def _round(event: Event, round_number: int) -> Round:
    round_ = Round.objects.filter(event=event, number=round_number).first()
    if round_ is None:
        raise NotFound(_("Round %(round)s has not been paired.") % {"round": round_number}, code="round_not_found")
    return round_


def _ensure_round_running(event: Event, round_: Round) -> None:
    """Refuse a timer operation on a round that is over."""
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("The event is finished: its rounds have no clock any more."), code="round_finished")
    if Round.objects.filter(event=event, number__gt=round_.number).exists():
        raise Conflict(
            _("Round %(round)s is over: a later round has started.") % {"round": round_.number}, code="round_finished"
        )
    if not Pod.objects.filter(round=round_, is_bye=False, result__isnull=True).exists():
        raise Conflict(
            _("Round %(round)s is over: every table has its result.") % {"round": round_.number}, code="round_finished"
        )


def _minutes(value: int, *, maximum: int, field: str = "minutes") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ApplicationError(
            _("Give a whole number of minutes from 1 to %(maximum)s.") % {"maximum": maximum}, field=field
        )
    return value


def _locked_timer(round_: Round) -> RoundTimer | None:
    return RoundTimer.objects.select_for_update().filter(round=round_).first()


def _timer_facts(timer: RoundTimer) -> dict[str, Any]:
    return {
        "minutes": timer.duration_seconds // 60,
        "deadline": timer.deadline.isoformat() if timer.deadline else None,
        "remaining_seconds": timer.remaining(),
    }


def _record_timer(*, action: DomainAction, event: Event, round_: Round, timer: RoundTimer, by, before=None) -> None:
    events.record(
        action=action, event=event, by=by, subject=f"Round {round_.number} timer", before=before,
        after=_timer_facts(timer), round=round_.number,
    )  # fmt: skip


def timer_start(*, event: Event, round_number: int, minutes: int, by) -> RoundTimer:
    """Start the round's clock: time is up ``minutes`` from now."""
    ensure(by, Action.RUN_TIMER, event)
    minutes = _minutes(minutes, maximum=MAX_ROUND_MINUTES)
    with transaction.atomic():
        event = shared_event(event.pk)
        round_ = _round(event, round_number)
        _ensure_round_running(event, round_)
        if _locked_timer(round_) is not None:
            raise Conflict(
                _("The clock of round %(round)s has already started.") % {"round": round_number}, code="timer_started"
            )
        now = timezone.now()
        try:
            with transaction.atomic():
                timer = RoundTimer.objects.create(
                    round=round_, duration_seconds=minutes * 60, started_at=now,
                    deadline=now + datetime.timedelta(minutes=minutes),
                )  # fmt: skip
        except IntegrityError:
            raise Conflict(
                _("The clock of round %(round)s has already started.") % {"round": round_number}, code="timer_started"
            ) from None
        _record_timer(action=DomainAction.TIMER_STARTED, event=event, round_=round_, timer=timer, by=by)
    return timer


def _running_timer(event: Event, round_number: int) -> tuple[Event, Round, RoundTimer]:
    event = shared_event(event.pk)
    round_ = _round(event, round_number)
    _ensure_round_running(event, round_)
    timer = _locked_timer(round_)
    if timer is None:
        raise Conflict(
            _("The clock of round %(round)s has not started.") % {"round": round_number}, code="timer_not_started"
        )
    return event, round_, timer


def timer_pause(*, event: Event, round_number: int, by) -> RoundTimer:
    """Stop the clock where it is (a deck check, an announcement)."""
    ensure(by, Action.RUN_TIMER, event)
    with transaction.atomic():
        event, round_, timer = _running_timer(event, round_number)
        if timer.paused:
            raise Conflict(
                _("The clock of round %(round)s is already paused.") % {"round": round_number}, code="timer_paused"
            )
        before = _timer_facts(timer)
        timer.remaining_seconds = timer.remaining()
        timer.deadline = None
        timer.save(update_fields=["remaining_seconds", "deadline", "updated_at"])
        _record_timer(action=DomainAction.TIMER_PAUSED, event=event, round_=round_, timer=timer, by=by, before=before)
    return timer


def timer_resume(*, event: Event, round_number: int, by) -> RoundTimer:
    """Let the paused clock run again from where it stopped."""
    ensure(by, Action.RUN_TIMER, event)
    with transaction.atomic():
        event, round_, timer = _running_timer(event, round_number)
        if not timer.paused:
            raise Conflict(
                _("The clock of round %(round)s is running.") % {"round": round_number}, code="timer_running"
            )
        before = _timer_facts(timer)
        timer.deadline = timezone.now() + datetime.timedelta(seconds=timer.remaining())
        timer.remaining_seconds = None
        timer.save(update_fields=["remaining_seconds", "deadline", "updated_at"])
        _record_timer(action=DomainAction.TIMER_RESUMED, event=event, round_=round_, timer=timer, by=by, before=before)
    return timer


def timer_extend(*, event: Event, round_number: int, minutes: int, by) -> RoundTimer:
    """Give the whole round ``minutes`` more (running or paused; also after time was up)."""
    ensure(by, Action.RUN_TIMER, event)
    minutes = _minutes(minutes, maximum=MAX_EXTRA_MINUTES)
    with transaction.atomic():
        event, round_, timer = _running_timer(event, round_number)
        before = _timer_facts(timer)
        extra = datetime.timedelta(minutes=minutes)
        if timer.paused:
            timer.remaining_seconds = timer.remaining() + minutes * 60
        else:
            assert timer.deadline is not None
            timer.deadline = timer.deadline + extra
        timer.duration_seconds += minutes * 60
        timer.save(update_fields=["remaining_seconds", "deadline", "duration_seconds", "updated_at"])
        _record_timer(action=DomainAction.TIMER_EXTENDED, event=event, round_=round_, timer=timer, by=by, before=before)
    return timer


def table_time_extend(
    *, event: Event, round_number: int, table_number: int, minutes: int, reason: str, by
) -> TableTimeExtension:
    """A judge gives one table extra time (a ruling, a deck check): its own deadline moves, the round's does not.
    Kept in the table's history (the audit trail)."""
    ensure(by, Action.EXTEND_TABLE_TIME, event)
    minutes = _minutes(minutes, maximum=MAX_EXTRA_MINUTES)
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(_("Say why the table gets extra time."), field="reason")
    with transaction.atomic():
        event = shared_event(event.pk)
        round_ = _round(event, round_number)
        _ensure_round_running(event, round_)
        pod = Pod.objects.select_for_update().filter(round=round_, table_number=table_number, is_bye=False).first()
        if pod is None:
            raise NotFound(
                _("Round %(round)s has no table %(table)s.") % {"round": round_number, "table": table_number},
                code="table_not_found",
            )
        if PodResult.objects.filter(pod=pod).exists():
            raise Conflict(_("Table %(table)s has its result already.") % {"table": table_number}, code="result_exists")
        extension = TableTimeExtension.objects.create(pod=pod, seconds=minutes * 60, reason=reason[:200], given_by=by)
        events.record(
            action=DomainAction.TABLE_TIME_EXTENDED, event=event, by=by,
            subject=audit.table_label(round_number, table_number), after={"minutes": minutes}, reason=reason,
            round=round_number, table=table_number,
        )  # fmt: skip
    return extension


# --- stream stations --------------------------------------------------------------------------------------------


def station_create(*, event: Event, slug: str, name: str = "", by) -> Station:
    """A stream station of the event: ``stream-1``, whose overlay URL stays the same all day."""
    ensure(by, Action.RUN_STREAM, event)
    slug = (slug or "").strip().lower()
    if not SLUG.match(slug) or len(slug) > 40:
        raise ApplicationError(
            _("A station's name in URLs is lower-case letters, digits and dashes, like stream-1."), field="slug"
        )
    name = (name or "").strip()[:60] or slug.replace("-", " ").capitalize()
    with transaction.atomic():
        if Station.objects.filter(event=event, slug=slug).exists():
            raise Conflict(_("The event already has a station '%(slug)s'.") % {"slug": slug}, code="station_exists")
        try:
            with transaction.atomic():
                station = Station.objects.create(event=event, slug=slug, name=name)
        except IntegrityError:
            raise Conflict(
                _("The event already has a station '%(slug)s'.") % {"slug": slug}, code="station_exists"
            ) from None
        events.record(
            action=DomainAction.STATION_CREATED, event=event, by=by, subject=f"Station {slug}", after={"name": name},
            station_id=station.pk,
        )  # fmt: skip
    return station


def _ensure_streamable(event: Event, pod: Pod, table_number: int) -> None:
    """Refuse a table where a player who opted out of being streamed sits (409 ``stream_opt_out``, naming them)."""
    opted_out = people_selectors.stream_opted_out(event=event, player_ids=[s.player_id for s in pod.seats.all()])
    if opted_out:
        names = f" {pgettext('joins names: Ann and Bob', 'and')} ".join(opted_out.values())
        raise Conflict(
            ngettext(
                "%(players)s has opted out of being streamed: table %(table)s cannot be a feature match.",
                "%(players)s have opted out of being streamed: table %(table)s cannot be a feature match.",
                len(opted_out),
            )
            % {"players": names, "table": table_number},
            code="stream_opt_out", field="table",
            extra={"players": [{"id": pk, "name": name} for pk, name in opted_out.items()]},
        )  # fmt: skip


def station_update(
    *, station: Station, by, table_number: int | None = _UNSET, revealed_player: int | None = _UNSET
) -> Station:
    """Point the station at a table of the current round (``None``: none), and show one player's decklist on
    air (``None``: hide it).  A decklist that is not public goes on air only from a caster who may see it."""
    event = station.event
    ensure(by, Action.RUN_STREAM, event)
    with transaction.atomic():
        station = Station.objects.select_for_update().select_related("event").get(pk=station.pk)
        before = {"table": station.table_number, "decklist_on_air": station.revealed_player_id}
        if table_number is not _UNSET:
            if table_number is not None:
                latest = tournament_selectors.event_latest_round(event=event)
                if latest is None:
                    raise NotFound(_("No round has been paired yet."), code="round_not_found")
                pod = tournament_selectors.round_table(round_=latest, table=table_number, with_seats=True)
                if pod is None or pod.is_bye:
                    raise NotFound(
                        _("Round %(round)s has no table %(table)s.") % {"round": latest.number, "table": table_number},
                        code="table_not_found",
                    )
                _ensure_streamable(event, pod, table_number)
            station.table_number = table_number
        if revealed_player is not _UNSET:
            if revealed_player is not None:
                if not Registration.objects.filter(event=event, player_id=revealed_player).exists():
                    raise ApplicationError(_("That player is not registered at this event."), field="decklist_on_air")
                opted_out = people_selectors.stream_opted_out(event=event, player_ids=[revealed_player])
                if opted_out:
                    raise Conflict(
                        _("%(player)s has opted out of being streamed: their decklist cannot go on air.") % {"player": opted_out[revealed_player]}, code="stream_opt_out", field="decklist_on_air",
                        extra={"players": [{"id": revealed_player, "name": opted_out[revealed_player]}]},
                    )  # fmt: skip
                if not event.decklists_public and not can(by, Action.SEE_HIDDEN_DECKLISTS, event):
                    raise Conflict(
                        _("Decklists are not public yet, and the organiser does not let casters see them."),
                        code="decklist_hidden",
                    )
            station.revealed_player_id = revealed_player
        after = {"table": station.table_number, "decklist_on_air": station.revealed_player_id}
        station.save(update_fields=["table_number", "revealed_player", "updated_at"])
        if after != before:
            events.record(
                action=DomainAction.STATION_CHANGED, event=event, by=by, subject=f"Station {station.slug}",
                before=before, after=after, station_id=station.pk,
            )  # fmt: skip
    return station


# --- overlay tokens -------------------------------------------------------------------------------------------


def overlay_token_create(*, event: Event, label: str, by) -> tuple[OverlayToken, str]:
    """A read-only key to the event's private reads for overlays (hidden decklists, when casters may see them):
    the token, and its key, which exists only here (the token keeps its digest): show it this once."""
    ensure(by, Action.RUN_STREAM, event)
    label = (label or "").strip()[:100]
    if not label:
        raise ApplicationError(_("Name the token (what it is for: “OBS laptop”)."), field="label")
    key = new_token_key()
    with transaction.atomic():
        token = OverlayToken.objects.create(
            event=event, label=label, created_by=by, digest=token_digest(key), prefix=key[:TOKEN_PREFIX_LENGTH]
        )
        events.record(action=DomainAction.OVERLAY_TOKEN_CREATED, event=event, by=by, subject=f"Overlay token {label!r}")
    return token, key


def overlay_token_revoke(*, token: OverlayToken, by) -> OverlayToken:
    event = token.event
    ensure(by, Action.RUN_STREAM, event)
    with transaction.atomic():
        token = OverlayToken.objects.select_for_update().get(pk=token.pk)
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
            events.record(
                action=DomainAction.OVERLAY_TOKEN_REVOKED, event=event, by=by, subject=f"Overlay token {token.label!r}"
            )
    return token
