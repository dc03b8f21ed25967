"""Stored standings: asked for after every change, recomputed without holding up reports, swept when left stale."""

from __future__ import annotations

import pytest
from django.db.models import F

from tests.factories import EventFactory, RegistrationFactory
from tournaments import readers, services
from tournaments.models import Event, Standing

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(organiser):
    event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=3)
    for _ in range(6):
        RegistrationFactory(event=event)
    round_ = services.round_start(event=event, by=organiser, seed=5)
    for pod in round_.pods.filter(is_bye=False).prefetch_related("seats"):
        a, b = (s.player_id for s in pod.seats.all())
        services.pod_result_report(
            event=event, round_number=1, table_number=pod.table_number, placements={a: 1, b: 2}, by=organiser
        )
    services.standings_recompute(event_id=event.pk)
    event.refresh_from_db()
    assert event.standings_current
    return event


def test_the_sweep_recomputes_standings_older_than_their_results(played):
    # What a lost request leaves: the results moved on, the stored standings did not.
    Event.objects.filter(pk=played.pk).update(results_version=F("results_version") + 1)
    played.refresh_from_db()
    assert not played.standings_current
    assert readers.standings_sweep() == 1
    played.refresh_from_db()
    assert played.standings_current
    assert readers.standings_sweep() == 0


def test_a_recompute_that_read_older_results_than_the_stored_standings_writes_nothing(played):
    newer = played.results_version + 5
    Event.objects.filter(pk=played.pk).update(standings_version=newer)
    Standing.objects.filter(event=played).update(points=99)
    assert services.standings_recompute(event_id=played.pk) == newer
    assert set(Standing.objects.filter(event=played).values_list("points", flat=True)) == {99}


def test_recomputing_a_deleted_event_does_nothing(played):
    event_id = played.pk
    played.delete()
    assert services.standings_recompute(event_id=event_id) == 0
