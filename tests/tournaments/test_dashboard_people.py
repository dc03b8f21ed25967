"""The dashboard's people side: settings and windows, registrations, check-in, results, corrections, staff, audit.

Every page and action is tried by each role it concerns: the organiser, a
co-organiser, a scorekeeper, a judge, a caster and a plain player.  Refusals
come back as form errors at their place (422 for htmx, 400 for a whole page),
never as a 500; a page a role may not open is the 403 page.
"""

from __future__ import annotations

import datetime
import re

import pytest
import segno
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event, report_all
from tests.support.pages import url
from tests.support.people import ROLES, as_user, with_staff
from tournaments import policy, services
from tournaments.models import AuditEntry, Event, EventStaff, Player, PodResult, Registration, ResultReport, Seat
from tournaments.services import registrations, results

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def users(django_user_model, organiser):
    """The organiser, one account per staff role (by the role's name) and a plain player, ``pat``."""
    people = {"organiser": organiser}
    for username, role in ROLES.items():
        people[role] = django_user_model.objects.create_user(username=username, password="pw")
    people["player"] = django_user_model.objects.create_user(username="pat", password="pw")
    return people


@pytest.fixture
def duel(users) -> Event:
    """A Deck Masters event with six players (pat among them), its staff, player reports on and round 1 paired."""
    event = make_event(users["organiser"], 5, rounds=3)
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Pat", user=users["player"]))
    with_staff(event, users)
    services.event_update(event=event, by=users["organiser"], player_reports=True)
    services.round_start(event=event, by=users["organiser"], seed=3)
    return event


def seats_at(event: Event, table: int, number: int = 1) -> list[Seat]:
    return list(
        Seat.objects.filter(round__event=event, round__number=number, pod__table_number=table)
        .select_related("player", "pod")
        .order_by("seat_order")
    )


def account_for(django_user_model, player: Player, username: str):
    user = django_user_model.objects.create_user(username=username, password="pw")
    Player.objects.filter(pk=player.pk).update(user=user)
    return user


# --- who may open what -----------------------------------------------------------------------------


def test_a_plain_player_gets_the_403_page_on_every_dashboard_page_and_action(client, users, duel):
    reg = duel.registrations.first()
    pages = [
        url("event-detail", duel.pk), url("event-settings", duel.pk), url("event-staff", duel.pk),
        url("event-audit", duel.pk), url("round-detail", duel.pk, 1), url("result-correct", duel.pk, 1, 1),
        url("event-finish", duel.pk), url("event-standings", duel.pk),
    ]  # fmt: skip
    actions = [
        url("registration-add", duel.pk), url("registration-undrop", duel.pk, reg.pk),
        url("registration-claim-code", duel.pk, reg.pk), url("registration-withdraw", duel.pk, reg.pk),
        url("event-check-in-window", duel.pk), url("event-staff-remove", duel.pk), url("round-start", duel.pk),
        url("result-report", duel.pk, 1, 1),
    ]  # fmt: skip
    as_user(client, users["player"])
    for page in pages:
        response = client.get(page)
        assert response.status_code == 403, page
        assert "You can't open this page" in response.content.decode()
    for action in actions:
        assert client.post(action, {"reason": "x", "username": "jo"}).status_code == 403, action
    assert not Registration.objects.filter(event=duel, dropped=True).exists()


@pytest.mark.parametrize(
    ("role", "allowed"),
    [
        ("organiser", {"settings", "staff", "audit", "correct", "round"}),
        ("co_organiser", {"settings", "staff", "audit", "correct", "round"}),
        ("scorekeeper", {"audit", "correct", "round"}),
        ("judge", {"audit", "round"}),
        ("caster", {"round"}),
    ],
)
def test_each_role_opens_the_pages_the_policy_gives_it(client, users, duel, role, allowed):
    report_all(duel, users["organiser"])
    services.round_start(event=duel, by=users["organiser"], seed=4)
    pages = {
        "settings": url("event-settings", duel.pk),
        "staff": url("event-staff", duel.pk),
        "audit": url("event-audit", duel.pk),
        "correct": url("result-correct", duel.pk, 1, 1),
        "round": url("round-detail", duel.pk, 1),
    }
    as_user(client, users[role])
    assert client.get(url("event-detail", duel.pk)).status_code == 200
    for name, page in pages.items():
        assert client.get(page).status_code == (200 if name in allowed else 403), (role, name)


def test_a_judge_sees_the_tables_consoles_and_settling_but_no_organiser_controls(client, users, duel):
    html = as_user(client, users["judge"]).get(url("event-detail", duel.pk)).content.decode()
    assert "Record game" in html
    for control in ("Start round", "Finish event", ">Settings<", "Register</button>", ">drop<", "Change this round"):
        assert control not in html, control
    assert 'name="outcome"' not in html  # no table waits for a settlement yet: nothing to enter
    assert f'href="{url("event-audit", duel.pk)}"' in html
    # Pairing and registrations are refused with the 403 page, not done.
    assert client.post(url("round-start", duel.pk)).status_code == 403
    reg = duel.registrations.first()
    assert client.post(url("registration-drop", duel.pk, reg.pk)).status_code == 403
    assert not Registration.objects.filter(event=duel, dropped=True).exists()


