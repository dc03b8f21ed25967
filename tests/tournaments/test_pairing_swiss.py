"""Swiss pairing for 1v1 formats: examples, then properties checked against a brute-force search."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.base import TableSize
from tests.support.pairing import MAIN_CODES, check_table_numbers, options
from tournaments.pairing import REASON_CODES, Entrant, Pairing, PairingError, pair_round
from tournaments.pairing.swiss import SwissCost, swiss_objective

ONE_VS_ONE = TableSize(2, 2, 2)
UNRANKED = 10**9


def entrant(id: int, points: int = 0, rank: int = 0, met: Sequence[int] = (), **kwargs: object) -> Entrant:
    return Entrant(id=id, points=points, rank=rank, opponents=frozenset(met), **kwargs)  # type: ignore[arg-type]


def pair(entrants: Sequence[Entrant], *, round_number: int = 2, seed: int = 7) -> Pairing:
    return pair_round(entrants, table_size=ONE_VS_ONE, round_number=round_number, seed=seed)


def pairs_of(pairing: Pairing) -> set[frozenset[int]]:
    return {frozenset(t.seats) for t in pairing.tables}


def with_history(entrants: Sequence[Entrant], meetings: Sequence[tuple[int, int]]) -> list[Entrant]:
    """Add each meeting to both players' opponents."""
    met: dict[int, set[int]] = {e.id: set(e.opponents) for e in entrants}
    for a, b in meetings:
        met[a].add(b)
        met[b].add(a)
    return [replace(e, opponents=frozenset(met[e.id])) for e in entrants]


# --- examples ------------------------------------------------------------------------------------


def test_it_gives_the_bye_to_the_lowest_ranked_player_without_one() -> None:
    field = [entrant(i, points=9 - i, rank=i) for i in range(1, 6)]
    field[4] = replace(field[4], byes=1)  # rank 5 already had one
    assert pair(field).byes == (4,)


def test_it_never_gives_a_second_bye_while_an_active_player_has_none() -> None:
    field = [entrant(i, points=0, rank=i, byes=1) for i in range(1, 7)] + [entrant(7, points=9, rank=1)]
    assert pair(field).byes == (7,)


def test_an_unknown_rank_counts_as_tied_last() -> None:
    field = [entrant(1, points=3, rank=1), entrant(2, points=3, rank=0), entrant(3, points=0, rank=2)]
    assert pair(field).byes == (2,)


def test_it_passes_the_bye_up_when_the_lowest_ranked_player_would_force_a_rematch() -> None:
    # Player 1 has met 2, 3 and 4: with 5 on a bye one of them must play 1 again; with 4 on a bye, 1 plays 5.
    field = with_history([entrant(i, points=10 - i, rank=i) for i in range(1, 6)], [(1, 2), (1, 3), (1, 4)])
    pairing = pair(field)
    assert pairing.rematches == 0
    assert pairing.byes == (4,)


def test_it_pairs_within_point_groups_when_the_history_allows_it() -> None:
    # A greedy pass would pair 1-2 and then have to pair 3 and 4 down; 1-3 and 2-4 keeps everyone in the group.
    top = [entrant(i, points=6, rank=i) for i in range(1, 5)]
    bottom = [entrant(i, points=0, rank=i) for i in range(5, 9)]
    field = with_history(top + bottom, [(3, 4), (5, 6)])
    pairing = pair(field)
    assert pairing.rematches == 0
    assert all(len({p <= 4 for p in t.seats}) == 1 for t in pairing.tables)


def test_it_pairs_down_rather_than_repeat_a_match() -> None:
    field = with_history(
        [entrant(1, points=6), entrant(2, points=6), entrant(3, points=3), entrant(4, points=3)], [(1, 2)]
    )
    pairing = pair(field)
    assert pairing.rematches == 0
    assert frozenset({1, 2}) not in pairs_of(pairing)


def test_it_pairs_down_to_the_nearest_point_group() -> None:
    field = [entrant(1, points=9), entrant(2, points=6), entrant(3, points=6), entrant(4, points=0)]
    # 9 plays a 6 and the other 6 plays the 0: pairing 9 with 0 would cost one big pair-down instead of two small.
    assert frozenset({1, 4}) not in pairs_of(pair(field))


