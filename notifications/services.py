"""Writes of the notifications app: a player's choices and push subscriptions, and deliveries asked and sent.

Readers (:mod:`notifications.readers`) turn a domain event into deliveries with :func:`notifications_create`
(one row per user, kind, key and channel: asking twice for the same is a no-op) and hand their ids to the worker;
the task (:mod:`notifications.tasks`) sends each with :func:`delivery_send`, which claims the row first (a
conditional update), so a task run twice or retried sends it once.  A failed send stays pending with a later
``not_before`` (backoff) until :data:`MAX_ATTEMPTS`; the sweep asks again for what is due.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import ipaddress
import logging
import smtplib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.exceptions import ApplicationError
from notifications import messages, push, selectors
from notifications.kinds import Channel, Kind
from notifications.models import Delivery, Preference, PushSubscription

logger = logging.getLogger(__name__)

#: A delivery is tried this many times at most (then it is ``failed``).
MAX_ATTEMPTS = 5
#: The first retry waits this long; each next one twice as long, up to :data:`RETRY_MAX_SECONDS`.
RETRY_BASE_SECONDS = 30
RETRY_MAX_SECONDS = 3600


class TryAgain(Exception):
    """The mail server or a push service failed for now: the delivery stays pending, with a backoff."""


@dataclass(frozen=True, slots=True)
class Ask:
    """One user to tell of one thing: its key (one message per key) and the facts it is written from."""

    user_id: int
    key: str
    params: dict[str, Any]


def backoff(attempts: int) -> int:
    """Seconds before try ``attempts + 1``: 30, 60, 120 ... (at most an hour)."""
    return int(min(RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0), RETRY_MAX_SECONDS))


# --- the player's choices ---------------------------------------------------------------------------------------


def preferences_set(*, user: Any, choices: Mapping[str, Mapping[str, bool]]) -> list[selectors.Choice]:
    """Set the user's choice for each kind given (``{"round_paired": {"email": true, "push": false}}``); a channel
    left out keeps its current choice.  Unknown kinds are refused."""
    unknown = sorted(set(choices) - set(Kind.values))
    if unknown:
        raise ApplicationError(
            _("Unknown kind(s) of notification: %(kinds)s.") % {"kinds": ", ".join(unknown)}, field="kinds"
        )
    current = {c.kind: c for c in selectors.choices_of(user=user)}
    with transaction.atomic():
        for kind, chosen in choices.items():
            Preference.objects.update_or_create(
                user_id=user.pk, kind=kind,
                defaults={
                    "email": bool(chosen.get("email", current[kind].email)),
                    "push": bool(chosen.get("push", current[kind].push)),
                },
            )  # fmt: skip
    return selectors.choices_of(user=user)


def unsubscribe_link_read(*, token: str) -> tuple[int, str]:
    """The user id and the kind an e-mail's unsubscribe token names, changing nothing; a token that was not made
    here is refused (``invalid_token``)."""
    found = messages.read_unsubscribe_token(token)
    if found is None or not selectors.user_exists(user_id=found[0]):
        raise ApplicationError(_("This link is not valid (it may be cut short)."), code="invalid_token")
    return found


def unsubscribe(*, token: str, again: bool = False) -> tuple[int, str]:
    """Turn one kind's e-mails off (``again``: back on) for the user the e-mail's token names: no sign-in needed.
    Returns the user id and the kind; a token that was not made here is refused (``invalid_token``)."""
    user_id, kind = unsubscribe_link_read(token=token)
    with transaction.atomic():
        pref = Preference.objects.select_for_update().filter(user_id=user_id, kind=kind).first()
        if pref is None:
            Preference.objects.create(user_id=user_id, kind=kind, email=again, push=True)
        elif pref.email != again:
            pref.email = again
            pref.save(update_fields=["email", "updated_at"])
    return user_id, kind


# --- push subscriptions -------------------------------------------------------------------------------------------


def _key_bytes(value: str, *, field: str, size: int) -> None:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size:
        raise ApplicationError(_("This is not a browser's push key."), field=field)


def _public_endpoint(endpoint: str) -> bool:
    """Whether the server may push to ``endpoint``: an https address of a named host (push services are), so a
    subscription cannot make the server post to itself or its network.  ``PODIUM_PUSH_LOCAL_ENDPOINTS`` (on with
    ``DEBUG``, and in the tests) also allows http and local addresses."""
    parts = urlsplit(endpoint)
    if settings.PODIUM_PUSH_LOCAL_ENDPOINTS:
        return parts.scheme in ("https", "http") and bool(parts.hostname)
    host = parts.hostname or ""
    try:
        ipaddress.ip_address(host)
        is_address = True
    except ValueError:
        is_address = False
    return parts.scheme == "https" and "." in host and not is_address and not host.endswith((".local", ".internal"))


def push_subscription_add(
    *, user: Any, endpoint: str, p256dh: str, auth: str, user_agent: str = ""
) -> PushSubscription:
    """Keep a browser's push subscription for the user (the same browser subscribed again moves to this user)."""
    if not _public_endpoint(endpoint):
        raise ApplicationError(_("A push endpoint is an https address of a push service."), field="endpoint")
    _key_bytes(p256dh, field="keys", size=65)
    _key_bytes(auth, field="keys", size=16)
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user_id": user.pk, "p256dh": p256dh, "auth": auth, "user_agent": user_agent[:300]},
    )
    return subscription


