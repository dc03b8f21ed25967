"""The REST API of the people issue: event windows, staff, claim codes, undoing drops, results with game
scores, reports, corrections, the audit trail and ``/me/``, with their refusals."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import AuditEntry, EventStaff, Player, Registration
from tournaments.services import staff

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def code(response) -> str:
    return response.json()["error"]["code"]


@pytest.fixture
def users(django_user_model):
    def make(name: str, **extra):
        return django_user_model.objects.create_user(username=name, password="pw", **extra)

    return make


@pytest.fixture
def duel(organiser, users):
    """A 1v1 event with player reports, round 1 paired: Ash and Gary (accounts) at table 1, two walk-ins at 2."""
    event = make_event(organiser, 4, format="deck-masters", rounds=3)
    services.event_update(event=event, by=organiser, player_reports=True)
    services.round_start(event=event, by=organiser, seed=1)
    seats = event.rounds.get(number=1).pods.get(table_number=1).seats.order_by("seat_order")
    accounts = []
    for seat, name in zip(seats, ("ash", "gary"), strict=True):
        user = users(name)
        Player.objects.filter(pk=seat.player_id).update(user=user, display_name=name.title())
        accounts.append((user, seat.player_id))
    (ash, pa), (gary, pb) = accounts
    return event, ash, gary, pa, pb


def table_url(event, number=1, table=1, action="result") -> str:
    return f"/api/v1/events/{event.pk}/rounds/{number}/tables/{table}/{action}/"


# --- the event's settings -----------------------------------------------------------------------


def test_the_players_windows_are_event_settings_and_a_capacity_is_one_or_more(api, organiser):
    event = make_event(organiser, 0)
    url = f"/api/v1/events/{event.pk}/"
    body = {"registration_open": True, "registration_deadline": "2026-12-01T18:00:00Z", "capacity": 32,
            "check_in_open": True, "player_reports": True, "casters_see_decklists": True, "magic_floor": "1/3"}  # fmt: skip
    answer = api.patch(url, body, format="json").json()
    assert {k: answer[k] for k in body} == {**body, "registration_deadline": "2026-12-01T18:00:00Z"}
    assert api.patch(url, {"capacity": None}, format="json").json()["capacity"] is None
    refused = api.patch(url, {"capacity": 0, "magic_floor": "0.3"}, format="json")
    assert refused.status_code == 400 and set(refused.json()["error"]["fields"]) == {"capacity", "magic_floor"}


# --- staff ------------------------------------------------------------------------------------


def test_the_organiser_adds_changes_and_removes_staff_by_username(api, organiser, users):
    event = make_event(organiser, 0)
    users("Judy")
    url = f"/api/v1/events/{event.pk}/staff/"
    added = api.post(url, {"user": "judy", "role": "judge"}, format="json")  # usernames match in any case
    assert added.status_code == 201 and added.json()["user"] == "Judy" and added.json()["role"] == "judge"
    changed = api.post(url, {"user": "Judy", "role": "scorekeeper"}, format="json")
    assert changed.status_code == 200 and changed.json()["role"] == "scorekeeper"
    assert [s["role"] for s in api.get(url).json()["results"]] == ["scorekeeper"]
    assert code(api.post(url, {"user": "nobody", "role": "judge"}, format="json")) == "unknown_user"
    assert code(api.post(url, {"user": "organiser", "role": "judge"}, format="json")) == "already_organiser"
    assert api.post(url, {"user": "Judy", "role": "boss"}, format="json").json()["error"]["fields"].keys() == {"role"}

    assert api.delete(url + "Judy/").status_code == 204
    assert not EventStaff.objects.filter(event=event).exists()
    assert (api.delete(url + "Judy/").status_code, code(api.delete(url + "Judy/"))) == (404, "not_staff")
    assert code(api.delete(url + "nobody/")) == "unknown_user"
    assert code(api.delete(url + "a%00b/")) == "not_found"  # a NUL no username has: not a database error


def test_co_organisers_manage_staff_but_scorekeepers_do_not(organiser, users):
    event = make_event(organiser, 0)
    co, keeper = users("co"), users("keeper")
    staff.staff_add(event=event, username="co", role="co_organiser", by=organiser)
    staff.staff_add(event=event, username="keeper", role="scorekeeper", by=organiser)
    url = f"/api/v1/events/{event.pk}/staff/"
    users("jo")
    assert client_for(co).post(url, {"user": "jo", "role": "caster"}, format="json").status_code == 201
    assert code(client_for(keeper).post(url, {"user": "jo", "role": "judge"}, format="json")) == "permission_denied"
    assert code(client_for(keeper).delete(url + "jo/")) == "permission_denied"


# --- registrations ----------------------------------------------------------------------------


def test_a_walk_in_claims_their_record_with_the_code_staff_give_them(api, organiser, users):
    event = make_event(organiser, 0)
    walk_in = RegistrationFactory(event=event, player=PlayerFactory(display_name="Brock"))
    answer = api.post(f"/api/v1/events/{event.pk}/registrations/{walk_in.pk}/claim-code/")
    assert answer.status_code == 201
    claim = answer.json()["code"]
    newcomer = users("brock")
    claimed = client_for(newcomer).post("/api/v1/players/claim/", {"code": f" {claim.lower()} "}, format="json")
    assert claimed.status_code == 200
    assert claimed.json()["id"] == walk_in.player_id
    assert client_for(newcomer).get("/api/v1/me/").json()["upcoming"][0]["registration"]["id"] == walk_in.pk
    again = api.post(f"/api/v1/events/{event.pk}/registrations/{walk_in.pk}/claim-code/")
    assert (again.status_code, code(again)) == (409, "already_claimed")
    unknown = client_for(users("misty")).post("/api/v1/players/claim/", {"code": "NOPE"}, format="json")
    assert (unknown.status_code, code(unknown)) == (404, "unknown_claim_code")


def test_a_player_with_a_history_of_their_own_cannot_claim_another_record(api, organiser, users):
    event = make_event(organiser, 0)
    ash = users("ash")
    RegistrationFactory(event=event, player=PlayerFactory(user=ash))
    walk_in = RegistrationFactory(event=event)
    claim = api.post(f"/api/v1/events/{event.pk}/registrations/{walk_in.pk}/claim-code/").json()["code"]
    refused = client_for(ash).post("/api/v1/players/claim/", {"code": claim}, format="json")
    assert (refused.status_code, code(refused)) == (409, "player_has_history")


def test_staff_undo_a_drop_with_a_reason_and_the_trail_keeps_it(api, organiser, users):
    event = make_event(organiser, 4)
    registration = event.registrations.first()
    base = f"/api/v1/events/{event.pk}/registrations/{registration.pk}/"
    assert api.post(base + "drop/").json()["dropped"] is True
    assert api.post(base + "undrop/", {}, format="json").json()["error"]["fields"].keys() == {"reason"}
    undone = api.post(base + "undrop/", {"reason": "Dropped by mistake at the desk."}, format="json")
    assert undone.status_code == 200 and undone.json()["dropped"] is False
    entry = AuditEntry.objects.filter(event=event, action="registration.undropped").get()
    assert entry.reason == "Dropped by mistake at the desk."


def test_a_player_drops_themselves_between_rounds_but_not_someone_else(duel, organiser):
    event, ash, gary, pa, pb = duel
    theirs = Registration.objects.get(event=event, player_id=pa)
    url = f"/api/v1/events/{event.pk}/registrations/{theirs.pk}/drop/"
    assert code(client_for(gary).post(url)) == "permission_denied"
    assert code(client_for(ash).post(url)) == "round_in_progress"
    services.pod_result_report(event=event, round_number=1, table_number=1, placements={pa: 1, pb: 2}, by=organiser)
    assert client_for(ash).post(url).json()["dropped"] is True


# --- results ------------------------------------------------------------------------------------


def test_staff_enter_a_game_score_and_the_table_shows_it(api, duel):
    event, ash, gary, pa, pb = duel
    body = {"placements": [{"player": pa, "placement": 1}, {"player": pb, "placement": 2}],
            "games": [{"player": pa, "won": 2, "lost": 1, "drawn": 0}, {"player": pb, "won": 1, "lost": 2, "drawn": 0}]}  # fmt: skip
    table = api.post(table_url(event), body, format="json")
    assert table.status_code == 201
    seats = {s["player"]["id"]: s for s in table.json()["seats"]}
    assert (seats[pa]["games_won"], seats[pa]["games_lost"], seats[pa]["games_drawn"]) == (2, 1, 0)
    assert (seats[pb]["games_won"], seats[pb]["games_lost"]) == (1, 2)
    assert table.json()["intentional_draw"] is False and table.json()["corrected"] is False


def test_staff_record_an_intentional_draw(api, duel):
    event, ash, gary, pa, pb = duel
    body = {"placements": [{"player": pa, "placement": 1}, {"player": pb, "placement": 1}], "intentional_draw": True}
    table = api.post(table_url(event), body, format="json").json()
    assert table["intentional_draw"] is True
    assert {(s["games_won"], s["games_lost"], s["games_drawn"]) for s in table["seats"]} == {(0, 0, 0)}


@pytest.mark.parametrize("case", ["one player", "a player twice", "not mirrored", "the loser won more"])
def test_a_game_score_that_does_not_fit_the_result_is_a_field_error(api, duel, case):
    event, ash, gary, pa, pb = duel

    def score(player, won, lost):
        return {"player": player, "won": won, "lost": lost, "drawn": 0}

    games = {
        "one player": [score(pa, 2, 1)],
        "a player twice": [score(pa, 2, 1), score(pa, 1, 2)],
        "not mirrored": [score(pa, 2, 1), score(pb, 2, 1)],
        "the loser won more": [score(pa, 1, 2), score(pb, 2, 1)],
    }[case]
    body = {"placements": [{"player": pa, "placement": 1}, {"player": pb, "placement": 2}], "games": games}
    refused = api.post(table_url(event), body, format="json")
    assert (refused.status_code, code(refused)) == (400, "invalid")
    assert set(refused.json()["error"]["fields"]) == {"games"}


def test_a_player_reports_the_opponent_disputes_and_a_judge_settles(duel, organiser, users):
    event, ash, gary, pa, pb = duel
    staff.staff_add(event=event, username=users("judy").username, role="judge", by=organiser)
    judy = EventStaff.objects.get(event=event).user
    says_ash = {"placements": [{"player": pa, "placement": 1}, {"player": pb, "placement": 2}]}
    says_gary = {"placements": [{"player": pa, "placement": 2}, {"player": pb, "placement": 1}]}
    assert code(client_for(judy).post(table_url(event), says_ash, format="json")) == "permission_denied"
    reported = client_for(ash).post(table_url(event, action="report"), says_ash, format="json")
    assert reported.status_code == 201
    report = reported.json()["table"]["report"]
    assert (report["status"], report["reported_by"]["id"], report["responses"]) == ("pending", pa, [])
    assert report["placements"] == [{"player": pa, "placement": 1}, {"player": pb, "placement": 2}]
    own = client_for(ash).post(table_url(event, action="confirm"), {"agrees": True}, format="json")
    assert (own.status_code, code(own)) == (409, "own_report")

    disputed = client_for(gary).post(table_url(event, action="confirm"), {"agrees": False}, format="json")
    assert disputed.status_code == 200 and disputed.json()["state"] == "disputed"
    public = APIClient().get(f"/api/v1/events/{event.pk}/rounds/1/").json()["tables"][0]
    assert public["report"]["status"] == "disputed"
    assert public["report"]["responses"][0]["player"]["id"] == pb and not public["report"]["responses"][0]["agrees"]
    again = client_for(gary).post(table_url(event, action="report"), says_gary, format="json")
    assert (again.status_code, code(again)) == (409, "already_answered")

    settled = client_for(judy).post(table_url(event), says_gary, format="json")
    assert settled.status_code == 201 and settled.json()["report"] is None
    assert [s["placement"] for s in settled.json()["seats"] if s["player"]["id"] == pb] == [1]
    late = client_for(gary).post(table_url(event, action="confirm"), {"agrees": True}, format="json")
    assert (late.status_code, code(late)) == (409, "result_exists")


def test_a_judge_accepts_a_report_the_walk_in_opponent_cannot_confirm(duel, organiser, users):
    event, ash, gary, pa, pb = duel
    Player.objects.filter(pk=pb).update(user=None)  # Gary is a walk-in: no account to confirm with
    staff.staff_add(event=event, username=users("judy").username, role="judge", by=organiser)
    judy = EventStaff.objects.get(event=event).user
    accept = table_url(event, action="report/accept")
    none = client_for(judy).post(accept)
    assert (none.status_code, code(none)) == (404, "no_report")
    body = {
        "placements": [{"player": pa, "placement": 1}, {"player": pb, "placement": 2}],
        "games": [{"player": pa, "won": 2, "lost": 1, "drawn": 0}, {"player": pb, "won": 1, "lost": 2, "drawn": 0}],
    }
    assert client_for(ash).post(table_url(event, action="report"), body, format="json").status_code == 201
    refused = client_for(ash).post(accept)
    assert (refused.status_code, code(refused)) == (403, "permission_denied")

    accepted = client_for(judy).post(accept)

    assert accepted.status_code == 200 and accepted.json()["state"] == "confirmed"
    table = accepted.json()["table"]
    assert table["reported"] and table["report"] is None
    assert {s["player"]["id"]: (s["placement"], s["games_won"]) for s in table["seats"]} == {pa: (1, 2), pb: (2, 1)}
    entry = AuditEntry.objects.filter(event=event, action="result.confirmed").get()
    assert entry.actor == judy and "not confirmed by Gary" in entry.reason
    again = client_for(judy).post(accept)
    assert (again.status_code, code(again)) == (409, "result_exists")


def test_only_players_at_the_table_report_and_only_when_the_event_takes_reports(duel, organiser, users, api):
    event, ash, gary, pa, pb = duel
    body = {"placements": [{"player": pa, "placement": 1}, {"player": pb, "placement": 2}]}
    stranger = users("zed")
    RegistrationFactory(event=event, player=PlayerFactory(user=stranger))
    for who in (stranger, organiser):
        refused = client_for(who).post(table_url(event, action="report"), body, format="json")
        assert (refused.status_code, code(refused)) == (403, "not_at_table")
    nothing = client_for(gary).post(table_url(event, action="confirm"), {"agrees": True}, format="json")
    assert (nothing.status_code, code(nothing)) == (404, "no_report")
    api.patch(f"/api/v1/events/{event.pk}/", {"player_reports": False}, format="json")
    off = client_for(ash).post(table_url(event, action="report"), body, format="json")
    assert (off.status_code, code(off)) == (409, "player_reports_off")
    assert code(APIClient().post(table_url(event, action="report"), body, format="json")) == "not_authenticated"


def test_a_correction_after_the_next_round_answers_the_rounds_left_as_paired(api, organiser, users):
    event = make_event(organiser, 4)
    services.round_start(event=event, by=organiser, seed=1)
    report_all(event, organiser)
    services.round_start(event=event, by=organiser, seed=2)
    pod = event.rounds.get(number=1).pods.get(table_number=1)
    a, b = (s.player_id for s in pod.seats.order_by("seat_order"))
    body = {"placements": [{"player": a, "placement": 2}, {"player": b, "placement": 1}], "reason": "Wrong slip."}
    assert api.post(table_url(event, action="correction"), {**body, "reason": "  "}, format="json").status_code == 400
    corrected = api.post(table_url(event, action="correction"), body, format="json")
    assert corrected.status_code == 200
    assert corrected.json()["later_rounds"] == [2] and corrected.json()["table"]["corrected"] is True
    none = api.post(table_url(event, number=2, action="correction"), body, format="json")
    assert (none.status_code, code(none)) == (409, "no_result")


def test_after_the_finish_only_the_organiser_corrects(api, organiser, users):
    event = make_event(organiser, 2, rounds=1)
    services.round_start(event=event, by=organiser, seed=1)
    report_all(event, organiser)
    services.event_finish(event=event, by=organiser)
    keeper = users("keeper")
    staff.staff_add(event=event, username="keeper", role="scorekeeper", by=organiser)
    a, b = (s.player_id for s in event.rounds.get().pods.get().seats.order_by("seat_order"))
    body = {"placements": [{"player": a, "placement": 2}, {"player": b, "placement": 1}], "reason": "Judge call."}
    assert code(client_for(keeper).post(table_url(event, action="correction"), body, format="json")) == (
        "permission_denied"
    )
    assert api.post(table_url(event, action="correction"), body, format="json").status_code == 200


# --- the audit trail and /me/ -----------------------------------------------------------------------


def test_the_audit_trail_is_paginated_newest_first_and_filtered_by_kind(api, organiser):
    event = make_event(organiser, 6)
    for registration in event.registrations.all():
        services.registration_drop(registration=registration, by=organiser)
    url = f"/api/v1/events/{event.pk}/audit/"
    page = api.get(url, {"limit": 2}).json()
    assert page["count"] == 7 and len(page["results"]) == 2 and page["next"]
    assert [e["action"] for e in page["results"]] == ["registration.dropped"] * 2
    everything = api.get(url, {"limit": 500}).json()["results"]
    assert everything[-1]["action"] == "event.created" and everything[-1]["actor"] == "organiser"
    assert [e["id"] for e in everything] == sorted((e["id"] for e in everything), reverse=True)
    assert api.get(url, {"kind": "registrations"}).json()["count"] == 6
    assert api.get(url, {"kind": "nonsense"}).status_code == 400
    assert api.get(url, {"offset": 10**30}).json()["results"] == []  # far beyond the trail: an empty page


def test_me_shows_the_current_table_the_opponent_and_the_report_waiting_for_an_answer(duel):
    event, ash, gary, pa, pb = duel
    body = {"placements": [{"player": pa, "placement": 1}, {"player": pb, "placement": 2}],
            "games": [{"player": pa, "won": 2, "lost": 0, "drawn": 0}, {"player": pb, "won": 0, "lost": 2, "drawn": 0}]}  # fmt: skip
    client_for(ash).post(table_url(event, action="report"), body, format="json")
    (running,) = client_for(gary).get("/api/v1/me/").json()["running"]
    table = running["table"]
    assert (table["round"], table["round_label"], table["table"], table["reported"]) == (1, "Round 1", 1, False)
    assert [o["display_name"] for o in table["opponents"]] == ["Ash"]
    assert table["to_answer"] is True and table["report"]["games"][0] == {"player": pa, "won": 2, "lost": 0,
                                                                          "drawn": 0}  # fmt: skip
    assert client_for(ash).get("/api/v1/me/").json()["running"][0]["table"]["to_answer"] is False
    client_for(gary).post(table_url(event, action="confirm"), {"agrees": True}, format="json")
    (running,) = client_for(gary).get("/api/v1/me/").json()["running"]
    assert running["table"]["reported"] is True and running["table"]["report"] is None
    assert running["history"] == [
        {"round": 1, "table": 1, "opponents": ["Ash"], "placement": 2, "points": 0, "games": [0, 2, 0]}
    ]


def test_answering_a_staff_result_looks_for_no_open_report_the_result_has_settled(api, duel):
    """The result endpoint is the hot path of a big event: its answer adds no query for a report that cannot be."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    event, ash, gary, pa, pb = duel
    body = {"placements": [{"player": pa, "placement": 1}, {"player": pb, "placement": 2}]}
    with CaptureQueriesContext(connection) as queries:
        assert api.post(table_url(event), body, format="json").status_code == 201
    about_reports = [q["sql"] for q in queries if "resultreport" in q["sql"].lower()]
    assert len(about_reports) == 1  # the service's own look for a report to settle
