"""The player's deck page and the organiser's deck overview."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks.models import DeckRecheck, DeckVersion
from tests.factories import EventFactory, RegistrationFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("card_catalogue")]


@pytest.fixture
def event(organiser):
    return EventFactory(organiser=organiser, format="deck-masters", name="Duel Night")


@pytest.fixture
def yugi(django_user_model, event):
    user = django_user_model.objects.create_user(username="yugi", password="pw")
    return user, RegistrationFactory(event=event, player__user=user, player__display_name="Yugi")


def test_a_player_pastes_a_ydk_and_sees_every_violation(client, yugi, event, django_capture_on_commit_callbacks):
    user, registration = yugi
    client.force_login(user)
    page = client.get(reverse("decks:player-deck", args=[event.pk]))
    assert page.status_code == 200 and "Deck Master" in page.content.decode()
    ydk = "#main\n89631139\n89631139\n89631139\n89631139\n#extra\n!side\n"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("decks:player-deck", args=[event.pk]), {"decklist": ydk, "role_deck_master": "89631139"}
        )
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "is not legal" in html
    assert "main_size" in html and "copy_limit" in html
    assert DeckVersion.objects.get(registration=registration).status == "illegal"


def test_a_pending_verdict_polls_until_it_is_known(client, yugi, event):
    user, registration = yugi
    DeckVersion.objects.create(registration=registration, number=1, decklist="#main\n")
    client.force_login(user)
    fragment = client.get(reverse("decks:player-deck-status", args=[event.pk]))
    assert 'hx-trigger="every 2s"' in fragment.content.decode()


def test_someone_else_cannot_open_a_players_deck_page(client, yugi, event, outsider):
    _, registration = yugi
    client.force_login(outsider)
    url = reverse("decks:player-deck", args=[event.pk]) + f"?registration={registration.pk}"
    assert client.get(url).status_code == 403
    assert client.get(reverse("decks:player-deck", args=[event.pk])).status_code == 403


def test_the_organiser_sees_every_entry_and_rechecks_with_a_progress_bar(
    client, organiser, yugi, event, django_capture_on_commit_callbacks
):
    _, registration = yugi
    RegistrationFactory(event=event, player__display_name="Joey")
    DeckVersion.objects.create(registration=registration, number=1, decklist="#main\n89631139\n")
    client.force_login(organiser)
    page = client.get(reverse("decks:organiser", args=[event.pk])).content.decode()
    assert "Yugi" in page and "Joey" in page and "without a deck" in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("decks:recheck", args=[event.pk]))
    run = DeckRecheck.objects.get()
    assert (run.total, run.done) == (1, 1) and run.finished_at
    progress = client.get(reverse("decks:recheck-progress", args=[event.pk])).content.decode()
    assert "<progress" in progress and "1 illegal" in progress


def test_decklists_are_public_only_once_published(client, organiser, yugi, event):
    _, registration = yugi
    DeckVersion.objects.create(registration=registration, number=1, decklist="#main\n89631139\n")
    url = reverse("decks:decklist", args=[event.pk, registration.pk])
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    client.post(reverse("decks:publish", args=[event.pk]), {"public": "true"})
    client.logout()
    assert "89631139" in client.get(url).content.decode()
    assert "Yugi" in client.get(reverse("public:event", args=[event.pk])).content.decode()
