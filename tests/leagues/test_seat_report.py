"""Seat fairness's figures (leagues/meta/seats.py) and its chart: hand-computed cases and invariants (no database)."""

from __future__ import annotations

import math
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.charts import IntervalBar, interval_chart
from leagues.meta.seats import MIN_TABLES, SeatRow, seat_report, wilson_interval


def _pod(table: int, placements: list[int], fmt: str = "mt") -> list[SeatRow]:
    """A table's seats in seat order, with 4-3-2-1 points by placement."""
    return [
        SeatRow(table=table, seat=i, placement=p, points=max(0, 5 - p), format=fmt)
        for i, p in enumerate(placements, start=1)
    ]


def test_the_wilson_interval_matches_the_hand_computed_figures():
    low, high = wilson_interval(1, 4)
    # p = .25, z = 1.96: centre (.25 + .4802) / 1.9604 = .37258, half 1.96 * sqrt(.046875 + .060025) / 1.9604 = .32683
    assert low == pytest.approx(0.04558, abs=1e-4) and high == pytest.approx(0.69941, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_it_counts_wins_shared_firsts_points_and_placements_per_seat_of_one_pod_size():
    rows = [*_pod(1, [1, 2, 3, 4]), *_pod(2, [2, 1, 4, 3]), *_pod(3, [1, 1, 3, 4]), *_pod(4, [1, 3, 2, 4])]
    report = seat_report(rows)
    (group,) = report.groups
    assert (group.format, group.size, group.tables, group.shared_tables) == ("mt", 4, 4, 1)
    assert group.fair_share == 0.25 and group.too_small
    one, two, three, four = group.seats
    assert (one.tables, one.wins, one.shared_firsts) == (4, 2, 1)  # table 3's first is shared: no win
    assert (two.wins, two.shared_firsts) == (1, 1)
    assert (three.wins, four.wins) == (0, 0)
    assert one.win_rate == 0.5 and (one.low, one.high) == wilson_interval(2, 4)
    assert one.average_placement == (1 + 2 + 1 + 1) / 4 and one.average_points == (4 + 3 + 4 + 4) / 4
    assert four.average_placement == (4 + 3 + 4 + 4) / 4


def test_pod_sizes_and_formats_are_never_pooled_and_byes_and_unreported_tables_are_left_out():
    rows = [
        *_pod(1, [1, 2, 3, 4]), *_pod(2, [3, 1, 2]), *_pod(3, [2, 1], fmt="dm"),
        *_pod(4, [1, 2, 3]), SeatRow(5, 1, 1, 3, "mt", bye=True),
        SeatRow(6, 1, None, None, "mt"), SeatRow(6, 2, None, None, "mt"), SeatRow(6, 3, None, None, "mt"),
    ]  # fmt: skip
    report = seat_report(rows)
    assert [(g.format, g.size, g.tables) for g in report.groups] == [("dm", 2, 1), ("mt", 3, 2), ("mt", 4, 1)]
    assert report.byes == 1 and report.unreported == 1 and report.tables == 4
    three = report.groups[1]
    assert [f.wins for f in three.seats] == [1, 1, 0] and three.fair_share == pytest.approx(1 / 3)


def test_a_drawn_1v1_match_is_a_shared_first_for_both_seats():
    report = seat_report([SeatRow(1, 1, 1, 1), SeatRow(1, 2, 1, 1), SeatRow(2, 1, 2, 0), SeatRow(2, 2, 1, 3)])
    (group,) = report.groups
    assert group.shared_tables == 1
    assert [(f.wins, f.shared_firsts) for f in group.seats] == [(0, 1), (1, 1)]


def test_enough_tables_lift_the_too_small_note_and_two_rows_for_one_seat_are_refused():
    rows = [row for t in range(MIN_TABLES) for row in _pod(t, [1, 2])]
    assert not seat_report(rows).groups[0].too_small
    assert seat_report(rows[:-2]).groups[0].too_small
    with pytest.raises(ValueError):
        seat_report([SeatRow(1, 1, 1, 3), SeatRow(1, 1, 2, 0)])


@st.composite
def _tables(draw):
    rows = []
    for table in range(draw(st.integers(0, 25))):
        size = draw(st.sampled_from([2, 3, 4]))
        if draw(st.integers(0, 9)) == 0:
            rows.append(SeatRow(table, 1, 1, 3, "mt", bye=True))
            continue
        reported = draw(st.integers(0, 7)) > 0
        # competition ranking: sorted draws of "ties with the one before"
        places, ties = [1], draw(st.lists(st.booleans(), min_size=size - 1, max_size=size - 1))
        for i, tie in enumerate(ties, start=2):
            places.append(places[-1] if tie else i)
        order = draw(st.permutations(places))
        for seat, place in enumerate(order, start=1):
            rows.append(SeatRow(table, seat, place if reported else None, (size - place) if reported else None, "mt"))
    return rows


@settings(max_examples=60, deadline=None)
@given(_tables(), st.randoms(use_true_random=False))
def test_the_figures_hold_their_invariants_whatever_the_tables_and_their_order(rows, rnd):
    report = seat_report(rows)
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    assert seat_report(shuffled) == report
    assert report.byes == sum(1 for r in rows if r.bye)
    for group in report.groups:
        assert all(f.tables == group.tables for f in group.seats)  # every seat of every counted table
        assert [f.seat for f in group.seats] == list(range(1, group.size + 1))
        assert sum(f.wins for f in group.seats) == group.tables - group.shared_tables  # one winner or a shared first
        assert sum(f.shared_firsts for f in group.seats) >= 2 * group.shared_tables
        for f in group.seats:
            assert 0.0 <= f.low <= f.win_rate <= f.high <= 1.0
            assert 1.0 <= f.average_placement <= group.size
        assert math.isclose(sum(f.average_placement for f in group.seats) * group.tables,
                            sum(f.average_placement * f.tables for f in group.seats))  # fmt: skip


def test_the_interval_chart_is_svg_with_whiskers_a_fair_share_line_and_escaped_text():
    svg = interval_chart("s", "Win rate <by seat>", "Seat 1 won most", [
        IntervalBar("Seat 1", 0.5, 0.2, 0.8, "50.0 % of 4"), IntervalBar("Seat <2>", 0.25, 0.05, 0.7, "25.0 %"),
    ], reference=0.25, reference_label="fair share 25.0 %")  # fmt: skip
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("role") == "img" and root.find(f"{ns}title").text == "Win rate <by seat>"
    assert len(root.findall(f".//{ns}path")) == 2 and root.find(f".//{ns}line") is not None
    assert "Seat &lt;2&gt;" in svg
