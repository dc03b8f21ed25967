"""Players, events, registrations, rounds, tables (pods), seats, results and stored standings.

Terms: a *round* seats every active player at a *table* (a *pod* when it has
more than two seats) or gives them a *bye* (a table with one seat and no table
number).  A *seat* holds a player's seat order and, once the table's result is
reported, their *placement* (1 = won; equal placements = a draw) and the match
*points* the format's scoring gives for it.

The database makes impossible states impossible: one registration per player
per event, one seat per player per round, one result per table, one round per
number per event.  Business rules (who is paired, what a valid result is) live
in :mod:`tournaments.services`; models hold none.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules import Format, get_format
from rules import choices as format_choices
from rules.base import TableSize
from rules.options import Option, Use


class Player(models.Model):
    display_name = models.CharField(max_length=100)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    #: An id from outside Podium (Pokémon Player ID, Konami ID, club membership).
    external_id = models.CharField(max_length=64, null=True, blank=True, unique=True)
    #: A code the organiser gives a walk-in so they can claim this record with an account (one person, one history).
    claim_code = models.CharField(max_length=16, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "id"]

    def __str__(self) -> str:
        return self.display_name


def default_time_zone() -> str:
    """A new event's time zone: the site's (``TIME_ZONE``)."""
    return settings.TIME_ZONE


def default_paper() -> str:
    """A new event's paper for its printouts: the site's (``PODIUM_PAPER``)."""
    return settings.PODIUM_PAPER


class Event(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(max_length=200)
    format = models.CharField(max_length=40, choices=format_choices)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    planned_rounds = models.PositiveSmallIntegerField()
    date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_events")
    #: Where the event is held, as an IANA name (``Europe/Paris``): its pages show times in it, and a deadline
    #: entered on the dashboard is read in it.
    time_zone = models.CharField(max_length=64, default=default_time_zone)

    class Paper(models.TextChoices):
        A4 = "a4", "A4"
        LETTER = "letter", _("US Letter")

    #: The paper its printouts (pairings, slips, standings, bracket) are laid out for unless the link says another.
    paper = models.CharField(max_length=6, choices=Paper.choices, default=default_paper)
    #: The language of its public pages and venue display for visitors who chose none (no account setting, no
    #: cookie): one of ``settings.LANGUAGES``; blank: the browser's (core.language).
    language = models.CharField(max_length=7, choices=settings.LANGUAGES, blank=True, default="")

    class Tiebreakers(models.TextChoices):
        # xgettext:no-python-format
        CLASSIC = "classic", _("Classic (OMW% 25% floor, OOMW%)")
        POKEMON = "pokemon", _("Pokémon (win % with ties as half, head-to-head)")
        # xgettext:no-python-format
        MAGIC = "magic", _("Magic (OMW% 33% floor, game-win %)")

    #: Tiebreaker convention of the standings (multiplayer pods always use points, opponents' points, OMW%, OOMW%).
    tiebreakers = models.CharField(max_length=16, choices=Tiebreakers.choices, default=Tiebreakers.CLASSIC)
    #: Decklists are hidden from other players until the organiser publishes them.
    decklists_public = models.BooleanField(default=False)
    #: The format's options the organiser chose (the rulebook's variants, house rules), checked against the
    #: format's record: {"starting_lp": 6000, "mana_rate": 2} (Mintayn), {"banlist": "2026.05 TCG"},
    #: {"game_end": "last_standing"}.  Defaults are not stored: an option left out plays by the book.
    options = models.JSONField(default=dict, blank=True)

    class Leftovers(models.TextChoices):
        TABLES = "tables", _("Smaller pods (e.g. 3s) when numbers don't divide")
        BYES = "byes", _("Byes instead of smaller pods")

    #: ``None``: the format's tables (pods for multiplayer formats); ``2``: 1v1 Swiss (e.g. 2-player Master Trainer).
    players_per_table = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Multiplayer pods: what happens to players left over when the field does not divide into full pods.
    pod_leftovers = models.CharField(max_length=10, choices=Leftovers.choices, default=Leftovers.TABLES)
    #: Phases (:class:`Phase`) in the event's plan: 0 without phases (one phase of every Swiss round; pages then
    #: read no phase).
    phase_count = models.PositiveSmallIntegerField(default=0)
    #: Phases whose players have gone on to the next: 0 until the first advance (or without phases).
    advanced_phases = models.PositiveSmallIntegerField(default=0)
    #: Players in the top cut once it has started (0 = no cut so far).
    top_cut_size = models.PositiveSmallIntegerField(default=0)
    #: The top cut the organiser plans before it starts (0 = none); ``None``: the recommendation for the attendance.
    #: The cut line follows it, and starting the top cut takes it unless told another size.
    planned_cut_size = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Players register themselves while this is on (until the deadline; beyond the capacity, on a waiting list).
    registration_open = models.BooleanField(default=False)
    registration_deadline = models.DateTimeField(null=True, blank=True)
    #: At most this many registered players; more join the waiting list, promoted in order. ``None``: no limit.
    capacity = models.PositiveIntegerField(null=True, blank=True)
    #: Places by lottery: until the draw, players *apply* (status ``applied``) instead of taking places first come,
    #: first served; the draw (:mod:`tournaments.lottery`) fills the capacity and puts the rest on the waiting list
    #: in drawn order.  Needs a capacity.
    lottery = models.BooleanField(default=False)
    #: When the lottery is drawn by itself (the sweep draws it); ``None``: when the organiser draws it.
    lottery_draw_at = models.DateTimeField(null=True, blank=True)
    #: The draw: when, and its seed (the same applicants and seed give the same draw).  Drawn once.
    lottery_drawn_at = models.DateTimeField(null=True, blank=True)
    lottery_seed = models.BigIntegerField(null=True, blank=True)
    #: Registration opens to everyone at this time (``None``: as soon as it is open); priority players earlier.
    registration_opens_at = models.DateTimeField(null=True, blank=True)
    #: Priority players register from this time on (before ``registration_opens_at``); ``None``: no priority window.
    priority_opens_at = models.DateTimeField(null=True, blank=True)
    #: Priority by league points: players with at least ``priority_min_points`` in this season (a
    #: ``leagues.Season`` id: the leagues app sits above this one and answers for its points).
    priority_season_id = models.PositiveIntegerField(null=True, blank=True)
    priority_min_points = models.PositiveIntegerField(null=True, blank=True)
    #: Priority by an earned invite: these players, by name.
    priority_players = models.ManyToManyField("Player", blank=True, related_name="priority_events")
    #: The entry fee (``None``: free) and its currency (ISO 4217: EUR, USD); Podium takes no payment itself.
    entry_fee = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    fee_currency = models.CharField(max_length=3, blank=True)
    #: The organiser's own checkout page, where players pay the fee.
    checkout_url = models.URLField(max_length=500, blank=True)
    #: Whether a player who has not paid the fee may check in (themselves or by staff).
    unpaid_check_in = models.BooleanField(default=True)
    #: Players check themselves in while this is on (the window the organiser opens, e.g. with the QR code).
    check_in_open = models.BooleanField(default=False)
    #: Players report their table's result, the other players at the table confirm it; staff results are final.
    player_reports = models.BooleanField(default=False)
    #: Casters see decklists before they are published.
    casters_see_decklists = models.BooleanField(default=False)
    #: Staff review each paired round before players see it: a new round stays with the staff (dashboard) until
    #: published; pages, the API for everyone else, streams and overlays show the round before it meanwhile.
    stage_pairings = models.BooleanField(default=False)

    class Floor(models.TextChoices):
        POINT_33 = "0.33", "0.33"
        THIRD = "1/3", _("exactly 1/3 (as Melee and MTGO publish)")

    #: The Magic convention's 33 % floor of match- and game-win percentages.
    magic_floor = models.CharField(max_length=4, choices=Floor.choices, default=Floor.POINT_33)
    #: Bumped by every recorded result; standings store the version they reflect.
    results_version = models.PositiveIntegerField(default=0)
    standings_version = models.PositiveIntegerField(default=0)
    #: Since when the stored standings lag the results (the first result they miss; ``None`` while current):
    #: ``/metrics`` reports the oldest (core.metrics).
    standings_stale_since = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        #: The organiser permission: who may create events (and player records), granted by site staff.
        permissions = [("organise_events", "Can create events (organiser)")]
        constraints = [
            models.CheckConstraint(condition=Q(planned_rounds__gte=1), name="event_planned_rounds_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["registration", "running", "finished"]), name="event_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(players_per_table__isnull=True) | Q(players_per_table__gte=2),
                name="event_players_per_table_at_least_two",
            ),
            models.CheckConstraint(
                condition=Q(lottery=False) | Q(capacity__isnull=False), name="event_lottery_capacity"
            ),
            models.CheckConstraint(
                condition=Q(entry_fee__isnull=True) | Q(entry_fee__gte=0), name="event_entry_fee_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def format_spec(self) -> Format:
        """The format's registry record: table sizes, scoring, deck rules, engine."""
        return get_format(self.format)

    @property
    def table_size(self) -> TableSize:
        """Players per table for this event: the format's, or 1v1 when the organiser chose it."""
        if self.players_per_table == 2:
            return TableSize(min=2, max=2, preferred=2)
        return self.format_spec.table_size_for(self.options)

    @property
    def is_one_vs_one(self) -> bool:
        return self.table_size.is_one_vs_one

    def options_for(self, use: Use) -> dict[str, Any]:
        """The values of the format's options read by the deck rules, the engine or the pairing (defaults
        filled in)."""
        return self.format_spec.effective_options(self.options, use=use)

    @property
    def deck_options(self) -> dict[str, Any]:
        """The options the organiser set that the deck rules read (the ``deck-options`` API's shape)."""
        deck = {o.name for o in self.format_spec.options_for(Use.DECK)}
        return {k: v for k, v in self.options.items() if k in deck}

    @property
    def house_rules(self) -> list[tuple[Option, Any]]:
        """The options set to a house rule: the event's pages and the API label them."""
        return self.format_spec.house_rules(self.options)

    @property
    def decks_locked(self) -> bool:
        """Decks lock when the event starts."""
        return self.status != self.Status.REGISTRATION

    @property
    def standings_current(self) -> bool:
        return self.standings_version >= self.results_version

    @property
    def takes_applications(self) -> bool:
        """A lottery not drawn yet: self-registration is an application."""
        return self.lottery and self.lottery_drawn_at is None

    @property
    def has_fee(self) -> bool:
        return self.entry_fee is not None and self.entry_fee > 0


