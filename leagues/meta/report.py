"""The meta report's rows (terms in :mod:`leagues.meta`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: Players whose event has not published its decklists: counted, never named.
HIDDEN = "Lists not published"
#: Players of a published event who registered no deck.
UNKNOWN = "No deck registered"

DECIMALS = 4


@dataclass(frozen=True, slots=True)
class Entry:
    event_id: int
    player_id: int
    #: ``None``: hidden (lists not published); :data:`UNKNOWN` for no deck.
    archetype: str | None
    wins: int = 0
    draws: int = 0
    losses: int = 0
    made_cut: bool = False
    #: The player's event had a top cut.
    event_had_cut: bool = False


@dataclass(frozen=True, slots=True)
class Row:
    archetype: str
    players: int
    #: 0..1 of every player counted (hidden ones included).
    share: float
    wins: int
    draws: int
    losses: int
    #: ``(wins + draws / 2) / matches``; ``None`` without matches, and for :data:`HIDDEN`.
    win_rate: float | None
    in_cut: int
    #: Players who made the cut / players of the archetype at events that had a cut; ``None`` without one.
    conversion: float | None
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class Report:
    players: int
    events: int
    rows: tuple[Row, ...]


def meta_report(entries: Iterable[Entry]) -> Report:
    groups: dict[str | None, list[Entry]] = {}
    events: set[int] = set()
    total = 0
    for entry in entries:
        groups.setdefault(entry.archetype, []).append(entry)
        events.add(entry.event_id)
        total += 1
    rows = []
    for name, members in groups.items():
        hidden = name is None
        wins = 0 if hidden else sum(e.wins for e in members)
        draws = 0 if hidden else sum(e.draws for e in members)
        losses = 0 if hidden else sum(e.losses for e in members)
        matches = wins + draws + losses
        with_cut = [e for e in members if e.event_had_cut]
        in_cut = 0 if hidden else sum(e.made_cut for e in with_cut)
        rows.append(
            Row(
                archetype=HIDDEN if hidden else str(name),
                players=len(members),
                share=round(len(members) / total, DECIMALS),
                wins=wins,
                draws=draws,
                losses=losses,
                win_rate=round((wins + draws / 2) / matches, DECIMALS) if matches and not hidden else None,
                in_cut=in_cut,
                conversion=round(in_cut / len(with_cut), DECIMALS) if with_cut and not hidden else None,
                hidden=hidden,
            )  # fmt: skip
        )
    rows.sort(key=lambda r: (r.hidden, -r.players, r.archetype))
    return Report(players=total, events=len(events), rows=tuple(rows))
