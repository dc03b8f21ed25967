"""The dashboard's penalties page, per role: organisers and judges give and rescind penalties there, the
rest of the staff read the list, players and strangers get the 403 page.  Refusals are errors at their
field (a whole page answers 400), never a 500; the audit trail says both changes in words."""

from __future__ import annotations

import re

import pytest
from django.utils.html import escape

from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event, report_all
from tests.support.pages import url
from tests.support.people import ROLES, as_user, with_staff
from tournaments import services
from tournaments.models import AuditEntry, Event, Penalty, Registration

pytestmark = pytest.mark.django_db


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
    """A Deck Masters event with six players (pat among them), its staff, and round 1 paired."""
    event = make_event(users["organiser"], 5, rounds=3)
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Pat", user=users["player"]))
    with_staff(event, users)
    services.round_start(event=event, by=users["organiser"], seed=3)
    return event


def pat(event) -> Registration:
    return event.registrations.get(player__display_name="Pat")


def give(event, by, **extra) -> Penalty:
    values = {"penalty": "warning", "infraction": "Drawing extra cards"} | extra
    if "registration_id" not in values:
        values["registration_id"] = pat(event).pk
    return services.penalty_issue(event=event, by=by, **values)


def form_of(html: str) -> str:
    """The "Give a penalty" form's markup."""
    found = re.search(r'<form[^>]*aria-labelledby="give-heading".*?</form>', html, re.S)
    return found.group(0) if found else ""


def posting_forms_without_a_token(html: str) -> list[str]:
    forms = re.findall(r'<form[^>]*method="post".*?</form>', html, re.S)
    assert forms
    return [form[:120] for form in forms if 'name="csrfmiddlewaretoken"' not in form]


def field_block(html: str, name: str) -> str:
    """The ``<div class="field ...">`` block of a field of the give form."""
    found = re.search(rf'<div class="field[^"]*">\s*<label for="id_{name}".*?</div>', form_of(html), re.S)
    assert found, name
    return found.group(0)


# --- who may open what ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "gives"),
    [("organiser", True), ("co_organiser", True), ("judge", True), ("scorekeeper", False), ("caster", False)],
)
def test_every_dashboard_role_reads_the_penalties_and_only_organisers_and_judges_give_them(
    client, users, duel, role, gives
):
    given = give(duel, users["judge"], note="Drew 2 instead of 1.")
    as_user(client, users[role])
    response = client.get(url("event-penalties", duel.pk))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Drawing extra cards" in html and "Drew 2 instead of 1." in html and "by jo" in html
    assert 'aria-current="page">Penalties</a>' in html
    assert ("Give a penalty" in html) is gives
    assert (f'action="{url("penalty-rescind", duel.pk, given.pk)}"' in html) is gives
    body = {"registration": pat(duel).pk, "penalty": "caution", "infraction": "Slow play"}
    answer = client.post(url("event-penalties", duel.pk), body)
    assert answer.status_code == (302 if gives else 403)
    assert client.post(url("penalty-rescind", duel.pk, given.pk), {"reason": "x"}).status_code == (
        302 if gives else 403
    )
    assert Penalty.objects.filter(event=duel).count() == (2 if gives else 1)


def test_a_player_gets_the_403_page_and_a_visitor_the_sign_in_page(client, users, duel):
    given = give(duel, users["judge"])
    as_user(client, users["player"])
    for response in (
        client.get(url("event-penalties", duel.pk)),
        client.post(url("event-penalties", duel.pk), {"infraction": "x"}),
        client.post(url("penalty-rescind", duel.pk, given.pk), {"reason": "x"}),
    ):
        assert response.status_code == 403
    client.logout()
    response = client.get(url("event-penalties", duel.pk))
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not Penalty.objects.get().rescinded


def test_the_tab_shows_on_the_dashboards_pages(client, users, duel):
    as_user(client, users["caster"])
    html = client.get(url("event-detail", duel.pk)).content.decode()
    assert f'href="{url("event-penalties", duel.pk)}"' in html