class Phase(models.Model):
    """A part of an event's Swiss rounds: *Day 1*, *Day 2* (:mod:`tournaments.standings.phases` defines the terms).

    An event without phases is one phase of all its Swiss rounds.  Phases are
    numbered from 1 and their rounds follow each other: the event's
    ``planned_rounds`` is the sum of theirs.  Every phase but the last says
    who goes on: the players with at least ``advance_points`` match points, or
    the top ``advance_top`` of the standings.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="phases")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    rounds = models.PositiveSmallIntegerField()
    advance_points = models.PositiveIntegerField(null=True, blank=True)
    advance_top = models.PositiveIntegerField(null=True, blank=True)
    #: When its players went on to the next phase (``None``: not yet, or the last phase).
    advanced_at = models.DateTimeField(null=True, blank=True)
    #: How many went on.
    advanced_count = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="phase_number_unique_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="phase_number_positive"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="phase_rounds_positive"),
            models.CheckConstraint(
                condition=Q(advance_points__isnull=True) | Q(advance_top__isnull=True), name="phase_one_advance_rule"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} - {self.name}"


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        WAITLISTED = "waitlisted", _("On the waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        #: Staff entered a player record linked to an account: the player has not accepted (or declined) yet.
        INVITED = "invited", _("Invited")
        #: Applied for a place in the event's lottery, not drawn yet.
        APPLIED = "applied", _("Applied to the lottery")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    #: Only registered players are in the event; the waiting list is promoted in the order it was joined; an
    #: invitation is nowhere in the event (lists, pairing, check-in) until its player accepts it.
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERED)
    #: The player registered themselves (rather than staff entering a walk-in).
    self_registered = models.BooleanField(default=False)
    #: When the player joined the waiting list (its order); ``None`` for players who never waited.
    waitlisted_at = models.DateTimeField(null=True, blank=True)
    checked_in = models.BooleanField(default=False)
    dropped = models.BooleanField(default=False)
    #: The last round the player played before dropping (0 = before round 1).
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Late entry: the first round the player could be paired in; every round before it counts as a loss.
    late_entry_round = models.PositiveSmallIntegerField(null=True, blank=True)
    #: A table the player must always sit at (accessibility, a judge's table); ``None`` = anywhere.
    fixed_table = models.PositiveIntegerField(null=True, blank=True)
    #: The last phase the player plays in (:class:`Phase`): 1 until they advance to the next one.
    phase = models.PositiveSmallIntegerField(default=1)
    #: The player does not want to be streamed: no station shows a table they sit at (``live``'s feature matches).
    stream_opt_out = models.BooleanField(default=False)
    #: When the consent last changed (``None``: never, the default stands).
    stream_consent_changed_at = models.DateTimeField(null=True, blank=True)
    #: The applicant's place in the lottery's drawn order (1 = drawn first); ``None`` for players not drawn.
    lottery_rank = models.PositiveIntegerField(null=True, blank=True)
    #: The entry fee: when staff marked it paid, and who (``None``: unpaid).
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player__display_name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="registration_one_per_player_per_event"),
            models.UniqueConstraint(
                fields=["event", "fixed_table"],
                condition=Q(fixed_table__isnull=False),
                name="registration_fixed_table_unique_per_event",
            ),
            models.CheckConstraint(
                condition=Q(fixed_table__isnull=True) | Q(fixed_table__gte=1), name="registration_fixed_table_positive"
            ),
            models.CheckConstraint(
                condition=Q(status="registered") | Q(checked_in=False, dropped=False),
                name="registration_only_registered_play",
            ),
        ]
        indexes = [models.Index(fields=["event", "status", "waitlisted_at"], name="registration_waiting_list")]

    def __str__(self) -> str:
        return f"{self.player} @ {self.event}"

    @property
    def assigned_bye_rounds(self) -> list[int]:
        """Rounds the organiser gave this player a bye (prefetch ``bye_assignments`` for lists)."""
        return sorted(b.round_number for b in self.bye_assignments.all())

    @property
    def missed_rounds(self) -> int:
        """Rounds lost by entering late."""
        return max(0, (self.late_entry_round or 1) - 1)


class ByeAssignment(models.Model):
    """A bye the organiser gives a player for one round, before that round is paired."""

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="bye_assignments")
    round_number = models.PositiveSmallIntegerField()
    assigned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_number", "registration"]
        constraints = [
            models.UniqueConstraint(fields=["registration", "round_number"], name="bye_assignment_once_per_round"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="bye_assignment_round_positive"),
        ]

    def __str__(self) -> str:
        return f"bye for {self.registration} in round {self.round_number}"


class KeepApart(models.Model):
    """Two players the organiser asks the pairing to keep apart (family, teammates, a carpool): they are not seated
    together when a pairing avoids it, with the weight of a rematch (:mod:`tournaments.services.keep_apart`)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="keep_apart")
    #: The pair, lower player id first.
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    note = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "player_a", "player_b"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player_a", "player_b"], name="keep_apart_once_per_pair"),
            models.CheckConstraint(condition=Q(player_a__lt=models.F("player_b")), name="keep_apart_ordered_pair"),
        ]

    def __str__(self) -> str:
        return f"keep {self.player_a_id} and {self.player_b_id} apart at {self.event_id}"


