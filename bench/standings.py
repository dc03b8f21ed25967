"""Standings benchmarks: ``compute_standings`` on large synthetic events, no database.

1v1 events: every round the active players are paired at random; about 5 %
of matches are draws, the rest a coin flip; one player drops after round 5 so
that, from then on, someone gets a bye each round.  Pod events: pods of four
with random placements, a shared first place now and then.  Each figure is
the best of 5 runs (3 with ``--quick``), in milliseconds.
"""

from __future__ import annotations

import random
import time

from rules.base import ONE_VS_ONE, POD
from tournaments.standings import SeatResult, TableResult, compute_standings


def one_vs_one_event(players: int, rounds: int, *, games: bool = False, seed: int = 1) -> list[TableResult]:
    rng = random.Random(seed)
    active = list(range(1, players + 1))
    results: list[TableResult] = []
    for round_number in range(1, rounds + 1):
        if round_number == 6:
            active.pop(rng.randrange(len(active)))
        rng.shuffle(active)
        for k in range(0, len(active) - 1, 2):
            a, b = active[k], active[k + 1]
            roll = rng.random()
            if roll < 0.05:
                score = (1, 1, 1) if games else None
                seats = (SeatResult(a, 1, True, score), SeatResult(b, 1, True, score))
            else:
                winner, loser = (a, b) if roll < 0.525 else (b, a)
                lost = rng.randint(0, 1)
                seats = (
                    SeatResult(winner, 1, games=(2, lost, 0) if games else None),
                    SeatResult(loser, 2, games=(lost, 2, 0) if games else None),
                )
            results.append(TableResult(round_number, seats))
        if len(active) % 2:
            results.append(TableResult(round_number, (SeatResult(active[-1], 1),)))
    return results


def pod_event(players: int, rounds: int, *, seed: int = 1) -> list[TableResult]:
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    results: list[TableResult] = []
    for round_number in range(1, rounds + 1):
        rng.shuffle(ids)
        for k in range(0, len(ids), 4):
            pod = ids[k : k + 4]
            places = list(range(1, len(pod) + 1))
            rng.shuffle(places)
            if rng.random() < 0.05:
                # Two players share first place; the rest move down.
                places = [1, 1, 3, 4][: len(pod)]
            taken = places.count
            results.append(
                TableResult(
                    round_number,
                    tuple(SeatResult(p, place, taken(place) > 1) for p, place in zip(pod, places, strict=True)),
                )
            )
    return results


def _best_ms(repeats: int, call) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    repeats = 3 if quick else 5
    big = 2_000 if quick else 10_000
    rounds = 15
    cases = [
        ("one_vs_one_1k_ms", "1v1, 1,000 players x 15 rounds", 1_000, "classic", False, False),
        (f"one_vs_one_{big // 1000}k_ms", f"1v1, {big:,} players x 15 rounds", big, "classic", False, False),
        (f"pokemon_{big // 1000}k_ms", f"1v1, {big:,} players x 15 rounds, Pokémon", big, "pokemon", False, False),
        (
            f"magic_{big // 1000}k_ms",
            f"1v1, {big:,} players x 15 rounds, Magic, game scores",
            big,
            "magic",
            True,
            False,
        ),
        (f"pods_{big // 1000}k_ms", f"pods of 4, {big:,} players x 8 rounds", big, "classic", False, True),
    ]
    figures: dict = {"repeats": repeats}
    rows: list[tuple[str, str]] = []
    for key, label, players, convention, games, pods in cases:
        if pods:
            results = pod_event(players, 8)
            scoring, multiplayer = POD, True
        else:
            results = one_vs_one_event(players, rounds, games=games)
            scoring, multiplayer = ONE_VS_ONE, False
        out.write(f"{label}: {len(results):,} tables ...")
        ids = list(range(1, players + 1))
        ms = _best_ms(
            repeats,
            lambda ids=ids, results=results, scoring=scoring, multiplayer=multiplayer, convention=convention: (
                compute_standings(ids, results, scoring=scoring, multiplayer=multiplayer, convention=convention)
            ),
        )
        figures[key] = round(ms, 1)
        target = " (target ≤ 100 ms)" if key == "one_vs_one_10k_ms" else ""
        rows.append((f"{label}, best of {repeats}", f"{ms:.0f} ms{target}"))
    return rows, figures
