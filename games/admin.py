from django.contrib import admin

from games.models import Game, GameEvent


class GameEventInline(admin.TabularInline):
    model = GameEvent
    extra = 0
    fk_name = "game"
    readonly_fields = ["seq", "type", "payload", "recorded_by", "recorded_at", "voided_by"]
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["pod", "number", "format", "status", "version", "created_at"]
    list_filter = ["format", "status"]
    readonly_fields = ["state", "version"]
    inlines = [GameEventInline]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "type", "recorded_by", "recorded_at", "voided_by"]
    readonly_fields = ["payload"]
