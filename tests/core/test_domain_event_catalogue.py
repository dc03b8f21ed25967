"""docs/domain-events.md lists every action a service records, and every subscriber it names exists."""

from __future__ import annotations

import re
from pathlib import Path

from core import events

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "domain-events.md"
SOURCES = [
    *(ROOT / "tournaments" / "services").glob("*.py"),
    ROOT / "decks" / "services.py",
    ROOT / "games" / "services.py",
    ROOT / "accounts" / "services.py",
    *(ROOT / "leagues" / "services").glob("*.py"),
    ROOT / "live" / "services.py",
]


def _recorded_actions() -> set[str]:
    """Every ``entity.verb`` string on a line that passes ``action=`` (both branches of a conditional too)."""
    found = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for call in re.finditer(r"action=([^\n]*)", text):
            found.update(re.findall(r'"([a-z_]+\.[a-z_]+)"', call.group(1)))
    return found


def _documented_actions() -> set[str]:
    rows = [line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([a-z_]+\.[a-z_]+)`", row.split("|")[1])}


def test_the_catalogue_lists_every_action_a_service_records():
    recorded, documented = _recorded_actions(), _documented_actions()
    assert len(recorded) > 30
    assert recorded - documented == set(), "add these to docs/domain-events.md"
    assert documented - recorded == set(), "no service records these any more"


def test_the_subscribers_the_catalogue_names_are_subscribed():
    handlers, readers = events.subscribers("deck.submitted")
    assert "decks.readers.deck_check_request" in readers
    for action in ("result.entered", "result.corrected", "round.repaired", "registration.dropped"):
        handlers, readers = events.subscribers(action)
        assert "tournaments.readers.standings_out_of_date" in handlers
        assert "tournaments.readers.standings_recompute_request" in readers
    assert "tournaments.readers.audit_trail" in events.subscribers("game.entry_recorded")[0]


def test_league_points_and_ratings_are_readers_of_the_stream():
    """Season standings follow the events' standings and the league's changes; ratings follow the results."""
    for action in ("standings.updated", "season.updated", "season.event_added", "season.event_moved"):
        handlers, readers = events.subscribers(action)
        assert any(h.startswith("leagues.readers.") for h in handlers)
        assert any(r.startswith("leagues.readers.season_recompute") for r in readers)
    for action in ("result.entered", "result.settled", "result.confirmed", "result.corrected"):
        assert "leagues.readers.ratings_update_request" in events.subscribers(action)[1]