def test_a_scorekeeper_pairs_and_enters_results_but_has_no_settings_staff_or_decks(client, users, duel):
    html = as_user(client, users["scorekeeper"]).get(url("event-detail", duel.pk)).content.decode()
    assert 'name="outcome"' in html and "Register</button>" in html and ">drop<" in html
    assert "Record game" not in html  # the judge console is for judges and organisers
    for link in (
        url("event-settings", duel.pk),
        url("event-staff", duel.pk),
        reverse("decks:organiser", args=[duel.pk]),
        reverse("leagues:archetypes", args=[duel.pk]),
    ):
        assert f'href="{link}"' not in html, link
    assert "Finish event" not in html
    a, b = seats_at(duel, 1)
    response = client.post(url("result-report", duel.pk, 1, 1), {"outcome": "first"}, **HTMX)
    assert response.status_code == 200 and "reported" in response.content.decode()


def test_a_caster_sees_the_dashboard_read_only_and_decklists_only_when_allowed(client, users, duel):
    html = as_user(client, users["caster"]).get(url("event-detail", duel.pk)).content.decode()
    assert "Table 1" in html
    for control in ('name="outcome"', "Record game", "Register</button>", "Start round", ">Audit trail<"):
        assert control not in html, control
    reg = duel.registrations.first()
    assert reverse("decks:decklist", args=[duel.pk, reg.pk]) not in html
    services.event_update(event=duel, by=users["organiser"], casters_see_decklists=True)
    html = client.get(url("event-detail", duel.pk)).content.decode()
    assert reverse("decks:decklist", args=[duel.pk, reg.pk]) in html


# --- settings ----------------------------------------------------------------------------------------


def settings_data(event: Event, **changes) -> dict:
    data = {"name": event.name, "planned_rounds": event.planned_rounds, "date": "2026-12-01", "venue": ""}
    data.update(tiebreakers=event.tiebreakers, magic_floor=event.magic_floor)
    return data | changes


def test_the_settings_page_opens_registration_with_a_deadline_and_a_capacity(client, users):
    event = make_event(users["organiser"], 2)
    as_user(client, users["organiser"])
    page = client.get(url("event-settings", event.pk)).content.decode()
    for label in ("Registration open", "Registration deadline", "Capacity", "Check-in open", "Players report results",
                  "Casters may see decklists before they are published", "33% floor (Magic tiebreakers)"):  # fmt: skip
        assert label in page, label
    data = settings_data(
        event, registration_open="on", registration_deadline="2026-11-30T18:30", capacity="16", check_in_open="on",
        player_reports="on", casters_see_decklists="on", tiebreakers="magic", magic_floor="1/3",
    )  # fmt: skip
    assert client.post(url("event-settings", event.pk), data).status_code == 302
    event.refresh_from_db()
    assert event.registration_open and event.check_in_open and event.player_reports and event.casters_see_decklists
    assert event.capacity == 16 and (event.tiebreakers, event.magic_floor) == ("magic", "1/3")
    deadline = timezone.localtime(event.registration_deadline)
    assert (deadline.date(), deadline.hour, deadline.minute) == (datetime.date(2026, 11, 30), 18, 30)
    # The form shows the deadline back as the field's value, and unticking a box turns the setting off.
    assert 'value="2026-11-30T18:30"' in client.get(url("event-settings", event.pk)).content.decode()
    client.post(url("event-settings", event.pk), settings_data(event, capacity="16"))
    event.refresh_from_db()
    assert not event.registration_open and not event.player_reports and event.registration_deadline is None
    entry = AuditEntry.objects.filter(event=event, action="event.updated").order_by("-id").first()
    assert entry.before["player_reports"] is True and entry.after["player_reports"] is False


def test_a_capacity_below_one_is_a_form_error_at_its_field(client, users):
    event = make_event(users["organiser"], 2)
    response = as_user(client, users["organiser"]).post(
        url("event-settings", event.pk), settings_data(event, capacity="0")
    )
    html = response.content.decode()
    assert response.status_code == 400
    capacity = html[html.index('for="id_capacity"') :]
    assert "Ensure this value is greater than or equal to 1." in capacity[: capacity.index('class="field')]
    event.refresh_from_db()
    assert event.capacity is None


def test_a_larger_capacity_promotes_the_waiting_list(client, users, django_user_model):
    event = make_event(users["organiser"], 1)
    services.event_update(event=event, by=users["organiser"], registration_open=True, capacity=1)
    waiting = registrations.registration_self_register(event=event, by=django_user_model.objects.create_user("w1"))
    assert waiting.status == Registration.Status.WAITLISTED
    as_user(client, users["organiser"]).post(url("event-settings", event.pk), settings_data(event, capacity="2"))
    waiting.refresh_from_db()
    assert waiting.status == Registration.Status.REGISTERED


# --- check-in ------------------------------------------------------------------------------------------


