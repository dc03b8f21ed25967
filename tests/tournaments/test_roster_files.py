"""Roster files read into entries by the pure reader (no database): the CSV shape, every problem with its line
and column, files that are no roster, and a TOM file's players."""

from __future__ import annotations

import pytest

from tests.support.tom import LEAGUE_CUP
from tournaments import roster
from tournaments.roster import Entry, Problem


def read(text: str) -> roster.Roster:
    return roster.read(text.encode())


def test_a_csv_with_a_byte_order_mark_semicolons_and_blank_lines_reads_every_player():
    file = (
        "\ufeffName;Player ID;Checked_In;fixed_table\r\nAsh Ketchum;1000001;yes\r\n\r\nMisty;;no;3\r\n  Brock  ;;;\r\n"
    )

    assert read(file) == roster.Roster(
        (Entry(2, "Ash Ketchum", "1000001", True), Entry(4, "Misty", None, False, 3), Entry(5, "Brock")), (), "csv"
    )


def test_a_comma_separated_file_with_only_names_reads_too():
    assert [e.name for e in read('name\nAsh\n"Ketchum, Ash"\n').entries] == ["Ash", "Ketchum, Ash"]


def test_every_wrong_line_is_listed_at_once_with_its_column():
    file = (
        "name,player_id,checked_in,fixed_table\n"
        "Ash,1000001,yes,\n"
        ",1000002,,\n"  # empty name
        "Misty,1000001,,\n"  # the same player ID twice
        "Brock,,maybe,\n"  # not yes or no
        f"{'x' * 101},,,\n"  # too long
        "Gary,,,zero\n"  # no table number
        "ash,,,\n"
        "Ash,,,\n"  # the same name twice without a player ID
        "Tracey,,,,extra\n"  # a cell too many
        f"Long Id,{'9' * 65},,\n"
    )
    assert read(file).problems == (
        Problem(3, "name", "the name is empty."),
        Problem(4, "player_id", "player ID 1000001 is already on line 2."),
        Problem(5, "checked_in", "'maybe' is not yes or no."),
        Problem(6, "name", "the name is longer than 100 characters."),
        Problem(7, "fixed_table", "'zero' is not a table number (1 or more)."),
        Problem(9, "name", "Ash is already on line 8: give each a player ID to enter two players of the same name."),
        Problem(10, "", "the line has 5 cells for 4 columns."),
        Problem(11, "player_id", "the player ID is longer than 64 characters."),
    )


def test_an_unknown_or_missing_column_is_a_problem_of_the_header_row():
    assert read("name,deck\nAsh,Pikachu\n").problems == (
        Problem(1, "deck", "unknown column: the columns are name, player_id, checked_in, fixed_table."),
    )
    assert read("\n\nplayer_id\n1\n").problems == (
        Problem(3, "name", "the header row has no name column (the first row names the columns)."),
    )


def test_a_file_with_a_header_and_no_players_says_so():
    assert read("name\n\n").problems == (Problem(None, "", "the file lists no players."),)


def test_a_file_that_is_not_utf8_is_unreadable_naming_its_line():
    with pytest.raises(roster.Unreadable, match="not UTF-8") as refused:
        roster.read("name\nAsh\nZoë\n".encode("latin-1"))
    assert refused.value.line == 3


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", "empty"),
        (b"PK\x03\x04rest of a zip", "spreadsheet"),
        (b"name\nA\x00sh\n", "not a text file"),
        (b"<html><body>", "no TOM file"),
        (b"x" * (roster.MAX_BYTES + 1), "larger than 2 MB"),
    ],
)
def test_a_file_that_is_no_roster_is_unreadable(data, says):
    with pytest.raises(roster.Unreadable, match=says):
        roster.read(data)


def test_too_many_players_is_a_problem_of_the_whole_file():
    file = "name,player_id\n" + "".join(f"P{i},{i}\n" for i in range(roster.MAX_PLAYERS + 1))

    assert read(file).problems == (Problem(None, "", "the file lists 501 players: one file registers 500 at most."),)


def test_a_tom_file_gives_its_players_by_player_id_and_first_and_last_name():
    cup = roster.read(LEAGUE_CUP)

    assert cup.kind == "tdf" and cup.problems == ()
    assert [(e.line, e.name, e.player_id, e.checked_in) for e in cup.entries] == [
        (19, "Ash Ketchum", "1000001", None), (27, "Misty O'Hara", "1000002", None),
        (35, "Brock Harrison", "1000003", None), (48, "Zoë Núñez", "1000004", None), (56, "Gary Oak", "1000005", None),
    ]  # fmt: skip


def test_a_player_without_a_player_id_in_a_file_podium_wrote_is_read_by_name_only():
    file = LEAGUE_CUP.replace(b'userid="1000005"', b'userid="podium-17"').replace(b'id="1000005"', b'id="podium-17"')

    assert roster.read(file).entries[-1] == Entry(56, "Gary Oak", None)


def test_a_tom_player_without_a_name_is_a_problem_of_their_line():
    file = LEAGUE_CUP.replace(b"<firstname>Gary</firstname>", b"<firstname/>").replace(
        b"<lastname>Oak</", b"<lastname></"
    )

    assert roster.read(file).problems == (Problem(56, "firstname", "the player has no name."),)


def test_a_broken_tom_file_is_unreadable_with_its_line():
    with pytest.raises(roster.Unreadable, match="not well-formed") as refused:
        roster.read(LEAGUE_CUP.replace(b"</firstname>", b"</first>", 1))
    assert refused.value.line == 20
