"""A sixth format is one package and one registry line: a toy format, registered inside the test, end to end.

The toy format ("Toy Duel") is what docs/adding-a-format.md describes, written out in
one module: a :class:`~rules.base.Format` record carrying its engine (two
players, ``hit`` takes a player out) and its deck rules (at least three cards), read
with the Mintayn card family.  The ``toy_format`` fixture registers it and takes it
out again; nothing else in the code names it.  It is then taken through a deck
check, a paired round and a game recorded through the games service until the
table has its result.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from decks import catalogue
from decks import services as deck_services
from decks.checking import deck_check
from games import services as game_services
from games.models import Game
from rules import FORMATS, get_format, register, unregister
from rules.base import ONE_VS_ONE, Format, GameFamily, TableSize
from rules.deckrules import Deck, Violation, problem_violations
from rules.engine import (
    COMMON_VOCABULARY,
    EventSpec,
    Field,
    GameEvent,
    QuickEntry,
    State,
    apply_common,
    base_state,
    clone,
    eliminate,
    ensure_in_progress,
    player_in_game,
)
from tests.factories import PlayerFactory, RegistrationFactory
from tournaments import services
from tournaments.models import PodResult

TOY_SLUG = "toy-duel"


class ToyEngine:
    slug: str
    VOCABULARY: Mapping[str, EventSpec] = {
        "hit": EventSpec("hit", {"player": Field.player("the player hit")}, "toy rules", "The player hit is out."),
        **COMMON_VOCABULARY,
    }
    QUICK_ENTRIES: Sequence[QuickEntry] = ()

    def new_game(self, players: Sequence[int], options: Mapping[str, Any] | None = None) -> State:
        return base_state(players)

    def apply(self, state: State, event: GameEvent) -> State:
        common = apply_common(state, event)
        if common is not None:
            return common
        ensure_in_progress(state)
        new = clone(state)
        target = player_in_game(new, event.data, "toy rules")
        eliminate(new, target["id"], "hit")
        new["seq"] += 1
        return new


class ToyDeckRules:
    @staticmethod
    def check(deck: Deck, options: Mapping[str, Any] | None = None) -> list[Violation]:
        violations = problem_violations(deck)
        if deck.count() < 3:
            violations.append(Violation("deck_size", "toy deck", f"A deck has at least 3 cards, not {deck.count()}."))
        return violations


TOY = Format(
    slug=TOY_SLUG,
    name="Toy Duel",
    family=GameFamily.MINTAYN,
    table_size=TableSize(min=2, max=2, preferred=2),
    scoring=ONE_VS_ONE,
    starting_life=1,
    engine=ToyEngine(),
    deck_rules=ToyDeckRules(),
)

CARDS_CSV = "name,card_type,class,level,def,stage,mana_cost\nToy Soldier,monster,Coreon,1,100,basic,1\n"


def make_event(organiser, players: int):
    event = services.event_create(
        organiser=organiser, name="Toy night", format=TOY_SLUG, planned_rounds=1, date=datetime.date(2026, 12, 1)
    )
    for i in range(players):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"T{i:02d}"))
    return event


@pytest.fixture
def toy_format():
    register(TOY)
    yield TOY
    unregister(TOY_SLUG)


@pytest.fixture
def toy_cards(db, tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(CARDS_CSV, encoding="utf-8")
    deck_services.cards_import_mintayn(path=path)
    catalogue.clear()
    yield
    catalogue.clear()  # the import is rolled back with the test: forget the pool read from it


def test_the_registry_carries_the_toy_format_only_while_registered(toy_format):
    assert get_format(TOY_SLUG) is TOY
    assert TOY.engine.slug == TOY_SLUG  # the registry line names the slug once; the engine answers to it
    assert TOY.vocabulary["hit"].rule == "toy rules"
    assert TOY.match_result is None
    with pytest.raises(ValueError, match="already registered"):
        register(TOY)


def test_the_toy_format_is_gone_after_its_test():
    assert TOY_SLUG not in FORMATS


def test_a_toy_deck_is_checked_by_the_toy_rules(toy_format, toy_cards):
    legal = deck_check(format=TOY_SLUG, decklist="3 Toy Soldier\n")
    assert legal.legal and legal.card_count == 3
    short = deck_check(format=TOY_SLUG, decklist="2 Toy Soldier\n")
    assert [v.code for v in short.violations] == ["deck_size"]
    unknown = deck_check(format=TOY_SLUG, decklist="3 Toy Soldier\n1 Nobody\n")
    assert "unknown_card" in {v.code for v in unknown.violations}


def test_a_toy_round_is_paired_and_its_game_recorded_until_the_table_has_its_result(
    toy_format, organiser, django_capture_on_commit_callbacks
):
    event = make_event(organiser, 4)
    assert event.format_spec is TOY
    event.full_clean()  # the model's format choices are read from the registry when validating
    round_ = services.round_start(event=event, by=organiser)
    pods = list(round_.pods.filter(is_bye=False))
    assert len(pods) == 2
    assert all(pod.seats.count() == TOY.table_size.preferred for pod in pods)

    pod = pods[0]
    game = game_services.game_create(pod=pod, by=organiser)
    first, second = game.players
    assert game.state["turn"]["player"] is None and TOY.turn_of(game.state) is None
    with django_capture_on_commit_callbacks(execute=True):
        game, _ = game_services.game_event_append(
            game=game, expected_version=game.version, type="ruling_note", data={"text": "toy"}, by=organiser
        )
        game, _ = game_services.game_event_append(
            game=game, expected_version=game.version, type="hit", data={"player": second}, by=organiser
        )
    assert game.status == Game.Status.FINISHED
    result = PodResult.objects.get(pod=pod)
    assert result.source == PodResult.Source.GAME
    assert dict(pod.seats.values_list("player_id", "placement")) == {first: 1, second: 2}
    assert dict(pod.seats.values_list("player_id", "points")) == {first: 3, second: 0}


def test_the_api_takes_a_format_registered_after_start_up(toy_format, toy_cards, api):
    """The REST fields read the registry when a request comes, not when the module was imported."""
    created = api.post(
        "/api/v1/events/",
        {"name": "Toy night", "format": TOY_SLUG, "planned_rounds": 3, "date": "2026-12-04"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["format"] == TOY_SLUG
    listed = api.get("/api/v1/formats/").json()["results"]
    assert TOY_SLUG in {f["slug"] for f in listed}
    checked = api.post("/api/v1/deck-checks/", {"format": TOY_SLUG, "decklist": "2 Toy Soldier\n"}, format="json")
    assert checked.status_code == 200, checked.json()
    assert [v["code"] for v in checked.json()["violations"]] == ["deck_size"]
