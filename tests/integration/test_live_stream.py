"""The live push through real processes: uvicorn serving the streams, a Redis server of the test's own between them.

The changes are made in this process, through the services, as a judge's or an organiser's request makes them; the
live events reach the server's streams over Redis pub/sub.  One server (and one Redis) for the module.
"""

from __future__ import annotations

import datetime
import json
import uuid
from types import SimpleNamespace

import pytest
from django.conf import settings

from floor import services as floor_services
from games import services as game_services
from live import services as live_services
from live.models import LiveEvent
from tests.conftest import IN_CI
from tests.factories import PlayerFactory, RegistrationFactory
from tests.integration.conftest import database_url
from tests.support.live import (
    Stream,
    free_port,
    live_settings,
    redis_server_missing,
    start_asgi,
    start_redis,
    stop,
)
from tests.support.processes import LOCAL
from tournaments import services
from tournaments.services import staff

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def server(django_db_setup, tmp_path_factory):
    missing = redis_server_missing()
    if missing:
        if IN_CI:
            pytest.fail(f"CI=true but the live stream tests cannot run: {missing}")
        pytest.skip(missing)
    port = free_port()
    redis = start_redis(port)
    redis_url = f"redis://127.0.0.1:{port}/0"
    channel = f"podium:live:test:{uuid.uuid4().hex[:12]}"
    log = tmp_path_factory.mktemp("asgi") / "uvicorn.log"
    url, stop_web = start_asgi(
        database_url(), log,
        env={"PODIUM_LIVE_REDIS_URL": redis_url, "PODIUM_LIVE_CHANNEL": channel, "PODIUM_LIVE_HEARTBEAT": "1",
             "REDIS_URL": ""},
    )  # fmt: skip
    state = SimpleNamespace(url=url, port=port, redis=redis, log=log)
    try:
        with live_settings(redis_url, channel):
            yield state
    finally:
        stop_web()
        stop(state.redis)


