"""The names a *named* format option may take (:attr:`rules.options.Option.named`), read from the app that
owns them: Deck Masters' ``banlist`` is the name of an imported banlist, which the decks app keeps.

The app registers its reader when it is ready, so a lower layer (the events service) checks an event's
options without importing the app above it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

_readers: dict[str, Callable[[], Iterable[str]]] = {}


def register(option: str, reader: Callable[[], Iterable[str]]) -> None:
    """``reader()`` lists the names option ``option`` may take (one query at most)."""
    _readers[option] = reader


def names(option: str) -> tuple[str, ...]:
    """The names ``option`` may take now; none when no app has registered a reader for it."""
    reader = _readers.get(option)
    return tuple(reader()) if reader is not None else ()
