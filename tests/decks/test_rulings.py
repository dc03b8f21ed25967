"""Judges' rulings on decks, and the audit trail of every deck change.

A ruling sets a deck version's status over the checker's verdict (which stays as
it was) with a reason; it can be replaced or cleared (back to the checker's
verdict), also with a reason, and every ruling is kept.  The status shown
everywhere is the ruling's when there is one.  Checks and re-checks never touch a
ruling.  Each deck change a person makes is in the audit trail; the worker's
verdict is not.
"""

from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import selectors as account_selectors
from core.exceptions import ApplicationError, Conflict, PermissionDenied
from decks import services
from decks.models import CatalogueVersion, DeckVerdictOverride, DeckVersion
from tests.factories import EventFactory, PlayerFactory, RegistrationFactory
from tests.support.decks import ROLES, VIOLATION, deck
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Event
from tournaments.selectors import people
from tournaments.services import staff as staff_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model, organiser):
    people_ = {"organiser": organiser, "site": django_user_model.objects.create_user(username="site", is_staff=True)}
    for username in (*ROLES, "ash", "gary"):
        people_[username] = django_user_model.objects.create_user(username=username, password="pw")
    return people_


@pytest.fixture
def event(users):
    event = EventFactory(organiser=users["organiser"], format="mintayn-master", name="Duels")
    for username, role in ROLES.items():
        staff_services.staff_add(event=event, username=username, role=role, by=users["organiser"])
    return event


@pytest.fixture
def ash(event, users):
    """Ash's registration, with an account: version 1 illegal to the checker."""
    registration = RegistrationFactory(event=event, player=PlayerFactory(display_name="Ash", user=users["ash"]))
    DeckVersion.objects.create(
        registration=registration, number=1, decklist="3 Ember Whelp\n", status=DeckVersion.Status.ILLEGAL,
        violations=[VIOLATION], violation_count=1, violations_by_code={"deck_size": 1}, card_count=3,
        checked_at=timezone.now(),
    )  # fmt: skip
    return registration


def entries(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("id"))


# --- services ---------------------------------------------------------------------------------------


def test_a_judge_rules_a_deck_legal_and_the_checkers_verdict_stays_as_it_was(ash, users):
    version = services.deck_verdict_override(
        version=deck(ash), status="legal", reason="The list counts a misprint twice.", by=users["judy"]
    )
    assert version.effective_status == "legal"
    version = deck(ash)
    assert (version.status, version.violations, version.card_count) == ("illegal", [VIOLATION], 3)
    assert version.effective_status == "legal" and version.get_effective_status_display() == "Legal"
    ruling = version.ruling
    assert (ruling.status, ruling.reason, ruling.by, ruling.version_id) == (
        "legal", "The list counts a misprint twice.", users["judy"], version.pk
    )  # fmt: skip
    assert ruling.at is not None
    (entry,) = entries("deck.overridden")
    assert entry.event == ash.event and entry.actor == users["judy"]
    assert entry.subject == f"Ash (#{ash.player_id}): deck v1"
    assert entry.before == {"status": "illegal", "ruling": None}
    assert entry.after == {"status": "legal", "ruling": "legal"}
    assert entry.reason == "The list counts a misprint twice."


def test_a_new_ruling_replaces_the_one_in_force_and_every_ruling_is_kept(ash, users):
    services.deck_verdict_override(version=deck(ash), status="legal", reason="First look.", by=users["judy"])
    services.deck_verdict_override(version=deck(ash), status="illegal", reason="Head judge.", by=users["organiser"])
    version = deck(ash)
    assert version.effective_status == "illegal" and version.ruling.reason == "Head judge."
    assert [(r.status, r.reason) for r in version.rulings.all()] == [
        ("illegal", "Head judge."),
        ("legal", "First look."),
    ]
    second = entries("deck.overridden")[1]
    assert (second.before, second.after) == (
        {"status": "legal", "ruling": "legal"},
        {"status": "illegal", "ruling": "illegal"},
    )


def test_clearing_a_ruling_brings_back_the_checkers_verdict_and_keeps_the_reason(ash, users):
    services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users["judy"])
    version = services.deck_verdict_clear(version=deck(ash), reason="The misprint is errata'd.", by=users["cora"])
    assert version.ruling is None and version.effective_status == "illegal"
    cleared = deck(ash).rulings.first()
    assert cleared.cleared and cleared.reason == "The misprint is errata'd." and cleared.by == users["cora"]
    assert deck(ash).rulings.count() == 2
    (entry,) = entries("deck.override_cleared")
    assert (entry.before, entry.after) == (
        {"status": "legal", "ruling": "legal"},
        {"status": "illegal", "ruling": None},
    )
    assert entry.reason == "The misprint is errata'd." and entry.actor == users["cora"]


