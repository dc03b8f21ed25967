"""The judge console, as a judge's browser uses it: with and without htmx."""

from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from decks.models import DeckVersion, YugiohCard
from games.forms import post_fields
from games.models import Game
from rules import get_format
from rules.engine import Kind
from tests.factories import EventFactory, RegistrationFactory
from tests.support.games import (
    deck_masters_duel,
    format3_trinity_game,
    master_trainer_game,
    mintayn_master_game,
    mt_silver_game,
    yugioh_pool,
)
from tournaments import services as tournament_services
from tournaments.services import round_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge_browser(client, site_staff):
    client.force_login(site_staff)
    return client


NAMES = ["Ryo Bakura", "Yugi Muto", "Mai Kujaku", "Joey Wheeler"]


def _table(organiser, fmt: str, players: int):
    """Round 1 of a new event with one table of ``players``, who have names (no digits, unlike ids)."""
    event = EventFactory(organiser=organiser, format=fmt)
    for i in range(players):
        RegistrationFactory(event=event, player__display_name=NAMES[i])
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


def _post(browser, game: Game, pairs: list[tuple[str, str]], htmx: bool = False):
    """Post form fields as a browser does: a name may repeat."""
    body = "&".join(f"{_quote(k)}={_quote(v)}" for k, v in pairs)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return browser.post(
        reverse("games:console-append", args=[game.pk]),
        body,
        content_type="application/x-www-form-urlencoded",
        **headers,
    )


def _quote(text: str) -> str:
    from urllib.parse import quote_plus

    return quote_plus(str(text))


def _record(browser, game: Game, type_: str, data: dict, version: int | None = None, htmx: bool = False):
    """Record ``data`` through the event's form, filled in as a judge fills it (names, numbers, ticks)."""
    spec = get_format(game.format).engine.VOCABULARY[type_]
    version = game.version if version is None else version
    pairs = [("type", type_), ("expected_version", str(version)), *post_fields(spec, data)]
    return _post(browser, game, pairs, htmx=htmx)


def _page(browser, game: Game) -> str:
    return browser.get(reverse("games:console", args=[game.pk])).content.decode()


def _names(game: Game) -> dict[int, str]:
    return dict(game.pod.seats.values_list("player_id", "player__display_name"))


class _Forms(HTMLParser):
    """The page's forms (action, hidden and visible fields, buttons) and labels, as a browser sees them."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.labels: set[str] = set()
        self.controls: list[dict] = []
        self._form: dict | None = None
        self._button: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"attrs": a, "fields": [], "buttons": []}
            self.forms.append(self._form)
        elif tag == "label" and a.get("for"):
            self.labels.add(a["for"])
        elif tag in ("input", "select", "textarea"):
            self.controls.append({"tag": tag, **a})
            if self._form is not None and a.get("type") == "hidden":
                self._form["fields"].append((a["name"], a.get("value", "")))
        elif tag == "button" and self._form is not None:
            self._button = {**a, "text": ""}
            self._form["buttons"].append(self._button)

    def handle_data(self, data):
        if self._button is not None:
            self._button["text"] += data

    def handle_endtag(self, tag):
        if tag == "button":
            self._button = None
        elif tag == "form":
            self._form = None


def _parse(page: str) -> _Forms:
    parser = _Forms()
    parser.feed(page)
    return parser


def _quick(page: str, player_name: str, key: str) -> list[tuple[str, str]]:
    """The hidden fields of the one-tap button ``key`` on ``player_name``'s card."""
    for form in _parse(page).forms:
        for button in form["buttons"]:
            if button.get("data-quick") == key and button["text"].strip().startswith(f"{player_name}:"):
                return form["fields"]
    raise AssertionError(f"no one-tap {key!r} for {player_name}")


def _quick_keys(page: str, player_name: str) -> list[str]:
    return [
        b["data-quick"]
        for form in _parse(page).forms
        for b in form["buttons"]
        if b.get("data-quick") and b["text"].strip().startswith(f"{player_name}:")
    ]


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
    record = page[page.index('id="record"') :]
    for type_ in ["start_turn", "end_turn", *own_events, "concede", "time_called", "ruling_note"]:
        assert f'name="type" value="{type_}"' in record, type_
    assert record.index('value="start_turn"') < record.index(f'value="{own_events[0]}"') < record.index(">Judge</h2>")
    assert record.index(">Judge</h2>") < record.index('value="concede"')
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
    assert f"Recorded #1: start turn — player: {_names(game)[first]}." in page and "their turn" in page
    assert 'name="expected_version" value="1"' in page


