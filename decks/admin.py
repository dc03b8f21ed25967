from django.contrib import admin

from decks.models import (
    CardSet,
    CatalogueVersion,
    DeckRecheck,
    DeckVersion,
    MintaynCard,
    PokemonCard,
    StoredBanlist,
    YugiohCard,
)


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["name", "set_id", "code", "series", "release_date", "total"]
    search_fields = ["name", "set_id", "code"]


@admin.register(PokemonCard)
class PokemonCardAdmin(admin.ModelAdmin):
    list_display = ["name", "set_code", "number", "supertype", "stage", "rule_box", "regulation_mark"]
    list_filter = ["supertype", "rule_box", "series"]
    search_fields = ["name", "key"]
    raw_id_fields = ["card_set"]


@admin.register(YugiohCard)
class YugiohCardAdmin(admin.ModelAdmin):
    list_display = ["name", "passcode", "card_type", "extra_deck"]
    list_filter = ["card_type", "extra_deck"]
    search_fields = ["name", "passcode"]


@admin.register(MintaynCard)
class MintaynCardAdmin(admin.ModelAdmin):
    list_display = ["name", "card_type", "card_class", "level", "defense", "stage", "mana_cost"]
    list_filter = ["card_type", "card_class", "stage"]
    search_fields = ["name"]


@admin.register(StoredBanlist)
class BanlistAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "is_tcg", "whitelist"]


@admin.register(CatalogueVersion)
class CatalogueVersionAdmin(admin.ModelAdmin):
    list_display = ["family", "version", "card_count", "imported_at", "source"]


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    list_display = ["registration", "number", "status", "card_count", "submitted_at", "checked_at"]
    list_filter = ["status"]
    raw_id_fields = ["registration", "submitted_by"]
    readonly_fields = ["decklist", "roles", "violations", "ruling"]  # rulings change through the services only


@admin.register(DeckRecheck)
class DeckRecheckAdmin(admin.ModelAdmin):
    list_display = ["event", "total", "done", "started_at", "finished_at"]
