"""Format3 Trinity deck construction rules ("Rule Set #1 Deck Construction"), with hand-made cards and real ones."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from rules.cards import PokemonCard, Supertype
from rules.deckrules import Deck, Entry, Problem
from rules.format3_trinity.deck import RULE, check, in_pool
from rules.pokemon_deck import label
from rules.speech import say, say_stored
from tests.support.data import data_dir
from tests.support.decks.format3_trinity import REAL_ENTRIES, REAL_ROLES
from tests.support.speech import speaking

# --- a tiny card factory ----------------------------------------------------------------------------

_numbers = itertools.count(1)


def card(
    name: str,
    supertype: Supertype = Supertype.POKEMON,
    *,
    subtypes: tuple[str, ...] = ("Basic",),
    types: tuple[str, ...] = ("Colorless",),
    rule_box: str = "",
    energy_kind: str = "",
    trainer_kind: str = "",
    dex: tuple[int, ...] = (),
    series: str = "Scarlet & Violet",
    release_date: str = "2023-03-31",
    set_code: str = "TST",
) -> PokemonCard:
    number = str(next(_numbers))
    return PokemonCard(
        key=f"tst-{number}",
        name=name,
        set_id="tst",
        set_code=set_code,
        number=number,
        supertype=supertype,
        subtypes=subtypes,
        stage=next((s for s in subtypes if s in ("Basic", "Stage 1", "Stage 2", "VMAX", "VSTAR", "BREAK")), "")
        if supertype == Supertype.POKEMON
        else "",
        trainer_kind=trainer_kind,
        energy_kind=energy_kind,
        rule_box=rule_box,
        types=types if supertype == Supertype.POKEMON else (),
        evolves_from="",
        national_dex=dex,
        release_date=release_date,
        series=series,
        regulation_mark="",
    )


def pokemon(name: str, types: tuple[str, ...] = ("Colorless",), *, rule_box: str = "", stage: str = "Basic", **kw):
    subtypes = (stage, rule_box) if rule_box else (stage,)
    return card(name, subtypes=subtypes, types=types, rule_box=rule_box, **kw)


def trainer(name: str, kind: str = "Item", *, extra: tuple[str, ...] = (), rule_box: str = "", **kw) -> PokemonCard:
    return card(name, Supertype.TRAINER, subtypes=(kind, *extra), trainer_kind=kind, rule_box=rule_box, **kw)


def energy(name: str, *, basic: bool = True, extra: tuple[str, ...] = (), **kw) -> PokemonCard:
    kind = "Basic" if basic else "Special"
    return card(name, Supertype.ENERGY, subtypes=(kind, *extra), energy_kind=kind, **kw)


SIGNATURE = pokemon("Charizard ex", ("Fire",), rule_box="ex")
MONS = [pokemon(f"Fire Mon {n}", ("Fire",)) for n in range(8)] + [
    pokemon(f"Normal Mon {n}", ("Colorless",)) for n in range(6)
]
SUPPORT = [trainer(f"Gadget {n}") for n in range(30)]
FIRE = energy("Fire Energy")
WATER = energy("Water Energy")


def trinity_deck(
    *extra: tuple[PokemonCard, int],
    roles: dict[str, PokemonCard | None] | None = None,
    fire: int | None = None,
    problems: tuple[Problem, ...] = (),
) -> Deck:
    """The legal 60: Signature Charizard ex, 14 Fire and Colorless Pokémon, 30 Trainers, 15 Fire Energy (fewer
    by the ``extra`` cards, unless ``fire`` says how many)."""
    base = [(SIGNATURE, 1), *((c, 1) for c in MONS), *((c, 1) for c in SUPPORT)]
    n_fire = 15 - sum(n for _, n in extra) if fire is None else fire
    entries = [*base, *extra, *([(FIRE, n_fire)] if n_fire > 0 else [])]
    given = {"signature": SIGNATURE, **(roles or {})}
    return Deck(
        tuple(Entry(c, n, line=i + 1) for i, (c, n) in enumerate(entries)),
        {k: v for k, v in given.items() if v is not None},
        problems,
    )


def codes(deck: Deck) -> list[str]:
    return [v.code for v in check(deck)]


def only(deck: Deck, code: str):
    violations = check(deck)
    assert [v.code for v in violations] == [code], violations
    assert violations[0].rule == RULE and violations[0].message
    return violations[0]


# --- the legal deck ---------------------------------------------------------------------------------


def test_the_reference_deck_is_legal():
    deck = trinity_deck()
    assert deck.count() == 60
    assert check(deck) == []


def test_it_refuses_options_it_does_not_define():
    with pytest.raises(ValueError, match="no option"):
        check(trinity_deck(), {"pool": "expanded"})


def test_it_reports_the_decklist_problems_first():
    deck = trinity_deck(problems=(Problem("unparseable_line", 2, "x", "Cannot read this line."),), fire=14)
    assert codes(deck) == ["unparseable_line", "deck_size"]
    assert check(deck)[0].rule == "decklist"


# --- the Signature --------------------------------------------------------------------------------


def test_a_deck_must_name_its_signature_and_play_it():
    assert codes(trinity_deck(roles={"signature": None})) == ["role_missing"]
    other = pokemon("Mewtwo V", ("Fire",), rule_box="V")
    violation = only(trinity_deck(roles={"signature": other}), "role_not_in_deck")
    assert violation.cards == (label(other),)


def test_a_signature_named_by_a_reprint_is_in_the_deck():
    reprint = replace(SIGNATURE, key="tst-full-art", number="999")
    assert check(trinity_deck(roles={"signature": reprint})) == []


def test_the_signature_must_be_a_basic_rule_box_pokemon():
    plain = MONS[0]
    assert "has no Rule Box" in only(trinity_deck(roles={"signature": plain}), "signature_invalid").message
    vmax = pokemon("Charizard VMAX", ("Fire",), rule_box="VMAX", stage="VMAX")
    deck = trinity_deck((vmax, 1), roles={"signature": vmax})
    assert codes(deck) == ["signature_invalid"]
    assert "not a Basic Pokémon" in check(deck)[0].message
    prism = trainer("Lysandre ◇", "Supporter", extra=("Prism Star",), rule_box="Prism Star")
    deck = trinity_deck((prism, 1), roles={"signature": prism})
    assert codes(deck) == ["signature_invalid"]
    assert "not a Pokémon" in check(deck)[0].message


@pytest.mark.parametrize("rule_box", ["ex", "V", "GX", "EX", "TAG TEAM", "Radiant", "Prism Star"])
def test_any_basic_rule_box_pokemon_may_be_the_signature(rule_box):
    signature = pokemon(f"Zapdos {rule_box}", ("Fire",), rule_box=rule_box)
    assert check(Deck(trinity_deck((signature, 1)).entries[1:] + ((Entry(FIRE, 1),)), {"signature": signature})) == []


# --- deck size ------------------------------------------------------------------------------------


def test_a_deck_of_59_or_61_cards_is_refused():
    assert only(trinity_deck(fire=14), "deck_size").message.startswith("The deck has 59 cards")
    assert codes(trinity_deck(fire=16)) == ["deck_size"]


# --- Rule Box cards -------------------------------------------------------------------------------


def test_up_to_three_rule_box_cards_are_allowed():
    two_more = [
        (pokemon("Moltres ex", ("Fire",), rule_box="ex"), 1),
        (pokemon("Radiant Charizard", ("Fire",), rule_box="Radiant"), 1),
    ]
    assert check(trinity_deck(*two_more)) == []
    three_more = [*two_more, (pokemon("Entei V", ("Fire",), rule_box="V"), 1)]
    violation = only(trinity_deck(*three_more), "rule_box_count")
    assert "4 Rule Box cards" in violation.message and len(violation.cards) == 4


def test_prism_star_trainers_count_as_rule_box_cards_but_ace_spec_and_tag_team_supporters_do_not():
    rule_boxes = [
        (pokemon("Moltres ex", ("Fire",), rule_box="ex"), 1),
        (pokemon("Entei V", ("Fire",), rule_box="V"), 1),
    ]
    prism = trainer("Heat Factory ◇", "Stadium", extra=("Prism Star",), rule_box="Prism Star")
    assert codes(trinity_deck(*rule_boxes, (prism, 1))) == ["rule_box_count"]
    others = [
        (trainer("Master Ball", extra=("ACE SPEC",)), 1),
        (trainer("Guzma & Hala", "Supporter", extra=("TAG TEAM",)), 1),
    ]
    assert check(trinity_deck(*rule_boxes, *others)) == []


def test_prime_is_not_a_rule_box():
    prime = pokemon("Typhlosion", ("Fire",), rule_box="Prime", stage="Stage 2")
    assert check(trinity_deck((prime, 1))) == []


def test_a_deck_needs_at_least_one_rule_box_card():
    plain = MONS[0]
    deck = Deck(trinity_deck().entries[1:] + (Entry(FIRE, 1),), {"signature": plain})
    assert codes(deck) == ["signature_invalid", "rule_box_count"]
    assert "at least 1" in check(deck)[1].message


# --- types ------------------------------------------------------------------------------------------


def test_three_types_are_allowed_counting_colorless_as_one():
    assert check(trinity_deck((WATER, 1))) == []  # Fire, Colorless, Water


def test_a_fourth_type_from_a_pokemon_or_a_basic_energy_is_refused():
    grass = pokemon("Grass Mon", ("Grass",))
    violation = only(trinity_deck((WATER, 2), (grass, 1)), "type_count")
    assert "4 types" in violation.message
    assert violation.cards == (label(grass),)  # the least played type
    dual = pokemon("Dual Mon", ("Water", "Lightning"))
    assert codes(trinity_deck((dual, 1))) == ["type_count"]


def test_trainers_and_special_energy_add_no_type():
    assert check(trinity_deck((energy("Herbal Energy", basic=False), 1), (trainer("Grass Gadget"), 1))) == []


# --- singleton ------------------------------------------------------------------------------------


def test_one_copy_of_each_card_name_but_basic_energy():
    violation = only(trinity_deck((SUPPORT[0], 1)), "singleton_name")
    assert violation.cards == (label(SUPPORT[0]),)
    reprint = trainer("Gadget 1", set_code="OLD")
    assert len(only(trinity_deck((reprint, 1)), "singleton_name").cards) == 2


def test_pokemon_count_by_name_not_by_species():
    charmander = pokemon("Charmander", ("Fire",), dex=(4,))
    charmeleon = pokemon("Charmeleon", ("Fire",), dex=(5,), stage="Stage 1")
    charizard = pokemon("Charizard", ("Fire",), dex=(6,), stage="Stage 2")
    assert check(trinity_deck((charmander, 1), (charmeleon, 1), (charizard, 1))) == []
    assert codes(trinity_deck((pokemon("Fire Mon 0", ("Fire",)), 1))) == ["singleton_name"]


# --- card pool ------------------------------------------------------------------------------------


def test_the_card_pool_starts_with_black_and_white():
    old = trainer("Old Gadget", series="HeartGold & SoulSilver", release_date="2011-02-09")
    violation = only(trinity_deck((old, 1)), "card_pool")
    assert violation.cards == (label(old),)
    assert "2011-02-09" in violation.message
    for series, date in (("Black & White", "2011-03-01"), ("Black & White", "2011-04-25"), ("Other", "2011-06-17")):
        assert in_pool(trainer("New Gadget", series=series, release_date=date))
    assert not in_pool(trainer("Base Gadget", series="Base", release_date="1999/01/09"))


def test_each_card_from_before_black_and_white_is_its_own_violation():
    olds = [(trainer(f"Old Gadget {n}", series="Diamond & Pearl", release_date="2007-05-01"), 1) for n in range(2)]
    assert codes(trinity_deck(*olds)) == ["card_pool", "card_pool"]


# --- limits printed on cards ----------------------------------------------------------------------


def test_one_ace_spec_and_one_radiant_pokemon_per_deck():
    aces = [(trainer(n, extra=("ACE SPEC",)), 1) for n in ("Master Ball", "Prime Catcher")]
    assert codes(trinity_deck(*aces)) == ["card_limit"]
    radiants = [(pokemon(n, ("Fire",), rule_box="Radiant"), 1) for n in ("Radiant Charizard", "Radiant Heatran")]
    assert codes(trinity_deck(*radiants)) == ["card_limit"]


# --- several problems at once -----------------------------------------------------------------------


def test_a_deck_with_many_problems_reports_every_one():
    deck = trinity_deck(
        (SUPPORT[3], 1),
        (pokemon("Grass Mon", ("Grass",)), 1),
        (WATER, 1),
        (pokemon("Moltres ex", ("Fire",), rule_box="ex"), 1),
        (pokemon("Entei V", ("Fire",), rule_box="V"), 1),
        (pokemon("Raikou V", ("Lightning",), rule_box="V"), 1),
        (trainer("Old Gadget", series="Platinum", release_date="2009-02-11"), 1),
        fire=3,
        roles={"signature": MONS[1]},
        problems=(Problem("unknown_card", 9, "Pikachu ZZZ 1", "No such card."),),
    )
    assert codes(deck) == [
        "unknown_card",
        "deck_size",
        "signature_invalid",
        "rule_box_count",
        "type_count",
        "singleton_name",
        "card_pool",
    ]


# --- real cards -------------------------------------------------------------------------------------
#
# Decks of real pokemon-tcg-data cards (read from outside the repository), picked by id: a legal 60 and, for
# every code, a variant that breaks it.


@pytest.fixture(scope="module")
def real() -> dict[str, PokemonCard]:
    from decks.importers.pokemon import load_pokemon

    _, cards = load_pokemon(data_dir("pokemon-tcg-data"))
    return {c.key: c for c in cards}


def real_deck(
    real: dict[str, PokemonCard],
    counts: dict[str, int] | None = None,
    roles: dict[str, str | None] | None = None,
    problems: tuple[Problem, ...] = (),
) -> Deck:
    """The legal real deck with some counts set (0 removes a card) and some roles replaced (``None`` removes)."""
    merged = {**REAL_ENTRIES, **(counts or {})}
    named = {**REAL_ROLES, **(roles or {})}
    return Deck(
        tuple(Entry(real[key], n, line=i + 1) for i, (key, n) in enumerate(merged.items()) if n),
        {role: real[key] for role, key in named.items() if key},
        problems,
    )


def test_a_real_60_card_deck_is_legal(real):
    deck = real_deck(real)
    assert deck.count() == 60
    assert check(deck) == []


@pytest.mark.parametrize(
    ("counts", "roles"),
    [
        pytest.param({"swsh3-19": 0, "swsh12pt5-20": 1}, {"signature": "swsh12pt5-20"}, id="radiant-signature"),
        pytest.param({"swsh12pt5-20": 1, "sm10-20": 1, "sve-2": 13}, {}, id="three-rule-box-cards"),
        pytest.param({"bwp-BW004": 1, "bw1-98": 1, "sve-2": 13}, {}, id="black-and-white-promo-and-set"),
        pytest.param({"sv1-42": 1, "sve-3": 2, "sve-2": 12}, {}, id="third-type-water"),
        pytest.param({"sv3pt5-4": 1, "sv3pt5-5": 1, "sve-2": 13}, {}, id="charmander-and-charmeleon"),
        pytest.param({"sv2-190": 1, "sve-2": 14}, {}, id="special-energy-adds-no-type"),
        pytest.param({"sve-10": 5, "sve-2": 10}, {}, id="basic-energy-prints-are-exempt"),
    ],
)
def test_real_decks_within_the_rules_are_legal(real, counts, roles):
    assert check(real_deck(real, counts, roles)) == []


@pytest.mark.parametrize(
    ("expected", "counts", "roles", "problems"),
    [
        pytest.param(
            ["unparseable_line"], {}, {}, (Problem("unparseable_line", 1, "4x", "Cannot read."),), id="unparseable"
        ),
        pytest.param(
            ["unknown_card"], {}, {}, (Problem("unknown_card", 1, "Charizrd", "No such card."),), id="unknown"
        ),
        pytest.param(["role_missing"], {}, {"signature": None}, (), id="role_missing"),
        pytest.param(["role_not_in_deck"], {}, {"signature": "swsh12pt5-20"}, (), id="role_not_in_deck"),
        pytest.param(["deck_size"], {"sve-2": 14}, {}, (), id="deck_size"),
        pytest.param(
            ["signature_invalid"], {"sv3pt5-4": 1, "sve-2": 14}, {"signature": "sv3pt5-4"}, (), id="charmander"
        ),
        pytest.param(
            ["signature_invalid"], {"swsh3-20": 1, "sve-2": 14}, {"signature": "swsh3-20"}, (), id="charizard-vmax"
        ),
        pytest.param(
            ["rule_box_count"],
            {"swsh12pt5-20": 1, "swsh9-18": 1, "sm10-20": 1, "sve-2": 12},
            {},
            (),
            id="four-rule-box-pokemon",
        ),
        pytest.param(
            ["rule_box_count"],
            {"swsh12pt5-20": 1, "sm10-20": 1, "sm6-110": 1, "sve-2": 12},
            {},
            (),
            id="prism-star-trainer-is-the-fourth",
        ),
        pytest.param(["type_count"], {"sv1-42": 1, "sv1-63": 1, "sve-2": 13}, {}, (), id="water-and-lightning"),
        pytest.param(["type_count"], {"sve-3": 1, "sve-4": 1, "sve-2": 13}, {}, (), id="basic-energy-types"),
        pytest.param(["singleton_name"], {"sv1-235": 1, "sve-2": 14}, {}, (), id="two-arven"),
        pytest.param(["singleton_name"], {"sv2-172": 1, "swsh2-154": 1, "sve-2": 13}, {}, (), id="boss-ghetsis"),
        pytest.param(["card_pool"], {"base1-46": 1, "sve-2": 14}, {}, (), id="base-set-charmander"),
        pytest.param(["card_pool"], {"col1-1": 1, "sve-2": 14}, {}, (), id="call-of-legends"),
        pytest.param(["card_limit"], {"sv5-153": 1, "sv5-157": 1, "sve-2": 13}, {}, (), id="two-ace-specs"),
    ],
)
def test_real_decks_breaking_a_rule_are_refused_for_it(real, expected, counts, roles, problems):
    assert codes(real_deck(real, counts, roles, problems)) == expected


def test_a_real_deck_with_many_problems_reports_every_one(real):
    deck = real_deck(
        real,
        {"sv1-42": 1, "sv1-63": 1, "sv1-235": 1, "base1-46": 1, "swsh12pt5-20": 1, "swsh9-18": 1, "sm10-20": 1},
        {"signature": "sv1-30"},
    )
    assert codes(deck) == [
        "deck_size",
        "signature_invalid",
        "rule_box_count",
        "type_count",
        "singleton_name",
        "card_pool",
    ]


# --- the violations in the reader's language ------------------------------------------------------------------

SPANISH = {
    "The deck has %(count)s cards; it must have exactly %(needed)s.": "El mazo tiene %(count)s cartas; debe tener "
    "exactamente %(needed)s.",
    "Line %(line)s: %(problem)s": "Línea %(line)s: %(problem)s",
    "The Signature, %(card)s, is not a Pokémon: it must be a Basic Rule Box Pokémon.": "La Firma, %(card)s, no es un "
    "Pokémon: debe ser un Pokémon Básico con Regla.",
}


@pytest.fixture
def spanish():
    with speaking(SPANISH):
        yield


def test_the_violations_are_phrases_said_again_in_the_readers_language(spanish):
    problem = Problem("unparseable_line", 2, "x", "Cannot read this line.")
    deck = trinity_deck(roles={"signature": FIRE}, problems=(problem,), fire=14)
    line, size, signature = (v for v in check(deck) if v.code in ("unparseable_line", "deck_size", "signature_invalid"))
    assert size.message == "The deck has 59 cards; it must have exactly 60."  # English for every caller
    assert say(size.message) == "El mazo tiene 59 cartas; debe tener exactamente 60."
    stored = signature.as_dict()  # what a deck version keeps: the template and the values, said when read
    assert stored["params"] == {"card": label(FIRE)}
    assert say_stored(stored) == f"La Firma, {label(FIRE)}, no es un Pokémon: debe ser un Pokémon Básico con Regla."
    assert say_stored(line.as_dict()) == "Línea 2: Cannot read this line."  # the parser's words: a plain string
