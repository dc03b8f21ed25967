"""The venue floor: players calling a judge, deck checks, and which judge watches which tables.

Terms
=====

*judge call*
    A table asking for a judge (:class:`JudgeCall`): a player seated there calls from their page, or staff open
    one for any table.  It is *open* (waiting), then *claimed* (a judge is coming: who and when), then *resolved*
    (with the judge's note, and the table's extra time if any was given) or *cancelled*.  A table has at most one
    call waiting or claimed at a time.  The times it was called, claimed and resolved are kept.

*deck check*
    A judge checking the decks at one table of a round (:class:`DeckCheck`): picked by hand or drawn at random
    (:class:`DeckCheckDraw`, which keeps its seed), then started and ended, with its outcome (*ok*, or *problem*
    found, with a note), the table's extra time, and the penalties given for it.  A table is checked at most
    once a round.

*assignment*
    A judge watching a run of tables (:class:`JudgeAssignment`: ``first_table`` to ``last_table``) for the whole
    event or for one round.  Their page lists "your tables", and their tables' calls come first.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class JudgeCall(models.Model):
    class State(models.TextChoices):
        OPEN = "open", _("Waiting for a judge")
        CLAIMED = "claimed", _("A judge is coming")
        RESOLVED = "resolved", _("Resolved")
        CANCELLED = "cancelled", _("Cancelled")

    #: The states of a call still waiting for its end (one per table at a time).
    LIVE = (State.OPEN, State.CLAIMED)

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    pod = models.ForeignKey("tournaments.Pod", on_delete=models.CASCADE, related_name="judge_calls")
    #: The table's round and number, as the queue and the trail show them.
    round_number = models.PositiveSmallIntegerField()
    table_number = models.PositiveIntegerField()
    state = models.CharField(max_length=12, choices=State.choices, default=State.OPEN)
    #: What the caller said, if anything ("Rules question", "We disagree on a ruling").
    reason = models.CharField(max_length=200, blank=True)
    #: The player who called (``None``: staff opened it).
    called_by_player = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    called_at = models.DateTimeField()
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: When it was resolved or cancelled.
    resolved_at = models.DateTimeField(null=True, blank=True)
    #: The judge's note (the ruling), or why it was cancelled.
    note = models.TextField(blank=True)
    #: The extra time given to the table when it was resolved.
    extension = models.ForeignKey(
        "live.TableTimeExtension", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event", "called_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["pod"], condition=Q(state__in=["open", "claimed"]), name="judge_call_one_live_per_table"
            ),
        ]
        indexes = [models.Index(fields=["event", "state"], name="judge_call_event_state")]

    def __str__(self) -> str:
        return f"judge call #{self.pk}: round {self.round_number}, table {self.table_number} ({self.state})"

    @property
    def live(self) -> bool:
        return self.state in self.LIVE


class DeckCheckDraw(models.Model):
    """Tables drawn at random for deck checks: the seed is kept, and the same seed picks the same tables."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    round_number = models.PositiveSmallIntegerField()
    count = models.PositiveSmallIntegerField()
    seed = models.PositiveBigIntegerField()
    #: The table numbers it picked, in the order drawn.
    tables = models.JSONField(default=list)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "drawn_at", "id"]

    def __str__(self) -> str:
        return f"deck-check draw of round {self.round_number} (seed {self.seed})"


class DeckCheck(models.Model):
    class Outcome(models.TextChoices):
        OK = "ok", _("OK")
        PROBLEM = "problem", _("Problem found")

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    pod = models.ForeignKey("tournaments.Pod", on_delete=models.CASCADE, related_name="deck_checks")
    round_number = models.PositiveSmallIntegerField()
    table_number = models.PositiveIntegerField()
    #: The random draw that picked it (``None``: picked by hand).
    draw = models.ForeignKey(DeckCheckDraw, null=True, blank=True, on_delete=models.SET_NULL, related_name="checks")
    picked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    picked_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    #: Empty until it is recorded.
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    note = models.TextField(blank=True)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    extension = models.ForeignKey(
        "live.TableTimeExtension", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: The penalties given for what the check found.
    penalties = models.ManyToManyField("tournaments.Penalty", blank=True, related_name="deck_checks")

    class Meta:
        ordering = ["event", "round_number", "table_number", "id"]
        constraints = [models.UniqueConstraint(fields=["pod"], name="deck_check_one_per_table")]

    def __str__(self) -> str:
        return f"deck check of round {self.round_number}, table {self.table_number}"

    @property
    def status(self) -> str:
        if self.outcome:
            return "recorded"
        return "started" if self.started_at else "picked"


class JudgeAssignment(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    first_table = models.PositiveIntegerField()
    last_table = models.PositiveIntegerField()
    #: ``None``: every round of the event.
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    assigned_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "first_table", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(first_table__gte=1, last_table__gte=F("first_table")), name="judge_assignment_range"
            ),
        ]

    def __str__(self) -> str:
        return f"judge {self.judge_id}: tables {self.first_table}-{self.last_table}"

    def covers(self, round_number: int | None, table: int) -> bool:
        return (self.round_number is None or self.round_number == round_number) and (
            self.first_table <= table <= self.last_table
        )

    @property
    def tables_label(self) -> str:
        if self.first_table == self.last_table:
            return gettext("Table %(table)s") % {"table": self.first_table}
        return gettext("Tables %(first)s–%(last)s") % {"first": self.first_table, "last": self.last_table}