def push_subscription_remove(*, user: Any, endpoint: str) -> int:
    """Forget the user's subscription at ``endpoint`` (the browser unsubscribed); how many were forgotten."""
    deleted, _by_model = PushSubscription.objects.filter(user_id=user.pk, endpoint=endpoint).delete()
    return deleted


# --- deliveries ---------------------------------------------------------------------------------------------------


def notifications_create(*, kind: str, asks: Sequence[Ask]) -> list[int]:
    """Ask for ``kind`` to reach each user by the channels they chose (and can be reached by); the ids of the
    deliveries now pending for these asks.  Asking again for a key already asked adds nothing: a pending delivery
    is written from what is true when it is sent (a burst of changes makes one message), a sent one stays sent."""
    channels = selectors.channels_for(kind=kind, user_ids=[a.user_id for a in asks])
    now = timezone.now()
    rows = [
        Delivery(user_id=a.user_id, kind=kind, key=a.key, channel=channel, params=a.params, not_before=now)
        for a in asks
        for channel in channels.get(a.user_id, ())
    ]
    if not rows:
        return []
    Delivery.objects.bulk_create(rows, ignore_conflicts=True)
    wanted = {(r.user_id, r.key, r.channel) for r in rows}
    return sorted(
        pk
        for pk, user_id, key, channel in Delivery.objects.filter(
            kind=kind,
            status=Delivery.Status.PENDING,
            key__in={r.key for r in rows},
            user_id__in={r.user_id for r in rows},
        ).values_list("pk", "user_id", "key", "channel")  # fmt: skip
        if (user_id, key, channel) in wanted
    )


def _claim(delivery_id: int, now: datetime.datetime) -> bool:
    """Take the delivery for this run: pending and due, or claimed by a run that died (its claim is older than the
    longest a task may run).  One conditional update; ``False``: another run has it, or it is done."""
    stale = now - datetime.timedelta(seconds=float(settings.CELERY_TASK_TIME_LIMIT) + 15)
    return bool(
        Delivery.objects.filter(pk=delivery_id)
        .filter(
            Q(status=Delivery.Status.PENDING, not_before__lte=now)
            | Q(status=Delivery.Status.CLAIMED, claimed_at__lt=stale)
        )
        .update(status=Delivery.Status.CLAIMED, claimed_at=now, attempts=F("attempts") + 1)
    )


def _finish(delivery: Delivery, status: str, error: str = "") -> None:
    delivery.status = status
    delivery.error = error[:500]
    delivery.sent_at = timezone.now() if status == Delivery.Status.SENT else None
    delivery.save(update_fields=["status", "error", "sent_at", "done"])


