"""Game benchmarks: appending an entry through the service layer, and replaying a 10,000-entry log.

Uses Mintayn Master turns (start, mana, select, end) as the log: the cheapest
legal loop, so the figures measure the machinery rather than one rule.
"""

from __future__ import annotations

import statistics
import time
import uuid

from django.utils import timezone

from bench import organiser as bench_organiser
from games import services
from rules import get_format
from rules.engine import GameEvent, replay
from tournaments import services as tournament_services
from tournaments.models import Event, Player


def _turns(players: list[int], count: int) -> list[tuple[str, dict]]:
    events: list[tuple[str, dict]] = []
    turn = 0
    while len(events) < count:
        p = players[turn % 2]
        events += [
            ("start_turn", {"player": p}),
            ("select", {"player": p}),
            ("end_turn", {"player": p, "hand_size": 5}),
        ]
        turn += 1
    return events[:count]


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    engine = get_format("mintayn-master").engine
    players = [1, 2]
    log = [GameEvent(type=t, data=d) for t, d in _turns(players, 10_000)]
    replays = []
    for _ in range(3 if quick else 7):
        t = time.perf_counter()
        state = replay(engine, players, None, log)
        replays.append((time.perf_counter() - t) * 1000)
    if state["seq"] != 10_000:
        raise RuntimeError(f"the benchmark log was refused after {state['seq']} entries")

    organiser = bench_organiser()
    event = tournament_services.event_create(
        organiser=organiser, name=f"bench {uuid.uuid4().hex[:6]}", format="mintayn-master", planned_rounds=1,
        date=timezone.localdate(),
    )  # fmt: skip
    try:
        for i in range(2):
            tournament_services.registration_create(
                event=event, by=organiser, display_name=f"bench {i}", checked_in=True
            )
        round_ = tournament_services.round_start(event=event, by=organiser, seed=1)
        pod = round_.pods.get(table_number=1)
        game = services.game_create(pod=pod, by=organiser)
        n = 60 if quick else 300
        appends = []
        out.write(f"appending {n} entries through the service layer ...")
        for event_type, data in _turns(game.players, n):
            t = time.perf_counter()
            game, _ = services.game_event_append(
                game=game, expected_version=game.version, type=event_type, data=data, by=organiser
            )
            appends.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        services.replay(game)
        db_replay_ms = (time.perf_counter() - t) * 1000
    finally:
        players_ids = list(event.registrations.values_list("player_id", flat=True))
        Event.objects.filter(pk=event.pk).delete()
        Player.objects.filter(pk__in=players_ids).delete()

    figures = {
        "append_median_ms": round(statistics.median(appends), 3),
        "append_p95_ms": round(sorted(appends)[int(len(appends) * 0.95) - 1], 3),
        "appends": len(appends),
        "replay_10k_engine_ms": round(min(replays), 1),
        "replay_10k_engine_median_ms": round(statistics.median(replays), 1),
        "replay_db_log_ms": round(db_replay_ms, 1),
        "replay_db_log_entries": len(appends),
    }
    rows = [
        ("append an entry via the service, median", f"{figures['append_median_ms']:.2f} ms (target ≤ 10 ms)"),
        ("append, 95th percentile", f"{figures['append_p95_ms']:.2f} ms"),
        (
            "replay a 10,000-entry log in the engine, best",
            f"{figures['replay_10k_engine_ms']:.0f} ms (target ≤ 100 ms)",
        ),
        ("replay, median", f"{figures['replay_10k_engine_median_ms']:.0f} ms"),
        (f"load and replay the {len(appends)}-entry log from the database", f"{db_replay_ms:.1f} ms"),
    ]
    return rows, figures
