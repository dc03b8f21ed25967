"""The cut line and the structure card on the pages: the public event page, the standings, the dashboard, the
player's own page, and the planned cut on the settings page."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event, report_all
from tournaments import services

pytestmark = pytest.mark.django_db


def _half_played(organiser, players: int = 12, rounds: int = 4, **kwargs):
    event = make_event(organiser, players, rounds=rounds, **kwargs)
    for _ in range(2):
        services.round_start(event=event, by=organiser, allow_rematches=True)
        report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
    return event


def test_the_public_event_page_shows_the_structure_card_and_the_lines(client, organiser) -> None:
    event = _half_played(organiser)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Event structure" in page and "Rounds and cut by attendance" in page
    assert "Magic Tournament Rules, Appendix E" in page
    assert "this event" in page  # the row of 12 players is marked
    assert "A win 3 points, a draw 1, a loss 0" in page
    assert "1v8, 4v5, 2v7, 3v6" in page
    assert "What makes the cut" in page and "Top 4 cut (recommended for the players entered)" in page
    assert "Projected line" in page and "a projection" in page


def test_a_pod_event_describes_its_placement_points_and_how_its_cut_pods_are_seated(client, organiser) -> None:
    event = make_event(organiser, 20, rounds=3, format="format3-trinity")
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "A pod win 3 points, 2nd place 1" in page
    assert "semi-final pods filled snake-wise" in page
    assert "Opponents&#x27; average points" in page


def test_the_standings_page_shows_the_lines_and_says_when_there_is_no_cut(client, organiser) -> None:
    event = _half_played(organiser)
    page = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "Safe line" in page and "Projected line" in page
    small = make_event(organiser, 6, rounds=3)
    assert (
        "No top cut is recommended for the players entered"
        in client.get(f"/events/{small.pk}/standings/").content.decode()
    )


def test_the_dashboard_counts_the_players_by_what_they_need(client, organiser) -> None:
    event = _half_played(organiser)
    client.force_login(organiser)
    page = client.get(f"/dashboard/events/{event.pk}/").content.decode()
    assert "What makes the cut" in page and "Depend on other results" in page and "Out of reach" in page


def test_the_player_sees_what_they_need_with_the_caveat(client, organiser, django_user_model) -> None:
    user = django_user_model.objects.create_user("ash", password="pw-ash-123456")
    event = make_event(organiser, 11, rounds=4)
    RegistrationFactory(event=event, player=PlayerFactory(user=user, display_name="Ash"))
    for _ in range(2):
        services.round_start(event=event, by=organiser, allow_rematches=True)
        report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
    client.force_login(user)
    for path in ("/me/", f"/events/{event.pk}/"):
        page = client.get(path).content.decode()
        assert "cut-need" in page, path
        assert "Top 4 cut" in page and "under any pairings" in page, path


def test_the_organiser_plans_the_cut_on_the_settings_page(client, organiser) -> None:
    event = make_event(organiser, 12, rounds=4)
    client.force_login(organiser)
    form = client.get(f"/dashboard/events/{event.pk}/settings/")
    assert "Planned top cut" in form.content.decode()
    data = {"name": event.name, "planned_rounds": 4, "date": "2026-12-01", "tiebreakers": "classic",
            "time_zone": event.time_zone, "paper": event.paper, "pod_leftovers": "tables", "planned_cut_size": "5",
            "magic_floor": "0.33"}  # fmt: skip
    refused = client.post(f"/dashboard/events/{event.pk}/settings/", data)
    assert refused.status_code == 400 and "A top cut of 5 is not possible" in refused.content.decode()
    saved = client.post(f"/dashboard/events/{event.pk}/settings/", data | {"planned_cut_size": "8"})
    assert saved.status_code == 302
    event.refresh_from_db()
    assert event.planned_cut_size == 8
    assert "Top 8 cut (planned by the organiser)" in client.get(f"/events/{event.pk}/").content.decode()
