"""The live push follows the domain events: every change an overlay shows writes one live event in its transaction,
numbered after the commit in order, tagged with the stations it concerns; a change that rolls back writes none, and
a live event that cannot be built never fails the change."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import services as game_services
from live import publish, readers
from live import services as live_services
from live.models import LiveEvent
from tests.support.live import seats_of
from tournaments import services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db(transaction=True)


def _kinds(event) -> list[tuple[int | None, str, list | None]]:
    return list(LiveEvent.objects.filter(event=event).order_by("id").values_list("seq", "kind", "stations"))


def test_each_change_an_overlay_shows_is_one_numbered_live_event_tagged_with_its_stations(duel, organiser):
    station = live_services.station_create(event=duel, slug="stream-1", by=organiser)
    live_services.station_update(station=station, by=organiser, table_number=2)
    a, b = seats_of(duel, 2)
    game = game_services.game_create(pod=duel.rounds.get(number=1).pods.get(table_number=2), by=organiser)
    game_services.game_event_append(game=game, expected_version=0, type="start_turn", data={"player": a}, by=organiser)
    live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
    c, d = seats_of(duel, 1)
    services.pod_result_report(event=duel, round_number=1, table_number=1, placements={c: 1, d: 2}, by=organiser)
    rows = _kinds(duel)
    kinds = [kind for _, kind, _ in rows]
    assert kinds[:2] == ["round.started", "standings.updated"]
    assert kinds[2:] == [
        "feature.changed", "feature.changed", "game.state_changed", "game.state_changed", "timer.changed",
        "table.result", "standings.updated",
    ]  # fmt: skip
    assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1))
    tags = {kind: stations for _, kind, stations in rows[2:]}
    assert tags["feature.changed"] == ["stream-1"] and tags["game.state_changed"] == ["stream-1"]
    assert tags["table.result"] == [] and tags["timer.changed"] is None


def test_a_result_is_carried_by_the_streams_of_the_stations_on_its_table_while_its_round_is_the_latest(duel, organiser):
    """The stations are found in the statement that writes the live event: those on the table, by slug, and none
    once a later round is paired (a correction of the earlier round)."""
    for slug in ("stream-b", "stream-a"):
        station = live_services.station_create(event=duel, slug=slug, by=organiser)
        live_services.station_update(station=station, by=organiser, table_number=1)
    rounds = {}
    for number in (1, 2):
        (a, b), (c, d) = seats_of(duel, 1, number), seats_of(duel, 2, number)
        for table, (x, y) in ((1, (a, b)), (2, (c, d))):
            services.pod_result_report(
                event=duel, round_number=number, table_number=table, placements={x: 1, y: 2}, by=organiser
            )
        rounds[number] = (a, b)
        if number == 1:
            services.round_start(event=duel, by=organiser, seed=4)
    a, b = rounds[1]
    result_services.result_correct(
        event=duel, round_number=1, table_number=1, placements={a: 2, b: 1}, reason="swapped slips", by=organiser
    )
    results = LiveEvent.objects.filter(event=duel, kind="table.result").order_by("id")
    assert [(e.data["round"], e.data["table"], e.stations) for e in results] == [
        (1, 1, ["stream-a", "stream-b"]), (1, 2, []), (2, 1, ["stream-a", "stream-b"]), (2, 2, []), (1, 1, []),
    ]  # fmt: skip
    assert all(e.players == [p["id"] for p in e.data["players"]] for e in results)


def test_each_live_event_names_the_players_whose_own_stream_carries_it(duel, organiser):
    """A player's own stream (``?player=``) carries a table's news only to that table's players, what concerns the
    whole event to everyone, and no station's feature match."""
    station = live_services.station_create(event=duel, slug="stream-1", by=organiser)
    live_services.station_update(station=station, by=organiser, table_number=2)
    a, b = seats_of(duel, 2)
    c, d = seats_of(duel, 1)
    game = game_services.game_create(pod=duel.rounds.get(number=1).pods.get(table_number=2), by=organiser)
    game_services.game_event_append(game=game, expected_version=0, type="start_turn", data={"player": a}, by=organiser)
    live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
    live_services.table_time_extend(
        event=duel, round_number=1, table_number=1, minutes=3, reason="deck check", by=organiser
    )
    services.pod_result_report(event=duel, round_number=1, table_number=1, placements={c: 1, d: 2}, by=organiser)
    rows = list(LiveEvent.objects.filter(event=duel).order_by("id").values_list("kind", "data", "players"))
    players = [(kind, sorted(tagged) if tagged is not None else None) for kind, _, tagged in rows]
    assert players == [
        ("round.started", None), ("standings.updated", None), ("feature.changed", []), ("feature.changed", []),
        ("game.state_changed", sorted([a, b])), ("game.state_changed", sorted([a, b])), ("timer.changed", None),
        ("timer.changed", sorted([c, d])), ("table.result", sorted([c, d])), ("standings.updated", None),
    ]  # fmt: skip
    assert rows[7][1]["table"] == 1
    numbered = publish.Message.of(LiveEvent.objects.get(event=duel, kind="table.result"))
    assert numbered.for_player(c) and numbered.for_player(None) and not numbered.for_player(a)
    assert publish.Message.decode(numbered.encode()) == numbered