def test_it_makes_the_fewest_rematches_when_they_cannot_be_avoided() -> None:
    everyone_met = with_history(
        [entrant(i) for i in range(1, 5)], [(a, b) for a in range(1, 5) for b in range(a + 1, 5)]
    )
    assert pair(everyone_met).rematches == 2
    one_fresh_pair = with_history(
        [entrant(i) for i in range(1, 5)], [(1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    )  # only 1-2 have not met
    pairing = pair(one_fresh_pair)
    assert pairing.rematches == 1
    assert frozenset({1, 2}) in pairs_of(pairing)


def test_it_numbers_tables_from_the_highest_points_down_and_seats_the_higher_player_first() -> None:
    field = [entrant(i, points=p) for i, p in [(1, 0), (2, 9), (3, 3), (4, 9), (5, 0), (6, 3)]]
    pairing = pair(field)
    assert [t.number for t in pairing.tables] == [1, 2, 3]
    assert [frozenset(t.seats) for t in pairing.tables] == [frozenset({2, 4}), frozenset({3, 6}), frozenset({1, 5})]
    mixed = pair([entrant(1, points=0), entrant(2, points=3)])
    assert mixed.tables[0].seats == (2, 1)


def test_it_ignores_dropped_entrants() -> None:
    field = [entrant(i, points=3) for i in range(1, 5)] + [entrant(5, points=9, dropped=True)]
    pairing = pair(field)
    assert 5 not in {p for t in pairing.tables for p in t.seats} | set(pairing.byes)
    assert pairing.byes == ()


def test_it_counts_a_meeting_remembered_by_one_player_only() -> None:
    field = [entrant(1, met=[2]), entrant(2)]
    assert pair(field).rematches == 1


def test_round_one_is_random_but_reproducible_from_the_seed() -> None:
    field = [entrant(i) for i in range(1, 17)]
    first = pair(field, round_number=1, seed=1)
    assert first == pair(field, round_number=1, seed=1)
    assert any(pairs_of(pair(field, round_number=1, seed=s)) != pairs_of(first) for s in range(2, 6))
    assert first.seed == 1


def test_round_one_gives_the_odd_players_bye_to_someone_who_has_none() -> None:
    field = [entrant(i, byes=1) for i in range(1, 7)] + [entrant(7)]
    assert pair(field, round_number=1).byes == (7,)


def test_the_order_of_the_entrants_does_not_matter() -> None:
    field = with_history([entrant(i, points=3 * (i % 4), rank=i) for i in range(1, 12)], [(1, 5), (2, 6), (3, 7)])
    shuffled = list(field)
    random.Random(3).shuffle(shuffled)
    assert pair(field) == pair(shuffled)


def test_it_rejects_duplicate_ids() -> None:
    with pytest.raises(PairingError, match="duplicate"):
        pair([entrant(1), entrant(2), entrant(1, dropped=True)])


def test_it_rejects_a_field_with_nobody_active() -> None:
    with pytest.raises(PairingError, match="no active"):
        pair([entrant(1, dropped=True)])
    with pytest.raises(PairingError):
        pair([])


def test_it_rejects_a_field_smaller_than_one_table() -> None:
    with pytest.raises(PairingError, match="at least 2"):
        pair([entrant(1), entrant(2, dropped=True)])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"round_number": 0},
        {"round_number": True},
        {"seed": "abc"},
        {"seed": 1.5},
        {"table_size": (2, 2, 2)},
    ],
)
def test_it_rejects_invalid_arguments(kwargs: dict[str, object]) -> None:
    arguments: dict[str, object] = {"table_size": ONE_VS_ONE, "round_number": 2, "seed": 1} | kwargs
    with pytest.raises(PairingError):
        pair_round([entrant(1), entrant(2)], **arguments)  # type: ignore[arg-type]


def test_it_rejects_unknown_options() -> None:
    with pytest.raises(TypeError):
        pair_round([entrant(1), entrant(2)], table_size=ONE_VS_ONE, round_number=2, seed=1, accelerated=True)  # type: ignore[call-arg]


