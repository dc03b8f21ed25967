"""The floor's tests: an event under way (round 1 paired, four tables), its staff by role, a second judge, and
accounts for the players of tables 1 and 2."""

from __future__ import annotations

import pytest

from tests.support.events import make_event
from tests.support.people import with_staff
from tournaments import services
from tournaments.models import Player
from tournaments.services import staff


@pytest.fixture
def crew(django_user_model, organiser):
    names = ("cora", "sam", "jo", "cass", "jen", "pat", "kim", "eve")
    return {"organiser": organiser} | {
        n: django_user_model.objects.create_user(username=n, password="pw") for n in names
    }


@pytest.fixture
def floor_event(organiser, crew):
    """Eight players, round 1 paired: pat and kim at table 1, eve at table 2; jo and jen are judges."""
    event = make_event(organiser, 8, rounds=3)
    with_staff(event, crew)
    staff.staff_add(event=event, username="jen", role="judge", by=organiser)
    round1 = services.round_start(event=event, by=organiser, seed=1)
    seats = {
        pod.table_number: list(pod.seats.order_by("seat_order").values_list("player_id", flat=True))
        for pod in round1.pods.all()
    }
    for name, player in (("pat", seats[1][0]), ("kim", seats[1][1]), ("eve", seats[2][0])):
        Player.objects.filter(pk=player).update(user=crew[name])
    return event


@pytest.fixture
def wsgi_in_test_transaction(db):
    """Requests sent through the WSGI application (the schema-checked :class:`~tests.support.api_checks.Api`) run in
    the test's transaction: the end of a request does not close the connection (as in ``tests/api``)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
