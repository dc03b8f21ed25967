"""The player's side of an invitation: staff entered their record at an event; ``/me/`` (and the event's page)
ask them to accept or decline, and until they accept the event is not theirs."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.accounts.conftest import signed_in
from tests.support.pages import text
from tournaments import services
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def invited(organiser, users):
    """Ash (an account) invited to Duel Night by its organiser; returns ``(event, ash)``."""
    ash = users("ash", display_name="Ash Ketchum")
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4), venue="Battle City Games",
    )  # fmt: skip
    services.registration_create(event=event, by=organiser, player=ash.player)
    return event, ash


def test_me_asks_the_invited_player_to_accept_or_decline_and_keeps_the_event_out_of_their_events(client, invited):
    event, ash = invited
    page = text(signed_in(client, ash).get(reverse("accounts:me")))
    invitations = page[page.index("Invitations") : page.index("Playing now")]
    assert "Duel Night" in invitations and "You are not in it until you accept." in invitations
    assert (
        "Accept the invitation to Duel Night" in invitations and "Decline the invitation to Duel Night" in invitations
    )
    assert "Duel Night" not in page[page.index("Coming up") :]


def test_accepting_on_me_makes_the_event_theirs(client, invited):
    event, ash = invited
    signed_in(client, ash)
    answer = client.post(reverse("accounts:invitation-accept", args=[event.pk]), {"place": "me"})
    assert answer.status_code == 302 and answer["Location"] == reverse("accounts:me") + f"#event-{event.pk}"
    page = text(client.get(reverse("accounts:me")))
    assert "You are registered for Duel Night." in page and "Invitations" not in page
    assert "Registered" in page[page.index("Coming up") :]
    assert Registration.objects.get(event=event, player=ash.player).status == "registered"
    assert AuditEntry.objects.filter(event=event, action="registration.accepted", actor=ash).exists()


def test_declining_on_me_leaves_the_event(client, invited):
    event, ash = invited
    signed_in(client, ash)
    client.post(reverse("accounts:invitation-decline", args=[event.pk]), {"place": "me"})
    page = text(client.get(reverse("accounts:me")))
    assert "You declined the invitation to Duel Night." in page and "Invitations" not in page
    assert "Duel Night" not in page[page.index("Coming up") :]
    assert Registration.objects.get(event=event, player=ash.player).status == "withdrawn"


def test_a_refused_answer_is_said_not_a_server_error(client, invited, organiser):
    event, ash = invited
    services.event_finish(event=event, by=organiser)
    signed_in(client, ash)
    assert "Invitations" not in text(client.get(reverse("accounts:me")))  # nothing left to answer
    client.post(reverse("accounts:invitation-accept", args=[event.pk]), {"place": "me"})
    assert "The event is finished: registration is closed." in text(client.get(reverse("accounts:me")))


def test_the_event_page_asks_the_invited_player_too(client, invited):
    event, ash = invited
    page = text(signed_in(client, ash).get(reverse("public:event", args=[event.pk])))
    assert "The staff of Duel Night entered you for this event." in page and "Accept" in page
    assert "You have withdrawn" not in page and "Registered" not in page
    answer = client.post(reverse("accounts:invitation-accept", args=[event.pk]), {"place": "event"})
    assert answer["Location"] == reverse("public:event", args=[event.pk])


def test_nobody_else_sees_the_invitation(client, invited, users):
    event, ash = invited
    page = text(signed_in(client, users("gary")).get(reverse("public:event", args=[event.pk])))
    assert "Ash" not in page
    client.post(reverse("accounts:invitation-accept", args=[event.pk]), {"place": "me"})
    assert Registration.objects.get(event=event, player=ash.player).status == "invited"
