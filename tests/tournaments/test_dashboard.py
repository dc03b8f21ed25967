"""The organiser's dashboard and the public pages, as a browser uses them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EventFactory, RegistrationFactory
from tournaments import services
from tournaments.models import Event, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def event(organiser):
    event = EventFactory(organiser=organiser, format="master-trainer", name="Master Trainer Monthly")
    for _ in range(7):
        RegistrationFactory(event=event)
    return event


def test_the_dashboard_needs_a_sign_in(client):
    response = client.get(reverse("dashboard:event-list"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_an_organiser_creates_an_event_from_the_form(browser):
    response = browser.post(
        reverse("dashboard:event-create"),
        {
            "name": "Trinity Tuesday",
            "format": "format3-trinity",
            "planned_rounds": 3,
            "date": "2026-12-01",
            "venue": "",
        },
    )
    event = Event.objects.get(name="Trinity Tuesday")
    assert response.status_code == 302 and response["Location"] == reverse("dashboard:event-detail", args=[event.pk])


def test_a_bad_event_form_shows_errors_not_a_500(browser):
    response = browser.post(reverse("dashboard:event-create"), {"name": "", "format": "nope", "planned_rounds": 0})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()


def test_someone_elses_event_is_forbidden(client, outsider, event):
    client.force_login(outsider)
    assert client.get(reverse("dashboard:event-detail", args=[event.pk])).status_code == 403


def test_the_organiser_starts_a_round_and_records_a_pod_result(browser, event):
    page = browser.get(reverse("dashboard:event-detail", args=[event.pk]))
    assert page.status_code == 200 and "Start round 1" in page.content.decode()
    response = browser.post(reverse("dashboard:round-start", args=[event.pk]))
    assert response.status_code == 302
    round_ = event.rounds.get()
    seats = list(Seat.objects.filter(pod__round=round_, pod__table_number=1).order_by("seat_order"))
    assert len(seats) == 4  # 7 players: a pod of 4 on table 1, a pod of 3 below it
    data = {f"placement_{s.player_id}": str(i) for i, s in enumerate(seats, start=1)}
    response = browser.post(reverse("dashboard:result-report", args=[event.pk, 1, 1]), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "reported" in response.content.decode()
    assert [s.points for s in Seat.objects.filter(pk__in=[s.pk for s in seats]).order_by("seat_order")] == [3, 1, 0, 0]


def test_a_one_click_outcome_records_a_1v1_result(browser, organiser):
    event = EventFactory(organiser=organiser, format="deck-masters")
    RegistrationFactory(event=event), RegistrationFactory(event=event)
    services.round_start(event=event, by=organiser)
    response = browser.post(reverse("dashboard:result-report", args=[event.pk, 1, 1]), {"outcome": "draw"})
    assert response.status_code == 302
    assert sorted(Seat.objects.values_list("points", flat=True)) == [1, 1]


def test_an_incomplete_result_form_shows_an_error(browser, event):
    browser.post(reverse("dashboard:round-start", args=[event.pk]))
    response = browser.post(reverse("dashboard:result-report", args=[event.pk, 1, 1]), {}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422  # swapped into the table by htmx (see base.html's htmx-config)
    assert "Choose a placement for every player." in response.content.decode()
    assert not Seat.objects.filter(placement__isnull=False).exists()


def test_starting_a_round_twice_shows_why_it_is_refused(browser, event):
    browser.post(reverse("dashboard:round-start", args=[event.pk]))
    page = browser.post(reverse("dashboard:round-start", args=[event.pk]), follow=True)
    assert "Results are missing for tables 1, 2" in page.content.decode()
    assert event.rounds.count() == 1


def test_check_in_toggles_with_htmx(browser, event):
    registration = event.registrations.first()
    url = reverse("dashboard:registration-check-in", args=[event.pk, registration.pk])
    response = browser.post(url, {"checked_in": "false"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "check in" in response.content.decode()
    registration.refresh_from_db()
    assert registration.checked_in is False


def test_the_headers_recommended_structure_follows_registrations_check_ins_and_drops(browser, organiser):
    """Registering and checking in with htmx leaves the page in place: the header's recommendation comes with each
    answer (out of band), so it never shows an attendance the page no longer has."""
    import re

    event = EventFactory(organiser=organiser, format="mintayn-master")  # 1v1: the Magic table
    for _ in range(8):
        RegistrationFactory(event=event)

    def recommendation(html: str) -> str:
        found = re.search(r'<p class="muted small" id="structure"( hx-swap-oob="true")?>(.*?)</p>', html, re.S)
        return re.sub(r"<[^>]+>", "", found.group(2))

    page = browser.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    assert recommendation(page) == "Recommended for 8 players: 3 Swiss rounds, no top cut (Magic table)."
    add = reverse("dashboard:registration-add", args=[event.pk])
    answer = browser.post(add, {"display_name": "Ash", "checked_in": "on"}, HTTP_HX_REQUEST="true").content.decode()
    assert recommendation(answer) == "Recommended for 9 players: 5 Swiss rounds, top 4 cut (Magic table)."
    assert 'id="structure" hx-swap-oob="true"' in answer

    ash = event.registrations.get(player__display_name="Ash")
    check_out = reverse("dashboard:registration-check-in", args=[event.pk, ash.pk])
    answer = browser.post(check_out, {"checked_in": "false"}, HTTP_HX_REQUEST="true").content.decode()
    assert recommendation(answer) == "Recommended for 8 players: 3 Swiss rounds, no top cut (Magic table)."
    page = browser.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    assert recommendation(page) == "Recommended for 8 players: 3 Swiss rounds, no top cut (Magic table)."


def test_registering_a_player_twice_shows_a_message(browser, event):
    url = reverse("dashboard:registration-add", args=[event.pk])
    browser.post(url, {"display_name": "Ash", "external_id": "P-1"})
    page = browser.post(url, {"display_name": "Ash", "external_id": "P-1"}, follow=True)
    assert "already registered" in page.content.decode()


def test_public_pages_show_pairings_by_table_and_by_name_and_standings(client, event, organiser):
    services.round_start(event=event, by=organiser)
    for name in ("public:event", "public:pairings", "public:pairings-by-name", "public:standings"):
        response = client.get(reverse(name, args=[event.pk]))
        assert response.status_code == 200, name
    by_name = client.get(reverse("public:pairings-by-name", args=[event.pk])).content.decode()
    first = event.registrations.select_related("player").order_by("player__display_name").first().player.display_name
    assert first in by_name
    assert client.get(reverse("public:home")).status_code == 200
    assert client.get(reverse("public:pairings", args=[event.pk]) + "?round=abc").status_code == 200


def test_the_home_page_lists_running_events_then_upcoming_soonest_first_then_finished_latest_first(client):
    import datetime

    dated = [
        ("Autumn finals", Event.Status.FINISHED, datetime.date(2026, 10, 1)),
        ("Christmas cup", Event.Status.REGISTRATION, datetime.date(2026, 12, 20)),
        ("League night", Event.Status.RUNNING, datetime.date(2026, 11, 21)),
        ("November cup", Event.Status.FINISHED, datetime.date(2026, 11, 1)),
        ("Prerelease", Event.Status.REGISTRATION, datetime.date(2026, 11, 28)),
    ]
    for name, status, date in dated:
        EventFactory(name=name, status=status, date=date)
    page = client.get(reverse("public:home")).content.decode()
    listed = sorted((name for name, _, _ in dated), key=page.index)
    assert listed == [
        "League night",
        "Prerelease",
        "Christmas cup",
        "November cup",
        "Autumn finals",
    ]


def test_the_admin_lists_every_model(admin_client):
    for model in ("player", "event", "registration", "round", "pod", "seat", "podresult", "standing"):
        assert admin_client.get(f"/admin/tournaments/{model}/").status_code == 200, model
