"""The floor's pages: the judges' queue (claim, resolve with a refusal written at its call), a player's button on
their panel, the deck-check page, and the penalty form a call or a check links to, filled in."""

from __future__ import annotations

import pytest

from floor import services
from floor.models import DeckCheck, JudgeCall

pytestmark = pytest.mark.django_db


def judge_url(event, tail: str = "") -> str:
    return f"/dashboard/events/{event.pk}/judge/{tail}"


def test_the_judges_page_lists_the_queue_and_refuses_other_staff(client, floor_event, crew):
    services.judge_call_open(event=floor_event, by=crew["pat"], reason="Missed trigger")
    client.force_login(crew["sam"])
    assert client.get(judge_url(floor_event)).status_code == 403
    client.force_login(crew["jo"])
    page = client.get(judge_url(floor_event)).content.decode()
    assert "Table 1" in page and "Missed trigger" in page and "Waiting for a judge" in page
    assert "judge-calls/stream/" in page and "Your tables" in page
    fragment = client.get(judge_url(floor_event, "?fragment=1")).content.decode()
    assert "Missed trigger" in fragment and "<h1" not in fragment


def test_a_judge_claims_and_a_resolve_without_a_note_is_a_400_at_its_call(client, floor_event, crew):
    call = services.judge_call_open(event=floor_event, by=crew["pat"])
    client.force_login(crew["jo"])
    claimed = client.post(judge_url(floor_event, f"calls/{call.pk}/claim/"))
    assert claimed.status_code == 302 and JudgeCall.objects.get().state == "claimed"
    refused = client.post(judge_url(floor_event, f"calls/{call.pk}/resolve/"), {"note": "", "minutes": "2"})
    assert refused.status_code == 400 and "Say how the call was resolved." in refused.content.decode()
    bad = client.post(judge_url(floor_event, f"calls/{call.pk}/resolve/"), {"note": "Ok", "minutes": "90"})
    assert bad.status_code == 400 and "Extra minutes" in bad.content.decode()
    client.force_login(crew["jen"])
    taken = client.post(judge_url(floor_event, f"calls/{call.pk}/resolve/"), {"note": "Mine"})
    assert taken.status_code == 400 and "jo has claimed this call." in taken.content.decode()


def test_a_player_sees_the_button_on_their_panel_and_its_state_after_calling(client, floor_event, crew):
    client.force_login(crew["pat"])
    page = client.get(f"/events/{floor_event.pk}/").content.decode()
    assert "Call a judge" in page
    box = client.post(f"/events/{floor_event.pk}/judge-call/call/", HTTP_HX_REQUEST="true")
    assert box.status_code == 200 and "Waiting for a judge" in box.content.decode()
    again = client.post(f"/events/{floor_event.pk}/judge-call/call/", HTTP_HX_REQUEST="true")
    assert again.status_code == 422 and "already called a judge" in again.content.decode()
    services.judge_call_claim(call=JudgeCall.objects.get(), by=crew["jo"])
    assert "A judge is coming" in client.get(f"/events/{floor_event.pk}/").content.decode()


def test_the_penalty_link_of_a_call_fills_in_the_player_and_the_round(client, floor_event, crew):
    call = services.judge_call_open(event=floor_event, by=crew["pat"])
    client.force_login(crew["jo"])
    page = client.get(judge_url(floor_event)).content.decode()
    registration = floor_event.registrations.get(player__user=crew["pat"])
    link = f"/dashboard/events/{floor_event.pk}/penalties/?round=1&amp;infraction=&amp;registration={registration.pk}"
    assert link in page and call.pk
    form = client.get(link.replace("&amp;", "&")).content.decode()
    assert f'<option value="{registration.pk}" selected>' in form


def test_the_deck_check_page_draws_tables_and_refuses_a_bad_seed(client, floor_event, crew):
    client.force_login(crew["jo"])
    url = f"/dashboard/events/{floor_event.pk}/deck-checks/"
    bad = client.post(url, {"how": "random", "count": "1", "seed": "abc"})
    assert bad.status_code == 400 and "A seed is a whole number" in bad.content.decode()
    drawn = client.post(url, {"how": "random", "count": "2", "seed": "42"})
    assert drawn.status_code == 302 and DeckCheck.objects.count() == 2
    page = client.get(url).content.decode()
    assert "Drawn at random, seed 42" in page and "Export CSV" in page
    check = DeckCheck.objects.first()
    recorded = client.post(f"{url}{check.pk}/finish/", {"outcome": "ok", "minutes": "3"})
    assert recorded.status_code == 302 and DeckCheck.objects.get(pk=check.pk).outcome == "ok"


def test_the_audit_trail_shows_the_floors_changes_in_words_and_as_a_kind(client, floor_event, crew):
    call = services.judge_call_open(event=floor_event, by=crew["pat"])
    services.judge_call_resolve(call=call, by=crew["jo"], note="Explained.", minutes=2)
    services.deck_checks_pick(event=floor_event, by=crew["jo"], count=1, seed=8)
    services.judge_assign(event=floor_event, by=crew["jo"], judge="jen", first_table=1, last_table=2)
    client.force_login(crew["jo"])
    page = client.get(f"/dashboard/events/{floor_event.pk}/audit/?kind=floor").content.decode()
    for said in ("Judge called", "Judge call resolved", "Tables picked for deck checks", "draw seed: 8",
                 "Judge assigned to tables"):  # fmt: skip
        assert said in page
    assert "Round paired" not in page