class Round(models.Model):
    class Stage(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        TOP_CUT = "top_cut", _("Top cut")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.SWISS)
    #: The pairing engine's seed: the same inputs and seed reproduce the pairing.
    seed = models.BigIntegerField()
    #: The pairing engine's objective value (see :mod:`tournaments.pairing`); ``None`` for top-cut rounds.
    objective = models.BigIntegerField(null=True, blank=True)
    #: Repeated opponent pairs the pairing could not avoid (or a manual swap created).
    rematches = models.PositiveIntegerField(default=0)
    #: Changed by hand after pairing (a swap): the seed no longer reproduces it alone.
    edited = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When players could see it: at once, unless the event stages its pairings (then when staff publish it).
    published_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event} - round {self.number}"

    @property
    def published(self) -> bool:
        return self.published_at is not None


class Pod(models.Model):
    """A table of a round.  A bye is a pod with one seat and no table number."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pods")
    table_number = models.PositiveIntegerField(null=True, blank=True)
    is_bye = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "is_bye", "table_number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table_number"], name="pod_table_number_unique_per_round"),
            models.CheckConstraint(
                condition=Q(is_bye=True, table_number__isnull=True) | Q(is_bye=False, table_number__gte=1),
                name="pod_bye_has_no_table_number",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} - bye" if self.is_bye else f"{self.round} - table {self.table_number}"


class Seat(models.Model):
    pod = models.ForeignKey(Pod, on_delete=models.CASCADE, related_name="seats")
    #: Denormalised from ``pod.round`` so the database can enforce one seat per player per round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    seat_order = models.PositiveSmallIntegerField()
    placement = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Match points and standing rank the player had when the round was paired (for explanations).
    points_before = models.PositiveIntegerField(null=True, blank=True)
    rank_before = models.PositiveIntegerField(null=True, blank=True)
    #: Top-cut seed (1 = best), ``None`` in Swiss rounds.
    cut_seed = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Why the player sits here: reason codes from the pairing engine (and "swapped", "table_changed", "top_cut").
    reasons = models.JSONField(default=list, blank=True)
    #: 1v1 game score of the match (2-1, 2-0, 1-1-1 ...): games won, lost and drawn; ``None`` when not given.
    games_won = models.PositiveSmallIntegerField(null=True, blank=True)
    games_lost = models.PositiveSmallIntegerField(null=True, blank=True)
    games_drawn = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["pod", "seat_order"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.UniqueConstraint(fields=["pod", "seat_order"], name="seat_order_unique_per_pod"),
            models.CheckConstraint(condition=Q(seat_order__gte=1), name="seat_order_positive"),
            models.CheckConstraint(
                condition=Q(placement__isnull=True, points__isnull=True) | Q(placement__gte=1, points__isnull=False),
                name="seat_placement_and_points_together",
            ),
            models.CheckConstraint(
                condition=Q(games_won__isnull=True, games_lost__isnull=True, games_drawn__isnull=True)
                | Q(games_won__isnull=False, games_lost__isnull=False, games_drawn__isnull=False),
                name="seat_game_score_whole",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} seat {self.seat_order}"

    @property
    def games_record(self) -> tuple[int, int, int] | None:
        """The match's game score (won, lost, drawn); ``None`` when none was given (the three are set together)."""
        if self.games_won is None or self.games_lost is None or self.games_drawn is None:
            return None
        return self.games_won, self.games_lost, self.games_drawn


