"""Penalties through the services: who may give and rescind them, what they refuse, what a disqualification
drops, and the audit trail of both."""

from __future__ import annotations

import pytest

from core.exceptions import ApplicationError, Conflict, PermissionDenied
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import AuditEntry, Penalty, Registration, Standing
from tournaments.selectors import people
from tournaments.services import registrations, staff

pytestmark = pytest.mark.django_db

ROLES = {"cora": "co_organiser", "sam": "scorekeeper", "jo": "judge", "cass": "caster"}


@pytest.fixture
def crew(django_user_model, organiser):
    """The organiser and one account per staff role, by the role's name."""
    people_ = {"organiser": organiser}
    for username, role in ROLES.items():
        people_[role] = django_user_model.objects.create_user(username=username, password="pw")
    return people_


@pytest.fixture
def running(crew):
    """A Deck Masters event with six players and its staff, round 1 reported and round 2 paired."""
    event = make_event(crew["organiser"], 6, rounds=3)
    for username, role in ROLES.items():
        staff.staff_add(event=event, username=username, role=role, by=crew["organiser"])
    services.round_start(event=event, by=crew["organiser"], seed=1)
    report_all(event, crew["organiser"])
    services.round_start(event=event, by=crew["organiser"], seed=2)
    return event


def first(event) -> Registration:
    return event.registrations.select_related("player").order_by("id").first()


def give(event, by, *, registration=None, penalty="warning", infraction="Drawing extra cards", **extra) -> Penalty:
    registration = registration or first(event)
    return services.penalty_issue(
        event=event, registration_id=registration.pk, penalty=penalty, infraction=infraction, by=by, **extra
    )


def entries(event, prefix: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(event=event, action__startswith=prefix).order_by("created_at", "id"))


# --- who may --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "allowed"),
    [("organiser", True), ("co_organiser", True), ("judge", True), ("scorekeeper", False), ("caster", False)],
)
def test_organisers_and_judges_give_and_rescind_penalties_and_other_staff_may_not(crew, running, role, allowed):
    if not allowed:
        with pytest.raises(PermissionDenied):
            give(running, crew[role])
        given = give(running, crew["judge"])
        with pytest.raises(PermissionDenied):
            services.penalty_rescind(penalty=given, by=crew[role], reason="Misheard.")
        assert not Penalty.objects.get(pk=given.pk).rescinded
        return
    given = give(running, crew[role])
    assert given.issued_by == crew[role]
    rescinded = services.penalty_rescind(penalty=given, by=crew[role], reason="Misheard.")
    assert rescinded.rescinded_by == crew[role]


def test_a_player_or_a_stranger_may_not_give_a_penalty(running, outsider, django_user_model):
    player_user = django_user_model.objects.create_user(username="pat", password="pw")
    registration = first(running)
    registration.player.user = player_user
    registration.player.save(update_fields=["user"])
    for who in (outsider, player_user, None):
        with pytest.raises(PermissionDenied):
            give(running, who)
    assert not Penalty.objects.exists()


# --- giving ---------------------------------------------------------------------------------------


def test_a_penalty_is_given_in_the_current_round_by_default_and_audited_with_what_it_says(crew, running):
    registration = first(running)
    given = give(running, crew["judge"], registration=registration, note="  Drew 2 with a 1-card effect. ")
    assert (given.round_number, given.penalty, given.infraction) == (2, "warning", "Drawing extra cards")
    assert given.note == "Drew 2 with a 1-card effect."
    assert given.registration == registration and given.event == running and not given.rescinded
    [entry] = entries(running, "penalty.")
    assert entry.action == "penalty.issued" and entry.actor == crew["judge"]
    assert entry.subject == f"{registration.player.display_name} (#{registration.player_id})"
    assert entry.before is None
    assert entry.after == {
        "id": given.pk, "penalty": "warning", "infraction": "Drawing extra cards", "round": 2,
        "note": "Drew 2 with a 1-card effect.", "rescinded": False,
    }  # fmt: skip


def test_a_penalty_may_name_an_earlier_round_but_not_one_not_paired(crew, running):
    assert give(running, crew["judge"], round_number=1).round_number == 1
    for number in (3, 0, -1):
        with pytest.raises(ApplicationError) as refused:
            give(running, crew["judge"], round_number=number)
        assert refused.value.field == "round" and refused.value.code == "invalid"
        assert "rounds 1 to 2 are paired" in refused.value.message