def test_while_check_in_is_open_the_dashboard_shows_a_qr_code_of_the_check_in_page(client, users):
    event = make_event(users["organiser"], 2)
    as_user(client, users["organiser"])
    page = client.get(url("event-detail", event.pk)).content.decode()
    assert "<svg" not in page and "Open check-in" in page
    response = client.post(url("event-check-in-window", event.pk), {"open": "true"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.check_in_open
    page = client.get(url("event-detail", event.pk)).content.decode()
    check_in = f"http://testserver/events/{event.pk}/check-in/"
    assert f'<a href="{check_in}">{check_in}</a>' in page  # the link, written out beside the code
    # The inline SVG is the QR code of exactly that address (same modules as segno draws for it).
    expected = segno.make_qr(check_in, error="m").svg_inline(
        scale=4, dark="#1d2330", light="#ffffff", svgclass="qr-svg"
    )
    assert re.search(r' d="([^"]+)"', expected).group(1) in page
    assert 'role="img" aria-label="QR code of the check-in page"' in page
    client.post(url("event-check-in-window", event.pk), {"open": "false"})
    assert "<svg" not in client.get(url("event-detail", event.pk)).content.decode()


def test_only_the_organisers_open_check_in_but_staff_see_the_code(client, users):
    event = with_staff(make_event(users["organiser"], 2), users)
    services.event_update(event=event, by=users["organiser"], check_in_open=True)
    as_user(client, users["scorekeeper"])
    assert "<svg" in client.get(url("event-detail", event.pk)).content.decode()
    assert client.post(url("event-check-in-window", event.pk), {"open": "false"}).status_code == 403
    event.refresh_from_db()
    assert event.check_in_open


# --- registrations -----------------------------------------------------------------------------------


def test_the_players_card_tells_walk_ins_from_self_registrations_and_lists_the_waiting_list_in_order(
    client, users, django_user_model
):
    event = make_event(users["organiser"], 1)
    services.event_update(event=event, by=users["organiser"], registration_open=True, capacity=2)
    ann, ben, cat = (django_user_model.objects.create_user(n, first_name=n.title()) for n in ("ann", "ben", "cat"))
    for user in (ann, cat, ben):  # cat joins the waiting list before ben
        registrations.registration_self_register(event=event, by=user)
    gone = registrations.registration_self_register(event=event, by=django_user_model.objects.create_user("dan"))
    registrations.registration_withdraw(registration=gone, by=users["organiser"])
    html = as_user(client, users["organiser"]).get(url("event-detail", event.pk)).content.decode()
    assert "1 active of 2 · 2 waiting" in html  # the walk-in is checked in, ann not yet; dan withdrew
    rows = html[html.index('id="players-rows"') : html.index("Waiting list")]
    assert re.search(r"P00.*?walk-in", rows, re.S) and re.search(r"Ann.*?self-registered", rows, re.S)
    assert re.search(r"dan.*?withdrawn", rows, re.S)
    waiting = html[html.index("Waiting list") :]
    assert waiting.index("Cat") < waiting.index("Ben")
    assert "Place 1: </span>Cat" in waiting and "Place 2: </span>Ben" in waiting


def test_withdrawing_a_registered_player_moves_the_first_waiting_one_up(client, users, django_user_model):
    event = make_event(users["organiser"], 0)
    services.event_update(event=event, by=users["organiser"], registration_open=True, capacity=1)
    first = registrations.registration_self_register(event=event, by=django_user_model.objects.create_user("ann"))
    second = registrations.registration_self_register(event=event, by=django_user_model.objects.create_user("ben"))
    response = as_user(client, users["organiser"]).post(url("registration-withdraw", event.pk, first.pk))
    assert response.status_code == 302 and response["Location"].endswith("#players")
    assert Registration.objects.get(pk=first.pk).status == Registration.Status.WITHDRAWN
    assert Registration.objects.get(pk=second.pk).status == Registration.Status.REGISTERED


def test_namesakes_are_told_apart_by_player_id_on_the_dashboard(client, users):
    event = make_event(users["organiser"], 2)
    one, two = (RegistrationFactory(event=event, player=PlayerFactory(display_name="Ash")) for _ in range(2))
    services.round_start(event=event, by=users["organiser"], seed=1)
    report_all(event, users["organiser"])
    services.standings_recompute(event_id=event.pk)
    html = as_user(client, users["organiser"]).get(url("event-detail", event.pk)).content.decode()
    for reg in (one, two):
        assert f'Ash <span class="pid">(#{reg.player_id})</span>' in html  # rows and tables
        assert f'Ash <span class="muted">(#{reg.player_id})</span>' in html  # standings
    assert "P00 <span" not in html  # a name nobody shares stays as it is
    public = client.get(reverse("public:standings", args=[event.pk])).content.decode()
    assert f"(#{one.player_id})" in public and f"(#{two.player_id})" in public


def test_undoing_a_drop_needs_a_reason_said_at_the_row(client, users, duel):
    reg = duel.registrations.select_related("player").first()
    services.registration_drop(registration=reg, by=users["organiser"])
    as_user(client, users["organiser"])
    assert "undo drop" in client.get(url("event-detail", duel.pk)).content.decode()
    response = client.post(url("registration-undrop", duel.pk, reg.pk), {"reason": "  "}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert html.lstrip().startswith(f'<tr id="reg-{reg.pk}"')
    assert '<p class="error" role="alert">Say why the drop is undone.</p>' in html
    assert Registration.objects.get(pk=reg.pk).dropped
    response = client.post(url("registration-undrop", duel.pk, reg.pk), {"reason": "Dropped by mistake"}, **HTMX)
    assert response.status_code == 200 and "dropped after round" not in response.content.decode()
    assert not Registration.objects.get(pk=reg.pk).dropped
    entry = AuditEntry.objects.get(event=duel, action="registration.undropped")
    assert entry.reason == "Dropped by mistake" and entry.actor == users["organiser"]
    # Without JavaScript a refusal is a message on the dashboard.
    page = client.post(url("registration-undrop", duel.pk, reg.pk), {}, follow=True).content.decode()
    assert "msg-error" in page and "Say why the drop is undone." in page


def test_a_refused_row_action_is_said_in_the_row_not_lost(client, users, duel):
    reg = duel.registrations.first()
    services.registration_drop(registration=reg, by=users["organiser"])
    response = as_user(client, users["organiser"]).post(
        url("registration-check-in", duel.pk, reg.pk), {"checked_in": "true"}, **HTMX
    )
    assert response.status_code == 422
    assert "has dropped" in response.content.decode() and 'role="alert"' in response.content.decode()


def test_a_claim_code_for_a_walk_in_shows_the_code_and_the_claim_link(client, users, duel):
    reg = duel.registrations.exclude(player__user=users["player"]).select_related("player").first()
    as_user(client, users["organiser"])
    response = client.post(url("registration-claim-code", duel.pk, reg.pk), **HTMX)
    html = response.content.decode()
    code = Player.objects.get(pk=reg.player_id).claim_code
    assert response.status_code == 200 and code
    assert f"<code>{code}</code>" in html and f'href="http://testserver/claim/{code}/"' in html
    assert '<details class="row-tools" open>' in html  # the code is in view at once
    # The player with an account has nothing to claim.
    mine = duel.registrations.get(player__user=users["player"])
    page = client.get(url("event-detail", duel.pk)).content.decode()
    assert url("registration-claim-code", duel.pk, mine.pk) not in page
    response = client.post(url("registration-claim-code", duel.pk, mine.pk), **HTMX)
    assert response.status_code == 422 and "already linked to an account" in response.content.decode()
    # Without JavaScript the code and the link come as a message.
    page = client.post(url("registration-claim-code", duel.pk, reg.pk), follow=True).content.decode()
    code = Player.objects.get(pk=reg.player_id).claim_code
    assert f"Claim code: {code}. The player claims their record at http://testserver/claim/{code}/" in page


# --- results -----------------------------------------------------------------------------------------


def test_a_1v1_result_takes_an_optional_game_score(client, users, duel):
    a, b = seats_at(duel, 1)
    as_user(client, users["organiser"])
    page = client.get(url("event-detail", duel.pk)).content.decode()
    assert f'id="table{a.pod_id}_games_{a.player_id}"' in page and f"Games won by {a.player.display_name}" in page
    data = {"outcome": "second", f"games_{a.player_id}": "1", f"games_{b.player_id}": "2", "games_drawn": "0"}
    response = client.post(url("result-report", duel.pk, 1, 1), data, **HTMX)
    assert response.status_code == 200
    assert [(s.placement, s.games_won, s.games_lost, s.games_drawn) for s in seats_at(duel, 1)] == [
        (2, 1, 2, 0),
        (1, 2, 1, 0),
    ]
    assert '<span class="score" title="games won–lost">2–1</span>' in response.content.decode()
    # Without a game score the result is recorded without one.
    client.post(url("result-report", duel.pk, 1, 2), {"outcome": "draw"}, **HTMX)
    assert {s.games_won for s in seats_at(duel, 2)} == {None}


def test_the_dashboard_writes_game_scores_with_an_en_dash_as_every_page_does(client, users, duel):
    a, b = seats_at(duel, 1)
    c, d = seats_at(duel, 2)
    organiser = users["organiser"]
    services.pod_result_report(
        event=duel, round_number=1, table_number=1, placements={a.player_id: 1, b.player_id: 2}, by=organiser,
        games={a.player_id: (2, 1, 0), b.player_id: (1, 2, 0)},
    )  # fmt: skip
    services.pod_result_report(
        event=duel, round_number=1, table_number=2, placements={c.player_id: 1, d.player_id: 1}, by=organiser,
        games={c.player_id: (1, 1, 1), d.player_id: (1, 1, 1)},
    )  # fmt: skip
    page = as_user(client, organiser).get(url("event-detail", duel.pk)).content.decode()
    assert '<span class="score" title="games won–lost">2–1</span>' in page
    assert '<span class="score" title="games won–lost">1–2</span>' in page
    assert '<span class="score" title="games won–lost–drawn">1–1–1</span>' in page
    assert not re.search(r'class="score"[^>]*>\d+-\d', page)


def test_a_drawn_game_and_an_intentional_draw_are_different_results(client, users, duel):
    a, b = seats_at(duel, 1)
    as_user(client, users["organiser"])
    data = {"outcome": "draw", f"games_{a.player_id}": "1", f"games_{b.player_id}": "1", "games_drawn": "1"}
    client.post(url("result-report", duel.pk, 1, 1), data, **HTMX)
    assert [(s.placement, s.games_won, s.games_drawn) for s in seats_at(duel, 1)] == [(1, 1, 1), (1, 1, 1)]
    assert not PodResult.objects.get(pod=a.pod).intentional_draw
    response = client.post(url("result-report", duel.pk, 1, 2), {"outcome": "intentional_draw"}, **HTMX)
    c, d = seats_at(duel, 2)
    assert response.status_code == 200 and "Intentional draw." in response.content.decode()
    assert PodResult.objects.get(pod=c.pod).intentional_draw
    assert [(s.placement, s.games_won, s.games_lost, s.games_drawn) for s in (c, d)] == [(1, 0, 0, 0)] * 2


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"outcome": "first", "a": "0", "b": "2"}, "The game score and the placements disagree about who won"),
        ({"outcome": "first", "a": "3", "b": "0"}, "A match is won with 2 game win(s)"),
        ({"outcome": "first", "a": "-1"}, "Ensure this value is greater than or equal to 0."),
        ({"outcome": "intentional_draw", "a": "1", "b": "1"}, "An intentional draw is not played out"),
        ({"a": "2", "b": "0"}, "Choose who won, or a draw."),
    ],
)
def test_a_game_score_that_does_not_fit_is_refused_at_the_table(client, users, duel, data, message):
    a, b = seats_at(duel, 1)
    post = {"outcome": data.get("outcome", "")}
    post |= {f"games_{a.player_id}": data.get("a", ""), f"games_{b.player_id}": data.get("b", "")}
    response = as_user(client, users["organiser"]).post(url("result-report", duel.pk, 1, 1), post, **HTMX)
    html = response.content.decode()
    assert response.status_code == 422
    assert message in html and 'role="alert"' in html and f'id="table-{a.pod_id}"' in html
    assert not PodResult.objects.filter(pod=a.pod).exists()


