"""Event operations through the services and the API: late entry, assigned byes, fixed seating,
swaps, re-pairing, and the organiser's say when no rematch-free pairing exists."""

from __future__ import annotations

import pytest

from core.exceptions import ApplicationError, Conflict
from tests.factories import RegistrationFactory
from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import ByeAssignment, Pod, Registration, Round, Seat, Standing

pytestmark = pytest.mark.django_db


def seated(round_: Round) -> set[int]:
    return set(Seat.objects.filter(round=round_).values_list("player_id", flat=True))


# --- late entry ----------------------------------------------------------------------------------


def test_a_late_entrant_joins_the_next_round_with_a_loss_for_each_round_missed(organiser) -> None:
    event = make_event(organiser, 8)
    round1 = services.round_start(event=event, by=organiser)
    before = {(s.pod_id, s.player_id) for s in Seat.objects.filter(round=round1)}

    late = services.registration_create(event=event, by=organiser, display_name="Latecomer", checked_in=True)

    assert late.late_entry_round == 2 and late.missed_rounds == 1
    # The round being played is not rebuilt.
    assert {(s.pod_id, s.player_id) for s in Seat.objects.filter(round=round1)} == before
    report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
    row = Standing.objects.get(event=event, player=late.player)
    assert (row.points, row.wins, row.losses, row.matches) == (0, 0, 1, 1)

    round2 = services.round_start(event=event, by=organiser)
    assert late.player_id in seated(round2)
    assert len(seated(round2)) == 9  # an odd field now: one bye


def test_checking_in_after_round_one_is_a_late_entry_but_a_returning_player_is_not(organiser) -> None:
    event = make_event(organiser, 6)
    absent = RegistrationFactory(event=event, checked_in=False)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    services.round_start(event=event, by=organiser)

    absent = services.registration_check_in(registration=absent, by=organiser)
    assert absent.late_entry_round == 3

    player = Registration.objects.filter(event=event, late_entry_round__isnull=True).first()
    services.registration_check_in(registration=player, by=organiser, checked_in=False)
    player = services.registration_check_in(registration=player, by=organiser, checked_in=True)
    assert player.late_entry_round is None


def test_a_dropped_player_keeps_their_standing_and_is_not_paired(organiser) -> None:
    event = make_event(organiser, 6)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    gone = Registration.objects.filter(event=event).first()
    services.registration_drop(registration=gone, by=organiser)
    round2 = services.round_start(event=event, by=organiser)
    services.standings_recompute(event_id=event.pk)
    assert gone.player_id not in seated(round2)
    assert Standing.objects.get(event=event, player=gone.player).dropped


# --- byes and fixed seating ----------------------------------------------------------------------


def test_an_assigned_bye_is_a_win_and_the_rest_are_paired_as_usual(organiser) -> None:
    event = make_event(organiser, 7)
    chosen = Registration.objects.filter(event=event).last()
    services.bye_assign(registration=chosen, round_number=1, by=organiser)

    round1 = services.round_start(event=event, by=organiser)

    bye = Seat.objects.get(round=round1, player=chosen.player)
    assert bye.pod.is_bye and bye.placement == 1 and bye.points == 3
    assert bye.reasons == ["bye_assigned"]
    assert Pod.objects.filter(round=round1, is_bye=True).count() == 1  # 6 left: no engine bye
    assert len(seated(round1)) == 7


def test_a_bye_can_only_be_assigned_for_a_round_not_yet_paired(organiser) -> None:
    event = make_event(organiser, 6)
    services.round_start(event=event, by=organiser)
    reg = Registration.objects.filter(event=event).first()
    with pytest.raises(Conflict) as refused:
        services.bye_assign(registration=reg, round_number=1, by=organiser)
    assert refused.value.code == "round_already_paired"
    services.bye_assign(registration=reg, round_number=2, by=organiser)
    services.bye_unassign(registration=reg, round_number=2, by=organiser)
    assert not ByeAssignment.objects.exists()


