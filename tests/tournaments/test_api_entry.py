"""The API of scarce places and fees: the event's lottery, priority window and fee settings, applying and the draw,
the overlap warning, marking fees paid and the check-in it may hold back, with their refusals and the schema."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event
from tests.support.openapi import V1, generate
from tournaments import services
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def error(response) -> dict:
    return response.json()["error"]


@pytest.fixture
def fans(django_user_model):
    users = [django_user_model.objects.create_user(username=f"fan{i}", password="pw") for i in range(4)]
    for user in users:
        PlayerFactory(user=user, display_name=user.username.title())
    return users


def test_the_organiser_sets_a_lottery_a_priority_window_and_a_fee_and_reads_them_back(api, organiser):
    event = make_event(organiser, 0)
    named = PlayerFactory()
    response = api.patch(
        f"{V1}/events/{event.pk}/",
        {
            "capacity": 16, "lottery": True, "lottery_draw_at": "2026-11-30T18:00", "registration_open": True,
            "registration_opens_at": "2026-11-29T12:00", "priority_opens_at": "2026-11-28T12:00",
            "priority_players": [named.pk], "entry_fee": "15.00", "fee_currency": "eur",
            "checkout_url": "https://shop.example.org/cup", "unpaid_check_in": False,
        },
        format="json",
    )  # fmt: skip
    assert response.status_code == 200, response.json()
    body = api.get(f"{V1}/events/{event.pk}/").json()
    assert (body["lottery"], body["entry_fee"], body["fee_currency"], body["unpaid_check_in"]) == (
        True, "15.00", "EUR", False,
    )  # fmt: skip
    assert body["priority_players"] == [named.pk] and body["lottery_seed"] is None
    # Read in the event's time zone (UTC here, the site's default).
    assert body["lottery_draw_at"].startswith("2026-11-30T18:00")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"lottery": True}, "lottery"),
        ({"entry_fee": "-2"}, "entry_fee"),
        ({"entry_fee": "ten"}, "entry_fee"),
        ({"entry_fee": "5"}, "fee_currency"),
        ({"fee_currency": "EU1"}, "fee_currency"),
        ({"checkout_url": "ftp://shop"}, "checkout_url"),
        ({"priority_players": ["x"]}, "priority_players"),
        ({"priority_players": [99999999]}, "priority_players"),
        ({"priority_season": 99999999, "priority_min_points": 3}, "priority_season"),
        ({"priority_opens_at": "2026-11-28T12:00"}, "priority_opens_at"),
    ],
)
def test_bad_entry_settings_are_a_400_naming_the_field(api, organiser, body, field):
    event = make_event(organiser, 0)
    response = api.patch(f"{V1}/events/{event.pk}/", body, format="json")
    assert response.status_code == 400, response.json()
    assert list(error(response)["fields"]) in ([field], [field.replace("priority_season", "priority_season_id")])


def test_players_apply_the_organiser_draws_once_and_the_outcome_is_on_each_registration(api, organiser, fans):
    event = make_event(organiser, 0)
    services.event_update(event=event, by=organiser, capacity=2, lottery=True, registration_open=True)
    applied = [client_for(fan).post(f"{V1}/events/{event.pk}/register/") for fan in fans]
    assert [r.status_code for r in applied] == [201] * 4
    assert {r.json()["status"] for r in applied} == {"applied"}

    drawn = api.post(f"{V1}/events/{event.pk}/lottery/draw/", {"seed": 99}, format="json")
    assert drawn.status_code == 201, drawn.json()
    body = drawn.json()
    assert body["seed"] == 99 and body["places"] == 2
    assert [r["lottery_rank"] for r in body["winners"] + body["waiting"]] == [1, 2, 3, 4]
    assert {r["status"] for r in body["waiting"]} == {"waitlisted"}

    again = api.post(f"{V1}/events/{event.pk}/lottery/draw/", {}, format="json")
    assert again.status_code == 409 and error(again)["code"] == "lottery_drawn"
    listed = api.get(f"{V1}/events/{event.pk}/registrations/").json()["results"]
    assert sorted(r["lottery_rank"] for r in listed) == [1, 2, 3, 4]
    assert AuditEntry.objects.get(event=event, action="lottery.drawn").after["seed"] == 99


def test_a_draw_is_refused_without_a_lottery_and_with_a_bad_seed(api, organiser):
    event = make_event(organiser, 0)
    refused = api.post(f"{V1}/events/{event.pk}/lottery/draw/", {}, format="json")
    assert refused.status_code == 409 and error(refused)["code"] == "no_lottery"
    bad = api.post(f"{V1}/events/{event.pk}/lottery/draw/", {"seed": -1}, format="json")
    assert bad.status_code == 400 and list(error(bad)["fields"]) == ["seed"]


def test_registering_before_ones_window_is_a_409_saying_when_it_opens(organiser, fans):
    event = make_event(organiser, 0)
    opens = timezone.now() + datetime.timedelta(days=1)
    services.event_update(event=event, by=organiser, registration_open=True, registration_opens_at=opens)
    response = client_for(fans[0]).post(f"{V1}/events/{event.pk}/register/")
    assert response.status_code == 409
    assert error(response)["code"] == "registration_not_yet_open"
    assert "Registration opens for you on" in error(response)["message"]


def test_registering_for_a_second_event_the_same_day_answers_a_warning(api, organiser, fans):
    first, second = make_event(organiser, 0), make_event(organiser, 0)
    for event in (first, second):
        services.event_update(event=event, by=organiser, registration_open=True)
    fan = client_for(fans[0])
    assert fan.post(f"{V1}/events/{first.pk}/register/").json()["warnings"] == []

    answer = fan.post(f"{V1}/events/{second.pk}/register/")

    assert answer.status_code == 201
    [warning] = answer.json()["warnings"]
    assert warning["code"] == "overlapping_event" and warning["event"] == first.pk
    by_staff = api.post(f"{V1}/events/{second.pk}/registrations/", {"player": fans[1].player.pk}, format="json")
    assert by_staff.status_code == 201 and by_staff.json()["warnings"] == []
    listed = api.get(f"{V1}/events/{second.pk}/registrations/").json()["results"]
    flagged = {r["player"]["id"]: [w["code"] for w in r["warnings"]] for r in listed}
    assert flagged[fans[0].player.pk] == ["overlapping_event"]


def test_staff_mark_the_fee_paid_and_an_unpaid_player_is_held_back_at_check_in(api, organiser, outsider):
    event = make_event(organiser, 0)
    services.event_update(
        event=event, by=organiser, entry_fee=Decimal(10), fee_currency="USD", unpaid_check_in=False, check_in_open=True
    )
    registration = RegistrationFactory(event=event, checked_in=False)
    base = f"{V1}/events/{event.pk}/registrations/{registration.pk}/"

    held = api.post(base + "check-in/", {"checked_in": True}, format="json")
    assert held.status_code == 409 and error(held)["code"] == "entry_fee_unpaid"
    marked = api.post(base + "payment/", {"paid": True}, format="json")
    assert marked.status_code == 200 and marked.json()["paid"] is True and marked.json()["paid_at"]
    assert api.post(base + "check-in/", {"checked_in": True}, format="json").status_code == 200
    assert client_for(outsider).post(base + "payment/", {"paid": False}, format="json").status_code == 403
    assert api.post(base + "payment/", {"paid": "maybe"}, format="json").status_code == 400
    assert Registration.objects.get(pk=registration.pk).paid_at is not None


def test_the_schema_documents_the_new_operations_and_their_codes():
    schema, _ = generate()
    draw = schema["paths"]["/api/v1/events/{event_id}/lottery/draw/"]["post"]
    assert "lottery_drawn" in draw["responses"]["409"]["description"]
    payment = schema["paths"]["/api/v1/events/{event_id}/registrations/{registration_id}/payment/"]["post"]
    assert "200" in payment["responses"]
    register = schema["paths"]["/api/v1/events/{event_id}/register/"]["post"]
    assert "registration_not_yet_open" in register["responses"]["409"]["description"]
    check_in = schema["paths"]["/api/v1/events/{event_id}/registrations/{registration_id}/check-in/"]["post"]
    assert "entry_fee_unpaid" in check_in["responses"]["409"]["description"]
    registration = schema["components"]["schemas"]["Registration"]["properties"]
    assert {"warnings", "paid", "paid_at", "lottery_rank"} <= set(registration)
