"""The decks API and pages take as many queries after 50 rounds as after 5, and as many for a long deck history
as for a single version.

Every player of an event built in bulk by :mod:`tests.support.played_event` has ``versions`` deck versions,
the latest of every other player ruled on by a judge.  Each read must make exactly the number of queries
below: the request's own reads (session or token, the event, the registration, the rows), not one per round,
player or version.  A change that makes a read cost more queries changes its number here, on purpose.
"""

from __future__ import annotations

import pytest

from decks.models import DeckRecheck, DeckVerdictOverride, DeckVersion
from tests.conftest import _client_for
from tests.support.played_event import ROUNDS, PlayedEvent, build_played_event, read_counting, signed_in
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

#: A single deck version per player, and a history longer than the ten the player's page lists.
VERSIONS = [1, 12]


def _decks(played: PlayedEvent, *, versions: int, judge) -> None:
    registrations = list(Registration.objects.filter(event=played.event).order_by("pk"))
    DeckVersion.objects.bulk_create(
        DeckVersion(
            registration=r, number=n, decklist=f"{n} Ember Whelp", roles={}, status="legal", card_count=n, violations=[]
        )
        for r in registrations
        for n in range(1, versions + 1)
    )
    for registration in registrations[::2]:
        latest = DeckVersion.objects.get(registration=registration, number=versions)
        latest.ruling = DeckVerdictOverride.objects.create(version=latest, status="illegal", reason="marked", by=judge)
        latest.save(update_fields=["ruling"])
    DeckRecheck.objects.create(event=played.event, total=len(registrations), done=len(registrations))


@pytest.fixture(params=[(r, v) for r in ROUNDS for v in VERSIONS], ids=lambda p: f"{p[0]}-rounds-{p[1]}-versions")
def played(request, organiser):
    rounds, versions = request.param
    played = build_played_event(organiser=organiser, rounds=rounds)
    _decks(played, versions=versions, judge=organiser)
    return played


def _alice(played: PlayedEvent) -> Registration:
    return Registration.objects.get(event=played.event, player=played.alice)


# --- the API ----------------------------------------------------------------------------------------------------


def test_a_registrations_deck_versions_make_the_same_queries_whatever_the_rounds_and_versions(
    played, api, django_assert_num_queries
):
    url = f"/api/v1/events/{played.event.pk}/registrations/{_alice(played).pk}/decks/"
    read_counting(api, url, 3, django_assert_num_queries)


def test_a_players_own_deck_versions_make_the_same_queries_whatever_the_rounds_and_versions(
    played, django_assert_num_queries
):
    url = f"/api/v1/events/{played.event.pk}/registrations/{_alice(played).pk}/decks/"
    read_counting(_client_for(played.alice.user), url, 3, django_assert_num_queries)


def test_a_registrations_hidden_deck_versions_make_the_same_queries_whatever_the_rounds_and_versions(
    played, anon_api, django_assert_num_queries
):
    url = f"/api/v1/events/{played.event.pk}/registrations/{_alice(played).pk}/decks/"
    read_counting(anon_api, url, 2, django_assert_num_queries)


def test_a_registrations_deck_versions_read_by_another_user_make_the_same_queries_whatever_the_rounds_and_versions(
    played, outsider_api, django_assert_num_queries
):
    """Signed in, neither the player nor staff: their roles at the event are read once, not once per version."""
    url = f"/api/v1/events/{played.event.pk}/registrations/{_alice(played).pk}/decks/"
    read_counting(outsider_api, url, 4, django_assert_num_queries)


def test_the_events_decks_make_the_same_queries_whatever_the_rounds_and_versions(
    played, api, django_assert_num_queries
):
    read_counting(api, f"/api/v1/events/{played.event.pk}/decks/", 4, django_assert_num_queries)


def test_the_events_decks_read_anonymously_make_the_same_queries_whatever_the_rounds_and_versions(
    played, anon_api, django_assert_num_queries
):
    read_counting(anon_api, f"/api/v1/events/{played.event.pk}/decks/", 3, django_assert_num_queries)


def test_the_events_decks_read_by_another_user_make_the_same_queries_whatever_the_rounds_and_versions(
    played, outsider_api, django_assert_num_queries
):
    read_counting(outsider_api, f"/api/v1/events/{played.event.pk}/decks/", 5, django_assert_num_queries)


def test_the_events_published_decks_make_the_same_queries_whatever_the_rounds_and_versions(
    played, anon_api, django_assert_num_queries
):
    played.event.decklists_public = True
    played.event.save(update_fields=["decklists_public"])
    read_counting(anon_api, f"/api/v1/events/{played.event.pk}/decks/", 3, django_assert_num_queries)


def test_the_latest_recheck_makes_the_same_queries_whatever_the_rounds_and_versions(
    played, api, django_assert_num_queries
):
    read_counting(api, f"/api/v1/events/{played.event.pk}/decks/recheck/", 2, django_assert_num_queries)


# --- the pages ---------------------------------------------------------------------------------------------------


def test_the_organisers_decks_page_makes_the_same_queries_whatever_the_rounds_and_versions(
    played, organiser, django_assert_num_queries
):
    read_counting(signed_in(organiser), f"/dashboard/events/{played.event.pk}/decks/", 7, django_assert_num_queries)


def test_the_recheck_progress_makes_the_same_queries_whatever_the_rounds_and_versions(
    played, organiser, django_assert_num_queries
):
    read_counting(
        signed_in(organiser), f"/dashboard/events/{played.event.pk}/decks/progress/", 6, django_assert_num_queries
    )


def test_the_players_deck_page_makes_the_same_queries_whatever_the_rounds_and_versions(
    played, django_assert_num_queries
):
    read_counting(signed_in(played.alice.user), f"/events/{played.event.pk}/deck/", 7, django_assert_num_queries)


def test_a_players_deck_page_read_by_the_organiser_makes_the_same_queries_whatever_the_rounds_and_versions(
    played, organiser, django_assert_num_queries
):
    url = f"/events/{played.event.pk}/deck/?registration={_alice(played).pk}"
    read_counting(signed_in(organiser), url, 7, django_assert_num_queries)


def test_the_players_deck_status_makes_the_same_queries_whatever_the_rounds_and_versions(
    played, django_assert_num_queries
):
    read_counting(signed_in(played.alice.user), f"/events/{played.event.pk}/deck/status/", 5, django_assert_num_queries)


def test_a_published_decklist_makes_the_same_queries_whatever_the_rounds_and_versions(
    played, client, django_assert_num_queries
):
    played.event.decklists_public = True
    played.event.save(update_fields=["decklists_public"])
    read_counting(client, f"/events/{played.event.pk}/decks/{_alice(played).pk}/", 2, django_assert_num_queries)
