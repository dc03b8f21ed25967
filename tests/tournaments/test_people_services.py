"""People through the services: roles, self-registration and the waiting list, check-in and drops,
player reports with confirmation and disputes, corrections, game scores, claim codes and the audit trail."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from core.exceptions import ApplicationError, Conflict, NotFound, PermissionDenied
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event, report_all
from tournaments import policy, services
from tournaments.models import AuditEntry, EventStaff, PodResult, Registration, ResultReport, Standing
from tournaments.services import registrations, results, staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model):
    def make(name: str):
        return django_user_model.objects.create_user(username=name, password="pw")

    return make


def actions(event):
    return [a.action for a in AuditEntry.objects.filter(event=event).order_by("created_at", "id")]


# --- roles ----------------------------------------------------------------------------------------


def test_each_role_may_take_exactly_the_actions_of_the_policy_table(organiser, users):
    event = make_event(organiser, 0)
    people = {role: users(role.value) for role in policy.Role if role != policy.Role.ORGANISER}
    for role, user in people.items():
        staff.staff_add(event=event, username=user.username, role=role.value, by=organiser)
    for action in policy.Action:
        assert policy.can(organiser, action, event)
        for role, user in people.items():
            expected = action in policy.ROLE_ACTIONS[role]
            if role == policy.Role.CASTER and action == policy.Action.SEE_HIDDEN_DECKLISTS:
                expected = False  # only when the organiser allows casters to see them
            assert policy.can(user, action, event) is expected, (role, action)
    event.casters_see_decklists = True
    assert policy.can(people[policy.Role.CASTER], policy.Action.SEE_HIDDEN_DECKLISTS, event)


def test_staff_changes_are_for_organisers_and_audited(organiser, users, outsider):
    event = make_event(organiser, 0)
    judge = users("judy")
    with pytest.raises(PermissionDenied):
        staff.staff_add(event=event, username="judy", role="judge", by=outsider)
    staff.staff_add(event=event, username="judy", role="judge", by=organiser)
    staff.staff_add(event=event, username="judy", role="scorekeeper", by=organiser)
    assert EventStaff.objects.get(event=event, user=judge).role == "scorekeeper"
    with pytest.raises(NotFound) as unknown:
        staff.staff_add(event=event, username="nobody", role="judge", by=organiser)
    assert unknown.value.code == "unknown_user"
    with pytest.raises(Conflict) as own:
        staff.staff_add(event=event, username="organiser", role="judge", by=organiser)
    assert own.value.code == "already_organiser"
    staff.staff_remove(event=event, username="judy", by=organiser)
    assert not EventStaff.objects.filter(event=event).exists()
    assert actions(event)[-3:] == ["staff.added", "staff.changed", "staff.removed"]


def test_a_scorekeeper_pairs_and_enters_results_but_a_judge_does_not(organiser, users):
    event = make_event(organiser, 4)
    staff.staff_add(event=event, username=users("sam").username, role="scorekeeper", by=organiser)
    staff.staff_add(event=event, username=users("jo").username, role="judge", by=organiser)
    from django.contrib.auth import get_user_model

    sam, jo = get_user_model().objects.get(username="sam"), get_user_model().objects.get(username="jo")
    with pytest.raises(PermissionDenied):
        services.round_start(event=event, by=jo)
    round_ = services.round_start(event=event, by=sam)
    pod = round_.pods.order_by("table_number").first()
    a, b = (s.player_id for s in pod.seats.order_by("seat_order"))
    with pytest.raises(PermissionDenied):
        services.pod_result_report(event=event, round_number=1, table_number=1, placements={a: 1, b: 2}, by=jo)
    services.pod_result_report(event=event, round_number=1, table_number=1, placements={a: 1, b: 2}, by=sam)


# --- self-registration --------------------------------------------------------------------------


def test_players_register_themselves_and_the_full_event_keeps_a_waiting_list_in_order(organiser, users):
    event = make_event(organiser, 0)
    first, second, third = users("ann"), users("ben"), users("cat")
    with pytest.raises(Conflict) as closed:
        registrations.registration_self_register(event=event, by=first)
    assert closed.value.code == "registration_closed"
    services.event_update(event=event, by=organiser, registration_open=True, capacity=1)
    one = registrations.registration_self_register(event=event, by=first)
    two = registrations.registration_self_register(event=event, by=second)
    three = registrations.registration_self_register(event=event, by=third)
    assert [r.status for r in (one, two, three)] == ["registered", "waitlisted", "waitlisted"]
    assert one.player.user == first and one.self_registered
    with pytest.raises(Conflict) as twice:
        registrations.registration_self_register(event=event, by=second)
    assert twice.value.code == "already_registered"

    registrations.registration_withdraw(registration=one, by=first)  # the first on the waiting list moves up
    assert Registration.objects.get(pk=two.pk).status == "registered"
    assert Registration.objects.get(pk=three.pk).status == "waitlisted"
    services.event_update(event=event, by=organiser, capacity=5)  # more room: the rest moves up
    assert Registration.objects.get(pk=three.pk).status == "registered"
    assert "registration.promoted" in actions(event)


def test_a_drop_before_play_frees_its_place_for_the_waiting_list(organiser, users):
    event = make_event(organiser, 0)
    services.event_update(event=event, by=organiser, registration_open=True, capacity=1)
    one = registrations.registration_self_register(event=event, by=users("ann"))
    two = registrations.registration_self_register(event=event, by=users("ben"))
    assert two.status == "waitlisted"
    registrations.registration_drop(registration=one, by=organiser)  # a no-show, dropped by the staff
    assert Registration.objects.get(pk=two.pk).status == "registered"
    third = registrations.registration_self_register(event=event, by=users("cat"))
    assert third.status == "waitlisted"  # the dropped player's place was given once, not twice


def test_registration_closes_at_its_deadline_and_when_play_starts(organiser, users):
    event = make_event(organiser, 2)
    past = timezone.now() - datetime.timedelta(minutes=1)
    services.event_update(event=event, by=organiser, registration_open=True, registration_deadline=past)
    with pytest.raises(Conflict) as late:
        registrations.registration_self_register(event=event, by=users("dan"))
    assert late.value.code == "registration_closed"
    services.event_update(event=event, by=organiser, registration_deadline=None)
    services.round_start(event=event, by=organiser)
    with pytest.raises(Conflict) as started:
        registrations.registration_self_register(event=event, by=users("eve"))
    assert started.value.code in {"event_started", "registration_closed"}


def test_a_player_checks_in_only_while_the_window_is_open_and_staff_at_any_time(organiser, users):
    event = make_event(organiser, 0)
    player = users("fay")
    services.event_update(event=event, by=organiser, registration_open=True)
    registration = registrations.registration_self_register(event=event, by=player)
    with pytest.raises(Conflict) as shut:
        services.registration_check_in(registration=registration, by=player)
    assert shut.value.code == "check_in_closed"
    services.event_update(event=event, by=organiser, check_in_open=True)
    assert services.registration_check_in(registration=registration, by=player).checked_in
    other = RegistrationFactory(event=event)
    with pytest.raises(PermissionDenied):
        services.registration_check_in(registration=other, by=player)


def test_a_player_drops_between_rounds_not_in_the_middle_of_one(organiser, users):
    event = make_event(organiser, 3, rounds=3)
    user = users("gus")
    registration = RegistrationFactory(event=event, player=PlayerFactory(user=user, display_name="Gus"))
    round_ = services.round_start(event=event, by=organiser, seed=1)
    seated = round_.seats.filter(player=registration.player, pod__is_bye=False).exists()
    if seated:
        with pytest.raises(Conflict) as playing:
            services.registration_drop(registration=registration, by=user)
        assert playing.value.code == "round_in_progress"
        report_all(event, organiser)
    dropped = services.registration_drop(registration=registration, by=user)
    assert dropped.dropped
    undone = registrations.registration_undrop(registration=dropped, by=organiser, reason="dropped by mistake")
    assert not undone.dropped
    entry = AuditEntry.objects.filter(event=event, action="registration.undropped").get()
    assert entry.reason == "dropped by mistake" and entry.before["dropped"] is True


def test_a_walk_in_claims_their_record_with_the_code_and_keeps_one_history(organiser, users):
    event = make_event(organiser, 0)
    walk_in = RegistrationFactory(event=event, player=PlayerFactory(display_name="Hal"))
    code = registrations.player_claim_code_create(registration=walk_in, by=organiser)
    user = users("hal")
    registrations.player_for_user(user)  # the empty profile sign-up made
    claimed = registrations.player_claim(user=user, code=code.lower())
    assert claimed.pk == walk_in.player_id and claimed.user == user and claimed.claim_code is None
    assert user.player == claimed
    with pytest.raises(NotFound):
        registrations.player_claim(user=users("ivy"), code=code)


# --- player reports ---------------------------------------------------------------------------------


@pytest.fixture
def duel(organiser, users):
    """A 1v1 event with player reports on, two players with accounts seated at table 1 of round 1."""
    event = make_event(organiser, 0, format="deck-masters", rounds=3)
    services.event_update(event=event, by=organiser, player_reports=True)
    people = []
    for name in ("ash", "gary"):
        user = users(name)
        RegistrationFactory(event=event, player=PlayerFactory(user=user, display_name=name.title()), checked_in=True)
        people.append(user)
    services.round_start(event=event, by=organiser, seed=1)
    pod = event.rounds.get(number=1).pods.get(table_number=1)
    order = {s.player.user_id: s.player_id for s in pod.seats.select_related("player")}
    a, b = people
    return event, a, b, order[a.pk], order[b.pk]


def test_a_reported_result_counts_once_the_opponent_confirms_it(duel, organiser):
    event, a, b, pa, pb = duel
    answer = results.result_player_report(
        event=event, round_number=1, table_number=1, placements={pa: 1, pb: 2}, games={pa: [2, 1, 0], pb: [1, 2, 0]},
        by=a,
    )  # fmt: skip
    assert answer.state == "pending" and answer.result is None
    assert not PodResult.objects.filter(pod=answer.report.pod).exists()
    with pytest.raises(Conflict) as own:
        results.result_respond(event=event, round_number=1, table_number=1, agrees=True, by=a)
    assert own.value.code == "own_report"
    confirmed = results.result_respond(event=event, round_number=1, table_number=1, agrees=True, by=b)
    assert confirmed.state == "confirmed" and confirmed.result.source == PodResult.Source.PLAYERS
    seats = {s.player_id: s for s in confirmed.result.pod.seats.all()}
    assert (seats[pa].placement, seats[pa].games_won, seats[pa].games_lost) == (1, 2, 1)
    assert actions(event)[-2:] == ["result.agreed", "result.confirmed"] or "result.confirmed" in actions(event)


def test_two_players_reporting_the_same_make_one_result_and_one_confirmation(duel):
    event, a, b, pa, pb = duel
    results.result_player_report(event=event, round_number=1, table_number=1, placements={pa: 2, pb: 1}, by=a)
    second = results.result_player_report(event=event, round_number=1, table_number=1, placements={pa: 2, pb: 1}, by=b)
    assert second.state == "confirmed"
    assert PodResult.objects.filter(pod=second.result.pod).count() == 1
    assert second.report.responses.get().agrees


def test_reports_that_disagree_make_a_dispute_that_a_judge_settles(duel, organiser, users):
    event, a, b, pa, pb = duel
    results.result_player_report(event=event, round_number=1, table_number=1, placements={pa: 1, pb: 2}, by=a)
    disputed = results.result_player_report(
        event=event, round_number=1, table_number=1, placements={pa: 2, pb: 1}, by=b
    )
    assert disputed.state == "disputed"
    assert not PodResult.objects.filter(pod=disputed.report.pod).exists()  # never a silent overwrite
    judge = users("judge1")
    staff.staff_add(event=event, username="judge1", role="judge", by=organiser)
    result, created = services.pod_result_report(
        event=event, round_number=1, table_number=1, placements={pa: 2, pb: 1}, by=judge
    )
    assert created
    assert ResultReport.objects.get(pk=disputed.report.pk).status == "settled"
    assert "result.settled" in actions(event)


def test_a_player_elsewhere_may_not_report_and_events_may_keep_reports_to_staff(duel, organiser, users):
    event, a, b, pa, pb = duel
    stranger = users("zed")
    RegistrationFactory(event=event, player=PlayerFactory(user=stranger))
    with pytest.raises(PermissionDenied) as elsewhere:
        results.result_player_report(
            event=event, round_number=1, table_number=1, placements={pa: 1, pb: 2}, by=stranger
        )
    assert elsewhere.value.code == "not_at_table"
    services.event_update(event=event, by=organiser, player_reports=False)
    with pytest.raises(Conflict) as off:
        results.result_player_report(event=event, round_number=1, table_number=1, placements={pa: 1, pb: 2}, by=a)
    assert off.value.code == "player_reports_off"


@pytest.fixture
def walk_in_table(organiser, users):
    """Ash (with an account) against a walk-in (no account) at table 1 of round 1, player reports on."""
    event = make_event(organiser, 0, format="deck-masters", rounds=3)
    services.event_update(event=event, by=organiser, player_reports=True)
    ash = users("ash")
    RegistrationFactory(event=event, player=PlayerFactory(user=ash, display_name="Ash"), checked_in=True)
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Walker"), checked_in=True)
    services.round_start(event=event, by=organiser, seed=1)
    seats = {s.player.display_name: s.player for s in event.rounds.get().pods.get().seats.select_related("player")}
    return event, ash, seats["Ash"], seats["Walker"]


def test_staff_accept_a_report_a_walk_in_cannot_confirm_as_a_confirmation(walk_in_table, organiser, users):
    event, ash, me, walker = walk_in_table
    table = {"event": event, "round_number": 1, "table_number": 1}
    report = results.result_player_report(
        **table, placements={me.pk: 1, walker.pk: 2}, games={me.pk: [2, 0, 0], walker.pk: [0, 2, 0]}, by=ash
    ).report
    judge = users("judy")
    staff.staff_add(event=event, username="judy", role="judge", by=organiser)
    version = event.results_version

    answer = results.result_report_accept(**table, by=judge)

    assert answer.state == "confirmed" and answer.report == report
    result = PodResult.objects.get(pod=report.pod)
    assert (result.source, result.reported_by) == (PodResult.Source.ACCEPTED, ash)
    assert ResultReport.objects.get(pk=report.pk).status == ResultReport.Status.CONFIRMED
    seats = {s.player_id: s for s in report.pod.seats.all()}
    assert (seats[me.pk].placement, seats[me.pk].games_won, seats[walker.pk].placement) == (1, 2, 2)
    entry = AuditEntry.objects.filter(event=event).latest("id")
    assert (entry.action, entry.actor) == ("result.confirmed", judge)
    assert entry.reason == f"Accepted by staff as reported; not confirmed by Walker (#{walker.pk})."
    event.refresh_from_db()
    assert event.results_version > version  # the standings follow it, as they follow a confirmation
    with pytest.raises(Conflict) as again:
        results.result_report_accept(**table, by=judge)
    assert again.value.code == "result_exists"


def test_only_staff_who_settle_tables_accept_a_report_and_only_a_waiting_one(walk_in_table, organiser, users):
    event, ash, me, walker = walk_in_table
    table = {"event": event, "round_number": 1, "table_number": 1}
    with pytest.raises(NotFound) as none:
        results.result_report_accept(**table, by=organiser)
    assert none.value.code == "no_report"
    results.result_player_report(**table, placements={me.pk: 1, walker.pk: 2}, by=ash)
    caster = users("cass")
    staff.staff_add(event=event, username="cass", role="caster", by=organiser)
    for who in (ash, caster):
        with pytest.raises(PermissionDenied):
            results.result_report_accept(**table, by=who)
    assert not PodResult.objects.filter(pod__round__event=event).exists()
    scorekeeper = users("sam")
    staff.staff_add(event=event, username="sam", role="scorekeeper", by=organiser)
    assert results.result_report_accept(**table, by=scorekeeper).result is not None


def test_a_disputed_report_is_settled_by_entering_the_result_not_accepted(duel, organiser):
    event, a, b, pa, pb = duel
    table = {"event": event, "round_number": 1, "table_number": 1}
    results.result_player_report(**table, placements={pa: 1, pb: 2}, by=a)
    results.result_player_report(**table, placements={pa: 2, pb: 1}, by=b)
    with pytest.raises(Conflict) as refused:
        results.result_report_accept(**table, by=organiser)
    assert refused.value.code == "report_disputed"
    assert not PodResult.objects.filter(pod__round__event=event).exists()


# --- game scores, intentional draws, the floor --------------------------------------------------


def test_game_scores_must_agree_with_the_placements(duel, organiser):
    event, a, b, pa, pb = duel
    for games, message in (
        ({pa: [2, 1, 0], pb: [2, 1, 0]}, "mirror"),
        ({pa: [1, 2, 0], pb: [2, 1, 0]}, "disagree"),
        ({pa: [3, 0, 0], pb: [0, 3, 0]}, "won with 2"),
    ):
        with pytest.raises(ApplicationError, match=message):
            services.pod_result_report(
                event=event, round_number=1, table_number=1, placements={pa: 1, pb: 2}, games=games, by=organiser
            )


def test_an_intentional_draw_is_worth_no_game_points_unlike_a_played_draw(organiser):
    event = make_event(organiser, 4, format="deck-masters", rounds=3, tiebreakers="magic")
    round_ = services.round_start(event=event, by=organiser, seed=3)
    (t1, (a, b)), (t2, (c, d)) = [
        (p.table_number, [s.player_id for s in p.seats.order_by("seat_order")])
        for p in round_.pods.filter(is_bye=False).order_by("table_number")
    ]
    services.pod_result_report(
        event=event, round_number=1, table_number=t1, placements={a: 1, b: 1}, intentional_draw=True, by=organiser
    )
    services.pod_result_report(
        event=event, round_number=1, table_number=t2, placements={c: 1, d: 1},
        games={c: [1, 1, 1], d: [1, 1, 1]}, by=organiser,
    )  # fmt: skip
    services.standings_recompute(event_id=event.pk)
    rows = {s.player_id: s for s in Standing.objects.filter(event=event)}
    assert rows[a].points == rows[c].points == 1
    # The played 1-1-1 draw: 4 game points of 9 (a win is 3, a drawn game 1). The intentional draw: no games
    # played, so no game points and nothing to divide (its opponent sees the floor).
    assert rows[c].game_win_pct == pytest.approx(4 / 9)
    assert rows[a].game_win_pct == 0.0
    assert rows[b].opp_game_win_pct == pytest.approx(0.33)
    services.event_update(event=event, by=organiser, magic_floor="1/3")
    services.standings_recompute(event_id=event.pk)
    assert Standing.objects.get(event=event, player_id=b).opp_game_win_pct == pytest.approx(1 / 3)


# --- corrections --------------------------------------------------------------------------------


def test_a_result_is_corrected_after_the_next_round_was_paired_with_a_reason(organiser, users):
    event = make_event(organiser, 4, rounds=3)
    services.round_start(event=event, by=organiser, seed=5)
    report_all(event, organiser)
    services.round_start(event=event, by=organiser, seed=6)
    pod = event.rounds.get(number=1).pods.filter(is_bye=False).order_by("table_number").first()
    a, b = (s.player_id for s in pod.seats.order_by("seat_order"))
    with pytest.raises(ApplicationError):
        results.result_correct(
            event=event, round_number=1, table_number=pod.table_number, placements={a: 2, b: 1}, reason="", by=organiser
        )
    with pytest.raises(PermissionDenied):
        results.result_correct(
            event=event, round_number=1, table_number=pod.table_number, placements={a: 2, b: 1}, reason="slip",
            by=users("nosy"),
        )  # fmt: skip
    correction = results.result_correct(
        event=event, round_number=1, table_number=pod.table_number, placements={a: 2, b: 1},
        reason="the match slip was filled in the wrong way round", by=organiser,
    )  # fmt: skip
    assert correction.later_rounds == [2]
    assert correction.result.corrected_at is not None
    seats = {s.player_id: s.placement for s in pod.seats.all()}
    assert seats == {a: 2, b: 1}
    assert event.rounds.get(number=2).seats.count() == 4  # round 2 stays as paired
    entry = AuditEntry.objects.get(event=event, action="result.corrected")
    assert entry.before["placements"] == {str(a): 1, str(b): 2}
    assert entry.after["rounds_paired_since"] == [2] and "wrong way round" in entry.reason


def test_after_the_event_is_finished_only_its_organiser_corrects(organiser, users):
    event = make_event(organiser, 2, rounds=1)
    co = users("coco")
    staff.staff_add(event=event, username="coco", role="co_organiser", by=organiser)
    services.round_start(event=event, by=organiser)
    report_all(event, organiser)
    services.event_finish(event=event, by=organiser)
    a, b = (s.player_id for s in event.rounds.get().pods.get(table_number=1).seats.order_by("seat_order"))
    with pytest.raises(PermissionDenied):
        results.result_correct(
            event=event, round_number=1, table_number=1, placements={a: 2, b: 1}, reason="late appeal", by=co
        )
    results.result_correct(
        event=event, round_number=1, table_number=1, placements={a: 2, b: 1}, reason="late appeal", by=organiser
    )


# --- the audit trail ------------------------------------------------------------------------------


def test_the_audit_trail_is_never_edited_or_deleted(organiser):
    event = make_event(organiser, 2)
    entry = AuditEntry.objects.filter(event=event).first()
    assert entry.action == "event.created"
    entry.reason = "tampered"
    with pytest.raises(TypeError):
        entry.save()
    with pytest.raises(TypeError):
        entry.delete()


# --- what players see -----------------------------------------------------------------------------


def test_a_player_sees_their_table_their_opponent_and_the_report_waiting_for_them(duel, organiser):
    from accounts.selectors import player_table
    from tournaments import selectors

    event, a, b, pa, pb = duel
    player_b = selectors.player_of(b)
    table = player_table(event=event, player=player_b)
    assert (table.round_number, table.table_number) == (1, 1)
    assert [o.player_id for o in table.opponents] == [pa]
    assert table.goes_first == (table.seat == 1)
    assert table.report_status is None and not table.reported
    results.result_player_report(event=event, round_number=1, table_number=1, placements={pa: 1, pb: 2}, by=a)
    table = player_table(event=event, player=player_b)
    assert table.report_status == "pending" and not table.reported_by_me and not table.answered
    assert table.report_placements == {pa: 1, pb: 2}
    round_ = event.rounds.get(number=1)
    assert list(selectors.open_reports(round_=round_).values())[0].player_id == pa
    assert list(selectors.tables_to_settle(event=event)) == [round_.pods.get(table_number=1)]
    results.result_respond(event=event, round_number=1, table_number=1, agrees=True, by=b)
    history = selectors.player_history(event=event, player=player_b)
    assert [(h.round_number, h.placement, h.points) for h in history] == [(1, 2, 0)]
    mine = selectors.player_events(player=player_b)
    assert [r.event_id for r in mine.running] == [event.pk] and not mine.upcoming and not mine.past
