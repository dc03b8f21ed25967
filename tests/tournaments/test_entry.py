"""Scarce places and fees (:mod:`tournaments.services.entry`): the lottery, priority windows, the overlap warning and
the entry fee's paid state, through the services.

Players here register themselves (accounts of their own); the organiser's walk-ins take places before the draw.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.exceptions import ApplicationError, Conflict, PermissionDenied
from leagues.models import SeasonStanding
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event
from tests.support.leagues import make_league
from tournaments import lottery, services
from tournaments.models import AuditEntry, Event, Registration
from tournaments.selectors import people as people_selectors
from tournaments.services import entry, registrations

pytestmark = pytest.mark.django_db


def players_with_accounts(django_user_model, n: int, prefix: str = "fan") -> list:
    users = [django_user_model.objects.create_user(username=f"{prefix}{i}", password="pw") for i in range(n)]
    for user in users:
        PlayerFactory(user=user, display_name=user.username.title())
    return users


def lottery_event(organiser, *, capacity: int = 3, walk_ins: int = 0, **changes) -> Event:
    event = make_event(organiser, walk_ins)
    return services.event_update(
        event=event, by=organiser, capacity=capacity, lottery=True, registration_open=True, **changes
    )


def apply_all(event: Event, users) -> list[Registration]:
    return [registrations.registration_self_register(event=event, by=u) for u in users]


def trail(event: Event, action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(event=event, action=action).order_by("id"))


# --- the lottery ---------------------------------------------------------------------------------------------


def test_players_apply_while_the_lottery_takes_applications_whatever_the_capacity(organiser, django_user_model):
    event = lottery_event(organiser, capacity=2)
    applied = apply_all(event, players_with_accounts(django_user_model, 4))

    assert [r.status for r in applied] == ["applied"] * 4
    assert [e.action for e in AuditEntry.objects.filter(event=event, action__startswith="registration.")] == [
        "registration.applied"
    ] * 4


def test_the_draw_fills_the_places_left_and_puts_the_rest_on_the_waiting_list_in_drawn_order(
    organiser, django_user_model
):
    event = lottery_event(organiser, capacity=4, walk_ins=1)
    applied = apply_all(event, players_with_accounts(django_user_model, 6))

    outcome = entry.lottery_draw(event=event, by=organiser, seed=2026)

    expected = lottery.draw([r.player_id for r in applied], seed=2026, places=3)
    assert [r.player_id for r in outcome.winners] == list(expected.winners)
    assert [r.player_id for r in people_selectors.waiting_list(event=event)] == list(expected.waiting)
    assert [r.lottery_rank for r in outcome.winners + outcome.waiting] == list(range(1, 7))
    assert Registration.objects.filter(event=event, status="registered").count() == 4
    event.refresh_from_db()
    assert (event.lottery_seed, event.lottery_drawn_at is not None, event.takes_applications) == (2026, True, False)
    [drawn] = trail(event, "lottery.drawn")
    assert drawn.after["seed"] == 2026 and len(drawn.after["winners"]) == 3 and len(drawn.after["waiting"]) == 3
    assert drawn.actor == organiser


def test_a_withdrawal_after_the_draw_promotes_the_first_player_drawn_after_the_winners(organiser, django_user_model):
    event = lottery_event(organiser, capacity=2)
    apply_all(event, players_with_accounts(django_user_model, 5))
    outcome = entry.lottery_draw(event=event, by=organiser, seed=7)

    registrations.registration_withdraw(registration=outcome.winners[0], by=organiser)

    promoted = Registration.objects.get(pk=outcome.waiting[0].pk)
    assert promoted.status == "registered"
    assert [r.pk for r in people_selectors.waiting_list(event=event)] == [r.pk for r in outcome.waiting[1:]]


def test_drawing_twice_is_refused_and_changes_nothing(organiser, django_user_model):
    event = lottery_event(organiser)
    apply_all(event, players_with_accounts(django_user_model, 4))
    entry.lottery_draw(event=event, by=organiser, seed=1)

    with pytest.raises(Conflict) as refused:
        entry.lottery_draw(event=event, by=organiser, seed=2)
    assert refused.value.code == "lottery_drawn" and "seed 1" in refused.value.message
    event.refresh_from_db()
    assert event.lottery_seed == 1 and len(trail(event, "lottery.drawn")) == 1


def test_after_the_draw_registering_is_first_come_first_served_again(organiser, django_user_model):
    event = lottery_event(organiser, capacity=1)
    first, late = players_with_accounts(django_user_model, 2)
    apply_all(event, [first])
    entry.lottery_draw(event=event, by=organiser)

    assert registrations.registration_self_register(event=event, by=late).status == "waitlisted"


def test_only_the_organisers_draw_and_only_an_event_with_a_lottery(organiser, outsider, django_user_model):
    event = lottery_event(organiser)
    with pytest.raises(PermissionDenied):
        entry.lottery_draw(event=event, by=outsider)
    plain = make_event(organiser, 0)
    with pytest.raises(Conflict) as refused:
        entry.lottery_draw(event=plain, by=organiser)
    assert refused.value.code == "no_lottery"


def test_a_lottery_needs_a_capacity_and_stays_once_drawn(organiser, django_user_model):
    event = make_event(organiser, 0)
    with pytest.raises(ApplicationError) as refused:
        services.event_update(event=event, by=organiser, lottery=True)
    assert refused.value.field == "lottery"
    event = lottery_event(organiser)
    apply_all(event, players_with_accounts(django_user_model, 1))
    with pytest.raises(ApplicationError) as refused:
        services.event_update(event=event, by=organiser, lottery=False)
    assert refused.value.field == "lottery"
    entry.lottery_draw(event=event, by=organiser)
    with pytest.raises(Conflict) as refused:
        services.event_update(event=event, by=organiser, lottery=False)
    assert refused.value.code == "lottery_drawn"


def test_the_sweep_draws_the_lotteries_whose_time_has_come_once(organiser, django_user_model):
    now = timezone.now()
    due = lottery_event(organiser, lottery_draw_at=now - datetime.timedelta(minutes=1))
    later = lottery_event(organiser, lottery_draw_at=now + datetime.timedelta(hours=1))
    apply_all(due, players_with_accounts(django_user_model, 2))

    assert entry.lotteries_draw_due(now=now) == 1
    assert entry.lotteries_draw_due(now=now) == 0
    due.refresh_from_db()
    later.refresh_from_db()
    assert due.lottery_drawn_at is not None and later.lottery_drawn_at is None
    assert trail(due, "lottery.drawn")[0].actor is None


def test_the_beat_task_draws_through_the_same_sweep(organiser, django_user_model):
    from tournaments import tasks

    event = lottery_event(organiser, lottery_draw_at=timezone.now() - datetime.timedelta(seconds=1))
    assert tasks.sweep_lottery_draws() == 1
    event.refresh_from_db()
    assert event.lottery_seed is not None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    applicants=st.integers(min_value=0, max_value=7),
    capacity=st.integers(min_value=1, max_value=6),
    walk_ins=st.integers(min_value=0, max_value=3),
    seed=st.integers(min_value=0, max_value=lottery.SEED_LIMIT - 1),
)
def test_a_stored_draw_is_the_engines_draw_of_its_applicants_and_seed_and_never_overfills(
    organiser, applicants, capacity, walk_ins, seed
):
    event = lottery_event(organiser, capacity=capacity, walk_ins=walk_ins)
    applied = [
        Registration.objects.create(event=event, player=PlayerFactory(), status="applied", self_registered=True)
        for _ in range(applicants)
    ]

    outcome = entry.lottery_draw(event=event, by=organiser, seed=seed)

    again = lottery.draw([r.player_id for r in applied], seed=seed, places=max(0, capacity - walk_ins))
    assert tuple(r.player_id for r in outcome.winners) == again.winners
    assert tuple(r.player_id for r in people_selectors.waiting_list(event=event)) == again.waiting
    in_event = Registration.objects.filter(event=event, status="registered").count()
    assert in_event == walk_ins + min(applicants, max(0, capacity - walk_ins)) <= max(capacity, walk_ins)
    assert not Registration.objects.filter(event=event, status="applied").exists()


# --- priority windows ------------------------------------------------------------------------------------------


@pytest.fixture
def windowed(organiser):
    """Registration opens to everyone in two days, to priority players now (an hour ago)."""
    now = timezone.now()
    event = make_event(organiser, 0)
    return services.event_update(
        event=event, by=organiser, registration_open=True,
        registration_opens_at=now + datetime.timedelta(days=2), priority_opens_at=now - datetime.timedelta(hours=1),
    )  # fmt: skip


def test_before_their_window_a_player_is_told_when_registration_opens(windowed, django_user_model):
    [fan] = players_with_accounts(django_user_model, 1)
    with pytest.raises(Conflict) as refused:
        registrations.registration_self_register(event=windowed, by=fan)
    assert refused.value.code == "registration_not_yet_open"
    assert "opens for everyone on" in refused.value.message and "priority players" in refused.value.message
    assert not Registration.objects.filter(event=windowed).exists()


def test_a_player_with_an_earned_invite_registers_in_the_priority_window(organiser, windowed, django_user_model):
    [invited] = players_with_accounts(django_user_model, 1)
    services.event_update(event=windowed, by=organiser, priority_players=[invited.player.pk])

    assert registrations.registration_self_register(event=windowed, by=invited).status == "registered"
    [changed] = [e for e in AuditEntry.objects.filter(event=windowed, action="event.updated") if "priority_players"
                 in e.after]  # fmt: skip
    assert changed.after["priority_players"] == [invited.player.pk]


def test_league_points_in_the_named_season_open_the_priority_window(organiser, windowed, django_user_model):
    _, season = make_league(organiser)
    high, low = players_with_accounts(django_user_model, 2)
    for rank, (user, points) in enumerate([(high, 12), (low, 3)], start=1):
        SeasonStanding.objects.create(
            season=season, player=user.player, rank=rank, points=points, events_played=2, events_counted=2,
            average_placing=2.0, best_placing=1, version=1,
        )  # fmt: skip
    services.event_update(event=windowed, by=organiser, priority_season_id=season.pk, priority_min_points=10)

    assert registrations.registration_self_register(event=windowed, by=high).status == "registered"
    with pytest.raises(Conflict) as refused:
        registrations.registration_self_register(event=windowed, by=low)
    assert refused.value.code == "registration_not_yet_open"


def test_once_registration_opens_to_everyone_anyone_registers(organiser, windowed, django_user_model):
    services.event_update(event=windowed, by=organiser, registration_opens_at=timezone.now())
    [fan] = players_with_accounts(django_user_model, 1)
    assert registrations.registration_self_register(event=windowed, by=fan).status == "registered"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"priority_opens_at": timezone.now()}, "priority_opens_at"),
        ({"priority_season_id": 999999, "priority_min_points": 5}, "priority_season_id"),
        ({"priority_min_points": 5}, "priority_season_id"),
        ({"priority_players": [999999]}, "priority_players"),
        ({"entry_fee": Decimal("10.00")}, "fee_currency"),
        ({"entry_fee": Decimal("10.00"), "fee_currency": "euro"}, "fee_currency"),
        ({"checkout_url": "javascript:alert(1)"}, "checkout_url"),
        ({"entry_fee": Decimal("-1")}, "entry_fee"),
    ],
)
def test_settings_that_contradict_each_other_are_refused_with_the_field_named(organiser, changes, field):
    event = make_event(organiser, 0)
    with pytest.raises(ApplicationError) as refused:
        services.event_update(event=event, by=organiser, **changes)
    assert refused.value.field == field


# --- the overlap warning -----------------------------------------------------------------------------------------


def test_a_player_registered_for_another_event_that_day_is_warned_not_refused(organiser, django_user_model):
    [fan] = players_with_accounts(django_user_model, 1)
    morning = services.event_update(event=make_event(organiser, 0), by=organiser, registration_open=True)
    evening = services.event_update(event=make_event(organiser, 0), by=organiser, registration_open=True)
    other_day = services.event_create(
        organiser=organiser, name="Sunday", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 2)
    )
    registrations.registration_self_register(event=morning, by=fan)

    second = registrations.registration_self_register(event=evening, by=fan)
    staff_entered = services.registration_create(event=other_day, by=organiser, player=fan.player)

    warnings = people_selectors.entry_warnings(event=evening, registrations=[second])
    assert [(w.code, w.event) for w in warnings[second.pk]] == [("overlapping_event", morning.pk)]
    assert "League night" in warnings[second.pk][0].message
    assert people_selectors.entry_warnings(event=other_day, registrations=[staff_entered]) == {}


# --- the entry fee -----------------------------------------------------------------------------------------------


@pytest.fixture
def fee_event(organiser):
    event = make_event(organiser, 0)
    return services.event_update(
        event=event, by=organiser, entry_fee=Decimal("12.50"), fee_currency="eur",
        checkout_url="https://shop.example.org/night", unpaid_check_in=False, check_in_open=True,
    )  # fmt: skip


def test_staff_mark_a_fee_paid_and_unpaid_and_each_change_is_audited(organiser, fee_event):
    registration = RegistrationFactory(event=fee_event, checked_in=False)

    paid = entry.registration_mark_paid(registration=registration, by=organiser)
    assert paid.paid_at is not None and paid.paid_marked_by == organiser
    assert entry.registration_mark_paid(registration=registration, by=organiser).paid_at == paid.paid_at
    unpaid = entry.registration_mark_paid(registration=registration, by=organiser, paid=False)
    assert unpaid.paid_at is None and unpaid.paid_marked_by is None
    assert [e.action for e in AuditEntry.objects.filter(event=fee_event, action__startswith="registration.")
            .order_by("id")] == ["registration.paid", "registration.unpaid"]  # fmt: skip
    fee_event.refresh_from_db()
    assert fee_event.fee_currency == "EUR"


def test_an_unpaid_player_cannot_check_in_where_the_organiser_says_so(organiser, fee_event):
    registration = RegistrationFactory(event=fee_event, checked_in=False)
    with pytest.raises(Conflict) as refused:
        services.registration_check_in(registration=registration, by=organiser)
    assert refused.value.code == "entry_fee_unpaid" and "mark it paid first" in refused.value.message
    player = registration.player
    player.user = organiser.__class__.objects.create_user(username="payer", password="pw")
    player.save(update_fields=["user"])
    with pytest.raises(Conflict) as refused:
        services.registration_check_in(registration=registration, by=player.user)
    assert "Pay the entry fee at https://shop.example.org/night first" in refused.value.message

    entry.registration_mark_paid(registration=registration, by=organiser)
    assert services.registration_check_in(registration=registration, by=organiser).checked_in


def test_unpaid_players_check_in_where_the_organiser_allows_it(organiser, fee_event):
    services.event_update(event=fee_event, by=organiser, unpaid_check_in=True)
    registration = RegistrationFactory(event=fee_event, checked_in=False)
    assert services.registration_check_in(registration=registration, by=organiser).checked_in


def test_only_staff_who_handle_fees_mark_them(outsider, fee_event):
    registration = RegistrationFactory(event=fee_event, checked_in=False)
    with pytest.raises(PermissionDenied):
        entry.registration_mark_paid(registration=registration, by=outsider)
