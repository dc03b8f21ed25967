"""The event as it happens: the live log overlays follow, stream stations, round timers, overlay tokens.

Terms
=====

*live event*
    One thing an overlay or a venue screen shows changing (:class:`LiveEvent`): a round started, a
    table's result, standings updated, a game's state changed (with the entry that caused it), the
    timer changed, a station's feature match changed.  Written in the transaction of the change
    (so it exists exactly when the change does) with ``seq`` empty; numbered after the commit by
    :mod:`live.publish`, in the order the numbers are given, one tournament event at a time
    (:class:`LiveStream` holds the last number).  ``seq`` is the ``id`` of the Server-Sent Event:
    a client that reconnects with ``Last-Event-ID: 41`` is sent every event numbered after 41.
    Only public facts are written here: anything not public is read through the API with an
    overlay token.

*station*
    A stream's camera table (:class:`Station`, ``stream-1``): the caster points it at a table number
    of the current round, and its overlay URL stays the same across rounds.  It can show one
    player's decklist on air.

*round timer*
    A round's clock (:class:`RoundTimer`): running towards ``deadline``, or paused with
    ``remaining_seconds`` left.  Judges give single tables extra time
    (:class:`TableTimeExtension`): the table's own deadline is the round's plus its extensions.

*overlay token*
    A read-only key to one event's private reads (:class:`OverlayToken`): the overlay of a
    station shows hidden decklists with it, when the organiser lets casters see them.  The key
    (:func:`new_token_key`, 192 random bits) is shown once, when it is made; only its SHA-256
    digest is stored, with its first :data:`TOKEN_PREFIX_LENGTH` characters to tell tokens apart
    on the caster's page.  A key is looked up by its digest (:func:`token_digest`), like the
    API's tokens: a copy of the database opens no overlay.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class LiveStream(models.Model):
    """The last number given to a live event of one tournament event (its row lock orders the numbering)."""

    event = models.OneToOneField("tournaments.Event", on_delete=models.CASCADE, primary_key=True, related_name="+")
    last_seq = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"live stream of event {self.event_id} at {self.last_seq}"


class LiveEvent(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    #: The Server-Sent Event id: given after the commit, in order (``None`` until then).
    seq = models.PositiveBigIntegerField(null=True, blank=True)
    #: ``round.started``, ``table.result``, ``standings.updated``, ``game.state_changed``, ``timer.changed``,
    #: ``feature.changed``; ``judge_call.changed`` (private: written by :mod:`floor.readers`).
    kind = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    #: The stations whose stream carries it (``None``: every station's).
    stations = models.JSONField(null=True, blank=True)
    #: The players whose own stream (``?player=``) carries it: a table's players for what happens at their table
    #: (``None``: every player's; ``[]``: none, e.g. a station's feature match).
    players = models.JSONField(null=True, blank=True)
    #: Not for the public streams: only the event's staff stream (``judge-calls/stream/``) and the own streams of
    #: the ``players`` named carry it (a judge call: the table's players follow their own).
    private = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "seq"], condition=Q(seq__isnull=False), name="live_event_seq_unique_per_event"
            ),
        ]
        indexes = [
            models.Index(fields=["event", "seq"], name="live_event_event_seq"),
            models.Index(fields=["id"], condition=Q(seq__isnull=True), name="live_event_unnumbered"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} (event {self.event_id})"


class Station(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="stations")
    #: In the station's URLs: ``stream-1``.
    slug = models.SlugField(max_length=40)
    name = models.CharField(max_length=60)
    #: The table of the current round the station shows (``None``: none yet).
    table_number = models.PositiveIntegerField(null=True, blank=True)
    #: The player whose decklist is on air (``None``: none).
    revealed_player = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["event", "slug"]
        constraints = [models.UniqueConstraint(fields=["event", "slug"], name="station_slug_unique_per_event")]

    def __str__(self) -> str:
        return f"{self.name} ({self.slug}) @ event {self.event_id}"


class RoundTimer(models.Model):
    round = models.OneToOneField("tournaments.Round", on_delete=models.CASCADE, primary_key=True, related_name="timer")
    #: The round's length as started, in seconds (extensions of the whole round are added to it).
    duration_seconds = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    #: When time is up, while running; ``None`` while paused.
    deadline = models.DateTimeField(null=True, blank=True)
    #: Seconds left, while paused; ``None`` while running.
    remaining_seconds = models.IntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(deadline__isnull=False, remaining_seconds__isnull=True)
                | Q(deadline__isnull=True, remaining_seconds__isnull=False),
                name="round_timer_running_or_paused",
            ),
        ]

    def __str__(self) -> str:
        return f"timer of round {self.round_id}"

    @property
    def paused(self) -> bool:
        return self.deadline is None

    def remaining(self, now: datetime.datetime | None = None) -> int:
        """Whole seconds left (negative once time is up)."""
        if self.deadline is None:
            return int(self.remaining_seconds or 0)
        delta = self.deadline - (now or timezone.now())
        return int(delta.total_seconds() // 1)


class TableTimeExtension(models.Model):
    """Extra time a judge gave one table (a ruling, a deck check): the table's deadline moves by ``seconds``."""

    pod = models.ForeignKey("tournaments.Pod", on_delete=models.CASCADE, related_name="time_extensions")
    seconds = models.PositiveIntegerField()
    reason = models.CharField(max_length=200)
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    given_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pod", "given_at", "id"]
        constraints = [models.CheckConstraint(condition=Q(seconds__gte=1), name="table_extension_positive")]

    def __str__(self) -> str:
        return f"+{self.seconds}s for {self.pod}"


#: How many characters of a key are kept, to tell an event's tokens apart (the rest is only in the digest).
TOKEN_PREFIX_LENGTH = 8


def new_token_key() -> str:
    return secrets.token_urlsafe(24)


def token_digest(key: str) -> str:
    """What is stored of a key, and what a key sent with a request is looked up by: its SHA-256, in hex.  A slow
    hash buys nothing here: a key is 192 random bits, not a password someone chose."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class OverlayToken(models.Model):
    """A read-only key to one event's private reads for overlays (``?token=`` on a station's overlay URL): its
    digest and the start of it (see the module's terms)."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="overlay_tokens")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=TOKEN_PREFIX_LENGTH, editable=False)
    label = models.CharField(max_length=100)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"overlay token {self.label!r} of event {self.event_id}"