def test_a_large_field_is_paired_without_rematches() -> None:
    rng = random.Random(5)
    field = [entrant(i, points=rng.choice([0, 3, 6, 9]), met=rng.sample(range(2000), 3)) for i in range(2000)]
    pairing = pair(field)
    assert pairing.rematches == 0
    assert len(pairing.tables) == 1000


# --- a brute-force reference -----------------------------------------------------------------------


def met_map(entrants: Sequence[Entrant]) -> dict[int, set[int]]:
    ids = {e.id for e in entrants}
    met: dict[int, set[int]] = {e.id: set() for e in entrants}
    for e in entrants:
        for o in e.opponents:
            if o in ids and o != e.id:
                met[e.id].add(o)
                met[o].add(e.id)
    return met


def best_pairing_cost(players: Sequence[Entrant], met: dict[int, set[int]]) -> Callable[[int], tuple[int, int]]:
    """``cost(mask) -> (rematches, sum of squared point differences)``, the best over perfect pairings."""
    ids = [e.id for e in players]
    points = [e.points for e in players]

    @cache
    def cost(mask: int) -> tuple[int, int]:
        if mask == 0:
            return (0, 0)
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        best = (10**9, 10**9)
        other = rest
        while other:
            j = (other & -other).bit_length() - 1
            other &= other - 1
            sub = cost(rest & ~(1 << j))
            candidate = (sub[0] + (ids[j] in met[ids[first]]), sub[1] + (points[first] - points[j]) ** 2)
            best = min(best, candidate)
        return best

    return cost


def rank_key(e: Entrant) -> int:
    return e.rank if e.rank > 0 else UNRANKED


def check_swiss(entrants: Sequence[Entrant], pairing: Pairing) -> None:
    """Every property the Swiss pairer promises for a round after the first."""
    active = [e for e in entrants if not e.dropped]
    by_id = {e.id: e for e in active}
    seated = [p for t in pairing.tables for p in t.seats]
    assert sorted(seated + list(pairing.byes)) == sorted(by_id), "every active entrant exactly once"
    assert all(len(t.seats) == 2 for t in pairing.tables)
    assert [t.number for t in pairing.tables] == list(range(1, len(pairing.tables) + 1))
    assert len(pairing.byes) == len(active) % 2
    met = met_map(active)
    assert pairing.rematches == sum(t.seats[1] in met[t.seats[0]] for t in pairing.tables)
    tops = [max(by_id[p].points for p in t.seats) for t in pairing.tables]
    assert tops == sorted(tops, reverse=True), "table 1 holds the highest points"
    assert pairing.objective == swiss_objective(pairing, entrants)

    index = {e.id: i for i, e in enumerate(active)}
    full = (1 << len(active)) - 1
    cost = best_pairing_cost(active, met)
    actual = (
        pairing.rematches,
        sum((by_id[a].points - by_id[b].points) ** 2 for a, b in (t.seats for t in pairing.tables)),
    )
    if not pairing.byes:
        assert actual == cost(full), "fewest rematches, then closest points"
        return
    (bye,) = pairing.byes
    fewest = min(e.byes for e in active)
    assert by_id[bye].byes == fewest, "never a second bye while someone has none"
    rematches_if = {e.id: cost(full & ~(1 << index[e.id]))[0] for e in active if e.byes == fewest}
    least = min(rematches_if.values())
    assert pairing.rematches == least, "no rematch another bye could have avoided"
    assert rematches_if[bye] == least
    lower = [
        i
        for i, r in rematches_if.items()
        if r == least and (-rank_key(by_id[i]), by_id[i].points) < (-rank_key(by_id[bye]), by_id[bye].points)
    ]
    assert not lower, "the bye goes to the lowest-ranked player who can take it"
    assert actual == (least, cost(full & ~(1 << index[bye]))[1]), "closest points given the bye"


