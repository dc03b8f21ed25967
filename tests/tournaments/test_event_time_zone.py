"""Each event's time zone: set on create and in the settings (API and dashboard), checked against the tz database,
and used for its times: the pages show them in it, a deadline entered without an offset is read in it."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings

from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db

UTC = datetime.UTC


def make_event(organiser, **extra) -> Event:
    return services.event_create(
        organiser=organiser, name="Cup", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 1),
        **extra,
    )  # fmt: skip


def test_an_event_is_created_in_the_zone_given_or_else_the_sites(api):
    body = {"name": "Cup", "format": "deck-masters", "planned_rounds": 3, "date": "2026-12-01"}
    tokyo = api.post("/api/v1/events/", {**body, "time_zone": "Asia/Tokyo", "paper": "letter"}, format="json")
    assert tokyo.status_code == 201 and (tokyo.json()["time_zone"], tokyo.json()["paper"]) == ("Asia/Tokyo", "letter")
    plain = api.post("/api/v1/events/", body, format="json").json()
    assert (plain["time_zone"], plain["paper"]) == (settings.TIME_ZONE, settings.PODIUM_PAPER)


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "Central Europe", "", "../../etc/passwd", "asia/tokyo"])
def test_an_unknown_zone_is_a_400_naming_the_field_and_nothing_changes(api, organiser, zone):
    body = {"name": "Cup", "format": "deck-masters", "planned_rounds": 3, "date": "2026-12-01", "time_zone": zone}
    created = api.post("/api/v1/events/", body, format="json")
    assert created.status_code == 400 and created.json()["error"]["code"] == "invalid"
    assert "time_zone" in created.json()["error"]["fields"]
    event = make_event(organiser, time_zone="Europe/Paris")
    changed = api.patch(f"/api/v1/events/{event.pk}/", {"time_zone": zone}, format="json")
    assert changed.status_code == 400 and "time_zone" in changed.json()["error"]["fields"]
    event.refresh_from_db()
    assert event.time_zone == "Europe/Paris"


def test_a_deadline_without_an_offset_is_the_events_wall_clock_time(api, organiser):
    event = make_event(organiser, time_zone="Asia/Tokyo")
    answer = api.patch(f"/api/v1/events/{event.pk}/", {"registration_deadline": "2026-12-01T18:00"}, format="json")
    assert answer.status_code == 200, answer.json()
    event.refresh_from_db()
    assert event.registration_deadline == datetime.datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def test_the_settings_form_reads_the_deadline_in_the_zone_it_sets_and_the_pages_show_it_there(client, organiser):
    client.force_login(organiser)
    event = make_event(organiser)
    form = {
        "name": "Cup", "planned_rounds": 3, "date": "2026-12-01", "tiebreakers": "classic", "magic_floor": "0.33",
        "pod_leftovers": "tables", "time_zone": "Asia/Tokyo", "paper": "a4", "registration_open": "on",
        "registration_deadline": "2026-12-01T18:00",
    }  # fmt: skip
    answer = client.post(f"/dashboard/events/{event.pk}/settings/", form)
    assert answer.status_code == 302, answer.content.decode()
    event.refresh_from_db()
    assert (event.time_zone, event.registration_deadline) == (
        "Asia/Tokyo",
        datetime.datetime(2026, 12, 1, 9, tzinfo=UTC),
    )

    dashboard = client.get(f"/dashboard/events/{event.pk}/").content.decode()
    assert "open until Tue 1 Dec 2026, 18:00 JST" in dashboard  # DATETIME_FORMAT (config/formats/en), then the zone and "Asia/Tokyo (JST)" in dashboard
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Asia/Tokyo (JST)" in page
    settings_page = client.get(f"/dashboard/events/{event.pk}/settings/").content.decode()
    assert 'value="2026-12-01T18:00"' in settings_page  # shown as entered, in the event's zone


def test_the_settings_form_refuses_an_unknown_zone_with_a_field_error(client, organiser):
    client.force_login(organiser)
    event = make_event(organiser, time_zone="Europe/Paris")
    form = {"name": "Cup", "planned_rounds": 3, "date": "2026-12-01", "time_zone": "Mars/Olympus_Mons"}
    answer = client.post(f"/dashboard/events/{event.pk}/settings/", form)
    assert (
        answer.status_code == 400 and "Mars/Olympus_Mons is not one of the available choices" in answer.content.decode()
    )
    event.refresh_from_db()
    assert event.time_zone == "Europe/Paris"


def test_the_round_clock_says_when_it_ends_on_the_events_clock(client, organiser):
    from live import services as live_services
    from tests.support.events import make_event as event_with_players

    client.force_login(organiser)
    event = event_with_players(organiser, 4, time_zone="Asia/Tokyo")
    services.round_start(event=event, by=organiser, seed=1)
    timer = live_services.timer_start(event=event, round_number=1, minutes=50, by=organiser)
    ends = timer.deadline.astimezone(datetime.timezone(datetime.timedelta(hours=9))).strftime("%H:%M")
    card = client.get(f"/live/events/{event.pk}/timer/").content.decode()
    assert f"ends at {ends} JST" in card
