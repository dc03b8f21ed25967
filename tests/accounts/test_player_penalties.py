"""The player's own penalties on /me/, on the event page's panel and on a finished event: what, for what, in
which round, rescinded ones marked; the judges' notes and other players' penalties stay off these pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.accounts.conftest import signed_in
from tests.support.events import report_all
from tests.support.pages import text
from tournaments import services

pytestmark = pytest.mark.django_db


def give(event, user, by, **values):
    registration = event.registrations.get(player=user.player)
    values = {"penalty": "warning", "infraction": "Drawing extra cards"} | values
    return services.penalty_issue(event=event, registration_id=registration.pk, by=by, **values)


def test_a_player_sees_their_own_penalties_at_the_running_event_newest_first(client, duel, organiser):
    event, ash, gary = duel
    warning = give(event, ash, organiser, note="Judge's eyes only.")
    give(event, ash, organiser, penalty="game_loss", infraction="Marked sleeves")
    give(event, gary, organiser, penalty="caution", infraction="Slow play")
    services.penalty_rescind(penalty=warning, by=organiser, reason="Misheard.")
    signed_in(client, ash)
    for page in (text(client.get(reverse("accounts:me"))), text(client.get(reverse("public:event", args=[event.pk])))):
        assert "Your penalties" in page
        assert "Game loss: Marked sleeves · round 1" in page
        assert "Warning: Drawing extra cards · round 1 rescinded" in page
        assert page.index("Game loss") < page.index("Warning:")
        assert "Slow play" not in page and "Judge's eyes only." not in page


def test_a_player_without_penalties_sees_no_penalties_heading(client, duel, organiser):
    event, ash, gary = duel
    give(event, gary, organiser)
    signed_in(client, ash)
    assert "Your penalties" not in text(client.get(reverse("accounts:me")))


def test_a_finished_events_card_on_me_keeps_the_players_penalties(client, duel, organiser):
    event, ash, _ = duel
    give(event, ash, organiser, penalty="prize_penalty", infraction="Late decklist")
    report_all(event, organiser)
    services.event_finish(event=event, by=organiser)
    signed_in(client, ash)
    page = text(client.get(reverse("accounts:me")))
    assert "Played" in page and "Prize penalty: Late decklist · round 1" in page
