"""TOM's .tdf files read and written by the pure module (no database): players, rounds and outcomes, standings,
the files it refuses with the line at fault, and a file written then read back unchanged."""

from __future__ import annotations

import pytest

from tests.support.tom import LEAGUE_CUP
from tournaments import tdf
from tournaments.tdf import Outcome


def test_it_reads_a_tom_files_event_players_and_their_drops():
    cup = tdf.parse(LEAGUE_CUP)

    assert (cup.name, cup.id, cup.city, cup.start_date) == ("Pallet Town League Cup", "26-11-000123", "Pallet Town",
                                                            "11/21/2026")  # fmt: skip
    assert (cup.organizer_name, cup.organizer_popid, cup.stage, cup.mode) == ("Samuel Oak", "9000001", 5, "TCG1DAY")
    assert [(p.userid, p.name) for p in cup.players] == [
        ("1000001", "Ash Ketchum"), ("1000002", "Misty O'Hara"), ("1000003", "Brock Harrison"),
        ("1000004", "Zoë Núñez"), ("1000005", "Gary Oak"),
    ]  # fmt: skip
    assert [p.dropped_after_round for p in cup.players] == [None, None, 2, None, None]
    assert cup.players[0].birthdate == "02/27/1997" and cup.players[0].created == "11/20/2026 18:02:11"
    assert cup.players[2].line == 35


def test_it_reads_each_rounds_matches_with_their_outcomes_tables_and_byes():
    cup = tdf.parse(LEAGUE_CUP)

    assert [(r.number, r.type, r.category) for r in cup.rounds] == [(1, 3, "8"), (2, 3, "8"), (3, 3, "8")]
    assert [(m.outcome, m.player1, m.player2, m.table) for m in cup.rounds[0].matches] == [
        (Outcome.PLAYER1_WON, "1000001", "1000002", 1),
        (Outcome.PLAYER2_WON, "1000003", "1000004", 2),
        (Outcome.BYE, "1000005", None, 0),
    ]
    assert cup.rounds[1].matches[0].outcome == Outcome.TIE
    assert cup.rounds[2].matches[0].outcome == Outcome.DOUBLE_LOSS


def test_it_reads_the_final_standings_with_the_players_who_did_not_finish():
    standings = tdf.parse(LEAGUE_CUP).standings

    assert [(s.userid, s.place, s.finished) for s in standings] == [
        ("1000005", 1, True), ("1000001", 2, True), ("1000004", 3, True), ("1000002", 4, True), ("1000003", 5, False),
    ]  # fmt: skip


def _match(outcome: str) -> bytes:
    return f"""<tournament><players><player userid="1"/><player userid="2"/></players><pods><pod category="8">
<rounds><round number="1" type="3" stage="4"><matches><match outcome="{outcome}"><player1 userid="1"/>
<player2 userid="2"/><tablenumber>1</tablenumber></match></matches></round></rounds></pod></pods></tournament>""".encode()


def test_a_double_loss_written_as_4_and_an_unreported_match_are_read_too():
    assert tdf.parse(_match("4")).rounds[0].matches[0].outcome == Outcome.DOUBLE_LOSS
    assert tdf.parse(_match("0")).rounds[0].matches[0].outcome == Outcome.UNREPORTED


def test_an_outcome_tom_does_not_write_is_refused_with_its_line():
    with pytest.raises(tdf.TdfError) as refused:
        tdf.parse(_match("7"))
    assert refused.value.line == 2 and "'7'" in refused.value.message


def test_a_match_naming_someone_who_is_not_a_player_is_refused_with_its_line():
    file = LEAGUE_CUP.replace(b'<player2 userid="1000004"/>', b'<player2 userid="1999999"/>', 1)
    with pytest.raises(tdf.TdfError) as refused:
        tdf.parse(file)
    assert refused.value.line == 85 and "1999999" in refused.value.message


def test_a_player_listed_twice_is_refused_naming_both_lines():
    file = LEAGUE_CUP.replace(b'userid="1000002"', b'userid="1000001"', 1)
    with pytest.raises(tdf.TdfError, match=r"listed twice \(lines 19 and 27\)") as refused:
        tdf.parse(file)
    assert refused.value.line == 27


def test_broken_xml_is_refused_with_the_line_the_parser_gives():
    file = LEAGUE_CUP.replace(b"</lastname>", b"</lastnam>", 1)
    with pytest.raises(tdf.TdfError, match="not well-formed") as refused:
        tdf.parse(file)
    assert refused.value.line == 21


def test_a_document_type_with_entities_is_refused_before_any_entity_is_expanded():
    laughs = b"""<?xml version="1.0"?>
<!DOCTYPE tournament [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<tournament><data><name>&lol2;</name></data></tournament>"""
    with pytest.raises(tdf.TdfError, match="document type") as refused:
        tdf.parse(laughs)
    assert refused.value.line == 2


def test_an_external_entity_is_never_read():
    external = b"""<?xml version="1.0"?>
<!DOCTYPE tournament SYSTEM "file:///etc/passwd"><tournament><data><name>&xxe;</name></data></tournament>"""
    with pytest.raises(tdf.TdfError, match="document type"):
        tdf.parse(external)


def test_xml_that_is_no_tournament_is_refused():
    with pytest.raises(tdf.TdfError, match="not <tournament>"):
        tdf.parse(b"<svg><g/></svg>")


def test_a_file_written_is_read_back_the_same():
    cup = tdf.parse(LEAGUE_CUP)

    assert tdf.parse(tdf.write(cup)) == cup


def test_names_that_xml_must_escape_survive_and_characters_it_cannot_hold_are_left_out():
    tournament = tdf.Tournament(
        name='Cup <"A&B">', players=(tdf.Player("podium-7", "Ren\x01ée", "<O'Neil & Sons>"),), stage=1
    )
    back = tdf.parse(tdf.write(tournament))

    assert back.name == 'Cup <"A&B">'
    assert back.players[0].name == "Renée <O'Neil & Sons>"
