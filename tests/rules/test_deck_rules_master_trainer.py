"""Master Trainer deck construction rules (handbook v6.7 §4, §8.5, §17, §2), with hand-made cards and real ones."""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Iterable
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import PokemonCard, Supertype
from rules.deckrules import Deck, Entry, Problem
from rules.master_trainer.deck import check
from rules.pokemon_deck import card_name, label, species_names
from tests.support.data import data_dir
from tests.support.decks.master_trainer import REAL_ENTRIES, REAL_MORE_SUPPORT, REAL_ROLES

# --- a tiny card factory ----------------------------------------------------------------------------

_numbers = itertools.count(1)


def pokemon(
    name: str,
    dex: int | tuple[int, ...],
    *,
    types: tuple[str, ...] = ("Colorless",),
    stage: str = "Basic",
    evolves_from: str = "",
    classes: tuple[str, ...] = (),
    rule_box: str = "",
) -> PokemonCard:
    number = str(next(_numbers))
    return PokemonCard(
        key=f"tst-{number}",
        name=name,
        set_id="tst",
        set_code="TST",
        number=number,
        supertype=Supertype.POKEMON,
        subtypes=(stage, *classes) if stage in ("Basic", "Stage 1", "Stage 2") else classes,
        stage=stage,
        trainer_kind="",
        energy_kind="",
        rule_box=rule_box or next((c for c in classes if c != "Tera"), ""),
        types=types,
        evolves_from=evolves_from,
        national_dex=dex if isinstance(dex, tuple) else (dex,),
        release_date="2023-03-31",
        series="Scarlet & Violet",
        regulation_mark="G",
    )


def trainer(name: str, kind: str = "Item", *, classes: tuple[str, ...] = ()) -> PokemonCard:
    number = str(next(_numbers))
    return PokemonCard(
        key=f"tst-{number}",
        name=name,
        set_id="tst",
        set_code="TST",
        number=number,
        supertype=Supertype.TRAINER,
        subtypes=(kind, *classes),
        stage="",
        trainer_kind=kind,
        energy_kind="",
        rule_box="Prism Star" if "Prism Star" in classes else "",
        types=(),
        evolves_from="",
        national_dex=(),
        release_date="2023-03-31",
        series="Scarlet & Violet",
        regulation_mark="G",
    )


def energy(name: str, *, basic: bool = True) -> PokemonCard:
    number = str(next(_numbers))
    return PokemonCard(
        key=f"tst-{number}",
        name=name,
        set_id="tst",
        set_code="TST",
        number=number,
        supertype=Supertype.ENERGY,
        subtypes=("Basic",) if basic else ("Special",),
        stage="",
        trainer_kind="",
        energy_kind="Basic" if basic else "Special",
        rule_box="",
        types=(name.removesuffix(" Energy"),) if basic else (),
        evolves_from="",
        national_dex=(),
        release_date="2023-03-31",
        series="Scarlet & Violet",
        regulation_mark="G",
    )


CHARMANDER = pokemon("Charmander", 4, types=("Fire",))
CHARMELEON = pokemon("Charmeleon", 5, types=("Fire",), stage="Stage 1", evolves_from="Charmander")
CHARIZARD_EX = pokemon("Charizard ex", 6, types=("Fire",), stage="Stage 2", evolves_from="Charmeleon", classes=("ex",))
CHARIZARD_VMAX = pokemon(
    "Charizard VMAX", 6, types=("Fire",), stage="VMAX", evolves_from="Charizard V", classes=("VMAX",)
)
FILLERS = [pokemon(f"Mon {n}", 100 + n) for n in range(20)]
SUPPORT = [trainer(f"Gadget {n}") for n in range(30)]
FIRE = energy("Fire Energy")


