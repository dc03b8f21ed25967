"""Staged pairings and undo: a round the staff review before players see it, and a round start taken back."""

from __future__ import annotations

import pytest
from django.test import Client

from core.exceptions import Conflict
from live.models import LiveEvent
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import AuditEntry, Event, Round
from tournaments.services import results

pytestmark = pytest.mark.django_db


@pytest.fixture
def staged(organiser, django_user_model):
    """An event of 8 that stages its pairings; Ash (an account) plays."""
    event = make_event(organiser, 7, rounds=3)
    services.event_update(event=event, by=organiser, stage_pairings=True, player_reports=True)
    ash = django_user_model.objects.create_user(username="ash", password="pw")
    RegistrationFactory(event=event, player=PlayerFactory(user=ash, display_name="Ash"), checked_in=True)
    return event


def _ash_table(event) -> int:
    round_ = event.rounds.order_by("-number").first()
    return round_.seats.select_related("pod").get(player__user__username="ash").pod.table_number


def test_a_staged_round_is_the_staff_s_until_published(staged, organiser, api, client) -> None:
    round_ = services.round_start(event=staged, by=organiser)
    assert not round_.published
    ash = Client()
    ash.force_login(round_.seats.get(player__display_name="Ash").player.user)
    assert "Your opponents" not in ash.get("/me/").text
    assert "Round 1 has not been paired yet." in Client().get(f"/events/{staged.pk}/pairings/").text
    assert client.get(f"/api/v1/events/{staged.pk}/rounds/1/").status_code == 404
    assert client.get(f"/api/v1/events/{staged.pk}/rounds/").json()["count"] == 0
    assert api.get(f"/api/v1/events/{staged.pk}/rounds/1/").json()["published"] is False
    snapshot = Client().get(f"/api/v1/events/{staged.pk}/live/").json()
    assert snapshot["round"] is None
    assert not LiveEvent.objects.filter(event=staged, kind="round.started").exists()
    table = _ash_table(staged)
    ash_id = round_.seats.get(player__display_name="Ash").player_id
    with pytest.raises(Conflict) as hidden:
        results.result_player_report(
            event=staged, round_number=1, table_number=table, placements={ash_id: 1},
            by=round_.seats.get(player_id=ash_id).player.user,
        )  # fmt: skip
    assert hidden.value.code == "round_not_published"

    staff = Client()
    staff.force_login(organiser)
    assert "Round 1 is staged:" in staff.get(f"/dashboard/events/{staged.pk}/").text
    assert staff.post(f"/dashboard/events/{staged.pk}/rounds/1/publish/").status_code == 302
    assert "Your opponents" in ash.get("/me/").text
    assert client.get(f"/api/v1/events/{staged.pk}/rounds/1/").status_code == 200
    assert LiveEvent.objects.filter(event=staged, kind="round.started").count() == 1
    assert AuditEntry.objects.filter(event=staged, action="round.published").exists()
    again = api.post(f"/api/v1/events/{staged.pk}/rounds/1/publish/")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "round_published")


def test_an_event_that_does_not_stage_publishes_every_round_as_it_is_paired(organiser) -> None:
    event = make_event(organiser, 8, rounds=3)
    assert services.round_start(event=event, by=organiser).published


def test_undo_takes_back_the_latest_round_before_any_result(organiser, api) -> None:
    event = make_event(organiser, 7, rounds=3)  # an odd field: round 1 has a bye, scored at once
    services.round_start(event=event, by=organiser)
    response = api.post(f"/api/v1/events/{event.pk}/rounds/1/undo/")
    assert response.status_code == 204
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION and not event.rounds.exists()
    undone = AuditEntry.objects.get(event=event, action="round.undone")
    assert undone.before["tables"]["bye"]

    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    services.round_start(event=event, by=organiser)
    table = event.rounds.get(number=2).pods.filter(is_bye=False).first()
    seats = list(table.seats.order_by("seat_order"))
    services.pod_result_report(
        event=event, round_number=2, table_number=table.table_number,
        placements={seats[0].player_id: 1, seats[1].player_id: 2}, by=organiser,
    )  # fmt: skip
    refused = api.post(f"/api/v1/events/{event.pk}/rounds/2/undo/")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "round_has_results")
    closed = api.post(f"/api/v1/events/{event.pk}/rounds/1/undo/")
    assert (closed.status_code, closed.json()["error"]["code"]) == (409, "round_closed")


def test_undoing_the_cut_s_first_round_ends_the_cut_so_it_can_start_again(organiser) -> None:
    event = make_event(organiser, 8, rounds=2)
    for _ in range(2):
        services.round_start(event=event, by=organiser)
        report_all(event, organiser)
    services.top_cut_start(event=event, by=organiser, size=4)
    services.round_start_undo(event=event, round_number=3, by=organiser)
    event.refresh_from_db()
    assert event.top_cut_size == 0 and not event.rounds.filter(stage=Round.Stage.TOP_CUT).exists()
    again = services.top_cut_start(event=event, by=organiser, size=8)
    assert again.pods.count() == 4


def test_a_staged_round_s_bye_counts_in_the_stored_standings_only_once_published(organiser) -> None:
    """The stored standings (public pages, API, overlays) would give a staged round away by its bye."""
    event = make_event(organiser, 7, rounds=3)
    services.event_update(event=event, by=organiser, stage_pairings=True)
    round_ = services.round_start(event=event, by=organiser)
    bye = round_.seats.get(pod__is_bye=True).player_id
    services.standings_recompute(event_id=event.pk)
    assert not event.standings.filter(points__gt=0).exists()

    services.round_publish(event=event, round_number=1, by=organiser)
    event.refresh_from_db()
    assert event.results_version > event.standings_version  # the publish moved the standings
    services.standings_recompute(event_id=event.pk)
    assert list(event.standings.filter(points__gt=0).values_list("player_id", "byes")) == [(bye, 1)]
