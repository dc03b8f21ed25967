"""Leagues, their seasons and staff, season standings, ratings per format and deck archetypes.

Terms (the engines' docstrings define the figures): a **league** (an organiser's
weekly nights, say) holds one or more formats and runs **seasons**; a season has
dates, a points table and the **events** attached to it (an event belongs to at
most one season).  **Season standings** are stored by the season task with the
version they reflect, like an event's standings.  **Ratings** are per format,
across every event of the format, league or not: the current figures per
player, and the history of every change (one row per player per rated table),
which also says what each table was rated with (its place in play order and
every placement), so a changed result is found again.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from rules import choices as format_choices
from tournaments.models import Event, EventStaff, Player, Pod, Registration


class League(models.Model):
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_leagues")
    #: The format slugs the league holds; an event of another format cannot join its seasons.
    formats = models.JSONField(default=list)
    #: A private league's pages are for its staff and the players of its events.
    is_public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def format_names(self) -> list[str]:
        names = dict(format_choices())
        return [names.get(slug, slug) for slug in self.formats]


class LeagueStaff(models.Model):
    """A user with a role in a league: they hold it at every event of the league's seasons."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_roles")
    role = models.CharField(max_length=16, choices=EventStaff.Role.choices)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "role", "user_id"]
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="league_staff_one_role_per_user")]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) @ {self.league}"


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=200)
    starts_on = models.DateField()
    ends_on = models.DateField()
    #: The preset the points table started from (it may have been edited since).
    preset = models.CharField(max_length=32, default="balanced")
    #: :class:`leagues.points.PointsTable` as JSON.
    points_table = models.JSONField(default=dict)
    #: Bumped by every change the standings depend on; the stored standings say which version they reflect.
    results_version = models.PositiveIntegerField(default=0)
    standings_version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-starts_on", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_start")
        ]

    def __str__(self) -> str:
        return f"{self.league} - {self.name}"

    @property
    def standings_current(self) -> bool:
        return self.standings_version >= self.results_version


class SeasonEvent(models.Model):
    """An event of a season: at most one season per event (the database says so)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="season_events")
    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="season_link")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "event__date", "event_id"]

    def __str__(self) -> str:
        return f"{self.event} in {self.season}"


class SeasonStanding(models.Model):
    """A player's line in a season's standings, written by the season task; read with one query."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_standings")
    rank = models.PositiveIntegerField()
    points = models.PositiveIntegerField()
    events_played = models.PositiveIntegerField()
    events_counted = models.PositiveIntegerField()
    average_placing = models.FloatField()
    best_placing = models.PositiveIntegerField()
    head_to_head = models.BooleanField(default=False)
    #: ``[{"event": id, "points": n, "placing": n, "counted": bool}]`` in season order.
    events = models.JSONField(default=list)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["season", "rank", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="season_standing_one_per_player"),
        ]
        indexes = [models.Index(fields=["season", "rank"], name="season_standing_rank")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player} ({self.points})"


class LeagueAuditEntry(models.Model):
    """A change to a league or a season (who, when, what, before and after, why), never edited."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="audit")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=64)
    subject = models.CharField(max_length=200)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "league audit entries"

    def __str__(self) -> str:
        return f"{self.action} {self.subject}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError("Audit entries are never changed.")
        super().save(*args, **kwargs)


# --- ratings ------------------------------------------------------------------------------------------


class PlayerRating(models.Model):
    """A player's current rating in one format (:mod:`leagues.ratings`)."""

    format = models.CharField(max_length=40, choices=format_choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    #: The displayed rating, ``mu - 3 sigma`` (stored for the leaderboard's order).
    rating = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["format", "-rating", "player_id"]
        constraints = [models.UniqueConstraint(fields=["format", "player"], name="player_rating_one_per_format")]
        indexes = [models.Index(fields=["format", "-rating"], name="player_rating_board")]

    def __str__(self) -> str:
        return f"{self.player} {self.format}: {self.rating:.1f}"


class RatingChange(models.Model):
    """What rating one table did to one player: the history a recompute resumes from and the chart draws.

    A table's changes are also the record of what it was rated with (its ``key`` and each player's
    ``placement``): an update compares a table's result with them to find a correction or a moved event.  Until
    2026-11-27 a row per table said the same again (``RatedTable``, migration leagues 0004), which a season
    from scratch paid as 27,675 more rows, three indexes and a foreign-key check each."""

    format = models.CharField(max_length=40, choices=format_choices)
    #: The table's place in play order (see :func:`leagues.services.ratings.table_key`).
    key = models.CharField(max_length=40)
    #: The table; its event is the table's round's (no column of its own: a season from scratch writes 70,000
    #: changes, and each foreign key is one more check per row at commit).  Neither key has an index of its own:
    #: the unique ``(pod, player)`` and the history's ``(player, format, key)`` lead with them.  No foreign key
    #: in the database, as for the player below: the service locks the pods of the changes it writes, once each
    #: (``leagues.services.ratings._lock_pods``), and deleting a pod through the ORM deletes its changes.
    pod = models.ForeignKey(Pod, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False)
    #: No foreign key in the database: the check per row cost a recompute as much as storing the row.  The
    #: service that writes a recompute's thousands of rows locks their few hundred players instead, once each
    #: (``leagues.services.ratings._lock_players``), and a change is only ever written for a seated player,
    #: whom the seat's own key (``PROTECT``) keeps; deleting a player through the ORM still deletes the history.
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False, db_constraint=False
    )
    placement = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_after = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["format", "key", "player_id"]
        constraints = [models.UniqueConstraint(fields=["pod", "player"], name="rating_change_once_per_table")]
        indexes = [
            models.Index(fields=["format", "key"], name="rating_change_order"),
            models.Index(fields=["player", "format", "key"], name="rating_change_history"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.format} {self.key}: {self.rating_after:.1f}"


class EventRatingState(models.Model):
    """The event's results version its ratings reflect: an event whose results moved since is looked at again."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="rating_state")
    rated_version = models.PositiveIntegerField(default=0)
    rated_date = models.DateField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings of event {self.event_id} at version {self.rated_version}"


# --- meta ---------------------------------------------------------------------------------------------


class ArchetypeName(models.Model):
    """The organiser's name for a registration's deck, over the one Podium gives it."""

    registration = models.OneToOneField(Registration, on_delete=models.CASCADE, related_name="archetype_name")
    name = models.CharField(max_length=100)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.name