def mt_deck(
    *extra: tuple[PokemonCard, int],
    drop: Iterable[PokemonCard] = (),
    roles: dict[str, PokemonCard | None] | None = None,
    problems: tuple[Problem, ...] = (),
) -> Deck:
    """The legal 75: Master Charmander, Charmeleon, Apex Charizard ex, 20 Creatures, 30 Support cards, 22 Fire
    Energy; the Paragon Charizard VMAX outside.  ``extra`` adds cards (taking Fire Energy out to stay at 75 when
    they can), ``drop`` removes cards, ``roles`` replaces roles."""
    dropped = set(drop)
    cards = [
        (CHARMANDER, 1),
        (CHARMELEON, 1),
        (CHARIZARD_EX, 1),
        *((c, 1) for c in FILLERS),
        *((c, 1) for c in SUPPORT),
    ]
    cards = [(c, n) for c, n in cards if c not in dropped]
    fire = 22 - sum(n for _, n in extra) + (3 + 20 + 30 - len(cards))
    entries = [*cards, *extra, *([(FIRE, fire)] if fire > 0 else [])]
    given_roles: dict[str, PokemonCard | None] = {"master": CHARMANDER, "apex": CHARIZARD_EX, "paragon": CHARIZARD_VMAX}
    given_roles.update(roles or {})
    return Deck(
        tuple(Entry(card, count, line=i + 1) for i, (card, count) in enumerate(entries)),
        {k: v for k, v in given_roles.items() if v is not None},
        problems,
    )


def codes(deck: Deck) -> list[str]:
    return [v.code for v in check(deck)]


def only(deck: Deck, code: str):
    violations = check(deck)
    assert [v.code for v in violations] == [code], violations
    assert violations[0].rule and violations[0].message
    return violations[0]


# --- the legal deck ---------------------------------------------------------------------------------


def test_the_reference_deck_is_legal():
    deck = mt_deck()
    assert deck.count() == 75
    assert check(deck) == []


def test_every_violation_names_its_handbook_section():
    deck = mt_deck((CHARIZARD_EX, 1), roles={"apex": FILLERS[0]})
    assert {v.rule for v in check(deck)} <= {"§2", "§3", "§4.1", "§4.2", "§4.3", "§4.4", "§8.5", "§17.2"}


def test_it_refuses_options_it_does_not_define():
    with pytest.raises(ValueError, match="no option"):
        check(mt_deck(), {"deck_size": 60})
    assert check(mt_deck(), {}) == []


# --- decklist problems --------------------------------------------------------------------------------


def test_it_reports_the_decklist_problems_first():
    problems = (
        Problem("unparseable_line", 3, "4x??", "Cannot read this line."),
        Problem("unknown_card", 7, "Charizrd ex OBF 125", "No such card.", suggestion="Charizard ex OBF 125"),
    )
    violations = check(mt_deck(problems=problems))
    assert [v.code for v in violations] == ["unparseable_line", "unknown_card"]
    assert violations[0].rule == "decklist"
    assert "Did you mean 'Charizard ex OBF 125'?" in violations[1].message


# --- roles --------------------------------------------------------------------------------------------


def test_a_deck_without_a_master_or_an_apex_misses_a_role():
    assert codes(mt_deck(roles={"master": None})) == ["role_missing"]
    violation = only(mt_deck(roles={"apex": None}), "role_missing")
    assert violation.rule == "§4.4"


def test_the_paragon_is_optional():
    assert check(mt_deck(roles={"paragon": None})) == []


def test_the_master_and_the_apex_must_be_cards_of_the_deck():
    violation = only(mt_deck(drop=[CHARMANDER]), "role_not_in_deck")
    assert violation.cards == (label(CHARMANDER),)
    assert codes(mt_deck(drop=[CHARIZARD_EX])) == ["role_not_in_deck"]


def test_a_role_named_by_a_reprint_is_in_the_deck():
    assert check(mt_deck(roles={"apex": replace(CHARIZARD_EX, key="tst-full-art", number="999")})) == []
    other_text = replace(CHARIZARD_EX, key="tst-other", types=("Fire", "Dragon"))
    assert codes(mt_deck(roles={"apex": other_text})) == ["role_not_in_deck", "sole_apex"]


def test_one_card_cannot_be_both_the_master_and_the_apex():
    assert codes(mt_deck(roles={"master": CHARIZARD_EX})) == ["role_not_in_deck"]


def test_the_master_must_be_a_creature():
    gadget = SUPPORT[0]
    violations = check(mt_deck(roles={"master": gadget}))
    assert [v.code for v in violations] == ["master_invalid"]
    assert violations[0].cards == (label(gadget),)


def test_any_creature_may_be_the_master_evolved_or_not():
    assert check(mt_deck(roles={"master": CHARMELEON})) == []


# --- deck size ----------------------------------------------------------------------------------------


