"""The player's choices, their browsers' push subscriptions, and every delivery (one message by one channel).

A :class:`Delivery` is keyed by (user, kind, key, channel): the *key* names what the message is about (a round and
a table, a report, a judge call, an event), so telling a player of the same thing twice finds the row already
there and sends nothing more, and a burst of changes before it is sent makes one message, written from what is
true when it is sent.  A delivery is *claimed* by one run (a conditional update) before it is sent, so a task run
twice, or retried, sends it once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from notifications.kinds import Channel, Kind


class Preference(models.Model):
    """A player's choice for one kind: by e-mail, by push (no row: the defaults, :func:`notifications.kinds.default`)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_choices")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    email = models.BooleanField()
    push = models.BooleanField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("notification choice")
        verbose_name_plural = _("notification choices")
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="notification_choice_once_per_kind")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: email={self.email} push={self.push}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (the browser's ``PushSubscription`` JSON): where and how to push."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    #: The push service's URL for this browser (unique: a browser subscribed again moves to its new owner).
    endpoint = models.URLField(max_length=1000, unique=True)
    #: The browser's public key (P-256, base64url) and authentication secret (base64url).
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.endpoint[:60]}"


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        CLAIMED = "claimed", _("Being sent")
        SENT = "sent", _("Sent")
        SKIPPED = "skipped", _("Skipped")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    #: What the message is about (``round:12:table:3``, ``report:40``, ``event:7``): one message per key.
    key = models.CharField(max_length=200)
    channel = models.CharField(max_length=8, choices=Channel.choices)
    #: The facts the message is written from (ids), read again when it is sent.
    params = models.JSONField(default=dict)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    #: A pending delivery is sent no sooner than this (a retry's backoff).
    not_before = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    #: Push: the subscriptions already sent to (a retry sends to the others only).
    done = models.JSONField(default=list, blank=True)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("notification delivery")
        verbose_name_plural = _("notification deliveries")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "key", "channel"], name="delivery_once_per_key"),
        ]
        indexes = [models.Index(fields=["status", "not_before"], name="delivery_due")]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} to {self.user_id} by {self.channel}: {self.status}"
