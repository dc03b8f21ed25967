"""Overlays in Chromium, served by uvicorn (the streams need the ASGI server): the feature match and the bracket change
as a judge records through the API, without a reload.

The server runs the embedded default's live push (no Redis: one process), from the test database; the changes go
through its API, as a judge's tablet sends them.
"""

from __future__ import annotations

import datetime
import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from live import services as live_services
from tests.conftest import IN_CI, integration_services_missing
from tests.factories import PlayerFactory, RegistrationFactory
from tests.integration.conftest import database_url
from tests.support.browser import assert_fits, axe_check
from tests.support.live import seats_of, start_asgi
from tests.support.people import token_for
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.django_db(transaction=True)]

OVERLAY = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def asgi(django_db_setup, tmp_path_factory):
    missing = integration_services_missing()
    if missing:
        if IN_CI:
            pytest.fail(f"CI=true but the live browser tests cannot run: {missing}")
        pytest.skip(missing)
    log = tmp_path_factory.mktemp("asgi") / "uvicorn.log"
    url, stop = start_asgi(database_url(), log, env={"REDIS_URL": "", "PODIUM_LIVE_REDIS_URL": "", "DEBUG": "true"})
    yield url
    stop()


def _post(base: str, path: str, body: dict, token: str) -> dict:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _page(chromium, base: str, errors: list):
    context = chromium.new_context(base_url=base, viewport=OVERLAY)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def test_the_feature_match_overlay_changes_as_the_judge_records_the_game(chromium, asgi, organiser, tmp_path):
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    for name in ("Yugi", "Joey", "Kaiba", "Mai"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    services.round_start(event=event, by=organiser, seed=3)
    station = live_services.station_create(event=event, slug="stream-1", by=organiser)
    live_services.station_update(station=station, by=organiser, table_number=1)
    a, b = seats_of(event, 1)
    token = token_for(organiser)
    errors: list[str] = []
    page = _page(chromium, asgi, errors)
    try:
        page.goto(f"/live/events/{event.pk}/stations/stream-1/")
        expect(page.locator("html")).to_have_attribute("data-live", "open")  # no eval: the CSP forbids it
        page.evaluate("window.notReloaded = true")
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        axe_check(page)

        assert page.locator('[data-counter="lp"]').count() == 0  # no game yet
        game = _post(asgi, f"/api/v1/events/{event.pk}/rounds/1/tables/1/games/", {}, token)
        page.locator(f'[data-player="{a}"] [data-counter="lp"] .value').wait_for()  # the game, before any entry
        _post(asgi, f"/api/v1/games/{game['id']}/events/",
              {"expected_version": 0, "type": "start_turn", "data": {"player": a}}, token)  # fmt: skip
        _post(asgi, f"/api/v1/games/{game['id']}/events/",
              {"expected_version": 1, "type": "lp_change", "data": {"changes": {str(b): -1800}}}, token)  # fmt: skip
        lp = page.locator(f'[data-player="{b}"] [data-counter="lp"] .value')
        expect(lp).to_have_text("6200")
        assert page.locator(f'[data-player="{a}"]').get_attribute("class").split().count("active") == 1
        assert "−1800" in page.locator("#caption").inner_text()
        assert page.evaluate("window.notReloaded") is True
        page.screenshot(path=tmp_path / "feature.png")
        axe_check(page)
    finally:
        page.context.close()
    assert not errors, errors


def test_the_bracket_fills_in_as_results_are_recorded(chromium, asgi, organiser):
    event = services.event_create(
        organiser=organiser, name="Cup", format="mintayn-master", planned_rounds=1, date=datetime.date(2026, 12, 4)
    )
    for n in range(4):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"Player {n + 1}"))
    services.round_start(event=event, by=organiser, seed=5)
    for table in (1, 2):
        x, y = seats_of(event, table)
        services.pod_result_report(
            event=event, round_number=1, table_number=table, placements={x: 1, y: 2}, by=organiser
        )
    services.top_cut_start(event=event, by=organiser, size=4)
    token = token_for(organiser)
    errors: list[str] = []
    for viewport, path in (({"width": 1280, "height": 900}, f"/events/{event.pk}/bracket/"),
                           ({"width": 390, "height": 844}, f"/events/{event.pk}/bracket/")):  # fmt: skip
        page = _page(chromium, asgi, errors)
        page.set_viewport_size(viewport)
        try:
            page.goto(path)
            expect(page.locator("html")).to_have_attribute("data-live", "open")  # no eval: the CSP forbids it
            axe_check(page)
            assert_fits(page)
        finally:
            page.context.close()
    page = _page(chromium, asgi, errors)
    try:
        page.goto(f"/live/events/{event.pk}/overlays/bracket/")
        expect(page.locator("html")).to_have_attribute("data-live", "open")  # no eval: the CSP forbids it
        assert page.locator(".slot.won").count() == 0
        seed_one, seed_four = seats_of(event, 1, number=2)
        _post(asgi, f"/api/v1/events/{event.pk}/rounds/2/tables/1/result/",
              {"placements": [{"player": seed_one, "placement": 1}, {"player": seed_four, "placement": 2}]},
              token)  # fmt: skip
        page.locator(".slot.won").first.wait_for()
        assert page.locator(".slot.won").count() == 1
        axe_check(page)
    finally:
        page.context.close()
    assert not errors, errors