def test_there_is_nothing_to_clear_without_a_ruling(ash, users):
    with pytest.raises(Conflict) as refused:
        services.deck_verdict_clear(version=deck(ash), reason="Just in case.", by=users["judy"])
    assert refused.value.code == "no_ruling"
    services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users["judy"])
    services.deck_verdict_clear(version=deck(ash), reason="Wrong deck.", by=users["judy"])
    with pytest.raises(Conflict):
        services.deck_verdict_clear(version=deck(ash), reason="Again.", by=users["judy"])


@pytest.mark.parametrize("reason", ["", "   ", "x" * 1001])
def test_a_ruling_and_a_clear_need_a_reason(ash, users, reason):
    for call in (
        lambda: services.deck_verdict_override(version=deck(ash), status="legal", reason=reason, by=users["judy"]),
        lambda: services.deck_verdict_clear(version=deck(ash), reason=reason, by=users["judy"]),
    ):
        with pytest.raises(ApplicationError) as refused:
            call()
        assert refused.value.field == "reason"
    assert not DeckVerdictOverride.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="deck.").exists()


def test_a_ruling_is_legal_or_illegal(ash, users):
    with pytest.raises(ApplicationError) as refused:
        services.deck_verdict_override(version=deck(ash), status="pending", reason="Hm.", by=users["judy"])
    assert refused.value.field == "status"


@pytest.mark.parametrize(
    ("who", "allowed"),
    [("organiser", True), ("cora", True), ("judy", True), ("site", True),
     ("sam", False), ("carl", False), ("ash", False), ("gary", False)],
)  # fmt: skip
def test_the_organisers_and_judges_rule_on_decks_and_nobody_else(ash, users, who, allowed):
    if allowed:
        services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users[who])
        services.deck_verdict_clear(version=deck(ash), reason="Errata.", by=users[who])
        assert deck(ash).rulings.count() == 2
    else:
        services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users["judy"])
        for call in (
            lambda: services.deck_verdict_override(version=deck(ash), status="illegal", reason="x", by=users[who]),
            lambda: services.deck_verdict_clear(version=deck(ash), reason="x", by=users[who]),
        ):
            with pytest.raises(PermissionDenied):
                call()
        assert deck(ash).rulings.count() == 1


def test_a_ruling_is_on_the_players_latest_version_only(ash, users):
    first = deck(ash)
    services.deck_verdict_override(version=first, status="legal", reason="Misprint.", by=users["judy"])
    DeckVersion.objects.create(registration=ash, number=2, decklist="4 Ember Whelp\n")
    for call in (
        lambda: services.deck_verdict_override(version=first, status="illegal", reason="x", by=users["judy"]),
        lambda: services.deck_verdict_clear(version=first, reason="x", by=users["judy"]),
    ):
        with pytest.raises(Conflict) as refused:
            call()
        assert refused.value.code == "not_latest_version"
    # A new paste starts from the checker's verdict: the ruling was about the old list.
    assert deck(ash).number == 2 and deck(ash).ruling is None and deck(ash).effective_status == "pending"


def test_rulings_after_the_event_is_finished_are_allowed(ash, users, event):
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    services.deck_verdict_override(version=deck(ash), status="legal", reason="Reviewed on camera.", by=users["judy"])
    assert deck(ash).effective_status == "legal"


def test_a_recheck_and_a_new_catalogue_never_wipe_a_ruling(card_catalogue, ash, users, event, organiser):
    services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users["judy"])
    run = services.deck_recheck_start(event=event, by=organiser)
    assert deck(ash).status == "pending" and deck(ash).effective_status == "legal"
    services.deck_recheck_run(run_id=run.pk)
    assert deck(ash).status == "illegal" and deck(ash).effective_status == "legal"
    CatalogueVersion.objects.filter(family="mintayn").update(version=10**6)  # a newer import
    services.deck_version_validate(version_id=deck(ash).pk)
    version = deck(ash)
    assert version.catalogue_version == 10**6 and version.status == "illegal"
    assert version.ruling.reason == "Misprint." and version.effective_status == "legal"


# --- the audit trail of deck changes ----------------------------------------------------------------