def test_a_deck_of_74_or_76_cards_is_refused_and_the_paragon_is_not_counted():
    short = Deck(mt_deck().entries[:-1] + (Entry(FIRE, 21),), mt_deck().roles)
    long = Deck(mt_deck().entries[:-1] + (Entry(FIRE, 23),), mt_deck().roles)
    assert only(short, "deck_size").message.startswith("The deck has 74 cards")
    assert only(long, "deck_size").rule == "§4.1"
    with_paragon_inside = Deck(mt_deck().entries[:-1] + (Entry(FIRE, 21), Entry(CHARIZARD_VMAX, 1)), mt_deck().roles)
    assert "deck_size" not in codes(with_paragon_inside)


# --- singleton ----------------------------------------------------------------------------------------


def test_creatures_are_singleton_by_base_species():
    dark_charmeleon = pokemon("Dark Charmeleon", 5, types=("Fire",), stage="Stage 1", evolves_from="Charmander")
    violation = only(mt_deck((dark_charmeleon, 1)), "singleton_species")
    assert violation.rule == "§4.2"
    assert set(violation.cards) == {label(CHARMELEON), label(dark_charmeleon)}
    assert "Charmeleon" in violation.message


def test_two_copies_of_one_creature_break_the_species_singleton():
    assert codes(mt_deck((FILLERS[0], 1))) == ["singleton_species"]


def test_a_tag_team_counts_as_each_of_its_species():
    tag_team = pokemon("Reshiram & Charizard-GX", (6, 643), types=("Fire",), classes=("TAG TEAM", "GX"))
    reshiram = pokemon("Reshiram", 643, types=("Fire",))
    charizard = pokemon("Charizard", 6, types=("Fire",), stage="Stage 2", evolves_from="Charmeleon")
    alone = mt_deck((tag_team, 1), drop=[CHARIZARD_EX], roles={"apex": tag_team})
    assert check(alone) == []
    clash = check(mt_deck((tag_team, 1), (reshiram, 1), (charizard, 1), drop=[CHARIZARD_EX], roles={"apex": tag_team}))
    assert [v.code for v in clash] == ["singleton_species", "singleton_species"]
    assert {v.cards for v in clash} == {(label(tag_team), label(charizard)), (label(tag_team), label(reshiram))}
    assert {v.message.split(" (")[0] for v in clash} == {
        "2 Creatures of the species Charizard",
        "2 Creatures of the species Reshiram",
    }


def test_a_duplicated_tag_team_is_one_violation_naming_both_species():
    tag_team = pokemon("Slowpoke & Psyduck-GX", (54, 79), types=("Water",), classes=("TAG TEAM",))
    violation = only(mt_deck((tag_team, 2)), "singleton_species")
    assert violation.message.startswith("2 Creatures sharing a species (2x Slowpoke & Psyduck-GX TST")


def test_a_master_and_an_apex_of_one_species_break_the_singleton():
    charizard = pokemon("Charizard", 6, types=("Fire",), stage="Stage 2", evolves_from="Charmeleon")
    violation = only(mt_deck((charizard, 1), roles={"master": charizard}), "singleton_species")
    assert set(violation.cards) == {label(charizard), label(CHARIZARD_EX)}


def test_support_and_energy_cards_are_singleton_by_exact_name_basic_energy_aside():
    assert check(mt_deck((trainer("Team Rocket's Gadget 0"), 1))) == []
    violation = only(mt_deck((trainer("Gadget 0"), 1)), "singleton_name")
    assert violation.rule == "§4.2" and len(violation.cards) == 2
    special = energy("Jet Energy", basic=False)
    assert codes(mt_deck((special, 2))) == ["singleton_name"]


def test_an_art_variant_in_parentheses_is_the_same_name():
    assert card_name("Professor’s Research (Professor Magnolia)") == "Professor's Research"
    assert codes(mt_deck((trainer("Boss's Orders", "Supporter"), 1), (trainer("Boss’s Orders (Ghetsis)"), 1))) == [
        "singleton_name"
    ]


def test_only_one_professor_card_is_allowed():
    research = trainer("Professor's Research", "Supporter")
    assert check(mt_deck((research, 1))) == []
    violation = only(mt_deck((research, 1), (trainer("Professor Sycamore", "Supporter"), 1)), "professor_clause")
    assert violation.rule == "§4.2" and len(violation.cards) == 2
    assert codes(mt_deck((research, 1), (trainer("Professor's Letter"), 1))) == ["professor_clause"]