@st.composite
def fields(draw: st.DrawFn, max_active: int = 12) -> list[Entrant]:
    n = draw(st.integers(2, max_active))
    dropped = draw(st.integers(0, 2))
    total = n + dropped
    points = draw(st.lists(st.sampled_from([0, 1, 3, 4, 6, 7, 9]), min_size=total, max_size=total))
    if draw(st.booleans()):
        ranks = [1 + sum(q > p for q in points) for p in points]
    else:
        ranks = draw(st.lists(st.integers(0, total), min_size=total, max_size=total))
    byes = draw(st.lists(st.integers(0, 2), min_size=total, max_size=total))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    meetings = [(a, b) for a in range(total) for b in range(a + 1, total) if rng.random() < density]
    base = [Entrant(id=100 + i, points=points[i], rank=ranks[i], byes=byes[i], dropped=i >= n) for i in range(total)]
    return with_history(base, [(100 + a, 100 + b) for a, b in meetings])


# --- properties ----------------------------------------------------------------------------------


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=fields(), seed=st.integers(0, 2**62))
def test_a_later_round_is_optimal_against_a_brute_force_search(field: list[Entrant], seed: int) -> None:
    check_swiss(field, pair(field, seed=seed))


@settings(max_examples=60, deadline=None)
@given(field=fields(), seed=st.integers(0, 2**62), round_number=st.integers(1, 6))
def test_the_same_inputs_and_seed_give_the_same_pairing(field: list[Entrant], seed: int, round_number: int) -> None:
    shuffled = list(field)
    random.Random(seed).shuffle(shuffled)
    assert pair(field, seed=seed, round_number=round_number) == pair(shuffled, seed=seed, round_number=round_number)


@settings(max_examples=60, deadline=None)
@given(field=fields(), seed=st.integers(0, 2**62))
def test_round_one_seats_everyone_once_and_gives_byes_fairly(field: list[Entrant], seed: int) -> None:
    pairing = pair(field, seed=seed, round_number=1)
    active = [e for e in field if not e.dropped]
    seated = [p for t in pairing.tables for p in t.seats]
    assert sorted(seated + list(pairing.byes)) == sorted(e.id for e in active)
    fewest = min(e.byes for e in active)
    assert all(e.byes == fewest for e in active if e.id in pairing.byes)


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(20, 60).map(lambda n: 2 * n), density=st.sampled_from([0.3, 0.6, 0.85]), seed=st.integers(0, 2**32)
)
def test_a_bigger_field_has_no_more_rematches_than_a_maximum_matching_allows(n: int, density: float, seed: int) -> None:
    rng = random.Random(seed)
    meetings = [(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < density]
    field = with_history([entrant(i, points=rng.choice([0, 3, 6, 9, 12])) for i in range(n)], meetings)
    fresh = nx.complete_graph(n)
    fresh.remove_edges_from(meetings)
    least = n // 2 - len(nx.max_weight_matching(fresh, maxcardinality=True))
    assert pair(field, seed=seed).rematches == least


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(4, 14),
    rounds=st.integers(4, 6),
    seed=st.integers(0, 2**32),
    drop_rate=st.sampled_from([0.0, 0.05, 0.15]),
)
def test_a_simulated_event_never_has_an_avoidable_rematch(n: int, rounds: int, seed: int, drop_rate: float) -> None:
    rng = random.Random(seed)
    points = dict.fromkeys(range(n), 0)
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    byes = dict.fromkeys(range(n), 0)
    dropped: set[int] = set()
    for number in range(1, rounds + 1):
        if sum(1 for i in range(n) if i not in dropped) < 2:
            break
        standing = sorted(points, key=lambda i: -points[i])
        rank = {i: 1 + sum(points[j] > points[i] for j in standing) for i in standing}
        field = [
            Entrant(
                id=i, points=points[i], rank=rank[i], opponents=frozenset(met[i]), byes=byes[i], dropped=i in dropped
            )
            for i in range(n)
        ]
        pairing = pair(field, round_number=number, seed=rng.randrange(2**32))
        if number > 1:
            check_swiss(field, pairing)
        for table in pairing.tables:
            a, b = table.seats
            met[a].add(b)
            met[b].add(a)
            outcome = rng.random()
            if outcome < 0.1:
                points[a] += 1
                points[b] += 1
            else:
                points[a if outcome < 0.55 else b] += 3
        for b in pairing.byes:
            byes[b] += 1
            points[b] += 3
        dropped |= {i for i in range(n) if rng.random() < drop_rate}


