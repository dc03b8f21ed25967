"""Where tests find the real card data (kept outside the repository).

The data root is ``$PODIUM_CARD_DATA_DIR`` when set, else ``../shared/data``
next to the repository.  ``data_dir("pokemon-tcg-data")`` returns the path
below that root; when it is missing the test is skipped with the reason, or
fails when ``CI`` is ``"true"`` (CI must never silently skip real-data tests).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def data_root() -> Path:
    env = os.environ.get("PODIUM_CARD_DATA_DIR")
    return Path(env) if env else (REPO_ROOT / ".." / "shared" / "data").resolve()


def data_dir(*parts: str) -> Path:
    """The path ``parts`` under the card-data root; skip (or fail on CI) when it is absent."""
    path = data_root().joinpath(*parts)
    if not path.exists():
        reason = f"card data not found at {path} (point PODIUM_CARD_DATA_DIR at the card-data root)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def rulebook(name: str, *, raw: bool = False) -> str:
    """The text of a rulebook (``$PODIUM_RULEBOOK_DIR``, else ``../shared/rules``), its whitespace runs made one
    space (as it is when ``raw``); skip (or fail on CI) when it is absent."""
    env = os.environ.get("PODIUM_RULEBOOK_DIR")
    path = (Path(env) if env else (REPO_ROOT / ".." / "shared" / "rules").resolve()) / name
    if not path.exists():
        reason = f"rulebook not found at {path} (point PODIUM_RULEBOOK_DIR at the rulebooks)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    text = path.read_text(encoding="utf-8")
    return text if raw else " ".join(text.split())