def test_a_submitted_deck_is_audited_with_who_submitted_it(event, users, organiser, django_capture_on_commit_callbacks):
    registration = RegistrationFactory(event=event, player=PlayerFactory(display_name="Gary", user=users["gary"]))
    with django_capture_on_commit_callbacks(execute=False):
        services.deck_submit(registration=registration, decklist="1 Ember Whelp", roles={}, by=users["gary"])
        services.deck_submit(registration=registration, decklist="2 Ember Whelp", roles={}, by=organiser)
    first, second = entries("deck.submitted")
    label = f"Gary (#{registration.player_id})"
    assert (first.actor, first.subject, first.before, first.after) == (
        users["gary"],
        f"{label}: deck v1",
        None,
        {"version": 1},
    )
    assert (second.actor, second.subject, second.before, second.after) == (
        organiser, f"{label}: deck v2", {"version": 1}, {"version": 2}
    )  # fmt: skip
    assert "Ember" not in str(first.after)  # the list itself stays out of the trail


def test_a_refused_submission_leaves_no_entry(event, users):
    registration = RegistrationFactory(event=event, player=PlayerFactory(user=users["gary"]))
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    with pytest.raises(Conflict):
        services.deck_submit(registration=registration, decklist="1 Ember Whelp", roles={}, by=users["gary"])
    assert not entries("deck.submitted")


def test_the_checkers_verdict_is_not_a_persons_change_and_is_not_audited(card_catalogue, event, users):
    registration = RegistrationFactory(event=event)
    version = DeckVersion.objects.create(registration=registration, number=1, decklist="1 Ember Whelp")
    services.deck_version_validate(version_id=version.pk)
    assert DeckVersion.objects.get(pk=version.pk).status == "illegal"
    assert not AuditEntry.objects.filter(action__startswith="deck").exists()


def test_a_recheck_publishing_and_deck_options_are_audited(ash, event, organiser, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        services.deck_recheck_start(event=event, by=organiser)
    (recheck,) = entries("decks.rechecked")
    assert (recheck.actor, recheck.subject, recheck.after) == (organiser, "Every deck", {"decks": 1})

    services.event_decklists_publish(event=event, by=organiser)
    services.event_decklists_publish(event=event, by=organiser)  # already public: nothing changes
    services.event_decklists_publish(event=event, by=organiser, public=False)
    published, hidden = entries("decks.published")
    assert (published.before, published.after) == ({"decklists_public": False}, {"decklists_public": True})
    assert (hidden.before, hidden.after) == ({"decklists_public": True}, {"decklists_public": False})
    assert Event.objects.get(pk=event.pk).decklists_public is False

    services.event_deck_options_set(event=event, by=organiser, options={"deck_size": 50})
    services.event_deck_options_set(event=event, by=organiser, options={"deck_size": 50})  # unchanged
    services.event_deck_options_set(event=event, by=organiser, options={})
    changed, back = entries("decks.options_changed")
    assert (changed.subject, changed.before, changed.after) == (
        "Deck options",
        {"deck_options": {}},
        {"deck_options": {"deck_size": 50}},
    )
    assert (back.before, back.after) == ({"deck_options": {"deck_size": 50}}, {"deck_options": {}})
    with pytest.raises(ApplicationError):
        services.event_deck_options_set(event=event, by=organiser, options={"deck_size": 55})
    assert len(entries("decks.options_changed")) == 2


def test_the_audit_trails_decks_kind_holds_every_deck_change_and_the_event_kind_none(ash, event, users, organiser):
    services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users["judy"])
    services.deck_verdict_clear(version=deck(ash), reason="Errata.", by=users["judy"])
    services.event_decklists_publish(event=event, by=organiser)
    decks = {e.action for e in people.event_audit_of_kind(event=event, kind="decks")}
    assert decks == {"deck.overridden", "deck.override_cleared", "decks.published"}
    assert not {e.action for e in people.event_audit_of_kind(event=event, kind="event")} & decks


# --- the API ---------------------------------------------------------------------------------------


def api_for(user):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def ruling_url(registration, number: int = 1, clear: bool = False) -> str:
    url = f"/api/v1/events/{registration.event_id}/registrations/{registration.pk}/decks/{number}/ruling/"
    return url + "clear/" if clear else url


def error(answer) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


def test_a_judge_rules_through_the_api_and_sees_both_verdicts(ash, users):
    answer = api_for(users["judy"]).post(ruling_url(ash), {"status": "legal", "reason": "Misprint."}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["status"], body["checked_status"], body["number"]) == ("legal", "illegal", 1)
    assert {k: body["ruling"][k] for k in ("status", "reason", "by")} == {
        "status": "legal", "reason": "Misprint.", "by": "judy"
    }  # fmt: skip
    assert body["ruling"]["at"]
    cleared = api_for(users["judy"]).post(ruling_url(ash, clear=True), {"reason": "Errata."}, format="json")
    assert cleared.status_code == 200
    assert (cleared.json()["status"], cleared.json()["ruling"]) == ("illegal", None)


