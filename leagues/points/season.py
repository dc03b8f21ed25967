"""Event points and the season standings (terms in :mod:`leagues.points`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from leagues.points.tables import PointsTable

#: Decimals the average placing is published with, and compared at.
DECIMALS = 4


@dataclass(frozen=True, slots=True)
class PlayerEvent:
    """What one player did at one event."""

    player_id: int
    #: Final placing, the top cut counted (:func:`leagues.points.final_placings`).
    placing: int
    #: Swiss 1v1 matches won (byes included) and drawn.
    match_wins: int = 0
    match_draws: int = 0
    #: Swiss pod tables: ``(placement, players sharing it)`` for each (``(1, 1)`` for a bye).
    pods: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class EventResult:
    """One event of the season: everyone who played it, and its tables for head-to-head."""

    event_id: int
    #: The order events are listed and counted in when a player's best N tie on points (earlier first).
    order: int
    players: tuple[PlayerEvent, ...]
    #: Every table with a result (Swiss and cut): ``{player id: placement}``; read for head-to-head only.
    tables: tuple[Mapping[int, int], ...] = field(default=(), hash=False)


@dataclass(frozen=True, slots=True)
class EventPoints:
    event_id: int
    points: int
    placing: int
    #: Among the player's best N (or every event when the season counts all).
    counted: bool


@dataclass(frozen=True, slots=True)
class SeasonLine:
    rank: int
    player_id: int
    points: int
    events_played: int
    events_counted: int
    average_placing: float
    best_placing: int
    head_to_head: bool
    #: Every event played, in season order.
    events: tuple[EventPoints, ...]


def event_points(table: PointsTable, entry: PlayerEvent) -> int:
    """What one event is worth to one player under ``table``."""
    if entry.placing < 1:
        raise ValueError(f"player {entry.player_id}: placing {entry.placing} is below 1")
    if min(entry.match_wins, entry.match_draws) < 0:
        raise ValueError(f"player {entry.player_id}: negative match counts")
    points = table.attendance + table.placement_points(entry.placing)
    points += table.match_win * entry.match_wins + table.match_draw * entry.match_draws
    for placement, sharing in entry.pods:
        if placement < 1 or sharing < 1:
            raise ValueError(f"player {entry.player_id}: pod place {placement} shared by {sharing}")
        points += table.pod_points(placement, sharing)
    return points


def season_standings(table: PointsTable, events: Iterable[EventResult]) -> list[SeasonLine]:
    """The season's standings, best first (see the package docstring for the order)."""
    ordered = sorted(events, key=lambda e: (e.order, e.event_id))
    seen_events: set[int] = set()
    per_player: dict[int, list[EventPoints]] = {}
    for event in ordered:
        if event.event_id in seen_events:
            raise ValueError(f"event {event.event_id} is listed twice")
        seen_events.add(event.event_id)
        here: set[int] = set()
        for entry in event.players:
            if entry.player_id in here:
                raise ValueError(f"player {entry.player_id} is listed twice at event {event.event_id}")
            here.add(entry.player_id)
            per_player.setdefault(entry.player_id, []).append(
                EventPoints(event.event_id, event_points(table, entry), entry.placing, True)
            )
    lines: list[tuple[tuple[int, int, float], int, list[EventPoints], int]] = []
    for player_id, played in per_player.items():
        if table.best_n is not None and len(played) > table.best_n:
            # The N best, earlier events first among equals (``played`` is in season order; sort is stable).
            best = {id(e) for e in sorted(played, key=lambda e: -e.points)[: table.best_n]}
            played = [EventPoints(e.event_id, e.points, e.placing, id(e) in best) for e in played]
        counted = sum(e.points for e in played if e.counted)
        average = round(sum(e.placing for e in played) / len(played), DECIMALS)
        key = (counted, len(played), -average)
        lines.append((key, player_id, played, sum(e.counted for e in played)))
    lines.sort(key=lambda line: (tuple(-k for k in line[0]), line[1]))
    h2h = _head_to_head([line[0] for line in lines], [line[1] for line in lines], ordered)
    for i in range(len(lines) - 1):
        if h2h.get(lines[i + 1][1]) == lines[i][1]:  # the second of a tied pair won head-to-head
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
    result: list[SeasonLine] = []
    for i, (key, player_id, played, n_counted) in enumerate(lines):
        separated = i and h2h.get(lines[i - 1][1]) == player_id
        rank = result[-1].rank if i and key == lines[i - 1][0] and not separated else i + 1
        result.append(
            SeasonLine(
                rank=rank,
                player_id=player_id,
                points=key[0],
                events_played=key[1],
                events_counted=n_counted,
                average_placing=-key[2],
                best_placing=min(e.placing for e in played),
                head_to_head=player_id in h2h or player_id in h2h.values(),
                events=tuple(played),
            )  # fmt: skip
        )
    return result


def _head_to_head(
    keys: Sequence[tuple[int, int, float]], players: Sequence[int], events: Sequence[EventResult]
) -> dict[int, int]:
    """``{ahead: behind}`` for each pair of exactly two tied players that head-to-head separates."""
    pairs: dict[frozenset[int], tuple[int, int]] = {}
    i = 0
    while i < len(keys):
        j = i
        while j + 1 < len(keys) and keys[j + 1] == keys[i]:
            j += 1
        if j == i + 1:
            pairs[frozenset((players[i], players[j]))] = (players[i], players[j])
        i = j + 1
    if not pairs:
        return {}
    tied = {p for pair in pairs for p in pair}
    better: dict[tuple[int, int], int] = {}
    for event in events:
        for placements in event.tables:
            present = [p for p in placements if p in tied]
            if len(present) < 2:
                continue
            for a in present:
                for b in present:
                    if a != b and frozenset((a, b)) in pairs and placements[a] < placements[b]:
                        better[(a, b)] = better.get((a, b), 0) + 1
    decided: dict[int, int] = {}
    for first, second in pairs.values():
        a_wins, b_wins = better.get((first, second), 0), better.get((second, first), 0)
        if a_wins != b_wins:
            ahead, behind = (first, second) if a_wins > b_wins else (second, first)
            decided[ahead] = behind
    return decided