@pytest.mark.parametrize(
    "bad",
    [
        Entrant(id=1, points=1.5),  # type: ignore[arg-type]
        Entrant(id=1, rank=-1),
        Entrant(id=1, byes=-1),
        Entrant(id="1"),  # type: ignore[arg-type]
    ],
)
def test_it_rejects_entrants_with_impossible_fields(bad: Entrant) -> None:
    with pytest.raises(PairingError):
        pair([bad, entrant(2), entrant(3)])


def test_it_accepts_any_iterable_of_entrants() -> None:
    assert pair(iter([entrant(1), entrant(2)])).tables[0].seats in {(1, 2), (2, 1)}  # type: ignore[arg-type]


# --- the objective -------------------------------------------------------------------------------


def test_the_objective_ranks_rematches_then_the_bye_then_point_differences() -> None:
    field = with_history(
        [entrant(1, points=9, rank=1), entrant(2, points=6, rank=2), entrant(3, points=0, rank=3, byes=1)],
        [(1, 2)],
    )
    cost = SwissCost(field)
    # Only 1 and 2 may take the bye (3 has had one); 2 is lower ranked, so class 0.
    assert cost.bye(3) is None
    assert cost.bye(2) == 0 < cost.bye(1) == cost.bye_step
    assert cost.pair(1, 3) == 81 and cost.pair(1, 2) == cost.rematch + 9
    # The worst point differences cost less than one step of bye preference, and that less than a rematch.
    worst_without_rematch = cost.total([(1, 3)], 2)
    assert worst_without_rematch < cost.total([(2, 3)], 1) < cost.total([(1, 2)], None) + cost.bye_step
    assert cost.bye_step > 81 and cost.rematch > cost.bye_step + 81


def test_the_engine_scores_its_pairing_by_the_stated_objective() -> None:
    field = with_history([entrant(i, points=p, rank=i) for i, p in [(1, 6), (2, 6), (3, 3), (4, 0)]], [(1, 2)])
    pairing = pair(field)
    assert pairing.rematches == 0
    # 6-6 have met, so each 6 pairs down: (6-3)^2 + (6-0)^2 = 45 beats a rematch.
    assert swiss_objective(pairing, field) == 45


# --- organiser's options: assigned byes, fixed tables; reasons and the objective ------------------


def check_reasons(entrants: Sequence[Entrant], pairing: Pairing, *, round_number: int, assigned: set[int]) -> None:
    """Every active entrant has codes from the vocabulary, in order, that agree with the pairing (1v1)."""
    active = [e for e in entrants if not e.dropped]
    by_id = {e.id: e for e in active}
    assert set(pairing.reasons) == set(by_id), "a reason for every active entrant, nobody else"
    met = met_map([e for e in active if e.id not in assigned])
    for p, codes in pairing.reasons.items():
        assert set(codes) <= REASON_CODES and len(set(codes)) == len(codes)
        assert codes[0] in MAIN_CODES and not set(codes[1:]) & MAIN_CODES
        assert list(codes[1:]) == sorted(codes[1:], key=["rematch", "fixed_table"].index)
        if p in assigned:
            assert codes == ("bye_assigned",)
        elif p in pairing.byes:
            assert codes == ("bye",)
    for table in pairing.tables:
        a, b = table.seats
        codes_a, codes_b = pairing.reasons[a], pairing.reasons[b]
        assert ("rematch" in codes_a) == ("rematch" in codes_b) == (b in met[a])
        if round_number == 1:
            assert codes_a[0] == codes_b[0] == "first_round"
            continue
        pa, pb = by_id[a].points, by_id[b].points
        expected = ("same_points",) * 2 if pa == pb else ("paired_down", "paired_up")
        if pa < pb:
            expected = ("paired_up", "paired_down")
        assert (codes_a[0], codes_b[0]) == expected


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), field=fields(), seed=st.integers(0, 2**62), round_number=st.integers(1, 4))
def test_assigned_byes_and_fixed_tables_are_honoured_and_the_rest_is_paired_as_before(
    data: st.DataObject, field: list[Entrant], seed: int, round_number: int
) -> None:
    assigned, fixed = data.draw(options(field))
    kwargs = {"table_size": ONE_VS_ONE, "round_number": round_number, "seed": seed}
    pairing = pair_round(field, **kwargs, assigned_byes=assigned, fixed_tables=fixed)  # type: ignore[arg-type]
    unfixed = pair_round(field, **kwargs, assigned_byes=sorted(assigned))  # type: ignore[arg-type]
    check_table_numbers(pairing, unfixed, {p: n for p, n in fixed.items() if any(p == e.id for e in field)})
    check_reasons(field, pairing, round_number=round_number, assigned=assigned)

    active = [e for e in field if not e.dropped]
    seated = [p for t in pairing.tables for p in t.seats]
    assert sorted(seated + list(pairing.byes)) == sorted(e.id for e in active), "every active entrant exactly once"
    assert assigned <= set(pairing.byes) and not assigned & set(seated), "assigned byes honoured, never seated"
    rest = [e for e in field if e.id not in assigned]
    engine_byes = [p for p in pairing.byes if p not in assigned]
    assert len(engine_byes) == (len(active) - len(assigned)) % 2
    assert pairing.objective == swiss_objective(pairing, field)
    if len(active) > len(assigned):
        # The rest is paired exactly as if the organiser's byes were not in the field.
        alone = pair_round(rest, **kwargs)  # type: ignore[arg-type]
        assert alone.tables == unfixed.tables and alone.byes == tuple(engine_byes)
        assert alone.objective == pairing.objective and alone.rematches == pairing.rematches
        if round_number > 1:
            check_swiss(rest, alone)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=fields(), seed=st.integers(0, 2**62), round_number=st.integers(1, 4))
