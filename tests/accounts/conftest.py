"""Personas and events for the player's pages: players with accounts, an open event and a running duel."""

from __future__ import annotations

import datetime

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tournaments import services


@pytest.fixture
def users(django_user_model):
    """``users("ash")``: a signed-up user with a player profile named after them (password ``pw``)."""

    def make(name: str, *, display_name: str | None = None):
        user = django_user_model.objects.create_user(username=name, password="pw", email=f"{name}@example.org")
        PlayerFactory(user=user, display_name=display_name or name.title())
        return user

    return make


def signed_in(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def open_event(organiser):
    """A Deck Masters event taking self-registrations, with room for two."""
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4), venue="Battle City Games",
    )  # fmt: skip
    services.event_update(event=event, by=organiser, registration_open=True, capacity=2)
    event.refresh_from_db()
    return event


@pytest.fixture
def duel(organiser, users):
    """A running 1v1 event with player reports on: Ash and Gary (accounts) at table 1 of round 1, two walk-ins."""
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    services.event_update(event=event, by=organiser, player_reports=True)
    ash, gary = users("ash"), users("gary")
    for user in (ash, gary):
        RegistrationFactory(event=event, player=user.player)
    for name in ("Joey", "Mai"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    round_ = services.round_start(event=event, by=organiser, seed=1)
    ash_seat = round_.seats.select_related("pod").get(player=ash.player)
    opponent = ash_seat.pod.seats.exclude(player=ash.player).get()
    if opponent.player_id != gary.player.pk:
        services.round_swap(
            event=event, round_number=1, player_a=gary.player.pk, player_b=opponent.player_id, by=organiser
        )
    event.refresh_from_db()
    return event, ash, gary


def table_of(event, user) -> int:
    """The table number of the user's seat in the event's latest round."""
    round_ = event.rounds.order_by("-number").first()
    return round_.seats.select_related("pod").get(player=user.player).pod.table_number
