"""The Pokémon decklist parser: hand-written PTCGL and PTCGO lists, energy spellings, junk, and the
official theme decks of pokemon-tcg-data written out as PTCGL text at test time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.importers.pokemon import load_pokemon
from decks.parsers.pokemon import MAX_COUNT, ParsedLine, parse_card_reference, parse_pokemon_decklist
from decks.resolve import PokemonIndex, resolve_pokemon_decklist
from rules.cards import PokemonCard
from tests.support.data import data_dir

PTCGL = """\
Pokémon: 7
4 Charizard ex OBF 125
2 Pidgeot ex OBF 164
1 Lugia VSTAR SIT 139

Trainer: 8
4 Arven SVI 166
3 Iono PAL 185 PH
1 Forest Seal Stone SIT 156

Energy: 6
6 Basic {R} Energy SVE 2

Total Cards: 21
"""

PTCGO = """\
****** Pokémon Trading Card Game Deck List ******

##Pokémon - 5

* 3 Darkrai-EX BKP 74
* 2 Dratini SUM 94

##Trainer Cards - 4

* 4 Professor Sycamore BKP 107

##Energy - 8

* 8 Darkness Energy Energy 7

Total Cards - 17

****** Deck list generated on Pokemon.com ******
"""


def test_a_ptcgl_list_gives_lines_with_numbers_sections_and_totals():
    parsed = parse_pokemon_decklist(PTCGL)
    assert parsed.problems == ()
    assert parsed.lines == (
        ParsedLine(2, "4 Charizard ex OBF 125", 4, "Charizard ex", "OBF", "125", "pokemon"),
        ParsedLine(3, "2 Pidgeot ex OBF 164", 2, "Pidgeot ex", "OBF", "164", "pokemon"),
        ParsedLine(4, "1 Lugia VSTAR SIT 139", 1, "Lugia VSTAR", "SIT", "139", "pokemon"),
        ParsedLine(7, "4 Arven SVI 166", 4, "Arven", "SVI", "166", "trainer"),
        ParsedLine(8, "3 Iono PAL 185 PH", 3, "Iono", "PAL", "185", "trainer"),
        ParsedLine(9, "1 Forest Seal Stone SIT 156", 1, "Forest Seal Stone", "SIT", "156", "trainer"),
        ParsedLine(12, "6 Basic {R} Energy SVE 2", 6, "Basic {R} Energy", "SVE", "2", "energy"),
    )
    assert parsed.section_totals == {"pokemon": 7, "trainer": 8, "energy": 6}
    assert parsed.declared_total == 21
    assert parsed.count == 21


def test_a_ptcgo_list_with_banners_and_hash_headers_parses():
    parsed = parse_pokemon_decklist(PTCGO)
    assert parsed.problems == ()
    assert [(pl.line, pl.count, pl.name, pl.set_code, pl.number, pl.section) for pl in parsed.lines] == [
        (5, 3, "Darkrai-EX", "BKP", "74", "pokemon"),
        (6, 2, "Dratini", "SUM", "94", "pokemon"),
        (10, 4, "Professor Sycamore", "BKP", "107", "trainer"),
        (14, 8, "Darkness Energy", "Energy", "7", "energy"),
    ]
    assert parsed.section_totals == {"pokemon": 5, "trainer": 4, "energy": 8}
    assert parsed.declared_total == 17


@pytest.mark.parametrize(
    ("header", "section", "total"),
    [
        ("Pokémon: 12", "pokemon", 12),
        ("Pokemon: 12", "pokemon", 12),
        ("POKÉMON:12", "pokemon", 12),
        ("##Pokémon - 12", "pokemon", 12),
        ("Pokémon (12)", "pokemon", 12),
        ("Trainer: 36", "trainer", 36),
        ("Trainers: 36", "trainer", 36),
        ("##Trainer Cards - 36", "trainer", 36),
        ("Energy: 12", "energy", 12),
        ("Energy Cards - 12", "energy", 12),
        ("Energy", "energy", None),
    ],
)
def test_section_headers_in_every_spelling_set_the_section(header, section, total):
    parsed = parse_pokemon_decklist(f"{header}\n1 Arven SVI 166")
    assert parsed.lines[0].section == section
    assert parsed.section_totals == ({section: total} if total is not None else {})


@pytest.mark.parametrize("total", ["Total Cards: 60", "Total Cards - 60", "Total: 60", "total cards 60"])
def test_the_declared_total_is_read_in_every_spelling(total):
    assert parse_pokemon_decklist(total).declared_total == 60


@pytest.mark.parametrize(
    ("line", "name", "set_code", "number"),
    [
        ("8 Basic {R} Energy Energy 6", "Basic {R} Energy", "Energy", "6"),
        ("10 Fire Energy SVE 2", "Fire Energy", "SVE", "2"),
        ("4 Basic Fire Energy", "Basic Fire Energy", None, None),
        ("4 {R} Energy", "{R} Energy", None, None),
        ("5 Fire Energy", "Fire Energy", None, None),
        ("3 Basic Psychic Energy SVE 5", "Basic Psychic Energy", "SVE", "5"),
        ("* 4 Water Energy Energy 3", "Water Energy", "Energy", "3"),
    ],
)
def test_basic_energy_lines_parse_in_their_usual_spellings(line, name, set_code, number):
    (parsed,) = parse_pokemon_decklist(line).lines
    assert (parsed.name, parsed.set_code, parsed.number) == (name, set_code, number)


@pytest.mark.parametrize(
    ("line", "name", "set_code", "number"),
    [
        ("1 Zekrom BRS TG05", "Zekrom", "BRS", "TG05"),
        ("1 Charizard VMAX SHF SV107", "Charizard VMAX", "SHF", "SV107"),
        ("1 Hisuian Zoroark VSTAR CRZ GG56", "Hisuian Zoroark VSTAR", "CRZ", "GG56"),
        ("1 Zacian V PR-SW SWSH076", "Zacian V", "PR-SW", "SWSH076"),
        ("2 Dondozo PR-SV 12", "Dondozo", "PR-SV", "12"),
        ("1 Wobbuffet GEN RC11", "Wobbuffet", "GEN", "RC11"),
        ("4 Tapu Lele GX GRI 60", "Tapu Lele GX", "GRI", "60"),
        ("4 Charizard ex (OBF 125)", "Charizard ex", "OBF", "125"),
        ("4 Dragapult VMAX (RCL-93)", "Dragapult VMAX", "RCL", "93"),
        ("4 Charizard ex sv3 125", "Charizard ex", "sv3", "125"),
        ("4x Professor's Research", "Professor's Research", None, None),
        ("2 Boss’s Orders", "Boss’s Orders", None, None),
        ("1 X Speed", "X Speed", None, None),
        ("1 Blaine's Quiz #1", "Blaine's Quiz #1", None, None),
        ("1   Radiant   Charizard   CRZ   20", "Radiant Charizard", "CRZ", "20"),
    ],
)
def test_set_codes_and_collector_numbers_in_every_form(line, name, set_code, number):
    (parsed,) = parse_pokemon_decklist(line).lines
    assert (parsed.name, parsed.set_code, parsed.number) == (name, set_code, number)


def test_blank_and_comment_lines_are_ignored_and_numbering_counts_them():
    text = "# my Charizard list\n\n// tech choices\n   \n4 Charizard ex OBF 125\n"
    parsed = parse_pokemon_decklist(text)
    assert parsed.problems == ()
    assert [(pl.line, pl.section) for pl in parsed.lines] == [(5, None)]


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("Charizard ex OBF 125", "Expected a card line"),
        ("My awesome deck", "Expected a card line"),
        ("0 Charizard ex OBF 125", "between 1 and 99"),
        ("100 Fire Energy", "between 1 and 99"),
        ("4 125", "No card name"),
        ("Pokémon: lots", "Expected a card line"),
    ],
)
def test_a_line_that_cannot_be_read_is_a_problem_with_its_line_number(line, fragment):
    parsed = parse_pokemon_decklist(f"Pokémon: 4\n{line}\n4 Charizard ex OBF 125")
    (problem,) = parsed.problems
    assert (problem.code, problem.line, problem.text) == ("unparseable_line", 2, line)
    assert fragment in problem.message
    assert [pl.line for pl in parsed.lines] == [3]


def test_a_card_reference_splits_like_a_line_without_its_count():
    assert parse_card_reference("Arven SVI 166") == ("Arven", "SVI", "166")
    assert parse_card_reference("Arven") == ("Arven", None, None)
    assert parse_card_reference("  42 ") is None


def _ignorable(line: str) -> bool:
    """Blank, comment, banner, header or total: the only lines the parser may consume silently."""
    text = line.strip().lower()
    keyword = text.lstrip("#").lstrip().startswith(("pok", "trainer", "energy", "total"))
    return not text or text.startswith(("#", "//", "***")) or keyword


TOKENS = ["4", "0", "100", "*", "##", "#", "Pokémon:", "Trainer", "Energy", "Total Cards", ":", "-", "(", ")", "12"]
TOKENS += ["Charizard", "ex", "Basic", "{R}", "Boss’s", "OBF", "125", "TG05", "PR-SV", "sv3pt5", "PH", "x", "é", "\t"]
LINES = st.one_of(st.text(max_size=60), st.lists(st.sampled_from(TOKENS), max_size=8).map(" ".join))


@settings(max_examples=400, deadline=None)
@given(st.lists(LINES, max_size=12))
def test_the_parser_never_raises_and_every_line_is_parsed_a_problem_or_ignorable(raw_lines):
    text = "\n".join(raw_lines)
    parsed = parse_pokemon_decklist(text)
    all_lines = text.splitlines()
    parsed_numbers = {pl.line for pl in parsed.lines}
    problem_numbers = {p.line for p in parsed.problems}
    assert not parsed_numbers & problem_numbers
    assert parsed_numbers | problem_numbers <= set(range(1, len(all_lines) + 1))
    for pl in parsed.lines:
        assert 1 <= pl.count <= MAX_COUNT and pl.name.strip()
    for number, line in enumerate(all_lines, start=1):
        if number not in parsed_numbers | problem_numbers:
            assert _ignorable(line), line


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(1, MAX_COUNT),
    name=st.from_regex(r"[A-Z][a-z]{2,9}( [A-Z][a-z]{1,9}){0,2}( ex| V| VSTAR| GX)?", fullmatch=True),
    set_code=st.from_regex(r"[A-Z]{3}|PR-SV", fullmatch=True),
    number=st.from_regex(r"(TG|GG|SV)?[0-9]{1,3}", fullmatch=True),
)
def test_a_well_formed_card_line_is_always_read_back_exactly(count, name, set_code, number):
    (parsed,) = parse_pokemon_decklist(f"{count} {name} {set_code} {number}").lines
    assert (parsed.count, parsed.name, parsed.set_code, parsed.number) == (count, name, set_code, number)


# --- Real decklists: the official theme decks, written out as PTCGL text --------------------------


@pytest.fixture(scope="module")
def pool() -> tuple[Path, dict[str, PokemonCard], PokemonIndex]:
    root = data_dir("pokemon-tcg-data")
    sets, cards = load_pokemon(root)
    return root, {card.key: card for card in cards}, PokemonIndex.build(cards, sets)


def _section(card: PokemonCard) -> str:
    return {"Pokémon": "Pokémon", "Trainer": "Trainer", "Energy": "Energy"}[card.supertype.value]


def as_ptcgl(deck: dict, cards: dict[str, PokemonCard]) -> tuple[str, dict[str, int], dict[str, int]]:
    """PTCGL text for a theme deck; the card ids and counts it must resolve to; placeholder basic energy."""
    sections: dict[str, list[str]] = {"Pokémon": [], "Trainer": [], "Energy": []}
    expected: dict[str, int] = {}
    placeholders: dict[str, int] = {}
    for item in deck["cards"]:
        card = cards.get(item["id"])
        if card is None:  # e.g. "swsh1-0": a basic energy with no printed card in the data
            sections["Energy"].append(f"{item['count']} {item['name']}")
            placeholders[item["name"]] = placeholders.get(item["name"], 0) + item["count"]
            continue
        expected[card.key] = expected.get(card.key, 0) + item["count"]
        sections[_section(card)].append(f"{item['count']} {card.name} {card.set_code or card.set_id} {card.number}")
    text = "\n\n".join(
        f"{header}: {sum(int(line.split()[0]) for line in lines)}\n" + "\n".join(lines)
        for header, lines in sections.items()
        if lines
    )
    total = sum(expected.values()) + sum(placeholders.values())
    return f"{text}\n\nTotal Cards: {total}\n", expected, placeholders


def test_every_official_theme_deck_written_as_ptcgl_resolves_to_the_same_cards(pool):
    root, cards, index = pool
    files = sorted((root / "decks" / "en").glob("*.json"))
    assert len(files) >= 83
    decks_checked = 0
    for path in files:
        for deck in json.loads(path.read_text(encoding="utf-8")):
            text, expected, placeholders = as_ptcgl(deck, cards)
            parsed = parse_pokemon_decklist(text)
            assert parsed.problems == (), (deck["id"], parsed.problems)
            assert parsed.declared_total == parsed.count == sum(parsed.section_totals.values())
            entries, problems = resolve_pokemon_decklist(parsed, index)
            assert problems == [], (deck["id"], problems)
            got = {e.card.key: e.count for e in entries if e.card.key in expected}
            assert got == expected, deck["id"]
            energy = {e.card.name: e.count for e in entries if e.card.key not in expected}
            for name, count in placeholders.items():  # placeholder "Water Energy" -> a Water basic energy
                matches = [e for e in entries if e.card.key not in expected and e.card.is_basic_energy]
                assert any(e.card.types == (name.split()[0],) and e.count == count for e in matches), (
                    deck["id"],
                    energy,
                )
            decks_checked += 1
    assert decks_checked >= 83
