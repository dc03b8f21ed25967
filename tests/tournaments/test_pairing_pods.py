"""Pod pairing: examples, then properties checked against a brute-force search of every partition."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.base import TableSize
from tests.support.pairing import MAIN_CODES, check_table_numbers, options
from tournaments.pairing import REASON_CODES, Entrant, Pairing, PairingError, pair_round, pod_sizes
from tournaments.pairing.pods import pod_objective

MASTER_TRAINER = TableSize(2, 4, 4)
MT_SILVER = TableSize(3, 4, 4)
TRINITY = TableSize(3, 5, 4)
UNRANKED = 10**9


def entrant(id: int, points: int = 0, rank: int = 0, met: Sequence[int] = (), **kwargs: object) -> Entrant:
    return Entrant(id=id, points=points, rank=rank, opponents=frozenset(met), **kwargs)  # type: ignore[arg-type]


def pair(
    entrants: Sequence[Entrant], *, table_size: TableSize = MT_SILVER, round_number: int = 2, seed: int = 7
) -> Pairing:
    return pair_round(entrants, table_size=table_size, round_number=round_number, seed=seed)


def with_pods(entrants: Sequence[Entrant], pods: Sequence[Sequence[int]]) -> list[Entrant]:
    """Record that each pod's players have met each other."""
    met: dict[int, set[int]] = {e.id: set(e.opponents) for e in entrants}
    for pod in pods:
        for a in pod:
            met[a].update(b for b in pod if b != a)
    return [replace(e, opponents=frozenset(met[e.id])) for e in entrants]


def met_map(entrants: Sequence[Entrant]) -> dict[int, set[int]]:
    ids = {e.id for e in entrants}
    met: dict[int, set[int]] = {e.id: set() for e in entrants}
    for e in entrants:
        for o in e.opponents:
            if o in ids and o != e.id:
                met[e.id].add(o)
                met[o].add(e.id)
    return met


def pod_cost(pods: Sequence[Sequence[int]], met: dict[int, set[int]], points: dict[int, int]) -> tuple[int, int]:
    """(repeat pairs, sum of squared point differences of every pair in a pod)."""
    repeats = spread = 0
    for pod in pods:
        for a, b in combinations(pod, 2):
            repeats += b in met[a]
            spread += (points[a] - points[b]) ** 2
    return repeats, spread


