"""An event in phases through the services and the API: day 1, the advance, day 2 for those who went on, the cut."""

from __future__ import annotations

import pytest

from core.exceptions import ApplicationError, Conflict
from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import AuditEntry, Registration, Seat, Standing
from tournaments.standings.phases import PhasePlan

pytestmark = pytest.mark.django_db

DAY_ONE = PhasePlan("Day 1", 3, advance_points=6)
DAY_TWO = PhasePlan("Day 2", 2)


def play_rounds(event, organiser, count: int) -> None:
    for _ in range(count):
        services.round_start(event=event, by=organiser, allow_rematches=True)
        report_all(event, organiser)


def points(event) -> dict[int, int]:
    return dict(Standing.objects.filter(event=event).values_list("player_id", "points"))


def test_day_two_pairs_only_the_players_who_went_on_and_ranks_them_first(organiser) -> None:
    event = make_event(organiser, 16, rounds=4)
    services.event_phases_set(event=event, by=organiser, phases=[DAY_ONE, DAY_TWO])
    event.refresh_from_db()
    assert event.planned_rounds == 5
    play_rounds(event, organiser, 3)

    with pytest.raises(Conflict) as waiting:
        services.round_start(event=event, by=organiser)
    assert waiting.value.code == "phase_not_advanced"
    assert "Round 4 opens Day 2" in waiting.value.message

    services.standings_recompute(event_id=event.pk)
    day_one = points(event)
    going_on = services.phase_advance(event=event, number=1, by=organiser)
    assert set(going_on) == {p for p, pts in day_one.items() if pts >= 6}
    assert 2 <= len(going_on) < 16
    assert set(Registration.objects.filter(event=event, phase=2).values_list("player_id", flat=True)) == set(going_on)
    entry = AuditEntry.objects.get(event=event, action="phase.advanced")
    assert entry.after["players"] == going_on and entry.subject == "Day 1"

    for _ in range(2):
        round_ = services.round_start(event=event, by=organiser, allow_rematches=True)
        assert set(Seat.objects.filter(round=round_).values_list("player_id", flat=True)) == set(going_on)
        report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
    table = list(Standing.objects.filter(event=event).order_by("rank", "player_id"))
    assert {s.player_id for s in table[: len(going_on)]} == set(going_on)
    assert all(s.phase == 2 for s in table[: len(going_on)]) and all(s.phase == 1 for s in table[len(going_on) :])
    assert [s.rank for s in table] == sorted(s.rank for s in table)

    cut = services.top_cut_start(event=event, by=organiser, size=2)
    assert set(Seat.objects.filter(round=cut).values_list("player_id", flat=True)) <= set(going_on)


def test_an_advance_waits_for_the_phase_and_its_results_and_happens_once(organiser) -> None:
    event = make_event(organiser, 8, rounds=3)
    services.event_phases_set(event=event, by=organiser, phases=[PhasePlan("Day 1", 2, advance_top=4), DAY_TWO])
    services.round_start(event=event, by=organiser)
    with pytest.raises(Conflict) as early:
        services.phase_advance(event=event, number=1, by=organiser)
    assert early.value.code == "phase_incomplete"
    report_all(event, organiser)
    services.round_start(event=event, by=organiser)
    with pytest.raises(Conflict) as unreported:
        services.phase_advance(event=event, number=1, by=organiser)
    assert unreported.value.code == "round_incomplete"
    report_all(event, organiser)
    assert len(services.phase_advance(event=event, number=1, by=organiser)) == 4
    for number, code in ((1, "phase_advanced"), (2, "last_phase")):
        with pytest.raises(Conflict) as again:
            services.phase_advance(event=event, number=number, by=organiser)
        assert again.value.code == code
    with pytest.raises(Conflict) as fixed:
        services.event_phases_set(event=event, by=organiser, phases=[PhasePlan("Day 1", 3, advance_top=4), DAY_TWO])
    assert fixed.value.code == "phase_advanced"
    with pytest.raises(Conflict) as by_phases:
        services.event_update(event=event, by=organiser, planned_rounds=9)
    assert by_phases.value.code == "planned_by_phases"


def test_an_advance_is_undone_until_the_next_phase_is_paired(organiser) -> None:
    event = make_event(organiser, 8, rounds=3)
    services.event_phases_set(event=event, by=organiser, phases=[PhasePlan("Day 1", 1, advance_top=4), DAY_TWO])
    play_rounds(event, organiser, 1)
    services.phase_advance(event=event, number=1, by=organiser)
    services.phase_advance_undo(event=event, number=1, by=organiser)
    assert not Registration.objects.filter(event=event, phase=2).exists()
    assert AuditEntry.objects.filter(event=event, action="phase.advance_undone").exists()
    services.phase_advance(event=event, number=1, by=organiser)
    services.round_start(event=event, by=organiser)
    with pytest.raises(Conflict) as started:
        services.phase_advance_undo(event=event, number=1, by=organiser)
    assert started.value.code == "phase_started"


