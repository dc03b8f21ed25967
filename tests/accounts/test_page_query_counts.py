"""The player's pages take as many queries after 50 rounds as after 5.

Each page is read at 5 and at 50 played rounds (eight players, built in bulk by
:mod:`tests.support.played_event`, with staff and penalties) and must make exactly the same number of
queries: the number below, which counts the page's own reads (session, player, registrations, matches,
standings, penalties) and not one query per round, table or player. A change that makes a page cost more
queries changes its number here, on purpose.
"""

from __future__ import annotations

import pytest

from tests.support.played_event import (
    ROUNDS,
    add_staff_penalties_and_audit,
    build_played_event,
    read_counting,
    signed_in,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(params=ROUNDS, ids=lambda n: f"{n}-rounds")
def played(request, organiser):
    """A played event with staff and penalties (one of them Alice's)."""
    return add_staff_penalties_and_audit(build_played_event(organiser=organiser, rounds=request.param), organiser)


def test_me_makes_the_same_queries_whatever_the_number_of_rounds(played, django_assert_num_queries):
    """The player's page: the event's panel with their table, its clock (one), its report, its judge call (one),
    their history and penalty; their seasons, ratings and rating history (three)."""
    read_counting(signed_in(played.alice.user), "/me/", 26, django_assert_num_queries)


def test_me_of_the_organiser_makes_the_same_queries_whatever_the_number_of_rounds(
    played, organiser, django_assert_num_queries
):
    """No player profile: the events they run, linked to their dashboards."""
    read_counting(signed_in(organiser), "/me/", 6, django_assert_num_queries)


def test_the_check_in_page_makes_the_same_queries_whatever_the_number_of_rounds(
    played, client, django_assert_num_queries
):
    read_counting(client, f"/events/{played.event.pk}/check-in/", 1, django_assert_num_queries)


def test_the_check_in_page_of_a_player_makes_the_same_queries_whatever_the_number_of_rounds(
    played, django_assert_num_queries
):
    """The player's panel, its table's judge call included."""
    read_counting(signed_in(played.alice.user), f"/events/{played.event.pk}/check-in/", 22, django_assert_num_queries)


def test_the_claim_page_makes_the_same_queries_whatever_the_number_of_rounds(played, django_assert_num_queries):
    read_counting(signed_in(played.alice.user), "/claim/", 5, django_assert_num_queries)
