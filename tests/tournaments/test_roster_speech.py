"""Roster problems are phrases (rules.speech): the reader keeps its English, and the page and the API say each
problem, with its line, in the reader's language (here a stub translation).  No database."""

from __future__ import annotations

import pytest

from rules.speech import Phrase, say
from tests.support.speech import speaking
from tournaments import roster
from tournaments.services.roster import _lines

FRENCH = {
    "'%(value)s' is not yes or no.": "« %(value)s » n'est ni yes ni no.",
    "the line has %(count)s cell for %(columns)s columns.": "la ligne a %(count)s cellule pour %(columns)s colonnes.",
    "the line has %(count)s cells for %(columns)s columns.": "la ligne a %(count)s cellules pour %(columns)s colonnes.",
    "(empty)": "(vide)",
    "unknown column: the columns are %(columns)s.": "colonne inconnue : les colonnes sont %(columns)s.",
    "Line %(line)s, %(column)s: %(problem)s": "Ligne %(line)s, %(column)s : %(problem)s",
    "The file is empty.": "Le fichier est vide.",
}


@pytest.fixture
def french():
    with speaking(FRENCH):
        yield


def test_a_roster_problem_is_english_for_the_reader_and_said_in_the_readers_language(french):
    yes_or_no, cells = roster.read(b"name,checked_in\nAsh,maybe\nMisty,no,3\n").problems

    assert isinstance(yes_or_no.message, Phrase) and yes_or_no.message == "'maybe' is not yes or no."
    assert str(yes_or_no) == "Line 2, checked_in: 'maybe' is not yes or no."
    assert say(str(yes_or_no)) == "Ligne 2, checked_in : « maybe » n'est ni yes ni no."
    assert cells.message == "the line has 3 cells for 2 columns."
    assert say(cells.message) == "la ligne a 3 cellules pour 2 colonnes."


def test_the_page_and_the_api_list_the_problems_in_the_readers_language(french):
    problems = list(roster.read(b"name,\nAsh,\n").problems)

    assert _lines(problems) == [
        {"line": 1, "column": "(vide)", "message": "colonne inconnue : les colonnes sont name, player_id, "
                                                    "checked_in, fixed_table."},
    ]  # fmt: skip


def test_a_file_that_is_no_roster_says_why_in_the_readers_language(french):
    with pytest.raises(roster.Unreadable) as refused:
        roster.read(b"\n\n")
    assert refused.value.message == "The file is empty." and say(refused.value.message) == "Le fichier est vide."
