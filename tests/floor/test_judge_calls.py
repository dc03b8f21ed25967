"""Judge calls: a player calls to their own table, a judge claims and resolves with a note and extra time; the
refusals carry their codes; every change is in the audit trail and goes live to the staff and the table only."""

from __future__ import annotations

import pytest

from core.exceptions import ApplicationError, Conflict, PermissionDenied
from floor import services
from floor.models import JudgeCall
from live.models import LiveEvent, TableTimeExtension
from tests.support.api_checks import Api
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

LIST = "/events/{event_id}/judge-calls/"


@pytest.fixture
def api(wsgi_in_test_transaction):
    return Api


def code(answer: dict) -> str:
    return answer["error"]["code"]


def test_a_player_calls_a_judge_to_their_table_and_a_judge_claims_and_resolves_it_with_extra_time(floor_event, crew):
    call = services.judge_call_open(event=floor_event, by=crew["pat"], reason="Rules question")
    assert (call.state, call.round_number, call.table_number) == ("open", 1, 1)
    assert call.called_by_player.user == crew["pat"] and call.called_at is not None
    claimed = services.judge_call_claim(call=call, by=crew["jo"])
    assert claimed.state == "claimed" and claimed.claimed_by == crew["jo"] and claimed.claimed_at >= call.called_at
    resolved = services.judge_call_resolve(call=claimed, by=crew["jo"], note="Explained the trigger.", minutes=3)
    assert resolved.state == "resolved" and resolved.resolved_at >= resolved.claimed_at
    extension = TableTimeExtension.objects.get()
    assert resolved.extension == extension and extension.seconds == 180 and extension.pod_id == call.pod_id
    actions = list(AuditEntry.objects.filter(event=floor_event).values_list("action", flat=True))
    for action in ("judge_call.opened", "judge_call.claimed", "judge_call.resolved", "table.time_extended"):
        assert action in actions


def test_a_judge_calls_live_event_is_private_and_names_the_tables_players(floor_event, crew):
    call = services.judge_call_open(event=floor_event, by=crew["kim"])
    live = LiveEvent.objects.get(kind="judge_call.changed")
    seated = sorted(call.pod.seats.values_list("player_id", flat=True))
    assert live.private and live.stations == [] and sorted(live.players) == seated
    assert live.data == {"call": call.pk, "round": 1, "table": 1, "state": "open", "players": live.players}


def test_a_table_has_one_call_at_a_time_and_another_judges_claim_is_refused(floor_event, crew):
    call = services.judge_call_open(event=floor_event, by=crew["pat"])
    with pytest.raises(Conflict) as second:
        services.judge_call_open(event=floor_event, by=crew["kim"])
    assert second.value.code == "call_open" and second.value.extra == {"call": call.pk}
    services.judge_call_claim(call=call, by=crew["jo"])
    for attempt in (services.judge_call_claim, lambda **kw: services.judge_call_resolve(note="Mine.", **kw)):
        with pytest.raises(Conflict) as refused:
            attempt(call=call, by=crew["jen"])
        assert refused.value.code == "call_claimed" and refused.value.extra == {"claimed_by": "jo"}
    services.judge_call_resolve(call=call, by=crew["jo"], note="Done.")
    with pytest.raises(Conflict) as closed:
        services.judge_call_claim(call=call, by=crew["jo"])
    assert closed.value.code == "call_closed"
    assert services.judge_call_open(event=floor_event, by=crew["kim"]).state == "open"  # a new call once closed


def test_a_player_calls_only_to_their_own_table_and_only_while_seated(floor_event, crew, outsider):
    with pytest.raises(PermissionDenied) as other_table:
        services.judge_call_open(event=floor_event, by=crew["eve"], table=1)
    assert other_table.value.code == "not_at_table"
    with pytest.raises(PermissionDenied) as not_playing:
        services.judge_call_open(event=floor_event, by=outsider)
    assert not_playing.value.code == "not_at_table"
    with pytest.raises(PermissionDenied):
        services.judge_call_claim(call=services.judge_call_open(event=floor_event, by=crew["eve"]), by=crew["eve"])


