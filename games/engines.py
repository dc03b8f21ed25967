"""Find a format's game engine (pure; no Django)."""

from __future__ import annotations

import importlib

from games.formats.engine import Engine


def get_engine(slug: str) -> Engine:
    return importlib.import_module(f"games.formats.{slug.replace('-', '_')}.engine").ENGINE
