"""Penalties through the API: giving, rescinding and reading them, each answer validated against the schema.

Staff with the dashboard read all of an event's penalties with the judges' notes; a signed-in player
reads their own, without the notes; an anonymous caller is not signed in.  Refusals carry their codes:
a player not in the event, a round not paired, a finished event, a penalty rescinded twice.
"""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.api_checks import Api
from tests.support.events import make_event, report_all
from tests.support.openapi import CODE_LINE, component, enum_values, operation, request_component, response_schema
from tournaments import services
from tournaments.models import Penalty, Player, Registration
from tournaments.services import staff

pytestmark = pytest.mark.django_db

LIST = "/events/{event_id}/penalties/"
RESCIND = "/events/{event_id}/penalties/{penalty_id}/rescind/"


@pytest.fixture
def crew(django_user_model):
    def account(name: str):
        return django_user_model.objects.create_user(username=name, password="pw")

    return {name: account(name) for name in ("jo", "sam", "cass", "pat", "kim")}


@pytest.fixture
def duel(organiser, crew):
    """A Deck Masters event with a judge (jo), a scorekeeper (sam) and a caster (cass); round 1 reported,
    round 2 paired; pat and kim are two of its players with accounts."""
    event = make_event(organiser, 6, rounds=3)
    for username, role in (("jo", "judge"), ("sam", "scorekeeper"), ("cass", "caster")):
        staff.staff_add(event=event, username=username, role=role, by=organiser)
    for registration, name in zip(event.registrations.order_by("id")[:2], ("pat", "kim"), strict=True):
        Player.objects.filter(pk=registration.player_id).update(user=crew[name])
    services.round_start(event=event, by=organiser, seed=1)
    report_all(event, organiser)
    services.round_start(event=event, by=organiser, seed=2)
    return event


def reg_of(event, crew, name: str) -> Registration:
    return event.registrations.get(player__user=crew[name])


@pytest.fixture
def api(wsgi_in_test_transaction):
    return Api


def code(answer: dict) -> str:
    return answer["error"]["code"]


# --- giving ---------------------------------------------------------------------------------------


def test_a_judge_gives_a_warning_in_the_current_round_and_reads_it_back(api, duel, crew):
    pat = reg_of(duel, crew, "pat")
    given = api(crew["jo"])(
        "post", LIST, 201,
        {"registration": pat.pk, "penalty": "warning", "infraction": "Drawing extra cards", "note": "Drew 2, not 1."},
        event_id=duel.pk,
    )  # fmt: skip
    assert given["registration"] == pat.pk and given["player"]["id"] == pat.player_id
    assert (given["penalty"], given["infraction"], given["round"]) == ("warning", "Drawing extra cards", 2)
    assert (given["note"], given["issued_by"]) == ("Drew 2, not 1.", "jo")
    assert given["rescinded"] is False and given["rescinded_at"] is None and given["rescind_reason"] == ""
    assert Penalty.objects.get(pk=given["id"]).issued_by == crew["jo"]


def test_a_penalty_may_name_an_earlier_round_and_a_disqualification_drops_the_player(api, duel, crew, organiser):
    pat = reg_of(duel, crew, "pat")
    given = api(organiser)(
        "post", LIST, 201,
        {"registration": pat.pk, "penalty": "disqualification", "infraction": "Marked cards", "round": 1},
        event_id=duel.pk,
    )  # fmt: skip
    assert given["round"] == 1
    registration = api(organiser)("get", "/events/{event_id}/registrations/", 200, event_id=duel.pk)["results"]
    assert next(r for r in registration if r["id"] == pat.pk)["dropped"] is True
    audit = api(organiser)("get", "/events/{event_id}/audit/", 200, event_id=duel.pk, query={"kind": "registrations"})
    assert audit["results"][0]["action"] == "registration.dropped"
    assert audit["results"][0]["reason"] == "Disqualified: Marked cards"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"penalty": "yellow_card"}, "penalty"),
        ({"infraction": "   "}, "infraction"),
        ({"infraction": "x" * 201}, "infraction"),
        ({"round": 3}, "round"),
        ({"round": 0}, "round"),
        ({"registration": 10**9}, "registration"),
    ],
)
def test_a_bad_penalty_is_a_400_at_its_field(api, duel, crew, body, field):
    pat = reg_of(duel, crew, "pat")
    full = {"registration": pat.pk, "penalty": "warning", "infraction": "Slow play", **body}
    answer = api(crew["jo"])("post", LIST, 400, full, event_id=duel.pk)
    assert code(answer) == "invalid" and field in answer["error"]["fields"]
    assert not Penalty.objects.exists()


