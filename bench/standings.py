"""Standings benchmarks: ``compute_standings`` on large synthetic events, no database.

1v1 events: every round the active players are paired at random; about 5 %
of matches are draws, the rest a coin flip; one player drops after round 5 so
that, from then on, someone gets a bye each round.  Pod events: pods of four
with random placements, a shared first place now and then.  Each figure is
the best of 5 runs (3 with ``--quick``), in milliseconds.

The baseline (:func:`numpy_classic`): the classic 1v1 standings written
directly in numpy, the yardstick the engine is held to.  It reads the same
``TableResult`` list (one list comprehension per attribute, the fastest way
to read slotted records), then computes match points, each player's
match-win percentage (byes left out, floored at 25 %), the opponents' mean of
it (OMW%) and of their OMW% (OOMW%) with ``np.bincount``, rounds to 6
decimals and ranks with ``np.lexsort``.  It checks nothing and returns plain
arrays: no validation, no other tiebreakers, no ``Standing`` records.  The
bench checks that it gives the engine's points, OMW%, OOMW%, ranks and order,
then times both back to back (alternating runs, best of 15 each, in CPU
time after collecting the garbage of the run before) on the
10,000-player classic event; the engine's target is at most
:data:`BASELINE_TARGET` times the baseline.

The cut line (:func:`tournaments.standings.cutline.cut_line`): 4,000 players
after 7 of 10 rounds paired Swiss-style (by points, 5 % draws), a top 8,
with the projection's 100 simulated finishes and without; and pods of four,
4,000 players after 4 of 6 rounds, a top 16.  Best of the runs, in CPU
milliseconds (the process's own time: on a shared machine the wall clock
also counts the waits for a core); the target is well under 100 ms.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Sequence

import numpy as np

from rules.base import ONE_VS_ONE, POD, TableSize
from tournaments.standings import SeatResult, TableResult, compute_standings
from tournaments.standings.cutline import CutPlayer, cut_line


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


#: The engine's target: classic 1v1 standings at 10,000 players within this factor of :func:`numpy_classic`.
BASELINE_TARGET = 1.5


def numpy_classic(
    player_ids: Sequence[int], results: Sequence[TableResult], *, floor: float = 0.25
) -> dict[str, np.ndarray]:
    """Classic 1v1 standings in plain numpy (1v1 tables and byes only, ``ONE_VS_ONE`` scoring, input trusted).

    Returns arrays in rank order: ``player_id``, ``rank``, ``points``, ``omw``, ``oomw`` (rounded to 6 decimals).
    """
    win, draw, loss = (ONE_VS_ONE.points_for(table_size=2, placement=p, shared=s) for p, s in ((1, 0), (1, 1), (2, 0)))
    ids = np.asarray(player_ids, dtype=np.int64)
    n = len(ids)
    lut = np.full(int(ids.max()) + 1, -1, dtype=np.intp)
    lut[ids] = np.arange(n)
    seats = [t.seats for t in results]
    sizes = np.fromiter(map(len, seats), np.intp, len(seats))
    flat = [s for table in seats for s in table]
    who = lut[np.fromiter([s.player_id for s in flat], np.int64, len(flat))]
    place = np.fromiter([s.placement for s in flat], np.int64, len(flat))
    start = np.cumsum(sizes) - sizes
    first = start[sizes == 2]
    a, b = who[first], who[first + 1]
    pa, pb = place[first], place[first + 1]
    points_a = np.where(pa == pb, draw, np.where(pa < pb, win, loss))
    points_b = np.where(pa == pb, draw, np.where(pb < pa, win, loss))
    played = np.bincount(a, minlength=n) + np.bincount(b, minlength=n)
    earned = np.bincount(a, points_a, n) + np.bincount(b, points_b, n)
    byes = np.bincount(who[start[sizes == 1]], minlength=n)
    points = earned.astype(np.int64) + ONE_VS_ONE.bye_points * byes
    mwp = np.where(played > 0, np.clip(earned / (win * np.maximum(played, 1)), floor, 1.0), floor)
    met = np.maximum(played, 1)
    omw = np.where(played > 0, (np.bincount(a, mwp[b], n) + np.bincount(b, mwp[a], n)) / met, 0.0)
    oomw = np.where(played > 0, (np.bincount(a, omw[b], n) + np.bincount(b, omw[a], n)) / met, 0.0)
    omw, oomw = np.round(omw, 6), np.round(oomw, 6)
    order = np.lexsort((ids, -oomw, -omw, -points))
    points, omw, oomw = points[order], omw[order], oomw[order]
    new = np.ones(n, dtype=bool)
    new[1:] = (points[1:] != points[:-1]) | (omw[1:] != omw[:-1]) | (oomw[1:] != oomw[:-1])
    rank = np.maximum.accumulate(np.where(new, np.arange(1, n + 1), 0))
    return {"player_id": ids[order], "rank": rank, "points": points, "omw": omw, "oomw": oomw}


def swiss_points(players: int, rounds: int, *, pod: int = 2, seed: int = 1) -> list[int]:
    """Match points after ``rounds`` rounds paired by points (ties at random), tables of ``pod``: 5 % draws,
    otherwise 3 to a random winner and, in pods, 1 to a random runner-up."""
    rng = random.Random(seed)
    points = [0] * players
    for _ in range(rounds):
        order = sorted(range(players), key=lambda p: (-points[p], rng.random()))
        for k in range(0, players - pod + 1, pod):
            table = order[k : k + pod]
            rng.shuffle(table)
            if rng.random() < 0.05:
                points[table[0]] += 1
                points[table[1]] += 1
            else:
                points[table[0]] += 3
                if pod > 2:
                    points[table[1]] += 1
        for p in order[players - players % pod :]:
            points[p] += 3
    return points


def _cut_line_figures(repeats: int, out) -> tuple[dict, list[tuple[str, str]]]:
    one = TableSize(min=2, max=2, preferred=2)
    pods = TableSize(min=3, max=4, preferred=4)
    swiss = [CutPlayer(k, p, 3) for k, p in enumerate(swiss_points(4_000, 7))]
    pod_field = [CutPlayer(k, p, 2) for k, p in enumerate(swiss_points(4_000, 4, pod=4))]
    cases = [
        ("with_projection_ms", "1v1, 3 of 10 rounds left, top 8, 100 simulated finishes", swiss, ONE_VS_ONE, one, 1,
         100),
        ("without_projection_ms", "1v1, 3 of 10 rounds left, top 8, no projection", swiss, ONE_VS_ONE, one, 1, 0),
        ("pods_ms", "pods of 4, 2 of 6 rounds left, top 16, 100 simulated finishes", pod_field, POD, pods, 3, 100),
    ]  # fmt: skip
    figures: dict = {"players": 4_000}
    rows = []
    for key, label, field, scoring, size, byes, sims in cases:
        out.write(f"cut line, {label} ...")
        cut = 16 if scoring is POD else 8
        ms = _best_ms(
            repeats,
            lambda field=field, scoring=scoring, size=size, byes=byes, sims=sims, cut=cut: cut_line(
                field, cut_size=cut, scoring=scoring, table_size=size, max_byes=byes, simulations=sims
            ),
            clock=time.process_time,
        )
        figures[key] = round(ms, 1)
        rows.append((f"cut line, 4,000 players, {label}, best of {repeats}, CPU", f"{ms:.1f} ms"))
    return figures, rows


def _check_baseline(engine: list, baseline: dict[str, np.ndarray]) -> None:
    """The baseline's figures are the engine's, row by row (else the comparison would mean nothing)."""
    columns = {
        "player_id": [s.player_id for s in engine],
        "rank": [s.rank for s in engine],
        "points": [s.points for s in engine],
        "omw": [s.opp_match_win_pct for s in engine],
        "oomw": [s.opp_opp_match_win_pct for s in engine],
    }
    for name, values in columns.items():
        if values != baseline[name].tolist():
            raise RuntimeError(f"the numpy baseline disagrees with the engine on {name}")


def _best_ms(repeats: int, call, clock=time.perf_counter) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        call()
        best = min(best, clock() - start)
    return best * 1000


def _cpu_ms(call) -> float:
    """The process's CPU time for one call, after collecting earlier garbage: on a machine shared with other
    work the wall clock also counts the time the process waited for a core, which varies far more than the
    ratio being measured."""
    gc.collect()
    return _best_ms(1, call, clock=time.process_time)


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
        rows.append((f"{label}, best of {repeats}", f"{ms:.0f} ms"))

    # The engine against the numpy baseline, side by side: the classic 1v1 event, runs alternating.
    results = one_vs_one_event(big, rounds)
    ids = list(range(1, big + 1))
    _check_baseline(compute_standings(ids, results, scoring=ONE_VS_ONE, multiplayer=False), numpy_classic(ids, results))
    engine_ms = baseline_ms = float("inf")
    # More runs than the rows above: the ratio of two bests is what is held to a target.
    side_by_side = 3 if quick else 15
    for _ in range(side_by_side):
        engine_ms = min(engine_ms, _cpu_ms(lambda: compute_standings(ids, results, scoring=ONE_VS_ONE,
                                                                      multiplayer=False)))  # fmt: skip
        baseline_ms = min(baseline_ms, _cpu_ms(lambda: numpy_classic(ids, results)))
    ratio = engine_ms / baseline_ms
    figures["vs_numpy"] = {
        "players": big,
        "runs": side_by_side,
        "engine_ms": round(engine_ms, 1),
        "baseline_ms": round(baseline_ms, 1),
        "ratio": round(ratio, 2),
        "target_ratio": BASELINE_TARGET,
        "met": ratio <= BASELINE_TARGET,
    }
    label = f"1v1, {big:,} players x 15 rounds, classic: engine / numpy baseline, alternating, best of {side_by_side}, CPU ms"
    rows.append((label, f"{engine_ms:.0f} / {baseline_ms:.0f} ms = {ratio:.2f}x (target ≤ {BASELINE_TARGET}x)"))
    figures["cut_line"], cut_rows = _cut_line_figures(repeats, out)
    rows.extend(cut_rows)
    return rows, figures
