"""The rules kernel: what every format means, in pure Python; this module is its registry, one
:class:`~rules.base.Format` per slug.

The kernel imports neither Django nor any app, and every app reads it: the
formats (one package each: ``deck.py`` for construction rules, ``engine.py`` for
play rules), the card and banlist records (:mod:`rules.cards`), the deck rules'
contract (:mod:`rules.deckrules`) and the engines' shared helpers
(:mod:`rules.engine`).  Its public import paths are listed in docs/python-api.md.

Every app reads formats from here (``get_format("mt-silver")``); nothing else
hard-codes a table size, a scoring table or a starting life, or names a
format's engine or deck rules: the record carries them (``fmt.engine``,
``fmt.deck_rules``, ``fmt.match_result``, ``fmt.turn_of``).  Each format is a
package under ``rules/`` whose ``FORMAT`` is listed once below (see
docs/adding-a-format.md).
"""

from __future__ import annotations

from rules.base import Format, GameFamily, Scoring, TableSize
from rules.deck_masters import FORMAT as DECK_MASTERS
from rules.format3_trinity import FORMAT as FORMAT3_TRINITY
from rules.master_trainer import FORMAT as MASTER_TRAINER
from rules.mintayn_master import FORMAT as MINTAYN_MASTER
from rules.mt_silver import FORMAT as MT_SILVER

__all__ = [
    "FORMATS", "Format", "GameFamily", "Scoring", "TableSize", "UnknownFormat", "choices", "get_format", "register",
    "unregister",
]  # fmt: skip

FORMATS: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    """Add a format to the registry (its slug must be new)."""
    if fmt.slug in FORMATS:
        raise ValueError(f"format {fmt.slug!r} is already registered")
    FORMATS[fmt.slug] = fmt
    return fmt


def unregister(slug: str) -> None:
    """Take a format out of the registry (tests that register a toy format)."""
    FORMATS.pop(slug, None)


# The registry: one line per format, in the order forms list them.
register(MASTER_TRAINER)
register(FORMAT3_TRINITY)
register(MT_SILVER)
register(DECK_MASTERS)
register(MINTAYN_MASTER)


class UnknownFormat(KeyError):
    pass


def get_format(slug: str) -> Format:
    try:
        return FORMATS[slug]
    except KeyError:
        raise UnknownFormat(slug) from None


def choices() -> list[tuple[str, str]]:
    """``(slug, name)`` pairs for model and form fields."""
    return [(f.slug, f.name) for f in FORMATS.values()]
