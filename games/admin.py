"""Game records in the admin: read only (judges record and void entries in the judge console or the API)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin, ReadOnlyInline
from games.models import Game, GameEvent

GAMES_NOTE = (
    "Read only. Games are recorded in the judge console or through the API, where the format's rules check "
    "each entry, a finished game becomes its table's result, and the log is never edited."
)


class GameEventInline(ReadOnlyInline):
    model = GameEvent
    fk_name = "game"


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    read_only_note = GAMES_NOTE
    list_display = ["pod", "number", "format", "status", "version", "created_at"]
    list_filter = ["format", "status"]
    inlines = [GameEventInline]


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    read_only_note = GAMES_NOTE
    list_display = ["game", "seq", "type", "recorded_by", "recorded_at", "voided_by"]
