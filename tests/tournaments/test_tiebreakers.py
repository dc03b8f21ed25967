"""Tests for the tiebreaker conventions: rulebook examples, hand-worked events, then properties.

No database and no Django: run with ``pytest tests/tournaments/test_tiebreakers.py -p no:django``.

Sources
-------

* Magic: Magic Tournament Rules section 3.1 (https://blogs.magicjudges.org/rules/mtr3-1/: match
  points, OMW%, GW%, OGW%) and Appendix C, "Tiebreaker Explanation"
  (https://blogs.magicjudges.org/rules/mtr-appendix-c/).  The match points, game points and
  match-win percentage examples below are the Appendix's own, with its numbers.  The rest of the
  Appendix (game-win percentage, OMW%/OGW% and byes) could not be read in full from here, so
  the Magic events below are worked by hand from these definitions: GW% = game points / (3 x
  games played), not floored for the player themself; OGW% averages the opponents' GW%, each
  floored at 0.33; a bye is a match won 2-0; byes are ignored when averaging opponents.
* Pokémon: the Play! Pokémon Tournament Rules Handbook itself could not be retrieved here.  The
  convention follows these secondary sources, quoted where used:
  - RK9 (the Play! Pokémon registration provider), "All about tiebreakers in the Pokémon TCG",
    https://rk9.gg/article/20210525-all-about-tiebreakers-in-the-pokemon-tcg: order "Late
    Penalty, Opponent's Resistance, Opponent's Opponent's Resistance, Head-to-Head"; "A win is
    counted as 1, a tie is counted as 0.5, and a loss 0", divided by the rounds played; "An
    opponent cannot contribute less than 25%"; "Byes are not factored into any calculation".
  - A reading of the Play! Pokémon Tournament Operation Procedures (https://pastebin.com/Y8zhWz3V):
    "If an opponent dropped AND their win percentage is greater than 75%, make it 75%".
  - Pokémon's TOM 1.53 announcement (https://gonintendo.com/stories/333452): "Should players be
    tied, a head-to-head match is now the final tiebreaker".
  Check them against the current Handbook before relying on the Pokémon convention.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import ONE_VS_ONE, POD
from tests.support.standings import Event, by_player, bye, close, draw, events, table, win
from tournaments.standings import (
    CLASSIC,
    MAGIC,
    POKEMON,
    SeatResult,
    Standing,
    TableResult,
    TiebreakConfig,
    compute_standings,
    game_points,
    game_win_pcts,
    head_to_head,
    match_win_pcts,
    opponent_means,
)
from tournaments.standings.tiebreakers import GAME_WIN_PCT


def played(round_number: int, winner: int, loser: int, games: tuple[int, int, int]) -> TableResult:
    """A 1v1 match with its game score, ``games`` as (won, lost, drawn) for the winner."""
    won, lost, drawn = games
    return TableResult(
        round_number, (SeatResult(winner, 1, games=games), SeatResult(loser, 2, games=(lost, won, drawn)))
    )


def one_vs_one(ids: Sequence[int], results: list[TableResult], **options) -> list[Standing]:
    return compute_standings(ids, results, scoring=ONE_VS_ONE, multiplayer=False, **options)


# --- Magic: the Appendix C examples ---------------------------------------------


def test_match_points_follow_the_appendix_c_examples() -> None:
    # Appendix C: "6-2-0 ... 18 match points"; "4-2-2 ... 14 match points".
    six_two = [win(r, 1, 10 + r) for r in range(1, 7)] + [win(r, 10 + r, 1) for r in range(7, 9)]
    four_two_two = (
        [win(r, 2, 20 + r) for r in range(1, 5)]
        + [win(r, 20 + r, 2) for r in range(5, 7)]
        + [draw(r, 2, 20 + r) for r in range(7, 9)]
    )
    ids = [1, 2, *range(11, 19), *range(21, 29)]

    rows = by_player(one_vs_one(ids, six_two + four_two_two, convention="magic"))

    assert (rows[1].points, rows[1].wins, rows[1].losses, rows[1].draws) == (18, 6, 2, 0)
    assert (rows[2].points, rows[2].wins, rows[2].losses, rows[2].draws) == (14, 4, 2, 2)


@pytest.mark.parametrize(
    ("games", "winner_points", "loser_points"),
    [((2, 0, 0), 6, 0), ((2, 1, 0), 6, 3), ((2, 0, 1), 7, 1)],
)
def test_game_points_follow_the_appendix_c_examples(
    games: tuple[int, int, int], winner_points: int, loser_points: int
) -> None:
    # Appendix C: "wins a match 2-0-0 ... 6 game points and their opponent receives 0", 2-1-0: 6 and 3,
    # 2-0-1: 7 and 1.
    won, lost, drawn = games

    assert game_points(won, lost, drawn) == winner_points
    assert game_points(lost, won, drawn) == loser_points


def test_match_win_percentage_follows_the_appendix_c_examples() -> None:
    # Appendix C, an 8-round tournament:
    #   5-2-1                                     16 points, 8 rounds: 16/(8*3) = 0.667
    #   1-3-0, then withdraws                      3 points, 4 rounds: 3/(4*3) = 0.25, so 0.33 is used
    #   3-2-0, including a first-round bye, then  9 points, 5 rounds: 9/(5*3) = 0.60
    #   withdraws
    pcts = match_win_pcts(
        points=[16, 3, 9], wins=[5, 1, 3], draws=[1, 0, 0], matches=[8, 4, 5], byes=[0, 0, 1], bye_points=3,
        dropped=[False, True, True], config=MAGIC, win_points=3,
    )  # fmt: skip

    assert [round(p, 3) for p in pcts] == [0.667, 0.33, 0.6]


def test_a_magic_round_robin_is_decided_by_game_win_percentage_worked_by_hand() -> None:
    # Four players, three rounds, best of three:
    results = [
        played(1, 1, 2, (2, 1, 0)), played(1, 3, 4, (2, 0, 0)),
        played(2, 1, 3, (2, 0, 0)), played(2, 2, 4, (2, 0, 0)),
        played(3, 4, 1, (2, 1, 0)), played(3, 2, 3, (2, 0, 0)),
    ]  # fmt: skip
    # Points: 1 and 2: 6; 3 and 4: 3.  MWP = points / 9: 2/3, 2/3, 1/3, 1/3 (all above 0.33).
    # Everyone met the other three, so OMW is the mean of the other three's MWP:
    #   1 and 2: (2/3 + 1/3 + 1/3) / 3 = 4/9 = 0.444444;  3 and 4: (1/3 + 2/3 + 2/3) / 3 = 5/9 = 0.555556.
    # Games (won-lost) and GW% = 3 x won / (3 x games):
    #   1: 2-1, 2-0, 1-2 = 5-3 -> 15/24 = 0.625      2: 1-2, 2-0, 2-0 = 5-2 -> 15/21 = 0.714286
    #   3: 2-0, 0-2, 0-2 = 2-4 ->  6/18 = 0.333333   4: 0-2, 0-2, 2-1 = 2-5 ->  6/21 = 0.285714
    # 2 is ahead of 1 and 3 of 4 on GW%.  OGW% floors each opponent's GW% at 0.33 (4's 2/7 -> 0.33):
    #   1: (5/7 + 1/3 + 0.33) / 3 = 0.459206      2: (0.625 + 0.33 + 1/3) / 3 = 0.429444
    #   3: (0.33 + 0.625 + 5/7) / 3 = 0.556429    4: (1/3 + 5/7 + 0.625) / 3 = 0.557540
    magic = one_vs_one([1, 2, 3, 4], results, convention="magic")

    assert [(s.rank, s.player_id) for s in magic] == [(1, 2), (2, 1), (3, 3), (4, 4)]
    assert [(s.points, s.opp_match_win_pct, s.game_win_pct, s.opp_game_win_pct) for s in magic] == [
        (6, 0.444444, 0.714286, 0.429444),
        (6, 0.444444, 0.625, 0.459206),
        (3, 0.555556, 0.333333, 0.556429),
        (3, 0.555556, 0.285714, 0.55754),
    ]
    # The classic order has no game tiebreaker: 1 and 2 (and 3 and 4) share a rank, listed by id.
    classic = one_vs_one([1, 2, 3, 4], results)
    assert [(s.rank, s.player_id) for s in classic] == [(1, 1), (1, 2), (3, 3), (3, 4)]


@pytest.mark.parametrize("convention", ["classic", "pokemon", "magic"])
def test_every_one_vs_one_convention_publishes_the_game_win_figures_of_the_game_scores(convention: str) -> None:
    # The round robin above: GW% 1: 0.625, 2: 0.714286, 3: 0.333333, 4: 0.285714, and OGW% with each
    # opponent floored at 0.33.  A convention that does not rank on games still says what they were.
    results = [
        played(1, 1, 2, (2, 1, 0)), played(1, 3, 4, (2, 0, 0)),
        played(2, 1, 3, (2, 0, 0)), played(2, 2, 4, (2, 0, 0)),
        played(3, 4, 1, (2, 1, 0)), played(3, 2, 3, (2, 0, 0)),
    ]  # fmt: skip
    rows = by_player(one_vs_one([1, 2, 3, 4], results, convention=convention))

    assert {p: (s.game_win_pct, s.opp_game_win_pct) for p, s in rows.items()} == {
        1: (0.625, 0.459206),
        2: (0.714286, 0.429444),
        3: (0.333333, 0.556429),
        4: (0.285714, 0.55754),
    }


def test_magic_counts_a_bye_as_a_match_won_two_nil_and_ignores_it_for_the_opponents() -> None:
    results = [played(1, 1, 2, (2, 0, 0)), bye(1, 3), played(2, 3, 1, (2, 1, 0)), bye(2, 2)]
    # Points: 1: 3; 2: 3 (the bye); 3: 6 (bye + win).
    # MWP, byes counted as won matches: 1: 3/6 = 0.5; 2: 3/6 = 0.5; 3: 6/6 = 1.0.
    # OMW, real opponents only: 1 met 2 and 3: (0.5 + 1.0) / 2 = 0.75; 2 met 1: 0.5; 3 met 1: 0.5.
    # GW%, a bye is 2-0: 1: 2-0, 1-2 = 3-2 -> 9/15 = 0.6; 2: 0-2, 2-0 -> 6/12 = 0.5; 3: 2-0, 2-1 -> 12/15 = 0.8.
    rows = by_player(one_vs_one([1, 2, 3], results, convention="magic"))

    assert [(rows[p].points, rows[p].opp_match_win_pct, rows[p].game_win_pct) for p in (1, 2, 3)] == [
        (3, 0.75, 0.6),
        (3, 0.5, 0.5),
        (6, 0.5, 0.8),
    ]
    assert [rows[p].rank for p in (3, 1, 2)] == [1, 2, 3]
    # Classic leaves byes out of the MWP: 2's is 0/3, floored to 0.25, so 1's OMW is (0.25 + 1.0) / 2.
    assert by_player(one_vs_one([1, 2, 3], results))[1].opp_match_win_pct == 0.625


def test_a_match_without_game_scores_counts_as_one_game() -> None:
    # 1 beat 2 with no game score: one game, 1-0.  2 drew 3: one drawn game, 1 game point each.
    rows = by_player(one_vs_one([1, 2, 3], [win(1, 1, 2), draw(2, 2, 3)], convention="magic"))

    assert rows[1].game_win_pct == 1.0
    assert rows[2].game_win_pct == round(1 / 6, 6)
    assert rows[3].game_win_pct == round(1 / 3, 6)


def test_game_win_percentage_is_not_floored_for_the_player_but_is_for_their_opponents() -> None:
    assert game_win_pcts(points=[0, 3, 0], games=[3, 3, 0]) == [0.0, 1 / 3, 0.0]
    rows = by_player(one_vs_one([1, 2], [played(1, 1, 2, (2, 0, 0))], convention="magic"))
    assert (rows[2].game_win_pct, rows[1].opp_game_win_pct) == (0.0, 0.33)


# --- Pokémon --------------------------------------------------------------------


def test_pokemon_win_percentage_counts_a_tie_as_half_a_win() -> None:
    # RK9: "if an opponent finished 3-1-1, their contribution is (1 + 1 + 1 + 0.5 + 0) / 5 = 70%".
    pcts = match_win_pcts(
        points=[10], wins=[3], draws=[1], matches=[5], byes=[0], bye_points=3, dropped=[False], config=POKEMON,
        win_points=3,
    )  # fmt: skip

    assert pcts == [0.7]


def test_pokemon_win_percentage_leaves_byes_out_floors_at_25_and_caps_dropped_players_at_75() -> None:
    # RK9: "if one of your opponents received a Bye and finished 2-1, then they would contribute a 1-1
    # score (50%)"; "An opponent cannot contribute less than 25%".  TOP: a dropped opponent above 75%
    # counts as 75%.
    pcts = match_win_pcts(
        points=[6, 0, 12, 12], wins=[2, 0, 4, 4], draws=[0, 0, 0, 0], matches=[3, 3, 4, 4], byes=[1, 0, 0, 0],
        bye_points=3, dropped=[False, False, True, False], config=POKEMON, win_points=3,
    )  # fmt: skip

    assert pcts == [0.5, 0.25, 0.75, 1.0]


def test_pokemon_breaks_a_tie_of_exactly_two_players_by_head_to_head() -> None:
    results = [
        win(1, 1, 2), win(1, 3, 4),
        win(2, 4, 3), win(2, 1, 2),
        win(3, 3, 1), win(3, 2, 4),
    ]  # fmt: skip
    # Win %: 1 and 3: 2/3; 2 and 4: 1/3.
    # Opponents' win %: 1 met 2, 2, 3: (1/3 + 1/3 + 2/3) / 3 = 4/9; 3 met 4, 4, 1: 4/9 as well;
    #   2 met 1, 1, 4 and 4 met 3, 3, 2: (2/3 + 2/3 + 1/3) / 3 = 5/9.
    # Opponents' opponents': 1: (5/9 + 5/9 + 4/9) / 3 = 14/27 = 0.518519, and 3 the same;
    #   2 and 4: (4/9 + 4/9 + 5/9) / 3 = 13/27 = 0.481481.
    # So 1 and 3 are tied on everything; 3 beat 1 in round 3, so 3 is ahead.  2 beat 4 in round 3.
    pokemon = one_vs_one([1, 2, 3, 4], results, convention="pokemon")

    assert [(s.rank, s.player_id, s.head_to_head) for s in pokemon] == [
        (1, 3, True),
        (2, 1, True),
        (3, 2, True),
        (4, 4, True),
    ]
    assert [(s.opp_match_win_pct, s.opp_opp_match_win_pct) for s in pokemon[:2]] == [(0.444444, 0.518519)] * 2
    classic = one_vs_one([1, 2, 3, 4], results)
    assert [(s.rank, s.player_id, s.head_to_head) for s in classic][:2] == [(1, 1, False), (1, 3, False)]


def test_head_to_head_leaves_an_even_record_or_a_tie_of_three_shared() -> None:
    # 1 and 2 beat each other once: even.  Everyone else is out of the picture.
    assert head_to_head([(1, 2), (2, 1)], 1, 2) is None
    assert head_to_head([(2, 1)], 1, 2) == 2
    rows = one_vs_one([1, 2], [win(1, 1, 2), win(2, 2, 1)], convention="pokemon")
    assert [(s.rank, s.player_id, s.head_to_head) for s in rows] == [(1, 1, False), (1, 2, False)]
    # Three players who each beat one other: a tie of three, which head-to-head does not break.
    cycle = one_vs_one([1, 2, 3], [win(1, 1, 2), win(2, 2, 3), win(3, 3, 1)], convention="pokemon")
    assert {s.rank for s in cycle} == {1}


def test_a_late_player_takes_a_loss_per_missed_round_and_ranks_below_players_on_the_same_points() -> None:
    # 4 arrives for round 2.  Round 1: 1 beats 2, 3 has the bye.  Round 2: 4 beats 1, 3 beats 2.
    # Round 3: 4 beats 3, 1 beats 2.  1, 3 and 4 all have 6 points; 4's record is 2-1 with the late loss.
    results = [win(1, 1, 2), bye(1, 3), win(2, 4, 1), win(2, 3, 2), win(3, 4, 3), win(3, 1, 2)]
    # Win % (Pokémon): 1: 2/3; 2: 0 -> 0.25; 3: 1/2 (the bye left out); 4: 2/3 (the late loss counted).
    # Opponents' win %: 1 met 2, 4, 2: (0.25 + 2/3 + 0.25) / 3 = 0.388889; 3 met 2, 4: (0.25 + 2/3) / 2 =
    #   0.458333; 4 met 1, 3: (2/3 + 1/2) / 2 = 0.583333 - the best, but the late penalty comes first.
    standings = one_vs_one([1, 2, 3, 4], results, convention="pokemon", late_rounds={4: 1})
    rows = by_player(standings)

    assert [(s.player_id, s.points, s.opp_match_win_pct) for s in standings] == [
        (3, 6, 0.458333),
        (1, 6, 0.388889),
        (4, 6, 0.583333),
        (2, 0, 0.611111),  # met 1, 3, 1: (2/3 + 1/2 + 2/3) / 3
    ]
    assert (rows[4].wins, rows[4].losses, rows[4].matches, rows[4].late_rounds) == (2, 1, 3, 1)
    # Without the late-entry tiebreaker the late player is first on OMW.
    classic = one_vs_one([1, 2, 3, 4], results, late_rounds={4: 1})
    assert [s.player_id for s in classic] == [4, 3, 1, 2]


@pytest.mark.parametrize("convention", ["classic", "pokemon", "magic"])
def test_in_pods_a_late_entrant_ranks_by_opponents_average_points_like_everyone_on_the_same_points(
    convention: str,
) -> None:
    # The late-entry penalty is a Play! Pokémon convention for 1v1 Swiss; pods rank by points, opponents'
    # average points per round, OMW%, OOMW% whatever the convention.  8 arrives for round 2.
    results = [
        table(1, {1: 1, 2: 2, 3: 3, 4: 4}),  # 1: 3, 2: 1, 3 and 4: 0
        table(1, {5: 1, 6: 2, 7: 3}),  # 5: 3, 6: 1, 7: 0
        table(2, {8: 1, 1: 2, 2: 3, 5: 4}),  # 8: 3, 1: 1, 2 and 5: 0
        table(2, {3: 1, 4: 2, 6: 3, 7: 4}),  # 3: 3, 4: 1, 6 and 7: 0
    ]
    # 3, 5 and 8 have 3 points.  Points per round: 1: 2; 2, 4, 6: 0.5; 3, 5: 1.5; 7: 0; 8: 3 / 2 = 1.5
    # (the missed round is a round without points).  Opponents' average points:
    #   8 met 1, 2, 5:             (2 + 0.5 + 1.5) / 3             = 1.333333
    #   5 met 6, 7, 8, 1, 2:       (0.5 + 0 + 1.5 + 2 + 0.5) / 5   = 0.9
    #   3 met 1, 2, 4, 4, 6, 7:    (2 + 0.5 + 0.5 + 0.5 + 0.5 + 0) / 6 = 0.666667
    standings = compute_standings(
        range(1, 9), results, scoring=POD, multiplayer=True, convention=convention, late_rounds={8: 1}
    )
    rows = by_player(standings)

    assert [(s.player_id, s.opp_avg_points) for s in standings if s.points == 3] == [
        (8, 1.333333),
        (5, 0.9),
        (3, 0.666667),
    ]
    assert [rows[p].rank for p in (8, 5, 3)] == [2, 3, 4]
    # The missed round still counts as a loss in the record.
    assert (rows[8].wins, rows[8].losses, rows[8].matches, rows[8].late_rounds) == (1, 1, 2, 1)


# --- configuration and validation -----------------------------------------------


def test_conventions_are_frozen_presets_with_their_constants() -> None:
    assert (POKEMON.win_pct_floor, POKEMON.tie_credit, POKEMON.dropped_win_pct_cap) == (0.25, 0.5, 0.75)
    assert (MAGIC.win_pct_floor, MAGIC.game_win_pct_floor, MAGIC.byes_in_win_pct) == (0.33, 0.33, True)
    assert CLASSIC.order == ("opp_match_win_pct", "opp_opp_match_win_pct")
    with pytest.raises(AttributeError):
        POKEMON.win_pct_floor = 0.3  # type: ignore[misc]


def test_a_custom_config_can_change_a_constant() -> None:
    results = [win(1, 1, 2), win(2, 1, 2)]
    config = replace(MAGIC, win_pct_floor=0.4)

    rows = by_player(one_vs_one([1, 2], results, convention=config))

    assert rows[1].opp_match_win_pct == 0.4


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"convention": "chess"}, "unknown convention"),
        ({"late_rounds": {9: 1}}, "late player 9"),
        ({"late_rounds": {1: -1}}, "missed -1 rounds"),
        ({"win_pct_floor": 0.8, "convention": "pokemon"}, "above the dropped cap"),
    ],
)
def test_it_rejects_options_it_does_not_know(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        one_vs_one([1, 2], [win(1, 1, 2)], **options)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"order": ("omw",)}, "unknown tiebreakers"),
        ({"order": ("head_to_head", "opp_match_win_pct")}, "last"),
        ({"order": ("opp_match_win_pct", "opp_match_win_pct")}, "twice"),
        ({"win_pct_floor": 1.5}, "within 0..1"),
        ({"tie_credit": 2.0}, "tie_credit"),
    ],
)
def test_a_config_rejects_impossible_settings(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TiebreakConfig(**{"name": "x", "order": ("opp_match_win_pct",), "win_pct_floor": 0.25, **kwargs})


@pytest.mark.parametrize(
    ("results", "message"),
    [
        (
            [TableResult(1, (SeatResult(1, 1, games=(2, 0, 0)), SeatResult(2, 2, games=(1, 2, 0))))],
            "game scores .* disagree",
        ),
        ([TableResult(1, (SeatResult(1, 1, games=(2, -1, 0)), SeatResult(2, 2)))], "expected \\(won, lost, drawn\\)"),
        ([TableResult(1, (SeatResult(1, 1, games=(2, 0)), SeatResult(2, 2)))], "expected \\(won, lost, drawn\\)"),
    ],
)
@pytest.mark.parametrize("convention", ["classic", "pokemon", "magic"])
def test_it_rejects_game_scores_that_do_not_add_up(results: list[TableResult], message: str, convention: str) -> None:
    with pytest.raises(ValueError, match=message):
        one_vs_one([1, 2], results, convention=convention)


def test_it_rejects_game_scores_at_a_pod() -> None:
    pod = TableResult(1, (SeatResult(1, 1, games=(1, 0, 0)), SeatResult(2, 2), SeatResult(3, 3)))
    with pytest.raises(ValueError, match="only 1v1"):
        compute_standings([1, 2, 3], [pod], scoring=POD, multiplayer=True, convention="magic")


def test_pods_keep_their_order_whatever_the_convention() -> None:
    results = [table(1, {1: 1, 2: 2, 3: 3, 4: 4}), table(2, {1: 2, 2: 1, 3: 4, 4: 3})]

    for convention in ("classic", "pokemon", "magic"):
        standings = compute_standings(range(1, 5), results, scoring=POD, multiplayer=True, convention=convention)
        keys = [(-s.points, -s.opp_avg_points, -s.opp_match_win_pct, -s.opp_opp_match_win_pct) for s in standings]
        assert keys == sorted(keys)
        assert not any(s.head_to_head for s in standings)


def test_opponent_means_average_meeting_by_meeting() -> None:
    assert opponent_means([[1, 1, 2], [], [0]], [0.9, 0.3, 0.6]) == pytest.approx([0.4, 0.0, 0.9])


# --- properties -------------------------------------------------------------------

PROPERTY_SETTINGS = settings(max_examples=150, deadline=None)


@st.composite
def magic_events(draw_: st.DrawFn) -> Event:
    """A 1v1 event whose matches carry random game scores (or none), consistent between the seats."""
    ids, results, dropped = draw_(events(multiplayer=False))
    scored = []
    for t in results:
        if len(t.seats) == 2 and draw_(st.booleans()):
            won, lost, drawn = (draw_(st.integers(0, 3)) for _ in range(3))
            first, second = t.seats
            t = TableResult(
                t.round_number,
                (replace(first, games=(won, lost, drawn)), replace(second, games=(lost, won, drawn))),
            )
        scored.append(t)
    return ids, scored, dropped


def exact_figures(ids: Sequence[int], results: Sequence[TableResult], dropped: Sequence[int], config: TiebreakConfig):
    """The convention's definitions with exact fractions: per player (OMW, OOMW, GW%, OGW%)."""
    floor = Fraction(config.win_pct_floor)
    tables_of: dict[int, list[TableResult]] = {p: [] for p in ids}
    for t in results:
        for seat in t.seats:
            tables_of[seat.player_id].append(t)

    def seat_of(p: int, t: TableResult) -> SeatResult:
        return next(s for s in t.seats if s.player_id == p)

    def mwp(p: int) -> Fraction:
        counted = [t for t in tables_of[p] if config.byes_in_win_pct or len(t.seats) > 1]
        if not counted:
            return floor
        if config.tie_credit is None:
            earned = sum(3 if len(t.seats) == 1 else ONE_VS_ONE.points_for(
                table_size=2, placement=seat_of(p, t).placement, shared=seat_of(p, t).shared) for t in counted)  # fmt: skip
            pct = Fraction(earned, 3 * len(counted))
        else:
            credit = Fraction(config.tie_credit)
            pct = sum(
                (1 if seat_of(p, t).placement == 1 and not seat_of(p, t).shared else
                 credit if seat_of(p, t).placement == 1 else 0) for t in counted
            ) / len(counted)  # fmt: skip
        cap = Fraction(config.dropped_win_pct_cap) if config.dropped_win_pct_cap and p in dropped else Fraction(1)
        return min(max(pct, floor), cap)

    def games(p: int, t: TableResult) -> tuple[int, int, int]:
        seat = seat_of(p, t)
        if seat.games is not None:
            return seat.games
        if len(t.seats) == 1:
            return config.bye_games
        return (1, 0, 0) if seat.placement == 1 and not seat.shared else (0, 0, 1) if seat.placement == 1 else (0, 1, 0)

    def gwp(p: int) -> Fraction:
        record = [games(p, t) for t in tables_of[p]]
        count = sum(sum(g) for g in record)
        return Fraction(sum(3 * w + d for w, _, d in record), 3 * count) if count else Fraction(0)

    def opponents(p: int) -> list[int]:
        return [s.player_id for t in tables_of[p] for s in t.seats if s.player_id != p]

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else Fraction(0)

    def omw(p: int) -> Fraction:
        return mean([mwp(o) for o in opponents(p)])

    game_floor = Fraction(config.game_win_pct_floor)
    return {
        p: (
            omw(p),
            mean([omw(o) for o in opponents(p)]),
            gwp(p),
            mean([max(gwp(o), game_floor) for o in opponents(p)]),
        )
        for p in ids
    }


