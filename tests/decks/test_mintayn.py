"""Mintayn card CSV import and ``COUNT NAME`` decklists.

There is no public Mintayn card data: ``SAMPLE_CSV`` (in :mod:`tests.support.decks`) is a small made-up card list in the importer's
format, with the five classes and four stages of the Master rulebook.  The deck-rule tests
(``tests/rules/test_deck_rules_mintayn_master.py``) build their decks from it too.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.importers.mintayn import HEADER, load_mintayn_csv
from decks.parsers.mintayn import ParsedMintayn, parse_mintayn, resolve_mintayn
from rules.cards import MintaynCard, MintaynCardType
from tests.support.decks import CARDS


def csv_of(*rows: str) -> str:
    return "\n".join([",".join(HEADER), *rows]) + "\n"


# --------------------------------------------------------------------------- the CSV importer


def test_it_reads_every_sample_card_with_its_fields():
    assert len(CARDS) == 31
    assert CARDS["Blaze Drake"] == MintaynCard(
        key="Blaze Drake",
        name="Blaze Drake",
        card_type=MintaynCardType.MONSTER,
        card_class="Coreon",
        level=5,
        defense=1800,
        stage="evolution",
        mana_cost=3,
    )
    assert CARDS["Nyx, the Unending Night"].stage == "prime singular"


def test_cells_that_do_not_apply_are_empty_and_read_as_none():
    undertow = CARDS["Undertow"]
    assert (undertow.card_type, undertow.card_class, undertow.level, undertow.defense, undertow.stage) == (
        MintaynCardType.SPELL,
        "Fluxion",
        None,
        None,
        "",
    )
    assert CARDS["Mana Well"].card_class == ""
    assert CARDS["Mana Well"].mana_cost == 0
    assert CARDS["Flare Ward"].card_type == MintaynCardType.COUNTER


def test_values_are_read_in_any_case_and_stored_as_the_card_records_spell_them():
    cards, problems = load_mintayn_csv(
        " Name , CARD_TYPE,Class,Level,DEF,Stage,Mana_Cost\nWisp,Monster,aetherion,1,5,Prime  Evolution,\n"
    )
    assert problems == []
    (wisp,) = cards
    assert (wisp.card_type, wisp.card_class, wisp.stage, wisp.mana_cost) == (
        MintaynCardType.MONSTER,
        "Aetherion",
        "prime evolution",
        None,
    )


def test_bad_rows_are_problems_with_their_line_numbers_and_good_rows_are_kept():
    text = csv_of(
        "Ember Whelp,monster,Coreon,2,800,basic,1",  # line 2
        "Too Short,monster,Coreon",  # 3
        "Odd One,creature,Coreon,1,1,basic,1",  # 4
        "No Class,monster,,1,1,basic,1",  # 5
        "",  # 6: blank, skipped
        "Big,monster,Coreon,three,1,basic,1",  # 7
        "Leveled Spell,spell,Coreon,3,,,1",  # 8
        "Weird Stage,monster,Coreon,1,1,legendary,1",  # 9
        "ember whelp,monster,Coreon,2,800,basic,1",  # 10: the name is taken
        '"Multi\nLine",monster,Purple,1,1,basic,1',  # 11-12
        ",spell,,,,,1",  # 13
        "Last,counter,Obscura,,,,2",  # 14
    )
    cards, problems = load_mintayn_csv(text)
    assert [card.name for card in cards] == ["Ember Whelp", "Last"]
    assert [(p.code, p.line) for p in problems] == [("unparseable_line", n) for n in (3, 4, 5, 7, 8, 9, 10, 11, 13)]
    messages = [p.message for p in problems]
    assert "expected 7 columns" in messages[0]
    assert "card_type must be monster, spell or counter" in messages[1]
    assert "needs a class" in messages[2]
    assert "level must be a whole number" in messages[3]
    assert "has no level" in messages[4]
    assert "stage must be one of" in messages[5]
    assert "already listed" in messages[6]
    assert "class must be one of" in messages[7]
    assert "name is empty" in messages[8]


@pytest.mark.parametrize("text", ["", "name,type,class\nX,spell,\n", "Ember Whelp,monster,Coreon,2,800,basic,1\n"])
def test_a_wrong_header_is_refused_with_the_expected_header(text):
    with pytest.raises(ValueError, match="name,card_type,class,level,def,stage,mana_cost"):
        load_mintayn_csv(text)


# --------------------------------------------------------------------------- decklists

DECKLIST = """\
# Coreon rush
Monsters:
3 Ember Whelp
3x Cinder Hound
2 x Blaze Drake
Pyre Sovereign x 1
Kindle Surge x3
// tech
1 ember whelp
"""


def test_every_count_form_is_read_and_comments_headings_and_blank_lines_are_skipped():
    parsed = parse_mintayn(DECKLIST)
    assert parsed == ParsedMintayn(
        lines=[
            (3, "Ember Whelp", 3),
            (3, "Cinder Hound", 4),
            (2, "Blaze Drake", 5),
            (1, "Pyre Sovereign", 6),
            (3, "Kindle Surge", 7),
            (1, "ember whelp", 9),
        ]
    )


def test_lines_resolve_to_cards_whatever_the_case_with_copies_added_up():
    entries, problems = resolve_mintayn(parse_mintayn(DECKLIST), CARDS)
    assert problems == []
    assert [(e.card.name, e.count, e.zone, e.line) for e in entries] == [
        ("Ember Whelp", 4, "main", 3),
        ("Cinder Hound", 3, "main", 4),
        ("Blaze Drake", 2, "main", 5),
        ("Pyre Sovereign", 1, "main", 6),
        ("Kindle Surge", 3, "main", 7),
    ]


def test_names_match_without_accents():
    entries, problems = resolve_mintayn(parse_mintayn("2 evora tidecaller\n"), CARDS)
    assert problems == [] and entries[0].card.name == "Évora Tidecaller"


def test_an_unknown_name_is_reported_with_a_did_you_mean():
    entries, problems = resolve_mintayn(parse_mintayn("3 Ember Whelp\n2 Blaze Drak\n1 Qqqqq\n"), CARDS)
    assert [e.card.name for e in entries] == ["Ember Whelp"]
    assert [(p.code, p.line, p.text, p.suggestion) for p in problems] == [
        ("unknown_card", 2, "Blaze Drak", "Blaze Drake"),
        ("unknown_card", 3, "Qqqqq", None),
    ]


def test_lines_that_are_not_card_lines_are_unparseable_problems():
    parsed = parse_mintayn("3 Ember Whelp\nEmber Whelp\n0 Tide Sprite\n1000 Moss Kit\n")
    assert parsed.lines == [(3, "Ember Whelp", 1)]
    assert [(p.code, p.line) for p in parsed.problems] == [("unparseable_line", n) for n in (2, 3, 4)]


# --------------------------------------------------------------------------- properties

mintayn_lines = st.one_of(
    st.sampled_from(["3 Ember Whelp", "2x Tide Sprite", "Moss Kit x 2", "# c", "Spells:", "", "0 Kit"]),
    st.text(max_size=40),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(mintayn_lines, max_size=30), st.sampled_from(["\n", "\r\n"]))
def test_parsing_and_resolving_any_decklist_text_never_raises(lines, newline):
    parsed = parse_mintayn(newline.join(lines))
    entries, problems = resolve_mintayn(parsed, CARDS)
    assert all(1 <= entry.count for entry in entries)
    assert all(p.code in ("unparseable_line", "unknown_card") for p in problems)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_importing_any_rows_under_the_right_header_never_raises(rows):
    cards, problems = load_mintayn_csv(",".join(HEADER) + "\n" + rows)
    assert len({card.name.casefold() for card in cards}) == len(cards)
    assert all(p.line >= 2 for p in problems)


def test_comment_rows_are_skipped_before_the_header_and_between_cards():
    cards, problems = load_mintayn_csv(
        "# A pool of my own, version 2\n# columns: see the docs\n"
        + csv_of("# Coreon", "Ember Whelp,monster,Coreon,2,800,basic,1", "  # retired cards below", "")
    )
    assert problems == [] and [card.name for card in cards] == ["Ember Whelp"]