def test_the_players_table_clock_follows_the_round_clock_and_the_tables_extra_time(chromium, asgi, organiser, tmp_path):
    """The clock under a player's table on /me/: the judge starts the round's clock, gives the table three minutes and
    pauses the round, and the player's phone shows each without a reload."""
    from django.test import override_settings

    from tests.browser.conftest import PHONE, sign_in
    from tests.support.processes import LOCAL

    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    player = PlayerFactory(display_name="Yugi", user=django_user(organiser, "yugi"))
    RegistrationFactory(event=event, player=player)
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Joey"))
    services.round_start(event=event, by=organiser, seed=3)
    token = token_for(organiser)
    errors: list[str] = []
    context = chromium.new_context(base_url=asgi, viewport=PHONE)
    context.set_default_timeout(15_000)
    with override_settings(SECRET_KEY=LOCAL["SECRET_KEY"]):  # the server's: a session's hash is signed with it
        sign_in(context, player.user, asgi)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    clock, note = page.locator(".table-clock"), page.locator(".table-clock-box .clock-note")
    rounds = f"/api/v1/events/{event.pk}/rounds/1"
    try:
        page.goto("/me/")
        expect(clock.locator(".clock-time")).to_have_text("–:––")
        expect(note).to_have_text("The clock has not started.")
        expect(page.locator("html")).to_have_attribute("data-live", "open")
        page.evaluate("window.notReloaded = true")
        axe_check(page)
        assert_fits(page)

        _post(asgi, f"{rounds}/timer/start/", {"minutes": 50}, token)
        expect(clock).to_have_attribute("data-state", "running")
        expect(clock.locator(".clock-time")).to_have_text(re.compile(r"^(50:00|49:[0-5]\d)$"))
        round_deadline = datetime.datetime.fromisoformat(clock.get_attribute("data-deadline"))

        _post(asgi, f"{rounds}/tables/1/extension/", {"minutes": 3, "reason": "Deck check"}, token)
        expect(note).to_have_text("Your table has 3 min of extra time.")
        expect(clock.locator(".clock-time")).to_have_text(re.compile(r"^(53:00|52:[0-5]\d)$"))
        moved = datetime.datetime.fromisoformat(clock.get_attribute("data-deadline").replace("Z", "+00:00"))
        assert abs(moved - round_deadline - datetime.timedelta(minutes=3)) < datetime.timedelta(milliseconds=2)

        # The round's clock paused: the table keeps its three minutes.
        _post(asgi, f"{rounds}/timer/pause/", {}, token)
        expect(clock).to_have_attribute("data-state", "paused")
        expect(note).to_have_text("The clock is paused. Your table has 3 min of extra time.")
        expect(clock.locator(".clock-time")).to_have_text(re.compile(r"^(53:00|52:[0-5]\d)$"))
        assert page.evaluate("window.notReloaded") is True
        page.screenshot(path=tmp_path / "table-clock.png", full_page=True)
        axe_check(page)
    finally:
        context.close()
    assert not errors, errors


def django_user(organiser, username: str):
    return type(organiser).objects.create_user(username=username, password="pw")


