"""Players who share a name are told apart by player ID on the public pairings pages, as everywhere else."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory, RegistrationFactory
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser):
    event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=3)
    for name in ("Ash Ketch", "ash ketch", "Misty Waters", "Brock Stone"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    services.round_start(event=event, by=organiser, seed=1)
    return event


@pytest.mark.parametrize("page", ["public:pairings", "public:pairings-by-name", "public:event"])
def test_namesakes_carry_their_player_id_and_nobody_else_does(client, event, page):
    html = client.get(reverse(page, args=[event.pk])).content.decode()
    ids = {r.player.display_name: r.player_id for r in event.registrations.select_related("player")}
    assert f"(#{ids['Ash Ketch']})" in html and f"(#{ids['ash ketch']})" in html
    assert f"(#{ids['Misty Waters']})" not in html and f"(#{ids['Brock Stone']})" not in html
