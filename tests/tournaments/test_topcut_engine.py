"""The top cut: recommended structures against their tables, the bracket, and cut rounds played through to the final.

Sources of the 1v1 tables (the module docstring of :mod:`tournaments.pairing.topcut` says the same):

* Pokémon: Play! Pokémon Tournament Rules Handbook, structure "TCG Single Day" (TRH 5.5.6.1).  The
  handbook itself could not be read; the rows are those of two secondary sources that quote it and
  agree: a research note in the public repository Kaappoo/tcgRank
  (docs/research/play-pokemon-elimination-rules.md, citing the revision of September 1, 2026) and the
  cut rules of another organiser tool (citing the revision of May 21, 2026).
* Magic: Magic Tournament Rules, Appendix E, "Recommended Number of Rounds in Swiss Tournaments", as
  published by the Magic judges (blogs.magicjudges.org/rules/mtr-appendix-e/).
* Pods: no published table; Podium's own rule, stated in ``recommended_structure``'s docstring.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import PairingError, topcut
from tournaments.pairing.topcut import (
    Structure,
    bracket_order,
    cut_byes,
    cut_sizes,
    first_cut_round,
    is_final,
    next_cut_round,
    recommended_structure,
)

POWERS_OF_TWO = (2, 4, 8, 16, 32, 64)


def seeds_of(seeded: Sequence[int]) -> dict[int, int]:
    return {player: seed for seed, player in enumerate(seeded, start=1)}


def better_seed_wins(tables: Sequence[Sequence[int]], seed_of: dict[int, int]) -> list[int]:
    return [min(table, key=seed_of.__getitem__) for table in tables]


# --- recommended structures: the tables, row by row -------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "cut"),
    [
        # Play! Pokémon TRH, TCG Single Day: one pair per row boundary (first and last attendance of the row).
        (4, 3, 0),  # 4-8: 3 rounds, no top cut
        (8, 3, 0),
        (9, 4, 4),  # 9-12: 4 rounds, 2 elimination rounds = top 4
        (12, 4, 4),
        (13, 5, 4),  # 13-20: 5 rounds, top 4
        (20, 5, 4),
        (21, 5, 8),  # 21-32: 5 rounds, 3 elimination rounds = top 8
        (32, 5, 8),
        (33, 6, 8),  # 33-64: 6 rounds, top 8
        (64, 6, 8),
        (65, 7, 8),  # 65-128: 7 rounds, top 8
        (128, 7, 8),
        (129, 8, 8),  # 129-226: 8 rounds, top 8
        (226, 8, 8),
        (227, 9, 8),  # 227-409: 9 rounds, top 8
        (409, 9, 8),
        (410, 10, 8),  # 410+: 10 rounds, top 8
        (5000, 10, 8),
    ],
)
def test_it_follows_the_pokemon_single_day_table(players: int, rounds: int, cut: int) -> None:
    structure = recommended_structure(players, convention="pokemon")
    assert (structure.swiss_rounds, structure.top_cut) == (rounds, cut)
    assert "Play! Pokémon Tournament Rules Handbook" in structure.source


@pytest.mark.parametrize(
    ("players", "rounds", "cut"),
    [
        # MTR Appendix E.  5-8: the appendix says 3 single-elimination rounds and no Swiss; Podium plays
        # 3 Swiss rounds and no cut instead (documented deviation).
        (5, 3, 0),
        (8, 3, 0),
        (9, 5, 4),  # 9-16: 5 rounds, top 4 ("all other formats"; booster-draft playoffs would be 4 rounds, top 8)
        (16, 5, 4),
        (17, 5, 8),  # 17-32: 5 rounds, top 8
        (32, 5, 8),
        (33, 6, 8),  # 33-64: 6 rounds, top 8
        (64, 6, 8),
        (65, 7, 8),  # 65-128: 7 rounds, top 8
        (128, 7, 8),
        (129, 8, 8),  # 129-226: 8 rounds, top 8
        (226, 8, 8),
        (227, 9, 8),  # 227-409: 9 rounds, top 8
        (409, 9, 8),
        (410, 10, 8),  # 410+: 10 rounds, top 8
        (5000, 10, 8),
    ],
)
def test_it_follows_the_magic_appendix_e_table(players: int, rounds: int, cut: int) -> None:
    structure = recommended_structure(players, convention="magic")
    assert (structure.swiss_rounds, structure.top_cut) == (rounds, cut)
    assert structure.source == "Magic Tournament Rules, Appendix E"


def test_classic_is_the_magic_table() -> None:
    for players in range(2, 500):
        classic = recommended_structure(players, convention="classic")
        assert classic == recommended_structure(players, convention="magic")


@pytest.mark.parametrize(
    ("convention", "players", "rounds"),
    [
        # Below each table (Pokémon starts at 4, Magic at 5; MTR's 4-player row is for teams only):
        # Podium's own rule, ceil(log2(players)) rounds and no cut.
        ("pokemon", 2, 1),
        ("pokemon", 3, 2),
        ("magic", 2, 1),
        ("magic", 3, 2),
        ("magic", 4, 2),
    ],
)
def test_below_the_tables_it_plays_log2_rounds_without_a_cut(convention: str, players: int, rounds: int) -> None:
    structure = recommended_structure(players, convention=convention)
    assert (structure.swiss_rounds, structure.top_cut) == (rounds, 0)
    assert structure.source.startswith("Podium")


@pytest.mark.parametrize(
    ("pod_size", "players", "rounds", "cut"),
    [
        # Podium's pod rule: ceil(log_P(players)) + 1 rounds; top P from 2P players; top P**2 from 4 * P**2.
        (4, 4, 2, 0),
        (4, 7, 3, 0),
        (4, 8, 3, 4),
        (4, 16, 3, 4),
        (4, 17, 4, 4),
        (4, 63, 4, 4),
        (4, 64, 4, 16),
        (4, 65, 5, 16),
        (3, 3, 2, 0),
        (3, 5, 3, 0),
        (3, 6, 3, 3),
        (3, 35, 5, 3),
        (3, 36, 5, 9),
        (5, 5, 2, 0),
        (5, 9, 3, 0),
        (5, 10, 3, 5),
        (5, 99, 4, 5),
        (5, 100, 4, 25),
    ],
)
def test_pods_follow_podiums_own_rule(pod_size: int, players: int, rounds: int, cut: int) -> None:
    structure = recommended_structure(players, convention="magic", pod_size=pod_size)
    assert structure == Structure(swiss_rounds=rounds, top_cut=cut, source=structure.source)
    assert structure.source.startswith("Podium's rule for pods")
    assert recommended_structure(players, convention="pokemon", pod_size=pod_size).top_cut == cut


@settings(max_examples=100, deadline=None)
@given(
    convention=st.sampled_from(["pokemon", "magic", "classic"]),
    pod_size=st.sampled_from([None, 3, 4, 5]),
    players=st.integers(5, 3000),
)
def test_a_larger_field_never_gets_fewer_rounds_or_a_smaller_cut(
    convention: str, pod_size: int | None, players: int
) -> None:
    smaller = recommended_structure(players, convention=convention, pod_size=pod_size)
    larger = recommended_structure(players + 1, convention=convention, pod_size=pod_size)
    assert larger.swiss_rounds >= smaller.swiss_rounds
    assert larger.top_cut >= smaller.top_cut
    # The recommended cut is one an organiser could choose, and leaves some of the field out.
    assert smaller.top_cut == 0 or smaller.top_cut in cut_sizes(players=players, pod_size=pod_size)
    assert smaller.top_cut < players


@pytest.mark.parametrize(
    ("players", "kwargs"),
    [
        (1, {"convention": "pokemon"}),
        (0, {"convention": "magic"}),
        (-3, {"convention": "magic"}),
        (True, {"convention": "magic"}),
        (8.0, {"convention": "magic"}),
        ("8", {"convention": "magic"}),
        (8, {"convention": "chess"}),
        (8, {"convention": "Pokemon"}),
        (3, {"convention": "magic", "pod_size": 4}),
        (8, {"convention": "magic", "pod_size": 2}),
        (8, {"convention": "magic", "pod_size": 6}),
        (8, {"convention": "magic", "pod_size": True}),
        (8, {"convention": "chess", "pod_size": 4}),
    ],
)
def test_it_rejects_a_structure_it_cannot_recommend(players: object, kwargs: dict[str, object]) -> None:
    with pytest.raises(PairingError):
        recommended_structure(players, **kwargs)  # type: ignore[arg-type]


# --- cut sizes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "pod_size", "sizes"),
    [
        (0, None, ()),
        (1, None, ()),
        (2, None, (2,)),
        (9, None, (2, 4, 6, 8)),
        (31, None, (2, 4, 6, 8, 12, 16, 24)),
        (32, None, (2, 4, 6, 8, 12, 16, 24, 32)),
        (1000, None, (2, 4, 6, 8, 12, 16, 24, 32)),
        (3, 4, ()),
        (4, 4, (4,)),
        (15, 4, (4, 7, 10, 13)),
        (16, 4, (4, 7, 10, 13, 16)),
        (9, 3, (3, 5, 7, 9)),
        (24, 5, (5, 9, 13, 17, 21)),
        (25, 5, (5, 9, 13, 17, 21, 25)),
    ],
)
def test_it_offers_the_cut_sizes_the_attendance_can_fill(
    players: int, pod_size: int | None, sizes: tuple[int, ...]
) -> None:
    assert cut_sizes(players=players, pod_size=pod_size) == sizes


@pytest.mark.parametrize(("players", "pod_size"), [(-1, None), (True, None), (8, 2), (8, 6), (8, "4")])
def test_it_rejects_bad_arguments_for_cut_sizes(players: object, pod_size: object) -> None:
    with pytest.raises(PairingError):
        cut_sizes(players=players, pod_size=pod_size)  # type: ignore[arg-type]


# --- the bracket -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (2, (1, 2)),
        (4, (1, 4, 2, 3)),
        (8, (1, 8, 4, 5, 2, 7, 3, 6)),
        (16, (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)),
    ],
)
def test_it_lays_out_the_standard_bracket(size: int, order: tuple[int, ...]) -> None:
    assert bracket_order(size) == order


@pytest.mark.parametrize("size", POWERS_OF_TWO)
def test_the_bracket_seats_every_seed_once_against_its_mirror(size: int) -> None:
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


@pytest.mark.parametrize("size", POWERS_OF_TWO)
def test_when_the_better_seed_always_wins_the_top_seeds_meet_only_at_the_end(size: int) -> None:
    seeded = list(range(1, size + 1))  # player id = seed
    seed_of = seeds_of(seeded)
    tables = first_cut_round(seeded)
    rounds = [tables]
    while not is_final(tables):
        # Each round leaves exactly the best seeds standing.
        survivors = better_seed_wins(tables, seed_of)
        assert sorted(survivors) == list(range(1, len(survivors) + 1))
        tables = next_cut_round(tables, survivors, seed_of)
        rounds.append(tables)
    assert tables == ((1, 2),)
    if size >= 4:
        assert rounds[-2] == ((1, 4), (2, 3))
    if size >= 8:
        assert rounds[-3] == ((1, 8), (4, 5), (2, 7), (3, 6))


@pytest.mark.parametrize("size", [0, 1, 3, 6, 12, 48, -4, True, 8.0, "8"])
def test_a_bracket_needs_a_power_of_two_of_at_least_two(size: object) -> None:
    with pytest.raises(PairingError):
        bracket_order(size)  # type: ignore[arg-type]


# --- the first cut round ---------------------------------------------------------------------------


def test_a_top_8_plays_1v8_4v5_2v7_3v6_with_the_better_seed_in_seat_one() -> None:
    seeded = [108, 107, 106, 105, 104, 103, 102, 101]  # ids unrelated to seeds: seed 1 is player 108
    assert first_cut_round(seeded) == ((108, 101), (105, 104), (107, 102), (106, 103))


def test_a_top_16_follows_the_bracket_order() -> None:
    seeded = [100 + seed for seed in range(1, 17)]
    tables = first_cut_round(seeded)
    assert [(a - 100, b - 100) for a, b in tables] == [
        (1, 16),
        (8, 9),
        (4, 13),
        (5, 12),
        (2, 15),
        (7, 10),
        (3, 14),
        (6, 11),
    ]


def test_a_top_2_is_the_final() -> None:
    assert first_cut_round([7, 3]) == ((7, 3),)
    assert is_final(first_cut_round([7, 3]))


def test_a_pod_cut_of_one_pod_is_the_final_seated_by_seed() -> None:
    assert first_cut_round([40, 10, 30, 20], pod_size=4) == ((40, 10, 30, 20),)


def test_sixteen_players_in_pods_of_four_are_snaked_into_four_semi_final_pods() -> None:
    tables = first_cut_round(list(range(1, 17)), pod_size=4)
    assert tables == ((1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13))


def test_nine_players_in_pods_of_three_are_snaked_into_three_semi_final_pods() -> None:
    tables = first_cut_round([900 + seed for seed in range(1, 10)], pod_size=3)
    assert tables == ((901, 906, 907), (902, 905, 908), (903, 904, 909))


@pytest.mark.parametrize("pod_size", [3, 4, 5])
def test_semi_final_pods_split_the_top_seeds_and_take_one_player_per_band(pod_size: int) -> None:
    seeded = list(range(1, pod_size**2 + 1))
    pods = first_cut_round(seeded, pod_size=pod_size)
    assert len(pods) == pod_size
    assert sorted(p for pod in pods for p in pod) == seeded
    for pod in pods:
        assert list(pod) == sorted(pod)  # seats by seed
        assert [(seed - 1) // pod_size for seed in pod] == list(range(pod_size))  # one per band of seeds
    assert [pod[0] for pod in pods] == list(range(1, pod_size + 1))


@pytest.mark.parametrize(
    ("seeded", "pod_size"),
    [
        ([], None),
        ([1], None),
        ([1, 2, 3], 4),
        (list(range(8)), 4),
        (list(range(9)), 4),
        (list(range(16)), 3),
        ([1, 2, 2, 3], None),
        ([1, 2, "3", 4], None),
        ([1, 2, True, 4], None),
        ("1234", None),
        (list(range(4)), 2),
        (list(range(36)), 6),
    ],
)
def test_it_rejects_a_cut_of_the_wrong_size_or_with_bad_ids(seeded: object, pod_size: int | None) -> None:
    with pytest.raises(PairingError):
        first_cut_round(seeded, pod_size=pod_size)  # type: ignore[arg-type]


# --- later cut rounds ------------------------------------------------------------------------------


def test_a_top_8_with_upsets_keeps_the_bracket_in_order_to_the_final() -> None:
    seeded = [11, 12, 13, 14, 15, 16, 17, 18]  # player 1X is seed X
    seed_of = seeds_of(seeded)
    quarters = first_cut_round(seeded)
    assert quarters == ((11, 18), (14, 15), (12, 17), (13, 16))
    # Seed 5 beats seed 4, seed 7 beats seed 2.
    semis = next_cut_round(quarters, [11, 15, 17, 13], seed_of)
    assert semis == ((11, 15), (13, 17))  # winners of tables 1 and 2 at table 1; seat 1 to the better seed
    assert not is_final(semis)
    final = next_cut_round(semis, {1: 15, 2: 17}, seed_of)  # a mapping keyed by table number works too
    assert final == ((15, 17),)
    assert is_final(final)
    with pytest.raises(PairingError, match="the final has been played"):
        next_cut_round(final, [17], seed_of)


def test_the_semi_final_pod_winners_form_the_final_pod_seated_by_seed() -> None:
    seeded = list(range(101, 117))
    seed_of = seeds_of(seeded)
    pods = first_cut_round(seeded, pod_size=4)
    winners = [116, 107, 103, 105]  # seeds 16, 7, 3 and 5 win their pods
    final = next_cut_round(pods, winners, seed_of, pod_size=4)
    assert final == ((103, 105, 107, 116),)
    assert is_final(final)
    with pytest.raises(PairingError, match="the final has been played"):
        next_cut_round(final, [103], seed_of, pod_size=4)


@settings(max_examples=60, deadline=None)
@given(size=st.sampled_from(POWERS_OF_TWO), data=st.data())
def test_any_results_lead_through_the_bracket_to_one_final(size: int, data: st.DataObject) -> None:
    seeded = [1000 + i for i in range(size)]
    seed_of = seeds_of(seeded)
    position = {player: bracket_order(size).index(seed_of[player]) for player in seeded}
    tables = first_cut_round(seeded)
    block = 2
    for _ in range(size.bit_length() - 1):
        assert len(tables) == size // block
        for number, table in enumerate(tables):
            assert len(table) == 2 and seed_of[table[0]] < seed_of[table[1]]
            # The bracket stays in order: table t of this round holds players from block t of the bracket.
            assert {position[p] // block for p in table} == {number}
        if is_final(tables):
            break
        winners = [data.draw(st.sampled_from(table)) for table in tables]
        tables = next_cut_round(tables, winners, seed_of)
        block *= 2
    assert is_final(tables)
    assert block == size


@pytest.mark.parametrize(
    ("previous", "winners", "pod_size", "message"),
    [
        ([(1, 8), (4, 5)], [1, 8], None, "not seated there"),
        ([(1, 8), (4, 5)], [1], None, "one winner per table"),
        ([(1, 8), (4, 5)], [1, 4, 5], None, "one winner per table"),
        ([(1, 8), (4, 5)], {0: 1, 1: 4}, None, "table number"),
        ([(1, 8), (4, 5)], {1: 1}, None, "table number"),
        ([(1, 8), (4, 5)], [1, "4"], None, "integers"),
        ([(1, 8), (4, 5)], 1, None, "sequence or a mapping"),
        ([(1, 8), (4, 5), (2, 7)], [1, 4, 2], None, "even number of tables"),
        ([(1, 8, 3), (4, 5, 6)], [1, 4], None, "has 3 seats"),
        ([(1, 8), (1, 5)], [1, 5], None, "already seated"),
        ([(1, 8), (4, 4)], [1, 4], None, "appears twice"),
        ([(1, 8), (4, 5)], [1, 99], None, "not seated there"),
        ([], [], None, "not nothing"),
        ([(1, 8)], [1], None, "the final has been played"),
        ([(1, 2, 3, 4), (5, 6, 7, 8)], [1, 5], 4, "4 pods"),
        ([(1, 2, 3, 4)] * 1, [1], 4, "the final has been played"),
        ([(1, 2, 3), (4, 5, 6), (7, 8, 9)], [1, 4, 7], 2, "pod_size"),
    ],
)
def test_it_rejects_results_that_do_not_fit_the_previous_round(
    previous: list[tuple[int, ...]], winners: object, pod_size: int | None, message: str
) -> None:
    seed_of = {p: p for p in range(1, 10)}
    with pytest.raises(PairingError, match=message):
        next_cut_round(previous, winners, seed_of, pod_size=pod_size)  # type: ignore[arg-type]


def test_it_needs_a_distinct_seed_for_every_winner() -> None:
    tables = [(1, 8), (4, 5)]
    with pytest.raises(PairingError, match="no seed"):
        next_cut_round(tables, [1, 4], {1: 1, 8: 8})
    with pytest.raises(PairingError, match="share a seed"):
        next_cut_round(tables, [1, 4], {1: 1, 4: 1})
    with pytest.raises(PairingError, match="integers"):
        next_cut_round(tables, [1, 4], {1: 1, 4: "4"})  # type: ignore[dict-item]


def test_one_table_left_is_the_final() -> None:
    assert is_final([(1, 2)])
    assert is_final([(1, 2, 3, 4)])
    assert not is_final([(1, 4), (2, 3)])
    assert not is_final([])


def test_an_event_follows_its_tiebreakers_table_or_else_its_games() -> None:
    assert topcut.attendance_table(tiebreakers="magic", family="pokemon") == "magic"
    assert topcut.attendance_table(tiebreakers="pokemon", family="yugioh") == "pokemon"
    assert topcut.attendance_table(tiebreakers="classic", family="pokemon") == "pokemon"
    assert topcut.attendance_table(tiebreakers="classic", family="mintayn") == "magic"


# --- cut byes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "pod_size", "byes"),
    [(2, None, 0), (6, None, 2), (8, None, 0), (12, None, 4), (24, None, 8), (3, None, 1),
     (4, 4, 0), (7, 4, 3), (10, 4, 2), (13, 4, 1), (16, 4, 0), (5, 3, 2), (7, 3, 1)],
)  # fmt: skip
def test_the_top_seeds_get_the_byes_a_cut_of_its_size_needs(size: int, pod_size: int | None, byes: int) -> None:
    assert cut_byes(size, pod_size=pod_size) == byes
    tables = first_cut_round(list(range(1, size + 1)), pod_size=pod_size)
    alone = [t for t in tables if len(t) == 1] if size != pod_size else []
    assert sorted(t[0] for t in alone) == list(range(1, byes + 1))
    assert sorted(p for t in tables for p in t) == list(range(1, size + 1))


def test_a_top_six_gives_seeds_one_and_two_a_bye_where_the_bracket_of_eight_has_their_opponents() -> None:
    assert first_cut_round([11, 12, 13, 14, 15, 16]) == ((11,), (14, 15), (12,), (13, 16))
    # Seeds 1 and 2 won their byes; 4 beat 5 and 3 beat 6: the semi-finals are 1v4 and 2v3.
    semis = next_cut_round(((11,), (14, 15), (12,), (13, 16)), [11, 14, 12, 13], {11: 1, 12: 2, 13: 3, 14: 4})
    assert semis == ((11, 14), (12, 13))


def test_a_pod_top_ten_sends_seeds_one_and_two_to_the_final_and_snakes_the_rest_into_two_pods() -> None:
    tables = first_cut_round(list(range(1, 11)), pod_size=4)
    assert tables == ((1,), (2,), (3, 6, 7, 10), (4, 5, 8, 9))
    final = next_cut_round(tables, [1, 2, 7, 4], {p: p for p in range(1, 11)}, pod_size=4)
    assert final == ((1, 2, 4, 7),)


@pytest.mark.parametrize(("size", "pod_size"), [(8, 4), (11, 4), (17, 4), (1, None), (4, 3)])
def test_a_cut_size_the_bracket_cannot_take_is_refused(size: int, pod_size: int | None) -> None:
    with pytest.raises(PairingError):
        cut_byes(size, pod_size=pod_size)
