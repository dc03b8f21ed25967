"""Staff who enter a player record linked to someone's account invite that player: the player decides.

The registration waits, ``invited``, outside the event (no player list, pairing or check-in has it) until the
player accepts it on their page or through the API; they may decline it, and staff may withdraw it.  A walk-in's
record (no account), and the staff member's own, are registered at once as before.  Every step is in the audit
trail.
"""

from __future__ import annotations

import pytest

from core.exceptions import Conflict, PermissionDenied
from tests.conftest import _client_for
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event
from tests.support.pages import text, url
from tests.support.people import as_user
from tournaments import selectors, services
from tournaments.models import AuditEntry, Registration
from tournaments.selectors import people as people_selectors
from tournaments.services import registrations

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def ash(django_user_model):
    """A player with an account, and a player ID organisers may type."""
    user = django_user_model.objects.create_user(username="ash", password="pw")
    return PlayerFactory(user=user, display_name="Ash Ketchum", external_id="POP-1")


@pytest.fixture
def event(organiser):
    """Four walk-ins, checked in: round 1 pairs them."""
    event = make_event(organiser, 0)
    for i in range(4):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"Walk-in {i}"), checked_in=True)
    return event


def actions(event) -> list[str]:
    """The event's audit trail since it was made."""
    entries = AuditEntry.objects.filter(event=event).exclude(action="event.created").order_by("id")
    return list(entries.values_list("action", flat=True))


# --- the service ---------------------------------------------------------------------------------------------


def test_entering_an_account_holders_record_invites_them_and_leaves_them_out_of_the_event(organiser, ash, event):
    invited = services.registration_create(event=event, by=organiser, player=ash, checked_in=True)

    assert (invited.status, invited.checked_in, invited.late_entry_round) == ("invited", False, None)
    assert actions(event) == ["registration.invited"]
    assert invited not in selectors.event_registrations(event=event, invitations=False)
    assert list(people_selectors.player_search(event=event.pk).filter(pk=ash.pk)) == []
    assert selectors.event_list().get(pk=event.pk).player_count == 4
    with pytest.raises(Conflict) as refused:
        services.registration_check_in(registration=invited, by=organiser)
    assert refused.value.code == "not_registered"
    round_ = services.round_start(event=event, by=organiser, seed=1)
    assert ash.pk not in set(round_.seats.values_list("player_id", flat=True))


def test_a_player_id_that_names_an_account_holders_record_invites_them_too(organiser, ash, event):
    invited = services.registration_create(event=event, by=organiser, display_name="Whoever", external_id="POP-1")
    assert invited.player_id == ash.pk and invited.status == "invited"


def test_a_walk_ins_record_and_the_organisers_own_are_registered_at_once(organiser, event):
    walk_in = services.registration_create(event=event, by=organiser, display_name="Misty", checked_in=True)
    record = PlayerFactory(display_name="Brock")
    known = services.registration_create(event=event, by=organiser, player=record)
    own = services.registration_create(event=event, by=organiser, player=PlayerFactory(user=organiser))
    assert [walk_in.status, known.status, own.status] == ["registered"] * 3 and walk_in.checked_in
    assert actions(event) == ["registration.created"] * 3


def test_the_player_accepts_and_then_plays_like_anyone_the_staff_entered(organiser, ash, event, outsider):
    invited = services.registration_create(event=event, by=organiser, player=ash)
    with pytest.raises(PermissionDenied):
        services.registration_accept(registration=invited, by=outsider)
    with pytest.raises(PermissionDenied):
        services.registration_accept(registration=invited, by=organiser)

    accepted = services.registration_accept(registration=invited, by=ash.user)
    again = services.registration_accept(registration=invited, by=ash.user)

    assert accepted.status == again.status == "registered" and not accepted.checked_in
    assert actions(event) == ["registration.invited", "registration.accepted"]
    services.registration_check_in(registration=accepted, by=organiser)
    round_ = services.round_start(event=event, by=organiser, seed=1)
    assert ash.pk in set(round_.seats.values_list("player_id", flat=True))


def test_accepting_past_the_capacity_is_a_place_as_the_staff_would_have_given(organiser, ash, event):
    services.event_update(event=event, by=organiser, capacity=4)
    invited = services.registration_create(event=event, by=organiser, player=ash)
    assert services.registration_accept(registration=invited, by=ash.user).status == "registered"


def test_the_player_declines_or_staff_withdraw_the_invitation_even_once_play_started(organiser, ash, event):
    invited = services.registration_create(event=event, by=organiser, player=ash)
    declined = services.registration_decline(registration=invited, by=ash.user)
    assert declined.status == "withdrawn"
    assert services.registration_decline(registration=invited, by=ash.user).status == "withdrawn"  # once
    with pytest.raises(Conflict) as refused:
        services.registration_accept(registration=invited, by=ash.user)
    assert refused.value.code == "not_invited"

    services.round_start(event=event, by=organiser, seed=1)
    again = services.registration_create(event=event, by=organiser, player=ash)  # a new invitation
    assert again.pk == invited.pk and again.status == "invited"
    withdrawn = registrations.registration_withdraw(registration=again, by=organiser)
    assert withdrawn.status == "withdrawn"
    assert actions(event)[-4:] == [
        "registration.declined", "round.started", "registration.invited", "registration.invitation_withdrawn",
    ]  # fmt: skip


def test_an_invitation_is_not_sent_twice_and_a_registered_player_declines_nothing(organiser, ash, event):
    invited = services.registration_create(event=event, by=organiser, player=ash)
    with pytest.raises(Conflict) as twice:
        services.registration_create(event=event, by=organiser, player=ash)
    assert twice.value.code == "already_registered" and "invited" in twice.value.message
    services.registration_accept(registration=invited, by=ash.user)
    with pytest.raises(Conflict) as refused:
        services.registration_decline(registration=invited, by=ash.user)
    assert refused.value.code == "not_invited"


