"""The judge console, as a judge's browser uses it: with and without htmx."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import EventFactory, RegistrationFactory
from tournaments.services import round_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge_browser(client, staff):
    client.force_login(staff)
    return client


def _table(organiser, fmt: str, players: int):
    event = EventFactory(organiser=organiser, format=fmt)
    for _ in range(players):
        RegistrationFactory(event=event)
    round_start(event=event, by=organiser, seed=1)
    return event


def _table_url(event) -> str:
    return reverse("games:console-table", args=[event.pk, 1, 1])


def _start(browser, event) -> Game:
    response = browser.post(reverse("games:console-create", args=[event.pk, 1, 1]))
    game = Game.objects.get(pod__round__event=event, pod__table_number=1)
    assert response.status_code == 302 and response["Location"] == reverse("games:console", args=[game.pk])
    return game


def _append(browser, game: Game, type_: str, version: int | None = None, htmx: bool = False, **fields):
    data = {"type": type_, "expected_version": game.version if version is None else version, **fields}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return browser.post(reverse("games:console-append", args=[game.pk]), data, **headers)


@pytest.fixture
def master_trainer(organiser):
    return _table(organiser, "master-trainer", 4)


@pytest.fixture
def game(judge_browser, master_trainer) -> Game:
    return _start(judge_browser, master_trainer)


def test_the_console_is_for_the_events_staff_only(outsider, master_trainer, game):
    client = Client()  # not the judge's signed-in client
    urls = [_table_url(master_trainer), reverse("games:console", args=[game.pk])]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    for url in urls:
        assert client.get(url).status_code == 403
    assert _append(client, game, "start_turn", player=game.players[0]).status_code == 403
    assert client.post(reverse("games:console-create", args=[master_trainer.pk, 1, 1])).status_code == 403
    game.refresh_from_db()
    assert game.version == 0


def test_the_organiser_starts_the_game_from_the_table_page(client, organiser, master_trainer):
    client.force_login(organiser)
    page = client.get(_table_url(master_trainer)).content.decode()
    assert "No game recorded yet." in page and "Start game" in page
    game = _start(client, master_trainer)
    assert game.number == 1 and game.version == 0 and len(game.players) == 4
    page = client.get(_table_url(master_trainer)).content.decode()
    assert "Game 1" in page and "Start game" not in page
    console = client.get(reverse("games:console", args=[game.pk])).content.decode()
    names = list(game.pod.seats.order_by("seat_order").values_list("player__display_name", flat=True))
    assert all(name in console for name in names)
    assert "plays next" in console and "Nothing recorded yet." in console


@pytest.mark.parametrize(
    ("fmt", "players", "own_events"),
    [
        ("master-trainer", 4, ["attack", "play_stadium", "knock_out"]),
        ("mt-silver", 4, ["explore", "decline_explore", "special_condition"]),
        ("deck-masters", 2, ["phase", "lp_change", "deck_master_summon"]),
        ("mintayn-master", 2, ["mana_place", "summon", "resolve_chain"]),
        ("format3-trinity", 3, ["promote", "no_benched_pokemon"]),
    ],
)
def test_the_console_has_a_form_for_each_event_of_the_format(judge_browser, organiser, fmt, players, own_events):
    event = _table(organiser, fmt, players)
    game = _start(judge_browser, event)
    page = judge_browser.get(reverse("games:console", args=[game.pk])).content.decode()
    for type_ in ["start_turn", "end_turn", *own_events, "concede", "time_called", "ruling_note"]:
        assert f'name="type" value="{type_}"' in page, type_
    assert page.index('value="start_turn"') < page.index(f'value="{own_events[0]}"') < page.index(">Judge</h2>")
    assert page.index(">Judge</h2>") < page.index('value="concede"')
    assert f'name="expected_version" value="{game.version}"' in page


def test_a_legal_event_updates_the_state(judge_browser, game):
    first = game.players[0]
    response = _append(judge_browser, game, "start_turn", player=first)
    console = reverse("games:console", args=[game.pk])
    # Back to the console, with the form just used still open.
    assert response.status_code == 302 and response["Location"] == f"{console}?open=start_turn#event-start_turn"
    game.refresh_from_db()
    assert game.version == 1 and game.state["turn"] == {"number": 1, "player": first}
    page = judge_browser.get(console, {"open": "start_turn"}).content.decode()
    assert "Recorded #1: start turn." in page and "their turn" in page
    assert 'name="expected_version" value="1"' in page


def test_with_htmx_a_legal_event_swaps_the_console_in_place(judge_browser, game):
    response = _append(judge_browser, game, "start_turn", htmx=True, player=game.players[0])
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="console"' in page and "<html" not in page
    assert "Recorded #1: start turn." in page and 'value="1"' in page


def test_a_refused_event_shows_its_code_and_rule_and_changes_nothing(judge_browser, game):
    first, second = game.players[:2]
    _append(judge_browser, game, "start_turn", player=first)
    game.refresh_from_db()
    for htmx, status in ((False, 400), (True, 422)):
        response = _append(judge_browser, game, "attack", htmx=htmx, player=first, target=second, damage="30")
        page = response.content.decode()
        assert response.status_code == status
        assert "Refused." in page and "first_turn_attack" in page and "§2" in page
        assert 'value="30"' in page  # what the judge typed is kept
    game.refresh_from_db()
    assert game.version == 1 and game.events.count() == 1


def test_a_stale_version_says_someone_else_recorded_an_entry(judge_browser, game):
    first = game.players[0]
    _append(judge_browser, game, "start_turn", player=first)
    response = _append(judge_browser, game, "ruling_note", version=0, text="Deck shuffled by the judge")
    page = response.content.decode()
    assert response.status_code == 409
    assert "Someone else recorded an entry." in page and "now at version 1" in page
    assert 'name="expected_version" value="1"' in page and "Deck shuffled by the judge" in page
    game.refresh_from_db()
    assert game.version == 1


def test_bad_json_in_a_field_is_a_form_error_not_a_500(judge_browser, game):
    response = _append(judge_browser, game, "time_called", placements="{broken", reason="time")
    page = response.content.decode()
    assert response.status_code == 400
    assert "not valid JSON" in page and "Check the time called entry." in page
    game.refresh_from_db()
    assert game.version == 0


def test_typed_values_reach_the_engine(judge_browser, game):
    placements = {str(pid): 1 if i < 2 else 3 for i, pid in enumerate(game.players)}
    response = _append(judge_browser, game, "time_called", placements=json.dumps(placements), reason="  time  ")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.events.get().payload == {"placements": placements, "reason": "time"}
    page = judge_browser.get(reverse("games:console", args=[game.pk])).content.decode()
    assert "Game over" in page and "time called: time" in page and "Back to the event" in page
    # Only a ruling note is offered once the game is over.
    assert 'value="ruling_note"' in page and 'value="start_turn"' not in page


def test_voiding_an_entry_strikes_it_through(judge_browser, game):
    _append(judge_browser, game, "start_turn", player=game.players[0])
    url = reverse("games:console-void", args=[game.pk, 1])
    missing_reason = judge_browser.post(url, {"expected_version": 1, "reason": ""})
    assert missing_reason.status_code == 400 and "Say why entry #1 is void." in missing_reason.content.decode()
    response = judge_browser.post(url, {"expected_version": 1, "reason": "wrong player"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 2 and game.state["turn"]["player"] is None
    page = judge_browser.get(reverse("games:console", args=[game.pk])).content.decode()
    assert 'class="entry voided" id="entry-1"' in page
    assert "voided by judge in #2: wrong player" in page
    assert "voids #1: wrong player" in page
    assert reverse("games:console-void", args=[game.pk, 1]) not in page  # a void entry cannot be voided again


def test_a_void_that_would_break_the_log_is_refused_with_its_rule(judge_browser, game):
    first = game.players[0]
    _append(judge_browser, game, "start_turn", player=first)
    _append(judge_browser, game, "end_turn", version=1, player=first)
    response = judge_browser.post(
        reverse("games:console-void", args=[game.pk, 1]), {"expected_version": 2, "reason": "oops"}
    )
    assert response.status_code == 409 and "void_breaks_log" in response.content.decode()


def test_a_deck_masters_table_offers_the_next_duel_while_the_match_is_undecided(
    judge_browser, organiser, django_capture_on_commit_callbacks
):
    event = _table(organiser, "deck-masters", 2)
    duel = _start(judge_browser, event)
    with django_capture_on_commit_callbacks(execute=True):
        _append(judge_browser, duel, "concede", player=duel.players[1])
    page = judge_browser.get(reverse("games:console", args=[duel.pk])).content.decode()
    assert "Duel 1 is over" in page and "Start next duel" in page
    table = judge_browser.get(_table_url(event)).content.decode()
    assert "Duel 1" in table and "Start next duel" in table
    judge_browser.post(reverse("games:console-create", args=[event.pk, 1, 1]))
    assert list(Game.objects.filter(pod=duel.pod).values_list("number", flat=True)) == [1, 2]
    table = judge_browser.get(_table_url(event)).content.decode()
    assert "Duel 2" in table and "Start next duel" not in table


def test_the_dashboards_table_cards_link_to_the_console(client, organiser, master_trainer):
    client.force_login(organiser)
    page = client.get(reverse("dashboard:event-detail", args=[master_trainer.pk])).content.decode()
    assert f'href="{_table_url(master_trainer)}">Record game</a>' in page


def _field(value) -> str:
    """A value as a judge types it into the console: JSON for dicts and lists, plain text otherwise."""
    if isinstance(value, dict | list):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@pytest.mark.parametrize(("fmt", "players", "script"), [
    ("mintayn-master", 2, lambda ids: __import__("tests.games.test_engine_mintayn_master", fromlist=["x"]).scripted_game(*ids)),
    ("master-trainer", 4, lambda ids: __import__("tests.games.test_engine_master_trainer", fromlist=["x"]).scripted_game(ids)),
])  # fmt: skip
def test_a_judge_records_a_whole_game_on_the_console_and_standings_update(
    judge_browser, organiser, fmt, players, script, django_capture_on_commit_callbacks
):
    event = _table(organiser, fmt, players)
    game = _start(judge_browser, event)
    with django_capture_on_commit_callbacks(execute=True):
        for entry in script(list(game.players)):
            game.refresh_from_db()
            fields = {name: _field(value) for name, value in entry.data.items()}
            response = _append(judge_browser, game, entry.type, **fields)
            assert response.status_code == 302, (entry, response.content.decode()[:2000])
    game.refresh_from_db()
    assert game.status == "finished"
    seats = {s.player_id: s.placement for s in event.rounds.get().seats.all()}
    assert seats == {int(k): v for k, v in game.state["result"]["placements"].items()}
    page = judge_browser.get(reverse("games:console", args=[game.pk])).content.decode()
    assert "finished" in page.lower()
    standings = judge_browser.get(reverse("public:standings", args=[event.pk])).content.decode()
    winner = next(s.player for s in event.rounds.get().seats.select_related("player") if s.placement == 1)
    assert winner.display_name in standings
    event.refresh_from_db()
    assert event.standings_current and event.standings.get(player=winner).points == 3
