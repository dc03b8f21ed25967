"""The live app's tests: an event with a round paired, its staff by role, API clients for them."""

from __future__ import annotations

import datetime

import pytest

from tests.conftest import _client_for
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.people import ROLES
from tournaments import services
from tournaments.services import staff


@pytest.fixture
def staff_users(django_user_model, organiser):
    users = {"organiser": organiser}
    for username in ROLES:
        users[username] = django_user_model.objects.create_user(username=username, password="pw")
    return users


@pytest.fixture
def duel(organiser, staff_users):
    """A Deck Masters event (1v1) with four players, round 1 paired, and a staff member of every role."""
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    for name in ("Yugi", "Joey", "Kaiba", "Mai"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    for username, role in ROLES.items():
        staff.staff_add(event=event, username=username, role=role, by=organiser)
    services.round_start(event=event, by=organiser, seed=3)
    return event


@pytest.fixture
def api_as(staff_users):
    """``api_as("jo")``: an API client of that staff member (token auth)."""
    return lambda username: _client_for(staff_users[username])