def test_with_htmx_a_legal_event_swaps_the_console_in_place(judge_browser, game):
    response = _append(judge_browser, game, "start_turn", htmx=True, player=game.players[0])
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="console"' in page and "<html" not in page
    assert "Recorded #1: start turn — player: " in page and 'value="1"' in page


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


def test_a_mistyped_number_is_an_error_at_its_field_not_a_500(judge_browser, game):
    first, second = game.players[:2]
    response = _append(
        judge_browser, game, "time_called", **{f"placements_{first}": "first", f"placements_{second}": "2"}, reason="t"
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Check the time called entry." in page and "Enter a whole number." in page
    assert 'aria-invalid="true"' in page and f'id="id_time_called_placements_{first}"' in page
    game.refresh_from_db()
    assert game.version == 0


def test_placements_are_a_number_per_player_still_in_by_name(judge_browser, game):
    placements = {str(pid): 1 if i < 2 else 3 for i, pid in enumerate(game.players)}
    response = _append(
        judge_browser,
        game,
        "time_called",
        **{f"placements_{k}": str(v) for k, v in placements.items()},
        reason=" time ",
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.events.get().payload == {"placements": placements, "reason": "time"}
    page = _page(judge_browser, game)
    assert "Game over" in page and "time called: time" in page and "Back to the event" in page
    # Only a ruling note is offered once the game is over, and no one-tap buttons.
    assert 'value="ruling_note"' in page and 'value="start_turn"' not in page and "data-quick" not in page
    names = _names(game)
    assert all(f"{names[pid]} #{placements[str(pid)]}" in page for pid in game.players)


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
    assert "voided by site-staff in #2: wrong player" in page
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
    assert f'href="{_table_url(master_trainer)}">Record game' in page


SCRIPTS = {
    "master-trainer": (4, master_trainer_game),
    "format3-trinity": (4, format3_trinity_game),
    "mt-silver": (4, mt_silver_game),
    "deck-masters": (2, lambda ids: deck_masters_duel(*ids)),
    "mintayn-master": (2, lambda ids: mintayn_master_game(*ids)),
}


@pytest.mark.parametrize("fmt", list(SCRIPTS))
def test_a_judge_records_a_whole_game_on_the_console_and_standings_update(
    judge_browser, organiser, fmt, django_capture_on_commit_callbacks
):
    """Every entry of a whole game through its form, filled in with names, numbers and ticks: no JSON, no ids."""
    players, script = SCRIPTS[fmt]
    event = _table(organiser, fmt, players)
    game = _start(judge_browser, event)
    with django_capture_on_commit_callbacks(execute=True):
        for entry in script(list(game.players)):
            game.refresh_from_db()
            response = _record(judge_browser, game, entry.type, dict(entry.data))
            assert response.status_code == 302, (entry, response.content.decode()[:2000])
            recorded = game.events.order_by("-seq").first()
            spec = get_format(fmt).engine.VOCABULARY[entry.type]
            expected = json.loads(json.dumps(dict(entry.data)))
            for name, field in spec.fields.items():
                if field.kind == Kind.TAG and name in expected:
                    expected[name] = str(expected[name])
            assert recorded.payload == expected, entry
    game.refresh_from_db()
    if fmt == "deck-masters":
        assert game.status == "finished"  # one duel of the match: the next one is offered
        return
    assert game.status == "finished"
    seats = {s.player_id: s.placement for s in event.rounds.get().seats.all()}
    assert seats == {int(k): v for k, v in game.state["result"]["placements"].items()}
    page = _page(judge_browser, game)
    assert "finished" in page.lower()
    standings = judge_browser.get(reverse("public:standings", args=[event.pk])).content.decode()
    winner = next(s.player for s in event.rounds.get().seats.select_related("player") if s.placement == 1)
    assert winner.display_name in standings
    event.refresh_from_db()
    assert event.standings_current and event.standings.get(player=winner).points == 3


# --- a floor judge's console: names, widgets, one-tap entries ------------------------------------------


@pytest.fixture
def duel(judge_browser, organiser) -> Game:
    return _start(judge_browser, _table(organiser, "deck-masters", 2))


def test_an_lp_change_for_both_players_is_entered_by_name_in_one_entry(judge_browser, duel):
    first, second = duel.players
    names = _names(duel)
    _append(judge_browser, duel, "start_turn", player=first)
    duel.refresh_from_db()
    page = _page(judge_browser, duel)
    form = page[page.index('id="event-lp_change"') :]
    form = form[: form.index("</details>")]
    # A signed number per player, labelled with the name; nothing to type ids or JSON into.
    for pid in (first, second):
        assert f'<label for="id_lp_change_changes_{pid}">{names[pid]}</label>' in form
        assert f'type="number" name="changes_{pid}"' in form
    assert 'name="changes"' not in form
    response = _append(judge_browser, duel, "lp_change", **{f"changes_{first}": "-1000", f"changes_{second}": "-500"})
    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.events.get(seq=2).payload == {"changes": {str(first): -1000, str(second): -500}}
    assert [p["lp"] for p in duel.state["players"]] == [7000, 7500]
    page = _page(judge_browser, duel)
    assert f"LP changes: {names[first]} −1000, {names[second]} −500" in page


def test_a_refusal_names_the_players_never_their_ids(judge_browser, duel):
    first, second = duel.players
    names = _names(duel)
    for htmx in (False, True):
        response = _append(judge_browser, duel, "start_turn", htmx=htmx, player=second)
        page = response.content.decode()
        assert response.status_code in (400, 422)
        assert f"The next turn is {names[first]}’s." in page or f"The next turn is {names[first]}&#x27;s." in page
        assert "not_your_turn" in page
        assert not re.search(rf"[Pp]layer(?:\(s\))? ({first}|{second})\b", page)


def test_a_void_that_breaks_the_log_names_the_players_too(judge_browser, game):
    first = game.players[0]
    _append(judge_browser, game, "start_turn", player=first)
    _append(judge_browser, game, "end_turn", version=1, player=first)
    response = judge_browser.post(
        reverse("games:console-void", args=[game.pk, 1]), {"expected_version": 2, "reason": "oops"}
    )
    page = response.content.decode()
    assert response.status_code == 409 and "void_breaks_log" in page
    assert _names(game)[first] in page[page.index('id="console-alert"') :][:1000]
    assert f"player {first}" not in page.lower()


def test_every_input_of_every_format_has_a_label(judge_browser, organiser):
    for fmt, (players, _) in SCRIPTS.items():
        game = _start(judge_browser, _table(organiser, fmt, players))
        parsed = _parse(_page(judge_browser, game))
        visible = [c for c in parsed.controls if c.get("type") not in ("hidden", "submit")]
        assert visible, fmt
        unlabelled = [c for c in visible if c.get("id") not in parsed.labels and not c.get("aria-label")]
        assert not unlabelled, (fmt, unlabelled[:3])
        # No free text box for what is a number, a player, a choice or a flag.
        kinds = {c.get("type") for c in visible if c["tag"] == "input"}
        assert {"number", "checkbox"} <= kinds, fmt


def test_the_deck_master_shows_its_card_name_and_where_it_is(judge_browser, organiser):
    event = _table(organiser, "deck-masters", 2)
    registrations = {r.player_id: r for r in event.registrations.all()}
    # The catalogue may already hold the real card (imported card data): same passcode, same name.
    YugiohCard.objects.update_or_create(
        passcode=89631139, defaults={"name": "Blue-Eyes White Dragon", "card_type": "monster"}
    )
    first, second = sorted(registrations)
    DeckVersion.objects.create(
        registration=registrations[first], number=1, decklist="#main", roles={"deck_master": "Jinzo"}
    )
    DeckVersion.objects.create(
        registration=registrations[first], number=2, decklist="#main", roles={"deck_master": "89631139"}
    )
    duel = _start(judge_browser, event)
    assert duel.state["players"][[p["id"] for p in duel.state["players"]].index(first)]["deck_master"]["card"] == (
        "Blue-Eyes White Dragon"
    )
    page = _page(judge_browser, duel)
    assert "Blue-Eyes White Dragon · in its Deck Master Position" in page
    assert "name not recorded · in its Deck Master Position" in page  # the other player registered no deck
    assert "card: —" not in page and "location: position" not in page
    owner = duel.players[0]
    _append(judge_browser, duel, "start_turn", player=owner)
    _append(judge_browser, duel, "deck_master_summon", version=1, player=owner, position="defence")
    page = _page(judge_browser, duel)
    assert "on the field, Defence Position" in page


def test_ruling_notes_keep_the_log_s_numbers_after_a_void(judge_browser, game, api):
    """The console, the log and the API's state give a note the same number, also once an entry is void."""
    _append(judge_browser, game, "ruling_note", text="first")
    _append(judge_browser, game, "ruling_note", version=1, text="second")
    void = judge_browser.post(reverse("games:console-void", args=[game.pk, 1]), {"expected_version": 2, "reason": "x"})
    assert void.status_code == 302
    _append(judge_browser, game, "ruling_note", version=3, text="third")
    game.refresh_from_db()
    assert [(n["seq"], n["text"]) for n in game.state["notes"]] == [(2, "second"), (4, "third")]
    page = _page(judge_browser, game)
    notes = page[page.index("Ruling notes") :]
    notes = notes[: notes.index("</ul>")]
    assert re.findall(r"#(\d+)</span> (\w+)", notes) == [("2", "second"), ("4", "third")]
    for seq, text in ((2, "second"), (4, "third")):
        assert re.search(rf'id="entry-{seq}".*?text: {text}', page, re.S)
    state = api.get(f"/api/v1/games/{game.pk}/").json()["state"]
    log = {e["seq"]: e for e in api.get(f"/api/v1/games/{game.pk}/events/").json()["results"]}
    assert all(log[n["seq"]]["payload"]["text"] == n["text"] for n in state["notes"])


# --- one-tap entries ---------------------------------------------------------------------------------------


def test_one_tap_buttons_record_the_entry_they_name(judge_browser, game):
    names = _names(game)
    first, second = game.players[:2]
    page = _page(judge_browser, game)
    # Before the first turn: the first player can start it; anyone can lose Life (an Item needs a turn).
    assert _quick_keys(page, names[first]) == ["start_turn", "life_10", "life_50", "life_100"]
    assert _quick_keys(page, names[second]) == ["life_10", "life_50", "life_100"]
    assert _post(judge_browser, game, _quick(page, names[first], "start_turn")).status_code == 302
    game.refresh_from_db()
    page = _page(judge_browser, game)
    lives = ["life_10", "life_50", "life_100"]
    assert _quick_keys(page, names[first]) == ["end_turn", "energy_source", "supporter", "item", *lives]
    assert _quick_keys(page, names[second]) == ["item", *lives]
    response = _post(judge_browser, game, _quick(page, names[second], "life_50"), htmx=True)
    assert response.status_code == 200
    game.refresh_from_db()
    entry = game.events.get(seq=2)
    assert (entry.type, entry.payload) == ("adjust_life", {"player": second, "amount": -50, "reason": "card effect"})
    assert game.state["players"][1]["life"] == 150
    text = response.content.decode()
    assert f"Recorded #2: adjust life — player: {names[second]} · Life change: −50 · reason: card effect." in text
    assert 'open id="event-adjust_life"' not in text  # a one-tap entry leaves its form folded


def test_a_stale_one_tap_is_refused_like_any_entry(judge_browser, game):
    names = _names(game)
    page = _page(judge_browser, game)
    tap = _quick(page, names[game.players[1]], "life_10")
    assert _post(judge_browser, game, tap).status_code == 302
    again = _post(judge_browser, game, tap)  # the same tap, on the page as it was
    assert again.status_code == 409 and "Someone else recorded an entry." in again.content.decode()
    game.refresh_from_db()
    assert game.version == 1 and game.state["players"][1]["life"] == 190


def test_a_badge_token_is_one_tap_on_the_knocked_out_players_card(judge_browser, organiser):
    game = _start(judge_browser, _table(organiser, "mt-silver", 4))
    names = _names(game)
    a, b = game.players[:2]
    _append(judge_browser, game, "start_turn", player=a)
    game.refresh_from_db()
    page = _page(judge_browser, game)
    assert "knocked_out" not in _quick_keys(page, names[a])  # not on the turn player's own card
    tap = _quick(page, names[b], "knocked_out")
    labels = [" ".join(btn["text"].split()) for form in _parse(page).forms for btn in form["buttons"]]
    assert f"{names[b]}: Knocked Out by {names[a]}" in labels
    assert _post(judge_browser, game, tap).status_code == 302
    game.refresh_from_db()
    assert game.events.get(seq=2).payload == {"player": b, "by": a}
    assert [p["badges_taken"] for p in game.state["players"]] == [1, 0, 0, 0]


@pytest.mark.parametrize(
    ("fmt", "key", "amount"), [("deck-masters", "lp_1000", -1000), ("mintayn-master", "lp_500", -500)]
)
def test_lp_loss_is_one_tap_in_the_1v1_formats(judge_browser, organiser, fmt, key, amount):
    game = _start(judge_browser, _table(organiser, fmt, 2))
    names = _names(game)
    first, second = game.players
    assert key not in _quick_keys(_page(judge_browser, game), names[second])  # LP change only within a turn
    _append(judge_browser, game, "start_turn", player=first)
    game.refresh_from_db()
    assert _post(judge_browser, game, _quick(_page(judge_browser, game), names[second], key)).status_code == 302
    game.refresh_from_db()
    assert game.events.get(seq=2).payload == {"changes": {str(second): amount}}


# --- whatever is posted, never a 500 -------------------------------------------------------------------


def test_any_post_to_the_console_is_answered_without_a_server_error(judge_browser, organiser):
    rng = random.Random(7)
    junk = ["", "x", "-1", "0", "3", "99999999999999999999", "{}", "on", "attack", "ryo", "\x00", "🃏" * 40]
    for fmt, (players, _) in SCRIPTS.items():
        game = _start(judge_browser, _table(organiser, fmt, players))
        vocabulary = get_format(fmt).engine.VOCABULARY
        for _ in range(12):
            type_ = rng.choice([*vocabulary, "void", "nonsense"])
            fields = vocabulary[type_].fields if type_ in vocabulary else {"player": None}
            names = [*fields, *(f"{n}_{p}" for n in fields for p in game.players), "expected_version"]
            pairs = [("type", type_), ("expected_version", str(game.version))]
            pairs += [(rng.choice(names), rng.choice([*junk, *map(str, game.players)])) for _ in range(5)]
            response = _post(judge_browser, game, pairs, htmx=rng.random() < 0.5)
            assert response.status_code in (200, 302, 400, 409, 422), (fmt, pairs, response.status_code)
            game.refresh_from_db()


def test_the_judge_names_the_deck_masters_when_starting_a_duel(judge_browser, organiser):
    event = _table(organiser, "deck-masters", 2)
    registration = event.registrations.order_by("player_id").first()
    DeckVersion.objects.create(registration=registration, number=1, decklist="#main", roles={"deck_master": "Jinzo"})
    page = judge_browser.get(_table_url(event)).content.decode()
    other = event.registrations.exclude(pk=registration.pk).get()
    assert (
        f'<label for="deck_master_{registration.player_id}">Deck Master of {registration.player.display_name}' in page
    )
    assert f'name="deck_master_{registration.player_id}" value="Jinzo"' in page
    assert f'name="deck_master_{other.player_id}" value=""' in page
    judge_browser.post(
        reverse("games:console-create", args=[event.pk, 1, 1]),
        {f"deck_master_{registration.player_id}": "Jinzo", f"deck_master_{other.player_id}": " Dark Magician "},
    )
    duel = Game.objects.get(pod__round__event=event)
    cards = {p["id"]: p["deck_master"]["card"] for p in duel.state["players"]}
    assert cards == {registration.player_id: "Jinzo", other.player_id: "Dark Magician"}
    assert "Dark Magician · in its Deck Master Position" in _page(judge_browser, duel)


def test_a_result_staff_enter_by_hand_closes_the_game_and_the_console_refuses_its_entries(
    judge_browser, organiser, game
):
    first = game.players[0]
    _append(judge_browser, game, "start_turn", player=first)
    game.refresh_from_db()
    event = game.pod.round.event
    placements = {pid: place for place, pid in enumerate(game.players, start=1)}
    tournament_services.pod_result_report(
        event=event, round_number=1, table_number=1, placements=placements, by=organiser
    )

    page = _page(judge_browser, game)
    assert "Closed: result recorded by hand" in page and "is closed" in page
    assert "the result supersedes it" in page and "takes no more entries" in page
    forms = _parse(page).forms
    assert not [f for f in forms if f["attrs"].get("action") == reverse("games:console-append", args=[game.pk])]
    assert "Void #1" not in page
    for htmx, status in ((False, 409), (True, 409)):
        response = _append(judge_browser, game, "ruling_note", htmx=htmx, text="Deck shuffled")
        answer = response.content.decode()
        assert response.status_code == status
        assert "Refused." in answer and "game_superseded" in answer and "recorded by hand" in answer
        assert '<p class="field-error" role="alert">' in answer and "Deck shuffled" in answer  # at its form
    void = judge_browser.post(
        reverse("games:console-void", args=[game.pk, 1]), {"expected_version": game.version, "reason": "typo"}
    )
    assert void.status_code == 409 and "game_superseded" in void.content.decode()
    game.refresh_from_db()
    assert (game.status, game.version) == (Game.Status.SUPERSEDED, 1)
    table = judge_browser.get(_table_url(event)).content.decode()
    assert "badge-superseded" in table and "Start" not in table


def test_the_next_duel_keeps_the_deck_masters_the_judge_named_for_the_first(
    judge_browser, organiser, django_capture_on_commit_callbacks
):
    event = _table(organiser, "deck-masters", 2)  # nobody registered a deck
    a, b = sorted(event.registrations.values_list("player_id", flat=True))
    judge_browser.post(
        reverse("games:console-create", args=[event.pk, 1, 1]),
        {f"deck_master_{a}": "Jinzo", f"deck_master_{b}": "Dark Magician"},
    )
    duel = Game.objects.get(pod__round__event=event)
    with django_capture_on_commit_callbacks(execute=True):
        _append(judge_browser, duel, "concede", player=b)
    names = _names(duel)

    over = _page(judge_browser, duel)
    assert "The next duel starts with the same Deck Masters: Jinzo" in over and f"Dark Magician ({names[b]})" in over
    table = judge_browser.get(_table_url(event)).content.decode()
    assert f'name="deck_master_{a}" value="Jinzo"' in table
    assert f'name="deck_master_{b}" value="Dark Magician"' in table and "as in duel 1" in table

    judge_browser.post(reverse("games:console-create", args=[event.pk, 1, 1]))  # the banner's button: no names
    second = Game.objects.get(pod__round__event=event, number=2)
    assert {p["id"]: p["deck_master"]["card"] for p in second.state["players"]} == {a: "Jinzo", b: "Dark Magician"}
    page = _page(judge_browser, second)
    assert "Jinzo · in its Deck Master Position" in page and "name not recorded" not in page


# --- Master Trainer: §18 Status Conditions and Creatures put into play by effects ---------------------------


def test_a_status_condition_recorded_from_the_form_shows_on_the_players_state(judge_browser, game):
    # §18: "Only one Status Condition may affect Creatures at a time."
    first, second = game.players[:2]
    _append(judge_browser, game, "start_turn", player=first)
    response = _append(judge_browser, game, "apply_status_condition", version=1, player=second, condition="poisoned")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.state["players"][1]["status_condition"] == {"condition": "poisoned", "turn": 1}
    page = _page(judge_browser, game)
    assert "Status Condition" in page and "poisoned, since turn 1" in page
    assert 'name="type" value="remove_status_condition"' in page
    refused = _append(judge_browser, game, "apply_status_condition", version=2, player=second, condition="burned")
    assert refused.status_code == 400
    assert "status_condition_present" in refused.content.decode() and "§18" in refused.content.decode()
    _append(judge_browser, game, "remove_status_condition", version=2, player=second)
    game.refresh_from_db()
    assert game.state["players"][1]["status_condition"] is None
    assert "poisoned, since turn 1" not in _page(judge_browser, game)


def test_an_item_benches_a_creature_in_another_players_turn_from_the_form(judge_browser, game):
    # §3: "Card text always overrides the rulebook."; §11.1: Items "during any player's turn".
    first, second = game.players[:2]
    _append(judge_browser, game, "start_turn", player=first)
    refused = _append(judge_browser, game, "play_creature", version=1, player=second, to="bench")
    assert refused.status_code == 400 and "not_your_turn" in refused.content.decode()
    response = _append(judge_browser, game, "play_creature", version=1, player=second, to="bench", by_effect="on")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 2 and game.state["players"][1]["bench"] == 1
    assert game.events.get(seq=2).payload == {"player": second, "to": "bench", "by_effect": True}


# --- Deck Masters: Abilities and the Deck Master named for a duel ---------------------------------------


def test_a_judge_records_a_deck_masters_ability_and_the_console_shows_it_used_this_turn(judge_browser, organiser):
    """THE ABILITY: Hyper Hammerhead's "Ability can only be activated once per turn by paying 700 Life Points ... The
    effect of the Ability is negated, and I cannot activate the Ability again this turn"."""
    event = _table(organiser, "deck-masters", 2)
    a, b = sorted(event.registrations.values_list("player_id", flat=True))
    judge_browser.post(
        reverse("games:console-create", args=[event.pk, 1, 1]),
        {f"deck_master_{a}": "Hyper Hammerhead", f"deck_master_{b}": "Goldd, Wu-Lord of Dark World"},
    )
    duel = Game.objects.get(pod__round__event=event)
    first = duel.players[0]
    _append(judge_browser, duel, "start_turn", player=first)
    duel.refresh_from_db()
    page = _page(judge_browser, duel)
    form = page[page.index('id="event-activate_ability"') :]
    form = form[: form.index("</details>")]
    assert 'type="checkbox" name="negated"' in form and 'name="cost"' in form and 'name="once_per_turn"' in form
    names = _names(duel)
    response = _append(judge_browser, duel, "activate_ability", player=a, negated="on")
    assert response.status_code == 302
    duel.refresh_from_db()
    assert duel.events.get(seq=2).payload == {"player": a, "negated": True}
    me = next(p for p in duel.state["players"] if p["id"] == a)
    assert me["lp"] == 7300
    page = _page(judge_browser, duel)
    assert "Abilities used this turn" in page and "Hyper Hammerhead (negated)" in page
    again = _append(judge_browser, duel, "activate_ability", player=a)
    answer = again.content.decode()
    assert again.status_code == 400
    assert "ability_once_per_turn" in answer and names[a] in answer
    duel.refresh_from_db()
    assert duel.version == 2


def test_a_spell_named_as_deck_master_on_the_table_page_is_refused(judge_browser, organiser):
    """DUEL SETUP: "Spell Cards and Trap Cards are not allowed to be Deck Masters"."""
    from decks import catalogue

    yugioh_pool()
    try:
        event = _table(organiser, "deck-masters", 2)
        a, b = sorted(event.registrations.values_list("player_id", flat=True))
        response = judge_browser.post(
            reverse("games:console-create", args=[event.pk, 1, 1]),
            {f"deck_master_{a}": "Pot of Greed", f"deck_master_{b}": "Dark Magician"},
            follow=True,
        )
        page = response.content.decode()
        assert "Pot of Greed is a Spell Card: only Monster Cards are allowed to be Deck Masters" in page
        assert not Game.objects.filter(pod__round__event=event).exists()
        judge_browser.post(
            reverse("games:console-create", args=[event.pk, 1, 1]),
            {f"deck_master_{a}": "Hyper Hammerhead", f"deck_master_{b}": "Dark Magician"},
        )
        duel = Game.objects.get(pod__round__event=event)
        assert {p["id"]: p["deck_master"]["card"] for p in duel.state["players"]} == {
            a: "Hyper Hammerhead",
            b: "Dark Magician",
        }
    finally:
        catalogue.clear()
