"""The API's reads of an event take as many queries after 50 rounds as after 5.

Each list endpoint is read at 5 and at 50 played rounds (eight players, built in bulk by
:mod:`tests.support.played_event`) and must make exactly the same number of queries: the number below,
which counts the request's own reads (token, event, the list's count and its page of rows) and not one query per
round, table or player. A change that makes an answer cost more queries changes its number here, on purpose.
"""

from __future__ import annotations

import pytest

from tests.conftest import _client_for
from tests.support.played_event import ROUNDS, add_staff_penalties_and_audit, build_played_event, read_counting

pytestmark = pytest.mark.django_db


@pytest.fixture(params=ROUNDS, ids=lambda n: f"{n}-rounds")
def played(request, organiser):
    return build_played_event(organiser=organiser, rounds=request.param)


@pytest.fixture(params=ROUNDS, ids=lambda n: f"{n}-rounds")
def staffed(request, organiser):
    """A played event with staff, penalties and its rounds' audit trail."""
    return add_staff_penalties_and_audit(build_played_event(organiser=organiser, rounds=request.param), organiser)


# Before the rounds' tables were loaded for all rounds at once, the list made 4 + 3 queries per round
# (tables, seats, open reports): 19 after 5 rounds, 154 after 50.  Paginated, it counts the rounds too.
def test_the_rounds_list_makes_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/events/{played.event.pk}/rounds/", 8, django_assert_num_queries)


def test_the_rounds_list_read_anonymously_makes_the_same_queries_whatever_the_number_of_rounds(
    played, anon_api, django_assert_num_queries
):
    read_counting(anon_api, f"/api/v1/events/{played.event.pk}/rounds/", 7, django_assert_num_queries)


def test_a_round_makes_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    latest = played.event.planned_rounds
    read_counting(api, f"/api/v1/events/{played.event.pk}/rounds/{latest}/", 7, django_assert_num_queries)


def test_the_first_round_makes_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/events/{played.event.pk}/rounds/1/", 6, django_assert_num_queries)


def test_the_standings_make_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/events/{played.event.pk}/standings/", 3, django_assert_num_queries)


def test_the_registrations_make_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/events/{played.event.pk}/registrations/", 6, django_assert_num_queries)


def test_the_event_list_makes_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    read_counting(api, "/api/v1/events/", 3, django_assert_num_queries)


def test_me_makes_the_same_queries_whatever_the_number_of_rounds(played, django_assert_num_queries):
    # 16: the account's language setting is one of them.
    read_counting(_client_for(played.alice.user), "/api/v1/me/", 16, django_assert_num_queries)


def test_the_formats_make_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    read_counting(api, "/api/v1/formats/", 1, django_assert_num_queries)


def test_the_players_make_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/players/?event={played.event.pk}", 3, django_assert_num_queries)


def test_an_event_makes_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/events/{played.event.pk}/", 3, django_assert_num_queries)


def test_the_structure_makes_the_same_queries_whatever_the_number_of_rounds(played, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/events/{played.event.pk}/structure/", 4, django_assert_num_queries)


def test_the_staff_make_the_same_queries_whatever_the_number_of_rounds(staffed, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/events/{staffed.event.pk}/staff/", 4, django_assert_num_queries)


def test_the_audit_trail_makes_the_same_queries_whatever_the_number_of_rounds(staffed, api, django_assert_num_queries):
    """The trail grows with the rounds; its first page costs the same."""
    read_counting(api, f"/api/v1/events/{staffed.event.pk}/audit/", 4, django_assert_num_queries)


def test_the_audit_trail_of_results_makes_the_same_queries_whatever_the_number_of_rounds(
    staffed, api, django_assert_num_queries
):
    read_counting(api, f"/api/v1/events/{staffed.event.pk}/audit/?kind=results", 4, django_assert_num_queries)


def test_the_penalties_make_the_same_queries_whatever_the_number_of_rounds(staffed, api, django_assert_num_queries):
    read_counting(api, f"/api/v1/events/{staffed.event.pk}/penalties/", 4, django_assert_num_queries)


def test_a_players_own_penalties_make_the_same_queries_whatever_the_number_of_rounds(
    staffed, django_assert_num_queries
):
    read_counting(
        _client_for(staffed.alice.user), f"/api/v1/events/{staffed.event.pk}/penalties/", 5, django_assert_num_queries
    )


def test_the_counts_do_not_grow_with_the_number_of_players(organiser, api, django_assert_num_queries):
    """Five times the players, the same queries (the rounds list and /me/, which read every table and seat)."""
    played = build_played_event(organiser=organiser, rounds=5, players=40)
    read_counting(api, f"/api/v1/events/{played.event.pk}/rounds/", 8, django_assert_num_queries)
    read_counting(api, f"/api/v1/events/{played.event.pk}/registrations/", 6, django_assert_num_queries)
    read_counting(_client_for(played.alice.user), "/api/v1/me/", 16, django_assert_num_queries)