def test_the_players_page_follows_a_new_round_and_an_opponents_report_without_a_reload(
    chromium, asgi, organiser, tmp_path
):
    """/me/ on a player's phone: round 1's results come in and round 2 is paired, then the new opponent reports their
    table's result; the result, the new table with its opponent, and the prompt to confirm or dispute appear without
    a reload, each announced politely, and the prompt works."""
    from django.test import override_settings

    from tests.browser.conftest import CSP_LISTENER, PHONE, _csp_violation, sign_in
    from tests.support.processes import LOCAL

    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    services.event_update(event=event, by=organiser, player_reports=True)
    players = {}
    for name in ("Yugi", "Joey", "Kaiba", "Mai"):
        players[name] = PlayerFactory(display_name=name, user=django_user(organiser, name.lower()))
        RegistrationFactory(event=event, player=players[name])
    services.round_start(event=event, by=organiser, seed=3)
    yugi = players["Yugi"]
    token = token_for(organiser)
    errors: list[str] = []
    context = chromium.new_context(base_url=asgi, viewport=PHONE)
    context.set_default_timeout(15_000)
    with override_settings(SECRET_KEY=LOCAL["SECRET_KEY"]):  # the server's: a session's hash is signed with it
        sign_in(context, yugi.user, asgi)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script(CSP_LISTENER)
    page.on("console", lambda message: _csp_violation(page, message, errors))
    panel, announced = page.locator(f"#player-panel-{event.pk}"), page.locator("[data-live-announce]")
    try:
        page.goto("/me/")
        expect(panel.locator(".my-table").get_by_role("heading")).to_have_text(re.compile(r"^Round 1 · Table \d$"))
        expect(page.locator("html")).to_have_attribute("data-live", "open")
        page.evaluate("window.notReloaded = true")
        axe_check(page)

        for table in (1, 2):
            a, b = seats_of(event, table)
            _post(asgi, f"/api/v1/events/{event.pk}/rounds/1/tables/{table}/result/",
                  {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]}, token)  # fmt: skip
        expect(panel.locator(".verdict")).to_have_text(re.compile(r"^Result: You (won|lost)"))

        _post(asgi, f"/api/v1/events/{event.pk}/rounds/", {}, token)
        seat = event.rounds.get(number=2).seats.select_related("pod").get(player=yugi)
        opponent = seat.pod.seats.exclude(player=yugi).select_related("player__user").get().player
        table = seat.pod.table_number
        expect(panel.locator(".my-table").get_by_role("heading")).to_have_text(f"Round 2 · Table {table}")
        expect(panel.locator(".opponents")).to_contain_text(f"{opponent.display_name} #{opponent.pk}")
        expect(announced).to_contain_text(
            f"Round 2, table {table}, seat {seat.seat_order}, against {opponent.display_name}."
        )

        _post(asgi, f"/api/v1/events/{event.pk}/rounds/2/tables/{table}/report/",
              {"placements": [{"player": opponent.pk, "placement": 1}, {"player": yugi.pk, "placement": 2}]},
              token_for(opponent.user))  # fmt: skip
        expect(panel.get_by_role("button", name="Confirm")).to_be_visible()
        expect(panel.locator(".report-box")).to_contain_text(f"{opponent.display_name} #{opponent.pk} reported")
        expect(announced).to_contain_text(f"{opponent.display_name} reported: You lost. Confirm or dispute it.")
        assert page.evaluate("window.notReloaded") is True
        page.screenshot(path=tmp_path / "me-report.png", full_page=True)
        axe_check(page)
        assert_fits(page)

        panel.get_by_role("button", name="Confirm").click()  # the panel swapped in answers like the one loaded
        expect(panel.locator(".verdict")).to_have_text("Result: You lost")
        assert page.evaluate("window.notReloaded") is True
    finally:
        context.close()
    assert not errors, errors


def test_the_clock_stops_on_the_dashboard_and_the_venue_display_when_the_last_result_comes_in(
    chromium, asgi, organiser
):
    from django.test import override_settings

    from tests.browser.conftest import CSP_LISTENER, _csp_violation, sign_in
    from tests.support.processes import LOCAL

    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    for name in ("Yugi", "Joey", "Kaiba", "Mai"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    services.round_start(event=event, by=organiser, seed=3)
    live_services.timer_start(event=event, round_number=1, minutes=50, by=organiser)
    token = token_for(organiser)
    errors: list[str] = []
    context = chromium.new_context(base_url=asgi, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    with override_settings(SECRET_KEY=LOCAL["SECRET_KEY"]):
        sign_in(context, organiser, asgi)
    dashboard, display = context.new_page(), context.new_page()
    for page in (dashboard, display):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(CSP_LISTENER)
        page.on("console", lambda message, page=page: _csp_violation(page, message, errors))
    try:
        dashboard.goto(f"/dashboard/events/{event.pk}/")
        display.goto(f"/live/events/{event.pk}/display/")
        card = dashboard.locator("#round-timer")
        expect(card.locator(".dashboard-clock")).to_have_attribute("data-state", "running")
        expect(card.get_by_role("button", name="Extend")).to_be_visible()
        for page in (dashboard, display):
            expect(page.locator("html")).to_have_attribute("data-live", "open")
            page.evaluate("window.notReloaded = true")

        for table in (1, 2):
            a, b = seats_of(event, table)
            _post(asgi, f"/api/v1/events/{event.pk}/rounds/1/tables/{table}/result/",
                  {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]}, token)  # fmt: skip
        expect(display.locator(".display-clock .clock-time")).to_have_text("Finished")
        expect(card.locator(".dashboard-clock .clock-time")).to_have_text("Finished")
        expect(card).to_contain_text("Every table has its result: the round is over and its clock has stopped.")
        expect(card.get_by_role("button", name="Extend")).to_have_count(0)
        expect(card.get_by_role("button", name="Pause")).to_have_count(0)
        for page in (dashboard, display):
            assert page.evaluate("window.notReloaded") is True
        axe_check(dashboard)
        axe_check(display)
    finally:
        context.close()
    assert not errors, errors
