"""The catalogue of domain events (core.domain_actions): services record and readers subscribe through its
constants only, every action in it is recorded, the services it names exist, and docs/domain-events.md is the page
it writes."""

from __future__ import annotations

import ast
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
    ROOT / "floor" / "services.py",
]


APPS = (
    "accounts",
    "bench",
    "config",
    "core",
    "decks",
    "demo",
    "floor",
    "games",
    "leagues",
    "live",
    "rules",
    "tournaments",
)
#: Files that still spell names out, each until it is switched to the constants.
NOT_YET: dict[str, str] = {}


def _spelt_out(path: Path) -> list[str]:
    """The strings in ``path`` that are a catalogued name, but for a live event's kind (``add(event_id, kind, ...)``
    in live/readers.py: the overlays' own contract, some of whose kinds share a domain event's name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]
    kinds = {id(call.args[1]) for call in calls if call.func.id == "add" and len(call.args) > 1}
    return [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in BY_NAME and id(node) not in kinds
    ]


def test_no_code_spells_out_a_name_the_catalogue_has_a_constant_for():
    files = [p for app in APPS for p in (ROOT / app).rglob("*.py") if p != ROOT / "core" / "domain_actions.py"]
    spelt = [hit for path in files if str(path.relative_to(ROOT)) not in NOT_YET for hit in _spelt_out(path)]
    assert spelt == [], "use core.domain_actions.DomainAction's constants"


def test_every_action_of_the_catalogue_is_recorded_by_a_service():
    used = {name for path in SOURCES for name in re.findall(r"DomainAction\.([A-Z_]+)", path.read_text())}
    assert used - set(DomainAction.__members__) == set()
    assert set(DomainAction.__members__) - used == set(), "no service records these any more"


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