# --- giving ---------------------------------------------------------------------------------------


def test_a_judge_gives_a_warning_and_it_heads_the_list_with_who_gave_it(client, users, duel):
    as_user(client, users["judge"])
    page = client.get(url("event-penalties", duel.pk)).content.decode()
    assert "No penalty given at this event." in page
    assert "Empty: the current round (1)." in page
    assert not posting_forms_without_a_token(page)
    body = {"registration": pat(duel).pk, "penalty": "warning", "infraction": "Drawing extra cards", "note": "Two."}
    response = client.post(url("event-penalties", duel.pk), body, follow=True)
    html = response.content.decode()
    assert "Warning for Pat: Drawing extra cards." in html
    given = Penalty.objects.get()
    assert (given.round_number, given.issued_by, given.note) == (1, users["judge"], "Two.")
    assert re.search(r"<strong>Warning</strong> · Pat", html) and "Round 1" in html and "by jo" in html
    assert f'action="{url("penalty-rescind", duel.pk, given.pk)}"' in html
    assert not posting_forms_without_a_token(html)


def test_the_list_comes_newest_first_and_tells_namesakes_apart(client, users, duel):
    twins = [RegistrationFactory(event=duel, player=PlayerFactory(display_name="Ash")) for _ in "ab"]
    give(duel, users["judge"], registration_id=twins[0].pk, penalty="caution", infraction="First")
    give(duel, users["judge"], registration_id=twins[1].pk, penalty="game_loss", infraction="Second")
    html = as_user(client, users["organiser"]).get(url("event-penalties", duel.pk)).content.decode()
    assert html.index("Second") < html.index("First")
    for twin in twins:
        assert f"Ash (#{twin.player_id})" in html
    form = form_of(html)
    assert f'<option value="{twins[0].pk}">Ash (#{twins[0].player_id})</option>' in form
    assert ">Pat</option>" in form


def test_only_registered_players_are_offered_and_dropped_ones_are_marked(client, users, duel):
    waiting = RegistrationFactory(event=duel, status=Registration.Status.WAITLISTED, checked_in=False)
    services.registration_drop(registration=pat(duel), by=users["organiser"])
    form = form_of(as_user(client, users["judge"]).get(url("event-penalties", duel.pk)).content.decode())
    assert ">Pat (dropped)</option>" in form
    assert f'value="{waiting.pk}"' not in form
    response = client.post(
        url("event-penalties", duel.pk), {"registration": waiting.pk, "penalty": "warning", "infraction": "x"}
    )
    assert response.status_code == 400
    assert "Select a valid choice" in field_block(response.content.decode(), "registration")


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"infraction": ""}, "infraction", "Say what the infraction was."),
        ({"penalty": ""}, "penalty", "Choose the penalty."),
        ({"penalty": "yellow_card"}, "penalty", "Select a valid choice"),
        ({"registration": ""}, "registration", "Choose the player."),
        ({"round": "2"}, "round", "Round 2 is not a round of this event: rounds 1 to 1 are paired."),
        ({"round": "0"}, "round", "greater than or equal to 1"),
        ({"round": "soon"}, "round", "Enter a whole number."),
    ],
)
def test_a_refused_penalty_is_an_error_at_its_field_and_keeps_what_was_typed(client, users, duel, body, field, message):
    full = {"registration": pat(duel).pk, "penalty": "warning", "infraction": "Slow play", "note": "Kept."} | body
    response = as_user(client, users["judge"]).post(url("event-penalties", duel.pk), full)
    assert response.status_code == 400
    html = response.content.decode()
    block = field_block(html, field)
    assert "has-error" in block and escape(message) in block
    assert "Kept.</textarea>" in form_of(html)
    assert not Penalty.objects.exists()


