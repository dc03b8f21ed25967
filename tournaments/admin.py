from django.contrib import admin

from tournaments.models import (
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
    list_display = ["display_name", "external_id", "user", "created_at"]
    search_fields = ["display_name", "external_id"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "format", "status", "date", "venue", "organiser", "planned_rounds"]
    list_filter = ["format", "status"]
    search_fields = ["name", "venue"]
    readonly_fields = ["results_version", "standings_version"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
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
class RoundAdmin(admin.ModelAdmin):
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
    readonly_fields = ["seed", "objective"]


@admin.register(ByeAssignment)
class ByeAssignmentAdmin(admin.ModelAdmin):
    list_display = ["registration", "round_number", "assigned_by", "created_at"]
    raw_id_fields = ["registration"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player", "round"]


@admin.register(Pod)
class PodAdmin(admin.ModelAdmin):
    list_display = ["round", "table_number", "is_bye"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["player", "pod", "seat_order", "placement", "points", "points_before", "reasons"]
    raw_id_fields = ["player", "pod", "round"]


@admin.register(PodResult)
class PodResultAdmin(admin.ModelAdmin):
    list_display = ["pod", "source", "reported_by", "reported_at"]


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["event", "rank", "player", "points", "opp_match_win_pct", "opp_opp_match_win_pct"]
    list_filter = ["event"]


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Read-only: penalties are issued and rescinded through the services (and audited there), never deleted."""

    list_display = ["registration", "event", "penalty", "infraction", "round_number", "issued_by", "issued_at",
                    "rescinded_at"]  # fmt: skip
    list_filter = ["penalty"]
    search_fields = ["infraction", "registration__player__display_name"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
