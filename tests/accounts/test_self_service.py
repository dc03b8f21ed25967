"""Self-service buttons: register (or join the waiting list), withdraw, check in, drop, report, confirm, dispute.

Each button's effect, and each refusal as an error: on the panel with HTTP 422
for htmx, as a message after the redirect without JavaScript; never a 500.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.accounts.conftest import signed_in
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.pages import text
from tournaments import services
from tournaments.models import PodResult, Registration, ResultReport, Seat
from tournaments.services import registrations

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def post(client, name: str, event, data=None, *, htmx: bool = True):
    return client.post(reverse(f"accounts:{name}", args=[event.pk]), data or {}, **(HTMX if htmx else {}))


def status(event, user) -> str:
    return Registration.objects.get(event=event, player=user.player).status


# --- registering ------------------------------------------------------------------------------------


def test_the_event_page_offers_register_to_players_while_registration_is_open(client, users, open_event):
    signed_in(client, users("ash"))
    page = text(client.get(reverse("public:event", args=[open_event.pk])))
    assert "Register" in page and "0 of 2 places taken" in page


def test_visitors_are_asked_to_sign_in_to_register(client, open_event):
    page = client.get(reverse("public:event", args=[open_event.pk])).content.decode()
    assert "Registration is open: sign in to register." in page
    assert f"{reverse('login')}?next={reverse('public:event', args=[open_event.pk])}" in page


def test_a_closed_event_page_shows_no_panel_to_a_stranger(client, users, organiser):
    event = services.event_create(organiser=organiser, name="Closed", format="deck-masters", planned_rounds=3,
                                  date="2026-12-01")  # fmt: skip
    signed_in(client, users("ash"))
    assert "player-panel" not in client.get(reverse("public:event", args=[event.pk])).content.decode()


def test_registering_fills_the_places_then_the_waiting_list_in_order(client, users, open_event):
    ash, gary, brock, misty = users("ash"), users("gary"), users("brock"), users("misty")
    for user in (ash, gary):
        signed_in(client, user)
        response = post(client, "register", open_event, {"place": "event"})
        assert response.status_code == 200 and "You are registered for Duel Night." in text(response)
    signed_in(client, brock)
    page = text(client.get(reverse("public:event", args=[open_event.pk])))
    assert "2 of 2 places taken: new players join the waiting list" in page and "Join the waiting list" in page
    response = post(client, "register", open_event, {"place": "event"})
    assert "you are number 1 on the waiting list" in text(response)
    signed_in(client, misty)
    assert "number 2 on the waiting list" in text(post(client, "register", open_event))
    assert [status(open_event, u) for u in (ash, gary, brock, misty)] == ["registered"] * 2 + ["waitlisted"] * 2

    # Ash withdraws: Brock, first in line, takes the place; Misty moves up.
    signed_in(client, ash)
    response = post(client, "withdraw", open_event, {"place": "me"})
    assert response.status_code == 200 and "You have withdrawn" in text(response)
    assert status(open_event, brock) == "registered" and status(open_event, ash) == "withdrawn"
    signed_in(client, misty)
    assert "Waiting list: number 1" in text(client.get(reverse("accounts:me")))


def test_registering_twice_is_an_error_on_the_panel(client, users, open_event):
    signed_in(client, users("ash"))
    post(client, "register", open_event)
    again = post(client, "register", open_event)
    assert again.status_code == 422 and "You are already registered for this event." in text(again)


def test_registration_after_the_deadline_is_refused_with_the_reason(client, users, open_event, organiser):
    services.event_update(
        event=open_event, by=organiser, registration_deadline=timezone.now() - datetime.timedelta(minutes=1)
    )
    signed_in(client, users("ash"))
    assert "Register" not in text(client.get(reverse("public:event", args=[open_event.pk])))
    refused = post(client, "register", open_event)
    assert refused.status_code == 422 and "Registration for this event is closed." in text(refused)
    assert not Registration.objects.filter(event=open_event).exists()


def test_without_javascript_a_refusal_comes_back_as_a_message_on_the_page(client, users, open_event, organiser):
    services.event_update(event=open_event, by=organiser, registration_open=False)
    signed_in(client, users("ash"))
    response = post(client, "register", open_event, {"place": "event"}, htmx=False)
    assert response.status_code == 302 and response["Location"] == reverse("public:event", args=[open_event.pk])
    assert "Registration for this event is closed." in text(client.get(response["Location"]))


def test_withdrawing_after_play_started_is_refused(client, duel):
    event, ash, _ = duel
    signed_in(client, ash)
    refused = post(client, "withdraw", event)
    assert refused.status_code == 422 and "Play has started: drop instead of withdrawing." in text(refused)


def test_buttons_of_someone_not_registered_say_so(client, users, duel):
    event, _, _ = duel
    signed_in(client, users("brock"))
    for name in ("withdraw", "check-in", "drop"):
        response = post(client, name, event)
        assert response.status_code == 422 and "You are not registered for this event." in text(response), name


def test_anonymous_posts_are_sent_to_sign_in(client, open_event):
    response = post(client, "register", open_event, htmx=False)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# --- check-in -----------------------------------------------------------------------------------------


@pytest.fixture
def registered(users, open_event):
    ash = users("ash")
    registrations.registration_self_register(event=open_event, by=ash)
    return ash


def test_the_check_in_page_asks_visitors_to_sign_in_and_come_back(client, open_event):
    url = reverse("accounts:check-in", args=[open_event.pk])
    page = client.get(url).content.decode()
    assert "Sign in to check in." in page and f"?next={url}" in page


def test_the_check_in_page_says_why_a_player_cannot_check_in_yet(client, registered, open_event):
    signed_in(client, registered)
    page = text(client.get(reverse("accounts:check-in", args=[open_event.pk])))
    assert "Check-in is not open: the event's staff open it at the venue." in page
    refused = post(client, "check-in", open_event, {"place": "check-in"})
    assert refused.status_code == 422 and "Check-in is not open" in text(refused)
    assert not Registration.objects.get(player=registered.player).checked_in


def test_a_registered_player_checks_in_while_the_window_is_open(client, registered, open_event, organiser):
    services.event_update(event=open_event, by=organiser, check_in_open=True)
    signed_in(client, registered)
    url = reverse("accounts:check-in", args=[open_event.pk])
    assert "Check in" in text(client.get(url))
    response = client.post(url, {"place": "check-in"}, **HTMX)
    assert response.status_code == 200
    assert "You are checked in." in text(response) and "Good luck!" in text(response)
    assert Registration.objects.get(player=registered.player).checked_in
    without_js = client.post(url, {"place": "check-in"})
    assert without_js.status_code == 302 and without_js["Location"] == url


def test_the_check_in_page_tells_waiting_and_unregistered_players_why_not(client, users, open_event, organiser):
    services.event_update(event=open_event, by=organiser, check_in_open=True, capacity=1)
    registrations.registration_self_register(event=open_event, by=users("gary"))
    waiting = users("brock")
    registrations.registration_self_register(event=open_event, by=waiting)
    signed_in(client, waiting)
    url = reverse("accounts:check-in", args=[open_event.pk])
    assert "You are number 1 on the waiting list: you check in once you have a place." in text(client.get(url))
    refused = client.post(url, {"place": "check-in"}, **HTMX)
    assert refused.status_code == 422 and "on the waiting list" in text(refused)
    signed_in(client, users("misty"))
    assert "You are not registered for this event" in text(client.get(url))


# --- drops ---------------------------------------------------------------------------------------------


def test_a_player_drops_between_rounds_but_not_while_their_table_is_open(client, duel, organiser):
    event, ash, _ = duel
    signed_in(client, ash)
    page = text(client.get(reverse("accounts:me")))
    assert "You can drop once your table's result is in." in page and "Drop…" not in page
    refused = post(client, "drop", event)
    assert refused.status_code == 422 and "Your table has no result yet" in text(refused)
    from tests.support.events import report_all

    report_all(event, organiser)
    assert "Drop…" in text(client.get(reverse("accounts:me")))
    dropped = post(client, "drop", event)
    assert dropped.status_code == 200 and "You have dropped" in text(dropped)
    assert Registration.objects.get(event=event, player=ash.player).dropped


# --- results ---------------------------------------------------------------------------------------------


def test_a_player_reports_a_score_and_the_opponent_confirms_it(client, duel):
    event, ash, gary = duel
    signed_in(client, ash)
    reported = post(client, "report", event, {"score": "2-1-0"})
    assert reported.status_code == 200 and "Result reported" in text(reported)
    assert "You reported: You won 2–1" in text(reported)
    signed_in(client, gary)
    confirmed = post(client, "respond", event, {"agrees": "yes"})
    assert confirmed.status_code == 200 and "Confirmed: the result is recorded." in text(confirmed)
    assert "Result: You lost 1–2" in text(confirmed)
    seat = Seat.objects.get(round__event=event, player=gary.player)
    assert (seat.placement, seat.games_won, seat.games_lost, seat.games_drawn) == (2, 1, 2, 0)
    assert PodResult.objects.get(pod=seat.pod).source == PodResult.Source.PLAYERS


def test_an_intentional_draw_and_a_drawn_game_are_reported_as_such(client, duel):
    event, ash, gary = duel
    signed_in(client, ash)
    post(client, "report", event, {"score": "id"})
    report = ResultReport.objects.get(pod__round__event=event)
    assert report.intentional_draw and report.placements == {str(ash.player.pk): 1, str(gary.player.pk): 1}
    signed_in(client, gary)
    page = text(client.get(reverse("accounts:me")))
    assert "reported: Intentional draw" in page
    disputed = post(client, "report", event, {"score": "1-1-1"})  # they say a game was drawn, 1-1-1
    assert disputed.status_code == 200 and "a judge will settle the table" in text(disputed)
    assert ResultReport.objects.get(pk=report.pk).status == "disputed"
    assert "The players disagree about this result: a judge will settle it." in text(disputed)


def test_a_dispute_leaves_the_table_without_a_result(client, duel):
    event, ash, gary = duel
    signed_in(client, ash)
    post(client, "report", event, {"score": "2-0-0"})
    signed_in(client, gary)
    disputed = post(client, "respond", event, {"agrees": "no"})
    assert disputed.status_code == 200 and "Disputed: a judge will settle the table." in text(disputed)
    assert not PodResult.objects.filter(pod__round__event=event).exists()


def test_report_refusals_are_errors_on_the_panel(client, duel, organiser, users):
    event, ash, gary = duel
    signed_in(client, ash)
    unchosen = post(client, "report", event, {})
    assert unchosen.status_code == 422 and "Choose how your match ended." in text(unchosen)
    nonsense = post(client, "report", event, {"score": "9-9-9"})
    assert nonsense.status_code == 422 and "Select a valid choice" in text(nonsense)
    own = post(client, "respond", event, {"agrees": "yes"})
    assert own.status_code == 422 and "Nobody has reported this table's result yet." in text(own)
    post(client, "report", event, {"score": "2-0-0"})
    mine = post(client, "respond", event, {"agrees": "yes"})
    assert mine.status_code == 422 and "You reported this result" in text(mine)
    bad = post(client, "respond", event, {"agrees": "maybe"})
    assert bad.status_code == 422
    signed_in(client, users("brock"))
    stranger = post(client, "report", event, {"score": "2-0-0"})
    assert stranger.status_code == 422 and "no table to report" in text(stranger)


def test_events_without_player_reports_say_the_staff_enter_results(client, duel, organiser):
    event, ash, _ = duel
    services.event_update(event=event, by=organiser, player_reports=False)
    signed_in(client, ash)
    page = text(client.get(reverse("accounts:me")))
    assert "The event's staff enter the results of this event." in page and "Report your match" not in page
    refused = post(client, "report", event, {"score": "2-0-0"})
    assert refused.status_code == 422 and "staff enter the results" in text(refused)


def test_a_pod_player_reports_every_place_at_the_table(client, organiser, users):
    event = services.event_create(organiser=organiser, name="Pods", format="master-trainer", planned_rounds=3,
                                  date="2026-12-01")  # fmt: skip
    services.event_update(event=event, by=organiser, player_reports=True)
    ash = users("ash")
    RegistrationFactory(event=event, player=ash.player)
    for i in range(3):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"Pod {i}"))
    services.round_start(event=event, by=organiser, seed=4)
    seats = list(Seat.objects.filter(round__event=event).order_by("seat_order"))
    signed_in(client, ash)
    page = text(client.get(reverse("accounts:me")))
    assert "Report your table: each player's place" in page
    data = {f"placement_{s.player_id}": str(s.seat_order) for s in seats}
    response = post(client, "report", event, data)
    assert response.status_code == 200
    report = ResultReport.objects.get(pod__round__event=event)
    assert report.placements == {str(s.player_id): s.seat_order for s in seats}
    assert report.games is None
    bad = {**data, f"placement_{seats[0].player_id}": "3"}
    signed_in(client, ash)
    ResultReport.objects.all().delete()
    refused = post(client, "report", event, bad)
    assert refused.status_code == 422 and "Placements must rank players" in text(refused)


def test_garbage_never_makes_a_500(client, duel, users):
    event, ash, _ = duel
    signed_in(client, ash)
    for name in ("register", "withdraw", "check-in", "drop", "report", "respond"):
        for data in ({}, {"place": "../../etc"}, {"score": ["a", "b"], "agrees": "\x00", "place": "me"}):
            response = post(client, name, event, data)
            assert response.status_code in (200, 422), (name, data, response.status_code)
            response = post(client, name, event, data, htmx=False)
            assert response.status_code == 302, (name, data)
    assert client.get(reverse("accounts:check-in", args=[99999])).status_code == 404
    assert post(client, "register", type("E", (), {"pk": 99999})()).status_code == 404
