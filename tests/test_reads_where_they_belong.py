"""Four reads every app needs are written once, in the selectors of the app that owns the data: the latest round,
a table (by its event, round number and table number) and the standings in their order in
:mod:`tournaments.selectors`, the newest deck version in :mod:`decks.selectors`.  Written again elsewhere, each
copy drifts on its own (a tiebreak left out of an order, a bye taken for a table); this reads the apps' source
and names every query that writes one of them out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "core", "decks", "floor", "games", "leagues", "live", "tournaments")
#: Where each read is written, once.
HOMES = ("tournaments/selectors/__init__.py", "decks/selectors.py")

#: The models and related managers a query chain may start from, by what they hold.
ROUNDS = {"Round", "rounds"}
DECKS = {"DeckVersion", "deck_versions"}
STANDINGS = {"Standing"}  # (``standings`` is a season's too: its own, in the leagues app)
TABLES = {"Pod", "pods", "Seat", "seats"}
ROUND_NUMBER = {"round__number", "pod__round__number"}
TABLE_NUMBER = {"table_number", "pod__table_number"}


def _root(node: ast.AST) -> str | None:
    """The model (``Round`` of ``Round.objects``) or related manager (``rounds`` of ``event.rounds``) a query chain
    starts from."""
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Attribute):
            if node.attr == "objects" and isinstance(node.value, ast.Name):
                return node.value.id
            if node.attr in {"rounds", "deck_versions", "pods", "seats"}:
                return node.attr
            node = node.value
        else:
            return None


def _strings(call: ast.Call) -> list[str]:
    return [arg.value for arg in call.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]


def reads_written_out(source: str) -> list[tuple[int, str]]:
    """``(line, which read)`` of each query in ``source`` that writes out one of the four reads."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        root = _root(node.func.value)
        method = node.func.attr
        if method == "order_by" and "-number" in _strings(node) and root in ROUNDS:
            found.append((node.lineno, "the latest round"))
        elif method == "order_by" and "-number" in _strings(node) and root in DECKS:
            found.append((node.lineno, "the newest deck version"))
        elif method == "order_by" and (node.args or node.keywords) and root in STANDINGS:
            found.append((node.lineno, "the standings order"))
        elif method in {"filter", "get", "exclude"} and root in TABLES:
            keys = {keyword.arg for keyword in node.keywords}
            if keys & ROUND_NUMBER and keys & TABLE_NUMBER:
                found.append((node.lineno, "a table"))
    return found


def _sources() -> list[str]:
    paths = (p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts)
    return sorted(str(p.relative_to(ROOT)) for p in paths if str(p.relative_to(ROOT)) not in HOMES)


@pytest.mark.parametrize("path", _sources())
def test_the_app_reads_the_latest_round_a_table_the_standings_and_the_newest_deck_through_their_selectors(path):
    found = reads_written_out((ROOT / path).read_text(encoding="utf-8"))
    assert not found, "Read these through tournaments.selectors or decks.selectors:\n" + "\n".join(
        f"{path}:{line}: {read}" for line, read in found
    )


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("round_ = event.rounds.order_by('-number').first()", "the latest round"),
        ("n = Round.objects.filter(event_id=1).order_by('-number').values_list('number', flat=True).first()",
         "the latest round"),
        ("v = DeckVersion.objects.filter(registration=r).order_by('-number').values('pk')[:1]",
         "the newest deck version"),
        ("rows = Standing.objects.filter(event_id=1).select_related('player').order_by('rank', 'player_id')[:8]",
         "the standings order"),
        ("seats = Seat.objects.filter(round__event_id=1, round__number=2, pod__table_number=3)", "a table"),
        ("pod = Pod.objects.select_related('round').filter(round__event=e, round__number=2, table_number=3)",
         "a table"),
    ],
)  # fmt: skip
def test_the_check_finds_each_read_written_out(line, read):
    assert [found for _, found in reads_written_out(line)] == [read]


@pytest.mark.parametrize(
    "line",
    [
        "games = pod.games.order_by('number')",
        "rows = season.standings.order_by()",
        "rows = SeasonStanding.objects.filter(season=s).order_by('rank', 'player_id')",
        "pod = Pod.objects.select_for_update().filter(round=round_, table_number=3).first()",
    ],
)
def test_the_check_leaves_other_queries_alone(line):
    assert reads_written_out(line) == []