class PodResult(models.Model):
    """The reported result of a table: one per pod (placements are on the seats)."""

    class Source(models.TextChoices):
        DASHBOARD = "dashboard", _("Dashboard")
        API = "api", "API"
        GAME = "game", _("Game record")
        BYE = "bye", _("Bye")
        PLAYERS = "players", _("Reported and confirmed by the players")
        #: A player's report that staff accepted as it stood (another player could not confirm it: a walk-in).
        ACCEPTED = "accepted", _("Reported by a player, accepted by staff")

    pod = models.OneToOneField(Pod, on_delete=models.CASCADE, related_name="result")
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    reported_at = models.DateTimeField(auto_now_add=True)
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.DASHBOARD)
    #: The players agreed a draw without playing it out: its unplayed games are worth no game points.
    intentional_draw = models.BooleanField(default=False)
    #: Set by a correction (the audit trail keeps every version).
    corrected_at = models.DateTimeField(null=True, blank=True)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        # The few corrected results, found without reading every result (the ratings ask on each update).
        indexes = [
            models.Index(fields=["pod"], name="podresult_corrected", condition=models.Q(corrected_at__isnull=False))
        ]

    def __str__(self) -> str:
        return f"result of {self.pod}"


class Standing(models.Model):
    """A player's stored standing, written by the standings task; read with one query."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField()
    points = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    draws = models.PositiveIntegerField()
    losses = models.PositiveIntegerField()
    byes = models.PositiveIntegerField()
    matches = models.PositiveIntegerField()
    opp_match_win_pct = models.FloatField()
    opp_opp_match_win_pct = models.FloatField()
    opp_avg_points = models.FloatField()
    game_win_pct = models.FloatField(default=0.0)
    opp_game_win_pct = models.FloatField(default=0.0)
    dropped = models.BooleanField(default=False)
    #: The last phase the player plays in: the overall standings rank a later phase's players first.
    phase = models.PositiveSmallIntegerField(default=1)
    #: ``Event.results_version`` these figures reflect.
    results_version = models.PositiveIntegerField()

    class Meta:
        #: Players who share a rank are listed by player ID, the order the standings engine ranks and the cut seeds them.
        ordering = ["event", "rank", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="standing_one_per_player_per_event"),
        ]
        indexes = [models.Index(fields=["event", "rank"], name="standing_event_rank")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player}"


class ResultReport(models.Model):
    """A player's report of their table's result, waiting for the other players at the table.

    When every other player at the table has agreed, the report becomes the
    table's :class:`PodResult`.  A player who disagrees, or reports something
    else, makes it *disputed*; staff then enter the result, which *settles* it.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        SETTLED = "settled", _("Settled by staff")

    pod = models.ForeignKey(Pod, on_delete=models.CASCADE, related_name="reports")
    #: The player who reported.
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="result_reports")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    #: ``{"<player id>": placement}``.
    placements = models.JSONField()
    #: ``{"<player id>": [won, lost, drawn]}`` (1v1), or ``None``.
    games = models.JSONField(null=True, blank=True)
    intentional_draw = models.BooleanField(default=False)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pod", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["pod"], condition=Q(status__in=["pending", "disputed"]), name="result_report_one_open_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} reports {self.pod}: {self.status}"