@pytest.fixture
def duel(organiser):
    """A Deck Masters event (1v1, best of 3) with four checked-in players, no round yet."""
    event = services.event_create(
        organiser=organiser, name="Live Duels", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    for name in ("Yugi", "Joey", "Kaiba", "Mai"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    return event


def _open(server, path: str, last: int | None = None) -> Stream:
    stream = Stream(server.url, path, last_event_id=last)
    assert stream.status == 200, getattr(stream, "body", b"")
    return stream


def test_rounds_results_and_standings_are_pushed_to_the_events_stream(server, duel, organiser):
    stream = Stream(server.url, f"/api/v1/events/{duel.pk}/stream/", origin="https://overlays.example")
    try:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["access-control-allow-origin"] == "*"  # PODIUM_CORS_ORIGINS' default
        snapshot = stream.next_event("snapshot")
        assert snapshot.data["round"] is None and snapshot.id == 0

        round_ = services.round_start(event=duel, by=organiser, seed=3)
        started = stream.next_event("round.started")
        assert started.data["round"] == {"number": 1, "stage": "swiss", "label": "Round 1"}
        assert started.id > snapshot.id

        pod = round_.pods.get(table_number=1)
        winner, loser = [s.player_id for s in pod.seats.order_by("seat_order")]
        services.pod_result_report(
            event=duel, round_number=1, table_number=1, placements={winner: 1, loser: 2}, by=organiser,
            games={winner: (2, 0, 0), loser: (0, 2, 0)},
        )  # fmt: skip
        result = stream.next_event("table.result")
        assert (result.data["round"], result.data["table"]) == (1, 1)
        assert {p["id"]: p["placement"] for p in result.data["players"]} == {winner: 1, loser: 2}
        standings = stream.next_event("standings.updated", where=lambda d: d["standings"][0]["points"] == 3)
        assert standings.data["standings"][0]["player"] == winner
        assert standings.data["standings"][0]["record"] == "1-0-0"
        ids = [e.id for e in stream.events]
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
    finally:
        stream.close()


def test_a_judges_entry_and_the_casters_table_are_pushed_to_the_stations_stream(server, duel, organiser):
    round_ = services.round_start(event=duel, by=organiser, seed=3)
    station = live_services.station_create(event=duel, slug="stream-1", name="Stream 1", by=organiser)
    stream = _open(server, f"/api/v1/events/{duel.pk}/stations/stream-1/stream/")
    try:
        assert stream.next_event("snapshot").data["table"] is None
        live_services.station_update(station=station, by=organiser, table_number=2)
        feature = stream.next_event("feature.changed")
        pod = round_.pods.get(table_number=2)
        seated = [s.player_id for s in pod.seats.order_by("seat_order")]
        assert feature.data["table"] == 2 and [p["id"] for p in feature.data["players"]] == seated

        game = game_services.game_create(pod=pod, by=organiser)
        game, _ = game_services.game_event_append(
            game=game, expected_version=0, type="start_turn", data={"player": seated[0]}, by=organiser
        )
        game, _ = game_services.game_event_append(
            game=game, expected_version=1, type="lp_change", data={"changes": {str(seated[1]): -1200}}, by=organiser
        )
        started = stream.next_event("game.state_changed")
        assert started.data["entry"] is None and started.data["game"]["id"] == game.pk
        first = stream.next_event("game.state_changed")
        assert first.data["entry"]["type"] == "start_turn"
        assert [p["active"] for p in first.data["players"]] == [True, False]
        changed = stream.next_event("game.state_changed")
        assert changed.data["entry"]["seq"] == 2
        lp = {p["id"]: {c["name"]: c["value"] for c in p["counters"]}["lp"] for p in changed.data["players"]}
        assert lp == {seated[0]: 8000, seated[1]: 6800}

        # An entry at another table is not this station's.
        other = round_.pods.get(table_number=1)
        other_game = game_services.game_create(pod=other, by=organiser)
        first_player = other.seats.order_by("seat_order").first().player_id
        game_services.game_event_append(
            game=other_game, expected_version=0, type="start_turn", data={"player": first_player}, by=organiser
        )
        live_services.timer_start(event=duel, round_number=1, minutes=40, by=organiser)
        timer = stream.next_event("timer.changed")
        assert [e.kind for e in stream.events].count("game.state_changed") == 3
        assert timer.data["timer"]["state"] == "running" and timer.data["timer"]["duration"] == 2400
    finally:
        stream.close()


def test_the_timer_is_pushed_when_it_starts_pauses_resumes_and_extends(server, duel, organiser):
    services.round_start(event=duel, by=organiser, seed=3)
    stream = _open(server, f"/api/v1/events/{duel.pk}/stream/")
    try:
        stream.next_event("snapshot")
        live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
        started = stream.next_event("timer.changed").data["timer"]
        live_services.timer_pause(event=duel, round_number=1, by=organiser)
        paused = stream.next_event("timer.changed").data["timer"]
        live_services.timer_extend(event=duel, round_number=1, minutes=5, by=organiser)
        extended = stream.next_event("timer.changed").data["timer"]
        live_services.timer_resume(event=duel, round_number=1, by=organiser)
        resumed = stream.next_event("timer.changed").data["timer"]
        live_services.table_time_extend(
            event=duel, round_number=1, table_number=2, minutes=3, reason="deck check", by=organiser
        )
        table = stream.next_event("timer.changed").data
        assert (started["state"], paused["state"], extended["state"], resumed["state"]) == (
            "running", "paused", "paused", "running"
        )  # fmt: skip
        assert started["deadline"] and paused["deadline"] is None and resumed["deadline"]
        assert extended["remaining"] == paused["remaining"] + 300
        assert table["table"] == 2 and table["timer"]["extension"] == 180
    finally:
        stream.close()


def test_a_client_that_reconnects_with_its_last_event_id_is_sent_what_it_missed(server, duel, organiser):
    stream = _open(server, f"/api/v1/events/{duel.pk}/stream/")
    services.round_start(event=duel, by=organiser, seed=3)
    seen = stream.next_event("round.started").id
    stream.close()
    # While it is away: the clock starts, two tables report.
    live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
    for table in (1, 2):
        seats = list(duel.rounds.get(number=1).pods.get(table_number=table).seats.order_by("seat_order"))
        services.pod_result_report(
            event=duel, round_number=1, table_number=table, by=organiser,
            placements={seats[0].player_id: 1, seats[1].player_id: 2},
        )  # fmt: skip
    missed = list(LiveEvent.objects.filter(event=duel, seq__gt=seen).order_by("seq").values_list("seq", "kind"))
    assert len(missed) >= 4
    again = _open(server, f"/api/v1/events/{duel.pk}/stream/", last=seen)
    try:
        received = [again.next_event() for _ in missed]
        assert [(e.id, e.kind) for e in received] == missed  # nothing missed, nothing twice, no snapshot
    finally:
        again.close()


def test_a_last_event_id_older_than_what_is_kept_gets_a_snapshot_first(server, duel, organiser):
    services.round_start(event=duel, by=organiser, seed=3)
    live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
    latest = LiveEvent.objects.filter(event=duel).order_by("-seq").first().seq
    LiveEvent.objects.filter(event=duel, seq__lt=latest).delete()  # what the retention (PODIUM_LIVE_KEEP) does
    stream = _open(server, f"/api/v1/events/{duel.pk}/stream/", last=1)
    try:
        snapshot = stream.next_event()
        assert snapshot.kind == "snapshot" and snapshot.id == latest
        assert snapshot.data["round"]["number"] == 1 and snapshot.data["timer"]["state"] == "running"
    finally:
        stream.close()


def test_streams_go_on_without_losing_an_event_when_redis_restarts(server, duel, organiser):
    services.round_start(event=duel, by=organiser, seed=3)
    stream = _open(server, f"/api/v1/events/{duel.pk}/stream/")
    try:
        stream.next_event("snapshot")
        live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
        before = stream.next_event("timer.changed").id
        stop(server.redis)  # Redis goes away: what is recorded now cannot be published
        live_services.timer_pause(event=duel, round_number=1, by=organiser)
        live_services.timer_extend(event=duel, round_number=1, minutes=2, by=organiser)
        server.redis = start_redis(server.port)  # and comes back, empty
        live_services.timer_resume(event=duel, round_number=1, by=organiser)
        received = [stream.next_event("timer.changed") for _ in range(3)]
        assert [e.id for e in received] == [before + 1, before + 2, before + 3]
        assert [e.data["timer"]["state"] for e in received] == ["paused", "paused", "running"]
    finally:
        stream.close()


def test_an_unknown_event_or_station_is_a_404_in_the_apis_error_shape(server, duel):
    for path, code in ((f"/api/v1/events/{10**12 + duel.pk}/stream/", "not_found"),
                       (f"/api/v1/events/{duel.pk}/stations/nope/stream/", "station_not_found")):  # fmt: skip
        stream = Stream(server.url, path)
        assert stream.status == 404, (path, stream.status, getattr(stream, "body", None))
        assert stream.headers["content-type"] == "application/json"
        assert b'"code": "%s"' % code.encode() in stream.body
        stream.close()
    assert settings.PODIUM_LIVE_REDIS_URL.endswith(f":{server.port}/0")


def test_a_players_own_stream_carries_the_round_and_only_their_own_tables_news(server, duel, organiser):
    """``?player=`` (the player's page): every stream's round, timer and standings, and of the tables' news only the
    player's own; the event's stream still carries every table."""
    round_ = services.round_start(event=duel, by=organiser, seed=3)
    live_services.station_create(event=duel, slug="stream-1", name="Stream 1", by=organiser)
    tables = {n: [s.player_id for s in round_.pods.get(table_number=n).seats.order_by("seat_order")] for n in (1, 2)}
    me = tables[1][0]
    elsewhere = tables[2][0]
    mine = _open(server, f"/api/v1/events/{duel.pk}/stream/?player={me}")
    theirs = _open(server, f"/api/v1/events/{duel.pk}/stream/?player={elsewhere}")
    everyone = _open(server, f"/api/v1/events/{duel.pk}/stream/")
    try:
        snapshot = mine.next_event("snapshot")
        assert [t["table"] for t in snapshot.data["tables"]] == [1]  # the player's own table only
        assert len(everyone.next_event("snapshot").data["tables"]) == 2
        theirs.next_event("snapshot")
        for table in (2, 1):
            winner, loser = tables[table]
            services.pod_result_report(
                event=duel, round_number=1, table_number=table, placements={winner: 1, loser: 2}, by=organiser,
                games={winner: (2, 0, 0), loser: (0, 2, 0)},
            )  # fmt: skip
        assert [everyone.next_event("table.result").data["table"] for _ in range(2)] == [2, 1]
        assert mine.next_event("table.result").data["table"] == 1
        assert theirs.next_event("table.result").data["table"] == 2
        for stream in (mine, theirs, everyone):
            stream.next_event("standings.updated", where=lambda d: len(d["standings"]) == 4)
        services.round_start(event=duel, by=organiser, seed=4)
        for stream in (mine, theirs, everyone):
            assert stream.next_event("round.started").data["round"]["number"] == 2
        everyone.next_event("feature.changed")
        assert [e.data["table"] for e in mine.events if e.kind == "table.result"] == [1]
        assert [e.data["table"] for e in theirs.events if e.kind == "table.result"] == [2]
        assert not any(e.kind == "feature.changed" for e in mine.events + theirs.events)
        ids = [e.id for e in mine.events]
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
    finally:
        for stream in (mine, theirs, everyone):
            stream.close()
    # Reconnecting with its last id, the player's stream is sent what it missed of its own only.
    seen = mine.events[-1].id
    second = {
        pod.table_number: [s.player_id for s in pod.seats.order_by("seat_order")]
        for pod in duel.rounds.get(number=2).pods.all()
    }
    my_table = next(n for n, seated in second.items() if me in seated)
    for table in sorted(second, key=lambda n: n == my_table):  # another table first, then the player's
        winner, loser = second[table]
        services.pod_result_report(
            event=duel, round_number=2, table_number=table, placements={winner: 1, loser: 2}, by=organiser
        )
    again = _open(server, f"/api/v1/events/{duel.pk}/stream/?player={me}", last=seen)
    try:
        assert again.next_event("table.result").data["table"] == my_table
        # No snapshot, and not the other table's result (the standings it moved, yes).
        assert [e.kind for e in again.events if e.kind in ("snapshot", "table.result")] == ["table.result"]
    finally:
        again.close()


def test_a_player_stream_for_no_number_is_a_400_and_for_someone_not_registered_a_404(server, duel):
    outsider = PlayerFactory(display_name="Nobody")
    for query, status, code in (("?player=abc", 400, "invalid"), (f"?player={outsider.pk}", 404, "player_not_found")):
        stream = Stream(server.url, f"/api/v1/events/{duel.pk}/stream/{query}")
        assert stream.status == status, (query, stream.status, getattr(stream, "body", None))
        body = json.loads(stream.body)
        assert body["error"]["code"] == code
        if status == 400:
            assert body["error"]["fields"] == {"player": ["A player's id is a number."]}
        stream.close()


def test_a_judges_staff_stream_receives_a_new_call_that_the_events_stream_does_not(
    server, duel, organiser, client, settings
):
    """The judges' queue follows the staff stream, opened with the judge's session; a call made through the service
    reaches it over Redis, and the public stream carries none of it.  Without a session: 401."""
    from django.contrib.auth import get_user_model

    judge = get_user_model().objects.create_user(username="jo", password="pw")
    staff.staff_add(event=duel, username="jo", role="judge", by=organiser)
    services.round_start(event=duel, by=organiser, seed=3)
    settings.SECRET_KEY = LOCAL["SECRET_KEY"]  # the session as the server reads it: signed with its key
    client.force_login(judge)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    refused = Stream(server.url, f"/api/v1/events/{duel.pk}/judge-calls/stream/")
    assert refused.status == 401 and json.loads(refused.body)["error"]["code"] == "not_authenticated"
    refused.close()
    queue = Stream(server.url, f"/api/v1/events/{duel.pk}/judge-calls/stream/", cookie=cookie)
    everyone = _open(server, f"/api/v1/events/{duel.pk}/stream/")
    try:
        assert queue.status == 200
        queue.next_event("snapshot")
        everyone.next_event("snapshot")
        call = floor_services.judge_call_open(event=duel, by=judge, table=2)
        pushed = queue.next_event("judge_call.changed")
        assert (pushed.data["call"], pushed.data["table"], pushed.data["state"]) == (call.pk, 2, "open")
        floor_services.judge_call_claim(call=call, by=judge)
        assert queue.next_event("judge_call.changed").data["state"] == "claimed"
        # The event's stream goes on meanwhile: a later public event reaches it, the calls never did.
        live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
        everyone.next_event("timer.changed")
        assert not any(e.kind == "judge_call.changed" for e in everyone.events)
    finally:
        queue.close()
        everyone.close()