def delivery_send(*, delivery_id: int, mail_down: bool = False) -> str:
    """Send one delivery once: ``sent``, ``skipped`` (nothing to say any more, turned off, unreachable),
    ``retry`` (it failed for now: pending again, with a backoff), ``failed`` (the last attempt failed) or ``busy``
    (another run has it, or it is done).  ``mail_down``: the mail server just failed this run, so an e-mail is
    not tried now but left for later as if it had failed (a request in-process waits for one timeout, not one per
    message)."""
    if not _claim(delivery_id, timezone.now()):
        return "busy"
    delivery = selectors.delivery(delivery_id)
    if delivery is None:
        return "busy"
    if not messages.wants(delivery):
        _finish(delivery, Delivery.Status.SKIPPED, "turned off")
        return "skipped"
    try:
        if mail_down and delivery.channel == Channel.EMAIL:
            raise TryAgain("not tried: the mail server failed for an earlier message of this run")
        sent = _send_email(delivery) if delivery.channel == Channel.EMAIL else _send_push(delivery)
    except TryAgain as exc:
        if delivery.attempts >= MAX_ATTEMPTS:
            _finish(delivery, Delivery.Status.FAILED, str(exc))
            logger.warning("Notification %s failed for good: %s", delivery_id, exc)
            return "failed"
        delivery.status = Delivery.Status.PENDING
        delivery.not_before = timezone.now() + datetime.timedelta(seconds=backoff(delivery.attempts))
        delivery.error = str(exc)[:500]
        delivery.save(update_fields=["status", "not_before", "error", "done"])
        logger.info("Notification %s failed (attempt %s), tried again later: %s", delivery_id, delivery.attempts, exc)
        return "retry"
    _finish(delivery, Delivery.Status.SENT if sent else Delivery.Status.SKIPPED)
    return "sent" if sent else "skipped"


def _send_email(delivery: Delivery) -> bool:
    address = delivery.user.email
    mail = messages.email(delivery) if address else None
    if mail is None:
        return False
    message = EmailMultiAlternatives(
        subject=settings.EMAIL_SUBJECT_PREFIX + mail.subject, body=mail.text, to=[address],
        headers={
            "List-Unsubscribe": f"<{mail.unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Content-Language": mail.language,
            "Auto-Submitted": "auto-generated",
        },
    )  # fmt: skip
    message.attach_alternative(mail.html, "text/html")
    try:
        message.send()
    except (smtplib.SMTPException, OSError) as exc:
        raise TryAgain(repr(exc)) from exc
    return True


def _send_push(delivery: Delivery) -> bool:
    subscriptions = [s for s in selectors.push_subscriptions(user_id=delivery.user_id) if s.pk not in delivery.done]
    payload = messages.push_payload(delivery) if subscriptions else None
    if payload is None:
        return bool(delivery.done)
    failures = []
    for subscription in subscriptions:
        try:
            push.send(endpoint=subscription.endpoint, p256dh=subscription.p256dh, auth=subscription.auth,
                      payload=payload)  # fmt: skip
        except push.Gone:
            subscription.delete()  # the browser no longer has it: never push there again
            continue
        except push.PushFailed as exc:
            failures.append(str(exc))
            continue
        delivery.done = [*delivery.done, subscription.pk]
    if failures:
        raise TryAgain("; ".join(failures))
    return bool(delivery.done)


def deliveries_due(*, limit: int = 500) -> list[int]:
    """Deliveries a run should try now: pending and due, or claimed by a run that died."""
    now = timezone.now()
    stale = now - datetime.timedelta(seconds=float(settings.CELERY_TASK_TIME_LIMIT) + 15)
    return selectors.due_ids(now=now, stale=stale, limit=limit)


def round_ending_asks(*, now: datetime.datetime | None = None) -> list[Ask]:
    """Who to tell that their round's clock is in its last ``PODIUM_ROUND_ENDING_MINUTES``: every player with an
    account at a table of such a round without a result (one message per round and table)."""
    minutes = settings.PODIUM_ROUND_ENDING_MINUTES
    asks = []
    for event_id, round_id, number in selectors.rounds_ending(
        now=now or timezone.now(), within=datetime.timedelta(minutes=minutes)
    ):
        for user_id, table in selectors.users_still_playing(round_id=round_id):
            asks.append(Ask(user_id, f"round:{round_id}:table:{table}", {
                "event_id": event_id, "round_id": round_id, "round": number, "table": table, "minutes": minutes,
            }))  # fmt: skip
    return asks