def test_a_player_with_a_fixed_table_sits_there_every_round(organiser) -> None:
    event = make_event(organiser, 12)
    reg = Registration.objects.filter(event=event).first()
    services.registration_update(registration=reg, by=organiser, fixed_table=4)
    for _ in range(3):
        round_ = services.round_start(event=event, by=organiser)
        seat = Seat.objects.select_related("pod").get(round=round_, player=reg.player)
        assert seat.pod.table_number == 4 and "fixed_table" in seat.reasons
        numbers = sorted(Pod.objects.filter(round=round_, is_bye=False).values_list("table_number", flat=True))
        assert numbers == list(range(1, 7))
        report_all(event, organiser)


def test_two_players_cannot_be_fixed_to_one_table(organiser) -> None:
    event = make_event(organiser, 4)
    a, b = Registration.objects.filter(event=event)[:2]
    services.registration_update(registration=a, by=organiser, fixed_table=1)
    with pytest.raises(Conflict) as refused:
        services.registration_update(registration=b, by=organiser, fixed_table=1)
    assert refused.value.field == "fixed_table"


# --- swaps and re-pairing ------------------------------------------------------------------------


def test_a_swap_that_creates_a_rematch_is_made_with_a_warning(organiser) -> None:
    event = make_event(organiser, 4)
    round1 = services.round_start(event=event, by=organiser)
    t1 = sorted(Seat.objects.filter(pod__round=round1, pod__table_number=1), key=lambda s: s.seat_order)
    report_all(event, organiser)
    round2 = services.round_start(event=event, by=organiser)
    # Round 2 avoided rematches; swap so that round 1's table 1 meets again.
    a, b = t1[0].player_id, t1[1].player_id
    seat_a = Seat.objects.get(round=round2, player_id=a)
    partner = Seat.objects.filter(pod=seat_a.pod).exclude(player_id=a).get()
    round_, warnings = services.round_swap(
        event=event, round_number=2, player_a=partner.player_id, player_b=b, by=organiser
    )
    # Both new tables are round 1's tables again: two rematches, two warnings.
    assert round_.edited and round_.rematches == 2
    assert len(warnings) == 2 and all("round 1" in w for w in warnings)
    assert Seat.objects.get(round=round2, player_id=b).pod_id == seat_a.pod_id
    assert Seat.objects.get(round=round2, player_id=b).reasons == ["swapped", "rematch"]


def test_a_swap_explains_every_seat_at_both_tables_by_the_change_staff_made(organiser, api) -> None:
    event = make_event(organiser, 4)
    services.round_start(event=event, by=organiser, seed=3)
    report_all(event, organiser)
    round2 = services.round_start(event=event, by=organiser, seed=4)
    # Round 2 pairs the winners (3 points each) and the losers (0 each); a loser swapped in for a winner makes
    # two 3-vs-0 tables, each a rematch of round 1.
    tables = [list(p.seats.order_by("seat_order")) for p in round2.pods.order_by("table_number")]
    winners = next(t for t in tables if t[0].points_before == 3)
    stayer = winners[0]
    opponent = next(
        s.player_id
        for s in Seat.objects.filter(round__event=event, round__number=1, pod__seats__player_id=stayer.player_id)
        if s.player_id != stayer.player_id
    )
    services.round_swap(event=event, round_number=2, player_a=winners[1].player_id, player_b=opponent, by=organiser)

    seats = {s.player_id: s for s in Seat.objects.filter(round=round2).select_related("player")}
    assert {p: "swapped" in s.reasons for p, s in seats.items()} == {
        p: p in (winners[1].player_id, opponent) for p in seats
    }
    assert all("table_changed" in s.reasons for p, s in seats.items() if p not in (winners[1].player_id, opponent))
    assert all("rematch" in s.reasons for s in seats.values())

    why = api.get(f"/api/v1/events/{event.pk}/rounds/2/").json()
    said = {s["player"]["id"]: " ".join(s["why"]) for t in why["tables"] for s in t["seats"]}
    mover_name = seats[opponent].player.display_name
    told = f"Staff changed your table by hand after round 2 was paired: {mover_name} was swapped in."
    assert told in said[stayer.player_id]
    assert "had 3 points" in said[stayer.player_id] and f"{mover_name} had 0 points" in said[stayer.player_id]
    assert "point group" not in said[stayer.player_id] and "no pairing of the whole field" not in said[stayer.player_id]
    assert "staff set this table by hand" in said[stayer.player_id]
    assert "Staff moved you to this table by hand" in said[opponent]
    assert all("by hand" in text and "point group" not in text for text in said.values())