def test_a_change_that_rolls_back_leaves_no_live_event(duel, organiser):
    before = LiveEvent.objects.filter(event=duel).count()
    with pytest.raises(RuntimeError), transaction.atomic():
        live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
        raise RuntimeError("the request failed after the timer started")
    assert LiveEvent.objects.filter(event=duel).count() == before


def test_a_live_event_that_cannot_be_built_never_fails_the_change(duel, organiser, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise ValueError("a bug in the overlay's payload")

    monkeypatch.setattr(readers.payloads, "timer_view", broken)
    timer = live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
    assert timer.pk is not None
    assert not LiveEvent.objects.filter(event=duel, kind="timer.changed").exists()
    assert "No live event for timer.started" in caplog.text


def test_without_redis_the_live_events_go_to_this_processs_hub(duel, organiser, monkeypatch, settings):
    settings.PODIUM_LIVE_REDIS_URL = None
    sent = []
    monkeypatch.setattr(publish, "LOCAL_HUBS", [sent.extend])
    live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
    assert [(m.kind, m.event_id) for m in sent] == [("timer.changed", duel.pk)]
    assert publish.Message.decode(sent[0].encode()) == sent[0]


def test_events_left_unnumbered_by_a_publisher_that_died_are_numbered_by_the_sweep(duel, organiser, monkeypatch):
    monkeypatch.setattr(readers, "publish_soon", lambda event_id: None)  # the process dies after its commit
    live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
    orphan = LiveEvent.objects.get(event=duel, kind="timer.changed")
    assert orphan.seq is None
    assert publish.live_events_publish_pending(older_than=0) == 1
    orphan.refresh_from_db()
    assert orphan.seq == LiveEvent.objects.filter(event=duel).count()


def test_a_game_started_at_a_featured_table_is_on_its_station_before_its_first_entry(duel, organiser):
    """The overlay shows the new game (its counters at their start) as soon as the judge starts it."""
    station = live_services.station_create(event=duel, slug="stream-1", by=organiser)
    live_services.station_update(station=station, by=organiser, table_number=2)
    game = game_services.game_create(pod=duel.rounds.get(number=1).pods.get(table_number=2), by=organiser)
    started = LiveEvent.objects.filter(event=duel, kind="game.state_changed").get()
    assert started.stations == ["stream-1"]
    assert started.data["entry"] is None
    assert started.data["game"]["id"] == game.pk and started.data["game"]["number"] == 1
    assert started.data["table"] == 2 and len(started.data["players"]) == 2
    assert all(player["counters"] for player in started.data["players"])  # LP and the Deck Master from the start


def test_a_players_report_and_a_dispute_tell_the_tables_players_and_no_station_nothing_of_the_outcome(
    duel, organiser, django_user_model
):
    """The players' pages follow the event's stream: a report to confirm, or a dispute, names the table and who sits
    there, so each player's page fetches its own view; what was reported is not in it."""
    from tournaments.models import Player
    from tournaments.services import results

    services.event_update(event=duel, by=organiser, player_reports=True)
    duel.refresh_from_db()
    live_services.station_create(event=duel, slug="stream-1", by=organiser)
    a, b = seats_of(duel, 1)
    reporter, opponent = (django_user_model.objects.create_user(username=f"p{pid}") for pid in (a, b))
    Player.objects.filter(pk=a).update(user=reporter)
    Player.objects.filter(pk=b).update(user=opponent)

    results.result_player_report(event=duel, round_number=1, table_number=1, placements={a: 1, b: 2}, by=reporter)
    results.result_respond(event=duel, round_number=1, table_number=1, agrees=False, by=opponent)
    pushed = list(LiveEvent.objects.filter(event=duel, kind="table.report_changed").order_by("seq"))
    assert [e.data for e in pushed] == [{"round": 1, "table": 1, "players": [a, b]}] * 2
    assert all(e.seq is not None and e.stations == [] and e.players == [a, b] for e in pushed)
