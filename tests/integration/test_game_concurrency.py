"""Two judges append to the same game at the same moment, against real PostgreSQL (and a judge's last entry meets
a staff result).

Both name the version they last saw.  ``game_event_append`` locks the game row,
so the second waits for the first to commit, then finds the version moved on
and is refused with :class:`~games.services.StaleVersion` (HTTP 409): exactly
one entry is recorded and neither overwrites the other.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection

from games import services
from games.models import Game
from tests.factories import EventFactory, RegistrationFactory
from tests.support.concurrency import together
from tournaments import services as tournament_services
from tournaments.models import Pod, PodResult

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = 5


def _append(game: Game, expected_version: int, type_: str, data: dict[str, Any], by) -> Callable[[], Any]:
    return lambda: services.game_event_append(
        game=game, expected_version=expected_version, type=type_, data=data, by=by
    )


def test_two_judges_appending_at_the_same_version_record_exactly_one_entry(organiser):
    assert connection.vendor == "postgresql"
    event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=1)
    for _ in range(2):
        RegistrationFactory(event=event)
    round_ = tournament_services.round_start(event=event, by=organiser, seed=1)
    pod = round_.pods.get()
    game = services.game_create(pod=pod, by=organiser)
    first = game.players[0]
    game, _ = services.game_event_append(
        game=game, expected_version=0, type="start_turn", data={"player": first}, by=organiser
    )

    for n in range(ROUNDS):
        version = game.version
        # Each judge has their own copy of the game, loaded before the race (as two requests would).
        copies = [Game.objects.select_related("pod__round__event").get(pk=game.pk) for _ in range(2)]
        outcomes = together(
            _append(copies[0], version, "ruling_note", {"text": f"judge A, round {n}"}, organiser),
            _append(copies[1], version, "ruling_note", {"text": f"judge B, round {n}"}, organiser),
        )

        won = [o for o in outcomes if isinstance(o, tuple)]
        lost = [o for o in outcomes if not isinstance(o, tuple)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        refusal = lost[0]
        assert isinstance(refusal, services.StaleVersion), repr(refusal)
        assert refusal.status_code == 409 and refusal.code == "stale_version"
        assert refusal.extra["version"] == version + 1
        _, entry = won[0]
        game.refresh_from_db()
        assert game.version == version + 1 == entry.seq
        assert refusal.extra["state"] == game.state
        assert list(game.events.filter(seq__gt=version).values_list("seq", "payload")) == [(entry.seq, entry.payload)]
        assert [note["text"] for note in game.state["notes"]][-1] == entry.payload["text"]

    assert game.events.count() == 1 + ROUNDS
    assert len(game.state["notes"]) == ROUNDS


def test_two_judges_starting_the_game_of_a_new_table_at_once_create_one_game(organiser):
    outcomes = []
    for seed in range(3):
        event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=1)
        for _ in range(2):
            RegistrationFactory(event=event)
        pod_id = tournament_services.round_start(event=event, by=organiser, seed=seed).pods.get().pk
        pods = [Pod.objects.select_related("round__event").get(pk=pod_id) for _ in range(2)]
        results = together(*(partial(services.game_create, pod=pod, by=organiser) for pod in pods))
        outcomes.append(sorted(type(r).__name__ for r in results))
        assert Game.objects.filter(pod_id=pod_id).count() == 1
    assert outcomes == [["Conflict", "Game"]] * 3, outcomes


def test_a_judges_last_entry_and_a_staff_result_at_once_end_with_one_result_and_no_deadlock(organiser):
    """The staff's result closes the game while holding the table's seats; the judge's entry takes the seats before
    the game, so the two take turns: whichever comes first stands, the other is refused (409), nothing fails."""
    firsts = []
    for seed in range(ROUNDS):
        event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=1)
        for _ in range(2):
            RegistrationFactory(event=event)
        pod = tournament_services.round_start(event=event, by=organiser, seed=seed).pods.get()
        game = services.game_create(pod=pod, by=organiser)
        a, b = game.players
        copy = Game.objects.select_related("pod__round__event").get(pk=game.pk)
        outcomes = together(
            _append(copy, 0, "concede", {"player": b}, organiser),
            partial(
                tournament_services.pod_result_report, event=event, round_number=1, table_number=pod.table_number,
                placements={a: 2, b: 1}, by=organiser,
            ),
        )  # fmt: skip
        refused = [o for o in outcomes if isinstance(o, Exception)]
        assert len(refused) == 1 and getattr(refused[0], "status_code", None) == 409, outcomes
        game.refresh_from_db()
        result = PodResult.objects.get(pod=pod)
        if refused[0].code == "game_superseded":
            firsts.append("staff")
            assert game.status == Game.Status.SUPERSEDED and result.source == "dashboard"
        else:
            firsts.append("judge")
            assert refused[0].code == "result_exists"
            assert game.status == Game.Status.FINISHED and result.source == "game"
    assert set(firsts) <= {"staff", "judge"}
