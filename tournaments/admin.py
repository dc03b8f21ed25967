"""The tournaments app in the admin: players can be edited; everything an event is made of only read.

Events, registrations, byes, rounds, tables, seats, results, stored standings,
penalties and the audit trail change through the services (the dashboard and
the API), which keep the standings current and write the audit trail: their
pages here read and never write (:class:`core.admin.ReadOnlyAdmin`).
"""

from django.contrib import admin

from core.admin import ReadOnlyAdmin, ReadOnlyInline
from tournaments.models import (
    AuditEntry,
    ByeAssignment,
    Event,
    Penalty,
    Player,
    Pod,
    PodResult,
    Registration,
    Round,
    Seat,
    Standing,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """A player's name and external ID can be corrected here; the account link moves only by a claim (audited)."""

    list_display = ["display_name", "external_id", "user", "created_at"]
    search_fields = ["display_name", "external_id"]
    readonly_fields = ["user", "claim_code"]


class RegistrationInline(ReadOnlyInline):
    model = Registration
    raw_id_fields = ["player"]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["name", "format", "status", "date", "venue", "organiser", "planned_rounds"]
    list_filter = ["format", "status"]
    search_fields = ["name", "venue"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyAdmin):
    list_display = [
        "player",
        "event",
        "checked_in",
        "dropped",
        "dropped_after_round",
        "late_entry_round",
        "fixed_table",
    ]
    list_filter = ["checked_in", "dropped"]
    raw_id_fields = ["player", "event"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = [
        "event",
        "number",
        "stage",
        "seed",
        "objective",
        "rematches",
        "edited",
        "created_at",
        "completed_at",
    ]


@admin.register(ByeAssignment)
class ByeAssignmentAdmin(ReadOnlyAdmin):
    list_display = ["registration", "round_number", "assigned_by", "created_at"]
    raw_id_fields = ["registration"]


class SeatInline(ReadOnlyInline):
    model = Seat
    raw_id_fields = ["player", "round"]


@admin.register(Pod)
class PodAdmin(ReadOnlyAdmin):
    list_display = ["round", "table_number", "is_bye"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["player", "pod", "seat_order", "placement", "points", "points_before", "reasons"]
    raw_id_fields = ["player", "pod", "round"]


@admin.register(PodResult)
class PodResultAdmin(ReadOnlyAdmin):
    list_display = ["pod", "source", "reported_by", "reported_at"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    read_only_note = (
        "Read only. Standings are computed from the results by Podium itself (after every change made on the "
        "dashboard or through the API); an edit here would be overwritten, or leave them stale."
    )
    list_display = ["event", "rank", "player", "points", "opp_match_win_pct", "opp_opp_match_win_pct"]
    list_filter = ["event"]


@admin.register(Penalty)
class PenaltyAdmin(ReadOnlyAdmin):
    """Penalties are issued and rescinded through the services (and audited there), never deleted."""

    list_display = ["registration", "event", "penalty", "infraction", "round_number", "issued_by", "issued_at",
                    "rescinded_at"]  # fmt: skip
    list_filter = ["penalty"]
    search_fields = ["infraction", "registration__player__display_name"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    read_only_note = (
        "Read only. The audit trail is written by Podium's services with each change made on the dashboard or "
        "through the API; nothing changes or deletes an entry."
    )
    list_display = ["created_at", "event", "action", "subject", "actor"]
    list_filter = ["action"]
    search_fields = ["subject", "action"]