def report_dispute(event: Event, django_user_model, table: int = 1):
    """Both players of the table report, each that they won: a dispute."""
    a, b = seats_at(event, table)
    ua = a.player.user or account_for(django_user_model, a.player, f"u{a.player_id}")
    ub = b.player.user or account_for(django_user_model, b.player, f"u{b.player_id}")
    results.result_player_report(
        event=event, round_number=1, table_number=table, by=ua, placements={a.player_id: 1, b.player_id: 2},
        games={a.player_id: (2, 1, 0), b.player_id: (1, 2, 0)},
    )  # fmt: skip
    results.result_player_report(
        event=event, round_number=1, table_number=table, by=ub, placements={a.player_id: 2, b.player_id: 1}
    )
    return a, b


def test_a_disputed_table_is_flagged_with_what_each_player_said(client, users, duel, django_user_model):
    a, b = report_dispute(duel, django_user_model)
    c, d = seats_at(duel, 2)
    results.result_player_report(
        event=duel, round_number=1, table_number=2, placements={c.player_id: 1, d.player_id: 2},
        by=c.player.user or account_for(django_user_model, c.player, "c2"),
    )  # fmt: skip
    html = as_user(client, users["scorekeeper"]).get(url("event-detail", duel.pk)).content.decode()
    assert "2 tables with a player report:" in html
    assert f'<a href="#table-{a.pod_id}">table 1</a> <span class="badge badge-disputed">disputed</span>' in html
    assert f'<a href="#table-{c.pod_id}">table 2</a> <span class="badge badge-pending">waiting for confirmation' in html
    an, bn = a.player.display_name, b.player.display_name
    assert f"<li>{an} reported: {an} won 2–1 against {bn}.</li>" in html
    assert f"<li>{bn} disputes it: {bn} won against {an}.</li>" in html
    assert f"<li>Waiting for {d.player.display_name} to confirm.</li>" in html
    card = html[html.index(f'id="table-{a.pod_id}"') :]
    assert 'class="table-card flagged"' in html and card.index('name="outcome"') < card.index('class="table-card')


