"""The live pages: overlays without site chrome that other pages may frame, the caster's page, the venue display,
the printouts; CORS and ETags on the public reads."""

from __future__ import annotations

import datetime
from html import unescape

import pytest

from games import services as game_services
from live import payloads, selectors
from live import services as live_services
from live.models import LiveEvent
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.people import as_user
from tournaments import services

pytestmark = pytest.mark.django_db


def test_overlays_have_no_site_chrome_may_be_framed_and_take_their_style_from_the_url(duel, organiser, client):
    station = live_services.station_create(event=duel, slug="stream-1", by=organiser)
    live_services.station_update(station=station, by=organiser, table_number=1)
    base = f"/live/events/{duel.pk}/"
    for path in ("stations/stream-1/", "overlays/standings/", "overlays/standings/?mode=ticker", "overlays/pairings/",
                 "overlays/bracket/", "overlays/timer/"):  # fmt: skip
        page = client.get(base + path + ("&" if "?" in path else "?") + "accent=ff3366&font=Inter&scale=0.5")
        assert page.status_code == 200, path
        html = unescape(page.content.decode())
        assert 'class="overlay"' in html and 'class="topbar"' not in html, path
        style = '{"--accent": "#ff3366", "--font": "\'Inter\', system-ui, sans-serif", "--scale": "0.5"}'
        assert f"data-overlay-style='{style}'" in html or f'data-overlay-style="{style}"' in html, path
        assert "X-Frame-Options" not in page.headers, path
    sneaky = client.get(base + "overlays/timer/?accent=red;}body{display:none&font=x</style>")
    # The values are checked: none of them reaches the page's style (the URL itself is only an escaped attribute).
    assert 'data-overlay-style=""' in sneaky.content.decode() and "--accent" not in sneaky.content.decode()
    assert client.get(base + "stations/nope/").status_code == 404
    assert client.get(base + "stations/stream-1/?token=wrong").status_code == 403
    fragment = client.get(base + "stations/stream-1/?fragment=1").content.decode()
    assert "<html" not in fragment and 'data-player="' in fragment


def test_the_caster_page_is_for_casters_and_organisers(duel, staff_users, client):
    url = f"/live/events/{duel.pk}/caster/"
    assert as_user(client, staff_users["cass"]).get(url).status_code == 200
    assert as_user(client, staff_users["jo"]).get(url).status_code == 403
    page = as_user(client, staff_users["organiser"]).post(url + "stations/", {"slug": "stream-1", "name": ""})
    assert page.status_code == 302
    shown = client.get(url).content.decode()
    assert f"/live/events/{duel.pk}/stations/stream-1/" in shown and "Table 1:" in shown


def test_the_dashboard_clock_card_and_a_tables_extra_time_page(duel, staff_users, client):
    judge = as_user(client, staff_users["jo"])
    card = judge.get(f"/live/events/{duel.pk}/timer/", headers={"HX-Request": "true"})
    assert card.status_code == 200 and "Start the clock" in card.content.decode()
    started = judge.post(f"/live/events/{duel.pk}/rounds/1/timer/start/", {"minutes": "45"})
    assert started.status_code == 302
    assert "Pause" in judge.get(f"/live/events/{duel.pk}/timer/", headers={"HX-Request": "true"}).content.decode()
    extension = f"/live/events/{duel.pk}/rounds/1/tables/1/extension/"
    assert judge.post(extension, {"minutes": "3", "reason": ""}).status_code == 400
    assert judge.post(extension, {"minutes": "3", "reason": "Judge call"}).status_code == 302
    assert "Judge call" in judge.get(extension).content.decode()