def test_a_disqualification_drops_the_player_and_says_so(client, users, duel):
    body = {"registration": pat(duel).pk, "penalty": "disqualification", "infraction": "Marked cards"}
    html = as_user(client, users["judge"]).post(url("event-penalties", duel.pk), body, follow=True).content.decode()
    assert "Disqualification for Pat: Marked cards. They are dropped from the event." in html
    assert pat(duel).dropped


def test_once_the_event_is_finished_the_form_is_gone_and_a_late_post_is_refused_on_the_page(client, users, duel):
    given = give(duel, users["judge"])
    report_all(duel, users["organiser"])
    services.event_finish(event=duel, by=users["organiser"])
    as_user(client, users["judge"])
    html = client.get(url("event-penalties", duel.pk)).content.decode()
    assert "Give a penalty" not in html and "its penalties are final" in html and "Rescind…" not in html
    response = client.post(
        url("event-penalties", duel.pk), {"registration": pat(duel).pk, "penalty": "warning", "infraction": "x"}
    )
    assert response.status_code == 400 and "The event is finished" in form_of(response.content.decode())
    response = client.post(url("penalty-rescind", duel.pk, given.pk), {"reason": "Late."})
    assert response.status_code == 400
    assert '<p class="error" role="alert">The event is finished: its penalties are final.</p>' in (
        response.content.decode()
    )


# --- rescinding -----------------------------------------------------------------------------------


def test_a_rescind_needs_a_reason_said_in_its_row_and_then_the_penalty_stays_marked(client, users, duel):
    given = give(duel, users["judge"])
    as_user(client, users["judge"])
    response = client.post(url("penalty-rescind", duel.pk, given.pk), {"reason": "  "})
    assert response.status_code == 400
    row = re.search(rf'<li class="penalty" id="penalty-{given.pk}">.*?</li>\s*</ol>', response.content.decode(), re.S)
    assert row and '<details class="confirm" open>' in row.group(0)
    assert f'id="rescind-{given.pk}-error"><li>Say why the penalty is rescinded.</li>' in row.group(0)
    assert 'aria-invalid="true"' in row.group(0)
    response = client.post(url("penalty-rescind", duel.pk, given.pk), {"reason": "Wrong player."}, follow=True)
    html = response.content.decode()
    assert "The warning of Pat is rescinded." in html
    assert 'class="penalty penalty-rescinded"' in html and "Rescinded</span>" in html and "Wrong player." in html
    assert Penalty.objects.get().rescinded
    again = client.post(url("penalty-rescind", duel.pk, given.pk), {"reason": "Again."})
    assert again.status_code == 400
    assert '<p class="error" role="alert">This penalty is already rescinded.</p>' in again.content.decode()


def test_a_penalty_of_another_event_is_not_found_here(client, users, duel):
    other = make_event(users["organiser"], 2)
    given = give(other, users["organiser"], registration_id=other.registrations.first().pk, infraction="Elsewhere")
    as_user(client, users["organiser"])
    assert client.post(url("penalty-rescind", duel.pk, given.pk), {"reason": "x"}).status_code == 404


# --- the audit trail ------------------------------------------------------------------------------


def test_the_audit_trail_says_both_changes_in_words_under_penalties(client, users, duel):
    given = give(duel, users["judge"], note="Drew 2.")
    services.penalty_rescind(penalty=given, by=users["organiser"], reason="Wrong player.")
    html = as_user(client, users["judge"]).get(url("event-audit", duel.pk) + "?kind=penalties").content.decode()
    assert html.count('<li class="audit-entry') == 2
    assert "Penalty given" in html and "Penalty rescinded" in html
    assert "Warning for Drawing extra cards, round 1" in html and "note: Drew 2." in html
    assert "Reason: Wrong player." in html
    assert '<a href="?kind=penalties" aria-current="page">Penalties</a>' in html
    assert AuditEntry.objects.filter(event=duel, action__startswith="penalty.").count() == 2
