"""Seeded simulated 1v1 events, round by round: the fields the Swiss pairer is tested and benchmarked on.

Pure Python, no Django, like the rest of the engine; nothing in the engine
imports it.  A :class:`FieldSpec` describes an event (players, rounds,
results, drops, late entries, how ranks are given); :class:`SimulatedEvent`
plays it with random results, the caller pairing each round, so the tests can
check every round against an exact matching and the benchmark can time every
round.  :func:`adversarial_specs` is the sweep both use.

The fields are *neutral* (results at random, so point groups are wide and
histories criss-cross) and hard for a Swiss pairer the way real events are
late on: many point groups, small groups at the top and bottom whose members
have met, odd numbers of players (a bye to place), players dropping (mostly
from the bottom) and late entries who join on zero points, a loss for each
round missed.  Everything is drawn from one ``random.Random`` seeded by the
spec, so a field is reproduced from its spec.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.types import Entrant, Pairing

__all__ = ["FieldSpec", "SimulatedEvent", "adversarial_specs", "play"]

RANKS = ("distinct", "points")


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One simulated event."""

    #: Players registered for round 1 (late entries come on top).
    size: int
    seed: int
    #: Rounds played; round 1 is paired at random, the rest by Swiss.
    rounds: int = 16
    #: Share of tables drawn; the others are won by either player with even chances (0.1: 45/45/10).
    draw_rate: float = 0.1
    #: Share of the round-1 field that drops over the event, spread over rounds 2 on, mostly from the bottom.
    drop_share: float = 0.0
    #: Players who enter late, and the round they enter at (on zero points, having met nobody).
    late_entries: int = 0
    late_round: int = 3
    #: ``"distinct"``: every player has their own rank (tiebreakers part them), so one player is the lowest
    #: ranked; ``"points"``: players on the same points share a rank, so the lowest bye class is a whole group.
    ranks: str = "distinct"

    def __post_init__(self) -> None:
        if self.ranks not in RANKS:
            raise ValueError(f"ranks must be one of {RANKS}, not {self.ranks!r}")
        if self.size < 2 or self.rounds < 1 or self.late_entries < 0 or self.late_round < 2:
            raise ValueError(f"not a field: {self!r}")

    @property
    def label(self) -> str:
        """A short description for tables and test ids."""
        parts = [f"{self.size} players", f"seed {self.seed}", f"draws {self.draw_rate:.0%}"]
        if self.drop_share:
            parts.append(f"drops {self.drop_share:.0%}")
        if self.late_entries:
            parts.append(f"{self.late_entries} late at round {self.late_round}")
        parts.append(f"{self.ranks} ranks")
        return ", ".join(parts)


@dataclass(slots=True)
class _Player:
    id: int
    points: int = 0
    met: set[int] = field(default_factory=set)
    byes: int = 0
    dropped: bool = False