def test_before_round_1_a_penalty_has_no_round(crew):
    event = make_event(crew["organiser"], 4)
    staff.staff_add(event=event, username="jo", role="judge", by=crew["organiser"])
    assert give(event, crew["judge"], penalty="game_loss", infraction="Decklist error").round_number is None
    with pytest.raises(ApplicationError) as refused:
        give(event, crew["judge"], round_number=1)
    assert "no round is paired yet" in refused.value.message


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"penalty": "yellow_card"}, "penalty"),
        ({"penalty": ""}, "penalty"),
        ({"infraction": "   "}, "infraction"),
        ({"infraction": "x" * 201}, "infraction"),
        ({"note": "x" * 2001}, "note"),
    ],
)
def test_a_penalty_needs_a_kind_of_the_ladder_and_an_infraction(crew, running, changes, field):
    with pytest.raises(ApplicationError) as refused:
        give(running, crew["judge"], **changes)
    assert refused.value.field == field and refused.value.status_code == 400
    assert not Penalty.objects.exists() and not entries(running, "penalty.")


def test_a_player_on_the_waiting_list_withdrawn_or_at_another_event_is_not_penalised(crew, running):
    waiting = RegistrationFactory(event=running, status=Registration.Status.WAITLISTED, checked_in=False)
    withdrawn = RegistrationFactory(event=running, status=Registration.Status.WITHDRAWN, checked_in=False)
    for registration in (waiting, withdrawn):
        with pytest.raises(Conflict) as refused:
            give(running, crew["judge"], registration=registration)
        assert refused.value.code == "not_registered" and refused.value.field == "registration"
    elsewhere = RegistrationFactory(player=PlayerFactory())
    with pytest.raises(ApplicationError) as unknown:
        give(running, crew["judge"], registration=elsewhere)
    assert unknown.value.field == "registration" and unknown.value.code == "invalid"
    assert not Penalty.objects.exists()


def test_a_dropped_player_may_still_be_penalised(crew, running):
    registration = first(running)
    services.registration_drop(registration=registration, by=crew["organiser"])
    assert give(running, crew["judge"], registration=registration).penalty == "warning"


def test_nothing_is_given_or_rescinded_once_the_event_is_finished(crew, running):
    given = give(running, crew["judge"])
    report_all(running, crew["organiser"])
    services.event_finish(event=running, by=crew["organiser"])
    for who in (crew["judge"], crew["organiser"]):
        with pytest.raises(Conflict) as refused:
            give(running, who)
        assert refused.value.code == "event_finished"
        with pytest.raises(Conflict) as refused:
            services.penalty_rescind(penalty=given, by=who, reason="Too late?")
        assert refused.value.code == "event_finished"
    assert Penalty.objects.count() == 1 and not Penalty.objects.get().rescinded


# --- disqualification -----------------------------------------------------------------------------


def test_a_disqualification_drops_the_player_through_the_drop_and_the_standings_follow(
    crew, running, django_capture_on_commit_callbacks
):
    registration = first(running)
    running.refresh_from_db()
    version = running.results_version
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        give(running, crew["judge"], registration=registration, penalty="disqualification", infraction="Marked cards")
    assert callbacks  # the standings are asked for after commit
    registration.refresh_from_db()
    running.refresh_from_db()
    assert registration.dropped and registration.dropped_after_round == 2
    assert running.results_version == version + 1
    issued, dropped = entries(running, "penalty.") + entries(running, "registration.dropped")
    assert issued.action == "penalty.issued" and issued.after["penalty"] == "disqualification"
    assert dropped.actor == crew["judge"] and dropped.reason == "Disqualified: Marked cards"
    assert dropped.before["dropped"] is False and dropped.after["dropped"] is True
    assert Standing.objects.get(event=running, player=registration.player).dropped
    report_all(running, crew["organiser"])
    round3 = services.round_start(event=running, by=crew["organiser"], seed=3)
    assert not round3.seats.filter(player=registration.player).exists()


def test_disqualifying_a_player_who_dropped_records_the_penalty_and_drops_nothing_again(crew, running):
    registration = first(running)
    registrations.registration_drop(registration=registration, by=crew["organiser"])
    give(running, crew["judge"], registration=registration, penalty="disqualification", infraction="Collusion")
    assert len(entries(running, "registration.dropped")) == 1
    assert Penalty.objects.get().penalty == "disqualification"


