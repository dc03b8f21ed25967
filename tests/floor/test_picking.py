"""The deck checks' draw (floor.picking): repeatable by its seed, tables checked before drawn last."""

from __future__ import annotations

import pytest

from floor.picking import TooFewTables, draw_tables


def test_the_same_seed_draws_the_same_tables_and_another_seed_may_not():
    tables = range(1, 41)
    first = draw_tables(tables=tables, checked_before=(), count=5, seed=1234)
    assert first == draw_tables(tables=list(reversed(tables)), checked_before=(), count=5, seed=1234)
    assert len(set(first)) == 5 and set(first) <= set(tables)
    assert any(draw_tables(tables=tables, checked_before=(), count=5, seed=s) != first for s in range(5))


def test_tables_checked_before_are_drawn_only_once_every_other_table_is():
    fresh = draw_tables(tables=range(1, 11), checked_before={1, 2, 3, 4, 5, 6, 7}, count=3, seed=9)
    assert set(fresh) == {8, 9, 10}
    more = draw_tables(tables=range(1, 11), checked_before={1, 2, 3, 4, 5, 6, 7}, count=5, seed=9)
    assert more[:3] == fresh and set(more[3:]) <= {1, 2, 3, 4, 5, 6, 7}


def test_asking_for_more_tables_than_there_are_is_refused():
    with pytest.raises(TooFewTables):
        draw_tables(tables=[1, 2], checked_before=(), count=3, seed=1)
