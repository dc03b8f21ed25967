"""A standings read never shows an empty table for an event that has players: until the worker has stored the
standings, the players are listed at zero and the figures are said not to be current.

(In these tests no worker runs: the standings readers run after a commit, which a test's transaction never
makes, so nothing is stored until a test recomputes them itself, as with a worker that is stopped.)
"""

from __future__ import annotations

import pytest

from tests.support.events import make_event, report_all
from tournaments import services

pytestmark = pytest.mark.django_db


def standings(client, event) -> dict:
    response = client.get(f"/api/v1/events/{event.pk}/standings/")
    assert response.status_code == 200
    return response.json()


def test_before_round_1_the_players_stand_at_zero_and_that_is_current(anon_api, organiser):
    event = make_event(organiser, 3)
    answer = standings(anon_api, event)
    assert answer["current"] is True and answer["count"] == 3
    assert [(row["rank"], row["points"], row["player"]["display_name"]) for row in answer["standings"]] == [
        (1, 0, "P00"), (1, 0, "P01"), (1, 0, "P02"),
    ]  # fmt: skip


def test_with_the_worker_stopped_a_started_event_lists_its_players_and_says_the_figures_are_not_current(
    anon_api, client, organiser
):
    event = make_event(organiser, 4)
    services.round_start(event=event, by=organiser, seed=1)
    report_all(event, organiser)  # results recorded; no worker has computed anything
    answer = standings(anon_api, event)
    assert answer["current"] is False
    assert answer["count"] == 4 and {row["points"] for row in answer["standings"]} == {0}
    page = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "These figures are not current" in page and "P03" in page

    services.standings_recompute(event_id=event.pk)  # the worker is back
    answer = standings(anon_api, event)
    assert answer["current"] is True and sorted(row["points"] for row in answer["standings"]) == [0, 0, 3, 3]
    assert "These figures are not current" not in client.get(f"/events/{event.pk}/standings/").content.decode()


def test_an_event_without_players_has_an_empty_current_table(anon_api, organiser):
    assert standings(anon_api, make_event(organiser, 0)) | {"event": None} == {
        "event": None, "current": True, "results_version": 0, "count": 0, "next": None, "previous": None,
        "standings": [],
    }  # fmt: skip


def test_the_dashboard_card_says_updating_while_the_players_stand_at_zero(client, organiser):
    event = make_event(organiser, 4)
    services.round_start(event=event, by=organiser, seed=1)
    client.force_login(organiser)
    card = client.get(f"/dashboard/events/{event.pk}/standings/").content.decode()
    assert "updating…" in card and "P01" in card
