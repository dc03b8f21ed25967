"""The admin reads what only the services may change, and refuses every change of it, even from a superuser."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import AuditEntry, Event, Pod, PodResult, Round, Seat, Standing

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(organiser):
    """Four players, round 1 paired and reported, standings stored."""
    event = make_event(organiser, 4, rounds=2)
    services.round_start(event=event, by=organiser, seed=1)
    report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
    return event


@pytest.fixture
def staff_client(client, django_user_model):
    boss = django_user_model.objects.create_superuser(username="boss", password="pw", email="boss@example.org")
    client.force_login(boss)
    return client


def url(name: str, obj) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_{name}", args=[obj.pk])


def records(event):
    seat = Seat.objects.filter(round__event=event, placement=1).first()
    return {
        "seat": seat,
        "result": PodResult.objects.filter(pod__round__event=event).first(),
        "standing": Standing.objects.filter(event=event).first(),
        "round": Round.objects.get(event=event),
        "pod": seat.pod,
        "audit": AuditEntry.objects.filter(event=event).first(),
        "event": event,
        "registration": event.registrations.first(),
    }


def test_every_model_the_services_own_is_read_only_in_the_admin():
    from decks.models import DeckVersion
    from games.models import Game, GameEvent
    from live.models import OverlayToken, RoundTimer, Station
    from tournaments.models import ByeAssignment, Penalty, Registration

    owned = [Event, Registration, ByeAssignment, Round, Pod, Seat, PodResult, Standing, Penalty, AuditEntry,
             DeckVersion, Game, GameEvent, Station, RoundTimer, OverlayToken]  # fmt: skip
    for model in owned:
        model_admin = admin.site._registry[model]
        assert model_admin.has_add_permission(None) is False, model
        assert model_admin.has_change_permission(None) is False, model
        assert model_admin.has_delete_permission(None) is False, model


def test_site_staff_see_the_change_pages_read_only_with_a_note_saying_where_changes_are_made(staff_client, played):
    for what, obj in records(played).items():
        page = staff_client.get(url("change", obj))
        assert page.status_code == 200, what
        html = page.content.decode()
        assert "Read only." in html, what
        assert "dashboard or through the API" in html, what
        assert 'name="_save"' not in html, what  # no save button
        assert "deletelink" not in html, what


def test_a_posted_change_to_a_seat_is_refused_and_nothing_changes(staff_client, played):
    seat = records(played)["seat"]
    stored = (seat.placement, seat.points)
    answer = staff_client.post(
        url("change", seat),
        {"pod": seat.pod_id, "round": seat.round_id, "player": seat.player_id, "seat_order": seat.seat_order,
         "placement": 2, "points": 0, "reasons": "[]"},
    )  # fmt: skip
    assert answer.status_code == 403
    seat.refresh_from_db()
    assert (seat.placement, seat.points) == stored
    assert not AuditEntry.objects.filter(event=played, action__startswith="result.corrected").exists()


def test_a_posted_change_to_a_stored_standing_is_refused_and_the_standings_stay_current(staff_client, played):
    standing = records(played)["standing"]
    answer = staff_client.post(url("change", standing), {"rank": 4, "points": 99})
    assert answer.status_code == 403
    standing.refresh_from_db()
    assert standing.points != 99
    played.refresh_from_db()
    assert played.standings_current


def test_deleting_is_refused_and_nothing_is_deleted(staff_client, played):
    for what, obj in records(played).items():
        assert staff_client.get(url("delete", obj)).status_code == 403, what
        assert staff_client.post(url("delete", obj), {"post": "yes"}).status_code == 403, what
        assert type(obj).objects.filter(pk=obj.pk).exists(), what


def test_the_lists_have_no_add_button_and_no_bulk_delete_action(staff_client, played):
    for model in (Seat, PodResult, Standing, Round, Pod, AuditEntry, Event):
        lists_read_only(staff_client, model)


def lists_read_only(staff_client, model) -> None:
    opts = model._meta
    page = staff_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "delete_selected" not in html
    assert reverse(f"admin:{opts.app_label}_{opts.model_name}_add") not in html
    assert staff_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add")).status_code == 403
    before = model.objects.count()
    bulk = staff_client.post(
        reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
        {
            "action": "delete_selected",
            "_selected_action": list(model.objects.values_list("pk", flat=True)),
            "post": "yes",
        },
    )
    assert bulk.status_code in (200, 302)  # the changelist says no action was taken
    assert model.objects.count() == before > 0
