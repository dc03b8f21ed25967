from django.contrib import admin

from live.models import OverlayToken, RoundTimer, Station, TableTimeExtension


@admin.register(Station)
class StationAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "event", "table_number", "revealed_player")
    list_filter = ("event",)


@admin.register(RoundTimer)
class RoundTimerAdmin(admin.ModelAdmin):
    list_display = ("round", "duration_seconds", "started_at", "deadline", "remaining_seconds")


@admin.register(TableTimeExtension)
class TableTimeExtensionAdmin(admin.ModelAdmin):
    list_display = ("pod", "seconds", "reason", "given_by", "given_at")


@admin.register(OverlayToken)
class OverlayTokenAdmin(admin.ModelAdmin):
    """Tokens are made on the caster's page (or the API), which shows the key once: none is made here."""

    list_display = ("label", "prefix", "event", "created_by", "created_at", "revoked_at")
    readonly_fields = ("prefix",)

    def has_add_permission(self, request) -> bool:
        return False