def test_two_copies_of_one_professor_break_both_the_singleton_and_the_clause():
    research = trainer("Professor's Research", "Supporter")
    assert codes(mt_deck((research, 2))) == ["singleton_name", "professor_clause"]


# --- the Apex -----------------------------------------------------------------------------------------


def test_no_other_v_gx_ex_or_ex_card_than_the_apex():
    mewtwo = pokemon("Mewtwo ex", 150, types=("Psychic",), classes=("ex",))
    violation = only(mt_deck((mewtwo, 1)), "sole_apex")
    assert violation.rule == "§4.3" and violation.cards == (label(mewtwo),)


@pytest.mark.parametrize(
    ("name", "stage", "classes"),
    [
        ("Mewtwo V", "Basic", ("V",)),
        ("Mewtwo VMAX", "VMAX", ("VMAX",)),
        ("Mewtwo VSTAR", "VSTAR", ("VSTAR",)),
        ("Mewtwo V-UNION", "V-UNION", ("V-UNION",)),
        ("Mewtwo-GX", "Basic", ("GX",)),
        ("Mewtwo-EX", "Basic", ("EX",)),
        ("M Mewtwo-EX", "MEGA", ("MEGA", "EX")),
    ],
)
def test_the_v_family_gx_ex_and_mega_ex_are_high_tier(name, stage, classes):
    assert codes(mt_deck((pokemon(name, 150, stage=stage, classes=classes), 1))) == ["sole_apex"]


def test_radiant_prism_star_and_break_creatures_are_not_high_tier():
    for name, classes in (("Radiant Mewtwo", ("Radiant",)), ("Mewtwo ◇", ("Prism Star",))):
        assert check(mt_deck((pokemon(name, 150, classes=classes), 1))) == []
    assert check(mt_deck((pokemon("Mewtwo BREAK", 150, stage="BREAK", classes=("BREAK",)), 1))) == []


def test_a_high_tier_master_breaks_the_sole_apex_rule():
    charizard_v = pokemon("Charizard V", 6, types=("Fire",), classes=("V",))
    deck = mt_deck((charizard_v, 1), drop=[CHARMANDER], roles={"master": charizard_v})
    violations = check(deck)
    assert "sole_apex" in [v.code for v in violations]
    assert next(v for v in violations if v.code == "sole_apex").cards == (label(charizard_v),)


def test_a_second_copy_of_the_apex_is_one_too_many():
    assert codes(mt_deck((CHARIZARD_EX, 1))) == ["singleton_species", "sole_apex"]


def test_without_an_apex_every_high_tier_card_beyond_the_first_is_reported():
    mewtwo = pokemon("Mewtwo ex", 150, types=("Psychic",), classes=("ex",))
    assert codes(mt_deck((mewtwo, 1), roles={"apex": None})) == ["role_missing", "sole_apex"]


def test_the_apex_must_be_high_tier():
    violation = only(mt_deck(roles={"apex": CHARMELEON}, drop=[CHARIZARD_EX]), "apex_class")
    assert violation.cards == (label(CHARMELEON),)


def test_the_apex_may_share_only_a_printed_type_with_the_master():
    blaziken = pokemon("Blaziken ex", 257, types=("Fire",), stage="Stage 2", classes=("ex",))
    assert check(mt_deck((blaziken, 1), drop=[CHARIZARD_EX], roles={"apex": blaziken})) == []


def test_the_apex_may_share_only_an_evolution_line_with_the_master():
    dark_charizard_ex = pokemon(
        "Charizard ex", 6, types=("Darkness",), stage="Stage 2", evolves_from="Charmeleon", classes=("ex",)
    )
    paragon = pokemon("Charizard VSTAR", 6, types=("Fire",), stage="VSTAR", classes=("VSTAR",))
    deck = mt_deck((dark_charizard_ex, 1), drop=[CHARIZARD_EX], roles={"apex": dark_charizard_ex, "paragon": paragon})
    assert check(deck) == []


def test_the_evolution_line_is_only_known_as_far_as_the_deck_shows_it():
    dark_charizard_ex = pokemon(
        "Charizard ex", 6, types=("Darkness",), stage="Stage 2", evolves_from="Charmeleon", classes=("ex",)
    )
    deck = mt_deck((dark_charizard_ex, 1), drop=[CHARIZARD_EX, CHARMELEON], roles={"apex": dark_charizard_ex})
    assert "apex_identity" in codes(deck)