def test_a_disqualification_before_round_1_drops_the_player_before_play(crew):
    event = make_event(crew["organiser"], 4)
    staff.staff_add(event=event, username="jo", role="judge", by=crew["organiser"])
    registration = first(event)
    give(event, crew["judge"], registration=registration, penalty="disqualification", infraction="Fake decklist")
    registration.refresh_from_db()
    assert registration.dropped and registration.dropped_after_round == 0
    round1 = services.round_start(event=event, by=crew["organiser"], seed=1)
    assert not round1.seats.filter(player=registration.player).exists()


def test_a_game_loss_or_a_match_loss_is_recorded_and_leaves_the_results_to_the_staff(crew, running):
    running.refresh_from_db()
    version = running.results_version
    for penalty in ("caution", "prize_penalty", "game_loss", "match_loss"):
        give(running, crew["judge"], penalty=penalty)
    running.refresh_from_db()
    assert running.results_version == version
    assert not first(running).dropped


# --- rescinding -----------------------------------------------------------------------------------


def test_rescinding_keeps_the_penalty_marked_and_audits_it_with_the_reason(crew, running):
    given = give(running, crew["judge"])
    rescinded = services.penalty_rescind(penalty=given, by=crew["organiser"], reason="  Wrong player.  ")
    assert Penalty.objects.filter(pk=given.pk).exists()
    rescinded.refresh_from_db()
    assert rescinded.rescinded and rescinded.rescind_reason == "Wrong player."
    assert rescinded.rescinded_by == crew["organiser"] and rescinded.rescinded_at is not None
    issued, entry = entries(running, "penalty.")
    assert entry.action == "penalty.rescinded" and entry.reason == "Wrong player."
    assert entry.before == issued.after
    assert entry.after == {**issued.after, "rescinded": True}


def test_rescinding_twice_is_refused_and_a_rescind_needs_a_reason(crew, running):
    given = give(running, crew["judge"])
    with pytest.raises(ApplicationError) as no_reason:
        services.penalty_rescind(penalty=given, by=crew["judge"], reason="  ")
    assert no_reason.value.field == "reason"
    services.penalty_rescind(penalty=given, by=crew["judge"], reason="Misheard.")
    with pytest.raises(Conflict) as twice:
        services.penalty_rescind(penalty=given, by=crew["judge"], reason="Again.")
    assert twice.value.code == "already_rescinded"
    assert len(entries(running, "penalty.rescinded")) == 1


def test_a_rescinded_disqualification_leaves_the_player_dropped_for_the_staff_to_undo(crew, running):
    registration = first(running)
    given = give(running, crew["judge"], registration=registration, penalty="disqualification", infraction="Cheating")
    services.penalty_rescind(penalty=given, by=crew["judge"], reason="Another player did it.")
    registration.refresh_from_db()
    assert registration.dropped
    registrations.registration_undrop(registration=registration, by=crew["scorekeeper"], reason="DQ rescinded.")
    registration.refresh_from_db()
    assert not registration.dropped


# --- reading --------------------------------------------------------------------------------------


def test_the_events_penalties_come_newest_first_and_a_players_own_by_event(crew, running, django_assert_num_queries):
    one, two = list(running.registrations.order_by("id")[:2])
    a = give(running, crew["judge"], registration=one)
    b = give(running, crew["judge"], registration=two, penalty="caution", infraction="Slow play")
    c = give(running, crew["judge"], registration=one, penalty="game_loss", infraction="Marked sleeves")
    other = make_event(crew["organiser"], 0)
    RegistrationFactory(event=other, player=one.player)
    d = give(other, crew["organiser"], registration=other.registrations.get())
    with django_assert_num_queries(1):
        listed = list(people.event_penalties(event=running))
        assert [p.pk for p in listed] == [c.pk, b.pk, a.pk]
        assert listed[0].registration.player.display_name and listed[0].issued_by.username == "jo"
    with django_assert_num_queries(1):
        mine = people.player_penalties(player=one.player, event_ids=[running.pk, other.pk])
    assert {event: [p.pk for p in ps] for event, ps in mine.items()} == {running.pk: [c.pk, a.pk], other.pk: [d.pk]}
    assert people.player_penalties(player=two.player, event_ids=[other.pk]) == {}


def test_the_audit_trail_has_a_kind_for_penalties(crew, running):
    given = give(running, crew["judge"])
    services.penalty_rescind(penalty=given, by=crew["judge"], reason="Misheard.")
    kinds = [e.action for e in people.event_audit_of_kind(event=running, kind="penalties")]
    assert kinds == ["penalty.rescinded", "penalty.issued"]
