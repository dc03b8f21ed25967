"""One doorway: every page and API view loads what its URL names and asks the policy through
:func:`core.doorway.enter` (or :func:`~core.doorway.admit`), so a refusal has one text per action, the policy's.

The scan reads the front's source (each app's views and API views): none raises a 404 or a 403 of its own, looks an
object up with ``get_object_or_404``, or writes a refusal sentence (they live in :mod:`tournaments.policy`).  The
tests below ask pages and API views for the same action and read the same sentence from both.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.factories import EventFactory

ROOT = Path(__file__).resolve().parent.parent

FRONT = ("accounts", "decks", "floor", "games", "leagues", "live", "notifications", "tournaments")

#: What a guard of its own would raise or call.
REFUSALS = {"Http404", "PermissionDenied", "NotFound", "NotAuthenticated"}
LOOKUPS = {"get_object_or_404", "get_list_or_404"}


def _front_modules() -> list[Path]:
    found = []
    for app in FRONT:
        for name in ("views", "apis"):
            found += [ROOT / app / f"{name}.py"] if (ROOT / app / f"{name}.py").exists() else []
            found += sorted((ROOT / app / name).glob("*.py")) if (ROOT / app / name).is_dir() else []
    return found


def _guards(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    aliases = {}  # local name -> the name imported
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                aliases[alias.asname or alias.name] = alias.name
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if aliases.get(name, name) in REFUSALS:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} raises {name}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in LOOKUPS:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} calls {node.func.id}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("Only the "):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} writes a refusal: {node.value!r}")
    return found


def test_the_scan_reads_every_apps_front():
    modules = {str(p.relative_to(ROOT)) for p in _front_modules()}
    assert {"games/views.py", "decks/apis.py", "leagues/views.py", "live/apis.py", "accounts/views.py"} <= modules
    assert {"tournaments/views/rounds.py", "tournaments/apis/results.py"} <= modules


@pytest.mark.parametrize("path", _front_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_or_api_view_guards_by_itself(path):
    assert _guards(path) == []


def test_the_scan_finds_a_guard_of_its_own(tmp_path):
    module = tmp_path / "views.py"
    module.write_text(
        "from django.core.exceptions import PermissionDenied as Refused\n"
        "from django.shortcuts import get_object_or_404\n"
        "def page(request, pk):\n"
        "    event = get_object_or_404(Event, pk=pk)\n"
        "    if not can(request.user, event):\n"
        '        raise Refused("Only the event\'s staff may.")\n'
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = _guards(module)
    finally:
        ROOT = saved
    assert [line.split(" ", 1)[1] for line in found] == [
        "calls get_object_or_404",
        "raises Refused",
        'writes a refusal: "Only the event\'s staff may."',
    ]


# --- the same action, refused by a page and by the API, in one sentence ------------------------------------

STAFF_REFUSAL = "Only the event's organisers may change its staff."
DECKS_REFUSAL = "Only the event's organisers may manage its decks."


def _page_says(response) -> str:
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("page", "api", "sentence"),
    [
        ("/dashboard/events/{}/staff/", "/api/v1/events/{}/staff/", STAFF_REFUSAL),
        ("/dashboard/events/{}/decks/recheck/", "/api/v1/events/{}/decks/recheck/", DECKS_REFUSAL),
    ],
)
def test_a_page_and_the_api_refuse_the_same_action_with_the_policys_one_sentence(
    client, outsider, outsider_api, organiser, page, api, sentence
):
    event = EventFactory(organiser=organiser)
    client.force_login(outsider)
    method = "post" if page.endswith("recheck/") else "get"
    shown = getattr(client, method)(page.format(event.pk))
    answered = getattr(outsider_api, method)(api.format(event.pk))
    assert shown.status_code == answered.status_code == 403
    assert sentence.replace("'", "&#x27;") in _page_says(shown)
    assert answered.json()["error"] == {"code": "permission_denied", "message": sentence}


@pytest.mark.django_db
def test_a_missing_event_is_named_alike_by_pages_and_the_api(client, organiser, api):
    client.force_login(organiser)
    assert client.get("/dashboard/events/999999/").status_code == 404
    answered = api.get("/api/v1/events/999999/staff/")
    assert answered.status_code == 404
    assert answered.json()["error"] == {"code": "not_found", "message": "Event 999999 does not exist."}
