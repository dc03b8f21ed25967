"""Mt. Silver 4.1.0 region construction rules ("Building Your Region"), with hand-made cards and real ones."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from rules.cards import PokemonCard, Supertype
from rules.deckrules import Deck, Entry, Problem
from rules.mt_silver.deck import check, print_of
from rules.pokemon_deck import label
from tests.support.data import data_dir
from tests.support.decks.mt_silver import REAL_ENTRIES, REAL_ROLES

# --- a tiny card factory ----------------------------------------------------------------------------

_numbers = itertools.count(1)


def card(
    name: str,
    supertype: Supertype,
    *,
    subtypes: tuple[str, ...],
    set_code: str = "TST",
    number: str | None = None,
    rule_box: str = "",
    trainer_kind: str = "",
    energy_kind: str = "",
) -> PokemonCard:
    number = number or str(next(_numbers))
    return PokemonCard(
        key=f"{set_code.lower()}-{number}-{next(_numbers)}",
        name=name,
        set_id=set_code.lower(),
        set_code=set_code,
        number=number,
        supertype=supertype,
        subtypes=subtypes,
        stage=subtypes[0] if supertype == Supertype.POKEMON else "",
        trainer_kind=trainer_kind,
        energy_kind=energy_kind,
        rule_box=rule_box,
        types=("Fire",) if supertype == Supertype.POKEMON else (),
        evolves_from="",
        national_dex=(),
        release_date="2023-03-31",
        series="Scarlet & Violet",
        regulation_mark="G",
    )


def pokemon(name: str, stage: str = "Basic", rule_box: str = "", **kw) -> PokemonCard:
    return card(name, Supertype.POKEMON, subtypes=(stage, rule_box) if rule_box else (stage,), rule_box=rule_box, **kw)


def trainer(name: str, kind: str = "Supporter", **kw) -> PokemonCard:
    return card(name, Supertype.TRAINER, subtypes=(kind,), trainer_kind=kind, **kw)


def energy(name: str, *, basic: bool = True, **kw) -> PokemonCard:
    kind = "Basic" if basic else "Special"
    return card(name, Supertype.ENERGY, subtypes=(kind,), energy_kind=kind, **kw)


ARVEN = trainer("Arven", set_code="SVI", number="166")
CHARMANDER = pokemon("Charmander", set_code="MEW", number="4")
FIRE = energy("Fire Energy", set_code="SVE", number="2")
REGION = [pokemon(f"Mon {n}") for n in range(15)] + [trainer(f"Gadget {n}", "Item") for n in range(15)]
FIRE_PRINTS = [energy("Fire Energy", set_code=f"S{n}", number="2") for n in range(10)]
ROLES = {"trainer": ARVEN, "starting_pokemon": CHARMANDER, "starting_energy": FIRE}


def region(*extra: PokemonCard, drop: int = 0, roles: dict | None = None, problems: tuple[Problem, ...] = ()) -> Deck:
    """The legal region: 15 Pokémon, 15 Items and 10 prints of Fire Energy (40), less ``drop`` of the Fire Energy,
    plus ``extra``; Arven, Charmander and a Fire Energy as the Trainer and starting cards."""
    cards = [*REGION, *FIRE_PRINTS[: len(FIRE_PRINTS) - drop], *extra]
    given = {**ROLES, **(roles or {})}
    return Deck(
        tuple(Entry(c, 1, line=i + 1) for i, c in enumerate(cards)),
        {k: v for k, v in given.items() if v is not None},
        problems,
    )


def codes(deck: Deck) -> list[str]:
    return [v.code for v in check(deck)]


def only(deck: Deck, code: str):
    violations = check(deck)
    assert [v.code for v in violations] == [code], violations
    assert violations[0].rule and violations[0].message
    return violations[0]


# --- the legal region -------------------------------------------------------------------------------


def test_the_reference_region_is_legal():
    deck = region()
    assert deck.count() == 40
    assert check(deck) == []


def test_it_refuses_options_it_does_not_define():
    with pytest.raises(ValueError, match="no option"):
        check(region(), {"players": 3})


def test_it_reports_the_decklist_problems_first():
    deck = region(problems=(Problem("unknown_card", 1, "Arvne SVI 166", "No such card.", "Arven SVI 166"),))
    assert codes(deck) == ["unknown_card"]
    assert check(deck)[0].rule == "decklist"


# --- roles ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["trainer", "starting_pokemon", "starting_energy"])
def test_each_of_the_three_region_cards_is_required(role):
    violation = only(region(roles={role: None}), "role_missing")
    assert violation.rule == "Building Your Region"


def test_the_trainer_and_starting_cards_are_outside_the_region_deck():
    assert check(region(ARVEN, drop=1)) == []  # a same-print Arven inside the region deck too is fine
    assert codes(region(ARVEN)) == ["deck_size"]


def test_the_trainer_must_be_a_supporter():
    for not_supporter in (trainer("Rare Candy", "Item"), trainer("Artazon", "Stadium"), CHARMANDER):
        violation = only(region(roles={"trainer": not_supporter}), "trainer_invalid")
        assert violation.rule == "Pokémon Trainer" and violation.cards == (label(not_supporter),)
    assert check(region(roles={"trainer": trainer("Guzma & Hala")})) == []


def test_the_starting_pokemon_must_be_a_basic_without_a_rule_box():
    for invalid, why in (
        (pokemon("Charmeleon", "Stage 1"), "not a Basic"),
        (pokemon("Charizard ex", "Basic", "ex"), "Rule Box (ex)"),
        (pokemon("Radiant Charizard", "Basic", "Radiant"), "Rule Box (Radiant)"),
        (ARVEN, "not a Pokémon"),
    ):
        violation = only(region(roles={"starting_pokemon": invalid}), "starting_pokemon_invalid")
        assert why in violation.message and violation.rule == "Starting Pokémon and Starting Energy"
    assert check(region(roles={"starting_pokemon": pokemon("Typhlosion", "Basic", "Prime")})) == []


def test_the_starting_energy_may_be_basic_or_special_but_must_be_energy():
    assert check(region(roles={"starting_energy": energy("Jet Energy", basic=False)})) == []
    violation = only(region(roles={"starting_energy": ARVEN}), "starting_energy_invalid")
    assert violation.cards == (label(ARVEN),)


# --- the region deck ----------------------------------------------------------------------------------


def test_the_region_deck_is_exactly_40_cards():
    assert only(region(drop=1), "deck_size").message.startswith("The region deck has 39 cards")
    assert only(region(pokemon("Extra")), "deck_size").rule == "Region Deck"


def test_no_two_cards_share_a_set_and_number_but_reprints_are_fine():
    prints = [trainer("Arven", set_code="SVI", number="235"), trainer("Arven", set_code="OBF", number="186")]
    assert check(region(*prints, ARVEN, drop=3)) == []
    twin = trainer("Arven", set_code="SVI", number="166")  # another record of the same print
    violation = only(region(ARVEN, twin, drop=2), "duplicate_print")
    assert violation.cards == (label(ARVEN), label(twin))
    assert "SVI 166" in violation.message


def test_two_copies_of_one_entry_are_a_duplicate_print():
    split = Deck((*region(drop=1).entries, Entry(REGION[0], 1)), ROLES)
    assert codes(split) == ["duplicate_print"]
    doubled = Deck((*region(drop=1).entries[1:], Entry(REGION[0], 2)), ROLES)
    violation = only(doubled, "duplicate_print")
    assert violation.message.startswith("2 cards share the set and number TST")


def test_basic_energy_has_no_exemption_from_the_print_rule():
    deck = Deck((*region(drop=1).entries, Entry(FIRE_PRINTS[0], 1)), ROLES)
    assert codes(deck) == ["duplicate_print"]


def test_prints_compare_set_code_and_number_case_blind():
    assert print_of(trainer("Arven", set_code="svi", number="166")) == ("SVI", "166")
    assert print_of(replace(ARVEN, set_code="", set_id="sv1", number="tg05")) == ("SV1", "TG05")


def test_deck_limits_printed_on_cards_are_not_enforced():
    aces = [
        card(name, Supertype.TRAINER, subtypes=("Item", "ACE SPEC"), trainer_kind="Item")
        for name in ("Master Ball", "Prime Catcher")
    ]
    assert check(region(*aces, drop=2)) == []


# --- several problems at once -----------------------------------------------------------------------


def test_a_region_with_many_problems_reports_every_one():
    deck = region(
        REGION[0],
        REGION[1],
        roles={
            "trainer": trainer("Rare Candy", "Item"),
            "starting_pokemon": pokemon("Mewtwo V", "Basic", "V"),
            "starting_energy": None,
        },
        problems=(Problem("unparseable_line", 3, "??", "Cannot read this line."),),
    )
    assert codes(deck) == [
        "unparseable_line",
        "role_missing",
        "deck_size",
        "duplicate_print",
        "duplicate_print",
        "trainer_invalid",
        "starting_pokemon_invalid",
    ]


# --- real cards -------------------------------------------------------------------------------------
#
# Regions of real pokemon-tcg-data cards (read from outside the repository), picked by id: a legal region and,
# for every code, a variant that breaks it.


@pytest.fixture(scope="module")
def real() -> dict[str, PokemonCard]:
    from decks.importers.pokemon import load_pokemon

    _, cards = load_pokemon(data_dir("pokemon-tcg-data"))
    return {c.key: c for c in cards}


def real_region(
    real: dict[str, PokemonCard],
    counts: dict[str, int] | None = None,
    roles: dict[str, str | None] | None = None,
    problems: tuple[Problem, ...] = (),
) -> Deck:
    """The legal real region with some counts set (0 removes a card) and some roles replaced (``None`` removes)."""
    merged = {**REAL_ENTRIES, **(counts or {})}
    named = {**REAL_ROLES, **(roles or {})}
    return Deck(
        tuple(Entry(real[key], n, line=i + 1) for i, (key, n) in enumerate(merged.items()) if n),
        {role: real[key] for role, key in named.items() if key},
        problems,
    )


def test_a_real_region_is_legal(real):
    deck = real_region(real)
    assert deck.count() == 40
    assert check(deck) == []


@pytest.mark.parametrize(
    ("counts", "roles"),
    [
        pytest.param({"sv1-166": 1, "sv1-167": 0}, {}, id="the-trainers-print-in-the-region-too"),
        pytest.param({}, {"trainer": "sm12-193"}, id="tag-team-supporter-trainer"),
        pytest.param({}, {"starting_pokemon": "base1-46"}, id="any-era-basic"),
        pytest.param({}, {"starting_energy": "sv2-190"}, id="special-starting-energy"),
        pytest.param({"swsh9tg-TG05": 1, "sv1-167": 0}, {}, id="trainer-gallery-number"),
    ],
)
def test_real_regions_within_the_rules_are_legal(real, counts, roles):
    assert check(real_region(real, counts, roles)) == []


@pytest.mark.parametrize(
    ("expected", "counts", "roles", "problems"),
    [
        pytest.param(
            ["unparseable_line"], {}, {}, (Problem("unparseable_line", 1, "4x", "Cannot read."),), id="unparseable"
        ),
        pytest.param(["unknown_card"], {}, {}, (Problem("unknown_card", 1, "Arvn", "No such card."),), id="unknown"),
        pytest.param(["role_missing"], {}, {"starting_energy": None}, (), id="role_missing"),
        pytest.param(["deck_size"], {"sve-10": 0}, {}, (), id="deck_size-39"),
        pytest.param(["deck_size"], {"sv1-183": 1}, {}, (), id="deck_size-41"),
        pytest.param(["duplicate_print"], {"sve-2": 2, "sve-10": 0}, {}, (), id="two-sve-2"),
        pytest.param(["duplicate_print"], {"sv1-235": 2, "sv3-186": 0}, {}, (), id="two-arven-svi-235"),
        pytest.param(["trainer_invalid"], {}, {"trainer": "sv1-191"}, (), id="rare-candy"),
        pytest.param(["starting_pokemon_invalid"], {}, {"starting_pokemon": "swsh3-19"}, (), id="charizard-v"),
        pytest.param(["starting_pokemon_invalid"], {}, {"starting_pokemon": "sv3pt5-5"}, (), id="charmeleon"),
        pytest.param(["starting_pokemon_invalid"], {}, {"starting_pokemon": "swsh12pt5-20"}, (), id="radiant"),
        pytest.param(["starting_energy_invalid"], {}, {"starting_energy": "sv1-166"}, (), id="arven-as-energy"),
    ],
)
def test_real_regions_breaking_a_rule_are_refused_for_it(real, expected, counts, roles, problems):
    assert codes(real_region(real, counts, roles, problems)) == expected


def test_a_real_region_with_many_problems_reports_every_one(real):
    deck = real_region(
        real,
        {"sve-2": 2, "sv1-235": 2},
        {"trainer": "sv1-191", "starting_pokemon": "swsh3-19", "starting_energy": None},
    )
    assert codes(deck) == [
        "role_missing",
        "deck_size",
        "duplicate_print",
        "duplicate_print",
        "trainer_invalid",
        "starting_pokemon_invalid",
    ]
