"""Reads of the games app: what the judge console, the games API and the services need.

Each reads what it needs in a fixed number of queries (its docstring says how many), whatever the
number of rounds, seats, games or log entries.  A selector that feeds a page or an answer returns a
list, so the template or serializer that reads it runs no query; one that returns a queryset is for
``get_object_or_404``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from decks import selectors as deck_selectors
from decks.models import YugiohCard
from games.models import Game, GameEvent
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Player, Pod, PodResult, Seat


def registered_deck_masters(*, event: Event, players: Iterable[int]) -> dict[str, str]:
    """``{str(player id): card name}``: the Deck Master of each player's latest registered deck, if it names one.

    A player may name their Deck Master by passcode: the card's name is given instead.  Two queries.
    """
    versions = (
        deck_selectors.latest_versions(event)
        .filter(registration__player_id__in=list(players))
        .order_by()
        .values_list("registration__player_id", "roles")
    )
    latest: dict[str, Any] = {str(player_id): (roles or {}).get("deck_master") for player_id, roles in versions}
    chosen = {pid: name.strip() for pid, name in latest.items() if isinstance(name, str) and name.strip()}
    passcodes = {int(name) for name in chosen.values() if name.isdigit()}
    if passcodes:
        found = dict(YugiohCard.objects.filter(passcode__in=passcodes).values_list("passcode", "name"))
        chosen = {pid: found.get(int(name), name) if name.isdigit() else name for pid, name in chosen.items()}
    return chosen


def next_duel_deck_masters(*, event: Event, players: Iterable[int], games: Sequence[Game]) -> dict[str, str]:
    """``{str(player id): card name}``: the Deck Masters the table's next duel starts with.

    A Deck Masters match is up to three duels; each player chooses their Deck Master before each duel and may
    choose another one (RULES OF THE DECK MASTERS), so the next duel starts with the ones chosen for the table's
    last duel (``games``, first to last), and the registered deck's where none was named.  Two queries at most.
    """
    chosen = registered_deck_masters(event=event, players=players)
    if games:
        named = games[-1].options.get("deck_masters") or {}
        chosen.update({str(pid): name for pid, name in named.items() if isinstance(name, str) and name.strip()})
    return chosen


# --- looking up what a URL names ------------------------------------------------------------------------------


def table_pods(*, event_id: int, number: int, table: int) -> QuerySet[Pod]:
    """Table ``table`` of round ``number`` of the event (none or one), with its round and event: one query."""
    return tournament_selectors.tables_at(event=event_id, number=number, table=table).select_related("round__event")


def games_with_table() -> QuerySet[Game]:
    """Every game with its table, round and event (the permission checks and the API's answer read them), to
    look one up by id: one query."""
    return Game.objects.select_related("pod__round__event")


def game_refreshed(*, game: Game) -> Game:
    """``game`` read again (its log grew since it was loaded), keeping its table, round and event: one query."""
    game.refresh_from_db()
    return game


# --- a table ---------------------------------------------------------------------------------------------------


def table_seats(*, pod: Pod) -> list[Seat]:
    """The table's seats in seat order (which is turn order), with their players: one query."""
    return list(pod.seats.select_related("player").order_by("seat_order"))


def table_player_ids(*, pod: Pod) -> list[int]:
    """The ids of the players seated at the table: one query."""
    return list(pod.seats.values_list("player_id", flat=True))


def table_games(*, pod: Pod) -> list[Game]:
    """The table's games, first to last (each knows its table without a query): one query."""
    return list(pod.games.order_by("number"))


def table_games_at(*, event_id: int, number: int, table: int) -> list[Game]:
    """The games of table ``table`` of round ``number`` of the event, first to last, with their table, round and
    event (empty when there is no such table): one query."""
    return list(
        games_with_table().filter(pod__round__event_id=event_id, pod__round__number=number, pod__table_number=table)
    )


def table_has_result(*, pod_id: int) -> bool:
    """Whether the table's result is recorded: one query."""
    return PodResult.objects.filter(pod_id=pod_id).exists()


# --- a game -----------------------------------------------------------------------------------------------------


def player_names(*, ids: list[int]) -> dict[int, str]:
    """``{player id: display name}`` for each of ``ids`` (``"Player <id>"`` for one that is gone): one query."""
    found = Player.objects.in_bulk(ids)
    return {pid: found[pid].display_name if pid in found else _("Player %(id)s") % {"id": pid} for pid in ids}


def game_entry(*, game: Game, seq: int) -> GameEvent | None:
    """Entry ``seq`` of the game's log, ``None``: there is none.  One query."""
    return GameEvent.objects.filter(game=game, seq=seq).first()


def game_entries(*, game: Game) -> QuerySet[GameEvent]:
    """The game's log, first entry first, each with who recorded it and the void that voided it: one query for a
    page of it."""
    return game.events.select_related("recorded_by", "voided_by").order_by("seq")


def game_log(*, game: Game) -> list[GameEvent]:
    """The game's log, newest entry first, each with who recorded it, and the void that voided it with who
    recorded that: one query."""
    return list(game.events.select_related("recorded_by", "voided_by__recorded_by").order_by("-seq"))
