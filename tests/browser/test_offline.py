"""Podium installed on a phone, with the network cut (context.set_offline): the app shell, the player's page kept
for offline, the judges' outbox (core.pwa, templates/pwa/sw.js, static/js/pwa.js).

A player's page loaded once with the service worker in control comes back from the device with their table,
their opponent and the round clock, under an "offline -- last updated" banner, and from the network again when the
network returns.  A judge's entry made offline waits in the outbox (a queued-count badge), is sent when the network
returns and is recorded once, also when its first sending reached the server but its answer was lost; an entry the
server refuses is shown as refused with the server's message; a plain form of the judges' page waits and is sent
the same way.
"""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import expect

from games.models import GameEvent
from live.services import timer_start
from tests.browser.conftest import PHONE
from tests.support.browser import axe_check, wait_for_htmx

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def controlled(page) -> None:
    """Wait until the service worker controls the page (it claims its clients when it activates)."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")


@pytest.fixture
def duel(organiser, django_user_model):
    """A Mintayn Master event of two players, round 1 paired: Tea Gardner (who has an account) v Marik Ishtar."""
    from tests.factories import PlayerFactory, RegistrationFactory
    from tournaments import services

    event = services.event_create(
        organiser=organiser, name="Mintayn Night", format="mintayn-master", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    tea = django_user_model.objects.create_user(username="tea", password="pw")
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Tea Gardner", user=tea), checked_in=True)
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Marik Ishtar"), checked_in=True)
    services.round_start(event=event, by=organiser, seed=1)
    timer_start(event=event, round_number=1, minutes=50, by=organiser)
    return event, tea


@pytest.fixture
def game(duel, organiser):
    """Table 1's game, started; its players in seat order."""
    from games import services as game_services

    event, _ = duel
    pod = event.rounds.get().pods.get(table_number=1)
    game = game_services.game_create(pod=pod, by=organiser)
    names = {s.player_id: s.player.display_name for s in pod.seats.select_related("player")}
    return game, [names[pid] for pid in game.players]


def judge_offline(new_page, organiser, game):
    """The judge's console on a phone, kept by the worker, then the network cut."""
    page = new_page(viewport=PHONE, user=organiser)
    page.goto(f"/dashboard/games/{game.pk}/")
    controlled(page)
    page.reload()
    wait_for_htmx(page)
    page.context.set_offline(True)
    return page


