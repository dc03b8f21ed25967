"""Bringing players in from a file: the service (all players or none, one audit entry each, invitations as by
hand), the API endpoint and its error shape, the dashboard's "Import players" page and the command."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from core.exceptions import ApplicationError, Conflict, PermissionDenied, TooLarge
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event
from tests.support.openapi import CODE_LINE, generate, operation
from tests.support.pages import text, url
from tests.support.people import as_user
from tests.support.tom import LEAGUE_CUP
from tournaments import roster, services
from tournaments.models import AuditEntry, Player, Registration

pytestmark = pytest.mark.django_db

ROSTER = "name;player_id;checked_in;fixed_table\nAsh Ketchum;1000001;yes;\nMisty;;;5\nBrock;;no;\n"


@pytest.fixture
def event(organiser):
    return make_event(organiser, 0)


def entered(event) -> list[tuple[str, str | None, str, bool, int | None]]:
    return [
        (r.player.display_name, r.player.external_id, r.status, r.checked_in, r.fixed_table)
        for r in Registration.objects.filter(event=event).select_related("player").order_by("pk")
    ]


def audit(event) -> list[tuple[str, str]]:
    entries = AuditEntry.objects.filter(event=event).exclude(action="event.created").order_by("pk")
    return [(action, subject.split(" (#")[0]) for action, subject in entries.values_list("action", "subject")]


def refusal(**kwargs) -> ApplicationError:
    with pytest.raises(ApplicationError) as refused:
        services.roster_import(**kwargs)
    return refused.value


# --- the service ---------------------------------------------------------------------------------------------


def test_every_player_of_the_file_is_registered_with_an_audit_entry_each(organiser, event):
    imported = services.roster_import(event=event, by=organiser, data=ROSTER.encode(), checked_in=True)

    assert (imported.kind, imported.registered, imported.invited) == ("csv", 3, 0)
    assert entered(event) == [
        ("Ash Ketchum", "1000001", "registered", True, None),
        ("Misty", None, "registered", True, 5),  # the row does not say: the import's choice
        ("Brock", None, "registered", False, None),
    ]
    assert audit(event) == [
        ("registration.created", "Ash Ketchum"), ("registration.created", "Misty"),
        ("registration.fixed_table", "Misty"), ("registration.created", "Brock"),
    ]  # fmt: skip


def test_a_known_player_id_reuses_the_player_and_an_account_holder_is_invited(organiser, event, django_user_model):
    known = PlayerFactory(display_name="Ash K.", external_id="1000001")
    holder = PlayerFactory(
        display_name="Misty", external_id="1000002", user=django_user_model.objects.create_user(username="misty")
    )
    imported = services.roster_import(
        event=event, by=organiser, data=b"name,player_id,checked_in\nAsh,1000001,yes\nMisty W.,1000002,yes\n"
    )

    assert (imported.registered, imported.invited) == (1, 1)
    assert [r.player for r in imported.registrations] == [known, holder]
    assert entered(event) == [
        ("Ash K.", "1000001", "registered", True, None),
        ("Misty", "1000002", "invited", False, None),
    ]
    assert [action for action, _ in audit(event)] == ["registration.created", "registration.invited"]
    assert Player.objects.count() == 2


def test_a_wrong_file_stores_nothing_and_lists_every_problem_with_the_events_own(organiser, event):
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Gary Oak", external_id="1000005"))
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Tracey"), fixed_table=5)
    players = Player.objects.count()
    file = "name,player_id,checked_in,fixed_table\nAsh,,,\n,2,,\nGary,1000005,,\ntracey,,,\nBrock,,nope,\nMisty,,,5\n"

    problem = refusal(event=event, by=organiser, data=file.encode())

    assert problem.code == "invalid_roster" and problem.message.startswith("5 problems in the file: nothing was")
    assert problem.extra["lines"] == [
        {"line": 3, "column": "name", "message": "the name is empty."},
        {"line": 4, "column": "player_id", "message": "Gary Oak (player ID 1000005) is already registered for this event."},
        {"line": 5, "column": "name", "message": "Tracey is already registered for this event: give a player_id to "
                                                  "enter another player of the same name."},
        {"line": 6, "column": "checked_in", "message": "'nope' is not yes or no."},
        {"line": 7, "column": "fixed_table", "message": "table 5 is already fixed for Tracey."},
    ]  # fmt: skip
    assert len(entered(event)) == 2 and Player.objects.count() == players and audit(event) == []


def test_a_file_that_is_no_roster_is_refused_and_one_too_large_too(organiser, event):
    assert refusal(event=event, by=organiser, data="name\nZoë\n".encode("cp1252")).code == "unreadable_file"
    too_large = refusal(event=event, by=organiser, data=b"name\n" + b"x" * roster.MAX_BYTES)
    assert isinstance(too_large, TooLarge) and too_large.status_code == 413
    assert entered(event) == []


def test_only_staff_who_manage_registrations_import_and_not_once_the_event_is_finished(organiser, outsider, event):
    with pytest.raises(PermissionDenied):
        services.roster_import(event=event, by=outsider, data=b"<not even read")
    services.event_finish(event=event, by=organiser)
    with pytest.raises(Conflict) as closed:
        services.roster_import(event=event, by=organiser, data=ROSTER.encode())
    assert closed.value.code == "event_finished"


def test_staff_import_beyond_the_capacity_as_they_enter_walk_ins(organiser, event):
    services.event_update(event=event, by=organiser, capacity=1)

    services.roster_import(event=event, by=organiser, data=ROSTER.encode())

    assert [status for _, _, status, _, _ in entered(event)] == ["registered"] * 3


def test_a_tom_files_players_are_registered_by_player_id_and_name(organiser, event):
    imported = services.roster_import(event=event, by=organiser, data=LEAGUE_CUP, checked_in=True)

    assert imported.kind == "tdf"
    assert [(name, pid, checked) for name, pid, _, checked, _ in entered(event)] == [
        ("Ash Ketchum", "1000001", True), ("Misty O'Hara", "1000002", True), ("Brock Harrison", "1000003", True),
        ("Zoë Núñez", "1000004", True), ("Gary Oak", "1000005", True),
    ]  # fmt: skip


# --- the API -------------------------------------------------------------------------------------------------


def test_the_api_takes_a_file_upload_and_answers_the_registrations(api, event):
    upload = io.BytesIO(ROSTER.encode())
    upload.name = "roster.csv"
    answer = api.post(
        f"/api/v1/events/{event.pk}/registrations/import/", {"file": upload, "checked_in": "true"}, format="multipart"
    )

    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["kind"], body["registered"], body["invited"]) == ("csv", 3, 0)
    assert [(r["player"]["display_name"], r["player"]["external_id"]) for r in body["registrations"]] == [
        ("Ash Ketchum", "1000001"), ("Misty", None), ("Brock", None),
    ]  # fmt: skip


def test_the_api_answers_every_problem_of_a_file_sent_as_text(api, event):
    answer = api.post(
        f"/api/v1/events/{event.pk}/registrations/import/", {"text": "name,player_id\n,1\nAsh,2\nMisty,2\n"},
        format="json",
    )  # fmt: skip

    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid_roster"
    assert answer.json()["error"]["lines"] == [
        {"line": 2, "column": "name", "message": "the name is empty."},
        {"line": 4, "column": "player_id", "message": "player ID 2 is already on line 3."},
    ]
    assert entered(event) == []


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"text": "<?xml version='1.0'?><!DOCTYPE t [<!ENTITY a 'b'>]><t/>"}, 400, "unreadable_file"),
        ({"text": "x" * (roster.MAX_BYTES + 1)}, 413, "file_too_large"),
        ({}, 400, "invalid"),
        ({"text": "name\nA", "file": ""}, 400, "invalid"),
    ],
)
def test_the_api_refuses_what_is_no_roster_with_its_code(api, event, body, status, code):
    answer = api.post(f"/api/v1/events/{event.pk}/registrations/import/", body, format="json")

    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)


def test_a_binary_upload_is_a_clear_error_not_a_server_error(api, event):
    upload = io.BytesIO(bytes(range(256)) * 4)
    upload.name = "photo.jpg"
    answer = api.post(f"/api/v1/events/{event.pk}/registrations/import/", {"file": upload}, format="multipart")

    assert answer.status_code == 400 and answer.json()["error"]["code"] == "unreadable_file"
    assert "UTF-8" in answer.json()["error"]["message"]


def test_an_outsider_may_not_import(outsider_api, event):
    answer = outsider_api.post(f"/api/v1/events/{event.pk}/registrations/import/", {"text": "name\nA\n"}, format="json")

    assert answer.status_code == 403 and entered(event) == []


def test_the_schema_documents_the_import_its_file_and_every_code_it_answers():
    schema, _ = generate()
    documented = operation(schema, "post", "/events/{event_id}/registrations/import/")
    codes = {status: CODE_LINE.findall(answer["description"]) for status, answer in documented["responses"].items()
             if status != "201"}  # fmt: skip

    assert {"invalid_roster", "unreadable_file", "invalid"} <= set(codes["400"])
    assert set(codes["409"]) == {"event_finished", "top_cut_started"} and "file_too_large" in codes["413"]
    multipart = documented["requestBody"]["content"]["multipart/form-data"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert schema["components"]["schemas"][multipart]["properties"]["file"]["format"] == "binary"
    assert "lines" in schema["components"]["schemas"]["Error"]["properties"]


# --- the dashboard -------------------------------------------------------------------------------------------


def test_the_players_card_links_to_the_import_page_which_explains_the_columns(client, organiser, event):
    as_user(client, organiser)
    assert url("roster-import", event.pk) in client.get(url("event-detail", event.pk)).content.decode()

    page = client.get(url("roster-import", event.pk))

    assert page.status_code == 200
    assert "name (required)" in text(page) and "fixed_table" in text(page) and "TOM .tdf" in text(page)


def test_importing_on_the_page_registers_the_players_and_says_how_many(client, organiser, event):
    as_user(client, organiser)
    upload = io.BytesIO(ROSTER.encode())
    upload.name = "roster.csv"

    answer = client.post(url("roster-import", event.pk), {"file": upload}, follow=True)

    assert "Imported 3 players: 3 registered." in text(answer)
    assert len(entered(event)) == 3


def test_the_page_lists_every_problem_by_line_and_imports_nothing(client, organiser, event):
    as_user(client, organiser)
    upload = io.BytesIO(b"name,checked_in\nAsh,maybe\n,\nMisty,no\n,yes\n")  # line 3 is blank: skipped
    upload.name = "roster.csv"

    answer = client.post(url("roster-import", event.pk), {"file": upload})

    assert answer.status_code == 400
    page = text(answer)
    assert "2 problems in the file: nothing was imported." in page
    assert "2 checked_in 'maybe' is not yes or no." in page and "5 name The name is empty." in page
    assert entered(event) == []


def test_the_import_page_is_for_the_staff_who_manage_registrations(client, outsider, event):
    as_user(client, outsider)

    assert client.get(url("roster-import", event.pk)).status_code == 403


# --- the command ---------------------------------------------------------------------------------------------


def test_the_command_imports_a_file_as_the_organiser(event, tmp_path):
    file = tmp_path / "cup.tdf"
    file.write_bytes(LEAGUE_CUP)
    out = io.StringIO()

    call_command("roster_import", str(event.pk), str(file), "--checked-in", stdout=out)

    assert "Imported 5 players into League night: 5 registered, 0 invited." in out.getvalue()
    assert all(checked for _, _, _, checked, _ in entered(event))


def test_the_command_prints_every_problem_and_fails(event, tmp_path):
    file = tmp_path / "roster.csv"
    file.write_text("name\nAsh\nash\n")
    err = io.StringIO()

    with pytest.raises(CommandError, match="1 problem in the file"):
        call_command("roster_import", str(event.pk), str(file), stderr=err)
    assert "Line 3, name: Ash is already on line 2" in err.getvalue()  # a sentence opens with a capital
