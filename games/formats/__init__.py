"""The format registry: one :class:`~games.formats.base.Format` per slug.

Every app reads formats from here (``get_format("mt-silver")``); nothing else
hard-codes a table size, a scoring table or a starting life.
"""

from __future__ import annotations

from games.formats.base import Format, GameFamily, Scoring, TableSize
from games.formats.deck_masters import FORMAT as DECK_MASTERS
from games.formats.format3_trinity import FORMAT as FORMAT3_TRINITY
from games.formats.master_trainer import FORMAT as MASTER_TRAINER
from games.formats.mintayn_master import FORMAT as MINTAYN_MASTER
from games.formats.mt_silver import FORMAT as MT_SILVER

__all__ = ["FORMATS", "Format", "GameFamily", "Scoring", "TableSize", "UnknownFormat", "choices", "get_format"]

FORMATS: dict[str, Format] = {
    f.slug: f for f in (MASTER_TRAINER, FORMAT3_TRINITY, MT_SILVER, DECK_MASTERS, MINTAYN_MASTER)
}


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
