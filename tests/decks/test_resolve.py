"""Resolving decklist lines to Pokémon cards: a tiny hand-made pool for the rules, the real pool for the
codes and numbers decklists really print."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.importers.pokemon import PokemonSet, load_pokemon
from decks.parsers.pokemon import parse_pokemon_decklist
from decks.resolve import (
    SUGGESTIONS_AT_MOST,
    PokemonIndex,
    normalize_name,
    normalize_number,
    resolve_pokemon_decklist,
)
from rules.cards import PokemonCard, Supertype
from rules.deckrules import Problem
from tests.support.data import data_dir

SETS = [
    PokemonSet("base1", "Base", "Base", "BS", "1999-01-09", 102),
    PokemonSet("xy2", "Flashfire", "XY", "FLF", "2014-05-07", 110),
    PokemonSet("xy6", "Roaring Skies", "XY", "ROS", "2015-05-06", 112),
    PokemonSet("sm2", "Guardians Rising", "Sun & Moon", "GRI", "2017-05-05", 180),
    PokemonSet("sm5", "Ultra Prism", "Sun & Moon", "UPR", "2018-02-02", 178),
    PokemonSet("sm10", "Unbroken Bonds", "Sun & Moon", "UNB", "2019-05-03", 234),
    PokemonSet("swshp", "SWSH Black Star Promos", "Sword & Shield", "PR-SW", "2019-11-15", 304),
    PokemonSet("swsh2", "Rebel Clash", "Sword & Shield", "RCL", "2020-05-01", 209),
    PokemonSet("swsh9", "Brilliant Stars", "Sword & Shield", "BRS", "2022-02-25", 186),
    PokemonSet("swsh9tg", "Brilliant Stars Trainer Gallery", "Sword & Shield", "BRS", "2022-02-25", 30),
    PokemonSet("svp", "Scarlet & Violet Black Star Promos", "Scarlet & Violet", "PR-SV", "2023-01-01", 102),
    PokemonSet("sve", "Scarlet & Violet Energies", "Scarlet & Violet", "SVE", "2023-03-31", 8),
    PokemonSet("sv1", "Scarlet & Violet", "Scarlet & Violet", "SVI", "2023-03-31", 258),
    PokemonSet("sv2", "Paldea Evolved", "Scarlet & Violet", "PAL", "2023-06-09", 279),
    PokemonSet("sv3", "Obsidian Flames", "Scarlet & Violet", "OBF", "2023-08-11", 230),
]
SET_BY_ID = {s.id: s for s in SETS}


def card(key: str, name: str, supertype: Supertype = Supertype.POKEMON, **fields) -> PokemonCard:
    set_id, number = key.split("-", 1)
    s = SET_BY_ID[set_id]
    energy_kind = "Basic" if supertype == Supertype.ENERGY and "types" in fields else ""
    return PokemonCard(
        key=key,
        name=name,
        set_id=set_id,
        set_code=s.ptcgo_code,
        number=number,
        supertype=supertype,
        subtypes=(energy_kind,) if energy_kind else (),
        stage="Basic" if supertype == Supertype.POKEMON else "",
        trainer_kind="Supporter" if supertype == Supertype.TRAINER else "",
        energy_kind=energy_kind,
        rule_box=fields.get("rule_box", ""),
        types=fields.get("types", ()),
        evolves_from="",
        national_dex=(),
        release_date=s.release_date,
        series=s.series,
        regulation_mark="",
    )


E, T = Supertype.ENERGY, Supertype.TRAINER
CARDS = [
    card("base1-98", "Fire Energy", E, types=("Fire",)),
    card("sve-2", "Basic Fire Energy", E, types=("Fire",)),
    card("sve-5", "Basic Psychic Energy", E, types=("Psychic",)),
    card("xy2-12", "Charizard-EX", rule_box="EX"),
    card("xy2-54", "Mewtwo-EX", rule_box="EX"),
    card("xy6-76", "M Rayquaza-EX", rule_box="MEGA"),
    card("sm2-60", "Tapu Lele-GX", rule_box="GX"),
    card("sm5-58", "Giratina ◇", rule_box="Prism Star"),
    card("sm10-20", "Reshiram & Charizard-GX", rule_box="TAG TEAM"),
    card("swshp-SWSH076", "Zacian V", rule_box="V"),
    card("swsh2-154", "Boss's Orders", T),
    card("swsh9-5", "Pinsir"),
    card("swsh9-123", "Arceus VSTAR", rule_box="VSTAR"),
    card("swsh9tg-TG05", "Zekrom"),
    card("svp-12", "Dondozo"),
    card("sv1-83", "Flabébé"),
    card("sv1-187", "Pokémon Catcher", T),
    card("sv2-172", "Boss's Orders (Ghetsis)", T),
    card("sv2-200", "Farfetch'd"),
    card("sv3-125", "Charizard ex", rule_box="ex"),
    card("sv3-215", "Charizard ex", rule_box="ex"),
]


@pytest.fixture(scope="module")
def index() -> PokemonIndex:
    return PokemonIndex.build(CARDS, SETS)


def key_of(found: PokemonCard | None) -> str | None:
    return found.key if found else None


@pytest.mark.parametrize(
    ("name", "set_code", "number", "expected"),
    [
        ("Charizard ex", "OBF", "125", "sv3-125"),
        ("Charizard ex", "obf", "125", "sv3-125"),
        ("Charizard ex", "sv3", "125", "sv3-125"),  # the pokemon-tcg-data set id as a code
        ("Charizard ex", "OBF", "0125", "sv3-125"),  # leading zeros
        ("Zekrom", "BRS", "TG05", "swsh9tg-TG05"),  # BRS is swsh9 and its Trainer Gallery
        ("Zekrom", "BRS", "tg5", "swsh9tg-TG05"),
        ("Zekrom", "BRS-TG", "TG05", "swsh9tg-TG05"),
        ("Pinsir", "BRS", "5", "swsh9-5"),
        ("Pinsir", "BRS", "005", "swsh9-5"),
        ("Zacian V", "PR-SW", "SWSH076", "swshp-SWSH076"),
        ("Zacian V", "PR-SW", "SWSH76", "swshp-SWSH076"),
        ("Zacian V", "PR-SW", "76", "swshp-SWSH076"),  # number written without its letters
        ("Zacian V", "PR-SWSH", "076", "swshp-SWSH076"),
        ("Dondozo", "PR-SV", "012", "svp-12"),
        ("Dondozo", "SVP", "12", "svp-12"),
        ("Fire Energy", "BS", "98", "base1-98"),  # a set and number beat the newest-energy rule
        ("Basic Psychic Energy", "SVE", "5", "sve-5"),
        ("Fire Energy", "SVE", "2", "sve-2"),  # PTCGL's name for "Basic Fire Energy"
    ],
)
def test_a_set_code_and_number_find_the_card(index, name, set_code, number, expected):
    assert key_of(index.resolve(name, set_code, number)) == expected


def test_when_the_number_holds_another_card_a_name_match_in_the_set_wins(index):
    assert key_of(index.resolve("Charizard ex", "OBF", "12")) == "sv3-125"
    assert key_of(index.resolve("Pinsir", "BRS", "123")) == "swsh9-5"


def test_when_the_set_has_no_card_of_that_name_the_name_alone_decides(index):
    assert key_of(index.resolve("Arceus VSTAR", "OBF", "125")) == "swsh9-123"


def test_a_qualified_print_matches_its_plain_name_at_its_number(index):
    assert key_of(index.resolve("Boss's Orders", "PAL", "172")) == "sv2-172"
    assert key_of(index.resolve("Boss's Orders", "RCL", "154")) == "swsh2-154"


def test_an_unknown_name_at_a_known_number_is_not_guessed_but_a_typo_is_forgiven(index):
    assert index.resolve("Glurak ex", "OBF", "125") is None
    assert key_of(index.resolve("Charzard ex", "OBF", "125")) == "sv3-125"


def test_an_unknown_code_may_be_the_end_of_the_name(index):
    assert key_of(index.resolve("Tapu Lele", "GX", "60")) == "sm2-60"
    assert key_of(index.resolve("Charizard ex", "XYZ", "1")) == "sv3-125"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Charizard ex", "sv3-125"),  # the preferred print: the lowest number of the newest set
        ("charizard ex", "sv3-125"),
        ("Charizard  ex", "sv3-125"),
        ("Charizard EX", "xy2-12"),
        ("Charizard-EX", "xy2-12"),
        ("charizard-EX", "xy2-12"),
        ("Mewtwo ex", "xy2-54"),  # no lower-case ex Mewtwo: the EX one, ignoring case
        ("Mega Rayquaza EX", "xy6-76"),
        ("M Rayquaza EX", "xy6-76"),
        ("Reshiram and Charizard GX", "sm10-20"),
        ("Reshiram & Charizard-GX", "sm10-20"),
        ("Giratina Prism Star", "sm5-58"),
        ("Giratina ◇", "sm5-58"),
        ("Pokemon Catcher", "sv1-187"),
        ("POKÉMON CATCHER", "sv1-187"),
        ("Flabebe", "sv1-83"),
        ("Farfetch’d", "sv2-200"),
        ("Farfetchd", "sv2-200"),
        ("Boss’s Orders", "sv2-172"),  # the newest print of the name, qualified or not
        ("Boss's Orders (Ghetsis)", "sv2-172"),
    ],
)
def test_a_name_alone_is_matched_after_normalising_it(index, name, expected):
    assert key_of(index.resolve(name, None, None)) == expected


@pytest.mark.parametrize(
    ("name", "set_code", "number"),
    [
        ("Fire Energy", None, None),
        ("Basic Fire Energy", None, None),
        ("{R} Energy", None, None),
        ("Basic {R} Energy", None, None),
        ("basic {r} energy", None, None),
        ("Basic {R} Energy", "Energy", "6"),  # PTCGO's pseudo-set: the number means nothing
        ("Fire Energy", "Energy", "2"),
    ],
)
def test_basic_energy_by_type_name_is_the_newest_print_of_that_type(index, name, set_code, number):
    assert key_of(index.resolve(name, set_code, number)) == "sve-2"


def test_an_unknown_card_resolves_to_nothing_and_gets_a_did_you_mean(index):
    assert index.resolve("Charzard ex", None, None) is None
    assert index.suggest("Charzard ex") == "Charizard ex"
    assert index.suggest("Arceus VSTR") == "Arceus VSTAR"
    assert index.suggest("Zzzzzzzzzzzz") is None
    assert index.suggest("!!!") is None


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("Arceus VSTAR BRS 123", "swsh9-123"),
        ("Arceus VSTAR", "swsh9-123"),
        ("1 Arceus VSTAR BRS 123", "swsh9-123"),
        ("Boss's Orders PAL 172", "sv2-172"),
        ("Basic {R} Energy", "sve-2"),
        ("Nobody", None),
        ("", None),
    ],
)
def test_a_role_reference_resolves_like_a_line_without_its_count(index, ref, expected):
    assert key_of(index.resolve_reference(ref)) == expected


def test_a_decklist_resolves_to_entries_with_duplicates_merged_and_problems_by_line(index):
    parsed = parse_pokemon_decklist(
        "Pokémon: 6\n"
        "2 Charizard ex OBF 125\n"
        "1 Charzard ex\n"
        "1 Charizard ex sv3 125\n"
        "what is this\n"
        "2 Arceus VSTAR BRS 123\n"
        "Energy: 10\n"
        "4 Basic {R} Energy Energy 2\n"
        "6 Fire Energy SVE 2\n"
    )
    entries, problems = resolve_pokemon_decklist(parsed, index)
    assert [(e.card.key, e.count, e.zone, e.line) for e in entries] == [
        ("sv3-125", 3, "main", 2),
        ("swsh9-123", 2, "main", 6),
        ("sve-2", 10, "main", 8),
    ]
    assert [(p.code, p.line, p.text, p.suggestion) for p in problems] == [
        ("unknown_card", 3, "1 Charzard ex", "Charizard ex"),
        ("unparseable_line", 5, "what is this", None),
    ]
    assert all(isinstance(p, Problem) and p.message for p in problems)


def test_only_the_first_unknown_cards_of_a_list_get_a_did_you_mean(index):
    """Finding the closest name takes a while over the real pool (about 30 ms): a list of thousands of unknown
    names would keep a check busy for minutes, and only the first of them are ever shown."""
    parsed = parse_pokemon_decklist("\n".join(f"1 Charzard ex OBF {n}" for n in range(1, 101)))
    _, problems = resolve_pokemon_decklist(parsed, index)
    assert [p.code for p in problems] == ["unknown_card"] * 100
    suggested = [p.suggestion for p in problems]
    assert suggested == ["Charizard ex"] * SUGGESTIONS_AT_MOST + [None] * (100 - SUGGESTIONS_AT_MOST)


def test_a_problem_names_the_set_and_number_it_looked_for(index):
    _, (problem,) = resolve_pokemon_decklist(parse_pokemon_decklist("1 Glurak ex OBF 125"), index)
    assert problem.message == "No card matches 'Glurak ex' (OBF 125)."


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        ("Pokémon Catcher", "pokemon catcher"),
        ("Boss’s Orders", "bosss orders"),
        ("Charizard-EX", "charizard EX"),
        ("Charizard ex", "charizard ex"),
        ("M Rayquaza-EX", "mega rayquaza EX"),
        ("Giratina ◇", "giratina prismstar"),
        ("Entei ★", "entei star"),
        ("Nidoran♀", "nidoran f"),
        ("Basic {R} Energy", "fire energy"),
        ("Gardevoir ex δ", "gardevoir ex delta"),
    ],
)
def test_names_normalise_as_documented(raw, normalised):
    assert normalize_name(raw) == normalised


@pytest.mark.parametrize(("raw", "normalised"), [("TG05", "TG5"), ("swsh076", "SWSH76"), ("007", "7"), ("!", "!")])
def test_numbers_normalise_without_leading_zeros_in_upper_case(raw, normalised):
    assert normalize_number(raw) == normalised


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_resolving_arbitrary_text_never_raises(index, text):
    entries, problems = resolve_pokemon_decklist(parse_pokemon_decklist(text), index)
    assert all(e.count >= 1 for e in entries)
    assert [p.line for p in problems] == sorted(p.line for p in problems)


# --- The real pool ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real() -> tuple[list[PokemonCard], PokemonIndex]:
    sets, cards = load_pokemon(data_dir("pokemon-tcg-data"))
    started = time.perf_counter()
    index = PokemonIndex.build(cards, sets)
    print(f"\nPokemonIndex.build: {len(cards)} cards in {time.perf_counter() - started:.2f} s")
    return cards, index


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("4 Charizard ex OBF 125", "sv3-125"),
        ("4 Arven SVI 166", "sv1-166"),
        ("4 Iono PAL 185 PH", "sv2-185"),
        ("2 Boss's Orders PAL 172", "sv2-172"),  # "Boss's Orders (Ghetsis)" in the data
        ("1 Zekrom BRS TG05", "swsh9tg-TG05"),
        ("1 Charizard VMAX SHF SV107", "swsh45sv-SV107"),
        ("1 Charizard-GX HIF SV49", "sma-SV49"),
        ("1 Hisuian Zoroark VSTAR CRZ GG56", "swsh12pt5gg-GG56"),
        ("1 Zacian V PR-SW SWSH076", "swshp-SWSH076"),
        ("1 Zacian V PR-SW 76", "swshp-SWSH076"),
        ("1 Pecharunt PR-SV 149", "svp-149"),
        ("1 Wobbuffet GEN RC11", "g1-RC11"),
        ("1 Lunala CEL 15", "cel25-15"),
        ("1 Venusaur CEL 15", "cel25c-15_A1"),  # Classic Collection shares CEL and its numbers
        ("1 Giratina Prism Star UPR 58", "sm5-58"),
        ("1 Reshiram & Charizard GX UNB 20", "sm10-20"),
        ("10 Fire Energy SVE 2", "sve-2"),
        ("3 Basic Psychic Energy SVE 5", "sve-5"),
    ],
)
def test_real_ptcgl_lines_resolve_to_the_printed_card(real, line, expected):
    (parsed,) = parse_pokemon_decklist(line).lines
    assert key_of(real[1].resolve(parsed.name, parsed.set_code, parsed.number)) == expected


@pytest.mark.parametrize(
    "line", ["8 Basic {R} Energy Energy 6", "4 Basic Fire Energy", "4 {R} Energy", "5 Fire Energy"]
)
def test_real_basic_energy_without_a_set_is_the_newest_fire_energy(real, line):
    cards, index = real
    (parsed,) = parse_pokemon_decklist(line).lines
    found = index.resolve(parsed.name, parsed.set_code, parsed.number)
    fire = [c for c in cards if c.is_basic_energy and c.types == ("Fire",)]
    assert found is not None and found.is_basic_energy and found.types == ("Fire",)
    assert found.release_date == max(c.release_date for c in fire)


def test_every_real_card_resolves_from_its_own_code_number_and_name(real):
    cards, index = real
    wrong = [c.key for c in cards if key_of(index.resolve(c.name, c.set_code or c.set_id, c.number)) != c.key]
    assert wrong == []


def test_a_misspelt_real_name_gets_a_did_you_mean(real):
    _, index = real
    _, (problem,) = resolve_pokemon_decklist(parse_pokemon_decklist("4 Charzard ex"), index)
    assert (problem.code, problem.suggestion) == ("unknown_card", "Charizard ex")
    assert index.suggest("Profesor's Reserch") == "Professor's Research"
