"""Reads of the games app that other code shares (views and services)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from decks.models import DeckVersion, YugiohCard
from tournaments.models import Event


def registered_deck_masters(*, event: Event, players: Iterable[int]) -> dict[str, str]:
    """``{str(player id): card name}``: the Deck Master of each player's latest registered deck, if it names one.

    A player may name their Deck Master by passcode: the card's name is given instead.  Two queries.
    """
    latest: dict[str, Any] = {}
    versions = (
        DeckVersion.objects.filter(registration__event=event, registration__player_id__in=list(players))
        .order_by("registration_id", "-number")
        .values_list("registration__player_id", "roles")
    )
    for player_id, roles in versions:
        latest.setdefault(str(player_id), (roles or {}).get("deck_master"))
    chosen = {pid: name.strip() for pid, name in latest.items() if isinstance(name, str) and name.strip()}
    passcodes = {int(name) for name in chosen.values() if name.isdigit()}
    if passcodes:
        found = dict(YugiohCard.objects.filter(passcode__in=passcodes).values_list("passcode", "name"))
        chosen = {pid: found.get(int(name), name) if name.isdigit() else name for pid, name in chosen.items()}
    return chosen