class ResultResponse(models.Model):
    """Another player's answer to a report: agreed, or disputed (with what they say happened)."""

    report = models.ForeignKey(ResultReport, on_delete=models.CASCADE, related_name="responses")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="result_responses")
    agrees = models.BooleanField()
    #: What the player says instead, when they disagree by reporting a different result.
    placements = models.JSONField(null=True, blank=True)
    games = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["report", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["report", "player"], name="result_response_once_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {'agrees with' if self.agrees else 'disputes'} {self.report}"


class EventStaff(models.Model):
    """A user with a role at one event (the organiser needs no row: they are the event's owner)."""

    class Role(models.TextChoices):
        CO_ORGANISER = "co_organiser", _("Co-organiser")
        SCOREKEEPER = "scorekeeper", _("Scorekeeper")
        JUDGE = "judge", _("Judge")
        CASTER = "caster", _("Caster")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles")
    role = models.CharField(max_length=16, choices=Role.choices)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="event_staff_one_role_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) @ {self.event}"


class AuditEntry(models.Model):
    """One change made through the services: who, when, what, and the values before and after.

    Written in the change's own transaction; nothing in the app edits or
    deletes an entry (the model refuses it).
    """

    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    #: What happened, as ``<entity>.<verb>``: ``result.corrected``, ``registration.dropped``, ...
    action = models.CharField(max_length=64)
    #: What it happened to, in words: "Round 2, table 3", "Ash Ketchum (#12)".
    subject = models.CharField(max_length=200)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["event", "-created_at"], name="audit_entry_event_time")]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.subject}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError("Audit entries are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("Audit entries are never deleted.")


class Penalty(models.Model):
    """A penalty a judge (or an organiser) gives a player at an event, for one infraction.

    The penalties are those of the tournament rules Podium's games share
    (Pokémon's and Magic's penalty guidelines): a *caution*, a *warning*, a
    *prize penalty*, a *game loss*, a *match loss* and a *disqualification*.
    A game or match loss is recorded here and applied by entering the table's
    result; a disqualification also drops the player.  A penalty is never
    deleted: *rescinding* it keeps it, marked with who rescinded it, when and why.
    """

    class Kind(models.TextChoices):
        CAUTION = "caution", _("Caution")
        WARNING = "warning", _("Warning")
        PRIZE_PENALTY = "prize_penalty", _("Prize penalty")
        GAME_LOSS = "game_loss", _("Game loss")
        MATCH_LOSS = "match_loss", _("Match loss")
        DISQUALIFICATION = "disqualification", _("Disqualification")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="penalties")
    #: The round it was given in; ``None`` before round 1.
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    penalty = models.CharField(max_length=20, choices=Kind.choices)
    #: What the player did, in a few words: "Drawing extra cards", "Slow play".
    infraction = models.CharField(max_length=200)
    #: The judge's notes, for the staff.
    note = models.TextField(blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    issued_at = models.DateTimeField(auto_now_add=True)
    rescinded_at = models.DateTimeField(null=True, blank=True)
    rescinded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rescind_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-issued_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    penalty__in=["caution", "warning", "prize_penalty", "game_loss", "match_loss", "disqualification"]
                ),
                name="penalty_kind_valid",
            ),
            models.CheckConstraint(condition=~Q(infraction=""), name="penalty_infraction_given"),
            models.CheckConstraint(
                condition=Q(round_number__isnull=True) | Q(round_number__gte=1), name="penalty_round_positive"
            ),
            models.CheckConstraint(
                condition=Q(rescinded_at__isnull=True, rescind_reason="")
                | (Q(rescinded_at__isnull=False) & ~Q(rescind_reason="")),
                name="penalty_rescinded_with_a_reason",
            ),
        ]
        indexes = [models.Index(fields=["event", "-issued_at"], name="penalty_event_time")]
        verbose_name_plural = "penalties"

    def __str__(self) -> str:
        return f"{self.get_penalty_display()} for {self.registration}: {self.infraction}"

    @property
    def rescinded(self) -> bool:
        return self.rescinded_at is not None
