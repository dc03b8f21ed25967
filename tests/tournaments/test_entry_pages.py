"""The pages of scarce places and fees: the settings page, the dashboard's lottery and players card (the draw, the
overlap flag, fees marked paid), the player's page and the public event page."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event
from tests.support.pages import text, url
from tests.support.people import as_user
from tournaments import services
from tournaments.models import AuditEntry, Registration
from tournaments.services import entry, registrations

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def fans(django_user_model):
    users = [django_user_model.objects.create_user(username=f"fan{i}", password="pw") for i in range(3)]
    for user in users:
        PlayerFactory(user=user, display_name=user.username.title())
    return users


def settings_data(event, **changes) -> dict:
    data = {"name": event.name, "planned_rounds": event.planned_rounds, "date": "2026-12-01", "venue": ""}
    data.update(tiebreakers=event.tiebreakers, magic_floor=event.magic_floor, unpaid_check_in="on")
    return data | changes


def test_the_settings_page_sets_the_lottery_the_priority_window_and_the_fee(client, organiser):
    event = make_event(organiser, 0)
    named = PlayerFactory()
    as_user(client, organiser)
    page = client.get(url("event-settings", event.pk)).content.decode()
    for label in ("Places by lottery", "Priority players may register from", "Earned invites", "Entry fee",
                  "Checkout link", "Unpaid players may check in"):  # fmt: skip
        assert label in page, label

    data = settings_data(
        event, capacity="8", lottery="on", lottery_draw_at="2026-11-30T18:00", registration_opens_at="2026-11-29T12:00",
        priority_opens_at="2026-11-28T12:00", priority_players=f"#{named.pk}", entry_fee="12.50", fee_currency="eur",
        checkout_url="https://shop.example.org/night",
    )  # fmt: skip
    response = client.post(url("event-settings", event.pk), data)

    assert response.status_code == 302, text(response)
    event.refresh_from_db()
    assert event.lottery and event.capacity == 8 and event.entry_fee == Decimal("12.50")
    assert event.fee_currency == "EUR" and list(event.priority_players.all()) == [named]
    assert timezone.localtime(event.lottery_draw_at).hour == 18
    assert f'value="{named.pk}"' in client.get(url("event-settings", event.pk)).content.decode()


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"lottery": "on"}, "give the event a capacity"),
        ({"entry_fee": "5"}, "currency"),
        ({"priority_players": "twelve"}, "Not a player number: twelve"),
    ],
)
def test_settings_that_do_not_fit_are_a_form_error(client, organiser, changes, says):
    event = make_event(organiser, 0)
    as_user(client, organiser)
    response = client.post(url("event-settings", event.pk), settings_data(event, **changes))
    assert response.status_code == 400 and says in text(response)


def test_the_dashboard_lists_applicants_draws_once_and_shows_the_seed(client, organiser, fans):
    event = make_event(organiser, 1)
    services.event_update(event=event, by=organiser, capacity=2, lottery=True, registration_open=True)
    for fan in fans:
        registrations.registration_self_register(event=event, by=fan)
    as_user(client, organiser)

    before = text(client.get(url("event-detail", event.pk)))
    assert "3 applicants for 2 places (1 already taken by players you entered)" in before
    assert "Draw the lottery" in before

    drawn = client.post(url("lottery-draw", event.pk), {"seed": "42"}, follow=True)
    assert "Lottery drawn (seed 42): 1 registered, 2 on the waiting list in drawn order." in text(drawn)
    assert "with seed 42" in text(drawn) and "Draw the lottery" not in text(drawn)
    again = client.post(url("lottery-draw", event.pk), {"seed": ""}, follow=True)
    assert "a draw is never repeated" in text(again)
    bad = client.post(url("lottery-draw", event.pk), {"seed": "-3"}, follow=True)
    assert "greater than or equal to 0" in text(bad)
    assert AuditEntry.objects.filter(event=event, action="lottery.drawn").count() == 1
    trail = text(client.get(url("event-audit", event.pk) + "?kind=registrations"))
    assert "Lottery drawn" in trail and "seed: 42" in trail and "winners: " in trail


def test_the_players_card_flags_another_event_that_day_and_marks_fees_paid(client, organiser, fans):
    event = make_event(organiser, 0)
    services.event_update(event=event, by=organiser, entry_fee=Decimal(5), fee_currency="EUR")
    both = PlayerFactory(display_name="Twice")
    services.registration_create(event=make_event(organiser, 0), by=organiser, player=both)
    twice = services.registration_create(event=event, by=organiser, player=both)
    as_user(client, organiser)

    page = text(client.get(url("event-detail", event.pk)))
    assert "⚠ other event that day" in page and "Also registered for League night on the same day" in page
    assert "unpaid: mark paid" in page

    row = client.post(url("registration-payment", event.pk, twice.pk), {"paid": "true"}, **HTMX)
    assert row.status_code == 200 and "✓ paid" in text(row)
    assert Registration.objects.get(pk=twice.pk).paid_at is not None


def test_a_player_sees_their_application_then_their_outcome_and_the_fee_to_pay(client, organiser, fans):
    event = make_event(organiser, 0)
    services.event_update(
        event=event, by=organiser, capacity=1, lottery=True, registration_open=True, entry_fee=Decimal(10),
        fee_currency="EUR", checkout_url="https://shop.example.org/pay",
    )  # fmt: skip
    fan = fans[0]
    as_user(client, fan)
    assert "Apply to the lottery" in text(client.get(reverse("public:event", args=[event.pk])))
    applied = client.post(reverse("accounts:register", args=[event.pk]), {"place": "me"}, **HTMX)
    assert "You have applied to the lottery" in text(applied)
    assert "Applied to the lottery" in text(client.get(reverse("accounts:me")))

    entry.lottery_draw(event=event, by=organiser, seed=5)
    me = text(client.get(reverse("accounts:me")))
    assert "You won a place in the lottery (drawn number 1)" in me
    assert "Entry fee unpaid 10.00 EUR — pay at https://shop.example.org/pay" in me


def test_the_public_page_says_how_places_are_given_and_what_they_cost(client, organiser, fans):
    event = make_event(organiser, 0)
    soon = timezone.now() + datetime.timedelta(days=1)
    services.event_update(
        event=event, by=organiser, capacity=4, lottery=True, registration_open=True, entry_fee=Decimal(3),
        fee_currency="GBP", checkout_url="https://shop.example.org/x", registration_opens_at=soon,
        priority_opens_at=soon - datetime.timedelta(hours=12), priority_players=[fans[1].player.pk],
    )  # fmt: skip
    as_user(client, fans[0])
    page = text(client.get(reverse("public:event", args=[event.pk])))
    assert "Entry fee: 3.00 GBP , paid at the organiser's checkout" in page
    assert "The organiser draws the 4 places by lottery: 0 players have applied so far." in page
    assert "Priority players register from" in page and "1 player with an earned invite" in page
    assert "Registration opens for you on" in page and "Apply to the lottery" not in page


def test_registering_a_player_with_another_event_that_day_warns_on_the_form(client, organiser):
    event, elsewhere = make_event(organiser, 0), make_event(organiser, 0)
    known = PlayerFactory(display_name="Kaiba", external_id="KC-9")
    services.registration_create(event=elsewhere, by=organiser, player=known)
    as_user(client, organiser)

    answer = client.post(url("registration-add", event.pk), {"display_name": "Kaiba", "external_id": "KC-9"}, **HTMX)

    assert answer.status_code == 200
    assert "Kaiba is registered. Also registered for League night on the same day" in text(answer)
    assert Registration.objects.get(event=event, player=known).status == "registered"


def test_a_player_whose_fee_is_due_is_told_so_where_they_would_check_in(client, organiser, fans):
    event = make_event(organiser, 0)
    services.event_update(
        event=event, by=organiser, entry_fee=Decimal(4), fee_currency="EUR", unpaid_check_in=False, check_in_open=True
    )
    RegistrationFactory(event=event, player=fans[0].player, checked_in=False)
    as_user(client, fans[0])
    page = text(client.get(reverse("accounts:check-in", args=[event.pk])))
    assert "You check in once the staff have marked your entry fee paid." in page
    assert "Check in" not in page.replace("Check-in", "")
