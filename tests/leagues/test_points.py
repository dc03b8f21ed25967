"""League points, best-N counting, final placings and the season tiebreakers: worked examples, no database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.points import (
    PRESETS,
    CutTable,
    EventResult,
    PlayerEvent,
    PointsTable,
    event_points,
    final_placings,
    season_standings,
)

BALANCED = PRESETS["balanced"].table


def test_a_balanced_night_adds_placing_match_wins_pods_and_attendance():
    # 2nd place (6), three match wins (3 x 2) and a draw (1), attending (2): 15.
    assert event_points(BALANCED, PlayerEvent(1, placing=2, match_wins=3, match_draws=1)) == 15
    # 5th place in a pod event (2): pods 1st, 2nd and a shared 1st of two (3, 2, (3 + 2) // 2 = 2), attending (2).
    assert event_points(BALANCED, PlayerEvent(1, placing=5, pods=((1, 1), (2, 1), (1, 2)))) == 2 + 3 + 2 + 2 + 2
    # 9th: no placing points, attendance only.
    assert event_points(BALANCED, PlayerEvent(1, placing=9)) == 2


def test_placement_bands_cover_the_places_down_to_their_limit():
    table = PRESETS["placement"].table
    assert [table.placement_points(p) for p in (1, 2, 3, 4, 5, 8, 9, 16, 17)] == [15, 12, 10, 10, 8, 8, 4, 4, 0]


def test_a_points_table_round_trips_through_json_and_refuses_nonsense():
    assert PointsTable.from_json(BALANCED.as_json()) == BALANCED
    for bad in (
        {"placement": [[2, 5], [1, 8]]},  # bands out of order
        {"match_win": -1},
        {"match_win": True},
        {"best_n": 0},
        {"pod_placement": "4,3"},
        {"bonus": 3},
        {"placement": [[1]]},
    ):
        with pytest.raises(ValueError):
            PointsTable.from_json(bad)


def test_best_n_counts_the_best_events_and_still_counts_every_event_played():
    table = PointsTable(placement=((1, 10), (2, 6), (4, 3)), attendance=1, best_n=2)
    events = [
        EventResult(10, 1, (PlayerEvent(1, placing=4), PlayerEvent(2, placing=1))),
        EventResult(11, 2, (PlayerEvent(1, placing=1), PlayerEvent(2, placing=2))),
        EventResult(12, 3, (PlayerEvent(1, placing=2),)),
    ]
    lines = {line.player_id: line for line in season_standings(table, events)}
    # Player 1: 4 (4th), 11 (1st), 7 (2nd): the best two are 11 + 7.
    assert lines[1].points == 18 and lines[1].events_played == 3 and lines[1].events_counted == 2
    assert [e.counted for e in lines[1].events] == [False, True, True]
    assert lines[2].points == 18 and lines[2].events_played == 2
    # Level on points: more events played is ahead.
    assert lines[1].rank == 1 and lines[2].rank == 2


def test_the_season_tiebreakers_go_points_then_events_then_average_placing_then_head_to_head():
    table = PointsTable(attendance=1)
    events = [
        EventResult(1, 1, (PlayerEvent(1, 2), PlayerEvent(2, 1), PlayerEvent(3, 2), PlayerEvent(4, 2)),
                    tables=({3: 1, 4: 2},)),
        EventResult(2, 2, (PlayerEvent(1, 1), PlayerEvent(2, 1), PlayerEvent(3, 2), PlayerEvent(4, 2)),
                    tables=({4: 1, 3: 2}, {4: 1, 3: 2})),
    ]  # fmt: skip
    lines = season_standings(table, events)
    assert [(line.player_id, line.rank) for line in lines] == [(2, 1), (1, 2), (4, 3), (3, 4)]
    # Level on points and events: 2 averages 1.0, 1 averages 1.5; 3 and 4 both 2.0, and 4 beat 3 twice of three.
    assert lines[0].average_placing == 1.0 and lines[1].average_placing == 1.5
    assert lines[2].head_to_head and lines[3].head_to_head and not lines[0].head_to_head


def test_players_who_never_met_stay_tied():
    events = [EventResult(1, 1, (PlayerEvent(1, 2), PlayerEvent(2, 2)))]
    lines = season_standings(PointsTable(attendance=1), events)
    assert [line.rank for line in lines] == [1, 1] and [line.player_id for line in lines] == [1, 2]


def test_the_top_cut_decides_the_final_placings():
    ranks = {p: p for p in range(1, 11)}
    cut = [
        CutTable(1, {1: 1, 8: 2}), CutTable(1, {4: 2, 5: 1}), CutTable(1, {2: 1, 7: 2}), CutTable(1, {3: 1, 6: 2}),
        CutTable(2, {1: 2, 5: 1}), CutTable(2, {2: 1, 3: 2}),
        CutTable(3, {5: 1, 2: 2}),
    ]  # fmt: skip
    placings = final_placings(ranks, cut, cut_size=8)
    assert placings[5] == 1 and placings[2] == 2 and placings[1] == placings[3] == 3
    assert {placings[p] for p in (4, 6, 7, 8)} == {5}
    assert placings[9] == 9 and placings[10] == 10


def test_pod_cuts_place_by_the_place_at_the_table_and_a_cut_under_way_shares_first():
    ranks = {p: p for p in range(1, 9)}
    semis = [CutTable(1, {1: 1, 2: 2, 3: 3, 4: 4}), CutTable(1, {5: 2, 6: 1, 7: 3, 8: 4})]
    placings = final_placings(ranks, semis, cut_size=8)
    assert placings[1] == placings[6] == 1  # still in: the final is not played yet
    assert placings[2] == placings[5] == 3 and placings[3] == placings[7] == 5 and placings[4] == placings[8] == 7
    final = final_placings(ranks, [*semis, CutTable(2, {6: 1, 1: 2})], cut_size=8)
    assert final[6] == 1 and final[1] == 2
    waiting = final_placings(ranks, [*semis, CutTable(2, {6: None, 1: None})], cut_size=8)
    assert waiting[6] == waiting[1] == 1


events_strategy = st.lists(
    st.lists(st.tuples(st.integers(1, 12), st.integers(1, 16), st.integers(0, 5)), min_size=1, max_size=10,
             unique_by=lambda t: t[0]),
    min_size=1, max_size=6,
)  # fmt: skip


def _events(raw):
    return [
        EventResult(n, n, tuple(PlayerEvent(p, placing=pl, match_wins=w) for p, pl, w in players))
        for n, players in enumerate(raw)
    ]


@given(events_strategy, st.sampled_from(list(PRESETS)), st.none() | st.integers(1, 4), st.randoms())
def test_the_standings_do_not_depend_on_the_order_events_and_players_come_in(raw, preset, best_n, rnd):
    table = PointsTable.from_json({**PRESETS[preset].table.as_json(), "best_n": best_n})
    events = _events(raw)
    shuffled = [EventResult(e.event_id, e.order, tuple(rnd.sample(e.players, len(e.players)))) for e in events]
    rnd.shuffle(shuffled)
    assert season_standings(table, events) == season_standings(table, shuffled)


@given(events_strategy, st.integers(1, 4))
def test_counting_the_best_n_never_gives_more_than_counting_all(raw, n):
    events = _events(raw)
    every = {x.player_id: x.points for x in season_standings(BALANCED, events)}
    best = season_standings(PointsTable.from_json({**BALANCED.as_json(), "best_n": n}), events)
    assert all(line.points <= every[line.player_id] and line.events_counted <= n for line in best)
    ranks = [line.rank for line in best]
    assert ranks == sorted(ranks) and ranks[0] == 1
