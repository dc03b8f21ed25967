"""The live app in the admin: read only (stations, the round clock, extra time and overlay tokens change on the
event's pages or through the API, each change in the audit trail)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from live.models import OverlayToken, RoundTimer, Station, TableTimeExtension


@admin.register(Station)
class StationAdmin(ReadOnlyAdmin):
    list_display = ("slug", "name", "event", "table_number", "revealed_player")
    list_filter = ("event",)


@admin.register(RoundTimer)
class RoundTimerAdmin(ReadOnlyAdmin):
    list_display = ("round", "duration_seconds", "started_at", "deadline", "remaining_seconds")


@admin.register(TableTimeExtension)
class TableTimeExtensionAdmin(ReadOnlyAdmin):
    list_display = ("pod", "seconds", "reason", "given_by", "given_at")


@admin.register(OverlayToken)
class OverlayTokenAdmin(ReadOnlyAdmin):
    """Tokens are made and revoked on the caster's page (or the API), which shows the key once: none is made here."""

    list_display = ("label", "prefix", "event", "created_by", "created_at", "revoked_at")
