"""Pairing benchmarks: the 1v1 Swiss against an exact matching, and pods over a simulated event.

1v1: for each field size, rounds 1-7 are paired by the engine itself with
random results (45% win, 45% loss, 10% draw), then round 8 is timed (best of a
few seeds) and scored with :func:`~tournaments.pairing.swiss.swiss_objective`.
``pair_round`` includes the input checks and the history it builds;
``pair_swiss`` alone (history already built) is timed too, and so is
``pair_round`` with the organiser's options on the same field (1% of the
players on an assigned bye, another 1% fixed to tables numbered from 101),
to show what the options cost.  Up to
:data:`EXACT_LIMIT` players the same objective is solved exactly on the
complete graph (``networkx.max_weight_matching``) and the gap printed.

Pods (``TableSize(3, 4, 4)``): eight simulated rounds with random placements;
the time per round, the repeated pod-mates over the event and the first-seat
spread (most minus fewest times any player sat in seat 1).  Each round is
also paired by the greedy baseline (:func:`greedy_pods`: sort by points,
chunk into the same pod sizes, 4s then 3s, no repeat avoidance, seats in
standings order), timed on the same entrants (alternating with the engine,
best of three each), and both are scored by the pods engine's own objective
(:func:`~tournaments.pairing.pods.pods_objective`: repeated pod-mates first,
then the squared point spread within pods).  The engine's target at 10,000
players: at most :data:`GREEDY_TARGET` times the baseline's time per round,
at a better objective in every round (rounds 2-8; round 1 is random for both).

The worst case, 1v1 (:func:`_sweep`): the adversarial sweep of
:func:`~tournaments.pairing.fields.adversarial_specs` -- for each size (64 to
10,000) and seed, an event of that size and one of the next (odd and even),
16 rounds with random results, drops and late entries, every round paired by
the engine and timed (``pair_round``, best of three calls after collecting
the garbage of earlier rounds, as the machine's noise only adds).  Per size:
the worst and median round and which one was worst, the exact windows, their
growths and any matching of the whole field; up to :data:`EXACT_LIMIT`
players (128 with ``--quick``) the hardest round of each event (most players
in windows) is solved exactly on the complete graph and the gap printed.  The
overall worst round is the figure held to the target.

Day 2 and kept-apart players (:func:`_day_two`): a 10,000-player 1v1 day 1
(9 rounds) played by the engine, then its day 2 (the players on 19 points or
more, Play! Pokémon's rule) paired for rounds 10-12 with one kept-apart pair
per 100 players; and the whole field's round 10 and a pod round of 10,000
with as many kept-apart pairs: time per round (held to the same target) and
how many kept-apart pairs ended up together (0 whenever the field allows it).

Pure engine calls, no database, except the last row: rounds 1-3 started end
to end through ``round_start`` on the configured database (reported as not
run if that database cannot be used, e.g. is not migrated).
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from dataclasses import dataclass, field

import networkx as nx

from rules.base import TableSize
from tournaments.pairing import Entrant, Pairing, pair_round, swiss
from tournaments.pairing.common import build_history, count_rematches, tie_break
from tournaments.pairing.fields import FieldSpec, SimulatedEvent, adversarial_specs
from tournaments.pairing.pods import pods_objective
from tournaments.pairing.sizes import pod_sizes
from tournaments.pairing.swiss import SwissCost, pair_swiss, swiss_objective

#: Largest field the exact oracle is run on (a complete graph of 600 takes about ten seconds).
EXACT_LIMIT = 600

#: The worst-case sweep: seeds per size (each seed an odd and an even event), full run and ``--quick``.
SWEEP = {64: 8, 128: 8, 512: 6, 2_000: 6, 10_000: 3}
SWEEP_QUICK = {64: 1, 128: 1, 512: 1}
#: Largest field whose hardest rounds the sweep checks against the exact oracle, full run and ``--quick``.
SWEEP_EXACT_LIMIT, SWEEP_EXACT_LIMIT_QUICK = EXACT_LIMIT, 128
#: The engine's target for any round of any field up to 10,000 players.
TARGET_MS = 100

ONE_VS_ONE = TableSize(2, 2, 2)
PODS = TableSize(3, 4, 4)
#: The pods engine's target: its time per round at most this many times the greedy baseline's.
GREEDY_TARGET = 2.0


def greedy_pods(entrants: list[Entrant], table_size: TableSize) -> tuple[list[tuple[int, ...]], list[int]]:
    """The greedy baseline: sort by points (then rank, then id), chunk into the engine's pod sizes, largest
    first; the lowest ranked sit out when the sizes leave byes.  No repeat avoidance, no seat balancing."""
    order = sorted((e for e in entrants if not e.dropped), key=lambda e: (-e.points, e.rank, e.id))
    sizes, byes = pod_sizes(len(order), table_size)
    seated = len(order) - byes
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(e.id for e in order[start : start + size]))
        start += size
    return tables, [e.id for e in order[seated:]]


@dataclass
class _Player:
    points: int = 0
    met: set[int] = field(default_factory=set)
    byes: int = 0
    first_seats: int = 0


def _field(players: dict[int, _Player]) -> list[Entrant]:
    ordered = sorted(players.values(), key=lambda p: -p.points)
    above: dict[int, int] = {}
    for i, p in enumerate(ordered):
        above.setdefault(p.points, i)
    return [
        Entrant(
            id=i,
            points=p.points,
            rank=above[p.points] + 1,
            opponents=frozenset(p.met),
            byes=p.byes,
            first_seats=p.first_seats,
        )
        for i, p in players.items()
    ]


def _play(players: dict[int, _Player], pairing: Pairing, rng: random.Random) -> None:
    for table in pairing.tables:
        seats = table.seats
        for s in seats:
            players[s].met.update(o for o in seats if o != s)
        players[seats[0]].first_seats += len(seats) > 2
        if len(seats) == 2:
            outcome = rng.random()
            if outcome < 0.1:
                players[seats[0]].points += 1
                players[seats[1]].points += 1
            else:
                players[seats[0] if outcome < 0.55 else seats[1]].points += 3
        else:
            players[rng.choice(seats)].points += 3
    for b in pairing.byes:
        players[b].byes += 1
        players[b].points += 3


def _exact_objective(entrants: list[Entrant]) -> int:
    cost = SwissCost(entrants)
    ids = [e.id for e in entrants]
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, -cost.pair(a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :])
    if len(ids) % 2:
        graph.add_weighted_edges_from((a, "bye", -c) for a in ids if (c := cost.bye(a)) is not None)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sum(-graph.edges[u, v]["weight"] for u, v in matching)


def _swiss(n: int, out) -> tuple[list[tuple[str, str]], dict]:
    rng = random.Random(n)
    players = {i: _Player() for i in range(n)}
    for number in range(1, 8):
        _play(players, pair_round(_field(players), table_size=ONE_VS_ONE, round_number=number, seed=number), rng)
    entrants = _field(players)
    times = []
    pairing = None
    for seed in range(5 if n <= 2_000 else 7):
        t = time.perf_counter()
        pairing = pair_round(entrants, table_size=ONE_VS_ONE, round_number=8, seed=seed)
        times.append((time.perf_counter() - t) * 1000)
    assert pairing is not None
    ids = sorted(e.id for e in entrants)
    share = max(1, n // 100)
    assigned, fixed = ids[:share], {i: 101 + k for k, i in enumerate(ids[-share:])}
    with_options = []
    for seed in range(3):
        t = time.perf_counter()
        pair_round(
            entrants, table_size=ONE_VS_ONE, round_number=8, seed=seed, assigned_byes=assigned, fixed_tables=fixed
        )
        with_options.append((time.perf_counter() - t) * 1000)
    # The Swiss pairer alone, on the history and tie-breaks pair_round would build (input checks excluded).
    met, tb = build_history(entrants), tie_break(entrants, random.Random(0))
    core = []
    for _ in range(5):
        t = time.perf_counter()
        pair_swiss(entrants, met=met, tb=tb, rng=random.Random(0))
        core.append((time.perf_counter() - t) * 1000)
    points = {e.id: e.points for e in entrants}
    pair_downs = sum(points[t.seats[0]] != points[t.seats[1]] for t in pairing.tables)
    objective = swiss_objective(pairing, entrants)
    assert objective == pairing.objective
    gap: int | None = None
    if n <= EXACT_LIMIT:
        out.write(f"1v1 {n}: exact oracle ...")
        gap = objective - _exact_objective(entrants)
    label = f"1v1 {n:>6} players, round 8, swiss"
    rows = [
        (f"{label}: pair_round ms (best / median)", f"{min(times):.1f} / {statistics.median(times):.1f}"),
        (f"{label}: pair_swiss core ms (best / median)", f"{min(core):.1f} / {statistics.median(core):.1f}"),
        (f"{label}: with {share} assigned byes, {share} fixed tables ms (best)", f"{min(with_options):.1f}"),
        (f"{label}: rematches", str(pairing.rematches)),
        (f"{label}: pair-downs", str(pair_downs)),
        (f"{label}: objective gap to exact", "n/a" if gap is None else str(gap)),
    ]
    figures = {
        f"swiss_{n}": {
            "ms_best": round(min(times), 2),
            "ms_median": round(statistics.median(times), 2),
            "core_ms_best": round(min(core), 2),
            "options_ms_best": round(min(with_options), 2),
            "rematches": pairing.rematches,
            "pair_downs": pair_downs,
            "objective": objective,
            "gap": gap,
        }
    }
    return rows, figures


#: Kept-apart pairs per 100 players in the day-2 and keep-apart rows (families, teams: about 2 % of a field).
KEEP_APART_PER_100 = 1


def _kept_apart(ids: list[int], rng: random.Random) -> list[tuple[int, int]]:
    """Random disjoint pairs, one per 100 players (at least one)."""
    chosen = rng.sample(ids, 2 * max(1, len(ids) * KEEP_APART_PER_100 // 100))
    return [(min(a, b), max(a, b)) for a, b in zip(chosen[::2], chosen[1::2], strict=True)]


def _day_two(n: int, out) -> tuple[list[tuple[str, str]], dict]:
    """A two-day event (Play! Pokémon's: 9 rounds, then players on 19 points or more play on) of ``n`` players:
    day 1 played by the engine, then day 2's first rounds timed with kept-apart pairs; and the whole field's
    round 10 with them, and a pod round of the whole field with them."""
    rng = random.Random(n + 2)
    players = {i: _Player() for i in range(n)}
    for number in range(1, 10):
        _play(players, pair_round(_field(players), table_size=ONE_VS_ONE, round_number=number, seed=number), rng)
    going_on = {i: p for i, p in players.items() if p.points >= 19}
    apart = _kept_apart(sorted(going_on), rng)
    day_two = [e for e in _field(players) if e.id in going_on]
    times, worst_apart = [], 0
    for number in range(10, 13):
        best = float("inf")
        pairing = None
        for seed in range(3):
            t = time.perf_counter()
            pairing = pair_round(day_two, table_size=ONE_VS_ONE, round_number=number, seed=seed, keep_apart=apart)
            best = min(best, (time.perf_counter() - t) * 1000)
        assert pairing is not None
        together = sum(1 for t in pairing.tables for a, b in apart if a in t.seats and b in t.seats)
        worst_apart = max(worst_apart, together)
        times.append(best)
        _play(going_on, pairing, rng)
        day_two = [e for e in _field(players) if e.id in going_on]
    field = _field(players)
    whole_apart = _kept_apart(sorted(players), rng)
    whole, whole_together = float("inf"), 0
    for seed in range(3):
        t = time.perf_counter()
        pairing = pair_round(field, table_size=ONE_VS_ONE, round_number=10, seed=seed, keep_apart=whole_apart)
        whole = min(whole, (time.perf_counter() - t) * 1000)
        whole_together = sum(1 for t in pairing.tables for a, b in whole_apart if a in t.seats and b in t.seats)
    pod_players = {i: _Player() for i in range(n)}
    for number in range(1, 5):
        _play(pod_players, pair_round(_field(pod_players), table_size=PODS, round_number=number, seed=number), rng)
    pod_field = _field(pod_players)
    pods_ms, pods_together = float("inf"), 0
    for seed in range(3):
        t = time.perf_counter()
        pairing = pair_round(pod_field, table_size=PODS, round_number=5, seed=seed, keep_apart=whole_apart)
        pods_ms = min(pods_ms, (time.perf_counter() - t) * 1000)
        pods_together = sum(1 for t in pairing.tables for a, b in whole_apart if a in t.seats and b in t.seats)
    label = f"day 2 of {n:>6} players ({len(going_on)} on 19+ points, {len(apart)} kept-apart pairs)"
    rows = [
        (f"{label}: rounds 10-12 pair_round ms (best of 3 each)", " / ".join(f"{ms:.1f}" for ms in times)),
        (f"{label}: kept-apart pairs seated together (worst round)", str(worst_apart)),
        (
            f"1v1 {n:>6} players, round 10, {len(whole_apart)} kept-apart pairs: pair_round ms (best) / together",
            f"{whole:.1f} / {whole_together} (target ≤ {TARGET_MS} ms)",
        ),
        (
            f"pods {n:>6} players, round 5, {len(whole_apart)} kept-apart pairs: pair_round ms (best) / together",
            f"{pods_ms:.1f} / {pods_together}",
        ),
    ]
    figures = {
        f"day_two_{n}": {
            "day_two_players": len(going_on),
            "kept_apart_pairs": len(apart),
            "rounds_ms": [round(ms, 2) for ms in times],
            "together": worst_apart,
        },
        f"keep_apart_{n}": {
            "pairs": len(whole_apart),
            "swiss_round_10_ms": round(whole, 2),
            "swiss_together": whole_together,
            "pods_round_5_ms": round(pods_ms, 2),
            "pods_together": pods_together,
        },
    }
    return rows, figures


def _pods(n: int, out, *, baseline: bool) -> tuple[list[tuple[str, str]], dict]:
    rng = random.Random(n)
    players = {i: _Player() for i in range(n)}
    times: list[float] = []
    greedy_times: list[float] = []
    repeats = greedy_repeats = 0
    better = 0  # rounds 2-8 where the engine's objective beats the baseline's
    for number in range(1, 9):
        entrants = _field(players)
        best = greedy_best = float("inf")
        for _ in range(3 if baseline else 1):
            t = time.perf_counter()
            pairing = pair_round(entrants, table_size=PODS, round_number=number, seed=number)
            best = min(best, (time.perf_counter() - t) * 1000)
            if baseline:
                t = time.perf_counter()
                greedy, _ = greedy_pods(entrants, PODS)
                greedy_best = min(greedy_best, (time.perf_counter() - t) * 1000)
        times.append(best)
        repeats += pairing.rematches
        if baseline:
            greedy_times.append(greedy_best)
            active = [e for e in entrants if not e.dropped]
            met, points = build_history(active), {e.id: e.points for e in active}
            engine_objective = pods_objective([t.seats for t in pairing.tables], points, met)
            greedy_objective = pods_objective(greedy, points, met)
            greedy_repeats += count_rematches(greedy, met)
            better += number > 1 and engine_objective < greedy_objective
        _play(players, pairing, rng)
    out.write(f"pods {n}: {', '.join(f'{ms:.0f}' for ms in times)} ms per round")
    firsts = [p.first_seats for p in players.values()]
    label = f"pods {n:>5} players, 8 rounds, 3-4"
    rows = [
        (f"{label}: ms per round (mean / max)", f"{statistics.fmean(times):.1f} / {max(times):.1f}"),
        (f"{label}: repeated pod-mates", str(repeats)),
        (f"{label}: first-seat spread", str(max(firsts) - min(firsts))),
    ]
    figures: dict = {
        f"pods_{n}": {
            "ms_mean": round(statistics.fmean(times), 2),
            "ms_max": round(max(times), 2),
            "repeats": repeats,
            "first_seat_spread": max(firsts) - min(firsts),
        }
    }
    if baseline:
        engine_ms, greedy_ms = statistics.fmean(times), statistics.fmean(greedy_times)
        ratio = engine_ms / greedy_ms
        met_target = ratio <= GREEDY_TARGET and better == 7
        rows += [
            (f"{label}: engine / greedy baseline, ms per round (mean)",
             f"{engine_ms:.1f} / {greedy_ms:.1f} = {ratio:.1f}x (target ≤ {GREEDY_TARGET:g}x)"),
            (f"{label}: repeated pod-mates, engine / greedy; rounds 2-8 the engine's objective is better",
             f"{repeats} / {greedy_repeats}; {better} of 7"),
        ]  # fmt: skip
        figures[f"pods_{n}"]["vs_greedy"] = {
            "engine_ms": round(engine_ms, 2),
            "greedy_ms": round(greedy_ms, 2),
            "ratio": round(ratio, 2),
            "greedy_repeats": greedy_repeats,
            "better_objective_rounds": better,
            "target_ratio": GREEDY_TARGET,
            "met": met_target,
        }
    return rows, figures


@dataclass
class _Round:
    """One round of the sweep: its time and what the walk needed for it."""

    ms: float
    spec: FieldSpec
    number: int
    windows: int
    window_players: int
    growths: int
    whole_field: int


def _timed_round(spec: FieldSpec, entrants: list[Entrant], number: int, seed: int) -> tuple[Pairing, _Round]:
    """Pair a round three times; the best time, and the walk's counters for one call.

    The garbage of earlier rounds is collected first, so no round pays for
    another's (the engine's own garbage still counts).
    """
    gc.collect()
    before = swiss.counters.copy()
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        pairing = pair_round(entrants, table_size=ONE_VS_ONE, round_number=number, seed=seed)
        best = min(best, (time.perf_counter() - started) * 1000)
    done = {key: (swiss.counters[key] - before[key]) // 3 for key in ("windows", "window_players", "growths")}
    whole_field = (swiss.counters["whole_field"] - before["whole_field"]) // 3
    return pairing, _Round(best, spec, number, whole_field=whole_field, **done)


def _sweep(sizes: dict[int, int], exact_limit: int, out) -> tuple[list[tuple[str, str]], dict]:
    """Every round 2-16 of every event of the adversarial sweep, timed; the worst round per size and overall."""
    rows: list[tuple[str, str]] = []
    figures: dict = {}
    worst: _Round | None = None
    for size, seeds in sizes.items():
        rounds: list[_Round] = []
        gaps: list[int] = []
        specs = adversarial_specs([size], range(1, seeds + 1))
        out.write(f"1v1 sweep {size}/{size + 1}: {len(specs)} events ...")
        for spec in specs:
            event = SimulatedEvent(spec)
            #: The round that needed the most of the walk's exact machinery, checked against the oracle.
            hardest: tuple[tuple[int, int], list[Entrant], Pairing] | None = None
            while event.round_number <= spec.rounds:
                number, entrants = event.round_number, event.entrants()
                pairing, timed = _timed_round(spec, entrants, number, event.seed())
                if number > 1:
                    rounds.append(timed)
                    load = (timed.whole_field, timed.window_players)
                    if hardest is None or load > hardest[0]:
                        hardest = (load, entrants, pairing)
                event.record(pairing)
            if hardest is not None and spec.size <= exact_limit:
                _, entrants, pairing = hardest
                gaps.append(pairing.objective - _exact_objective([e for e in entrants if not e.dropped]))
        top = max(rounds, key=lambda r: r.ms)
        worst = top if worst is None or top.ms > worst.ms else worst
        median = statistics.median(r.ms for r in rounds)
        windows = sum(r.windows for r in rounds)
        growths = sum(r.growths for r in rounds)
        whole_field = sum(r.whole_field for r in rounds)
        label = f"1v1 sweep {size:>5}/{size + 1:<5} players, {len(specs)} events, rounds 2-16"
        rows += [
            (
                f"{label}: pair_round ms, worst / median",
                f"{top.ms:.1f} / {median:.1f} (worst: {top.spec.label}, round {top.number})",
            ),
            (
                f"{label}: exact windows (players) / growths / whole-field matchings",
                f"{windows} ({sum(r.window_players for r in rounds)}) / {growths} / {whole_field}",
            ),
            (
                f"{label}: objective gap to exact, hardest round of each event",
                f"{max(gaps)} ({len(gaps)} rounds checked)" if gaps else "n/a",
            ),
        ]
        figures[str(size)] = {
            "rounds": len(rounds),
            "worst_ms": round(top.ms, 2),
            "median_ms": round(median, 2),
            "worst_case": {"spec": top.spec.label, "round": top.number},
            "windows": windows,
            "growths": growths,
            "whole_field": whole_field,
            "gap": max(gaps) if gaps else None,
            "gap_rounds_checked": len(gaps),
        }
    assert worst is not None
    rows.append(
        (
            "1v1 sweep, every round of every field: worst pair_round ms",
            f"{worst.ms:.1f} ({worst.spec.label}, round {worst.number}) (target ≤ {TARGET_MS} ms)",
        )
    )
    summary = {
        "swiss_worst_ms": round(worst.ms, 2),
        "swiss_worst_case": {"spec": worst.spec.label, "round": worst.number},
        "swiss_sweep": figures,
    }
    return rows, summary


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    rows: list[tuple[str, str]] = []
    figures: dict = {}
    for n in (64, 200) if quick else (64, 600, 2_000, 10_000):
        more_rows, more = _swiss(n, out)
        rows += more_rows
        figures |= more
    if quick:
        # A smoke run: the collection before each round of the sweep skips the objects the process started with
        # (Django's: about 0.1 s a collection, more than the quick sweep's pairing itself).  The full run keeps them
        # in, as its figures always did.
        gc.freeze()
    try:
        more_rows, more = _sweep(
            SWEEP_QUICK if quick else SWEEP, SWEEP_EXACT_LIMIT_QUICK if quick else SWEEP_EXACT_LIMIT, out
        )
    finally:
        if quick:
            gc.unfreeze()
    rows += more_rows
    figures |= more
    for n in (256,) if quick else (256, 1_000, 10_000):
        more_rows, more = _pods(n, out, baseline=n == (256 if quick else 10_000))
        rows += more_rows
        figures |= more
    more_rows, more = _day_two(400 if quick else 10_000, out)
    rows += more_rows
    figures |= more
    from django.db import DatabaseError

    n = 200 if quick else 4_000
    try:
        more_rows, more = _round_start(n, out)
    except DatabaseError as exc:
        # The engine figures above stand on their own; the end-to-end row needs a migrated database.
        more_rows, more = [(f"round start end to end, {n} players", f"not run: {exc}")], {}
    rows += more_rows
    figures |= more
    return rows, figures


def _round_start(n: int, out) -> tuple[list[tuple[str, str]], dict]:
    """Start rounds 1-3 of an n-player 1v1 event end to end through ``round_start`` on the configured database."""
    import random

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from bench import organiser as bench_organiser
    from tournaments import services
    from tournaments.models import Event, Player, PodResult, Registration, Seat

    out.write(f"starting rounds of a {n}-player event on {connection.vendor} ...")
    organiser = bench_organiser()
    event = Event.objects.create(
        name="bench round start",
        format="deck-masters",
        planned_rounds=9,
        date=timezone.localdate(),
        organiser=organiser,
    )
    players = Player.objects.bulk_create(Player(display_name=f"bench {i}") for i in range(n))
    Registration.objects.bulk_create(Registration(event=event, player=p, checked_in=True) for p in players)
    rng = random.Random(n)
    times, queries = [], []
    try:
        for number in (1, 2, 3):
            started = time.perf_counter()
            with CaptureQueriesContext(connection) as captured:
                round_ = services.round_start(event=event, by=organiser, seed=number)
            times.append((time.perf_counter() - started) * 1000)
            queries.append(len(captured))
            # Results written in bulk (not through the service) so the next round has a history to load.
            pods = list(round_.pods.filter(is_bye=False).prefetch_related("seats"))
            seats = []
            for pod in pods:
                a, b = pod.seats.all()
                first = rng.random() < 0.5
                a.placement, b.placement, a.points, b.points = (1, 2, 3, 0) if first else (2, 1, 0, 3)
                seats += [a, b]
            Seat.objects.bulk_update(seats, ["placement", "points"], batch_size=2000)
            PodResult.objects.bulk_create(PodResult(pod=p) for p in pods)
    finally:
        event.delete()
        Player.objects.filter(pk__in=[p.pk for p in players]).delete()
    label = f"round start end to end, {n} players, {connection.vendor}"
    rows = [
        (f"{label}: ms for rounds 1/2/3", " / ".join(f"{t:.0f}" for t in times) + " (target ≤ 2,000 ms at 4,000)"),
        (f"{label}: queries for rounds 1/2/3", " / ".join(map(str, queries))),
    ]
    return rows, {f"round_start_{n}": {"db": connection.vendor, "ms": [round(t, 1) for t in times], "queries": queries}}