def partitions(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to split ``players`` into groups of ``sizes`` (groups of equal size unordered)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        remaining = list(sizes)
        remaining.remove(size)
        for companions in combinations(rest, size - 1):
            others = [p for p in rest if p not in companions]
            for tail in partitions(others, remaining):
                yield [(first, *companions), *tail]


def rank_key(e: Entrant) -> int:
    return e.rank if e.rank > 0 else UNRANKED


def check_pods(entrants: Sequence[Entrant], pairing: Pairing, table_size: TableSize, *, exhaustive: bool) -> None:
    """Every property the pod pairer promises for a round after the first."""
    active = [e for e in entrants if not e.dropped]
    by_id = {e.id: e for e in active}
    seated = [p for t in pairing.tables for p in t.seats]
    assert sorted(seated + list(pairing.byes)) == sorted(by_id), "every active entrant exactly once"
    sizes, bye_count = pod_sizes(len(active), table_size)
    assert [len(t.seats) for t in pairing.tables] == sizes, "legal sizes, largest first"
    assert [t.number for t in pairing.tables] == list(range(1, len(pairing.tables) + 1))
    met = met_map(active)
    points = {e.id: e.points for e in active}
    pods = [t.seats for t in pairing.tables]
    assert pairing.rematches == pod_cost(pods, met, points)[0]

    assert len(pairing.byes) == bye_count
    if pairing.byes:

        def key(e: Entrant) -> tuple[int, int, int]:
            return (e.byes, -rank_key(e), e.points)

        worst_given = max(key(by_id[i]) for i in pairing.byes)
        assert all(key(e) >= worst_given for e in active if e.id not in pairing.byes), "byes to the lowest ranked"

    for table in pairing.tables:
        fewest = min(by_id[p].first_seats for p in table.seats)
        assert by_id[table.seats[0]].first_seats == fewest, "seat 1 to who went first least often"

    assert pairing.objective == pod_objective(pairing, entrants)
    check_pod_reasons(entrants, pairing, round_number=2, assigned=set())

    if exhaustive:
        best = min(pod_cost(p, met, points) for p in partitions(sorted(seated), sizes))
        assert pod_cost(pods, met, points) == best, "fewest repeats, then the smallest spread"
        if seated:
            # The stated integer objective: repeats first, spread second, with the bound from the field.
            values = [points[p] for p in seated]
            bound = sum(s * (s - 1) // 2 for s in sizes) * (max(values) - min(values)) ** 2
            assert pairing.objective == best[0] * (bound + 1) + best[1]


def check_pod_reasons(entrants: Sequence[Entrant], pairing: Pairing, *, round_number: int, assigned: set[int]) -> None:
    """Every active entrant has codes from the vocabulary, in order, that agree with the pods."""
    active = [e for e in entrants if not e.dropped]
    by_id = {e.id: e for e in active}
    assert set(pairing.reasons) == set(by_id), "a reason for every active entrant, nobody else"
    met = met_map([e for e in active if e.id not in assigned])
    for p, codes in pairing.reasons.items():
        assert set(codes) <= REASON_CODES and len(set(codes)) == len(codes)
        assert codes[0] in MAIN_CODES and not set(codes[1:]) & MAIN_CODES
        assert list(codes[1:]) == sorted(codes[1:], key=["rematch", "fixed_table"].index)
        if p in pairing.byes:
            assert codes == (("bye_assigned",) if p in assigned else ("bye",))
    for table in pairing.tables:
        same = len({by_id[p].points for p in table.seats}) == 1
        main = "first_round" if round_number == 1 else "same_points" if same else "mixed_points"
        for p in table.seats:
            codes = pairing.reasons[p]
            assert codes[0] == main
            assert ("rematch" in codes) == any(q in met[p] for q in table.seats)


@st.composite
def fields(draw: st.DrawFn, min_active: int = 3, max_active: int = 10) -> list[Entrant]:
    n = draw(st.integers(min_active, max_active))
    dropped = draw(st.integers(0, 2))
    total = n + dropped
    points = draw(st.lists(st.sampled_from([0, 1, 3, 4, 6, 7]), min_size=total, max_size=total))
    if draw(st.booleans()):
        ranks = [1 + sum(q > p for q in points) for p in points]
    else:
        ranks = draw(st.lists(st.integers(0, total), min_size=total, max_size=total))
    byes = draw(st.lists(st.integers(0, 2), min_size=total, max_size=total))
    first_seats = draw(st.lists(st.integers(0, 2), min_size=total, max_size=total))
    density = draw(st.sampled_from([0.0, 0.2, 0.4, 0.7, 1.0]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    meetings = [(100 + a, 100 + b) for a in range(total) for b in range(a + 1, total) if rng.random() < density]
    base = [
        Entrant(
            id=100 + i,
            points=points[i],
            rank=ranks[i],
            byes=byes[i],
            first_seats=first_seats[i],
            dropped=i >= n,
        )
        for i in range(total)
    ]
    return with_pods(base, meetings)


table_sizes = st.sampled_from([MASTER_TRAINER, MT_SILVER, TRINITY])


# --- examples ------------------------------------------------------------------------------------


def test_it_puts_the_smaller_pods_at_the_bottom_with_the_fewest_points() -> None:
    field = [entrant(i, points=10 - i, rank=i) for i in range(1, 12)]
    pairing = pair(field)
    assert [len(t.seats) for t in pairing.tables] == [4, 4, 3]
    assert [set(t.seats) for t in pairing.tables] == [{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11}]


def test_it_groups_players_by_points_before_anything_else_when_nobody_has_met() -> None:
    field = [entrant(i, points=p) for i, p in enumerate([0, 3, 0, 3, 1, 3, 1, 3, 0, 1, 0, 1], start=1)]
    pairing = pair(field)
    points = {e.id: e.points for e in field}
    assert [{points[p] for p in t.seats} for t in pairing.tables] == [{3}, {1}, {0}]


def test_it_gives_the_bye_to_the_lowest_ranked_player_without_one() -> None:
    field = [entrant(i, points=10 - i, rank=i) for i in range(1, 6)]
    field[4] = replace(field[4], byes=1)
    pairing = pair(field)
    assert pairing.byes == (4,)
    assert [len(t.seats) for t in pairing.tables] == [4]


def test_it_never_gives_a_second_bye_while_an_active_player_has_none() -> None:
    field = [entrant(i, points=0, rank=5, byes=1) for i in range(1, 5)] + [entrant(5, points=9, rank=1)]
    assert pair(field).byes == (5,)


def test_it_gives_seat_one_to_the_player_who_has_gone_first_least_often() -> None:
    field = [entrant(i, first_seats=2) for i in range(1, 4)] + [entrant(4, first_seats=1)]
    for seed in range(5):
        assert pair(field, seed=seed).tables[0].seats[0] == 4


def test_it_seats_the_other_players_at_random() -> None:
    field = [entrant(i) for i in range(1, 5)]
    assert len({pair(field, seed=seed).tables[0].seats for seed in range(20)}) > 1


def test_it_breaks_up_last_rounds_pods_when_the_field_allows_it() -> None:
    # Sixteen players, four pods last round; the score order would put old podmates together again.
    last_round = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    field = with_pods([entrant(i, points=16 - i, rank=i) for i in range(1, 17)], last_round)
    pairing = pair(field)
    assert pairing.rematches == 0
    for table in pairing.tables:
        assert len({(p - 1) // 4 for p in table.seats}) == 4


def test_a_small_field_makes_only_the_repeats_it_must() -> None:
    # Eight players after one round in two pods of four: every new pod of four holds two pairs of podmates.
    field = with_pods([entrant(i) for i in range(1, 9)], [[1, 2, 3, 4], [5, 6, 7, 8]])
    assert pair(field).rematches == 4


def test_it_never_seats_fewer_than_the_minimum() -> None:
    assert [len(t.seats) for t in pair([entrant(i) for i in range(1, 6)]).tables] == [4]
    assert [len(t.seats) for t in pair([entrant(i) for i in range(1, 6)], table_size=MASTER_TRAINER).tables] == [3, 2]
    assert [len(t.seats) for t in pair([entrant(i) for i in range(1, 6)], table_size=TRINITY).tables] == [5]


def test_round_one_is_random_largest_pods_first_and_reproducible() -> None:
    field = [entrant(i) for i in range(1, 12)]
    first = pair(field, round_number=1, seed=3)
    assert [len(t.seats) for t in first.tables] == [4, 4, 3]
    assert first == pair(list(reversed(field)), round_number=1, seed=3)
    assert any(pair(field, round_number=1, seed=s).tables != first.tables for s in range(4, 8))


def test_round_one_byes_go_to_players_who_have_none() -> None:
    field = [entrant(i, byes=1) for i in range(1, 5)] + [entrant(5)]
    assert pair(field, round_number=1).byes == (5,)


def test_it_ignores_dropped_entrants() -> None:
    field = [entrant(i) for i in range(1, 5)] + [entrant(5, dropped=True)]
    pairing = pair(field)
    assert pairing.byes == () and [set(t.seats) for t in pairing.tables] == [{1, 2, 3, 4}]


def test_it_rejects_a_field_smaller_than_one_table() -> None:
    with pytest.raises(PairingError, match="at least 3"):
        pair([entrant(1), entrant(2)])


def test_it_rejects_duplicate_ids() -> None:
    with pytest.raises(PairingError, match="duplicate"):
        pair([entrant(1), entrant(2), entrant(3), entrant(3)])


def test_a_thousand_player_field_is_paired_into_legal_pods() -> None:
    rng = random.Random(11)
    field = [entrant(i, points=rng.choice([0, 1, 3, 4, 6]), met=rng.sample(range(1000), 6)) for i in range(1000)]
    pairing = pair(field)
    check_pods(field, pairing, MT_SILVER, exhaustive=False)
    assert pairing.rematches == 0


# --- properties ----------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=fields(), table_size=table_sizes, seed=st.integers(0, 2**62))
def test_a_small_field_is_optimal_against_a_brute_force_search(
    field: list[Entrant], table_size: TableSize, seed: int
) -> None:
    if sum(not e.dropped for e in field) < table_size.min:
        return
    check_pods(field, pair(field, table_size=table_size, seed=seed), table_size, exhaustive=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=fields(min_active=11, max_active=40), table_size=table_sizes, seed=st.integers(0, 2**62))
def test_a_larger_field_keeps_every_rule_but_optimality(field: list[Entrant], table_size: TableSize, seed: int) -> None:
    check_pods(field, pair(field, table_size=table_size, seed=seed), table_size, exhaustive=False)


@settings(max_examples=40, deadline=None)
@given(field=fields(max_active=20), table_size=table_sizes, seed=st.integers(0, 2**62), round_number=st.integers(1, 6))
def test_the_same_inputs_and_seed_give_the_same_pairing(
    field: list[Entrant], table_size: TableSize, seed: int, round_number: int
) -> None:
    if sum(not e.dropped for e in field) < table_size.min:
        return
    shuffled = list(field)
    random.Random(seed).shuffle(shuffled)
    kwargs = {"table_size": table_size, "seed": seed, "round_number": round_number}
    assert pair(field, **kwargs) == pair(shuffled, **kwargs)  # type: ignore[arg-type]


def simulate(
    n: int, rounds: int, table_size: TableSize, seed: int, drop_rate: float
) -> Iterator[tuple[list[Entrant], Pairing]]:
    """Play an event with random placements, feeding the history back each round."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(n), 0)
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    byes = dict.fromkeys(range(n), 0)
    first_seats = dict.fromkeys(range(n), 0)
    dropped: set[int] = set()
    for number in range(1, rounds + 1):
        if n - len(dropped) < table_size.min:
            return
        rank = {i: 1 + sum(points[j] > points[i] for j in range(n)) for i in range(n)}
        field = [
            Entrant(
                id=i,
                points=points[i],
                rank=rank[i],
                opponents=frozenset(met[i]),
                byes=byes[i],
                first_seats=first_seats[i],
                dropped=i in dropped,
            )
            for i in range(n)
        ]
        pairing = pair(field, table_size=table_size, round_number=number, seed=rng.randrange(2**32))
        yield field, pairing
        for table in pairing.tables:
            first_seats[table.seats[0]] += 1
            for p in table.seats:
                met[p].update(q for q in table.seats if q != p)
            placing = list(table.seats)
            rng.shuffle(placing)
            for place, p in enumerate(placing):
                points[p] += (3, 1)[place] if place < 2 else 0
        for b in pairing.byes:
            byes[b] += 1
            points[b] += 3
        dropped |= {i for i in range(n) if rng.random() < drop_rate}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(3, 10),
    rounds=st.integers(4, 6),
    table_size=table_sizes,
    seed=st.integers(0, 2**32),
    drop_rate=st.sampled_from([0.0, 0.1]),
)
def test_a_simulated_small_event_never_has_an_avoidable_repeat(
    n: int, rounds: int, table_size: TableSize, seed: int, drop_rate: float
) -> None:
    for number, (field, pairing) in enumerate(simulate(n, rounds, table_size, seed, drop_rate), start=1):
        if number > 1:
            check_pods(field, pairing, table_size, exhaustive=True)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(11, 60), table_size=table_sizes, seed=st.integers(0, 2**32))
def test_a_simulated_larger_event_keeps_every_rule(n: int, table_size: TableSize, seed: int) -> None:
    for number, (field, pairing) in enumerate(simulate(n, 5, table_size, seed, 0.05), start=1):
        if number > 1:
            check_pods(field, pairing, table_size, exhaustive=False)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(65, 400), table_size=table_sizes, seed=st.integers(0, 2**32))
def test_a_simulated_event_above_the_small_field_keeps_every_rule_and_the_same_pairing_for_the_same_inputs(
    n: int, table_size: TableSize, seed: int
) -> None:
    for number, (field, pairing) in enumerate(simulate(n, 7, table_size, seed, 0.05), start=1):
        if number > 1:
            check_pods(field, pairing, table_size, exhaustive=False)
            assert pair(list(reversed(field)), table_size=table_size, round_number=number, seed=pairing.seed) == pairing


def test_a_large_field_avoids_a_meeting_only_one_side_remembers_and_ignores_a_player_listing_themselves() -> None:
    """200 players on equal points whose chunking repeats last round's pods, remembered by one side only."""
    n = 200
    field = [entrant(i, points=3, rank=1) for i in range(n)]
    pods = [range(start, start + 4) for start in range(0, n, 4)]
    one_sided = {a: {b for b in pod if b > a} for pod in pods for a in pod}
    field = [replace(e, opponents=frozenset(one_sided[e.id] | {e.id})) for e in field]
    for seed in range(3):
        pairing = pair(field, seed=seed)
        check_pods(field, pairing, MT_SILVER, exhaustive=False)
        assert pairing.rematches == 0
        assert all(pairing.reasons[e.id] == ("same_points",) for e in field)


def test_the_history_keeps_a_meeting_either_side_remembers_among_active_players_only() -> None:
    from tournaments.pairing.common import build_history, count_rematches

    active = [entrant(1, met=[2, 99]), entrant(2), entrant(3, met=[3, 1]), entrant(4, met=[1, 2, 3])]
    met = build_history(active)
    assert met == {1: {2, 3, 4}, 2: {1, 4}, 3: {1, 4}, 4: {1, 2, 3}}
    assert all(isinstance(s, frozenset) for s in met.values())
    assert count_rematches([(1, 2, 3), (4,)], met) == 2


def test_a_field_too_large_to_polish_whole_still_breaks_up_every_repeat() -> None:
    """3,000 players whose score-ordered chunking is exactly last round's pods: every pod is a repeat."""
    n = 3_000
    field = [entrant(i, points=3 * ((n - 1 - i) // 500), rank=i + 1) for i in range(n)]
    field = with_pods(field, [range(start, start + 4) for start in range(0, n, 4)])
    pairing = pair(field, seed=11)
    check_pods(field, pairing, MT_SILVER, exhaustive=False)
    assert pairing.rematches == 0
    points = {e.id: e.points for e in field}
    mixed = sum(len({points[p] for p in t.seats}) > 1 for t in pairing.tables)
    assert mixed <= len(pairing.tables) // 50, "repairs stay within point groups almost everywhere"
    assert pair(list(reversed(field)), seed=11) == pairing


# --- organiser's options: leftover byes, assigned byes, fixed tables; reasons and the objective ---


def no_smaller_than_preferred(table_size: TableSize) -> TableSize:
    return TableSize(table_size.preferred, table_size.max, table_size.preferred)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=fields(max_active=11), table_size=table_sizes, seed=st.integers(0, 2**62), round_number=st.integers(1, 3))
def test_leftover_byes_never_seat_a_table_below_preferred(
    field: list[Entrant], table_size: TableSize, seed: int, round_number: int
) -> None:
    n = sum(not e.dropped for e in field)
    kwargs = {"table_size": table_size, "seed": seed, "round_number": round_number, "leftovers": "byes"}
    if n < table_size.preferred:
        with pytest.raises(PairingError, match=f"at least {table_size.preferred}"):
            pair_round(field, **kwargs)  # type: ignore[arg-type]
        return
    pairing = pair_round(field, **kwargs)  # type: ignore[arg-type]
    assert all(table_size.preferred <= len(t.seats) <= table_size.max for t in pairing.tables)
    seated = sum(len(t.seats) for t in pairing.tables)
    assert len(pairing.byes) == n - seated
    if round_number > 1:
        # Everything else as with tables of preferred..max: the sizes, the bye rule, optimality.
        check_pods(field, pairing, no_smaller_than_preferred(table_size), exhaustive=True)
    else:
        sizes, byes = pod_sizes(n, no_smaller_than_preferred(table_size))
        assert [len(t.seats) for t in pairing.tables] == sizes and len(pairing.byes) == byes
        check_pod_reasons(field, pairing, round_number=1, assigned=set())


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    field=fields(max_active=12),
    table_size=table_sizes,
    leftovers=st.sampled_from(["tables", "byes"]),
    seed=st.integers(0, 2**62),
    round_number=st.integers(1, 3),
)
def test_assigned_byes_and_fixed_tables_are_honoured_in_pods_and_the_rest_is_paired_as_before(
    data: st.DataObject, field: list[Entrant], table_size: TableSize, leftovers: str, seed: int, round_number: int
) -> None:
    table_min = table_size.preferred if leftovers == "byes" else table_size.min
    assigned, fixed = data.draw(options(field, table_min))
    active = [e for e in field if not e.dropped]
    if len(active) < table_min and len(assigned) < len(active):
        return
    kwargs = {"table_size": table_size, "round_number": round_number, "seed": seed, "leftovers": leftovers}
    pairing = pair_round(field, **kwargs, assigned_byes=assigned, fixed_tables=fixed)  # type: ignore[arg-type]
    unfixed = pair_round(field, **kwargs, assigned_byes=assigned)  # type: ignore[arg-type]
    check_table_numbers(pairing, unfixed, fixed)
    check_pod_reasons(field, pairing, round_number=round_number, assigned=assigned)

    seated = [p for t in pairing.tables for p in t.seats]
    assert sorted(seated + list(pairing.byes)) == sorted(e.id for e in active), "every active entrant exactly once"
    assert assigned <= set(pairing.byes) and not assigned & set(seated), "assigned byes honoured, never seated"
    assert pairing.objective == pod_objective(pairing, field)
    if len(active) > len(assigned):
        rest = [e for e in field if e.id not in assigned]
        alone = pair_round(rest, **kwargs)  # type: ignore[arg-type]
        assert alone.tables == unfixed.tables and set(alone.byes) == set(pairing.byes) - assigned
        assert alone.objective == pairing.objective and alone.rematches == pairing.rematches
    else:
        assert pairing.tables == () and pairing.objective == 0


def test_leftover_byes_sit_players_out_rather_than_seat_a_small_table() -> None:
    field = [entrant(i, points=20 - i, rank=i) for i in range(1, 12)]
    assert [len(t.seats) for t in pair(field).tables] == [4, 4, 3]
    pairing = pair_round(field, table_size=MT_SILVER, round_number=2, seed=1, leftovers="byes")
    assert [len(t.seats) for t in pairing.tables] == [4, 4]
    assert pairing.byes == (9, 10, 11)
    assert all(pairing.reasons[p] == ("bye",) for p in pairing.byes)
    first = pair_round(field, table_size=MT_SILVER, round_number=1, seed=1, leftovers="byes")
    assert [len(t.seats) for t in first.tables] == [4, 4] and len(first.byes) == 3
    assert all(first.reasons[p] == ("bye",) for p in first.byes)
    # Fewest byes still comes first: a table above preferred (up to max) beats sitting more players out.
    trinity = pair_round(field, table_size=TRINITY, round_number=2, seed=1, leftovers="byes")
    assert [len(t.seats) for t in trinity.tables] == [5, 5] and trinity.byes == (11,)


def test_leftover_byes_need_a_full_table() -> None:
    with pytest.raises(PairingError, match="at least 4"):
        pair_round([entrant(i) for i in range(3)], table_size=MT_SILVER, round_number=2, seed=1, leftovers="byes")


def test_a_pod_of_two_has_mixed_points_not_a_pair_down() -> None:
    field = [entrant(i, points=p) for i, p in [(1, 6), (2, 6), (3, 6), (4, 3), (5, 0)]]
    pairing = pair(field, table_size=MASTER_TRAINER)
    assert [len(t.seats) for t in pairing.tables] == [3, 2]
    assert {p: pairing.reasons[p] for p in pairing.tables[0].seats} == dict.fromkeys((1, 2, 3), ("same_points",))
    assert {p: pairing.reasons[p] for p in pairing.tables[1].seats} == dict.fromkeys((4, 5), ("mixed_points",))


def test_the_objective_weighs_any_repeat_above_all_spread() -> None:
    # Eight players, two groups of four by points; the top four have all met, so each pod of four holds
    # at least two repeats.  The objective is repeats * (bound + 1) + spread with bound = 12 * 9 ** 2.
    top = [entrant(i, points=9) for i in range(1, 5)]
    bottom = [entrant(i, points=0) for i in range(5, 9)]
    field = with_pods(top + bottom, [[1, 2, 3, 4]])
    pairing = pair(field)
    assert pairing.rematches == 2
    assert pairing.objective == 2 * (12 * 81 + 1) + 8 * 81
    assert pairing.objective == pod_objective(pairing, field)


# --- the parts the engine's speed rests on ---


def test_the_tie_break_draws_are_those_of_random_one_call_at_a_time() -> None:
    # One getrandbits for the field instead of a call per player: the same numbers, and the generator left where
    # the calls would leave it (the seats are drawn from it next).
    from tournaments.pairing.common import randoms

    for seed in range(20):
        for n in (0, 1, 63, 64, 65, 1_000, 10_001):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert randoms(ours, n) == [theirs.random() for _ in range(n)]
            assert ours.getstate() == theirs.getstate()


def test_a_large_field_reads_a_history_given_as_any_collection() -> None:
    """Above the small field the pods are checked with frozenset operations; a set or a list works the same."""
    n = 200
    field = [entrant(i, points=3 * (i // 50), rank=n - i) for i in range(n)]
    field = with_pods(field, [range(start, start + 4) for start in range(0, n, 4)])
    pairing = pair(field, seed=3)
    assert pairing.rematches == 0
    for kind in (set, list, tuple):
        given = [replace(e, opponents=kind(sorted(e.opponents))) for e in field]  # type: ignore[arg-type]
        assert pair(given, seed=3) == pairing


def test_seat_one_goes_the_same_way_whatever_the_first_seats_counts_are():
    """Seat 1 is the least (first seats, draw) of a pod: one integer key for the counts of a real event, a sort of
    the two for counts beyond it; both agree, since only the order of the counts matters."""
    import numpy as np

    from tournaments.pairing.common import seat_runs

    rng = random.Random(5)
    ids = list(range(1_000, 1_043))
    firsts = [rng.choice((0, 1, 2, 2, 3)) for _ in ids]
    seating, sizes = np.array(rng.sample(range(43), 43)), [4] * 10 + [3]
    low = seat_runs(seating, sizes, ids, firsts, random.Random(9))
    high = seat_runs(seating, sizes, ids, [f + 10**6 for f in firsts], random.Random(9))
    assert low == high
    assert all(firsts[p - 1_000] == min(firsts[q - 1_000] for q in pod) for pod in low for p in pod[:1])


def test_tables_made_in_bulk_are_the_records_the_constructor_makes():
    from dataclasses import fields
    from itertools import count

    from tournaments.pairing.types import Table, make_tables

    seats = [(3, 1, 2, 4), (7, 5, 6), (8, 9)]
    made = make_tables(count(1), seats)
    assert made == [Table(n, s) for n, s in zip(count(1), seats, strict=False)]
    assert [hash(t) for t in made] == [hash(Table(n, s)) for n, s in zip(count(1), seats, strict=False)]
    assert [f.name for f in fields(Table)] == ["number", "seats"], "make_tables sets every field"


def test_seating_runs_refuses_pods_not_largest_first():
    """Pods of one size are seated as one stretch: sizes out of order would seat some pods twice and others never."""
    import numpy as np

    from tournaments.pairing.common import seat_runs

    ids, firsts = list(range(11)), [0] * 11
    seated = seat_runs(np.arange(11), [4, 4, 3], ids, firsts, random.Random(1))
    assert sorted(p for pod in seated for p in pod) == ids and [len(pod) for pod in seated] == [4, 4, 3]
    with pytest.raises(ValueError, match="largest first"):
        seat_runs(np.arange(11), [4, 3, 4], ids, firsts, random.Random(1))


# --- every pairing as recorded: a change to the engine's speed must not move a seat ---


def play_pods(
    n: int,
    table_size: TableSize,
    rounds: int,
    seed: int,
    *,
    drops: float = 0.0,
    late: int = 0,
    first_id: int = 0,
    huge: bool = False,
    leftovers: str = "tables",
    organiser: bool = False,
    seeding: str = "random",
    clustered: bool = False,
    history: type = frozenset,
    restarts: bool = False,
    forget: float = 0.0,
) -> Iterator[Pairing]:
    """A seeded pod event, round by round: random placements (or, ``clustered``, a drawn pod and standings that
    put last round's pods back together), drops, late entries, the organiser's byes and fixed tables; ids from
    ``first_id`` in steps of 7 and, ``huge``, points, ranks and first seats beyond 64 bits; ``restarts``, every
    fourth round seated as a round 1 (at random, with the history so far); ``forget``, the share of meetings each
    side forgets (then the other side's memory alone counts)."""
    rng = random.Random(f"pods-{n}-{seed}")
    big = 2**64 if huge else 0
    ids = [first_id + 7 * i for i in range(n)]
    points, byes, firsts = dict.fromkeys(ids, 0), dict.fromkeys(ids, 0), dict.fromkeys(ids, 0)
    met: dict[int, set[int]] = {i: set() for i in ids}
    dropped: set[int] = set()
    last_table: dict[int, tuple[int, int]] = {}
    for number in range(1, rounds + 1):
        if number == 3 and late:
            for i in range(first_id + 7 * n, first_id + 7 * (n + late), 7):
                ids.append(i)
                points[i] = byes[i] = firsts[i] = 0
                met[i] = set()
        if clustered:
            order = sorted(ids, key=lambda i: (-points[i], last_table.get(i, (0, 0)), i))
        else:
            order = sorted(ids, key=lambda i: (-points[i], rng.random()))
        rank = {i: place for place, i in enumerate(order, start=1)}
        remembered = {i: {o for o in sorted(met[i]) if rng.random() >= forget} for i in ids} if forget else met
        if number % 3 == 0:  # ranks shared by points, a few unknown
            above: dict[int, int] = {}
            for place, i in enumerate(order, start=1):
                above.setdefault(points[i], place)
            rank = {i: 0 if rng.random() < 0.05 else above[points[i]] for i in ids}
        field = [
            Entrant(
                id=i,
                points=points[i] + big,
                rank=rank[i] + big if rank[i] else 0,
                opponents=history(sorted(remembered[i])) if history is not frozenset else frozenset(remembered[i]),
                byes=byes[i],
                first_seats=firsts[i] + big,
                dropped=i in dropped,
            )
            for i in ids
        ]
        if number % 2 == 0:
            rng.shuffle(field)
        active = sorted(i for i in ids if i not in dropped)
        assigned: list[int] = []
        fixed: dict[int, int] = {}
        if organiser and number > 1:
            assigned = rng.sample(active, max(1, len(active) // 100))
            fixed = {i: 3 + 2 * k for k, i in enumerate(rng.sample(ids, max(1, len(ids) // 100)))}
            if len(active) - len(assigned) < table_size.preferred:
                assigned = []
        pairing = pair_round(
            field,
            table_size=table_size,
            round_number=1 if restarts and number % 4 == 0 else number,
            seed=rng.randrange(2**63),
            leftovers=leftovers,
            assigned_byes=assigned,
            fixed_tables=fixed,
            seeding=seeding,
        )
        yield pairing
        for k, table in enumerate(pairing.tables):
            firsts[table.seats[0]] += 1
            for s, p in enumerate(table.seats):
                met[p].update(q for q in table.seats if q != p)
                last_table[p] = (k, s)
            if clustered and rng.random() < 0.6:
                for p in table.seats:
                    points[p] += 1
            else:
                points[rng.choice(table.seats)] += 3
        for b in pairing.byes:
            byes[b] += 1
            points[b] += 3
        dropped |= {i for i in active if rng.random() < drops}
        if len(active) - len(dropped & set(active)) < table_size.preferred + 1:
            dropped = set()


#: The recorded events: a label, the arguments of :func:`play_pods`, and the digest of every pairing it made, as the
#: engine made them on 2026-11-28 before its speed work for the greedy target: every size from 5 to 10,001 players,
#: the exhaustive search, the local search of small fields, the repairs of large ones up to the whole field, byes,
#: options, drops, ids and numbers beyond 64 bits.  Work on the engine's speed must leave every digest as it is; a
#: change meant to move seats records the digests again and says so.
RECORDED_EVENTS: list[tuple[str, dict[str, object], str]] = [
    ("5 players", {"n": 5, "table_size": MT_SILVER, "rounds": 5, "seed": 1}, "4438efff3f8005fc"),
    ("6 players, 2-4", {"n": 6, "table_size": MASTER_TRAINER, "rounds": 6, "seed": 2}, "286d9ee79cd17f34"),
    ("7 players, byes", {"n": 7, "table_size": MT_SILVER, "rounds": 6, "seed": 3, "leftovers": "byes"}, "c068f4b0fca85e72"),
    ("9 players, 3-5", {"n": 9, "table_size": TRINITY, "rounds": 6, "seed": 4, "drops": 0.05}, "ef8ba662b9f87825"),
    ("12 players, clustered", {"n": 12, "table_size": MT_SILVER, "rounds": 7, "seed": 5, "clustered": True}, "8b7ef83fecc172bb"),
    ("13 players, options", {"n": 13, "table_size": MT_SILVER, "rounds": 6, "seed": 6, "organiser": True}, "3cfd9f68642802dd"),
    ("17 players, rating", {"n": 17, "table_size": MASTER_TRAINER, "rounds": 6, "seed": 7, "seeding": "rating"}, "d9b47f787bb68f6c"),
    ("40 players, huge", {"n": 40, "table_size": TRINITY, "rounds": 6, "seed": 8, "huge": True, "late": 3}, "4bcf543cfaab55c8"),
    ("64 players, clustered", {"n": 64, "table_size": MT_SILVER, "rounds": 8, "seed": 9, "clustered": True}, "f5c72a46a868165c"),
    ("65 players, drops", {"n": 65, "table_size": MT_SILVER, "rounds": 8, "seed": 10, "drops": 0.03}, "f87def445b634b53"),
    ("66 players, byes, options", {"n": 66, "table_size": TRINITY, "rounds": 7, "seed": 11, "leftovers": "byes",
                                   "organiser": True}, "b4d948f8a913bdf6"),
    ("129 players, large ids", {"n": 129, "table_size": MASTER_TRAINER, "rounds": 7, "seed": 12,
                                "first_id": 2**63 - 500}, "eb6cd6478988d4bb"),
    ("257 players, clustered, sets", {"n": 257, "table_size": MT_SILVER, "rounds": 8, "seed": 13, "clustered": True,
                                      "history": set}, "be8d7612a01b6b36"),
    ("400 players, huge, byes", {"n": 400, "table_size": MT_SILVER, "rounds": 6, "seed": 14, "huge": True,
                                 "leftovers": "byes", "late": 9}, "8655be378a373165"),
    ("1,001 players, drops, late", {"n": 1_001, "table_size": MT_SILVER, "rounds": 8, "seed": 15, "drops": 0.02,
                                    "late": 20}, "fdfadfd5bda49bd6"),
    ("2,001 players, clustered, lists", {"n": 2_001, "table_size": MT_SILVER, "rounds": 8, "seed": 16,
                                         "clustered": True, "history": list}, "5aa2a1e628cb16b1"),
    ("2,500 players, 3-5, options", {"n": 2_500, "table_size": TRINITY, "rounds": 7, "seed": 17,
                                     "organiser": True, "drops": 0.01}, "ba1dd32d883797f0"),
    ("70 players, clustered, 15 rounds", {"n": 70, "table_size": MT_SILVER, "rounds": 15, "seed": 21,
                                          "clustered": True}, "49c901f93bdbebf4"),
    ("100 players, 3 rounds", {"n": 100, "table_size": MT_SILVER, "rounds": 3, "seed": 22}, "39022177227662e4"),
    ("300 players, restarts", {"n": 300, "table_size": MASTER_TRAINER, "rounds": 9, "seed": 23, "restarts": True,
                               "organiser": True}, "433b0dff05d77dc2"),
    ("200 players, forgetful", {"n": 200, "table_size": TRINITY, "rounds": 7, "seed": 24, "forget": 0.3}, "b13787757b5dc747"),
    ("150 players, forgetting everything", {"n": 150, "table_size": MT_SILVER, "rounds": 4, "seed": 25,
                                            "forget": 1.0}, "2c865edfbaf64875"),
    ("10,000 players", {"n": 10_000, "table_size": MT_SILVER, "rounds": 8, "seed": 18}, "fda5e4a01dbbcdda"),
    ("10,001 players, byes, options, drops, large ids", {"n": 10_001, "table_size": MT_SILVER, "rounds": 6,
                                                         "seed": 19, "leftovers": "byes", "organiser": True,
                                                         "drops": 0.01, "first_id": 10**12}, "35b781f073d9ada5"),
    ("10,001 players, clustered, 2-4", {"n": 10_001, "table_size": MASTER_TRAINER, "rounds": 6, "seed": 20,
                                        "clustered": True, "late": 50}, "f8e9ce85648253d1"),
]  # fmt: skip


def pairing_digest(pairings: Iterator[Pairing]) -> str:
    """Everything a pairing says (tables with their numbers and seat order, byes, rematches, seed, objective, the
    reasons in their order), round after round."""
    every_seat = hashlib.sha256()
    for p in pairings:
        tables = [(t.number, t.seats) for t in p.tables]
        every_seat.update(repr((tables, p.byes, p.rematches, p.seed, p.objective, list(p.reasons.items()))).encode())
    return every_seat.hexdigest()[:16]


@pytest.mark.parametrize(("label", "kwargs", "digest"), RECORDED_EVENTS, ids=[e[0] for e in RECORDED_EVENTS])
def test_the_pod_engine_pairs_the_recorded_events_as_it_always_did(label: str, kwargs: dict, digest: str) -> None:
    assert pairing_digest(play_pods(**kwargs)) == digest