def test_siblings_of_one_basic_are_not_on_one_evolution_line():
    eevee = pokemon("Eevee", 133)
    vaporeon = pokemon("Vaporeon", 134, types=("Water",), stage="Stage 1", evolves_from="Eevee")
    sylveon = pokemon("Sylveon ex", 700, types=("Psychic",), stage="Stage 1", evolves_from="Eevee", classes=("ex",))
    paragon = pokemon("Mega Sylveon ex", 700, types=("Psychic",), stage="Stage 1", classes=("MEGA", "ex"))
    from_eevee = mt_deck(
        (eevee, 1),
        (sylveon, 1),
        drop=[CHARMANDER, CHARIZARD_EX],
        roles={"master": eevee, "apex": sylveon, "paragon": paragon},
    )
    assert check(from_eevee) == []
    from_vaporeon = mt_deck(
        (eevee, 1),
        (vaporeon, 1),
        (sylveon, 1),
        drop=[CHARMANDER, CHARIZARD_EX, FILLERS[0]],
        roles={"master": vaporeon, "apex": sylveon, "paragon": paragon},
    )
    assert codes(from_vaporeon) == ["apex_identity", "identity_cohesion"]


def test_an_unrelated_apex_breaks_the_apex_identity():
    mewtwo = pokemon("Mewtwo ex", 150, types=("Psychic",), classes=("ex",))
    violations = check(mt_deck((mewtwo, 1), drop=[CHARIZARD_EX], roles={"apex": mewtwo, "paragon": None}))
    assert [v.code for v in violations] == ["apex_identity"]
    assert violations[0].rule == "§4.4"
    assert violations[0].cards == (label(mewtwo), label(CHARMANDER))


# --- the Paragon --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "stage", "classes"),
    [
        ("Charizard VMAX", "VMAX", ("VMAX",)),
        ("Charizard VSTAR", "VSTAR", ("VSTAR",)),
        ("M Charizard-EX", "MEGA", ("MEGA", "EX")),
        ("Mega Charizard X ex", "Stage 2", ("MEGA", "ex")),
    ],
)
def test_the_paragon_may_be_a_mega_a_vmax_or_a_vstar(name, stage, classes):
    paragon = pokemon(name, 6, types=("Fire",), stage=stage, classes=classes)
    assert check(mt_deck(roles={"paragon": paragon})) == []


def test_any_other_paragon_is_refused():
    for paragon in (pokemon("Charizard V", 6, types=("Fire",), classes=("V",)), CHARMELEON, SUPPORT[1]):
        violation = only(mt_deck(roles={"paragon": paragon}), "paragon_class")
        assert violation.rule == "§17.2" and violation.cards == (label(paragon),)


def test_the_paragon_may_match_the_apex_rather_than_the_master():
    mewtwo_vstar = pokemon("Mewtwo VSTAR", 150, types=("Psychic",), stage="VSTAR", classes=("VSTAR",))
    apex = pokemon("Mewtwo ex", 150, types=("Fire",), classes=("ex",))
    deck = mt_deck((apex, 1), drop=[CHARIZARD_EX], roles={"apex": apex, "paragon": mewtwo_vstar})
    # Paragon-Apex share the species, Master-Apex the type, but nothing is common to all three.
    assert codes(deck) == ["identity_cohesion"]


def test_an_unrelated_paragon_breaks_its_identity_and_the_cohesion():
    paragon = pokemon("Blastoise VMAX", 9, types=("Water",), stage="VMAX", classes=("VMAX",))
    violations = check(mt_deck(roles={"paragon": paragon}))
    assert [v.code for v in violations] == ["paragon_identity", "identity_cohesion"]
    assert [v.rule for v in violations] == ["§17.2", "§8.5"]
    assert violations[0].cards == (label(paragon), label(CHARMANDER), label(CHARIZARD_EX))


def test_a_paragon_of_the_masters_species_outside_the_deck_is_no_duplicate():
    paragon = pokemon("Charmander VSTAR", 4, types=("Fire",), stage="VSTAR", classes=("VSTAR",))
    assert check(mt_deck(roles={"paragon": paragon})) == []


# --- setup --------------------------------------------------------------------------------------------


