"""The card catalogue and decks in the admin: read only.

Cards and banlists come from ``import_cards``, which bumps the catalogue version the in-memory card pools
rebuild by; deck versions, their verdicts and re-checks from the services (the pages and the API).
"""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
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

CATALOGUE_NOTE = (
    "Read only. The card catalogue and banlists come from card data with `manage.py import_cards`, which tells "
    "the deck checks to rebuild their card pools; an edit here would not."
)


@admin.register(CardSet)
class CardSetAdmin(ReadOnlyAdmin):
    read_only_note = CATALOGUE_NOTE
    list_display = ["name", "set_id", "code", "series", "release_date", "total"]
    search_fields = ["name", "set_id", "code"]


@admin.register(PokemonCard)
class PokemonCardAdmin(ReadOnlyAdmin):
    read_only_note = CATALOGUE_NOTE
    list_display = ["name", "set_code", "number", "supertype", "stage", "rule_box", "regulation_mark"]
    list_filter = ["supertype", "rule_box", "series"]
    search_fields = ["name", "key"]
    raw_id_fields = ["card_set"]


@admin.register(YugiohCard)
class YugiohCardAdmin(ReadOnlyAdmin):
    read_only_note = CATALOGUE_NOTE
    list_display = ["name", "passcode", "card_type", "extra_deck"]
    list_filter = ["card_type", "extra_deck"]
    search_fields = ["name", "passcode"]


@admin.register(MintaynCard)
class MintaynCardAdmin(ReadOnlyAdmin):
    read_only_note = CATALOGUE_NOTE
    list_display = ["name", "card_type", "card_class", "level", "defense", "stage", "mana_cost"]
    list_filter = ["card_type", "card_class", "stage"]
    search_fields = ["name"]


@admin.register(StoredBanlist)
class BanlistAdmin(ReadOnlyAdmin):
    read_only_note = CATALOGUE_NOTE
    list_display = ["name", "date", "is_tcg", "whitelist"]


@admin.register(CatalogueVersion)
class CatalogueVersionAdmin(ReadOnlyAdmin):
    read_only_note = CATALOGUE_NOTE
    list_display = ["family", "version", "card_count", "imported_at", "source"]


@admin.register(DeckVersion)
class DeckVersionAdmin(ReadOnlyAdmin):
    list_display = ["registration", "number", "status", "card_count", "submitted_at", "checked_at"]
    list_filter = ["status"]
    raw_id_fields = ["registration", "submitted_by"]
    read_only_note = (
        "Read only. Decks are submitted by players and staff, checked by Podium and ruled on by judges on the "
        "event's pages or through the API (each ruling written in the audit trail)."
    )


@admin.register(DeckRecheck)
class DeckRecheckAdmin(ReadOnlyAdmin):
    list_display = ["event", "total", "done", "started_at", "finished_at"]
