"""Games for the tests: a seated table, the games API driven as a judge's client, and each format's scripted game.

- :func:`seated_table`, :func:`seat_ids`: round 1 of a new event with exactly one table.
- :func:`start_game`, :func:`append`, :func:`record`: the games API, one entry at a time.
- :func:`yugioh_pool`: a few Yu-Gi-Oh! cards in the card pool (a monster, a Spell, a Trap) to name as Deck Masters.
- ``deck_masters_duel``, ``format3_trinity_game``, ``master_trainer_game``, ``mintayn_master_game``,
  ``mt_silver_game``: a whole game per format, for any player ids; each format's module
  (:mod:`tests.support.games.deck_masters`, ...) holds the event builders its engine tests share.
"""

from __future__ import annotations

from collections.abc import Sequence

from rest_framework.test import APIClient

from rules.engine import GameEvent
from tests.factories import EventFactory, RegistrationFactory
from tests.support.games.deck_masters import scripted_duel as deck_masters_duel
from tests.support.games.format3_trinity import scripted_game as format3_trinity_game
from tests.support.games.master_trainer import scripted_game as master_trainer_game
from tests.support.games.mintayn_master import scripted_game as mintayn_master_game
from tests.support.games.mt_silver import scripted_game as mt_silver_game
from tournaments import services as tournament_services
from tournaments.models import Pod

__all__ = [
    "append",
    "deck_masters_duel",
    "format3_trinity_game",
    "games_url",
    "master_trainer_game",
    "mintayn_master_game",
    "mt_silver_game",
    "record",
    "seat_ids",
    "seated_table",
    "start_game",
    "yugioh_pool",
]


def seated_table(organiser, fmt: str, players: int, *, options: dict | None = None) -> Pod:
    """Round 1 of a new ``fmt`` event (with the format ``options``) with ``players`` checked in: exactly one
    table, no bye."""
    event = EventFactory(format=fmt, organiser=organiser, planned_rounds=3, options=options or {})
    for _ in range(players):
        RegistrationFactory(event=event, checked_in=True)
    round_ = tournament_services.round_start(event=event, by=organiser, seed=1)
    (pod,) = round_.pods.all()
    assert not pod.is_bye
    return pod


def seat_ids(pod: Pod) -> list[int]:
    """Player ids in seat order, which is turn order."""
    return list(pod.seats.order_by("seat_order").values_list("player_id", flat=True))


def games_url(pod: Pod) -> str:
    return f"/api/v1/events/{pod.round.event_id}/rounds/{pod.round.number}/tables/{pod.table_number}/games/"


def start_game(client: APIClient, pod: Pod) -> dict:
    response = client.post(games_url(pod), {}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def append(client: APIClient, game: dict, type_: str, data: dict | None = None, *, version: int | None = None):
    body = {"expected_version": game["version"] if version is None else version, "type": type_, "data": data or {}}
    return client.post(f"/api/v1/games/{game['id']}/events/", body, format="json")


def record(client: APIClient, game: dict, events: Sequence[GameEvent]) -> dict:
    """Append ``events`` one by one, each naming the version the previous answer gave."""
    for event in events:
        response = append(client, game, event.type, dict(event.data))
        assert response.status_code == 201, (event, response.json())
        assert response.json()["version"] == game["version"] + 1
        game = response.json()
    return game


#: The cards :func:`yugioh_pool` puts in the pool: passcode -> (name, card type).
YUGIOH_POOL = {
    46986414: ("Dark Magician", "Monster"),
    2671330: ("Hyper Hammerhead", "Monster"),
    55144522: ("Pot of Greed", "Spell"),
    44095762: ("Mirror Force", "Trap"),
}


def yugioh_pool() -> None:
    """Put :data:`YUGIOH_POOL` in the Yu-Gi-Oh! card pool (the catalogue's version moves, so its in-memory pool is
    read again; a test that calls this clears that pool when it ends: see the ``yugioh_cards`` fixtures)."""
    from django.db.models import F

    from decks import catalogue
    from decks.models import CatalogueVersion, YugiohCard

    for passcode, (name, card_type) in YUGIOH_POOL.items():
        YugiohCard.objects.update_or_create(passcode=passcode, defaults={"name": name, "card_type": card_type})
    CatalogueVersion.objects.get_or_create(family="yugioh")
    CatalogueVersion.objects.filter(family="yugioh").update(
        version=F("version") + 1, card_count=YugiohCard.objects.count()
    )
    catalogue.clear()