def test_swaps_and_re_pairing_never_touch_a_reported_table(organiser) -> None:
    event = make_event(organiser, 4)
    round1 = services.round_start(event=event, by=organiser)
    table1 = Seat.objects.filter(pod__round=round1, pod__table_number=1).order_by("seat_order")
    table2 = Seat.objects.filter(pod__round=round1, pod__table_number=2).order_by("seat_order")
    a, b = table1[0].player_id, table2[0].player_id
    services.pod_result_report(
        event=event, round_number=1, table_number=1, placements={a: 1, table1[1].player_id: 2}, by=organiser
    )
    with pytest.raises(Conflict) as swap:
        services.round_swap(event=event, round_number=1, player_a=a, player_b=b, by=organiser)
    with pytest.raises(Conflict) as repair:
        services.round_repair(event=event, round_number=1, by=organiser)
    assert swap.value.code == repair.value.code == "round_has_results"
    assert Seat.objects.get(round=round1, player_id=a).placement == 1


def test_re_pairing_a_round_takes_in_late_check_ins_and_keeps_the_number(organiser) -> None:
    event = make_event(organiser, 6)
    late = RegistrationFactory(event=event, checked_in=False)
    round1 = services.round_start(event=event, by=organiser, seed=1)
    services.registration_check_in(registration=late, by=organiser)
    again = services.round_repair(event=event, round_number=1, by=organiser, seed=2)
    assert again.number == 1 and again.pk != round1.pk
    assert late.player_id in seated(again)
    assert Round.objects.filter(event=event).count() == 1


def test_swapping_a_player_into_the_bye_moves_the_bye(organiser) -> None:
    event = make_event(organiser, 5)
    round1 = services.round_start(event=event, by=organiser)
    bye = Seat.objects.get(round=round1, pod__is_bye=True)
    other = Seat.objects.filter(round=round1, pod__is_bye=False).first()
    services.round_swap(event=event, round_number=1, player_a=bye.player_id, player_b=other.player_id, by=organiser)
    moved = Seat.objects.get(round=round1, player_id=other.player_id)
    assert moved.pod.is_bye and moved.points == 3 and moved.placement == 1
    assert Seat.objects.get(round=round1, player_id=bye.player_id).placement is None


# --- rematches: say so, let the organiser allow one ---------------------------------------------


def test_when_no_rematch_free_pairing_exists_the_organiser_is_asked_first(organiser) -> None:
    event = make_event(organiser, 4, rounds=5)
    for _ in range(3):  # four players meet everyone in three rounds
        services.round_start(event=event, by=organiser)
        report_all(event, organiser)
    with pytest.raises(Conflict) as refused:
        services.round_start(event=event, by=organiser)
    assert refused.value.code == "rematch_unavoidable"
    assert "2" in refused.value.message and event.rounds.count() == 3
    round4 = services.round_start(event=event, by=organiser, allow_rematches=True)
    assert round4.rematches == 2
    assert all("rematch" in s.reasons for s in Seat.objects.filter(round=round4))


