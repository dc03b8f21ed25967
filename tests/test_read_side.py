"""Views and API views run no query of their own: their reads are selectors.

A query written in a view is where an N+1 starts (a related manager in a loop, a lookup per row); in
:mod:`games.selectors`, :mod:`decks.selectors`, :mod:`tournaments.selectors` (and its
:mod:`~tournaments.selectors.people`) and :mod:`accounts.selectors` each read is named, typed and says how many
queries it makes, and the query-count tests pin what a page or an answer costs.  This reads the views' source and
names every line that looks like a query; a package of views (``tournaments/views/``) is read module by module.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

READ_SIDE = (
    "games/views.py",
    "games/apis.py",
    "decks/views.py",
    "decks/apis.py",
    "tournaments/views/",
    "tournaments/apis/",
    "accounts/views.py",
    "accounts/apis.py",
    "leagues/views.py",
    "leagues/apis.py",
    "live/views.py",
    "live/apis.py",
    "live/streams.py",
    "notifications/views.py",
    "notifications/apis.py",
)

#: The related managers of the apps' models (``event.rounds``, ``pod.seats``, ``report.responses``, ...).
RELATED = (
    "deck_versions|seats|games|events|registrations|rounds|pods|responses|bye_assignments|reports|standings"
    "|staff|penalties|audit"
)

#: What a query looks like in a view: a manager, a queryset method, a related manager of the apps' models, a model
#: or a related manager handed to ``get_object_or_404`` (a selector's queryset is what it should get), a row read
#: again, or related rows loaded onto rows already read.
QUERY = re.compile(
    r"\.objects\."
    r"|\.(?:filter|exclude|select_related|prefetch_related|order_by|in_bulk|values_list|annotate|aggregate|distinct)\("
    r"|\.(?:exists|count|first|last)\(\)"
    r"|\.get\(\s*\w+\s*="
    rf"|\.(?:{RELATED})\."
    rf"|get_object_or_404\(\s*(?:[A-Z]\w*|\w+\.(?:{RELATED}))\s*[,)]"
    r"|\.refresh_from_db\("
    r"|\bprefetch_related_objects\("
)


def queries_in(source: str, path: str = "") -> list[tuple[int, str]]:
    """``(line number, line)`` of each line of ``source`` that runs a query (comments aside)."""
    found = []
    for number, line in enumerate(source.splitlines(), start=1):
        code = line.split("#", 1)[0]
        if QUERY.search(code):
            found.append((number, line.strip()))
    return found


def read_side_files(entries=READ_SIDE) -> list[str]:
    """The files to read: each module named, and every module of each package named (a path ending in ``/``)."""
    files = []
    for entry in entries:
        if entry.endswith("/"):
            modules = sorted((ROOT / entry).glob("*.py"))
            assert modules, f"{entry} holds no module"
            files += [str(module.relative_to(ROOT)) for module in modules]
        else:
            files.append(entry)
    return files


@pytest.mark.parametrize("path", read_side_files())
def test_the_view_runs_no_query_of_its_own(path):
    found = queries_in((ROOT / path).read_text(encoding="utf-8"), path)
    assert not found, "Move these reads into a selector:\n" + "\n".join(f"{path}:{n}: {line}" for n, line in found)


def test_a_package_of_views_is_read_module_by_module():
    files = read_side_files(("tournaments/views/", "games/views.py"))
    assert {"tournaments/views/__init__.py", "tournaments/views/rounds.py", "games/views.py"} <= set(files)
    assert not [f for f in files if not f.endswith(".py")]


@pytest.mark.parametrize(
    "line",
    [
        "    game = Game.objects.get(pk=1)",
        "rows = registration.deck_versions.select_related('ruling')",
        "seats = list(pod.seats.all())",
        "games = pod.games.all()",
        "entries = game.events.all()",
        "registrations = event.registrations.all()",
        "numbers = event.rounds.order_by('number')",
        "open_ = round_.pods.filter(is_bye=False)",
        "for response in report.responses.all():",
        "byes = registration.bye_assignments.all()",
        "round_ = get_object_or_404(event.rounds, number=number)",
        "if PodResult.objects.filter(pod=pod).exists():",
        "names = Player.objects.in_bulk(ids)",
        "qs = qs.exclude(type='void')",
        "latest = versions.first()",
        "latest = versions.last()",
        "total = versions.count()",
        "ids = qs.values_list('pk', flat=True)",
        "qs = qs.prefetch_related('seats')",
        "qs = qs.order_by('-number')",
        "qs = qs.annotate(n=Count('seats'))",
        "qs = qs.distinct()",
        "penalty = selectors.event_penalties(event=event).get(pk=penalty_id)",
        "event = get_object_or_404(Event, pk=event_id)",
        "game.refresh_from_db()",
        "prefetch_related_objects(registrations, 'bye_assignments')",
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
        "games=form.games(),",
        '"games": _game_list(report.games),',
        "return None if row.games is None else list(row.games)",
        'number = request.POST.get("round", "")',
        "won = games.get(str(player_id), games.get(player_id, (0, 0, 0)))",
        "from django.db.models import prefetch_related_objects",
        "standings = selectors.event_standings(event=event, limit=8)",
    ],
)
def test_a_selector_call_is_not_a_query(line):
    assert queries_in(line) == []
