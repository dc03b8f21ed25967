"""Phases without a database: the plan's arithmetic, who advances, the overall ranking, and a real day 2.

The day-2 test plays a Regional's day 1 (500 players, 9 rounds, byes earned
before the event) with the pure pairing and standings engines, advances the
players on 19 points or more (Play! Pokémon's rule), pairs and ranks their
5 rounds of day 2, and checks the overall standings as the convention wants.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.base import ONE_VS_ONE, TableSize
from tournaments.pairing import Entrant, pair_round
from tournaments.standings import SeatResult, Standing, TableResult, compute_standings
from tournaments.standings import phases as ph

PAIRS = TableSize(2, 2, 2)


def row(rank: int, player: int, points: int, *, dropped: bool = False) -> Standing:
    return Standing(rank, player, points, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, dropped)


def test_the_pokemon_preset_is_nine_rounds_then_five_for_players_on_nineteen_points() -> None:
    plan, cut = ph.PRESETS["pokemon_day2"]
    ph.check_plan(plan)
    assert [(p.name, p.rounds, p.advance_points) for p in plan] == [("Day 1", 9, 19), ("Day 2", 5, None)]
    assert cut == 8
    assert (ph.first_round(plan, 2), ph.last_round(plan, 1), ph.last_round(plan, 2)) == (10, 9, 14)
    assert [ph.phase_of_round(plan, n) for n in (1, 9, 10, 14, 15)] == [1, 1, 2, 2, 2]
    assert plan[0].rule_text() == "19 match points or more"


@pytest.mark.parametrize(
    ("plan", "says"),
    [
        ([], "at least one phase"),
        ([ph.PhasePlan("Day 1", 0)], "has no rounds"),
        ([ph.PhasePlan(" ", 3)], "has no name"),
        ([ph.PhasePlan("Day 1", 9, advance_points=19)], "nowhere to advance"),
        ([ph.PhasePlan("Day 1", 9), ph.PhasePlan("Day 2", 5)], "needs a rule"),
        ([ph.PhasePlan("Day 1", 9, 19, 64), ph.PhasePlan("Day 2", 5)], "not both"),
        ([ph.PhasePlan("Day 1", 9, advance_top=1), ph.PhasePlan("Day 2", 5)], "fewer than 2"),
    ],
)
def test_a_plan_that_cannot_run_is_refused_with_the_reason(plan: list[ph.PhasePlan], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        ph.check_plan(plan)


def test_advancing_by_points_takes_everyone_on_the_line_and_by_top_n_the_first_n_in_order() -> None:
    table = [row(1, 10, 21), row(2, 11, 19), row(2, 12, 19), row(4, 13, 19, dropped=True), row(5, 14, 18)]
    everyone = [10, 11, 12, 13, 14]
    assert ph.advancing(table, ph.PhasePlan("Day 1", 9, advance_points=19), eligible=everyone) == [10, 11, 12]
    assert ph.advancing(table, ph.PhasePlan("Day 1", 9, advance_top=2), eligible=everyone) == [10, 11]
    # A player who is not eligible (withdrawn, not in the phase) never goes on, and makes no room.
    assert ph.advancing(table, ph.PhasePlan("Day 1", 9, advance_top=2), eligible=[11, 12, 14]) == [11, 12]
    with pytest.raises(ValueError, match="last phase"):
        ph.advancing(table, ph.PhasePlan("Day 2", 5), eligible=everyone)


def test_the_overall_standings_put_every_later_phase_player_first_and_keep_ties() -> None:
    table = [row(1, 1, 30), row(2, 2, 27), row(2, 3, 27), row(4, 4, 24), row(5, 5, 21), row(6, 6, 18)]
    ranked = ph.rank_by_phase(table, {3: 2, 4: 2, 6: 2})
    assert [(s.rank, s.player_id) for s in ranked] == [(1, 3), (2, 4), (3, 6), (4, 1), (5, 2), (6, 5)]
    tied = ph.rank_by_phase(table, {2: 2, 3: 2})
    assert [(s.rank, s.player_id) for s in tied] == [(1, 2), (1, 3), (3, 1), (4, 4), (5, 5), (6, 6)]
    assert ph.rank_by_phase(table, {}) == table


@given(
    st.lists(st.integers(0, 30), min_size=1, max_size=40),
    st.lists(st.integers(1, 3), min_size=40, max_size=40),
)
def test_ranking_by_phase_is_a_permutation_ordered_by_phase_then_by_the_engine(points, phases) -> None:
    ordered = sorted(points, reverse=True)
    table = []
    for i, p in enumerate(ordered):
        rank = 1 + sum(1 for q in ordered if q > p)
        table.append(row(rank, i + 1, p))
    reached = {s.player_id: phases[i] for i, s in enumerate(table)}
    ranked = ph.rank_by_phase(table, reached)
    assert sorted(s.player_id for s in ranked) == [s.player_id for s in table]
    keys = [(-reached[s.player_id], -s.points) for s in ranked]
    assert keys == sorted(keys)
    for a, b in zip(ranked, ranked[1:], strict=False):
        same = reached[a.player_id] == reached[b.player_id] and a.points == b.points
        assert (a.rank == b.rank) == same
        assert b.rank > a.rank or same


# --- a Regional's two days, with the pure engines -------------------------------------------------------------


class _Day:
    """The pure engines playing an event round by round: pairing from the standings, results by a hidden skill."""

    def __init__(self, players: int, *, seed: int) -> None:
        self.rng = random.Random(seed)
        self.skill = {p: self.rng.random() for p in range(1, players + 1)}
        self.results: list[TableResult] = []
        self.opponents: dict[int, set[int]] = defaultdict(set)
        self.byes: dict[int, int] = defaultdict(int)

    def table(self, players: list[int], *, through: int | None = None) -> list[Standing]:
        results = [r for r in self.results if through is None or r.round_number <= through]
        everyone = sorted({s.player_id for r in results for s in r.seats} | set(players))
        return compute_standings(everyone, results, scoring=ONE_VS_ONE, multiplayer=False, convention="pokemon")

    def play(self, number: int, players: list[int], *, assigned: tuple[int, ...] = ()) -> int:
        standing = {s.player_id: s for s in self.table(players)} if self.results else {}
        entrants = [
            Entrant(
                id=p, points=standing[p].points if p in standing else 0, rank=standing[p].rank if p in standing else 0,
                opponents=frozenset(self.opponents[p]), byes=self.byes[p],
            )
            for p in players
        ]  # fmt: skip
        pairing = pair_round(entrants, table_size=PAIRS, round_number=number, seed=number, assigned_byes=assigned)
        for bye in pairing.byes:
            self.byes[bye] += 1
            self.results.append(TableResult(round_number=number, seats=(SeatResult(bye, 1),)))
        for t in pairing.tables:
            a, b = t.seats
            self.opponents[a].add(b)
            self.opponents[b].add(a)
            roll = self.rng.random()
            if roll < 0.06:  # an intentional or timed-out draw
                seats = (SeatResult(a, 1, shared=True), SeatResult(b, 1, shared=True))
            else:
                edge = 0.5 + (self.skill[a] - self.skill[b]) * 0.6
                win, lose = (a, b) if roll < 0.06 + 0.94 * edge else (b, a)
                seats = (SeatResult(win, 1), SeatResult(lose, 2))
            self.results.append(TableResult(round_number=number, seats=seats))
        return pairing.rematches


def test_a_regional_day_two_advances_the_players_on_nineteen_points_and_ranks_them_first() -> None:
    plan, _ = ph.PRESETS["pokemon_day2"]
    players = list(range(1, 501))
    day = _Day(500, seed=2024)
    earned = (1, 2, 3, 4)  # byes earned before the event (rounds 1 and 2)
    for number in range(1, ph.last_round(plan, 1) + 1):
        day.play(number, players, assigned=earned if number <= 2 else ())

    day_one = day.table(players, through=9)
    going_on = ph.advancing(day_one, plan[0], eligible=players)
    on_points = {s.player_id for s in day_one if s.points >= 19}
    assert set(going_on) == on_points
    # A real day-2 field (Melbourne 2024: 531 -> 56); this seed sends 52 of the 500.
    assert 40 <= len(going_on) <= 80, len(going_on)
    assert all(day.byes[p] == 2 for p in earned)  # the earned byes were given, and count toward the 19

    rematches = 0
    for number in range(ph.first_round(plan, 2), ph.last_round(plan, 2) + 1):
        rematches += day.play(number, going_on)
    assert rematches == 0
    # Day 2 played only by the players who went on, 5 rounds each (an odd field: one bye a round).
    day_two = [r for r in day.results if r.round_number >= 10]
    in_day_two = {s.player_id for r in day_two for s in r.seats}
    assert in_day_two == set(going_on)
    assert len(day_two) == 5 * ((len(going_on) + 1) // 2)

    overall = ph.rank_by_phase(day.table(players), {p: 2 for p in going_on})
    assert [s.player_id for s in overall[: len(going_on)]] == [
        s.player_id for s in day.table(players) if s.player_id in on_points
    ]
    assert {s.player_id for s in overall[len(going_on) :]} == set(players) - on_points
    assert [s.rank for s in overall] == sorted(s.rank for s in overall)
    # A day-1 player with more points than a day-2 player still ranks below them.
    assert min(s.points for s in overall[: len(going_on)]) >= 19
