"""An event taken out as a TOM .tdf file (``/events/<id>/export/event.tdf``) and brought back in: the file holds
the players, every round's matches with their outcomes and the final standings; read back by the pure parser it
says what Podium stored, and its roster imported into a new event gives the same players."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.events import make_event, report_all
from tests.support.people import as_user
from tournaments import roster, services, tdf
from tournaments.models import Player, Registration, Seat
from tournaments.tdf import Outcome

pytestmark = pytest.mark.django_db

NAMES = [
    ("Ash Ketchum", "1000001"),
    ("Misty", None),
    ("Brock Harrison", "1000003"),
    ("Zoë Núñez", None),
    ("Gary Oak", None),
]


def export(client: Client, event) -> tdf.Tournament:
    answer = client.get(f"/events/{event.pk}/export/event.tdf")
    assert answer.status_code == 200, answer.status_code
    assert answer["Content-Type"] == "application/xml; charset=utf-8"
    assert answer["Content-Disposition"] == f'attachment; filename="league-night-{event.pk}-event.tdf"'
    return tdf.parse(answer.content)


@pytest.fixture
def played(organiser):
    """Five players (two with player IDs), two 1v1 rounds played (a bye each, a draw in round 2), finished."""
    event = make_event(organiser, 0, rounds=2)
    for name, external_id in NAMES:
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name, external_id=external_id))
    services.round_start(event=event, by=organiser, seed=7)
    report_all(event, organiser)
    services.round_start(event=event, by=organiser, seed=7)
    first = event.rounds.get(number=2).pods.filter(is_bye=False).order_by("table_number").first()
    drawn = {s.player_id: 1 for s in first.seats.all()}
    services.pod_result_report(
        event=event, round_number=2, table_number=first.table_number, placements=drawn, by=organiser
    )
    report_all(event, organiser, winner_seat=2)
    services.event_finish(event=event, by=organiser)
    services.standings_recompute(event_id=event.pk)
    return event


def userid(player: Player) -> str:
    return player.external_id or roster.placeholder_userid(player.pk)


def stored_matches(event) -> list[list[tuple[Outcome, str, str | None, int]]]:
    rounds = []
    for round_ in event.rounds.order_by("number"):
        matches = []
        for pod in round_.pods.order_by("is_bye", "table_number"):
            seats = list(Seat.objects.filter(pod=pod).select_related("player").order_by("seat_order"))
            if pod.is_bye:
                matches.append((Outcome.BYE, userid(seats[0].player), None, 0))
                continue
            first, second = seats[0].placement, seats[1].placement
            outcome = Outcome.TIE if first == second else Outcome.PLAYER1_WON if first < second else Outcome.PLAYER2_WON
            matches.append((outcome, userid(seats[0].player), userid(seats[1].player), pod.table_number))
        rounds.append(matches)
    return rounds


def test_the_file_holds_the_players_rounds_outcomes_and_standings_podium_stored(client, organiser, played):
    as_user(client, organiser)
    file = export(client, played)

    assert (file.name, file.stage, file.start_date, file.organizer_name) == (
        "League night",
        5,
        "12/01/2026",
        "organiser",
    )
    players = {p.display_name: p for p in Player.objects.filter(registrations__event=played)}
    assert [(p.userid, p.name) for p in file.players] == [(userid(players[name]), name) for name, _ in NAMES]
    assert [[(m.outcome, m.player1, m.player2, m.table) for m in r.matches] for r in file.rounds] == stored_matches(
        played
    )
    assert [(r.number, r.type, r.stage) for r in file.rounds] == [(1, tdf.SWISS, tdf.STAGE_SWISS), (2, 3, 4)]
    outcomes = {m.outcome for r in file.rounds for m in r.matches}
    assert {Outcome.BYE, Outcome.TIE} <= outcomes and outcomes & {Outcome.PLAYER1_WON, Outcome.PLAYER2_WON}
    standings = {row.userid: row.place for row in file.standings}
    assert sorted(standings.values()) == [1, 2, 3, 4, 5] and set(standings) == {p.userid for p in file.players}


def test_its_roster_imported_into_a_new_event_gives_the_same_players(client, organiser, played):
    as_user(client, organiser)
    data = client.get(f"/events/{played.pk}/export/event.tdf").content
    before = {
        r.player.external_id: r.player for r in played.registrations.select_related("player") if r.player.external_id
    }
    fresh = make_event(organiser, 0)

    imported = services.roster_import(event=fresh, by=organiser, data=data)

    again = [(r.player.display_name, r.player.external_id) for r in imported.registrations]
    assert again == NAMES
    # A player ID is the same person: their record (and history) is reused; the others are new walk-ins.
    assert [r.player for r in imported.registrations if r.player.external_id] == list(before.values())
    assert Registration.objects.filter(event=fresh).count() == 5


def test_a_pod_event_is_exported_with_its_players_only(client, organiser):
    event = make_event(organiser, 4, format="mt-silver")
    services.round_start(event=event, by=organiser)
    as_user(client, organiser)

    file = export(client, event)

    assert [p.name for p in file.players] == ["P00", "P01", "P02", "P03"]
    assert (file.rounds, file.standings, file.stage) == ((), (), 4)


def test_the_file_holds_player_ids_so_only_staff_who_see_them_export_it(client, outsider, organiser):
    event = make_event(organiser, 2)
    assert Client().get(f"/events/{event.pk}/export/event.tdf").status_code == 302  # to the sign-in page
    as_user(client, outsider)
    assert client.get(f"/events/{event.pk}/export/event.tdf").status_code == 403


def test_the_file_is_read_in_as_many_queries_after_two_rounds_as_after_one(client, organiser):
    event = make_event(organiser, 6, rounds=3)
    as_user(client, organiser)
    counts = []
    for _ in range(2):
        services.round_start(event=event, by=organiser, seed=3)
        report_all(event, organiser)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/events/{event.pk}/export/event.tdf").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