def test_the_objective_and_the_reasons_describe_the_pairing(field: list[Entrant], seed: int, round_number: int) -> None:
    pairing = pair(field, seed=seed, round_number=round_number)
    assert pairing.objective == swiss_objective(pairing, field)
    check_reasons(field, pairing, round_number=round_number, assigned=set())


def test_an_assigned_bye_leaves_an_even_field_odd_so_the_engine_adds_its_own() -> None:
    field = [entrant(i, points=9 - i, rank=i) for i in range(1, 7)]
    pairing = pair_round(field, table_size=ONE_VS_ONE, round_number=2, seed=1, assigned_byes=[1])
    assert pairing.byes == (1, 6)
    assert pairing.reasons[1] == ("bye_assigned",) and pairing.reasons[6] == ("bye",)
    assert {p for t in pairing.tables for p in t.seats} == {2, 3, 4, 5}


def test_everyone_can_have_an_assigned_bye() -> None:
    pairing = pair_round([entrant(1), entrant(2)], table_size=ONE_VS_ONE, round_number=3, seed=1, assigned_byes={1, 2})
    assert pairing.tables == () and pairing.byes == (1, 2) and pairing.objective == 0
    assert pairing.reasons == {1: ("bye_assigned",), 2: ("bye_assigned",)}


def test_it_explains_pairing_down_and_up_and_an_unavoidable_rematch() -> None:
    field = with_history([entrant(1, points=6, rank=1), entrant(2, points=3, rank=2), entrant(3, points=3)], [(2, 3)])
    pairing = pair_round(field, table_size=ONE_VS_ONE, round_number=2, seed=1, assigned_byes=[1])
    assert pairing.reasons == {1: ("bye_assigned",), 2: ("same_points", "rematch"), 3: ("same_points", "rematch")}
    pairing = pair(field[:2])
    assert pairing.reasons == {1: ("paired_down",), 2: ("paired_up",)}


def test_a_fixed_table_takes_its_number_and_the_others_fill_from_one() -> None:
    field = [entrant(i, points=12 - 2 * i, rank=i) for i in range(1, 7)]  # tables 1-2, 3-4, 5-6 by points
    pairing = pair_round(field, table_size=ONE_VS_ONE, round_number=2, seed=1, fixed_tables={3: 40, 6: 1})
    assert [(t.number, t.seats) for t in pairing.tables] == [(1, (5, 6)), (2, (1, 2)), (40, (3, 4))]
    assert pairing.reasons[3] == ("paired_down", "fixed_table") and pairing.reasons[4] == ("paired_up",)
    assert pairing.reasons[6] == ("paired_up", "fixed_table") and pairing.reasons[1] == ("paired_down",)


