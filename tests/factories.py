from __future__ import annotations

import datetime

import factory

from tournaments.models import Event, Player, Registration


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Player {n:03d}")


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    name = factory.Sequence(lambda n: f"Event {n}")
    format = "deck-masters"
    planned_rounds = 4
    date = datetime.date(2026, 11, 21)
    organiser = factory.SubFactory("tests.factories.UserFactory")


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "auth.User"
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)
    checked_in = True
