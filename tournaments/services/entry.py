"""Scarce places and fees: the lottery, priority windows, and the entry fee's paid state.

Terms.  An event with a capacity may take *applications* instead of first
come, first served (``Event.lottery``): until the *draw*, a player who
registers themselves *applies* (status ``applied``).  The draw
(:func:`lottery_draw`, by the organiser, or by the sweep once
``lottery_draw_at`` has come: :func:`lotteries_draw_due`) orders the
applicants with a recorded seed (:mod:`tournaments.lottery`): the first of
them fill the places left, the others join the waiting list in drawn order.
A lottery is drawn once.  After it, registering is first come, first served
again (beyond the capacity, onto the waiting list).

A *priority window*: registration opens to everyone at
``registration_opens_at``, and earlier, from ``priority_opens_at``, to
*priority players*: those with at least ``priority_min_points`` league points
in a season (``priority_season_id``, answered by the leagues app through
:func:`tournaments.selectors.people.season_points_source`), and those named for an earned invite
(``priority_players``).  Outside their window a player is refused with the
time it opens for them (``registration_not_yet_open``).

The *entry fee* (amount and currency) is paid on the organiser's own checkout
page: Podium takes no payment, staff mark a registration paid or unpaid
(:func:`registration_mark_paid`).  Where the organiser says so
(``unpaid_check_in`` off), an unpaid player cannot check in
(``entry_fee_unpaid``, :func:`check_in_allowed`).

Every change is recorded in the audit trail.
"""

from __future__ import annotations

import datetime
import zoneinfo
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict
from tournaments import audit, lottery
from tournaments.models import Event, Player, Registration
from tournaments.policy import Action, ensure
from tournaments.selectors import people as people_selectors
from tournaments.services._common import locked_event

# --- priority windows ---------------------------------------------------------------------------


def _when(event: Event, moment: datetime.datetime) -> str:
    """A time in the event's own zone, as its pages show it, with the weekday and month in the active language
    (strftime's are always English)."""
    local = timezone.localtime(moment, timezone=zoneinfo.ZoneInfo(event.time_zone))
    return f"{date_format(local, 'DATETIME_FORMAT')} ({event.time_zone})"


def ensure_window_open(*, event: Event, player: Player | None, now: datetime.datetime | None = None) -> None:
    """Refuse a self-registration before the player's window opens, saying when it does."""
    opens = people_selectors.opens_for(event=event, player=player)
    now = now or timezone.now()
    if opens is None or now >= opens:
        return
    if event.priority_opens_at is not None and opens == event.registration_opens_at and now < opens:
        message = _(
            "Registration opens for everyone on %(opens)s; priority players (league points or an invite) may "
            "register from %(priority)s."
        ) % {"opens": _when(event, opens), "priority": _when(event, event.priority_opens_at)}
    else:
        message = _("Registration opens for you on %(opens)s.") % {"opens": _when(event, opens)}
    raise Conflict(message, code="registration_not_yet_open")


# --- the lottery --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LotteryOutcome:
    """A draw as stored: its seed and time, the winners and the waiting list (registrations in drawn order)."""

    event: Event
    seed: int
    drawn_at: datetime.datetime
    places: int
    winners: list[Registration]
    waiting: list[Registration]


