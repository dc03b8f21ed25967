"""The frame every page shares (skip link, named navigation, labelled inputs) and the error pages.

The browser tests (``tests/browser``) check the rendered pages with axe-core;
these pin the markup that makes them pass, and run without a browser.
"""

from __future__ import annotations

import re

import pytest
from django.test import RequestFactory, override_settings
from django.urls import reverse
from django.views import defaults

from tests.factories import EventFactory, RegistrationFactory
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser):
    event = EventFactory(organiser=organiser, format="deck-masters", name="Duel Night")
    for _ in range(4):
        RegistrationFactory(event=event)
    return event


def test_every_page_starts_with_a_skip_link_to_the_main_content_and_names_its_navigation(client, event):
    html = client.get(reverse("public:event", args=[event.pk])).content.decode()
    assert html.index('class="skip-link') < html.index("<header")
    assert 'href="#main"' in html and '<main id="main" tabindex="-1">' in html
    assert '<nav aria-label="Site">' in html and '<nav class="tabs" aria-label="Event pages">' in html


def test_the_event_tabs_and_the_round_links_mark_the_current_one(client, organiser, event):
    for _ in range(2):
        services.round_start(event=event, by=organiser)
        for pod in event.rounds.order_by("-number").first().pods.filter(is_bye=False):
            a, b = pod.seats.order_by("seat_order")
            services.pod_result_report(
                event=event, round_number=pod.round.number, table_number=pod.table_number,
                placements={a.player_id: 1, b.player_id: 2}, by=organiser,
            )  # fmt: skip
    html = client.get(reverse("public:pairings", args=[event.pk]) + "?round=1").content.decode()
    assert re.search(r'<a href="[^"]+/pairings/\?round=1" aria-current="page">Pairings by table</a>', html)
    assert '<nav class="rounds" aria-label="Rounds">' in html
    assert '<a href="?round=1" aria-current="page">' in html and '<a href="?round=2">' in html


def test_the_player_name_and_id_inputs_have_labels(client, organiser, event):
    client.force_login(organiser)
    html = client.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    assert '<label class="visually-hidden" for="id_display_name">Player name</label>' in html
    assert '<label class="visually-hidden" for="id_external_id">Player ID (optional)</label>' in html
    assert re.search(r'<label><input type="checkbox" name="checked_in"[^>]*> checked in</label>', html)
    assert 'id="id_display_name"' in html and 'id="id_external_id"' in html


def test_an_unknown_page_is_a_404_in_the_sites_design(client):
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "<h1" in html and "Page not found" in html and '<nav aria-label="Site">' in html


def test_someone_elses_event_is_a_403_in_the_sites_design_that_says_why(client, outsider, event):
    client.force_login(outsider)
    response = client.get(reverse("dashboard:event-detail", args=[event.pk]))
    html = response.content.decode()
    assert response.status_code == 403
    assert "You can't open this page" in html and "Only the event&#x27;s organiser or staff" in html


@pytest.mark.django_db(databases=[])  # any query would fail the test: the 500 page must not need the database
@override_settings(DEBUG=False)
def test_the_500_page_renders_without_a_request_context_or_the_database():
    response = defaults.server_error(RequestFactory().get("/boom/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side" in html and '<nav aria-label="Site">' in html


def test_a_stale_form_is_refused_by_a_page_in_the_sites_design(organiser, event):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    response = client.post(reverse("dashboard:round-start", args=[event.pk]))
    assert response.status_code == 403 and "This form has expired" in response.content.decode()