def test_two_fixed_players_at_one_table_honour_the_smaller_number_only() -> None:
    field = [entrant(1, points=3), entrant(2, points=3), entrant(3), entrant(4)]
    pairing = pair_round(field, table_size=ONE_VS_ONE, round_number=2, seed=1, fixed_tables={1: 7, 2: 5})
    assert [(t.number, set(t.seats)) for t in pairing.tables] == [(1, {3, 4}), (5, {1, 2})]
    assert pairing.reasons[2] == ("same_points", "fixed_table") and pairing.reasons[1] == ("same_points",)


def test_a_fixed_player_with_a_bye_simply_has_the_bye() -> None:
    field = [entrant(i) for i in range(1, 5)]
    pairing = pair_round(field, table_size=ONE_VS_ONE, round_number=2, seed=1, fixed_tables={4: 9}, assigned_byes=[4])
    assert pairing.reasons[4] == ("bye_assigned",)
    assert [t.number for t in pairing.tables] == [1]


def test_a_dropped_players_fixed_table_does_not_matter() -> None:
    field = [entrant(1), entrant(2), entrant(3, dropped=True)]
    pairing = pair_round(field, table_size=ONE_VS_ONE, round_number=2, seed=1, fixed_tables={3: 4, 1: 4, 99: 4})
    assert [t.number for t in pairing.tables] == [4]


def test_leftovers_make_no_difference_in_one_vs_one() -> None:
    field = [entrant(i, points=i % 3) for i in range(1, 8)]
    assert pair(field) == pair_round(field, table_size=ONE_VS_ONE, round_number=2, seed=7, leftovers="byes")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"assigned_byes": [9]}, "not an active entrant"),
        ({"assigned_byes": [4]}, "not an active entrant"),  # dropped
        ({"assigned_byes": ["1"]}, "integers"),
        ({"assigned_byes": [True]}, "integers"),
        ({"assigned_byes": "12"}, "collection"),
        ({"assigned_byes": 1}, "collection"),
        ({"assigned_byes": [1, 2]}, "at least 2"),  # one left to pair
        ({"fixed_tables": {1: 0}}, "at least 1"),
        ({"fixed_tables": {1: -3}}, "at least 1"),
        ({"fixed_tables": {1: 2.0}}, "integer"),
        ({"fixed_tables": {1: True}}, "integer"),
        ({"fixed_tables": {1: "2"}}, "integer"),
        ({"fixed_tables": {"1": 2}}, "integers"),
        ({"fixed_tables": {1: 2, 3: 2}}, "both fixed to table 2"),
        ({"fixed_tables": [(1, 2)]}, "map"),
        ({"leftovers": "bye"}, "leftovers"),
        ({"leftovers": None}, "leftovers"),
    ],
)
def test_it_rejects_bad_options(kwargs: dict[str, object], message: str) -> None:
    field = [entrant(1), entrant(2), entrant(3), entrant(4, dropped=True)]
    with pytest.raises(PairingError, match=message):
        pair_round(field, table_size=ONE_VS_ONE, round_number=2, seed=1, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("table_size", [TableSize(2, 2, 2), TableSize(3, 4, 4)], ids=["1v1", "pods"])
def test_round_one_keeps_apart_the_pairs_it_is_given(table_size: TableSize) -> None:
    # Kept-apart pairs weigh as rematches: round 1 then avoids them, while a round 1 without them keeps its
    # seeded shuffle.
    apart = [(1, 2), (3, 4), (5, 6), (7, 8)]
    field = [Entrant(id=p) for p in range(1, 17)]
    for seed in range(30):
        pairing = pair_round(field, table_size=table_size, round_number=1, seed=seed, keep_apart=apart)
        assert pairing.rematches == 0
        assert not any({a, b} <= set(t.seats) for t in pairing.tables for a, b in apart)
    plain = [Entrant(id=p) for p in range(1, 17)]
    assert pair_round(plain, table_size=table_size, round_number=1, seed=3) == pair_round(
        plain, table_size=table_size, round_number=1, seed=3
    )