def lottery_draw(*, event: Event, by, seed: int | None = None) -> LotteryOutcome:
    """Draw the event's lottery: the applicants in a seeded order, the first ``places`` registered, the others on
    the waiting list in drawn order.  ``places`` is the capacity less the players already in the event.

    Refused for an event without a lottery (``no_lottery``), a second time (``lottery_drawn``), and once play has
    started (``event_started``).  ``by`` is ``None`` for the scheduled draw (:func:`lotteries_draw_due`).
    """
    if by is not None:
        ensure(by, Action.DRAW_LOTTERY, event)
    if seed is not None and not 0 <= seed < lottery.SEED_LIMIT:
        raise ApplicationError(
            _("A seed is a whole number from 0 to %(most)s.") % {"most": lottery.SEED_LIMIT - 1}, field="seed"
        )
    with transaction.atomic():
        event = locked_event(event.pk)
        if not event.lottery:
            raise Conflict(_("This event's places are not drawn by lottery."), code="no_lottery")
        if event.lottery_drawn_at is not None:
            raise Conflict(
                _("The lottery was drawn on %(when)s (seed %(seed)s): a draw is never repeated.")
                % {"when": _when(event, event.lottery_drawn_at), "seed": event.lottery_seed},
                code="lottery_drawn",
            )
        if event.status != Event.Status.REGISTRATION:
            raise Conflict(_("Play has started: the lottery can no longer be drawn."), code="event_started")
        applicants = {
            r.player_id: r
            for r in Registration.objects.select_for_update(of=("self",))
            .select_related("player")
            .filter(event=event, status=Registration.Status.APPLIED)
        }
        taken = Registration.objects.filter(event=event, status=Registration.Status.REGISTERED, dropped=False).count()
        places = max(0, (event.capacity or 0) - taken)
        drawn = lottery.draw(applicants, seed=lottery.new_seed() if seed is None else seed, places=places)
        now = timezone.now()
        winners, waiting = [], []
        for rank, player_id in enumerate(drawn.order, start=1):
            registration = applicants[player_id]
            registration.lottery_rank = rank
            if rank <= drawn.places:
                registration.status, registration.waitlisted_at = Registration.Status.REGISTERED, None
                winners.append(registration)
            else:
                # The waiting list is promoted by the time each joined it: the drawn order is that order, a
                # microsecond apart, so the one ordering the waiting list has (promotion, places) is the draw's.
                registration.status = Registration.Status.WAITLISTED
                registration.waitlisted_at = now + datetime.timedelta(microseconds=rank)
                waiting.append(registration)
        Registration.objects.bulk_update(winners + waiting, ["status", "waitlisted_at", "lottery_rank"])
        event.lottery_drawn_at, event.lottery_seed = now, drawn.seed
        event.save(update_fields=["lottery_drawn_at", "lottery_seed"])
        events.record(
            event=event, by=by, action=DomainAction.LOTTERY_DRAWN, subject=event.name,
            after={
                "seed": drawn.seed, "places": drawn.places,
                "winners": [audit.player_label(r.player) for r in winners],
                "waiting": [audit.player_label(r.player) for r in waiting],
            },
            seed=drawn.seed, places=drawn.places, winners=list(drawn.winners), waiting=list(drawn.waiting),
        )  # fmt: skip
    return LotteryOutcome(
        event=event, seed=drawn.seed, drawn_at=now, places=drawn.places, winners=winners, waiting=waiting
    )


def lotteries_draw_due(*, now: datetime.datetime | None = None) -> int:
    """Draw every lottery whose time has come (the sweep); safe to run twice: a drawn lottery is skipped."""
    now = now or timezone.now()
    due = Event.objects.filter(
        lottery=True, lottery_drawn_at__isnull=True, lottery_draw_at__lte=now, status=Event.Status.REGISTRATION
    ).values_list("pk", flat=True)
    drawn = 0
    for event_id in list(due):
        try:
            lottery_draw(event=Event(pk=event_id), by=None)
        except Conflict:  # drawn meanwhile by the organiser, or play started
            continue
        drawn += 1
    return drawn


# --- the entry fee ------------------------------------------------------------------------------

_FEE_FIELDS = ("paid_at",)


def registration_mark_paid(*, registration: Registration, by, paid: bool = True) -> Registration:
    """Mark the player's entry fee paid (now, by ``by``) or unpaid again; marking it twice changes nothing."""
    ensure(by, Action.MANAGE_FEES, registration.event)
    with transaction.atomic():
        event = locked_event(registration.event_id)
        registration = (
            Registration.objects.select_for_update(of=("self",)).select_related("player").get(pk=registration.pk)
        )
        if (registration.paid_at is not None) == paid:
            return registration
        before = audit.snapshot(registration, _FEE_FIELDS)
        registration.paid_at = timezone.now() if paid else None
        registration.paid_marked_by = by if paid else None
        registration.save(update_fields=["paid_at", "paid_marked_by"])
        events.record(
            event=event, by=by, action=DomainAction.REGISTRATION_PAID if paid else DomainAction.REGISTRATION_UNPAID,
            subject=audit.player_label(registration.player), before=before,
            after=audit.snapshot(registration, _FEE_FIELDS),
        )  # fmt: skip
    return registration


def check_in_allowed(*, event: Event, registration: Registration, staff: bool) -> None:
    """Refuse checking in an unpaid player where the organiser checks in paid players only (said to the staff who
    would mark it, or to the player who would pay it)."""
    if event.has_fee and not event.unpaid_check_in and registration.paid_at is None:
        if staff:
            message = _("%(player)s has not paid the entry fee: mark it paid first.") % {"player": registration.player}
        elif event.checkout_url:
            message = _("Pay the entry fee at %(url)s first: you check in once the staff have marked it paid.") % {
                "url": event.checkout_url
            }
        else:
            message = _("Pay the entry fee first: you check in once the staff have marked it paid.")
        raise Conflict(message, code="entry_fee_unpaid")
