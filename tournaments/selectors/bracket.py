"""The top cut as a bracket, and the final placements once it is over.

A *bracket* lists the cut's rounds, played and to come: each played table with
its seats (seed, player, placement, games won) and each table to come with the
tables whose winners will sit there ("winner of table 1").  1v1 cuts halve the
tables each round down to the final; pod cuts play semi-final pods and a final
pod of their winners (see :mod:`tournaments.pairing.topcut`).

*Final placements* follow the round a player went out in: in 1v1, the final's
winner is the champion and its loser the finalist, the semi-finals' losers
share 3rd, the quarter-finals' share 5th; in pods, the final pod places its
players by their placement at the table, and the semi-final pods' other players
place after the final pod's by their place at their own pod: every pod's 2nd
shares the first place after the final pod's, every 3rd the place after them
(as :func:`leagues.points.placings.final_placings` counts a league's placings).  They exist once the final has its
result.  Three queries whatever the size of the cut.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from tournaments import words
from tournaments.models import Event, Pod, Round, Seat


@dataclass(frozen=True)
class BracketSeat:
    seed: int | None
    player_id: int
    name: str
    placement: int | None
    games_won: int | None
    won: bool


@dataclass(frozen=True)
class BracketTable:
    #: The table's number in its round (to come: its position).
    number: int
    seats: list[BracketSeat]
    #: Tables of the round before whose winners sit here (empty in the first cut round).
    fed_by: list[int] = field(default_factory=list)
    decided: bool = False
    #: Not paired yet: its seats are the winners to come of ``fed_by``.
    to_come: bool = False


@dataclass(frozen=True)
class BracketRound:
    number: int | None
    label: str
    tables: list[BracketTable]


@dataclass(frozen=True)
class FinalPlacement:
    place: int
    label: str
    player_id: int
    name: str
    seed: int | None


@dataclass(frozen=True)
class Bracket:
    size: int
    pods: bool
    rounds: list[BracketRound]
    #: Empty until the final has its result.
    placements: list[FinalPlacement]

    @property
    def complete(self) -> bool:
        return bool(self.placements)


def top_cut_bracket(*, event: Event) -> Bracket | None:
    """The event's top cut as a bracket (``None`` before the cut): three queries."""
    if not event.top_cut_size:
        return None
    seats = Seat.objects.select_related("player").order_by("seat_order")
    rounds = list(
        Round.objects.filter(event=event, stage=Round.Stage.TOP_CUT)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "pods",
                queryset=Pod.objects.filter(is_bye=False)
                .select_related("result")
                .prefetch_related(Prefetch("seats", queryset=seats))
                .order_by("table_number"),
            )
        )
    )
    pods = not event.is_one_vs_one
    played: list[BracketRound] = []
    for round_ in rounds:
        tables = []
        for pod in round_.pods.all():
            decided = getattr(pod, "result", None) is not None
            tables.append(
                BracketTable(
                    number=pod.table_number or 0,
                    seats=[
                        BracketSeat(
                            seed=s.cut_seed,
                            player_id=s.player_id,
                            name=s.player.display_name,
                            placement=s.placement,
                            games_won=s.games_won,
                            won=decided and s.placement == 1,
                        )  # fmt: skip
                        for s in pod.seats.all()
                    ],
                    decided=decided,
                )
            )
        played.append(BracketRound(number=round_.number, label=words.stage_name(len(tables), pods=pods), tables=tables))
    if not played:
        return Bracket(size=event.top_cut_size, pods=pods, rounds=[], placements=[])
    # Link each played round to the one before it, and add the rounds to come.
    linked = [played[0]]
    for before, after in zip(played, played[1:], strict=False):
        linked.append(_fed(after, before, pods=pods))
    last = linked[-1]
    count = len(last.tables)
    while count > 1:
        count = 1 if pods else count // 2
        upcoming = [
            BracketTable(number=n, seats=[], fed_by=_feeders(n, len(last.tables), pods=pods), to_come=True)
            for n in range(1, count + 1)
        ]
        last = BracketRound(number=None, label=words.stage_name(count, pods=pods), tables=upcoming)
        linked.append(last)
    return Bracket(size=event.top_cut_size, pods=pods, rounds=linked, placements=_placements(played, pods=pods))


def _feeders(number: int, before: int, *, pods: bool) -> list[int]:
    return list(range(1, before + 1)) if pods else [2 * number - 1, 2 * number]


def _fed(round_: BracketRound, before: BracketRound, *, pods: bool) -> BracketRound:
    tables = [
        BracketTable(
            number=t.number, seats=t.seats, decided=t.decided, fed_by=_feeders(t.number, len(before.tables), pods=pods)
        )
        for t in round_.tables
    ]
    return BracketRound(number=round_.number, label=round_.label, tables=tables)


def _pod_losers(losers: list[BracketSeat], first: int) -> list[FinalPlacement]:
    """The semi-final pods' other players from place ``first`` on, by their place at their own pod: every pod's
    2nd shares ``first``, every 3rd the place after the 2nds, and so on (as the league placings count them)."""
    ordered = sorted(losers, key=lambda s: (s.placement or 99, s.seed or 0))
    out: list[FinalPlacement] = []
    place = first
    for i, s in enumerate(ordered):
        if i and (s.placement or 99) != (ordered[i - 1].placement or 99):
            place = first + i
        label = words.pod_out_label(s.placement or 99)
        out.append(FinalPlacement(place=place, label=label, player_id=s.player_id, name=s.name, seed=s.seed))
    return out


def _placements(played: list[BracketRound], *, pods: bool) -> list[FinalPlacement]:
    final = played[-1]
    if len(final.tables) != 1 or not final.tables[0].decided:
        return []
    placements: list[FinalPlacement] = []
    table = final.tables[0]
    for s in sorted(table.seats, key=lambda s: (s.placement or 99, s.seed or 0)):
        place = s.placement or len(table.seats)
        label = words.final_label(place if pods else 1 if s.won else 2, pods=pods)
        placements.append(FinalPlacement(place=place if pods else (1 if s.won else 2), label=label,
                                         player_id=s.player_id, name=s.name, seed=s.seed))  # fmt: skip
    out_place = len(table.seats) + 1
    for round_ in reversed(played[:-1]):
        losers = [s for t in round_.tables for s in t.seats if not s.won]
        if pods:
            placements.extend(_pod_losers(losers, out_place))
        else:
            label = words.out_label(len(round_.tables))
            for s in sorted(losers, key=lambda s: s.seed or 0):
                placements.append(FinalPlacement(place=out_place, label=label, player_id=s.player_id, name=s.name,
                                                 seed=s.seed))  # fmt: skip
        out_place += len(losers)
    return placements