def test_a_judge_settles_a_disputed_table_and_nothing_else(client, users, duel, django_user_model):
    a, b = report_dispute(duel, django_user_model)
    as_user(client, users["judge"])
    html = client.get(url("event-detail", duel.pk)).content.decode()
    c = seats_at(duel, 2)[0]
    assert f'hx-post="{url("result-report", duel.pk, 1, 1)}"' in html  # the disputed table takes a result
    assert f'hx-post="{url("result-report", duel.pk, 1, 2)}"' not in html  # the others don't
    refused = client.post(url("result-report", duel.pk, 1, 2), {"outcome": "first"}, **HTMX)
    assert refused.status_code == 422 and "Judges enter the result of a disputed or unconfirmed table only." in (
        refused.content.decode()
    )
    assert not PodResult.objects.filter(pod=c.pod).exists()
    data = {"outcome": "first", f"games_{a.player_id}": "2", f"games_{b.player_id}": "1"}
    response = client.post(url("result-report", duel.pk, 1, 1), data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "reported" in html
    assert '<div id="to-settle" hx-swap-oob="true"></div>' in html  # the flag is gone from the round
    assert ResultReport.objects.get(pod=a.pod).status == ResultReport.Status.SETTLED
    assert AuditEntry.objects.filter(event=duel, action="result.settled", actor=users["judge"]).exists()


def test_a_caster_cannot_settle_a_table(client, users, duel, django_user_model):
    report_dispute(duel, django_user_model)
    response = as_user(client, users["caster"]).post(url("result-report", duel.pk, 1, 1), {"outcome": "first"})
    assert response.status_code == 403


def test_staff_accept_a_report_the_walk_in_at_the_table_cannot_confirm(client, users, duel, django_user_model):
    pat = Seat.objects.select_related("pod").get(round__event=duel, round__number=1, player__user=users["player"])
    walk_in = next(s for s in seats_at(duel, pat.pod.table_number) if s.pk != pat.pk)
    assert walk_in.player.user_id is None
    table = pat.pod.table_number
    results.result_player_report(
        event=duel, round_number=1, table_number=table, by=users["player"],
        placements={pat.player_id: 1, walk_in.player_id: 2},
    )  # fmt: skip
    other = 1 if table != 1 else 2
    report_dispute(duel, django_user_model, table=other)  # a disputed table is settled by entering its result
    accept = url("result-report-accept", duel.pk, 1, table)

    html = as_user(client, users["judge"]).get(url("event-detail", duel.pk)).content.decode()
    assert f'hx-post="{accept}"' in html and "Accept this report" in html
    assert f'hx-post="{url("result-report-accept", duel.pk, 1, other)}"' not in html
    assert "can be accepted as it stands" in html
    assert as_user(client, users["caster"]).post(accept).status_code == 403
    assert as_user(client, users["player"]).post(accept).status_code == 403

    response = as_user(client, users["judge"]).post(accept, **HTMX)

    answer = response.content.decode()
    assert response.status_code == 200 and "reported" in answer and "Accept this report" not in answer
    result = PodResult.objects.get(pod=pat.pod)
    assert (result.source, result.reported_by) == (PodResult.Source.ACCEPTED, users["player"])
    assert AuditEntry.objects.filter(event=duel, action="result.confirmed", actor=users["judge"]).exists()
    again = as_user(client, users["organiser"]).post(accept, follow=True).content.decode()
    assert "already" in again and "msg-error" in again


# --- corrections ---------------------------------------------------------------------------------------


def played(event: Event, organiser, rounds: int) -> Event:
    for number in range(1, rounds + 1):
        if number > 1:
            services.round_start(event=event, by=organiser, seed=number)
        report_all(event, organiser)
    return event


def correct_data(a: Seat, b: Seat, **extra) -> dict:
    return {
        "outcome": "second",
        f"games_{a.player_id}": "0",
        f"games_{b.player_id}": "2",
        "reason": "Slip swapped",
    } | extra


def test_an_earlier_rounds_result_is_corrected_with_a_reason_and_later_rounds_stay_as_paired(client, users, duel):
    played(duel, users["organiser"], 2)
    services.round_start(event=duel, by=users["organiser"], seed=9)
    round_3 = sorted(Seat.objects.filter(round__event=duel, round__number=3).values_list("pk", "pod_id", "player_id"))
    a, b = seats_at(duel, 1)
    as_user(client, users["scorekeeper"])
    # The dashboard links every round; round 1 has its own page with a correction per table.
    dashboard = client.get(url("event-detail", duel.pk)).content.decode()
    assert f'href="{url("round-detail", duel.pk, 1)}"' in dashboard
    round_page = client.get(url("round-detail", duel.pk, 1)).content.decode()
    assert "Rounds 2 and 3 were paired after this round." in round_page
    assert f'href="{url("result-correct", duel.pk, 1, 1)}">Correct the result' in round_page
    page = client.get(url("result-correct", duel.pk, 1, 1)).content.decode()
    assert f"{a.player.display_name} won against {b.player.display_name}." in page
    assert "Rounds 2 and 3 were paired after this round and stay as paired." in page
    assert 'value="first" checked' in page

    response = client.post(url("result-correct", duel.pk, 1, 1), correct_data(a, b))
    assert response.status_code == 302 and response["Location"].endswith(f"#table-{a.pod_id}")
    assert [(s.placement, s.points, s.games_won) for s in seats_at(duel, 1)] == [(2, 0, 0), (1, 3, 2)]
    message = client.get(response["Location"]).content.decode()
    assert "Corrected Round 1, table 1. Rounds 2 and 3 were paired before the correction and stay as paired." in message
    assert sorted(Seat.objects.filter(round__event=duel, round__number=3).values_list("pk", "pod_id", "player_id")) == (
        round_3
    )
    entry = AuditEntry.objects.get(event=duel, action="result.corrected")
    assert entry.reason == "Slip swapped" and entry.actor == users["scorekeeper"]
    assert entry.after["rounds_paired_since"] == [2, 3]
    result = PodResult.objects.get(pod=a.pod)
    assert result.corrected_by == users["scorekeeper"]
    assert 'class="badge">corrected</span>' in client.get(url("round-detail", duel.pk, 1)).content.decode()


def test_a_correction_without_a_reason_is_a_form_error_at_the_reason(client, users, duel):
    played(duel, users["organiser"], 1)
    a, b = seats_at(duel, 1)
    response = as_user(client, users["organiser"]).post(
        url("result-correct", duel.pk, 1, 1), correct_data(a, b, reason="")
    )
    html = response.content.decode()
    assert response.status_code == 400
    reason = html[html.index('for="id_reason"') :]
    assert "Say why the result is corrected." in reason[: reason.index("</form>")]
    assert 'value="second" checked' in html  # what was chosen stays chosen
    assert seats_at(duel, 1)[0].placement == 1
    htmx = client.post(url("result-correct", duel.pk, 1, 1), correct_data(a, b, reason=""), **HTMX)
    assert htmx.status_code == 422


def test_a_refused_correction_is_said_where_it_belongs(client, users, duel):
    played(duel, users["organiser"], 1)
    a, b = seats_at(duel, 1)
    as_user(client, users["organiser"])
    response = client.post(url("result-correct", duel.pk, 1, 1), correct_data(a, b, **{f"games_{a.player_id}": "2"}))
    html = response.content.decode()
    assert response.status_code == 400
    games = html[html.index("Game score") :]
    assert "The game score and the placements disagree" in games[: games.index("</fieldset>")]
    response = client.post(url("result-correct", duel.pk, 1, 1), {"reason": "x"})
    assert response.status_code == 400 and "Choose who won, or a draw." in response.content.decode()


def test_after_the_finish_only_the_organiser_corrects_a_result(client, users, duel):
    played(duel, users["organiser"], 1)
    services.event_finish(event=duel, by=users["organiser"])
    a, b = seats_at(duel, 1)
    as_user(client, users["co_organiser"])
    page = client.get(url("event-detail", duel.pk)).content.decode()
    assert url("result-correct", duel.pk, 1, 1) not in page
    response = client.post(url("result-correct", duel.pk, 1, 1), correct_data(a, b))
    assert response.status_code == 400
    assert "The event is finished: only its organiser may correct a result." in response.content.decode()
    assert seats_at(duel, 1)[0].placement == 1
    as_user(client, users["organiser"])
    assert url("result-correct", duel.pk, 1, 1) in client.get(url("event-detail", duel.pk)).content.decode()
    assert client.post(url("result-correct", duel.pk, 1, 1), correct_data(a, b)).status_code == 302
    assert seats_at(duel, 1)[0].placement == 2


def test_a_table_without_a_result_has_nothing_to_correct(client, users, duel):
    response = as_user(client, users["organiser"]).get(url("result-correct", duel.pk, 1, 1), follow=True)
    assert "has no result to correct" in response.content.decode()


def test_a_pod_result_is_corrected_by_placements(client, users):
    event = make_event(users["organiser"], 4, format="master-trainer")
    services.round_start(event=event, by=users["organiser"], seed=1)
    report_all(event, users["organiser"])
    seats = seats_at(event, 1)
    data = {f"placement_{s.player_id}": str(p) for s, p in zip(seats, [4, 3, 2, 1], strict=True)}
    as_user(client, users["organiser"])
    assert client.post(url("result-correct", event.pk, 1, 1), data | {"reason": "Reversed"}).status_code == 302
    assert [s.placement for s in seats_at(event, 1)] == [4, 3, 2, 1]


def test_the_current_round_lives_on_the_dashboard(client, users, duel):
    as_user(client, users["judge"])
    response = client.get(url("round-detail", duel.pk, 1))
    assert response.status_code == 302 and response["Location"].endswith("#round-heading")
    assert client.get(url("round-detail", duel.pk, 7), follow=True).status_code == 200


# --- staff -----------------------------------------------------------------------------------------------


def test_the_organiser_adds_changes_and_removes_staff(client, users, django_user_model):
    event = make_event(users["organiser"], 2)
    django_user_model.objects.create_user(username="kim", password="pw")
    as_user(client, users["organiser"])
    page = client.get(url("event-staff", event.pk)).content.decode()
    assert "Nobody else has a role yet." in page
    response = client.post(url("event-staff", event.pk), {"username": "KIM", "role": "judge"})
    assert response.status_code == 302
    assert EventStaff.objects.get(event=event, user__username="kim").role == "judge"
    assert "kim is Judge at this event." in client.get(response["Location"]).content.decode()
    client.post(url("event-staff", event.pk), {"username": "kim", "role": "scorekeeper", "row": "true"})
    assert EventStaff.objects.get(event=event, user__username="kim").role == "scorekeeper"
    page = client.get(url("event-staff", event.pk)).content.decode()
    assert '<option value="scorekeeper" selected>Scorekeeper</option>' in page
    assert client.post(url("event-staff-remove", event.pk), {"username": "kim"}).status_code == 302
    assert not EventStaff.objects.filter(event=event).exists()
    assert [e.action for e in AuditEntry.objects.filter(event=event, action__startswith="staff.").order_by("id")] == [
        "staff.added",
        "staff.changed",
        "staff.removed",
    ]


def test_staff_refusals_are_form_errors_at_their_place(client, users):
    event = make_event(users["organiser"], 2)
    as_user(client, users["organiser"])
    response = client.post(url("event-staff", event.pk), {"username": "nobody", "role": "judge"})
    html = response.content.decode()
    assert response.status_code == 400
    username = html[html.index('for="id_username"') :]
    assert "No account is called &#x27;nobody&#x27;." in username[: username.index('for="id_role"')]
    response = client.post(url("event-staff", event.pk), {"username": "organiser", "role": "judge"})
    assert response.status_code == 400 and "The organiser already runs this event." in response.content.decode()
    response = client.post(url("event-staff", event.pk), {"username": "organiser", "role": "boss"})
    assert response.status_code == 400 and "Select a valid choice." in response.content.decode()
    response = client.post(url("event-staff-remove", event.pk), {"username": "organiser"}, **HTMX)
    assert response.status_code == 422 and "organiser has no role at this event." in response.content.decode()


def test_the_staff_page_shows_what_each_role_may_do(client, users):
    event = make_event(users["organiser"], 0)
    html = as_user(client, users["organiser"]).get(url("event-staff", event.pk)).content.decode()
    for action in policy.Action:
        assert escape(policy.ACTION_TEXT[action].capitalize()) in html, action
    row = html[html.index("See decklists before they are published") :]
    row = row[: row.index("</tr>")]
    assert row.count(">yes<") == 3 and "if allowed" in row  # organiser, co-organiser, judge; casters if allowed
    assert row.count(">no<") == 1  # the scorekeeper


def test_a_co_organiser_manages_staff_but_a_scorekeeper_does_not(client, users):
    event = with_staff(make_event(users["organiser"], 0), users)
    as_user(client, users["co_organiser"])
    assert client.get(url("event-staff", event.pk)).status_code == 200
    as_user(client, users["scorekeeper"])
    assert client.post(url("event-staff", event.pk), {"username": "sam", "role": "co_organiser"}).status_code == 403
    assert EventStaff.objects.get(user=users["scorekeeper"]).role == "scorekeeper"


# --- the audit trail ---------------------------------------------------------------------------------------


def test_the_audit_trail_reads_in_words_newest_first(client, users, duel, django_user_model):
    a, b = report_dispute(duel, django_user_model)
    services.pod_result_report(
        event=duel, round_number=1, table_number=1, placements={a.player_id: 1, b.player_id: 2}, by=users["judge"],
        games={a.player_id: (2, 0, 0), b.player_id: (0, 2, 0)},
    )  # fmt: skip
    results.result_correct(
        event=duel, round_number=1, table_number=1, placements={a.player_id: 1, b.player_id: 1}, by=users["organiser"],
        intentional_draw=True, reason="They had agreed a draw",
    )  # fmt: skip
    html = as_user(client, users["organiser"]).get(url("event-audit", duel.pk)).content.decode()
    an, bn = a.player.display_name, b.player.display_name
    order = [html.index(text) for text in ("Result corrected", "Result settled by staff", "Report disputed",
                                           "Result reported by a player", "Staff added", "Event created")]  # fmt: skip
    assert order == sorted(order)
    low, high = sorted([a, b], key=lambda s: s.player_id)  # a draw names the players by player ID
    draw = f"intentional draw: {low.player.display_name} – {high.player.display_name}"
    assert f"<li>{an} won 2–0 against {bn} → {draw}</li>" in html
    assert "Reason: They had agreed a draw" in html
    assert f"<li>reported: {an} won 2–1 against {bn}</li>" in html and f"<li>says: {bn} won against {an}</li>" in html
    assert "<li>role: Judge</li>" in html and "<li>player reports: no → yes</li>" in html
    assert "by jo" in html and "by organiser" in html
    assert '"placements"' not in html  # no raw JSON


def test_the_audit_trail_pages_and_filters_by_kind(client, users, duel):
    for _ in range(30):
        services.registration_check_in(registration=duel.registrations.first(), by=users["organiser"], checked_in=False)
        services.registration_check_in(registration=duel.registrations.first(), by=users["organiser"])
    as_user(client, users["scorekeeper"])
    first = client.get(url("event-audit", duel.pk)).content.decode()
    total = AuditEntry.objects.filter(event=duel).count()
    assert f"{total} entries" in first and "Page 1 of 2" in first and "?page=2" in first
    assert first.count('<li class="audit-entry') == 50
    second = client.get(url("event-audit", duel.pk) + "?page=2").content.decode()
    assert second.count('<li class="audit-entry') == total - 50 and "Event created" in second
    staff_only = client.get(url("event-audit", duel.pk) + "?kind=staff").content.decode()
    assert staff_only.count('<li class="audit-entry') == 4 and "Checked in" not in staff_only
    assert '<a href="?kind=staff" aria-current="page">Staff</a>' in staff_only
    rounds = client.get(url("event-audit", duel.pk) + "?kind=rounds").content.decode()
    assert "Round paired" in rounds and "3 tables, seed 3" in rounds
    assert client.get(url("event-audit", duel.pk) + "?kind=nope&page=zz").status_code == 200


def test_the_dashboard_reads_a_big_event_in_as_many_queries_as_a_small_one(client, users, django_user_model):
    counts = []
    for size in (16, 64):  # both big enough for a top cut: the cut line reads the standings for both
        event = with_staff(make_event(users["organiser"], size), users)
        services.event_update(event=event, by=users["organiser"], player_reports=True, check_in_open=True)
        services.round_start(event=event, by=users["organiser"], seed=1)
        report_dispute(event, django_user_model)
        as_user(client, users["organiser"])
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("event-detail", event.pk)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_audit_trails_kinds_take_the_clock_under_rounds_and_archetypes_under_decks(users, duel):
    """Every audited action of the live and league apps is found under a kind, not only under "All"."""
    from leagues.services import meta
    from live import services as live_services
    from tournaments.selectors import people

    organiser = users["organiser"]
    live_services.timer_start(event=duel, round_number=1, minutes=50, by=organiser)
    live_services.table_time_extend(event=duel, round_number=1, table_number=1, minutes=2, reason="Ruling",
                                    by=organiser)  # fmt: skip
    meta.archetype_name_set(registration=duel.registrations.first(), name="Toon Magician", by=organiser)
    rounds = set(people.event_audit_of_kind(event=duel, kind="rounds").values_list("action", flat=True))
    decks = set(people.event_audit_of_kind(event=duel, kind="decks").values_list("action", flat=True))
    assert {"timer.started", "table.time_extended"} <= rounds
    assert "archetype.named" in decks
