"""In-memory card pools built from the catalogue tables, one per game family.

Validating a deck must not query the catalogue card by card: the first check
in a process loads the family's cards once (one query) into the pure indexes
of :mod:`decks.resolve` / :mod:`decks.parsers`, and later checks reuse them
until an import bumps ``CatalogueVersion`` (one cheap query per check).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from decks.importers.pokemon import PokemonSet
from decks.models import CardSet, CatalogueVersion, MintaynCard, PokemonCard, StoredBanlist, YugiohCard
from decks.parsers.yugioh import YugiohIndex
from decks.resolve import PokemonIndex
from rules import cards as records
from rules.cards import Banlist

_lock = threading.Lock()
_cache: dict[str, tuple[int, Any]] = {}


@dataclass(frozen=True)
class MintaynPool:
    by_name: dict[str, records.MintaynCard]


def _version(family: str) -> int:
    return CatalogueVersion.objects.filter(family=family).values_list("version", flat=True).first() or 0


def _cached(family: str, build):
    version = _version(family)
    hit = _cache.get(family)
    if hit and hit[0] == version:
        return hit[1]
    with _lock:
        hit = _cache.get(family)
        if hit and hit[0] == version:
            return hit[1]
        pool = build()
        _cache[family] = (version, pool)
        return pool


def card_count(family: str) -> int:
    return CatalogueVersion.objects.filter(family=family).values_list("card_count", flat=True).first() or 0


def _build_pokemon() -> PokemonIndex:
    sets = [
        PokemonSet(
            id=s.set_id,
            name=s.name,
            series=s.series,
            ptcgo_code=s.code,
            release_date=s.release_date.isoformat() if s.release_date else "",
            total=s.total,
        )  # fmt: skip
        for s in CardSet.objects.all()
    ]
    cards = [row.to_record(set_id) for row, set_id in _pokemon_rows()]
    return PokemonIndex.build(cards, sets)


def _pokemon_rows():
    for row in PokemonCard.objects.select_related("card_set").order_by("pk").iterator(chunk_size=5000):
        yield row, row.card_set.set_id


def pokemon_index() -> PokemonIndex:
    return _cached("pokemon", _build_pokemon)


def yugioh_index() -> YugiohIndex:
    return _cached(
        "yugioh", lambda: YugiohIndex.build(row.to_record() for row in YugiohCard.objects.iterator(chunk_size=5000))
    )


def mintayn_pool() -> MintaynPool:
    return _cached("mintayn", lambda: MintaynPool(by_name={c.name: c.to_record() for c in MintaynCard.objects.all()}))


def banlist(name: str | None) -> Banlist | None:
    """The named banlist, or the newest TCG list when ``name`` is empty; ``None`` when none is imported."""
    rows = StoredBanlist.objects.all()
    row = (rows.filter(name=name) if name else rows.filter(is_tcg=True).order_by("-date", "name")).first()
    return None if row is None else row.to_record()


def clear() -> None:
    """Forget the cached pools (tests that swap catalogues call this)."""
    _cache.clear()
