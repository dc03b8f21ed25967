"""Find a format's game engine (pure; no Django): the engine its registry record carries."""

from __future__ import annotations

from games.formats import get_format
from games.formats.engine import Engine


def get_engine(slug: str) -> Engine:
    return get_format(slug).engine
