"""The games and decks apps' views and API views run no query of their own: their reads are selectors.

A query written in a view is where an N+1 starts (a related manager in a loop, a lookup per row); in
:mod:`games.selectors` and :mod:`decks.selectors` each read is named, typed and says how many queries it
makes, and the query-count tests pin what a page or an answer costs.  This reads the views' source and
names every line that looks like a query.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

READ_SIDE = ("games/views.py", "games/apis.py", "decks/views.py", "decks/apis.py")

#: What a query looks like in a view: a manager, a queryset method, a related manager of these apps' models, a
#: model handed to ``get_object_or_404`` (a selector's queryset is what it should get) or a row read again.
QUERY = re.compile(
    r"\.objects\."
    r"|\.(?:filter|exclude|select_related|prefetch_related|order_by|in_bulk|values_list)\("
    r"|\.(?:exists|count|first)\(\)"
    r"|\.(?:deck_versions|seats|games|events|registrations)\."
    r"|get_object_or_404\(\s*[A-Z]\w*\s*[,)]"
    r"|\.refresh_from_db\("
)


def queries_in(source: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of each line of ``source`` that runs a query (comments aside)."""
    found = []
    for number, line in enumerate(source.splitlines(), start=1):
        code = line.split("#", 1)[0]
        if QUERY.search(code):
            found.append((number, line.strip()))
    return found


@pytest.mark.parametrize("path", READ_SIDE)
def test_the_view_runs_no_query_of_its_own(path):
    found = queries_in((ROOT / path).read_text(encoding="utf-8"))
    assert not found, "Move these reads into a selector:\n" + "\n".join(f"{path}:{n}: {line}" for n, line in found)


@pytest.mark.parametrize(
    "line",
    [
        "    game = Game.objects.get(pk=1)",
        "rows = registration.deck_versions.select_related('ruling')",
        "seats = list(pod.seats.all())",
        "games = pod.games.all()",
        "entries = game.events.all()",
        "registrations = event.registrations.all()",
        "if PodResult.objects.filter(pod=pod).exists():",
        "names = Player.objects.in_bulk(ids)",
        "qs = qs.exclude(type='void')",
        "latest = versions.first()",
        "total = versions.count()",
        "ids = qs.values_list('pk', flat=True)",
        "qs = qs.prefetch_related('seats')",
        "qs = qs.order_by('-number')",
        "event = get_object_or_404(Event, pk=event_id)",
        "game.refresh_from_db()",
    ],
)
def test_a_query_is_found(line):
    assert queries_in(line) == [(1, line.strip())]


@pytest.mark.parametrize(
    "line",
    [
        "game = get_object_or_404(selectors.game_queryset(), pk=game_id)",
        "seats = selectors.table_seats(pod=pod)",
        "# pod.seats.all() would run a query: the selector does",
        "state = game.state",
    ],
)
def test_a_selector_call_is_not_a_query(line):
    assert queries_in(line) == []