@PROPERTY_SETTINGS
@given(st.sampled_from([CLASSIC, POKEMON, MAGIC]), magic_events())
def test_each_convention_matches_its_definitions_worked_out_exactly(config: TiebreakConfig, event: Event) -> None:
    ids, results, dropped = event

    standings = one_vs_one(ids, results, dropped=dropped, convention=config)
    expected = exact_figures(ids, results, dropped, config)

    for s in standings:
        omw, oomw, gwp, ogw = expected[s.player_id]
        assert close(s.opp_match_win_pct, omw)
        assert close(s.opp_opp_match_win_pct, oomw)
        # Every 1v1 convention publishes the game-win figures, whether or not it ranks on them.
        assert close(s.game_win_pct, gwp)
        assert close(s.opp_game_win_pct, ogw)


def sort_key(s: Standing, config: TiebreakConfig) -> tuple:
    figures = {
        "late_entry": s.late_rounds,
        "opp_match_win_pct": -s.opp_match_win_pct,
        "opp_opp_match_win_pct": -s.opp_opp_match_win_pct,
        "game_win_pct": -s.game_win_pct,
        "opp_game_win_pct": -s.opp_game_win_pct,
    }
    return (-s.points, *(figures[name] for name in config.order if name != "head_to_head"))


@PROPERTY_SETTINGS
@given(st.sampled_from([CLASSIC, POKEMON, MAGIC]), magic_events())
def test_the_ranks_follow_the_convention_and_head_to_head_only_splits_ties_of_two(
    config: TiebreakConfig, event: Event
) -> None:
    ids, results, dropped = event

    standings = one_vs_one(ids, results, dropped=dropped, convention=config)

    assert sorted(s.player_id for s in standings) == sorted(ids)
    assert standings[0].rank == 1
    for position, (before, after) in enumerate(pairwise(standings), start=2):
        key_before, key_after = sort_key(before, config), sort_key(after, config)
        if key_before != key_after:
            assert key_before < key_after and after.rank == position
        elif after.rank == before.rank:
            assert before.player_id < after.player_id and not before.head_to_head
        else:
            # Only head-to-head separates equal keys, only for two, and only for a convention that has it.
            assert config is POKEMON and before.head_to_head and after.head_to_head and after.rank == position


