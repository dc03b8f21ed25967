"""The live app reads in :mod:`live.selectors` and shapes in :mod:`live.payloads`: a payload is built from what was
read without a query of its own, so what an overlay costs is what its selectors say."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from decks.models import DeckVersion
from games import services as game_services
from live import payloads, selectors
from live import services as live_services
from tournaments import selectors as tournament_selectors
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

PAYLOADS = Path(payloads.__file__)


def _imported_at_run_time(tree: ast.Module) -> set[str]:
    """The modules ``tree`` imports, but those imported for the type checker alone."""
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
        for node in ast.walk(block)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            found.add(node.module or "")
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_payload_builders_import_no_selector_service_or_manager():
    source = PAYLOADS.read_text(encoding="utf-8")
    imported = _imported_at_run_time(ast.parse(source))
    assert "games.display" in imported  # what the check reads: the imports inside functions too
    assert not [name for name in imported if "selectors" in name or name.endswith("services")]
    assert ".objects" not in source and "refresh_from_db" not in source


def test_a_feature_match_and_the_snapshot_are_shaped_from_what_was_read_without_a_query(
    duel, organiser, django_assert_num_queries
):
    station = live_services.station_create(event=duel, slug="stream-1", by=organiser)
    pod = tournament_selectors.round_pods(round_=tournament_selectors.event_latest_round(event=duel))[0]
    seats = tournament_selectors.pod_seats(pod=pod)
    registration = Registration.objects.get(event=duel, player_id=seats[0].player_id)
    DeckVersion.objects.create(registration=registration, number=1, decklist="1 Dark Magician",
                               roles={"deck_master": "Dark Magician"})  # fmt: skip
    station = live_services.station_update(
        station=station, by=organiser, table_number=pod.table_number, revealed_player=seats[0].player_id
    )
    game_services.game_create(pod=pod, by=organiser)
    match = selectors.feature_match(station=station, decks_visible=True)
    snapshot = selectors.event_snapshot(event=duel)
    bracket = tournament_selectors.top_cut_bracket(event=duel)
    with django_assert_num_queries(0):
        shown = payloads.feature_match(match)
        whole = payloads.event_snapshot(snapshot)
        payloads.station_snapshot(seq=snapshot.seq, match=match)
        payloads.bracket_data(bracket)
    assert shown["table"] == pod.table_number and [p["seat"] for p in shown["players"]] == [1, 2]
    assert shown["game"]["number"] == 1 and shown["decklist"]["deck"] == "Dark Magician"
    assert whole["round"]["label"] == "Round 1" and len(whole["tables"]) == 2
    assert whole["stations"] == [{"slug": "stream-1", "name": station.name, "table": pod.table_number}]
