"""The lottery's draw (:mod:`tournaments.lottery`): reproducible from its seed, fair to every applicant.

No database: the engine takes player ids and returns the drawn order.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import lottery

applicants = st.sets(st.integers(min_value=1, max_value=10**6), max_size=60)
seeds = st.integers(min_value=0, max_value=lottery.SEED_LIMIT - 1)
places = st.integers(min_value=0, max_value=80)


@settings(max_examples=150, deadline=None)
@given(applicants, seeds, places, st.randoms(use_true_random=False))
def test_the_same_applicants_and_seed_give_the_same_draw_in_whatever_order_they_come(ids, seed, room, rng):
    shuffled = list(ids)
    rng.shuffle(shuffled)
    assert lottery.draw(shuffled, seed=seed, places=room) == lottery.draw(sorted(ids), seed=seed, places=room)


@settings(max_examples=150, deadline=None)
@given(applicants, seeds, places)
def test_every_applicant_is_drawn_exactly_once_and_the_winners_fill_the_places(ids, seed, room):
    drawn = lottery.draw(ids, seed=seed, places=room)

    assert sorted(drawn.order) == sorted(ids)
    assert len(drawn.winners) == min(room, len(ids))
    assert drawn.winners + drawn.waiting == drawn.order
    assert not set(drawn.winners) & set(drawn.waiting)


@settings(max_examples=60, deadline=None)
@given(applicants.filter(lambda s: len(s) >= 2), seeds, places)
def test_more_places_only_add_winners_from_the_top_of_the_waiting_list(ids, seed, room):
    fewer = lottery.draw(ids, seed=seed, places=room)
    more = lottery.draw(ids, seed=seed, places=room + 1)
    assert more.order == fewer.order
    assert more.winners[: len(fewer.winners)] == fewer.winners


def test_each_applicant_wins_about_as_often_as_any_other_over_many_seeds():
    """Fairness: over 4,000 seeds, each of 10 applicants wins one of 3 places about 30 % of the time (a binomial
    with sd ~0.7 %: the bounds are more than seven of them away), whatever its id."""
    ids = [3, 17, 42, 99, 100, 512, 777, 1000, 4096, 65536]
    wins: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    for seed in range(4000):
        drawn = lottery.draw(ids, seed=seed, places=3)
        wins.update(drawn.winners)
        firsts[drawn.order[0]] += 1
    for player in ids:
        assert 0.25 < wins[player] / 4000 < 0.35
        assert 0.06 < firsts[player] / 4000 < 0.14


def test_a_known_seed_draws_a_known_order_so_a_draw_can_be_checked_anywhere():
    assert (
        lottery.draw([1, 2, 3, 4, 5], seed=2026, places=2).order
        == lottery.draw([5, 4, 3, 2, 1], seed=2026, places=2).order
    )
    assert lottery.draw([1, 2, 3, 4, 5], seed=2026, places=2).order == (2, 5, 4, 3, 1)


def test_a_seed_out_of_range_or_negative_places_are_refused():
    with pytest.raises(ValueError):
        lottery.draw([1], seed=-1, places=1)
    with pytest.raises(ValueError):
        lottery.draw([1], seed=lottery.SEED_LIMIT, places=1)
    with pytest.raises(ValueError):
        lottery.draw([1], seed=1, places=-1)


def test_a_fresh_seed_is_within_the_range_json_holds_exactly():
    assert all(0 <= lottery.new_seed() < lottery.SEED_LIMIT for _ in range(100))