@PROPERTY_SETTINGS
@given(st.sampled_from(["pokemon", "magic"]), magic_events(), st.randoms(use_true_random=False))
def test_shuffling_changes_nothing_under_any_convention(convention: str, event: Event, rng: random.Random) -> None:
    ids, results, dropped = event
    shuffled_results = [TableResult(t.round_number, tuple(rng.sample(t.seats, len(t.seats)))) for t in results]
    rng.shuffle(shuffled_results)

    original = one_vs_one(ids, results, dropped=dropped, convention=convention)
    shuffled = one_vs_one(rng.sample(ids, len(ids)), shuffled_results, dropped=set(dropped), convention=convention)

    assert shuffled == original


@PROPERTY_SETTINGS
@given(events(multiplayer=False))
def test_the_fast_path_and_the_careful_loop_agree(event: Event) -> None:
    # A game tiebreaker sends every table through the careful loop; the shared figures must not move.
    ids, results, dropped = event
    careful = replace(CLASSIC, order=(*CLASSIC.order, GAME_WIN_PCT))

    fast = by_player(one_vs_one(ids, results, dropped=dropped))
    slow = by_player(one_vs_one(ids, results, dropped=dropped, convention=careful))

    for p, s in fast.items():
        other = slow[p]
        assert (s.points, s.wins, s.draws, s.losses, s.byes, s.matches) == (
            other.points, other.wins, other.draws, other.losses, other.byes, other.matches,
        )  # fmt: skip
        assert (s.opp_match_win_pct, s.opp_opp_match_win_pct, s.dropped) == (
            other.opp_match_win_pct, other.opp_opp_match_win_pct, other.dropped,
        )  # fmt: skip
