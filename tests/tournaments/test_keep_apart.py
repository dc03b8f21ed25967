"""Keep-apart pairs: the pairing seats them apart whenever it can, with the weight of a rematch."""

from __future__ import annotations

import pytest
from django.test import Client

from core.exceptions import ApplicationError, Conflict
from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import AuditEntry, Registration, Round, Seat

pytestmark = pytest.mark.django_db


def _together(round_: Round, a: int, b: int) -> bool:
    pods = dict(Seat.objects.filter(round=round_, player_id__in=(a, b)).values_list("player_id", "pod_id"))
    return pods[a] == pods[b]


@pytest.mark.parametrize("format", ["deck-masters", "master-trainer"])
def test_kept_apart_players_never_share_a_table_when_the_field_allows_it(organiser, format) -> None:
    event = make_event(organiser, 16, format=format, rounds=3)
    players = list(Registration.objects.filter(event=event).order_by("player_id").values_list("player_id", flat=True))
    pairs = [(players[i], players[i + 1]) for i in range(0, 8, 2)]
    for a, b in pairs:
        services.keep_apart_add(event=event, player_a=a, player_b=b, note="siblings", by=organiser)
    for seed in range(3):  # round 1 at random, three seeds: never together
        round_ = services.round_start(event=event, by=organiser, seed=seed)
        assert not any(_together(round_, a, b) for a, b in pairs)
        assert round_.rematches == 0
        services.round_start_undo(event=event, round_number=1, by=organiser)
    round_ = services.round_start(event=event, by=organiser, seed=1)
    report_all(event, organiser)
    later = services.round_start(event=event, by=organiser, seed=2)
    assert not any(_together(later, a, b) for a, b in pairs)


def test_a_pair_that_cannot_be_kept_apart_is_seated_and_said_on_their_seats(organiser) -> None:
    event = make_event(organiser, 2, rounds=1)
    a, b = Registration.objects.filter(event=event).order_by("player_id").values_list("player_id", flat=True)
    services.keep_apart_add(event=event, player_a=a, player_b=b, by=organiser)
    round_ = services.round_start(event=event, by=organiser)
    assert _together(round_, a, b) and round_.rematches == 0  # not a rematch: they never met
    assert all("keep_apart" in s.reasons and "rematch" not in s.reasons for s in Seat.objects.filter(round=round_))
    page = Client().get(f"/events/{event.pk}/pairings/by-name/?player={a}")
    assert page.status_code == 200


def test_keep_apart_refuses_one_player_twice_a_stranger_and_a_pair_already_kept(organiser, api) -> None:
    event = make_event(organiser, 4, rounds=2)
    a, b, c, _ = Registration.objects.filter(event=event).order_by("player_id").values_list("player_id", flat=True)
    with pytest.raises(ApplicationError):
        services.keep_apart_add(event=event, player_a=a, player_b=a, by=organiser)
    with pytest.raises(ApplicationError):
        services.keep_apart_add(event=event, player_a=a, player_b=999_999, by=organiser)
    url = f"/api/v1/events/{event.pk}/keep-apart/"
    created = api.post(url, {"players": [b, a], "note": "same team"}, format="json")
    assert created.status_code == 201 and [p["id"] for p in created.json()["players"]] == [a, b]
    again = api.post(url, {"players": [a, b]}, format="json")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "keep_apart_exists")
    assert api.post(url, {"players": [a]}, format="json").status_code == 400
    assert Client().get(url).status_code in (401, 403)
    listed = api.get(url).json()["results"]
    assert len(listed) == 1 and listed[0]["note"] == "same team"
    assert api.delete(f"{url}{listed[0]['id']}/").status_code == 204
    assert AuditEntry.objects.filter(event=event, action__startswith="keep_apart.").count() == 2
    services.event_finish(event=event, by=organiser)
    with pytest.raises(Conflict) as finished:
        services.keep_apart_add(event=event, player_a=a, player_b=c, by=organiser)
    assert finished.value.code == "event_finished"


def test_the_dashboard_keeps_two_players_apart(organiser) -> None:
    event = make_event(organiser, 4, rounds=2)
    a, b, *_ = Registration.objects.filter(event=event).order_by("player_id").values_list("player_id", flat=True)
    staff = Client()
    staff.force_login(organiser)
    assert "Keep players apart" in staff.get(f"/dashboard/events/{event.pk}/").text
    response = staff.post(f"/dashboard/events/{event.pk}/keep-apart/", {"player_a": a, "player_b": b, "note": "x"})
    assert response.status_code == 302
    assert "P00" in staff.get(f"/dashboard/events/{event.pk}/keep-apart/").text
    same = staff.post(f"/dashboard/events/{event.pk}/keep-apart/", {"player_a": a, "player_b": a})
    assert same.status_code == 400 and "two different players" in same.text