def test_a_player_of_another_event_waiting_or_withdrawn_is_not_penalised_here(api, duel, crew, organiser):
    elsewhere = RegistrationFactory(player=PlayerFactory())
    answer = api(crew["jo"])(
        "post", LIST, 400, {"registration": elsewhere.pk, "penalty": "warning", "infraction": "Slow play"},
        event_id=duel.pk,
    )  # fmt: skip
    assert "registration" in answer["error"]["fields"]
    waiting = RegistrationFactory(event=duel, status=Registration.Status.WAITLISTED, checked_in=False)
    answer = api(crew["jo"])(
        "post", LIST, 409, {"registration": waiting.pk, "penalty": "warning", "infraction": "Slow play"},
        event_id=duel.pk,
    )  # fmt: skip
    assert code(answer) == "not_registered"


def test_only_organisers_and_judges_give_penalties(api, duel, crew):
    body = {"registration": reg_of(duel, crew, "kim").pk, "penalty": "caution", "infraction": "Slow play"}
    for name in ("sam", "cass", "pat"):
        assert code(api(crew[name])("post", LIST, 403, body, event_id=duel.pk)) == "permission_denied", name
    assert code(api(None)("post", LIST, 401, body, event_id=duel.pk)) == "not_authenticated"
    assert code(api(crew["jo"])("post", LIST, 404, body, event_id=10**9)) == "not_found"


# --- rescinding -----------------------------------------------------------------------------------


def test_a_rescinded_penalty_stays_marked_and_a_second_rescind_is_a_409(api, duel, crew, organiser):
    given = services.penalty_issue(
        event=duel, registration_id=reg_of(duel, crew, "pat").pk, penalty="game_loss", infraction="Decklist error",
        by=crew["jo"],
    )  # fmt: skip
    answer = api(crew["jo"])("post", RESCIND, 400, {"reason": ""}, event_id=duel.pk, penalty_id=given.pk)
    assert "reason" in answer["error"]["fields"]
    rescinded = api(crew["jo"])(
        "post", RESCIND, 200, {"reason": "The list was right."}, event_id=duel.pk, penalty_id=given.pk
    )
    assert rescinded["rescinded"] is True and rescinded["rescinded_by"] == "jo"
    assert rescinded["rescind_reason"] == "The list was right." and rescinded["rescinded_at"]
    again = api(organiser)("post", RESCIND, 409, {"reason": "Again."}, event_id=duel.pk, penalty_id=given.pk)
    assert code(again) == "already_rescinded"
    assert code(api(crew["sam"])("post", RESCIND, 403, {"reason": "x"}, event_id=duel.pk, penalty_id=given.pk)) == (
        "permission_denied"
    )
    other = make_event(organiser, 2)
    assert code(api(organiser)("post", RESCIND, 404, {"reason": "x"}, event_id=other.pk, penalty_id=given.pk)) == (
        "not_found"
    )
    assert code(api(organiser)("post", RESCIND, 404, {"reason": "x"}, event_id=duel.pk, penalty_id=10**9)) == (
        "not_found"
    )


def test_a_finished_events_penalties_are_final(api, duel, crew, organiser):
    given = services.penalty_issue(
        event=duel, registration_id=reg_of(duel, crew, "pat").pk, penalty="warning", infraction="Slow play",
        by=crew["jo"],
    )  # fmt: skip
    report_all(duel, organiser)
    services.event_finish(event=duel, by=organiser)
    body = {"registration": reg_of(duel, crew, "kim").pk, "penalty": "warning", "infraction": "Slow play"}
    assert code(api(organiser)("post", LIST, 409, body, event_id=duel.pk)) == "event_finished"
    answer = api(organiser)("post", RESCIND, 409, {"reason": "Late."}, event_id=duel.pk, penalty_id=given.pk)
    assert code(answer) == "event_finished"


# --- reading --------------------------------------------------------------------------------------


