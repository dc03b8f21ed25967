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
    list_display = ("label", "event", "created_by", "created_at", "revoked_at")
    exclude = ("key",)
