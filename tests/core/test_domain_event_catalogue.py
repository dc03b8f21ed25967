"""The catalogue of domain events (core.domain_actions): every action a service records is in it, every action
in it is recorded, the services it names exist, and docs/domain-events.md is the page it writes."""

from __future__ import annotations

import re
from pathlib import Path

from core import events, events_doc
from core.domain_actions import BY_NAME, DomainAction

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


def test_the_catalogue_lists_every_action_a_service_records():
    recorded, catalogued = _recorded_actions(), set(BY_NAME)
    assert len(recorded) > 30
    assert recorded - catalogued == set(), "add these to core/domain_actions.py"
    assert catalogued - recorded == set(), "no service records these any more"


def test_the_services_the_catalogue_says_record_an_action_exist():
    defined = {name for path in SOURCES for name in re.findall(r"^def (\w+)\(", path.read_text(), re.MULTILINE)}
    for action in DomainAction:
        named = re.findall(r"`([a-z_]+)`", action.about.recorded_by)
        assert named, f"{action}: name the service that records it"
        assert set(named) <= defined, f"{action}: no service {sorted(set(named) - defined)}"


def test_the_page_is_the_one_the_catalogue_writes():
    for action in DomainAction:
        cells = (action.about.recorded_by, action.about.data, action.about.readers)
        assert not any("|" in cell or "\n" in cell for cell in cells), f"{action}: one line of a table's row"
    assert DOC.read_text(encoding="utf-8") == events_doc.markdown(), (
        "docs/domain-events.md differs from core/domain_actions.py: run DEBUG=true python -m core.events_doc"
    )


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
