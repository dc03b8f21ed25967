"""Game records: a game at a table, its append-only event log, and the state snapshot.

A judge records what happens as :class:`GameEvent` rows; nothing is ever
deleted.  Voiding an entry is an event too (type ``void``): it marks its
target ``voided_by`` and the state is replayed from the start without it.
``Game.version`` is the number of log entries; a client names the version it
last saw when it appends, so two judges never overwrite each other.  A game
still in progress when its table's result is recorded by hand is closed as
*superseded*: its log stays as it was and takes no more entries.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules import Format, get_format
from rules import choices as format_choices


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        #: Closed unfinished: the table's result was recorded without it (by staff, or confirmed by its players).
        SUPERSEDED = "superseded", _("Closed: result recorded by hand")

    pod = models.ForeignKey("tournaments.Pod", on_delete=models.CASCADE, related_name="games")
    #: 1 for a single game; 1..n within a best-of-3 match.
    number = models.PositiveSmallIntegerField(default=1)
    format = models.CharField(max_length=40, choices=format_choices)
    options = models.JSONField(default=dict, blank=True)
    #: Player ids in turn order.
    players = models.JSONField(default=list)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    state = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pod", "number"]
        constraints = [models.UniqueConstraint(fields=["pod", "number"], name="game_number_unique_per_table")]

    def __str__(self) -> str:
        return f"{self.pod} - game {self.number}"

    @property
    def format_spec(self) -> Format:
        """The format's registry record (engine, match result, vocabulary)."""
        return get_format(self.format)


class GameEvent(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    payload = models.JSONField(default=dict, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    voided_by = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="voids")

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="game_event_seq_unique"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="game_event_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.type}"