def test_nobody_advances_is_refused_and_a_plan_that_cannot_run_is_a_field_error(organiser) -> None:
    event = make_event(organiser, 4, rounds=2)
    services.event_phases_set(event=event, by=organiser, phases=[PhasePlan("Day 1", 1, advance_points=30), DAY_TWO])
    play_rounds(event, organiser, 1)
    with pytest.raises(Conflict) as nobody:
        services.phase_advance(event=event, number=1, by=organiser)
    assert nobody.value.code == "nobody_advances"
    with pytest.raises(ApplicationError) as bad:
        services.event_phases_set(event=event, by=organiser, phases=[PhasePlan("Day 1", 1), DAY_TWO])
    assert bad.value.field == "phases" and "needs a rule" in bad.value.message


def test_the_api_plans_by_preset_advances_and_lists_a_phase_s_own_standings(organiser, api, client) -> None:
    event = make_event(organiser, 8, rounds=3)
    url = f"/api/v1/events/{event.pk}/phases/"
    preset = api.put(url, {"preset": "pokemon_day2"}, format="json")
    assert preset.status_code == 200, preset.json()
    assert preset.json()["planned_rounds"] == 14
    event.refresh_from_db()
    assert event.planned_cut_size == 8
    assert [(p["name"], p["rounds"], p["rule"]) for p in preset.json()["phases"]] == [
        ("Day 1", 9, "19 match points or more"), ("Day 2", 5, "no further phase"),
    ]  # fmt: skip

    plan = {"phases": [{"name": "Day 1", "rounds": 1, "advance_top": 4}, {"name": "Day 2", "rounds": 1}]}
    assert api.put(url, plan, format="json").status_code == 200
    bad = api.put(url, {"phases": [{"name": "Day 1", "rounds": 0}]}, format="json")
    assert bad.status_code == 400 and "rounds" in bad.json()["error"]["fields"]["phases"]["0"]
    assert client.put(url, plan, content_type="application/json").status_code in (401, 403)

    early = api.post(url + "1/advance/")
    assert (early.status_code, early.json()["error"]["code"]) == (409, "phase_incomplete")
    play_rounds(event, organiser, 1)
    advanced = api.post(url + "1/advance/")
    assert advanced.status_code == 200 and advanced.json()["count"] == 4
    listed = client.get(url).json()["phases"]
    assert [p["status"] for p in listed] == ["advanced", "planned"] and listed[1]["players"] == 4

    day_one = client.get(url + "1/standings/").json()
    assert len(day_one["standings"]) == 8
    assert sum(row["advanced"] for row in day_one["standings"]) == 4
    assert [row["rank"] for row in day_one["standings"]] == sorted(row["rank"] for row in day_one["standings"])
    assert client.get(url + "3/standings/").json()["error"]["code"] == "phase_not_found"
    assert api.post(url + "7/advance/").json()["error"]["code"] == "phase_not_found"
    undone = api.post(url + "1/advance/undo/")
    assert undone.status_code == 200 and undone.json()["phases"][0]["status"] == "playing"


def test_the_dashboard_plans_the_phases_offers_the_advance_and_the_pages_follow(organiser, django_user_model) -> None:
    from django.test import Client

    event = make_event(organiser, 8, rounds=3)
    staff = Client()
    staff.force_login(organiser)
    page = staff.get(f"/dashboard/events/{event.pk}/phases/")
    assert page.status_code == 200 and "Use the Play! Pokémon two-day plan" in page.text
    no_rule = {"name_1": "Day 1", "rounds_1": "1", "name_2": "Day 2", "rounds_2": "1"}
    refused = staff.post(f"/dashboard/events/{event.pk}/phases/", no_rule)
    assert refused.status_code == 400 and "needs a rule" in refused.text
    rows = {"name_1": "Day 1", "rounds_1": "1", "rule_1": "top", "value_1": "4", "name_2": "Day 2", "rounds_2": "1"}
    assert staff.post(f"/dashboard/events/{event.pk}/phases/", rows).status_code == 302
    event.refresh_from_db()
    assert event.planned_rounds == 2

    # Alice plays; after round 1 the dashboard offers the advance instead of round 2.
    alice = django_user_model.objects.create_user(username="alice", password="pw")
    player = Registration.objects.filter(event=event).first().player
    player.user = alice
    player.save()
    play_rounds(event, organiser, 1)
    detail = staff.get(f"/dashboard/events/{event.pk}/").text
    assert "Advance 4 players from Day 1" in detail and "Start round 2" not in detail
    assert staff.post(f"/dashboard/events/{event.pk}/phases/1/advance/").status_code == 302
    detail = staff.get(f"/dashboard/events/{event.pk}/").text
    assert "Start round 2" in detail and "Undo Day 1's advance" in detail

    standings = Client().get(f"/events/{event.pk}/standings/?phase=1").text
    assert standings.count(">went on</span>") == 4 and "Day 1's own standings" in standings
    services.standings_recompute(event_id=event.pk)
    overall = Client().get(f"/events/{event.pk}/standings/").text
    assert overall.count(">Day 2</span>") == 4

    me = Client()
    me.force_login(alice)
    went_on = Registration.objects.get(event=event, player=player).phase == 2
    note = "You went on to Day 2." if went_on else "Your event ended with Day 1"
    assert note in me.get("/me/").text
