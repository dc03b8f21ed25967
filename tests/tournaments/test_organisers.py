"""Creating events and player records takes the organiser permission (site staff give it, or the operator opens
organising to everyone with PODIUM_OPEN_ORGANISING); the demo makes no superuser with a published password unless
DEBUG is on."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import override_settings
from rest_framework.test import APIClient

from tests.support.people import token_for
from tournaments import services
from tournaments.models import Event, Player
from tournaments.services import staff

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("closed_organising")]

EVENT = {"name": "Club night", "format": "mintayn-master", "planned_rounds": 3, "date": "2026-12-11"}


@pytest.fixture
def closed_organising(settings):
    settings.PODIUM_OPEN_ORGANISING = False


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def test_a_signed_in_player_may_not_create_events_or_players(django_user_model):
    player = django_user_model.objects.create_user(username="ash", password="pw")
    for url, body in (("/api/v1/events/", EVENT), ("/api/v1/players/", {"display_name": "Gary"})):
        response = client_for(player).post(url, body, format="json")
        assert response.status_code == 403, url
        assert response.json()["error"]["code"] == "permission_denied"
    assert not Event.objects.exists() and not Player.objects.exists()
    assert APIClient().post("/api/v1/events/", EVENT, format="json").status_code == 401


def test_the_organiser_permission_or_site_staff_may(django_user_model, site_staff):
    organiser = django_user_model.objects.create_user(username="olivia", password="pw")
    services.organiser_permission_grant(user=organiser)
    for user in (organiser, site_staff):
        assert client_for(user).post("/api/v1/events/", EVENT, format="json").status_code == 201
        assert client_for(user).post("/api/v1/players/", {"display_name": "Gary"}, format="json").status_code == 201
    assert Event.objects.get(organiser=organiser).name == "Club night"


def test_open_organising_lets_every_account_organise(django_user_model, settings):
    settings.PODIUM_OPEN_ORGANISING = True
    player = django_user_model.objects.create_user(username="ash", password="pw")
    assert client_for(player).post("/api/v1/events/", EVENT, format="json").status_code == 201


def test_the_dashboard_offers_new_events_to_organisers_only(client, django_user_model):
    player = django_user_model.objects.create_user(username="ash", password="pw")
    client.force_login(player)
    assert client.get("/dashboard/events/new/").status_code == 403
    assert "Create an event" not in client.get("/me/").content.decode()
    services.organiser_permission_grant(user=player)
    assert client.get("/dashboard/events/new/").status_code == 200
    assert "Create an event" in client.get("/me/").content.decode()


def test_the_dashboard_of_an_account_without_the_organiser_permission_says_what_it_can_do(client, django_user_model):
    organiser = django_user_model.objects.create_user(username="olivia", password="pw")
    services.organiser_permission_grant(user=organiser)
    event = services.event_create(organiser=organiser, **EVENT)
    judge = django_user_model.objects.create_user(username="judy", password="pw")
    client.force_login(judge)
    page = client.get("/dashboard/").content.decode()
    assert "manage.py demo" not in page and "New event" not in page and "/dashboard/events/new/" not in page
    assert "No event has made you staff yet." in page
    assert 'href="/me/">your player page</a>' in page
    assert "ask the site's staff for the organiser permission" in page

    staff.staff_add(event=event, username="judy", role="judge", by=organiser)
    page = client.get("/dashboard/").content.decode()
    assert f'href="/dashboard/events/{event.pk}/">Club night</a>' in page
    assert "No event has made you staff yet." not in page and "organiser permission" in page


def test_an_organisers_empty_dashboard_offers_a_new_event_and_the_demo(client, django_user_model):
    organiser = django_user_model.objects.create_user(username="olivia", password="pw")
    services.organiser_permission_grant(user=organiser)
    client.force_login(organiser)
    page = client.get("/dashboard/").content.decode()
    assert "New event" in page and "python manage.py demo" in page
    assert "organiser permission" not in page


@pytest.mark.parametrize("debug", [False, True])
def test_the_demo_makes_a_superuser_with_its_published_password_only_while_debug_is_on(debug, settings, tmp_path):
    settings.PODIUM_CARD_DATA_DIR = str(tmp_path)  # no card data: this is about the organiser, not the decks
    with override_settings(DEBUG=debug):
        call_command("demo", stdout=io.StringIO())
    from django.contrib.auth import get_user_model

    organiser = get_user_model().objects.get(username="organiser")
    assert (organiser.is_superuser, organiser.is_staff) == (debug, debug)
    assert organiser.has_perm("tournaments.organise_events")
