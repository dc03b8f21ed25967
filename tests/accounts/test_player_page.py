"""``/me/``: a player's running, upcoming and past events, their table, reports waiting for them and their matches."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from decks.models import DeckVersion
from live import selectors as live_selectors
from live import services as live_services
from tests.accounts.conftest import signed_in, table_of
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event, play_swiss, report_all
from tests.support.pages import text
from tournaments import services
from tournaments.models import Player
from tournaments.services import registrations, results

pytestmark = pytest.mark.django_db


def test_the_players_page_needs_a_sign_in(client):
    response = client.get(reverse("accounts:me"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_a_new_account_without_events_is_shown_where_to_find_one(client, users):
    signed_in(client, users("ash"))
    page = text(client.get(reverse("accounts:me")))
    assert "No event of yours is running." in page and "No upcoming event." in page
    assert "player ID #" in page


def test_a_running_event_shows_the_table_seat_opponent_and_their_deck_status(client, duel):
    event, ash, gary = duel
    registration = gary.player.registrations.get(event=event)
    DeckVersion.objects.create(registration=registration, number=1, decklist="x", status=DeckVersion.Status.LEGAL)
    signed_in(client, ash)
    page = text(client.get(reverse("accounts:me")))
    seat = event.rounds.get(number=1).seats.get(player=ash.player)
    assert f"Round 1 · Table {table_of(event, ash)}" in page
    assert f"Seat {seat.seat_order}" in page
    assert ("you go first" in page) is (seat.seat_order == 1)
    assert f"Gary #{gary.player.pk}" in page and "deck legal" in page
    assert "Report your match against Gary" in page and "I won 2–1" in page and "Intentional draw" in page


def test_a_report_waiting_for_the_player_offers_confirm_and_dispute(client, duel):
    event, ash, gary = duel
    table = table_of(event, ash)
    results.result_player_report(
        event=event, round_number=1, table_number=table, by=gary,
        placements={gary.player.pk: 1, ash.player.pk: 2},
        games={gary.player.pk: [2, 1, 0], ash.player.pk: [1, 2, 0]},
    )  # fmt: skip
    signed_in(client, ash)
    response = client.get(reverse("accounts:me"))
    page = text(response)
    assert f"Gary #{gary.player.pk} reported: You lost 1–2" in page
    assert 'name="agrees" value="yes"' in response.content.decode() and "Dispute" in page
    assert "Report your match" not in page
    # The reporter waits.
    signed_in(client, gary)
    theirs = text(client.get(reverse("accounts:me")))
    assert "You reported: You won 2–1" in theirs and "Waiting for the other players" in theirs
    assert "Confirm" not in theirs


def test_the_match_history_shows_results_with_game_scores(client, duel, organiser):
    event, ash, gary = duel
    table = table_of(event, ash)
    services.pod_result_report(
        event=event, round_number=1, table_number=table, by=organiser,
        placements={ash.player.pk: 1, gary.player.pk: 2}, games={ash.player.pk: [2, 0, 0], gary.player.pk: [0, 2, 0]},
    )  # fmt: skip
    signed_in(client, ash)
    page = text(client.get(reverse("accounts:me")))
    assert "Result: You won 2–0" in page
    assert re.search(rf"Round 1 table {table} Gary #{gary.player.pk} You won 2–0 3 pts", page)


def test_the_match_history_names_a_top_cut_round_by_its_stage(client, organiser, django_user_model):
    event = make_event(organiser, 8, rounds=3)
    play_swiss(event, organiser)
    semi_finals = services.top_cut_start(event=event, by=organiser, size=4)
    seed_1 = semi_finals.seats.get(cut_seed=1)
    ace = django_user_model.objects.create_user(username="ace", password="pw")
    Player.objects.filter(pk=seed_1.player_id).update(user=ace)
    report_all(event, organiser)  # seat 1, the better seed, wins
    services.round_start(event=event, by=organiser)
    signed_in(client, ace)
    page = text(client.get(reverse("accounts:me")))
    assert re.search(r"Semi-finals table 1 P\d\d #\d+ You won 3 pts", page)
    assert re.search(r"Final table 1 P\d\d #\d+ Playing", page)
    assert "Top cut, round" not in page


def test_namesakes_are_told_apart_by_player_id(client, organiser, users):
    ash = users("ash")
    event = services.event_create(organiser=organiser, name="Namesakes", format="deck-masters", planned_rounds=3,
                                  date="2026-12-01")  # fmt: skip
    RegistrationFactory(event=event, player=ash.player)
    twins = [PlayerFactory(display_name="Ash") for _ in range(3)]
    for twin in twins:
        RegistrationFactory(event=event, player=twin)
    services.round_start(event=event, by=organiser, seed=2)
    signed_in(client, ash)
    page = text(client.get(reverse("accounts:me")))
    opponent = event.rounds.get(number=1).seats.get(player=ash.player).pod.seats.exclude(player=ash.player).get()
    assert f"Ash #{opponent.player_id}" in page


def test_upcoming_and_past_events_each_have_their_place(client, organiser, users, open_event):
    ash = users("ash")
    for name in ("gary", "brock"):
        registrations.registration_self_register(event=open_event, by=users(name))
    waiting = registrations.registration_self_register(event=open_event, by=ash)
    assert waiting.status == "waitlisted"
    past = services.event_create(organiser=organiser, name="Last Month", format="deck-masters", planned_rounds=1,
                                 date="2026-11-01")  # fmt: skip
    RegistrationFactory(event=past, player=ash.player)
    RegistrationFactory(event=past, player=PlayerFactory(display_name="Joey"))
    services.round_start(event=past, by=organiser, seed=1)
    report_all(past, organiser)
    services.standings_recompute(event_id=past.pk)
    services.event_finish(event=past, by=organiser)
    signed_in(client, ash)
    page = text(client.get(reverse("accounts:me")))
    coming, played = page.index("Coming up"), page.index("Played")
    assert coming < page.index("Duel Night") < played < page.index("Last Month")
    assert "Waiting list: number 1" in page
    assert re.search(r"Last Month .* rank 1 ?, 3 points Your matches \(1\)", page)


def test_the_page_shows_nothing_private_of_other_players(client, duel, organiser):
    event, ash, gary = duel
    registration = gary.player.registrations.get(event=event)
    DeckVersion.objects.create(
        registration=registration, number=1, decklist="3 Secret Tech Card", status=DeckVersion.Status.ILLEGAL
    )
    walk_in = RegistrationFactory(event=event, player=PlayerFactory(display_name="Tristan"))
    code = registrations.player_claim_code_create(registration=walk_in, by=organiser)
    signed_in(client, ash)
    for url in (
        reverse("accounts:me"),
        reverse("public:event", args=[event.pk]),
        reverse("accounts:check-in", args=[event.pk]),
    ):
        body = client.get(url).content.decode()
        assert "Secret Tech Card" not in body, url
        assert code not in body, url
        assert "gary@example.org" not in body, url


def test_a_player_left_out_of_the_round_is_told_why(client, duel, users):
    event, _, _ = duel
    late = users("brock")
    RegistrationFactory(event=event, player=late.player, checked_in=False)
    signed_in(client, late)
    page = text(client.get(reverse("accounts:me")))
    assert "You have no table: you are paired once you are checked in." in page
    assert "Check-in is not open" in page


def _clock(page_html: str, event_id: int) -> str:
    start = rf'<div class="table-clock-box" id="table-clock-{event_id}"'
    found = re.search(start + r'.*?class="[^"]*clock-note">.*?</p>', page_html, re.S)
    assert found, "the table's clock is on the page"
    return found.group(0)


def test_the_players_table_shows_the_round_clock_with_its_tables_extra_time(client, duel, organiser):
    """The round's deadline, with the minutes a judge gave this table, counted down in the browser and followed
    through the player's own stream of the event; gone once the table's result is in."""
    event, ash, gary = duel
    signed_in(client, ash)
    waiting = _clock(client.get(reverse("accounts:me")).content.decode(), event.pk)
    assert 'data-state="not_started"' in waiting and "The clock has not started." in waiting
    assert f'data-live-stream="/api/v1/events/{event.pk}/stream/?player={ash.player.pk}"' in waiting  # their own

    timer = live_services.timer_start(event=event, round_number=1, minutes=50, by=organiser)
    table = table_of(event, ash)
    live_services.table_time_extend(
        event=event, round_number=1, table_number=table, minutes=3, reason="Deck check", by=organiser
    )
    running = _clock(client.get(reverse("accounts:me")).content.decode(), event.pk)
    deadline = timer.deadline + datetime.timedelta(minutes=3)
    assert 'data-state="running"' in running and f'data-deadline="{deadline.isoformat()}"' in running
    assert 'data-live-extension="180"' in running and f'data-live-table="{table}"' in running
    assert "Your table has 3 min of extra time." in running
    since = int(re.search(r'data-live-since="(\d+)"', running).group(1))
    assert since == live_selectors.last_seq(event_id=event.pk)  # the stream follows on from the page

    # The event page's panel has the same clock; once the result is in, the clock has gone from the table.
    assert "table-clock-box" in client.get(reverse("public:event", args=[event.pk])).content.decode()
    report_all(event, organiser)
    assert "table-clock-box" not in client.get(reverse("accounts:me")).content.decode()


def _follower(html: str) -> dict[str, str] | None:
    """The data attributes of the panel that follows the event's stream (``None``: no panel follows it)."""
    found = re.search(r'<div class="live-panel" data-live-page="player-panel"([^>]*)>', html)
    return dict(re.findall(r'data-live-([a-z-]+)="([^"]*)"', found.group(1))) if found else None