class SimulatedEvent:
    """An event played round by round: :meth:`entrants` before a round, :meth:`record` its pairing after.

    ``round_number`` is the round about to be paired and :meth:`seed` the seed
    to pair it with, so a round is reproduced from the spec alone.
    """

    def __init__(self, spec: FieldSpec) -> None:
        self.spec = spec
        self.round_number = 1
        self._rng = random.Random(f"podium-field-{spec.seed}-{spec.size}")
        self._players: dict[int, _Player] = {i: _Player(i) for i in range(spec.size)}
        self._prepared = 0
        total = round(spec.drop_share * spec.size)
        later = range(2, spec.rounds + 1)
        #: Players dropping before each round: the total spread evenly over rounds 2 on.
        self._drops = {r: total * (k + 1) // len(later) - total * k // len(later) for k, r in enumerate(later)}

    def seed(self) -> int:
        return self.spec.seed * 1_000 + self.round_number

    def entrants(self) -> list[Entrant]:
        """The field before the current round, this round's drops and late entries included, in id order."""
        if self._prepared != self.round_number:
            self._prepared = self.round_number
            self._enter_and_drop()
        spec, players = self.spec, self._players
        # Ranks from the points, ties parted at random (as tiebreakers would) or shared.
        ordered = sorted(players.values(), key=lambda p: (-p.points, self._rng.random()))
        rank: dict[int, int] = {}
        for place, p in enumerate(ordered, start=1):
            shared = spec.ranks == "points" and place > 1 and p.points == ordered[place - 2].points
            rank[p.id] = rank[ordered[place - 2].id] if shared else place
        return [
            Entrant(
                id=p.id, points=p.points, rank=rank[p.id], opponents=frozenset(p.met), byes=p.byes, dropped=p.dropped
            )
            for p in sorted(players.values(), key=lambda p: p.id)
        ]

    def _enter_and_drop(self) -> None:
        spec, rng, players = self.spec, self._rng, self._players
        if self.round_number == spec.late_round:
            for i in range(spec.size, spec.size + spec.late_entries):
                players[i] = _Player(i)
        drops = self._drops.get(self.round_number, 0)
        if not drops:
            return
        active = sorted((p for p in players.values() if not p.dropped), key=lambda p: (p.points, p.id))
        # Weight 1 / sqrt(place from the bottom), drawn without replacement: the largest random() ** (1 / weight).
        keys = sorted(((rng.random() ** (1 + k) ** 0.5, p.id) for k, p in enumerate(active)), reverse=True)
        for _, i in keys[: max(0, min(drops, len(active) - 2))]:
            players[i].dropped = True

    def record(self, pairing: Pairing) -> None:
        """Play the round: a random result at every table, three points for a bye; then on to the next round."""
        players, rng, draw_rate = self._players, self._rng, self.spec.draw_rate
        win = draw_rate + (1 - draw_rate) / 2
        for table in pairing.tables:
            a, b = (players[s] for s in table.seats)
            a.met.add(b.id)
            b.met.add(a.id)
            outcome = rng.random()
            if outcome < draw_rate:
                a.points += 1
                b.points += 1
            elif outcome < win:
                a.points += 3
            else:
                b.points += 3
        for i in pairing.byes:
            players[i].byes += 1
            players[i].points += 3
        self.round_number += 1


def play(
    spec: FieldSpec, pair: Callable[[list[Entrant], int, int], Pairing]
) -> Iterator[tuple[int, list[Entrant], Pairing]]:
    """Play the whole event, ``pair(entrants, round_number, seed)`` pairing each round; yields each round paired."""
    event = SimulatedEvent(spec)
    while event.round_number <= spec.rounds:
        number, entrants = event.round_number, event.entrants()
        pairing = pair(entrants, number, event.seed())
        yield number, entrants, pairing
        event.record(pairing)


def adversarial_specs(sizes: Sequence[int], seeds: Sequence[int], *, rounds: int = 16) -> list[FieldSpec]:
    """The sweep: for each size and seed, an event of that size and a neutral one of the next size.

    The first draws from the seed its results (50/50 or 45/45/10), its drops
    (none, or 10, 20 or 30% of the field over the event), its late entries
    (none, 2% or 10% of the field, at round 3, 4 or 5) and its ranks
    (distinct or shared by points).  The second has the same size plus one,
    so odd for an even size, and nobody drops or enters late, which keeps its
    parity for the whole event; it draws its results, and its ranks are
    distinct for an even seed and shared for an odd one.
    """
    specs: list[FieldSpec] = []
    for size in sizes:
        for seed in seeds:
            rng = random.Random(f"podium-sweep-{size}-{seed}")
            specs.append(
                FieldSpec(
                    size=size,
                    seed=seed,
                    rounds=rounds,
                    draw_rate=rng.choice((0.0, 0.1)),
                    drop_share=rng.choice((0.0, 0.1, 0.2, 0.3)),
                    late_entries=rng.choice((0, max(1, size // 50), max(2, size // 10))),
                    late_round=rng.randint(3, 5),
                    ranks=rng.choice(RANKS),
                )
            )
            specs.append(
                FieldSpec(
                    size=size + 1, seed=seed, rounds=rounds, draw_rate=rng.choice((0.0, 0.1)), ranks=RANKS[seed % 2]
                )
            )
    return specs