def test_the_api_refuses_what_the_service_refuses(ash, users):
    judge = api_for(users["judy"])
    assert error(judge.post(ruling_url(ash, clear=True), {"reason": "x"}, format="json")) == (409, "no_ruling")
    missing = judge.post(ruling_url(ash), {"status": "legal"}, format="json")
    assert error(missing) == (400, "invalid") and "reason" in missing.json()["error"]["fields"]
    blank = judge.post(ruling_url(ash), {"status": "legal", "reason": "   "}, format="json")
    assert error(blank) == (400, "invalid") and "reason" in blank.json()["error"]["fields"]
    pending = judge.post(ruling_url(ash), {"status": "pending", "reason": "x"}, format="json")
    assert error(pending) == (400, "invalid") and "status" in pending.json()["error"]["fields"]
    assert error(judge.post(ruling_url(ash, number=7), {"status": "legal", "reason": "x"}, format="json")) == (
        404, "not_found"
    )  # fmt: skip
    DeckVersion.objects.create(registration=ash, number=2, decklist="4 Ember Whelp\n")
    old = judge.post(ruling_url(ash, number=1), {"status": "legal", "reason": "x"}, format="json")
    assert error(old) == (409, "not_latest_version")
    assert error(api_for(None).post(ruling_url(ash, 2), {"status": "legal", "reason": "x"}, format="json")) == (
        401, "not_authenticated"
    )  # fmt: skip
    for who in ("sam", "carl", "ash"):
        refused = api_for(users[who]).post(ruling_url(ash, 2), {"status": "legal", "reason": "x"}, format="json")
        assert error(refused) == (403, "permission_denied"), who
    assert not DeckVerdictOverride.objects.exists()


def versions_seen(user, registration) -> dict:
    """What ``user`` reads of the registration's deck in the event's list and in its own list."""
    client = api_for(user)
    listed = {
        row["registration"]: row["version"]
        for row in client.get(f"/api/v1/events/{registration.event_id}/decks/").json()["results"]
    }
    own = client.get(f"/api/v1/events/{registration.event_id}/registrations/{registration.pk}/decks/").json()
    own = own["results"][0]
    assert listed[registration.pk] == own
    return own


def test_before_publication_everyone_sees_the_ruled_status_and_only_the_player_and_staff_see_the_ruling(
    ash, users, event, organiser
):
    services.deck_verdict_override(
        version=deck(ash), status="legal", reason="Misprint of Ember Whelp.", by=users["judy"]
    )
    for who in (None, "gary", "sam"):
        seen = versions_seen(users.get(who), ash)
        assert (seen["status"], seen["checked_status"], seen["ruling"], seen["violations"]) == (
            "legal",
            None,
            None,
            None,
        )
    for who in ("ash", "judy", "organiser", "cora"):
        seen = versions_seen(users[who], ash)
        assert (seen["status"], seen["checked_status"]) == ("legal", "illegal"), who
        assert seen["ruling"]["reason"] == "Misprint of Ember Whelp." and seen["ruling"]["by"] == "judy", who
    # Once published, anyone reads the ruling and its reason; who made it stays with the player and staff.
    services.event_decklists_publish(event=event, by=organiser)
    for who in (None, "gary", "sam"):
        seen = versions_seen(users.get(who), ash)
        assert seen["checked_status"] == "illegal" and seen["ruling"]["reason"] == "Misprint of Ember Whelp."
        assert seen["ruling"]["by"] is None
    assert versions_seen(users["ash"], ash)["ruling"]["by"] == "judy"
    assert versions_seen(users["carl"], ash)["ruling"]["by"] is None  # a caster not allowed to see hidden lists


def test_the_players_page_and_me_show_the_ruled_status_of_their_deck_and_their_opponents(ash, users, event, organiser):
    gary = RegistrationFactory(event=event, player=PlayerFactory(display_name="Gary", user=users["gary"]))
    DeckVersion.objects.create(registration=gary, number=1, decklist="1 Ember Whelp\n", status="illegal")
    services.deck_verdict_override(version=deck(ash), status="legal", reason="Misprint.", by=users["judy"])
    tournament_services.round_start(event=event, by=organiser, seed=1)
    me = api_for(users["gary"]).get("/api/v1/me/").json()
    (running,) = me["running"]
    assert [(o["display_name"], o["deck_status"]) for o in running["table"]["opponents"]] == [("Ash", "legal")]
    own = account_selectors.event_registration(event=event, player=ash.player)
    assert own.deck_status == "legal"