def test_staff_open_a_call_for_any_table_and_name_it(floor_event, crew):
    assert services.judge_call_open(event=floor_event, by=crew["jo"], table=3).table_number == 3
    with pytest.raises(ApplicationError) as unnamed:
        services.judge_call_open(event=floor_event, by=crew["jo"])
    assert unnamed.value.field == "table"
    with pytest.raises(ApplicationError) as missing:
        services.judge_call_open(event=floor_event, by=crew["jo"], table=99)
    assert missing.value.code == "table_not_found"


def test_the_caller_cancels_and_resolving_needs_a_note(floor_event, crew):
    call = services.judge_call_open(event=floor_event, by=crew["pat"])
    with pytest.raises(ApplicationError) as no_note:
        services.judge_call_resolve(call=call, by=crew["jo"], note="  ")
    assert no_note.value.field == "note"
    assert services.judge_call_cancel(call=call, by=crew["kim"]).state == "cancelled"  # kim sits at the table too
    assert JudgeCall.objects.get().resolved_at is not None


# --- the API ------------------------------------------------------------------------------------------------------


def test_the_api_walks_a_call_from_the_player_to_the_judge(api, floor_event, crew):
    opened = api(crew["pat"])("post", LIST, 201, {"reason": "Ruling"}, event_id=floor_event.pk)
    assert (opened["state"], opened["table"], opened["note"]) == ("open", 1, None)
    assert {p["id"] for p in opened["players"]} == set(
        JudgeCall.objects.get().pod.seats.values_list("player_id", flat=True)
    )
    again = api(crew["kim"])("post", LIST, 409, {}, event_id=floor_event.pk)
    assert code(again) == "call_open" and again["error"]["call"] == opened["id"]
    path = LIST + "{call_id}/"
    claimed = api(crew["jo"])("post", path + "claim/", 200, event_id=floor_event.pk, call_id=opened["id"])
    assert (claimed["state"], claimed["claimed_by"]) == ("claimed", "jo")
    taken = api(crew["jen"])("post", path + "claim/", 409, event_id=floor_event.pk, call_id=opened["id"])
    assert code(taken) == "call_claimed"
    done = api(crew["jo"])("post", path + "resolve/", 200, {"note": "Fine.", "minutes": 2}, event_id=floor_event.pk,
                           call_id=opened["id"])  # fmt: skip
    assert (done["state"], done["note"], done["extension_minutes"]) == ("resolved", "Fine.", 2)
    mine = api(crew["pat"])("get", LIST, 200, event_id=floor_event.pk)
    assert [c["state"] for c in mine["results"]] == ["resolved"] and mine["results"][0]["note"] is None
    assert api(crew["eve"])("get", LIST, 200, event_id=floor_event.pk)["results"] == []
    queue = api(crew["jo"])("get", LIST, 200, query={"state": ["open", "claimed"]}, event_id=floor_event.pk)
    assert queue["results"] == []


def test_bad_input_is_a_400_naming_its_fields(api, floor_event, crew):
    bad = api(crew["jo"])("post", LIST, 400, {"table": 0, "reason": "x" * 201}, event_id=floor_event.pk)
    assert code(bad) == "invalid" and set(bad["error"]["fields"]) == {"table", "reason"}
    call = services.judge_call_open(event=floor_event, by=crew["pat"])
    path = LIST + "{call_id}/resolve/"
    bad = api(crew["jo"])("post", path, 400, {"minutes": 61}, event_id=floor_event.pk, call_id=call.pk)
    assert set(bad["error"]["fields"]) == {"note", "minutes"}
    unknown = api(crew["jo"])("get", LIST, 400, query={"state": ["waiting"]}, event_id=floor_event.pk)
    assert set(unknown["error"]["fields"]) == {"state"}
    missing = api(crew["jo"])("post", LIST + "{call_id}/claim/", 404, event_id=floor_event.pk, call_id=call.pk + 99)
    assert code(missing) == "call_not_found"