def test_the_panel_of_an_event_the_player_plays_follows_its_stream_from_where_the_page_is(client, duel, organiser):
    """The page fetches the panel again (one rendering) when a round is paired or a report or a result comes at the
    player's table; the table is summed up in a sentence to announce."""
    event, ash, gary = duel
    signed_in(client, ash)
    follower = _follower(client.get(reverse("accounts:me")).content.decode())
    assert follower is not None
    assert follower["stream"] == f"/api/v1/events/{event.pk}/stream/?player={ash.player.pk}"  # the player's own
    assert int(follower["since"]) == live_selectors.last_seq(event_id=event.pk)
    assert follower["url"] == f"/events/{event.pk}/panel/?place=me" and follower["player"] == str(ash.player.pk)
    assert _follower(client.get(reverse("public:event", args=[event.pk])).content.decode())["url"].endswith(
        "?place=event"
    )

    table = table_of(event, ash)
    results.result_player_report(
        event=event, round_number=1, table_number=table, by=gary, placements={gary.player.pk: 1, ash.player.pk: 2}
    )
    fragment = client.get(follower["url"])
    html = fragment.content.decode()
    assert fragment.status_code == 200 and "no-cache" in fragment["Cache-Control"]
    assert "<html" not in html and f'id="player-panel-{event.pk}"' in html and "Confirm" in html
    seat = event.rounds.get(number=1).seats.get(player=ash.player)
    assert (
        f'data-live-summary="Round 1, table {table}, seat {seat.seat_order}, against Gary. Gary reported: You lost. '
        'Confirm or dispute it."'
    ) in html


def test_no_panel_follows_an_event_the_player_no_longer_plays_or_that_is_far_off(client, duel, organiser, open_event):
    """An event to come is followed from its day, or once its check-in opens (round 1 may be paired any minute)."""
    from django.utils import timezone

    from tournaments.models import Event

    event, ash, gary = duel
    registrations.registration_self_register(event=open_event, by=gary)
    signed_in(client, gary)
    page = reverse("public:event", args=[open_event.pk])
    Event.objects.filter(pk=open_event.pk).update(date=timezone.localdate() + datetime.timedelta(days=30))
    assert _follower(client.get(page).content.decode()) is None
    Event.objects.filter(pk=open_event.pk).update(check_in_open=True)
    assert _follower(client.get(page).content.decode()) is not None
    Event.objects.filter(pk=open_event.pk).update(check_in_open=False, date=timezone.localdate())
    assert _follower(client.get(page).content.decode()) is not None
    report_all(event, organiser)
    registrations.registration_drop(registration=gary.player.registrations.get(event=event), by=gary)
    assert _follower(client.get(reverse("public:event", args=[event.pk])).content.decode()) is None
    assert client.post(f"/events/{event.pk}/panel/").status_code == 405
