"""Decks for the tests: the made-up Mintayn card list, the staff and violation of the rulings tests, and (one module per Pokémon format) the real decks the deck-rule and deck-check tests share.

- ``SAMPLE_CSV``, :func:`sample_cards`, ``CARDS``: a small made-up Mintayn card list in the importer's format, and its cards by key.
- ``ROLES``, ``VIOLATION``, :func:`deck`: the event staff of the rulings tests, a checker's violation, a registration's latest deck version.
- :mod:`tests.support.decks.format3_trinity`, :mod:`~tests.support.decks.master_trainer`, :mod:`~tests.support.decks.mt_silver`: ``REAL_ENTRIES`` and ``REAL_ROLES``, a legal deck of real cards.
"""

from __future__ import annotations

from decks.importers.mintayn import load_mintayn_csv
from decks.models import DeckVersion
from rules.cards import MintaynCard

ROLES = {"cora": "co_organiser", "sam": "scorekeeper", "judy": "judge", "carl": "caster"}
VIOLATION = {"code": "deck_size", "rule": "Deck size", "message": "Too few cards.", "cards": []}


def deck(registration) -> DeckVersion:
    return DeckVersion.objects.select_related("ruling").filter(registration=registration).order_by("-number").first()


SAMPLE_CSV = """\
name,card_type,class,level,def,stage,mana_cost
Ember Whelp,monster,Coreon,2,800,basic,1
Cinder Hound,monster,Coreon,3,1000,basic,2
Blaze Drake,monster,Coreon,5,1800,evolution,3
Pyre Sovereign,monster,Coreon,8,2800,prime evolution,6
Kindle Surge,spell,Coreon,,,,1
Flare Ward,counter,Coreon,,,,2
Tide Sprite,monster,Fluxion,1,600,basic,1
Current Eel,monster,Fluxion,3,900,basic,2
Évora Tidecaller,monster,Fluxion,2,700,basic,1
Riptide Serpent,monster,Fluxion,5,1700,evolution,3
Abyssal Leviathan,monster,Fluxion,8,3000,prime evolution,7
Undertow,spell,Fluxion,,,,2
Mirror Tide,counter,Fluxion,,,,2
Moss Kit,monster,Synaphera,1,700,basic,1
Thornling,monster,Synaphera,2,900,basic,1
Bramble Warden,monster,Synaphera,5,2000,evolution,3
Verdant Bloom,spell,Synaphera,,,,1
Root Snare,counter,Synaphera,,,,1
Shade Imp,monster,Obscura,2,600,basic,1
Gloom Moth,monster,Obscura,3,800,basic,2
Umbral Stalker,monster,Obscura,6,1600,evolution,4
"Nyx, the Unending Night",monster,Obscura,9,2500,prime singular,8
Night Tithe,spell,Obscura,,,,2
Veil of Dusk,counter,Obscura,,,,3
Lumen Wisp,monster,Aetherion,1,500,basic,1
Halo Sentinel,monster,Aetherion,3,1200,basic,2
Seraph Lancer,monster,Aetherion,5,1900,evolution,4
"Aurelion, the First Light",monster,Aetherion,10,2600,prime singular,9
Dawn Benediction,spell,Aetherion,,,,2
Aegis Flash,counter,Aetherion,,,,1
Mana Well,spell,,,,,0
"""


def sample_cards() -> dict[str, MintaynCard]:
    cards, problems = load_mintayn_csv(SAMPLE_CSV)
    assert problems == []
    return {card.key: card for card in cards}


CARDS = sample_cards()
