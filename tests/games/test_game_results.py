"""From a recorded game to the table's result, with the after-commit work run as production runs it.

The tests are transactional: each request's transaction really commits, so
the work asked for after commit (the table's result, written when a game
ends) runs right after the game's commit, inside the request, as in
production, and its failure would show in the answer (not at the end of the
test, and not never).

Two things are checked here:

* a game whose end the table's round could not take as a result (a drawn
  top-cut match: intentional draw, time called with a tie) is refused before
  anything is stored, with the code ``top_cut_needs_winner``: the entry is not
  in the log, the game goes on, and the table has no result;
* the result a finished game produces names the judge who recorded the game as
  its reporter, in the result and in the audit trail.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.exceptions import PermissionDenied
from games.models import Game
from games.models import GameEvent as GameEntry
from tests.conftest import _client_for
from tests.support.events import make_event, report_all
from tests.support.games import (
    append,
    deck_masters_duel,
    mintayn_master_game,
    record,
    seat_ids,
    seated_table,
    start_game,
)
from tournaments import policy, services
from tournaments.models import AuditEntry, Player, Pod, PodResult, Round
from tournaments.services import results as result_services
from tournaments.services import staff

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def judge(django_user_model):
    return django_user_model.objects.create_user(username="judy", password="pw")


def _make_judge(event, judge, organiser) -> None:
    staff.staff_add(event=event, username=judge.username, role="judge", by=organiser)


def top_cut_table(organiser, fmt: str) -> Pod:
    """The final of a four-player event of ``fmt``: two Swiss rounds, then a top 2."""
    event = make_event(organiser, 4, format=fmt, rounds=2)
    for _ in range(event.planned_rounds):
        services.round_start(event=event, by=organiser, allow_rematches=True)
        report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
    round_ = services.top_cut_start(event=event, by=organiser, size=2)
    assert round_.stage == Round.Stage.TOP_CUT
    (pod,) = round_.pods.filter(is_bye=False)
    return pod


def assert_refused_before_anything_is_stored(response, game: dict, pod: Pod, *, result_exists: bool = False) -> None:
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "top_cut_needs_winner"
    assert "one winner" in error["message"]
    stored = Game.objects.get(pk=game["id"])
    assert (stored.version, stored.status) == (game["version"], Game.Status.IN_PROGRESS)
    assert stored.state == game["state"]
    assert GameEntry.objects.filter(game=stored).count() == game["version"]
    if not result_exists:
        assert not PodResult.objects.filter(pod=pod).exists()
        assert list(pod.seats.values_list("placement", flat=True)) == [None, None]


# --- defect 1: a drawn top-cut match is refused before it is stored --------------------------------


@pytest.mark.parametrize("fmt", ["deck-masters", "mintayn-master"])
def test_an_intentional_draw_at_a_top_cut_table_is_refused_and_nothing_is_stored(api, organiser, fmt):
    pod = top_cut_table(organiser, fmt)
    a, b = seat_ids(pod)
    game = start_game(api, pod)

    response = append(api, game, "intentional_draw")

    assert_refused_before_anything_is_stored(response, game, pod)
    # The game goes on and can still be decided: the winner's concession is recorded and becomes the result.
    response = append(api, game, "concede", {"player": b})
    assert response.status_code == 201, response.json()
    if fmt == "deck-masters":  # a conceded duel is one duel of the best of three
        assert not PodResult.objects.filter(pod=pod).exists()
    else:
        assert PodResult.objects.get(pod=pod).source == PodResult.Source.GAME
        assert list(pod.seats.order_by("seat_order").values_list("placement", flat=True)) == [1, 2]


def test_time_called_with_a_tie_at_a_top_cut_table_is_refused_too(api, organiser):
    pod = top_cut_table(organiser, "mintayn-master")
    a, b = seat_ids(pod)
    game = start_game(api, pod)
    response = append(api, game, "time_called", {"placements": {a: 1, b: 1}, "reason": "equal life points"})
    assert_refused_before_anything_is_stored(response, game, pod)


def test_a_level_deck_masters_top_cut_match_at_time_is_refused(api, organiser):
    pod = top_cut_table(organiser, "deck-masters")
    a, b = seat_ids(pod)
    record(api, start_game(api, pod), deck_masters_duel(a, b))
    assert append(api, start_game(api, pod), "concede", {"player": a}).status_code == 201  # one duel each
    third = start_game(api, pod)
    response = append(api, third, "time_called", {"placements": {a: 1, b: 1}, "reason": "no winner yet"})
    assert_refused_before_anything_is_stored(response, third, pod)


def test_the_console_refuses_a_top_cut_draw_and_shows_why(client, organiser, judge):
    pod = top_cut_table(organiser, "mintayn-master")
    _make_judge(pod.round.event, judge, organiser)
    client.force_login(judge)
    game = start_game(_client_for(judge), pod)
    response = client.post(
        reverse("games:console-append", args=[game["id"]]),
        {"type": "intentional_draw", "expected_version": game["version"]},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    assert "one winner" in response.content.decode()
    assert Game.objects.get(pk=game["id"]).version == 0
    assert not PodResult.objects.filter(pod=pod).exists()


def test_an_intentional_draw_in_swiss_still_becomes_the_tables_result(api, organiser):
    pod = seated_table(organiser, "mintayn-master", 2)
    game = start_game(api, pod)
    response = append(api, game, "intentional_draw")
    assert response.status_code == 201, response.json()
    assert list(pod.seats.values_list("placement", flat=True)) == [1, 1]
    assert PodResult.objects.filter(pod=pod).exists()


def test_a_deck_masters_intentional_draw_is_recorded_as_one_with_no_game_points(api, organiser):
    pod = seated_table(organiser, "deck-masters", 2)
    game = start_game(api, pod)
    response = append(api, game, "intentional_draw")
    assert response.status_code == 201, response.json()
    result = PodResult.objects.get(pod=pod)
    assert result.intentional_draw is True
    # Its unplayed games are worth nothing: 0-0-0, where a played drawn game would be 0-0-1.
    assert list(pod.seats.values_list("placement", "games_won", "games_lost", "games_drawn")) == [(1, 0, 0, 0)] * 2


# --- defect 2: the recording judge reports the result -------------------------------------------


def test_a_game_recorded_by_a_judge_gives_a_result_reported_by_that_judge(organiser, judge):
    pod = seated_table(organiser, "mintayn-master", 2)
    event = pod.round.event
    _make_judge(event, judge, organiser)
    judge_api = _client_for(judge)
    a, b = seat_ids(pod)
    game = start_game(judge_api, pod)

    game = record(judge_api, game, mintayn_master_game(a, b))

    assert game["status"] == "finished"
    result = PodResult.objects.get(pod=pod)
    assert result.source == PodResult.Source.GAME
    assert result.reported_by == judge
    entry = AuditEntry.objects.get(event=event, action="result.entered")
    assert entry.actor == judge
    assert list(pod.seats.order_by("seat_order").values_list("placement", flat=True)) == [1, 2]


def test_a_deck_masters_match_recorded_by_a_judge_is_reported_by_the_judge_who_ended_it(organiser, judge, api):
    pod = seated_table(organiser, "deck-masters", 2)
    event = pod.round.event
    _make_judge(event, judge, organiser)
    judge_api = _client_for(judge)
    a, b = seat_ids(pod)
    record(api, start_game(api, pod), deck_masters_duel(a, b))  # the organiser records duel 1
    record(judge_api, start_game(judge_api, pod), deck_masters_duel(a, b))  # the judge, duel 2

    result = PodResult.objects.get(pod=pod)
    assert result.reported_by == judge
    assert AuditEntry.objects.get(event=event, action="result.entered").actor == judge


def test_a_games_result_is_for_whoever_may_record_games_and_a_judge_enters_no_other_by_hand(
    organiser, judge, django_user_model
):
    pod = seated_table(organiser, "mintayn-master", 2)
    event = pod.round.event
    a, b = seat_ids(pod)
    caster = django_user_model.objects.create_user(username="cass", password="pw")
    staff.staff_add(event=event, username="cass", role="caster", by=organiser)
    _make_judge(event, judge, organiser)
    assert policy.can_report_game_result(judge, event) and policy.can_report_game_result(organiser, event)
    assert not policy.can_report_game_result(caster, event)

    table = {"event": event, "round_number": 1, "table_number": pod.table_number, "placements": {a: 1, b: 2}}
    with pytest.raises(PermissionDenied):
        services.pod_result_report(**table, by=caster, source=PodResult.Source.GAME)
    with pytest.raises(PermissionDenied):  # by hand, a judge settles disputed or unconfirmed tables only
        services.pod_result_report(**table, by=judge)
    result, created = services.pod_result_report(**table, by=judge, source=PodResult.Source.GAME)
    assert created and result.reported_by == judge


# --- the result is written with the entry that ended the game, and readers never fail it -------------


def test_the_entry_that_ends_a_game_and_the_tables_result_commit_together(api, organiser, monkeypatch):
    """If writing the result fails, the entry that ended the game is not stored either (one transaction)."""
    pod = seated_table(organiser, "mintayn-master", 2)
    a, b = seat_ids(pod)
    game = start_game(api, pod)
    game = record(api, game, mintayn_master_game(a, b)[:-1])  # everything but the entry that ends it
    last = mintayn_master_game(a, b)[-1]

    def result_write_fails(**kwargs):
        raise RuntimeError("the result could not be written")

    monkeypatch.setattr("games.services.pod_result_report", result_write_fails)
    with pytest.raises(RuntimeError):
        append(api, game, last.type, last.data)
    stored = Game.objects.get(pk=game["id"])
    assert (stored.version, stored.status) == (game["version"], Game.Status.IN_PROGRESS)
    assert not PodResult.objects.filter(pod=pod).exists()


def test_a_broker_away_after_a_game_ends_fails_nothing_and_the_sweep_catches_up(api, organiser, monkeypatch):
    """The standings reader runs after the commit: its failure is logged, the entry and result stand."""
    from tournaments import readers

    pod = seated_table(organiser, "mintayn-master", 2)
    event = pod.round.event
    a, b = seat_ids(pod)
    services.standings_recompute(event_id=event.pk)

    def broker_away(event_id):
        raise ConnectionError("the broker is away")

    monkeypatch.setattr(readers, "recompute_request", broker_away)
    game = record(api, start_game(api, pod), mintayn_master_game(a, b))

    assert game["status"] == "finished"
    assert PodResult.objects.get(pod=pod).source == PodResult.Source.GAME
    event.refresh_from_db()
    assert event.standings_version < event.results_version, "the standings are marked out of date"
    monkeypatch.undo()
    assert readers.standings_sweep() == 1
    event.refresh_from_db()
    assert event.standings_version == event.results_version


def test_a_result_staff_enter_by_hand_closes_the_tables_game_and_its_entries_are_refused(api, organiser):
    """The staff's result stands; the game in progress is closed as superseded and takes no entry, not even one
    that would end it."""
    pod = top_cut_table(organiser, "mintayn-master")
    a, b = seat_ids(pod)
    game = start_game(api, pod)
    assert append(api, game, "concede", {"player": a}, version=99).status_code == 409  # stale: still open
    round_ = pod.round
    services.pod_result_report(
        event=round_.event, round_number=round_.number, table_number=pod.table_number,
        placements={a: 2, b: 1}, by=organiser,
    )  # fmt: skip

    stored = Game.objects.get(pk=game["id"])
    assert stored.status == Game.Status.SUPERSEDED and stored.finished_at is not None
    assert api.get(f"/api/v1/games/{game['id']}/").json()["status"] == "superseded"
    for response in (
        append(api, game, "concede", {"player": b}),
        append(api, game, "ruling_note", {"text": "too late"}),
    ):
        assert response.status_code == 409, response.json()
        assert response.json()["error"]["code"] == "game_superseded"
        assert "recorded by hand" in response.json()["error"]["message"]
    assert Game.objects.get(pk=game["id"]).version == game["version"]
    result = PodResult.objects.get(pod=pod)
    assert result.source == PodResult.Source.DASHBOARD
    assert dict(pod.seats.values_list("player_id", "placement")) == {a: 2, b: 1}


def test_a_correction_and_a_confirmed_player_report_close_an_open_game_too(api, organiser, django_user_model):
    pod = seated_table(organiser, "mintayn-master", 2)
    event = pod.round.event
    event.player_reports = True
    event.save(update_fields=["player_reports"])
    a, b = seat_ids(pod)
    users = {}
    for pid, name in ((a, "ash"), (b, "brock")):
        users[pid] = django_user_model.objects.create_user(username=name, password="pw")
        Player.objects.filter(pk=pid).update(user=users[pid])
    game = start_game(api, pod)
    table = {"event": event, "round_number": 1, "table_number": pod.table_number}
    result_services.result_player_report(**table, placements={a: 1, b: 2}, by=users[a])
    assert Game.objects.get(pk=game["id"]).status == Game.Status.IN_PROGRESS  # a report alone changes nothing
    result_services.result_respond(**table, agrees=True, by=users[b])
    assert Game.objects.get(pk=game["id"]).status == Game.Status.SUPERSEDED

    # A game left open at a table with a result (before this change) is closed by a correction.
    Game.objects.filter(pk=game["id"]).update(status=Game.Status.IN_PROGRESS)
    result_services.result_correct(**table, placements={a: 2, b: 1}, reason="wrong slip", by=organiser)
    assert Game.objects.get(pk=game["id"]).status == Game.Status.SUPERSEDED


def test_a_finished_games_own_result_supersedes_nothing(api, organiser):
    pod = seated_table(organiser, "deck-masters", 2)
    a, b = seat_ids(pod)
    record(api, start_game(api, pod), deck_masters_duel(a, b))
    record(api, start_game(api, pod), deck_masters_duel(a, b))
    assert PodResult.objects.get(pod=pod).source == PodResult.Source.GAME
    assert set(Game.objects.filter(pod=pod).values_list("status", flat=True)) == {Game.Status.FINISHED}