def test_the_players_page_installs_and_stays_readable_with_the_network_cut(new_page, duel):
    event, tea = duel
    page = new_page(viewport=PHONE, user=tea)
    page.goto("/me/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.request.get(href)
    assert manifest.headers["content-type"] == "application/manifest+json"
    assert manifest.json()["start_url"] == "/me/"
    controlled(page)
    page.reload()  # with the worker in control: the page is kept
    expect(page.locator(".my-table")).to_contain_text("Table 1")

    page.context.set_offline(True)
    page.reload()
    # The worker's kept copy, not the network's answer.
    expect(page.locator('meta[name="podium-pwa"]')).to_have_attribute("data-served", "cache")
    banner = page.locator("[data-pwa-offline]")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Offline")
    expect(banner).to_contain_text("last updated")
    table = page.locator(".my-table")
    expect(table).to_contain_text("Table 1")
    expect(table.locator(".opponents")).to_contain_text("Marik Ishtar")
    # The round's clock counts down on the device (from the deadline it was given): 50 minutes, less a few seconds.
    expect(table.locator("[data-clock] .clock-time")).to_have_text(re.compile(r"^(50:00|4\d:\d\d)$"))
    axe_check(page)

    page.context.set_offline(False)  # the page comes again from the network
    expect(page.locator('meta[name="podium-pwa"]')).to_have_attribute("data-served", "network")
    expect(banner).to_be_hidden()

    # Signing out forgets the kept pages: the next person on the phone doesn't see Tea's.
    kept = "() => caches.open('podium-pages').then((cache) => cache.keys()).then((keys) => keys.length)"
    assert page.evaluate(kept) >= 1
    page.get_by_role("button", name="Sign out tea").click()
    page.wait_for_url("**/")
    page.wait_for_function(kept.replace("=> keys.length)", "=> keys.length === 0)"))


def test_a_judges_entry_made_offline_waits_and_is_recorded_once_when_the_network_returns(new_page, organiser, game):
    game, (first, second) = game
    page = judge_offline(new_page, organiser, game)

    page.get_by_role("button", name=f"{first}: Start turn").click()
    outbox = page.get_by_role("region", name="Entries waiting to be sent")
    expect(outbox).to_contain_text("1 entry waiting to be sent")
    expect(outbox).to_contain_text("Start turn")
    assert not GameEvent.objects.filter(game=game).exists()
    axe_check(page)

    page.context.set_offline(False)
    expect(outbox).to_be_hidden()
    expect(page.locator("#entry-1")).to_contain_text("start turn")
    assert list(GameEvent.objects.filter(game=game).values_list("seq", "type")) == [(1, "start_turn")]


#: The phone's outbox is empty (every entry sent, or taken as recorded).
OUTBOX_EMPTY = """() => new Promise((done) => { const open = indexedDB.open('podium-outbox', 1);
  open.onsuccess = () => { const count = open.result.transaction('entries').objectStore('entries').count();
    count.onsuccess = () => done(count.result === 0); }; })"""


def test_an_entry_whose_answer_was_lost_is_sent_again_but_not_recorded_twice(new_page, organiser, game):
    game, (first, _) = game
    page = new_page(viewport=PHONE, user=organiser)
    page.goto(f"/dashboard/games/{game.pk}/")
    wait_for_htmx(page)

    def answer_lost(route):
        route.fetch()  # the server records the entry...
        route.abort("internetdisconnected")  # ...and its answer never reaches the phone

    page.route("**/dashboard/games/*/events/", answer_lost)
    page.get_by_role("button", name=f"{first}: Start turn").click()
    expect(page.locator("[data-pwa-queued]")).to_have_text("1 entry waiting to be sent")
    assert GameEvent.objects.filter(game=game).count() == 1  # recorded, though the phone doesn't know
    page.unroute("**/dashboard/games/*/events/", answer_lost)

    page.reload()  # sent again: the server has it at that version already (409), so it is taken as recorded
    page.wait_for_function(OUTBOX_EMPTY)
    expect(page.locator("[data-pwa-entry=refused]")).to_have_count(0)
    assert list(GameEvent.objects.filter(game=game).values_list("seq", "type")) == [(1, "start_turn")]


def test_an_entry_the_server_refuses_is_shown_as_refused_with_its_message(new_page, organiser, duel, game):
    from tournaments import services

    event, _ = duel
    game, (first, second) = game
    page = judge_offline(new_page, organiser, game)
    page.get_by_role("button", name=f"{first}: Start turn").click()
    expect(page.get_by_role("region", name="Entries waiting to be sent")).to_contain_text("1 entry waiting")

    # Meanwhile the table's result is recorded by hand: the game takes no more entries.
    a, b = game.players
    services.pod_result_report(event=event, round_number=1, table_number=1, placements={a: 1, b: 2}, by=organiser)
    page.context.set_offline(False)
    refused = page.locator("[data-pwa-entry=refused]")
    expect(refused).to_contain_text("Refused")
    expect(refused).to_contain_text("recorded by hand")
    expect(page.locator("[data-pwa-queued]")).to_be_hidden()  # none waits any more
    assert not GameEvent.objects.filter(game=game).exists()
    axe_check(page)
    page.get_by_role("button", name="Dismiss: ").click()
    expect(refused).to_have_count(0)


def test_a_call_opened_offline_on_the_judges_page_is_sent_when_the_network_returns(new_page, organiser, duel):
    from floor.models import JudgeCall

    event, _ = duel
    page = new_page(viewport=PHONE, user=organiser)
    page.goto(f"/dashboard/events/{event.pk}/judge/")
    controlled(page)
    page.reload()
    page.context.set_offline(True)
    page.get_by_label("Table (round 1)").fill("1")
    page.get_by_role("button", name="Add to the queue").click()
    expect(page.locator("[data-pwa-queued]")).to_have_text("1 entry waiting to be sent")
    assert not JudgeCall.objects.exists()

    page.context.set_offline(False)  # sent, and the page loaded again
    expect(page.locator("#queue-body")).to_contain_text("Table 1")
    expect(page.locator("[data-pwa-outbox]")).to_be_hidden()
    assert JudgeCall.objects.count() == 1
