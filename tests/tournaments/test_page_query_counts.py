"""An event's pages take as many queries after 50 rounds as after 5.

Each page is read at 5 and at 50 played rounds (eight players, built in bulk by
:mod:`tests.support.played_event`) and must make exactly the same number of queries: the number below, which
counts the page's own reads (session, event, the round shown, standings) and not one query per
round, table or player. A change that makes a page cost more queries changes its number here, on
purpose.
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
    return build_played_event(organiser=organiser, rounds=request.param)


@pytest.fixture(params=ROUNDS, ids=lambda n: f"{n}-rounds")
def staffed(request, organiser):
    """A played event with staff, penalties and its rounds' audit trail."""
    return add_staff_penalties_and_audit(build_played_event(organiser=organiser, rounds=request.param), organiser)


def test_the_public_event_page_makes_the_same_queries_whatever_the_number_of_rounds(
    played, client, django_assert_num_queries
):
    # 9: the cut line and the structure card count the players entered (eight: no cut, so no standings read).
    read_counting(client, f"/events/{played.event.pk}/", 9, django_assert_num_queries)


def test_the_public_event_page_of_a_player_makes_the_same_queries_whatever_the_number_of_rounds(
    played, django_assert_num_queries
):
    """A signed-in player also gets their panel: their table, its clock, its report, its judge call, their history;
    and the cut line."""
    read_counting(signed_in(played.alice.user), f"/events/{played.event.pk}/", 32, django_assert_num_queries)


def test_the_pairings_make_the_same_queries_whatever_the_number_of_rounds(played, client, django_assert_num_queries):
    read_counting(client, f"/events/{played.event.pk}/pairings/", 5, django_assert_num_queries)


def test_an_earlier_rounds_pairings_make_the_same_queries_whatever_the_number_of_rounds(
    played, client, django_assert_num_queries
):
    read_counting(client, f"/events/{played.event.pk}/pairings/?round=2", 5, django_assert_num_queries)


def test_the_pairings_by_name_make_the_same_queries_whatever_the_number_of_rounds(
    played, client, django_assert_num_queries
):
    read_counting(client, f"/events/{played.event.pk}/pairings/by-name/", 5, django_assert_num_queries)


def test_the_public_standings_make_the_same_queries_whatever_the_number_of_rounds(
    played, client, django_assert_num_queries
):
    # 5: the cut line counts the players entered.
    read_counting(client, f"/events/{played.event.pk}/standings/", 5, django_assert_num_queries)


def test_the_dashboard_event_page_makes_the_same_queries_whatever_the_number_of_rounds(
    played, organiser, django_assert_num_queries
):
    read_counting(signed_in(organiser), f"/dashboard/events/{played.event.pk}/", 19, django_assert_num_queries)


def test_an_earlier_round_on_the_dashboard_makes_the_same_queries_whatever_the_number_of_rounds(
    played, organiser, django_assert_num_queries
):
    read_counting(signed_in(organiser), f"/dashboard/events/{played.event.pk}/rounds/2/", 11, django_assert_num_queries)


def test_the_dashboard_event_list_makes_the_same_queries_whatever_the_number_of_rounds(
    played, organiser, django_assert_num_queries
):
    read_counting(signed_in(organiser), "/dashboard/", 4, django_assert_num_queries)


def test_the_home_page_makes_the_same_queries_whatever_the_number_of_rounds(played, client, django_assert_num_queries):
    read_counting(client, "/", 1, django_assert_num_queries)


def test_the_dashboard_standings_make_the_same_queries_whatever_the_number_of_rounds(
    played, organiser, django_assert_num_queries
):
    read_counting(signed_in(organiser), f"/dashboard/events/{played.event.pk}/standings/", 5, django_assert_num_queries)


def test_the_staff_page_makes_the_same_queries_whatever_the_number_of_rounds(
    staffed, organiser, django_assert_num_queries
):
    read_counting(signed_in(organiser), f"/dashboard/events/{staffed.event.pk}/staff/", 5, django_assert_num_queries)


def test_the_audit_trail_makes_the_same_queries_whatever_the_number_of_rounds(
    staffed, organiser, django_assert_num_queries
):
    """The trail grows with the rounds; its first page costs the same."""
    read_counting(signed_in(organiser), f"/dashboard/events/{staffed.event.pk}/audit/", 8, django_assert_num_queries)


def test_the_audit_trail_of_results_makes_the_same_queries_whatever_the_number_of_rounds(
    staffed, organiser, django_assert_num_queries
):
    url = f"/dashboard/events/{staffed.event.pk}/audit/?kind=results"
    read_counting(signed_in(organiser), url, 8, django_assert_num_queries)


def test_the_penalties_page_makes_the_same_queries_whatever_the_number_of_rounds(
    staffed, organiser, django_assert_num_queries
):
    read_counting(
        signed_in(organiser), f"/dashboard/events/{staffed.event.pk}/penalties/", 9, django_assert_num_queries
    )


def test_the_settings_page_makes_the_same_queries_whatever_the_number_of_rounds(
    played, organiser, django_assert_num_queries
):
    read_counting(signed_in(organiser), f"/dashboard/events/{played.event.pk}/settings/", 6, django_assert_num_queries)


def test_the_finish_page_makes_the_same_queries_whatever_the_number_of_rounds(
    played, organiser, django_assert_num_queries
):
    read_counting(signed_in(organiser), f"/dashboard/events/{played.event.pk}/finish/", 6, django_assert_num_queries)


def test_the_correction_page_makes_the_same_queries_whatever_the_number_of_rounds(
    played, organiser, django_assert_num_queries
):
    """An early round's table: every round after it is listed as kept as paired."""
    url = f"/dashboard/events/{played.event.pk}/rounds/2/tables/1/correct/"
    read_counting(signed_in(organiser), url, 10, django_assert_num_queries)


def test_the_new_event_page_makes_the_same_queries_whatever_the_number_of_rounds(
    played, organiser, django_assert_num_queries
):
    read_counting(signed_in(organiser), "/dashboard/events/new/", 3, django_assert_num_queries)


def test_the_pages_do_not_grow_with_the_number_of_players(organiser, client, django_assert_num_queries):
    """Five times the players, the same queries."""
    played = build_played_event(organiser=organiser, rounds=5, players=40)
    event = played.event.pk
    # 10: forty players are cut to eight, so the cut line also reads the standings.
    read_counting(client, f"/events/{event}/", 10, django_assert_num_queries)
    read_counting(client, f"/events/{event}/pairings/", 5, django_assert_num_queries)
    read_counting(client, f"/events/{event}/pairings/by-name/", 5, django_assert_num_queries)
    # 20: with a cut of eight the dashboard's cut line reads the standings (it reuses the recommendation's count).
    read_counting(signed_in(organiser), f"/dashboard/events/{event}/", 20, django_assert_num_queries)
