"""Results in words (:mod:`tournaments.words`): no database, plain facts in, the one voice out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import words

NAMES = {1: "Ash", 2: "Misty", 3: "Brock", 4: "Gary"}

# --- ordinals ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "said"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"), (11, "11th"), (12, "12th"), (13, "13th"),
     (20, "20th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (112, "112th"),
     (113, "113th"), (121, "121st")],
)  # fmt: skip
def test_an_ordinal_gives_the_place_its_english_suffix(n, said):
    assert words.ordinal(n) == said


@given(st.integers(min_value=1, max_value=10**6))
def test_an_ordinal_is_the_number_and_the_suffix_its_last_two_digits_call_for(n):
    said = words.ordinal(n)
    assert said[:-2] == str(n)
    if n % 100 in (11, 12, 13):
        assert said.endswith("th")
    else:
        assert said[-2:] == {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


# --- game scores ------------------------------------------------------------------------------------------------


def test_a_game_score_is_joined_by_an_en_dash_and_names_drawn_games_only_when_there_are_some():
    assert words.game_score(2, 1) == "2\u20131"
    assert words.game_score(2, 1, 0) == "2–1"
    assert words.game_score(1, 1, 1) == "1–1–1"
    assert "-" not in words.game_score(0, 2)


def test_a_players_score_at_a_table_reads_its_games_by_id_whether_stored_as_text_or_number():
    assert words.score_of({"1": [2, 1, 0], "2": [1, 2, 0]}, 1) == "2–1"
    assert words.score_of({1: (1, 1, 1), 2: (1, 1, 1)}, 2) == "1–1–1"
    assert words.score_of(None, 1) == "" and words.score_of({}, 1) == ""
    assert words.score_of({2: (0, 2, 0)}, 1) == "0–0"


@given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))
def test_a_game_score_reads_back_as_its_numbers(won, lost, drawn):
    parts = [int(p) for p in words.game_score(won, lost, drawn).split("–")]
    assert parts == ([won, lost, drawn] if drawn else [won, lost])


# --- outcomes in the third person -------------------------------------------------------------------------------


def test_a_1v1_outcome_names_the_winner_first_with_the_score_when_given():
    assert words.outcome({1: 1, 2: 2}, {1: (2, 1, 0), 2: (1, 2, 0)}, False, NAMES) == "Ash won 2–1 against Misty"
    assert words.outcome({"1": 2, "2": 1}, None, False, NAMES) == "Misty won against Ash"


def test_a_draw_and_an_intentional_draw_name_both_players_by_player_id():
    assert words.outcome({2: 1, 1: 1}, {"1": [1, 1, 1], "2": [1, 1, 1]}, False, NAMES) == "draw 1–1–1: Ash – Misty"
    assert words.outcome({2: 1, 1: 1}, None, False, NAMES) == "draw: Ash – Misty"
    assert words.outcome({2: 1, 1: 1}, None, True, NAMES) == "intentional draw: Ash – Misty"


def test_a_pod_outcome_lists_the_places_in_order_and_a_missing_name_by_player_id():
    placements = {"3": 2, "1": 1, "2": 2, "9": 4}
    assert words.outcome(placements, None, False, NAMES) == "1st Ash, 2nd Misty, 2nd Brock, 4th player #9"


# --- outcomes for "you" -----------------------------------------------------------------------------------------


def test_a_1v1_outcome_for_the_player_says_won_lost_or_draw_with_their_own_score():
    table = {1: (2, 1, 0), 2: (1, 2, 0)}
    assert words.your_outcome(me=1, placements={1: 1, 2: 2}, games=table, intentional_draw=False) == "You won 2–1"
    assert words.your_outcome(me=2, placements={1: 1, 2: 2}, games=table, intentional_draw=False) == "You lost 1–2"
    assert words.your_outcome(me=2, placements={1: 1, 2: 2}, games=None, intentional_draw=False) == "You lost"
    assert words.your_outcome(me=1, placements={1: 1, 2: 1}, games=(1, 1, 1), intentional_draw=False) == "Draw 1–1–1"
    assert words.your_outcome(me=1, placements={1: 1, 2: 1}, games=None, intentional_draw=True) == "Intentional draw"


def test_a_pod_outcome_for_the_player_gives_their_place_of_the_table_shared_or_not():
    placements = {1: 1, 2: 2, 3: 2, 4: 4}
    assert words.your_outcome(me=1, placements=placements, games=None, intentional_draw=False) == "1st of 4"
    assert words.your_outcome(me=3, placements=placements, games=None, intentional_draw=False) == "Shared 2nd of 4"
    assert words.your_outcome(me=9, placements=placements, games=None, intentional_draw=False) == ""


# --- what the players said --------------------------------------------------------------------------------------


def test_the_report_lines_give_the_report_each_answer_and_who_has_yet_to_answer():
    answers = [
        words.Answer("Misty", agrees=True),
        words.Answer("Brock", agrees=False, says="1st Brock, 2nd Ash, 3rd Misty"),
        words.Answer("Gary", agrees=False),
    ]
    lines = words.report_lines(reporter="Ash", reported="1st Ash, 2nd Misty", answers=answers, waiting=["Joey", "Mai"])
    assert lines == [
        "Ash reported: 1st Ash, 2nd Misty.",
        "Misty confirmed it.",
        "Brock disputes it: 1st Brock, 2nd Ash, 3rd Misty.",
        "Gary disputes it.",
        "Waiting for Joey, Mai to confirm.",
    ]
    assert words.report_lines(reporter="Ash", reported="draw: Ash – Misty", answers=[], waiting=[]) == [
        "Ash reported: draw: Ash – Misty."
    ]


# --- rounds and the top cut -------------------------------------------------------------------------------------


def test_a_swiss_round_is_named_by_its_number_and_a_cut_round_by_its_stage():
    assert words.round_name(3) == "Round 3"
    assert [words.round_name(6, cut=True, tables=t) for t in (1, 2, 4, 8, 16)] == [
        "Final", "Semi-finals", "Quarter-finals", "Top 16", "Top 32",
    ]  # fmt: skip
    assert words.round_name(6, cut=True, tables=4, pods=True) == "Semi-final pods"
    assert words.round_name(7, cut=True, tables=1, pods=True) == "Final pod"


def test_the_out_labels_name_the_round_a_player_went_out_in():
    assert [words.out_label(t) for t in (1, 2, 4, 8)] == ["Finalist", "Semi-finalist", "Quarter-finalist", "Top 16"]
    assert words.pod_out_label(2) == "Semi-finalist, 2nd at their pod"
    assert [words.final_label(p, pods=False) for p in (1, 2)] == ["Champion", "Finalist"]
    assert [words.final_label(p, pods=True) for p in (1, 2, 3, 4)] == ["Champion", "2nd", "3rd", "4th"]


def test_a_run_of_rounds_is_listed_in_order_with_and_before_the_last():
    assert words.rounds_words([2]) == "Round 2"
    assert words.rounds_words([3, 2]) == "Rounds 2 and 3"
    assert words.rounds_words([2, 3, 4, 3]) == "Rounds 2, 3 and 4"
    assert words.rounds_words([1, 3], capital=False) == "rounds 1 and 3"
    assert words.rounds_words([]) == ""


def test_rounds_paired_since_are_said_to_stay_as_paired():
    assert words.kept_as_paired([2]) == "Round 2 was paired before the correction and stays as paired."
    assert (
        words.kept_as_paired([2, 3], when="after this round")
        == "Rounds 2 and 3 were paired after this round and stay as paired."
    )
    assert words.were_paired([2, 3, 4], when="after this round") == "Rounds 2, 3 and 4 were paired after this round"
    assert words.kept_as_paired([]) == "" and words.were_paired([], when="after this round") == ""