def test_a_deck_without_basic_energy_cannot_set_up():
    specials = [(energy(f"Special {n}", basic=False), 1) for n in range(22)]
    violation = only(mt_deck(*specials), "basic_energy_missing")
    assert violation.rule == "§2"


def test_limits_printed_on_cards_still_apply():
    ace_specs = [(trainer(name, classes=("ACE SPEC",)), 1) for name in ("Master Ball", "Prime Catcher")]
    violation = only(mt_deck(*ace_specs), "card_limit")
    assert len(violation.cards) == 2
    radiants = [
        (pokemon(f"Radiant {n}", 300 + i, classes=("Radiant",)), 1) for i, n in enumerate(("Greninja", "Jirachi"))
    ]
    assert codes(mt_deck(*radiants)) == ["card_limit"]


# --- several problems at once -------------------------------------------------------------------------


def test_a_deck_with_many_problems_reports_every_one():
    mewtwo = pokemon("Mewtwo ex", 150, types=("Psychic",), classes=("ex",))
    research = trainer("Professor's Research", "Supporter")
    deck = mt_deck(
        (mewtwo, 1),
        (FILLERS[1], 1),
        (SUPPORT[2], 1),
        (research, 1),
        (trainer("Professor Turo's Scenario", "Supporter"), 1),
        roles={"apex": mewtwo, "paragon": pokemon("Snorlax", 143)},
        problems=(Problem("unknown_card", 4, "Pikachu XYZ 1", "No such card."),),
    )
    deck = Deck(tuple(e for e in deck.entries if e.card != FIRE) + (Entry(FIRE, 1),), deck.roles, deck.problems)
    assert codes(deck) == [
        "unknown_card",
        "deck_size",
        "singleton_species",
        "singleton_name",
        "professor_clause",
        "sole_apex",
        "apex_identity",
        "paragon_class",
        "paragon_identity",
        "identity_cohesion",
    ]


# --- invariants ---------------------------------------------------------------------------------------