def test_staff_read_every_penalty_with_notes_and_a_player_reads_only_their_own(api, duel, crew, organiser, outsider):
    pat, kim = reg_of(duel, crew, "pat"), reg_of(duel, crew, "kim")
    for registration, penalty in ((pat, "warning"), (kim, "caution"), (pat, "game_loss")):
        services.penalty_issue(
            event=duel, registration_id=registration.pk, penalty=penalty, infraction="Slow play", note="Timed: 40 s.",
            by=crew["jo"],
        )  # fmt: skip
    for reader in (organiser, crew["jo"], crew["sam"], crew["cass"]):
        listed = api(reader)("get", LIST, 200, event_id=duel.pk)["results"]
        assert [p["penalty"] for p in listed] == ["game_loss", "caution", "warning"], reader
        assert {p["note"] for p in listed} == {"Timed: 40 s."}
    mine = api(crew["pat"])("get", LIST, 200, event_id=duel.pk)["results"]
    assert [p["penalty"] for p in mine] == ["game_loss", "warning"]
    assert {p["player"]["id"] for p in mine} == {pat.player_id}
    assert {p["note"] for p in mine} == {None}
    assert [p["penalty"] for p in api(crew["kim"])("get", LIST, 200, event_id=duel.pk)["results"]] == ["caution"]
    assert api(outsider)("get", LIST, 200, event_id=duel.pk)["results"] == []  # signed in, no player record
    assert code(api(None)("get", LIST, 401, event_id=duel.pk)) == "not_authenticated"
    assert code(api(organiser)("get", LIST, 404, event_id=10**9)) == "not_found"


def test_the_audit_trail_keeps_both_changes_under_penalties(api, duel, crew, organiser):
    given = services.penalty_issue(
        event=duel, registration_id=reg_of(duel, crew, "pat").pk, penalty="warning", infraction="Slow play",
        by=crew["jo"],
    )  # fmt: skip
    services.penalty_rescind(penalty=given, by=crew["jo"], reason="Misheard.")
    page = api(organiser)("get", "/events/{event_id}/audit/", 200, event_id=duel.pk, query={"kind": "penalties"})
    assert [e["action"] for e in page["results"]] == ["penalty.rescinded", "penalty.issued"]
    rescinded, issued = page["results"]
    assert rescinded["actor"] == "jo" and rescinded["reason"] == "Misheard."
    assert rescinded["before"]["rescinded"] is False and rescinded["after"]["rescinded"] is True
    assert issued["before"] is None and issued["after"]["infraction"] == "Slow play"


# --- the schema -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def schema() -> dict:
    from tests.support.openapi import generate

    return generate()[0]


def codes(schema: dict, method: str, path: str, status: int) -> list[str]:
    return CODE_LINE.findall(operation(schema, method, path)["responses"][str(status)]["description"])


def test_the_schema_names_the_penalty_components_and_their_codes(schema):
    name, body = request_component(schema, "post", LIST)
    assert name == "PenaltyIssueRequest" and set(body["required"]) == {"registration", "penalty", "infraction"}
    assert enum_values(schema, body["properties"]["penalty"]) == [
        "caution", "warning", "prize_penalty", "game_loss", "match_loss", "disqualification"
    ]  # fmt: skip
    assert body["properties"]["round"]["nullable"] is True
    name, penalty = component(schema, response_schema(schema, "post", LIST, 201))
    assert name == "Penalty"
    assert set(penalty["required"]) == {
        "id", "registration", "player", "round", "penalty", "infraction", "note", "issued_by", "issued_at",
        "rescinded", "rescinded_at", "rescinded_by", "rescind_reason",
    }  # fmt: skip
    for field in ("round", "note", "issued_by", "rescinded_at", "rescinded_by"):
        assert penalty["properties"][field]["nullable"] is True, field
    listed = response_schema(schema, "get", LIST, 200)
    assert listed == {"$ref": "#/components/schemas/PaginatedPenaltyList"}
    page = schema["components"]["schemas"]["PaginatedPenaltyList"]["properties"]
    assert page["results"] == {"type": "array", "items": {"$ref": "#/components/schemas/Penalty"}}
    name, body = request_component(schema, "post", RESCIND)
    assert name == "PenaltyRescindRequest" and body["required"] == ["reason"]
    assert component(schema, response_schema(schema, "post", RESCIND, 200))[0] == "Penalty"
    assert set(codes(schema, "post", LIST, 409)) == {"event_finished", "not_registered"}
    assert set(codes(schema, "post", RESCIND, 409)) == {"event_finished", "already_rescinded"}
    assert codes(schema, "post", RESCIND, 403) == ["permission_denied"]
    assert codes(schema, "post", RESCIND, 401) == ["not_authenticated", "authentication_failed"]
    assert codes(schema, "get", LIST, 401) == ["not_authenticated", "authentication_failed"]
