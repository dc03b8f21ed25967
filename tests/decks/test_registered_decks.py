"""Registered decks: immutable versions, validation by the task, locking, privacy and re-checks."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.urls import reverse

from decks.checking import DECKLIST_MAX_LENGTH, STORED_VIOLATIONS
from decks.models import DeckVersion
from tests.factories import EventFactory, RegistrationFactory
from tests.support.speech import speaking
from tournaments import services as tournament_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("card_catalogue")]

MINTAYN_60 = "3 Ember Whelp\n3 Cinder Hound\n3 Blaze Drake\n1 Pyre Sovereign\n"


@pytest.fixture
def event(organiser):
    return EventFactory(organiser=organiser, format="mintayn-master")


@pytest.fixture
def alice(django_user_model, event):
    user = django_user_model.objects.create_user(username="alice", password="pw")
    registration = RegistrationFactory(event=event, player__user=user, player__display_name="Alice")
    return user, registration


def url(event, registration):
    return f"/api/v1/events/{event.pk}/registrations/{registration.pk}/decks/"


def submit(client, event, registration, decklist, roles=None, captured=None):
    with captured(execute=True):
        return client.post(url(event, registration), {"decklist": decklist, "roles": roles or {}}, format="json")


def test_a_player_submits_a_deck_and_sees_the_verdict(client, alice, event, django_capture_on_commit_callbacks):
    user, registration = alice
    client.force_login(user)
    response = submit(client, event, registration, MINTAYN_60, captured=django_capture_on_commit_callbacks)
    assert response.status_code == 201
    version = DeckVersion.objects.get()
    assert version.status == "illegal" and version.card_count == 10
    assert "deck_size" in {v["code"] for v in version.violations}
    listed = client.get(url(event, registration)).json()["results"]
    assert listed[0]["status"] == "illegal" and listed[0]["decklist"] == MINTAYN_60


@pytest.fixture
def spanish_rules():
    """The rules' phrases said by a stub catalogue (the real ones get their msgids when the lead updates them)."""
    said = {"A deck has exactly %(needed)s cards; this one has %(count)s.": "Un mazo tiene exactamente %(needed)s "
            "cartas; este tiene %(count)s."}  # fmt: skip
    with speaking(said):
        yield


