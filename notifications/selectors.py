"""Reads of the notifications app: a player's choices, who sits where, and the facts a message is written from."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q

from live.models import RoundTimer
from notifications import kinds
from notifications.kinds import Channel, Kind
from notifications.models import Delivery, Preference, PushSubscription
from tournaments.models import Event, Player, Pod, Registration, ResultReport, Round, Seat


@dataclass(frozen=True, slots=True)
class Choice:
    kind: str
    label: str
    email: bool
    push: bool


def choices_of(*, user: Any) -> list[Choice]:
    """Every kind with the user's choice for it (the default where they made none): one query."""
    chosen = {p.kind: p for p in Preference.objects.filter(user_id=user.pk)}
    found = []
    for kind in Kind:
        pref = chosen.get(kind.value)
        found.append(Choice(
            kind=kind.value, label=str(kind.label),
            email=pref.email if pref else kinds.default(kind, Channel.EMAIL),
            push=pref.push if pref else kinds.default(kind, Channel.PUSH),
        ))  # fmt: skip
    return found


def push_subscription_count(*, user: Any) -> int:
    return PushSubscription.objects.filter(user_id=user.pk).count()


def push_subscriptions(*, user_id: int) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user_id=user_id).order_by("id"))


def channels_chosen(*, kind: str, channel: str, user_ids: Iterable[int]) -> set[int]:
    """The users who chose (or by default get) ``kind`` by ``channel``: one query."""
    ids = set(user_ids)
    chosen = {p.user_id: p for p in Preference.objects.filter(user_id__in=ids, kind=kind)}
    return {u for u in ids if (getattr(chosen[u], channel) if u in chosen else kinds.default(kind, channel))}


def channels_for(*, kind: str, user_ids: Iterable[int]) -> dict[int, list[str]]:
    """For each user, the channels ``kind`` goes by now: chosen (or by default), and reachable (an e-mail
    address; a subscribed browser).  Three queries."""
    ids = set(user_ids)
    if not ids:
        return {}
    chosen = {p.user_id: p for p in Preference.objects.filter(user_id__in=ids, kind=kind)}
    emails = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "email"))
    pushed = set(PushSubscription.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    found: dict[int, list[str]] = {}
    for user_id in ids:
        pref = chosen.get(user_id)
        wants_email = pref.email if pref else kinds.default(kind, Channel.EMAIL)
        wants_push = pref.push if pref else kinds.default(kind, Channel.PUSH)
        channels = [Channel.EMAIL.value] if wants_email and emails.get(user_id) else []
        channels += [Channel.PUSH.value] if wants_push and user_id in pushed else []
        if channels:
            found[user_id] = channels
    return found


def user_exists(*, user_id: int) -> bool:
    return get_user_model().objects.filter(pk=user_id).exists()


def channels_of(*, delivery_ids: list[int]) -> dict[int, str]:
    return dict(Delivery.objects.filter(pk__in=delivery_ids).values_list("pk", "channel"))


def users_of_players(player_ids: Iterable[int]) -> dict[int, int]:
    """``{player id: user id}`` for the players with an account: one query."""
    return dict(Player.objects.filter(pk__in=set(player_ids), user__isnull=False).values_list("pk", "user_id"))


def latest_round(*, event_id: int) -> Round | None:
    return Round.objects.filter(event_id=event_id).order_by("-number").first()


def round_tables(*, round_id: int) -> list[tuple[int, int | None]]:
    """``(user id, table number)`` of the round's seated players with an account (``None``: a bye): one query."""
    return list(
        Seat.objects.filter(round_id=round_id, player__user__isnull=False).values_list(
            "player__user_id", "pod__table_number"
        )
    )


def unanswered_table_users(*, event_id: int, round_number: int, table: int, but: int | None) -> tuple[int, list[int]]:
    """The table's open report (its id, 0 if none) and the users seated there except ``but`` (a user id)."""
    pod = Pod.objects.filter(round__event_id=event_id, round__number=round_number, table_number=table).first()
    if pod is None:
        return 0, []
    report = pod.reports.filter(status__in=["pending", "disputed"]).order_by("-id").first()
    users = [
        u
        for u in Seat.objects.filter(pod=pod, player__user__isnull=False).values_list("player__user_id", flat=True)
        if u != but
    ]
    return (report.pk if report else 0), users


def users_to_check_in(*, event_id: int) -> list[int]:
    """The users registered at the event and not checked in yet: one query."""
    return list(
        Registration.objects.filter(
            event_id=event_id, status=Registration.Status.REGISTERED, checked_in=False, player__user__isnull=False
        ).values_list("player__user_id", flat=True)
    )


def event_of(event_id: int) -> Event | None:
    return Event.objects.filter(pk=event_id).first()


def seat_of(*, round_id: int, user_id: int) -> Seat | None:
    """The user's seat in the round with its table's seats and players: two queries."""
    return (
        Seat.objects.filter(round_id=round_id, player__user_id=user_id)
        .select_related("pod", "round", "round__event")
        .prefetch_related("pod__seats__player")
        .first()
    )


def delivery(delivery_id: int) -> Delivery | None:
    return Delivery.objects.filter(pk=delivery_id).select_related("user").first()


def rounds_ending(*, now: datetime.datetime, within: datetime.timedelta) -> list[tuple[int, int, int]]:
    """``(event id, round id, round number)`` of the published, unfinished rounds whose running clock ends within
    ``within`` of ``now`` (and has not ended): one query."""
    return list(
        RoundTimer.objects.filter(
            deadline__gt=now, deadline__lte=now + within, round__completed_at__isnull=True,
            round__published_at__isnull=False,
        ).values_list("round__event_id", "round_id", "round__number")
    )  # fmt: skip


def users_still_playing(*, round_id: int) -> list[tuple[int, int | None]]:
    """``(user id, table number)`` of the round's players with an account at a table without a result: one query."""
    return list(
        Seat.objects.filter(
            round_id=round_id, pod__is_bye=False, pod__result__isnull=True, player__user__isnull=False
        ).values_list("player__user_id", "pod__table_number")
    )


def table_count(*, round_id: int) -> int:
    return Pod.objects.filter(round_id=round_id, is_bye=False).count()


def report_pending(*, report_id: int) -> bool:
    return ResultReport.objects.filter(pk=report_id, status=ResultReport.Status.PENDING).exists()


def due_ids(*, now: datetime.datetime, stale: datetime.datetime, limit: int) -> list[int]:
    """Deliveries pending and due, or claimed before ``stale`` (their run died): one query."""
    return list(
        Delivery.objects.filter(
            Q(status=Delivery.Status.PENDING, not_before__lte=now)
            | Q(status=Delivery.Status.CLAIMED, claimed_at__lt=stale)
        )
        .order_by("not_before")
        .values_list("pk", flat=True)[:limit]
    )