def test_the_api_answers_409_with_the_code_and_pairs_when_allowed(organiser, api) -> None:
    event = make_event(organiser, 2, rounds=3)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    refused = api.post(f"/api/v1/events/{event.pk}/rounds/", {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "rematch_unavoidable"
    allowed = api.post(f"/api/v1/events/{event.pk}/rounds/", {"allow_rematches": True}, format="json")
    assert allowed.status_code == 201 and allowed.json()["rematches"] == 1


# --- pods options and 1v1 Master Trainer ---------------------------------------------------------


def test_pods_can_give_byes_instead_of_three_player_pods(organiser) -> None:
    event = make_event(organiser, 10, format="master-trainer", pod_leftovers="byes")
    round1 = services.round_start(event=event, by=organiser)
    sizes = sorted(Pod.objects.filter(round=round1, is_bye=False).values_list("id", flat=True))
    assert len(sizes) == 2
    assert Pod.objects.filter(round=round1, is_bye=True).count() == 2


def test_a_master_trainer_event_can_be_played_one_on_one_with_swiss(organiser) -> None:
    event = make_event(organiser, 6, format="master-trainer", players_per_table=2)
    round1 = services.round_start(event=event, by=organiser)
    assert all(p.seats.count() == 2 for p in Pod.objects.filter(round=round1))
    with pytest.raises(ApplicationError) as refused:
        make_event(organiser, 0, format="mt-silver", players_per_table=2)
    assert refused.value.field == "players_per_table"


# --- settings --------------------------------------------------------------------------------------


def test_pairing_settings_lock_at_round_one_but_planned_rounds_can_rise(organiser, api) -> None:
    event = make_event(organiser, 4, format="master-trainer")
    services.round_start(event=event, by=organiser)
    response = api.patch(f"/api/v1/events/{event.pk}/", {"pod_leftovers": "byes"}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "event_started"
    response = api.patch(f"/api/v1/events/{event.pk}/", {"planned_rounds": 6}, format="json")
    assert response.status_code == 200 and response.json()["planned_rounds"] == 6
    response = api.patch(f"/api/v1/events/{event.pk}/", {"planned_rounds": 0}, format="json")
    assert response.status_code == 400 and "planned_rounds" in response.json()["error"]["fields"]


# --- reproducibility and the API -----------------------------------------------------------------


def test_a_round_is_reproduced_from_its_stored_seed_with_the_same_objective(organiser) -> None:
    event = make_event(organiser, 11)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    first = services.round_start(event=event, by=organiser)
    tables = [
        [s.player_id for s in p.seats.order_by("seat_order")] for p in first.pods.order_by("is_bye", "table_number")
    ]
    seed, objective = first.seed, first.objective
    assert objective is not None

    again = services.round_repair(event=event, round_number=2, by=organiser, seed=seed)

    assert [
        [s.player_id for s in p.seats.order_by("seat_order")] for p in again.pods.order_by("is_bye", "table_number")
    ] == tables
    assert (again.seed, again.objective) == (seed, objective)


def test_the_operations_api_checks_its_input_and_explains_each_seat(organiser, api) -> None:
    event = make_event(organiser, 5)
    reg = Registration.objects.filter(event=event).first()
    base = f"/api/v1/events/{event.pk}"
    bad = api.patch(f"{base}/registrations/{reg.pk}/", {"fixed_table": 0}, format="json")
    assert bad.status_code == 400 and "fixed_table" in bad.json()["error"]["fields"]
    ok = api.patch(f"{base}/registrations/{reg.pk}/", {"fixed_table": 2}, format="json")
    assert ok.status_code == 200 and ok.json()["fixed_table"] == 2
    bye = api.post(f"{base}/registrations/{reg.pk}/byes/", {"round": 1}, format="json")
    assert bye.status_code == 201 and bye.json()["assigned_byes"] == [1]
    assert api.delete(f"{base}/registrations/{reg.pk}/byes/1/").json()["assigned_byes"] == []
    assert api.post(f"{base}/registrations/{reg.pk}/byes/", {"round": "x"}, format="json").status_code == 400

    round_ = api.post(f"{base}/rounds/", {}, format="json").json()
    assert round_["objective"] is not None and round_["stage"] == "swiss" and round_["label"] == "Round 1"
    seats = [s for t in round_["tables"] for s in t["seats"]]
    assert all(s["why"] and s["reasons"] for s in seats)
    swap = api.post(f"{base}/rounds/1/swap/", {"players": [seats[0]["player"]["id"]]}, format="json")
    assert swap.status_code == 400 and "players" in swap.json()["error"]["fields"]
    a, b = round_["tables"][0]["seats"][0]["player"]["id"], round_["tables"][1]["seats"][0]["player"]["id"]
    swapped = api.post(f"{base}/rounds/1/swap/", {"players": [a, b]}, format="json")
    assert swapped.status_code == 200 and swapped.json()["warnings"] == [] and swapped.json()["round"]["edited"]
    assert api.post(f"{base}/rounds/9/repair/", {}, format="json").status_code == 404
    assert api.post(f"{base}/top-cut/", {"size": 1}, format="json").status_code == 400