@given(st.data())
def test_how_the_decklist_splits_and_orders_its_lines_changes_nothing(data):
    base = mt_deck((FILLERS[3], 1), (trainer("Gadget 4"), 1))
    entries = []
    for entry in base.entries:
        parts = data.draw(st.integers(1, entry.count), label="parts") if entry.count > 1 else 1
        sizes = [entry.count // parts] * parts
        sizes[0] += entry.count - sum(sizes)
        entries += [Entry(entry.card, n) for n in sizes]
    shuffled = data.draw(st.permutations(entries))
    expected = sorted((v.code, frozenset(v.cards)) for v in check(base))
    assert sorted((v.code, frozenset(v.cards)) for v in check(Deck(tuple(shuffled), base.roles))) == expected


def test_species_names_drop_owners_eras_and_classes():
    assert species_names("Dark Charizard") == ("Charizard",)
    assert species_names("Team Rocket's Mewtwo ex") == ("Mewtwo",)
    assert species_names("M Lucario-EX") == ("Lucario",)
    assert species_names("Pikachu & Zekrom-GX") == ("Pikachu", "Zekrom")
    assert species_names("Alolan Ninetales VMAX") == ("Ninetales",)
    assert species_names("Mega Charizard X ex") == ("Charizard",)


def test_a_card_without_dex_numbers_takes_its_species_from_its_name():
    no_dex = pokemon("Pecharunt ex", (), types=("Darkness",), classes=("ex",))
    plain = pokemon("Pecharunt", 1025, types=("Darkness",))
    assert "singleton_species" in codes(mt_deck((no_dex, 1), (plain, 1)))


# --- timing -------------------------------------------------------------------------------------------


def test_checking_a_75_card_deck_takes_milliseconds(capsys):
    deck = mt_deck()
    times = []
    for _ in range(200):
        start = time.perf_counter()
        check(deck)
        times.append(time.perf_counter() - start)
    with capsys.disabled():
        print(f"\nMaster Trainer check, 75 cards: median {statistics.median(times) * 1000:.3f} ms")


# --- real cards -------------------------------------------------------------------------------------
#
# Decks of real pokemon-tcg-data cards (read from outside the repository), picked by id: a legal 75 and, for
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


def test_a_real_75_card_deck_is_legal(real):
    deck = real_deck(real)
    assert deck.count() == 75
    assert check(deck) == []


@pytest.mark.parametrize(
    ("counts", "roles"),
    [
        pytest.param({}, {"paragon": None}, id="no-paragon"),
        pytest.param({}, {"apex": "sv3-215"}, id="apex-named-by-its-full-art-reprint"),
        pytest.param({"sv3-125": 0, "sv4pt5-54": 1}, {}, id="apex-listed-as-a-reprint"),
        pytest.param({"sv3-125": 0, "sm10-20": 1}, {"apex": "sm10-20"}, id="tag-team-apex"),
        pytest.param({"bw2-93": 1, "sv10-175": 1, "sve-2": 20}, {}, id="great-ball-and-team-rockets-great-ball"),
        pytest.param({"swsh9-147": 1, "sve-2": 21}, {}, id="one-professor"),
        pytest.param({}, {"paragon": "me2-13"}, id="mega-paragon"),
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
        pytest.param(["role_missing"], {}, {"apex": None}, (), id="role_missing"),
        pytest.param(["role_not_in_deck"], {}, {"master": "base1-46"}, (), id="role_not_in_deck"),
        pytest.param(["master_invalid"], {}, {"master": "sv1-166"}, (), id="master_invalid-arven"),
        pytest.param(["deck_size"], {"sve-2": 21}, {}, (), id="deck_size"),
        pytest.param(["singleton_species"], {"base5-4": 1, "sve-2": 21}, {}, (), id="dark-charizard"),
        pytest.param(["singleton_name"], {"swsh2-154": 1, "sv2-172": 1, "sve-2": 20}, {}, (), id="boss-ghetsis"),
        pytest.param(["professor_clause"], {"swsh9-147": 1, "sv4-171": 1, "sve-2": 20}, {}, (), id="professors"),
        pytest.param(["card_limit"], {"sv5-153": 1, "sv5-157": 1, "sve-2": 20}, {}, (), id="two-ace-specs"),
        pytest.param(["sole_apex"], {"sv4-58": 1, "sve-2": 21}, {}, (), id="mewtwo-ex"),
        pytest.param(["apex_class"], {"sv3-125": 0, "sve-2": 23}, {"apex": "sv3pt5-5"}, (), id="apex-charmeleon"),
        pytest.param(
            ["apex_identity"], {"sv3-125": 0, "sv4-58": 1}, {"apex": "sv4-58", "paragon": None}, (), id="apex-mewtwo"
        ),
        pytest.param(["paragon_class"], {}, {"paragon": "swsh3-19"}, (), id="paragon-charizard-v"),
        pytest.param(
            ["paragon_identity", "identity_cohesion"], {}, {"paragon": "swshp-SWSH103"}, (), id="paragon-blastoise"
        ),
        # Growlithe and Charizard V share Fire, Charizard V and M Charizard-EX (Dragon) the species: nothing all three.
        pytest.param(
            ["identity_cohesion"],
            {"sv3-125": 0, "swsh3-19": 1},
            {"master": "sv1-30", "apex": "swsh3-19", "paragon": "xy2-69"},
            (),
            id="identity_cohesion",
        ),
        pytest.param(
            ["basic_energy_missing"],
            {"sve-2": 0, **dict.fromkeys(REAL_MORE_SUPPORT, 1)},
            {},
            (),
            id="basic_energy_missing",
        ),
    ],
)
def test_real_decks_breaking_a_rule_are_refused_for_it(real, expected, counts, roles, problems):
    assert codes(real_deck(real, counts, roles, problems)) == expected


def test_a_real_deck_with_many_problems_reports_every_one(real):
    deck = real_deck(
        real,
        {"base5-4": 1, "sv4-58": 1, "swsh9-147": 1, "sv4-171": 1, "sv2-172": 1, "swsh2-154": 1, "sve-2": 10},
        {"paragon": "swsh3-19"},
    )
    assert codes(deck) == [
        "deck_size",
        "singleton_species",
        "singleton_name",
        "professor_clause",
        "sole_apex",
        "paragon_class",
    ]


def test_checking_a_real_75_card_deck_takes_milliseconds(real, capsys):
    deck = real_deck(real)
    times = []
    for _ in range(200):
        start = time.perf_counter()
        check(deck)
        times.append(time.perf_counter() - start)
    with capsys.disabled():
        print(f"\nMaster Trainer check, 75 real cards: median {statistics.median(times) * 1000:.3f} ms")