def test_accepting_once_the_event_is_finished_is_refused(organiser, ash, event):
    invited = services.registration_create(event=event, by=organiser, player=ash)
    services.event_finish(event=event, by=organiser)
    with pytest.raises(Conflict) as refused:
        services.registration_accept(registration=invited, by=ash.user)
    assert refused.value.code == "event_finished"


def test_registering_oneself_takes_up_the_invitation(organiser, ash, event):
    services.event_update(event=event, by=organiser, registration_open=True)
    invited = services.registration_create(event=event, by=organiser, player=ash)
    mine = registrations.registration_self_register(event=event, by=ash.user)
    assert mine.pk == invited.pk and mine.status == "registered" and mine.self_registered


# --- the API -------------------------------------------------------------------------------------------------


def test_the_api_answers_invited_shows_it_to_the_staff_and_the_player_only_and_they_answer_it(
    api, anon_api, outsider_api, ash, event
):
    base = f"/api/v1/events/{event.pk}/registrations/"
    created = api.post(base, {"player": ash.pk, "checked_in": True}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert (body["status"], body["checked_in"], body["player"]["id"]) == ("invited", False, ash.pk)
    rid = body["id"]

    assert ash.pk in {r["player"]["id"] for r in api.get(base).json()["results"]}
    for reader in (anon_api, outsider_api):
        assert ash.pk not in {r["player"]["id"] for r in reader.get(base).json()["results"]}
        assert reader.get("/api/v1/players/", {"event": event.pk}).json()["count"] == 4
    mine = _client_for(ash.user).get("/api/v1/me/").json()["upcoming"]
    assert [(e["event"]["id"], e["registration"]["status"]) for e in mine] == [(event.pk, "invited")]

    assert outsider_api.post(f"{base}{rid}/accept/").status_code == 403
    assert api.post(f"{base}{rid}/accept/").status_code == 403  # the organiser does not accept for the player
    accepted = _client_for(ash.user).post(f"{base}{rid}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "registered"
    refused = _client_for(ash.user).post(f"{base}{rid}/decline/")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_invited"
    assert ash.pk in {r["player"]["id"] for r in anon_api.get(base).json()["results"]}


def test_through_the_api_the_player_declines_and_staff_withdraw_an_invitation(api, ash, event):
    base = f"/api/v1/events/{event.pk}/registrations/"
    rid = api.post(base, {"player": ash.pk}, format="json").json()["id"]
    declined = _client_for(ash.user).post(f"{base}{rid}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "withdrawn"
    again = api.post(base, {"display_name": "Ash", "external_id": "POP-1"}, format="json")
    assert again.json()["status"] == "invited"
    withdrawn = api.post(f"{base}{rid}/withdraw/")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    late = _client_for(ash.user).post(f"{base}{rid}/accept/")
    assert late.status_code == 409 and late.json()["error"]["code"] == "not_invited"


# --- the dashboard ---------------------------------------------------------------------------------------------


def test_the_dashboard_says_it_invited_the_player_lists_the_invitation_apart_and_withdraws_it(
    client, organiser, ash, event
):
    as_user(client, organiser)
    added = client.post(url("registration-add", event.pk), {"display_name": "Ash", "external_id": "POP-1"})
    assert added.status_code == 302
    page = client.get(url("event-detail", event.pk))
    said = text(page)
    assert "Invited Ash Ketchum: they accept on their page" in said
    html = page.content.decode()
    rows = html[html.index('id="players-rows"') : html.index('id="invited"')]
    invited = html[html.index('id="invited"') :]
    assert "Ash Ketchum" not in rows and "Ash Ketchum" in invited and "withdraw the invitation" in invited
    assert "4 active of 4" in said
    registration = Registration.objects.get(player=ash)
    gone = client.post(url("registration-withdraw", event.pk, registration.pk))
    assert gone.status_code == 302
    assert "The invitation of Ash Ketchum is withdrawn." in text(client.get(url("event-detail", event.pk)))
    assert Registration.objects.get(player=ash).status == "withdrawn"


def test_inviting_from_the_dashboard_with_htmx_updates_the_invitations_and_says_so(client, organiser, ash, event):
    as_user(client, organiser)
    answer = client.post(url("registration-add", event.pk), {"display_name": "Ash", "external_id": "POP-1"}, **HTMX)
    html = answer.content.decode()
    assert answer.status_code == 200
    assert '<div id="invited" hx-swap-oob="true">' in html and "Ash Ketchum" in html[html.index('id="invited"') :]
    assert "Invited Ash Ketchum: they accept on their page." in html


def test_the_audit_page_words_the_invitation_and_its_answer(client, organiser, ash, event):
    invited = services.registration_create(event=event, by=organiser, player=ash)
    services.registration_accept(registration=invited, by=ash.user)
    said = text(as_user(client, organiser).get(url("event-audit", event.pk)))
    assert "Invited by staff" in said and "Invitation accepted by the player" in said


def test_the_decks_page_leaves_an_invitation_out_until_it_is_accepted(client, organiser, ash, event):
    invited = services.registration_create(event=event, by=organiser, player=ash)
    page = as_user(client, organiser).get(f"/dashboard/events/{event.pk}/decks/")
    assert "Ash Ketchum" not in page.content.decode() and "4 without a deck" in text(page)
    services.registration_accept(registration=invited, by=ash.user)
    page = client.get(f"/dashboard/events/{event.pk}/decks/")
    assert "Ash Ketchum" in page.content.decode() and "5 without a deck" in text(page)
