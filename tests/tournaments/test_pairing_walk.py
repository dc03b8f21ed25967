"""How the Swiss pairer gets to its optimum: the walk's windows, their bounds and the band.

The exactness tests (``test_pairing_exactness.py``) check the result; these
check the parts the proof in :mod:`tournaments.pairing.swiss` leans on, and
that simulated events late on never need the exact matching of the whole
field, which is what made them slow.
"""

from __future__ import annotations

import random

import pytest

from rules.base import TableSize
from tests.support.pairing import oracle, random_field
from tournaments.pairing import Entrant, Pairing, pair_round, swiss
from tournaments.pairing.common import build_history, tie_break
from tournaments.pairing.fields import FieldSpec, SimulatedEvent, adversarial_specs, play
from tournaments.pairing.swiss import SwissCost, _relaxed_window, _solve_window, _Walk

ONE_VS_ONE = TableSize(2, 2, 2)


def paired(entrants: list[Entrant], round_number: int, seed: int) -> Pairing:
    return pair_round(entrants, table_size=ONE_VS_ONE, round_number=round_number, seed=seed)


def walk_of(field: list[Entrant], seed: int) -> _Walk:
    """The walk the engine would take over the active players of ``field``."""
    active = [e for e in field if not e.dropped]
    met = build_history(active)
    tb = tie_break(active, random.Random(seed))
    cost = SwissCost(active, met)
    ids = [e.id for e in sorted(active, key=lambda e: (-e.points, tb[e.id], e.id))]
    candidates = sorted((i for i, place in cost.bye_place.items() if place == 0), key=lambda i: (tb[i], i))
    return _Walk(ids, cost, candidates)


def allowed(walk: _Walk, cut: int) -> int:
    """``cut``, or the cut just above the bye candidates if it falls between two of them."""
    return walk.cand_lo if walk.cand_lo < cut < walk.bye_hi else cut


def test_simulated_events_late_on_never_need_the_whole_field_matched(monkeypatch: pytest.MonkeyPatch) -> None:
    # The earlier walk matched the whole field in over thirty rounds of these events (odd and even, 16 rounds,
    # drops and late entries), up to seconds a round at 128 and 512 players.  Now exact windows settle them.
    def whole_field(*args: object) -> None:
        raise AssertionError("the whole field was matched")

    windows: list[int] = []
    solve_window = swiss._solve_window

    def counted(floaters: list[int], players: list[int], *args: object, **kwargs: object) -> object:
        windows.append(len(players))
        return solve_window(floaters, players, *args, **kwargs)

    monkeypatch.setattr(swiss, "_exact", whole_field)
    monkeypatch.setattr(swiss, "_solve_window", counted)
    for spec in adversarial_specs([64, 128], range(1, 7)) + adversarial_specs([512], [4, 5]):
        for _ in play(spec, paired):
            pass
    assert len(windows) > 50  # they do need exact windows, small ones
    assert max(windows) < 300


def test_the_relaxed_windows_of_any_cuts_bound_every_pairing_from_below() -> None:
    # The lower bound of the proof: whatever the cuts, the segments' relaxed optima add up to no more than the
    # optimum.  Small odd fields with byes need the jumps over a segment for this to hold.
    rng = random.Random(5)
    for trial in range(600):
        field = [e for e in random_field(rng, rng.randint(3, 24)) if not e.dropped]
        walk = walk_of(field, trial)
        cuts = sorted({0, walk.n} | {allowed(walk, rng.randint(1, walk.n - 1)) for _ in range(rng.randint(1, 5))})
        bound = 0
        for start, stop in zip(cuts, cuts[1:], strict=False):
            if start == stop:
                continue
            with_bye = start <= walk.cand_lo and stop >= walk.bye_hi
            bound += _relaxed_window(
                walk.seq[start:stop],
                walk.cost,
                top=walk.value[start],
                odd=walk.parity(start),
                down=walk.value[stop] if stop < walk.n else None,
                candidates=set(walk.candidates) if with_bye else set(),
                band=walk.band,
            )
        assert bound <= oracle(field), f"trial {trial}, cuts {cuts}"


def test_a_window_loses_nothing_by_leaving_out_pairs_far_apart() -> None:
    # The band lemma inside a window: the same optimum with only the pairs at most 4m + 4 places apart.
    rng = random.Random(6)
    checked = 0
    for trial in range(60):
        field = [e for e in random_field(rng, rng.randint(60, 120), "sparse") if not e.dropped]
        walk = walk_of(field, trial)
        if walk.band >= walk.n // 2:
            continue
        start = allowed(walk, rng.randint(1, walk.n // 3))
        stop = allowed(walk, rng.randint(start + walk.band + 2, walk.n - 1))
        if stop <= start + walk.band + 1:
            continue
        players, floaters = walk.seq[start:stop], walk.seq[max(0, start - rng.randint(0, 3)) : start]
        common = {
            "down": walk.value[stop],
            "candidates": set(walk.candidates) if start <= walk.cand_lo and stop >= walk.bye_hi else set(),
        }
        banded = _solve_window(floaters, players, walk.cost, band=walk.band, **common)
        complete = _solve_window(floaters, players, walk.cost, band=len(players), **common)
        assert banded is not None and complete is not None
        assert banded[0] == complete[0], f"trial {trial}"
        relaxed = {"top": walk.value[start], "odd": walk.parity(start), **common}
        assert _relaxed_window(players, walk.cost, band=walk.band, **relaxed) == _relaxed_window(
            players, walk.cost, band=len(players), **relaxed
        ), f"trial {trial}"
        checked += 1
    assert checked >= 20


def test_a_simulated_event_is_the_same_event_from_the_same_spec() -> None:
    spec = FieldSpec(size=41, seed=3, rounds=8, drop_share=0.2, late_entries=4, late_round=3, ranks="points")
    first = [(number, entrants, pairing.tables) for number, entrants, pairing in play(spec, paired)]
    again = [(number, entrants, pairing.tables) for number, entrants, pairing in play(spec, paired)]
    assert first == again


def test_a_simulated_event_drops_late_enters_and_ranks_as_its_spec_says() -> None:
    spec = FieldSpec(size=100, seed=2, rounds=10, drop_share=0.3, late_entries=7, late_round=4, ranks="points")
    event = SimulatedEvent(spec)
    for number in range(1, spec.rounds + 1):
        entrants = event.entrants()
        assert entrants == event.entrants()  # asking twice changes nothing
        late = [e for e in entrants if e.id >= spec.size]
        assert len(late) == (7 if number >= 4 else 0)
        if number == 4:
            assert all(e.points == 0 and not e.opponents for e in late)
        by_points = {}
        for e in entrants:
            by_points.setdefault(e.points, set()).add(e.rank)
        assert all(len(ranks) == 1 for ranks in by_points.values())  # "points": one rank per point group
        event.record(paired(entrants, number, event.seed()))
    assert sum(e.dropped for e in event.entrants()) == 30