def test_a_stored_violation_is_said_again_in_the_readers_language(
    client, alice, event, spanish_rules, django_capture_on_commit_callbacks
):
    user, registration = alice
    client.force_login(user)
    submit(client, event, registration, MINTAYN_60, captured=django_capture_on_commit_callbacks)
    stored = next(v for v in DeckVersion.objects.get().violations if v["code"] == "deck_size")
    assert stored["message"] == "A deck has exactly 60 cards; this one has 10."  # the English stays in the row
    assert stored["template"] == "A deck has exactly %(needed)s cards; this one has %(count)s."
    assert stored["params"] == {"needed": 60, "count": 10}
    spanish = "Un mazo tiene exactamente 60 cartas; este tiene 10."
    listed = client.get(url(event, registration), HTTP_ACCEPT_LANGUAGE="es").json()["results"][0]
    assert spanish in [v["message"] for v in listed["violations"]]
    page = client.get(reverse("decks:player-deck", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="es")
    assert spanish in page.content.decode()


def test_a_new_paste_makes_a_new_version_and_keeps_the_old(client, alice, event, django_capture_on_commit_callbacks):
    user, registration = alice
    client.force_login(user)
    submit(client, event, registration, "1 Ember Whelp", captured=django_capture_on_commit_callbacks)
    submit(client, event, registration, "2 Ember Whelp", captured=django_capture_on_commit_callbacks)
    assert list(DeckVersion.objects.order_by("number").values_list("number", "decklist")) == [
        (1, "1 Ember Whelp"),
        (2, "2 Ember Whelp"),
    ]


def test_decks_lock_when_the_event_starts(client, alice, event, organiser, django_capture_on_commit_callbacks):
    user, registration = alice
    RegistrationFactory(event=event)
    client.force_login(user)
    submit(client, event, registration, "1 Ember Whelp", captured=django_capture_on_commit_callbacks)
    tournament_services.round_start(event=event, by=organiser)
    response = submit(client, event, registration, "2 Ember Whelp", captured=django_capture_on_commit_callbacks)
    assert response.status_code == 409 and response.json()["error"]["code"] == "deck_locked"
    assert DeckVersion.objects.count() == 1


def test_other_players_cannot_submit_or_read_a_deck_until_it_is_published(
    client, alice, event, outsider, organiser, django_capture_on_commit_callbacks
):
    user, registration = alice
    client.force_login(user)
    submit(client, event, registration, MINTAYN_60, captured=django_capture_on_commit_callbacks)
    client.force_login(outsider)
    assert (
        submit(client, event, registration, "1 Ember Whelp", captured=django_capture_on_commit_callbacks).status_code
        == 403
    )
    assert client.get(url(event, registration)).json()["results"][0]["decklist"] is None
    from decks import services

    services.event_decklists_publish(event=event, by=organiser)
    assert client.get(url(event, registration)).json()["results"][0]["decklist"] == MINTAYN_60


def test_the_organiser_rechecks_every_deck_with_progress(api, alice, event, django_capture_on_commit_callbacks):
    user, registration = alice
    other = RegistrationFactory(event=event)
    for reg in (registration, other):
        DeckVersion.objects.create(registration=reg, number=1, decklist="1 Ember Whelp")
    with django_capture_on_commit_callbacks(execute=True):
        started = api.post(f"/api/v1/events/{event.pk}/decks/recheck/")
    assert started.status_code == 202
    progress = api.get(f"/api/v1/events/{event.pk}/decks/recheck/").json()
    assert progress == {"id": started.json()["id"], "total": 2, "done": 2, "finished": True}
    statuses = api.get(f"/api/v1/events/{event.pk}/decks/").json()["results"]
    assert sorted(s["version"]["status"] for s in statuses) == ["illegal", "illegal"]


def test_validating_twice_changes_nothing(alice):
    from decks import services

    _, registration = alice
    version = DeckVersion.objects.create(registration=registration, number=1, decklist=MINTAYN_60)
    first = services.deck_version_validate(version_id=version.pk)
    checked_at = first.checked_at
    second = services.deck_version_validate(version_id=version.pk)
    assert second.checked_at == checked_at and second.violations == first.violations


def test_an_event_picks_its_deck_options_and_bad_ones_get_field_errors(api, event):
    url = f"/api/v1/events/{event.pk}/deck-options/"
    assert api.post(url, {"deck_options": {"deck_size": 50}}, format="json").json() == {
        "deck_options": {"deck_size": 50}
    }
    bad = api.post(url, {"deck_options": {"deck_size": 55}}, format="json")
    assert bad.status_code == 400 and "deck_options" in bad.json()["error"]["fields"]
    assert api.post(url, {"deck_options": {"banlist": "x"}}, format="json").status_code == 400
    event.refresh_from_db()
    assert event.deck_options == {"deck_size": 50}


def test_a_deck_masters_event_picks_a_banlist(api, organiser):
    event = EventFactory(organiser=organiser, format="deck-masters")
    url = f"/api/v1/events/{event.pk}/deck-options/"
    assert api.post(url, {"deck_options": {"banlist": "2005.4 GOAT"}}, format="json").status_code == 200
    event.refresh_from_db()
    assert event.deck_options == {"banlist": "2005.4 GOAT"}


def test_the_sweep_checks_deck_versions_left_pending(alice):
    """A deck whose check was never sent (the broker was away) is checked by the periodic sweep."""
    from decks import readers

    _, registration = alice
    version = DeckVersion.objects.create(registration=registration, number=1, decklist=MINTAYN_60, roles={})
    assert version.status == DeckVersion.Status.PENDING
    assert readers.decks_sweep() == 1
    version.refresh_from_db()
    assert version.status != DeckVersion.Status.PENDING
    assert readers.decks_sweep() == 0


def _stored_bytes(version: DeckVersion) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT octet_length(violations::text) FROM decks_deckversion WHERE id = %s", [version.pk])
        return cursor.fetchone()[0]


def test_a_25000_line_list_is_stored_small_with_every_violation_counted(
    client, alice, event, django_capture_on_commit_callbacks
):
    """Each of its 25,000 lines is a violation (and the deck is short of cards): the version keeps the first
    ones, the first of every kind among them, and the counts of all; the API and the page say how many more."""
    user, registration = alice
    client.force_login(user)
    decklist = "\n".join(["x"] * 25_000)
    assert len(decklist) <= DECKLIST_MAX_LENGTH
    for _ in range(3):
        assert (
            submit(client, event, registration, decklist, captured=django_capture_on_commit_callbacks).status_code
            == 201
        )
    for version in DeckVersion.objects.all():
        assert version.violations_by_code["unparseable_line"] == 25_000 and "deck_size" in version.violations_by_code
        assert version.violation_count == sum(version.violations_by_code.values())
        assert len(version.violations) == STORED_VIOLATIONS
        assert {v["code"] for v in version.violations} == set(version.violations_by_code)  # deck_size comes last
        # Each of the 25,000 would take about 300 bytes: its English message, and the phrase's template and values
        # (rules.speech) that say it again in its reader's language.
        assert _stored_bytes(version) < 80_000
    latest = client.get(url(event, registration)).json()["results"][0]
    assert latest["violation_count"] == version.violation_count
    assert latest["violations_by_code"] == version.violations_by_code
    assert len(latest["violations"]) == STORED_VIOLATIONS
    unlisted = 25_000 - (STORED_VIOLATIONS - len(version.violations_by_code) + 1)
    page = client.get(f"/events/{event.pk}/deck/").content.decode()
    assert f"{version.violation_count:,} problems" in page and f"{unlisted:,} more" in page


def test_a_hidden_decklist_hides_its_violation_counts_too(
    client, alice, event, outsider, django_capture_on_commit_callbacks
):
    user, registration = alice
    client.force_login(user)
    submit(client, event, registration, "x\n1 Ember Whelp", captured=django_capture_on_commit_callbacks)
    client.force_login(outsider)
    seen = client.get(url(event, registration)).json()["results"][0]
    assert seen["status"] == "illegal" and seen["violation_count"] is None and seen["violations_by_code"] is None


def test_the_migration_caps_the_violations_stored_before_it_and_counts_them(alice):
    _, registration = alice
    many = [{"code": "unknown_card", "rule": "decklist", "message": f"Line {n}", "cards": []} for n in range(1, 1001)]
    many.append({"code": "deck_size", "rule": "1", "message": "Too few cards.", "cards": []})
    big = DeckVersion.objects.create(registration=registration, number=1, decklist="x", violations=many)
    small = DeckVersion.objects.create(registration=registration, number=2, decklist="x", violations=many[-2:])
    migration = importlib.import_module("decks.migrations.0004_deck_violation_counts")
    migration.count_and_cap_violations(apps, None)
    big.refresh_from_db()
    small.refresh_from_db()
    assert (big.violation_count, big.violations_by_code) == (1001, {"unknown_card": 1000, "deck_size": 1})
    assert len(big.violations) == STORED_VIOLATIONS and big.violations[-1]["code"] == "deck_size"
    assert big.violations[:3] == many[:3]
    assert (small.violation_count, small.violations, small.violations_by_code) == (
        2,
        many[-2:],
        {"unknown_card": 1, "deck_size": 1},
    )
