"""The format registry: every slug the issues fix, with its table sizes and scoring."""

from __future__ import annotations

import pytest

from rules import FORMATS, UnknownFormat, get_format


def test_it_registers_the_five_formats_by_their_slugs():
    assert set(FORMATS) == {"master-trainer", "format3-trinity", "mt-silver", "deck-masters", "mintayn-master"}


@pytest.mark.parametrize(
    ("slug", "family", "sizes", "life"),
    [
        ("master-trainer", "pokemon", (2, 4, 4), 200),
        ("format3-trinity", "pokemon", (3, 5, 4), 0),
        # "To play Mt. Silver, 4 players come together": 3-player pods only under the event's house rule.
        ("mt-silver", "pokemon", (4, 4, 4), 0),
        ("deck-masters", "yugioh", (2, 2, 2), 8000),
        ("mintayn-master", "mintayn", (2, 2, 2), 8000),
    ],
)
def test_each_format_has_the_rulebooks_table_sizes_and_life(slug, family, sizes, life):
    fmt = get_format(slug)
    assert fmt.family == family
    assert (fmt.table_size.min, fmt.table_size.max, fmt.table_size.preferred) == sizes
    assert fmt.starting_life == life


def test_mt_silver_seats_3_player_pods_only_under_the_house_rule():
    fmt = get_format("mt-silver")
    house = fmt.table_size_for({"three_player_pods": True})
    assert (house.min, house.max, house.preferred) == (3, 4, 4)
    assert fmt.table_size_for({}) == fmt.table_size_for({"three_player_pods": False}) == fmt.table_size


def test_a_deck_masters_match_is_best_of_three():
    assert get_format("deck-masters").games_per_match == 3


def test_one_vs_one_scores_win_three_draw_one_loss_zero():
    scoring = get_format("mintayn-master").scoring
    assert scoring.points_for(table_size=2, placement=1) == 3
    assert scoring.points_for(table_size=2, placement=1, shared=True) == 1
    assert scoring.points_for(table_size=2, placement=2) == 0
    assert scoring.bye_points == 3


def test_pods_score_the_winner_three_and_the_runner_up_one():
    scoring = get_format("mt-silver").scoring
    assert [scoring.points_for(table_size=4, placement=p) for p in (1, 2, 3, 4)] == [3, 1, 0, 0]
    assert [scoring.points_for(table_size=3, placement=p) for p in (1, 2, 3)] == [3, 1, 0]


def test_an_unknown_slug_is_refused():
    with pytest.raises(UnknownFormat):
        get_format("standard")