def test_the_venue_display_and_the_printouts(duel, staff_users, client):
    base = f"/live/events/{duel.pk}/"
    display = client.get(base + "display/").content.decode()
    assert "pairings by name" in display and 'class="topbar"' not in display
    by_name = client.get(base + "print/pairings/").content.decode()
    assert "Joey" in by_name and "pairings by name" in by_name
    assert "Table" in client.get(base + "print/pairings/?by=table").content.decode()
    assert client.get(base + "print/slips/").status_code == 302  # staff only: sign in
    slips = as_user(client, staff_users["sam"]).get(base + "print/slips/?round=1").content.decode()
    assert slips.count('class="slip"') == 2 and "Signature" in slips
    assert "OMW%" in client.get(base + "print/standings/").content.decode()
    assert client.get(base + "print/bracket/").status_code == 200


def test_public_reads_answer_cors_headers_and_304_for_an_etag_the_client_has(duel, client):
    url = f"/api/v1/events/{duel.pk}/standings/"
    first = client.get(url, headers={"Origin": "https://overlays.example"})
    assert first.headers["Access-Control-Allow-Origin"] == "*"
    etag = first.headers["ETag"]
    again = client.get(url, headers={"If-None-Match": etag, "Origin": "https://overlays.example"})
    assert again.status_code == 304 and again.content == b""
    assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
    preflight = client.options(
        f"/api/v1/events/{duel.pk}/stream/",
        headers={"Origin": "https://overlays.example", "Access-Control-Request-Method": "GET",
                 "Access-Control-Request-Headers": "last-event-id"},
    )  # fmt: skip
    assert preflight.status_code == 200
    assert "last-event-id" in preflight.headers["Access-Control-Allow-Headers"]
    assert "POST" not in preflight.headers["Access-Control-Allow-Methods"]


def test_the_allowed_origins_are_configurable(duel, client, settings):
    settings.CORS_ALLOW_ALL_ORIGINS = False
    settings.CORS_ALLOWED_ORIGINS = ["https://overlays.example"]
    url = f"/api/v1/events/{duel.pk}/live/"
    allowed = client.get(url, headers={"Origin": "https://overlays.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://overlays.example"
    assert "Access-Control-Allow-Origin" not in client.get(url, headers={"Origin": "https://evil.example"}).headers


def test_a_featured_master_trainer_table_shows_the_status_condition_on_the_players_plate(organiser, client):
    """§18 Status Conditions reach the stream overlay: the feature match's payload, the page and the live event."""
    event = services.event_create(
        organiser=organiser, name="MT Night", format="master-trainer", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    for name in ("Ash", "Misty"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    services.round_start(event=event, by=organiser, seed=3)
    station = live_services.station_create(event=event, slug="stream-1", by=organiser)
    station = live_services.station_update(station=station, by=organiser, table_number=1)
    pod = event.rounds.get(number=1).pods.get(table_number=1)
    game = game_services.game_create(pod=pod, by=organiser)
    first, second = game.players
    game, _ = game_services.game_event_append(
        game=game, expected_version=0, type="start_turn", data={"player": first}, by=organiser
    )
    game, _ = game_services.game_event_append(
        game=game, expected_version=1, type="apply_status_condition", data={"player": second, "condition": "poisoned"},
        by=organiser,
    )  # fmt: skip

    shown = payloads.feature_match(selectors.feature_match(station=station, decks_visible=False))
    conditions = {p["id"]: p["status_conditions"] for p in shown["players"]}
    assert conditions == {first: [], second: ["Poisoned"]}
    pushed = LiveEvent.objects.filter(event=event, kind="game.state_changed").order_by("id").last()
    assert {p["id"]: p["status_conditions"] for p in pushed.data["players"]} == conditions
    page = client.get(f"/live/events/{event.pk}/stations/stream-1/").content.decode()
    assert '<span class="condition">Poisoned</span>' in page
    assert page.count('class="conditions" aria-label="Status Conditions" hidden') == 1  # the first player's: none

    game_services.game_event_append(
        game=game, expected_version=2, type="remove_status_condition", data={"player": second}, by=organiser
    )
    page = client.get(f"/live/events/{event.pk}/stations/stream-1/").content.decode()
    assert 'class="condition"' not in page
    assert page.count('class="conditions" aria-label="Status Conditions" hidden') == 2
