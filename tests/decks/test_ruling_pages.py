"""The decks page with judges' rulings, per role; the player's deck page; the audit trail's words for deck changes.

Judges reach the decks page from the dashboard and rule there (legal or illegal,
with a reason; clear a ruling with a reason); organisers also re-check, publish
and set deck options; casters read it once allowed; scorekeepers and players
don't open it.  A form that comes back wrong says so at its field.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from decks import services
from decks.models import DeckVersion
from tests.factories import EventFactory, PlayerFactory, RegistrationFactory
from tests.support.decks import ROLES, VIOLATION, deck
from tournaments import services as tournament_services
from tournaments.models import AuditEntry
from tournaments.services import staff as staff_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model, organiser):
    people = {"organiser": organiser}
    for username in (*ROLES, "ash"):
        people[username] = django_user_model.objects.create_user(username=username, password="pw")
    return people


@pytest.fixture
def event(users):
    event = EventFactory(organiser=users["organiser"], format="mintayn-master", name="Duels")
    for username, role in ROLES.items():
        staff_services.staff_add(event=event, username=username, role=role, by=users["organiser"])
    return event


@pytest.fixture
def ash(event, users):
    registration = RegistrationFactory(event=event, player=PlayerFactory(display_name="Ash", user=users["ash"]))
    DeckVersion.objects.create(
        registration=registration, number=1, decklist="3 Ember Whelp\n", status="illegal", violations=[VIOLATION],
        violation_count=1, violations_by_code={"deck_size": 1}, card_count=3,
    )  # fmt: skip
    return registration


def decks_page(event) -> str:
    return reverse("decks:organiser", args=[event.pk])


def rule(client, event, registration, **data):
    fields = {f"rule-{registration.pk}-{key}": value for key, value in {"version": 1, **data}.items()}
    return client.post(reverse("decks:ruling", args=[event.pk, registration.pk]), fields)


def clear(client, event, registration, **data):
    fields = {f"clear-{registration.pk}-{key}": value for key, value in {"version": 1, **data}.items()}
    return client.post(reverse("decks:ruling-clear", args=[event.pk, registration.pk]), fields)


def test_a_judge_reaches_the_decks_page_from_the_dashboard_and_rules_there(client, users, event, ash):
    client.force_login(users["judy"])
    dashboard = client.get(reverse("dashboard:event-detail", args=[event.pk])).content.decode()
    assert f'href="{decks_page(event)}"' in dashboard
    html = client.get(decks_page(event)).content.decode()
    assert f'name="rule-{ash.pk}-status"' in html and f'name="rule-{ash.pk}-reason"' in html
    for organisers_only in ("Re-check all", "Publish decklists", reverse("decks:options", args=[event.pk])):
        assert organisers_only not in html
    assert reverse("decks:decklist", args=[event.pk, ash.pk]) in html  # the list, not the player's submit page
    answer = rule(client, event, ash, status="legal", reason="The checker reads a misprint.")
    assert answer.status_code == 302 and answer["Location"] == decks_page(event) + f"#deck-{ash.pk}"
    html = client.get(decks_page(event)).content.decode()
    assert "Ruling recorded: Ash&#x27;s deck is legal." in html
    row = re.search(rf'<tr id="deck-{ash.pk}">.*?</tr>', html, re.S).group(0)
    assert 'badge-legal">Legal<' in row and "checker: illegal" in row
    assert "by judy" in row and "The checker reads a misprint." in row
    assert f'name="clear-{ash.pk}-reason"' in row
    assert "1 legal · 0 illegal" in html and "(1 by a judge's ruling)" in html


def test_a_ruling_without_a_reason_or_a_status_says_so_at_its_field(client, users, event, ash):
    client.force_login(users["judy"])
    answer = rule(client, event, ash, status="legal", reason="  ")
    html = answer.content.decode()
    assert answer.status_code == 400
    row = re.search(rf'<tr id="deck-{ash.pk}">.*?</tr>', html, re.S).group(0)
    assert f'id="ruling-tools-{ash.pk}" hx-preserve open' in row
    reason = re.search(r'<div class="field has-error">.*?</div>', row, re.S).group(0)
    assert f'for="id_rule-{ash.pk}-reason"' in reason and "This field is required." in reason
    answer = rule(client, event, ash, reason="Misprint.")
    row = re.search(rf'<tr id="deck-{ash.pk}">.*?</tr>', answer.content.decode(), re.S).group(0)
    assert answer.status_code == 400 and 'class="choices has-error"' in row and "This field is required." in row
    assert 'value="Misprint."' in row  # what was typed stays
    assert deck(ash).ruling is None


def test_a_refusal_of_the_service_comes_back_on_the_form(client, users, event, ash):
    client.force_login(users["judy"])
    DeckVersion.objects.create(registration=ash, number=2, decklist="4 Ember Whelp\n")
    answer = rule(client, event, ash, status="legal", reason="Misprint.")  # the page showed version 1
    assert answer.status_code == 400
    assert "Version 1 is no longer the player&#x27;s deck: version 2 is." in answer.content.decode()
    answer = clear(client, event, ash, version=2, reason="Nothing to clear.")
    assert answer.status_code == 400 and "Version 2 has no ruling to clear." in answer.content.decode()


def test_a_judge_clears_a_ruling_with_a_reason(client, users, event, ash):
    services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users["judy"])
    client.force_login(users["organiser"])
    assert clear(client, event, ash, reason="").status_code == 400
    answer = clear(client, event, ash, reason="Errata published.")
    assert answer.status_code == 302
    assert deck(ash).ruling is None and deck(ash).effective_status == "illegal"
    html = client.get(decks_page(event)).content.decode()
    assert "Ruling cleared" in html and f'name="clear-{ash.pk}-reason"' not in html


def test_the_organiser_manages_and_rules_and_every_form_has_its_csrf_token(client, users, event, ash):
    services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users["judy"])
    client.force_login(users["organiser"])
    html = client.get(decks_page(event)).content.decode()
    assert "Re-check all" in html and f'name="rule-{ash.pk}-reason"' in html and f'name="clear-{ash.pk}-reason"' in html
    forms = re.findall(r"<form\b.*?</form>", html, re.S)
    posting = [f for f in forms if 'method="post"' in f]
    assert len(posting) >= 5  # re-check, publish, options, rule, clear
    assert all("csrfmiddlewaretoken" in f for f in posting)


@pytest.mark.parametrize("who", ["sam", "ash"])
def test_scorekeepers_and_players_neither_open_the_decks_page_nor_rule(client, users, event, ash, who):
    client.force_login(users[who])
    assert client.get(decks_page(event)).status_code == 403
    assert rule(client, event, ash, status="legal", reason="Misprint.").status_code == 403
    assert clear(client, event, ash, reason="x").status_code == 403
    assert deck(ash).ruling is None


def test_a_caster_reads_the_decks_page_once_allowed_and_never_rules(client, users, event, ash):
    client.force_login(users["carl"])
    assert client.get(decks_page(event)).status_code == 403
    tournament_services.event_update(event=event, by=users["organiser"], casters_see_decklists=True)
    html = client.get(decks_page(event)).content.decode()
    assert "Ash" in html and 'name="rule-' not in html
    assert rule(client, event, ash, status="legal", reason="Misprint.").status_code == 403


def test_the_player_sees_the_judges_ruling_with_its_reason_on_their_deck_page(client, users, event, ash):
    services.deck_verdict_override(
        version=deck(ash), status="legal", reason="A misprint, not a new card.", by=users["judy"]
    )
    client.force_login(users["ash"])
    html = client.get(reverse("decks:player-deck", args=[event.pk])).content.decode()
    assert "Legal (judge's ruling: A misprint, not a new card.)" in html
    assert "The deck checker's verdict: not legal, 1 problem." in html and "deck_size" in html


def test_the_audit_page_words_every_deck_change_under_its_own_kind(client, users, event, ash, organiser):
    services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users["judy"])
    services.deck_verdict_clear(version=deck(ash), reason="Errata.", by=users["judy"])
    services.event_decklists_publish(event=event, by=organiser)
    services.event_deck_options_set(event=event, by=organiser, options={"deck_size": 50})
    AuditEntry.objects.create(event=event, actor=organiser, action="deck.submitted", subject="Ash (#1): deck v2",
                              before={"version": 1}, after={"version": 2})  # fmt: skip
    client.force_login(users["judy"])
    audit = reverse("dashboard:event-audit", args=[event.pk])
    html = client.get(audit, {"kind": "decks"}).content.decode()
    for words in ("Deck ruled on", "Deck ruling cleared", "Decklists published or hidden", "Deck options changed",
                  "Deck submitted", "status: illegal → legal", "ruling: none → legal", "ruling: legal → none",
                  "decklists public: no → yes", "deck options: none → deck_size: 50", "version: 1 → 2",
                  "Reason: Misprint.", "Reason: Errata."):  # fmt: skip
        assert words in html, words
    assert ">Decks<" in html
    assert "Deck ruled on" not in client.get(audit, {"kind": "event"}).content.decode()
