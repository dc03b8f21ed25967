"""The pokemon-tcg-data loader: the real data (outside the repo), and hand-made broken files."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from decks.importers.pokemon import PokemonSet, load_pokemon, rule_box_class
from rules.cards import PokemonCard, Supertype
from tests.support.data import data_dir, data_root

RULE_BOXES = {
    "",
    "ex",
    "EX",
    "GX",
    "V",
    "VMAX",
    "VSTAR",
    "V-UNION",
    "MEGA",
    "Radiant",
    "Prism Star",
    "TAG TEAM",
    "LEGEND",
    "BREAK",
    "LV.X",
    "Star",
}


@pytest.fixture(scope="module")
def root() -> Path:
    return data_dir("pokemon-tcg-data")


@pytest.fixture(scope="module")
def loaded(root: Path) -> tuple[list[PokemonSet], list[PokemonCard], float]:
    started = time.perf_counter()
    sets, cards = load_pokemon(root)
    return sets, cards, time.perf_counter() - started


@pytest.fixture(scope="module")
def by_key(loaded) -> dict[str, PokemonCard]:
    return {card.key: card for card in loaded[1]}


def test_it_loads_every_set_and_every_card_and_reports_the_time(loaded, root, capsys):
    sets, cards, seconds = loaded
    raw_sets = json.loads((root / "sets" / "en.json").read_text(encoding="utf-8"))
    raw_count = sum(len(json.loads(p.read_text(encoding="utf-8"))) for p in (root / "cards" / "en").glob("*.json"))
    assert len(sets) == len(raw_sets) >= 172
    assert len(cards) == raw_count >= 20_202
    assert len({card.key for card in cards}) == len(cards)
    with capsys.disabled():
        print(f"\nload_pokemon: {len(sets)} sets, {len(cards)} cards in {seconds:.2f} s")


def test_a_set_carries_its_code_iso_release_date_and_total(loaded):
    sets = {s.id: s for s in loaded[0]}
    assert sets["sv3"] == PokemonSet("sv3", "Obsidian Flames", "Scarlet & Violet", "OBF", "2023-08-11", 230)
    assert sets["swsh9tg"].ptcgo_code == "BRS"
    assert sets["pop1"].ptcgo_code == ""


def test_charizard_ex_maps_every_field(by_key):
    card = by_key["sv3-125"]
    assert card == PokemonCard(
        key="sv3-125",
        name="Charizard ex",
        set_id="sv3",
        set_code="OBF",
        number="125",
        supertype=Supertype.POKEMON,
        subtypes=("Stage 2", "ex", "Tera"),
        stage="Stage 2",
        trainer_kind="",
        energy_kind="",
        rule_box="ex",
        types=("Darkness",),
        evolves_from="Charmeleon",
        national_dex=(6,),
        release_date="2023-08-11",
        series="Scarlet & Violet",
        regulation_mark="G",
        hp=330,
    )
    assert card.has_rule_box


@pytest.mark.parametrize(
    ("key", "name", "rule_box", "stage", "national_dex"),
    [
        ("swsh12pt5-20", "Radiant Charizard", "Radiant", "Basic", (6,)),
        ("swsh9-123", "Arceus VSTAR", "VSTAR", "VSTAR", (493,)),
        ("sm10-20", "Reshiram & Charizard-GX", "TAG TEAM", "Basic", (6, 643)),
        ("sm5-58", "Giratina ◇", "Prism Star", "Basic", (487,)),
        ("xy2-12", "Charizard-EX", "EX", "Basic", (6,)),
        ("g1-12", "M Charizard-EX", "MEGA", "MEGA", (6,)),
        ("me1-3", "Mega Venusaur ex", "MEGA", "Stage 2", (3,)),
        ("ex1-96", "Chansey ex", "ex", "Basic", (113,)),
        ("np-1", "Kyogre ex", "ex", "Basic", (382,)),  # the data tags it "EX"; the name says EX-era ex
        ("swshp-SWSH139", "Pikachu V-UNION", "V-UNION", "V-UNION", (25,)),
        ("hgss1-111", "Ho-Oh LEGEND", "LEGEND", "LEGEND", (250,)),
        ("xy10-14", "Delphox BREAK", "BREAK", "BREAK", (655,)),
        ("dp1-120", "Empoleon LV.X", "LV.X", "Level-Up", (395,)),
        ("ex10-113", "Entei ★", "Star", "Basic", (244,)),
        ("hgss1-105", "Ampharos", "", "Stage 2", (181,)),  # Prime: no rule text, so no Rule Box
    ],
)
def test_special_pokemon_get_their_rule_box_class_stage_and_dex_numbers(
    by_key, key, name, rule_box, stage, national_dex
):
    card = by_key[key]
    assert (card.name, card.rule_box, card.stage, card.national_dex) == (name, rule_box, stage, national_dex)


def test_a_tag_team_has_both_dex_numbers_and_its_types(by_key):
    card = by_key["sm10-20"]
    assert card.national_dex == (6, 643)
    assert card.types == ("Fire",)
    assert card.hp == 270


@pytest.mark.parametrize(
    ("key", "trainer_kind", "energy_kind", "rule_box"),
    [
        ("sv1-166", "Supporter", "", ""),
        ("sv1-187", "Item", "", ""),
        ("swsh10-152", "Pokémon Tool", "", ""),  # subtypes Item + Pokémon Tool
        ("xy4-97", "Pokémon Tool", "", ""),  # Pokémon Tool F
        ("bw10-92", "Pokémon Tool", "", ""),  # ACE SPEC is not a Rule Box
        ("sm12-186", "Supporter", "", ""),  # a TAG TEAM Supporter has no Rule Box
        ("sm6-110", "Supporter", "", "Prism Star"),
        ("base1-70", "", "", ""),  # early Trainers are untyped in the data
        ("sv5-162", "", "Special", ""),  # ACE SPEC Special Energy
        ("sm6-117", "", "Special", "Prism Star"),
    ],
)
def test_trainers_and_energy_get_their_kind_and_only_prism_star_is_a_rule_box(
    by_key, key, trainer_kind, energy_kind, rule_box
):
    card = by_key[key]
    assert (card.trainer_kind, card.energy_kind, card.rule_box, card.stage) == (trainer_kind, energy_kind, rule_box, "")


def test_a_basic_energy_is_typed_from_its_name_when_the_data_has_no_type(by_key):
    fire = by_key["base1-98"]
    assert (fire.name, fire.supertype, fire.energy_kind, fire.types) == (
        "Fire Energy",
        Supertype.ENERGY,
        "Basic",
        ("Fire",),
    )
    assert fire.is_basic_energy and not fire.has_rule_box
    assert by_key["sve-2"].types == ("Fire",)


def test_every_card_is_classified_consistently(loaded):
    for card in loaded[1]:
        assert card.rule_box in RULE_BOXES, card
        if card.supertype == Supertype.POKEMON:
            assert card.stage, card
            assert card.hp is not None, card
        else:
            assert card.stage == "", card
        if card.supertype == Supertype.ENERGY:
            assert card.energy_kind in ("Basic", "Special"), card
        if card.is_basic_energy:
            assert len(card.types) == 1, card
        assert card.release_date[4] == "-" and card.release_date[7] == "-", card


@pytest.mark.parametrize(
    ("supertype", "subtypes", "name", "expected"),
    [
        (Supertype.POKEMON, ("Basic", "TAG TEAM", "GX"), "Pikachu & Zekrom-GX", "TAG TEAM"),
        (Supertype.POKEMON, ("Basic", "V"), "Lugia V", "V"),
        (Supertype.POKEMON, ("VMAX",), "Mew VMAX", "VMAX"),
        (Supertype.POKEMON, ("Stage 1", "MEGA", "ex"), "Mega Lucario ex", "MEGA"),
        (Supertype.POKEMON, ("Basic", "ex", "Tera"), "Terapagos ex", "ex"),
        (Supertype.POKEMON, ("Basic", "EX"), "Mewtwo-EX", "EX"),
        (Supertype.POKEMON, ("Basic",), "Pikachu", ""),
        (Supertype.POKEMON, ("Stage 1", "Prime"), "Donphan", ""),
        (Supertype.POKEMON, ("Basic",), "Shining Magikarp", ""),
        (Supertype.TRAINER, ("Item", "ACE SPEC"), "Prime Catcher", ""),
        (Supertype.TRAINER, ("Stadium", "Prism Star"), "Heat Factory ◇", "Prism Star"),
        (Supertype.ENERGY, ("Special", "ACE SPEC"), "Legacy Energy", ""),
    ],
)
def test_the_rule_box_class_follows_the_documented_table(supertype, subtypes, name, expected):
    assert rule_box_class(supertype, subtypes, name) == expected


def _write_tree(tmp_path: Path, sets: object, cards: dict[str, str]) -> Path:
    (tmp_path / "sets").mkdir()
    (tmp_path / "cards" / "en").mkdir(parents=True)
    (tmp_path / "sets" / "en.json").write_text(json.dumps(sets), encoding="utf-8")
    for set_id, text in cards.items():
        (tmp_path / "cards" / "en" / f"{set_id}.json").write_text(text, encoding="utf-8")
    return tmp_path


GOOD_SET = {"id": "t1", "name": "Test", "series": "Test", "ptcgoCode": "TST", "releaseDate": "2024/01/02", "total": 1}
GOOD_CARD = {"id": "t1-1", "name": "Pikachu", "supertype": "Pokémon", "subtypes": ["Basic"], "number": "1", "hp": "60"}


def test_a_small_hand_made_tree_loads(tmp_path):
    root = _write_tree(tmp_path, [GOOD_SET], {"t1": json.dumps([GOOD_CARD])})
    sets, cards = load_pokemon(root)
    assert sets == [PokemonSet("t1", "Test", "Test", "TST", "2024-01-02", 1)]
    assert [(c.key, c.set_code, c.release_date, c.hp, c.national_dex) for c in cards] == [
        ("t1-1", "TST", "2024-01-02", 60, ())
    ]


@pytest.mark.parametrize(
    ("sets", "cards", "named"),
    [
        ([GOOD_SET], {"t1": "[{not json"}, "t1.json"),
        ([GOOD_SET], {"t1": json.dumps([{**GOOD_CARD, "supertype": "Monster"}])}, "t1.json"),
        ([GOOD_SET], {"t1": json.dumps([{k: v for k, v in GOOD_CARD.items() if k != "number"}])}, "t1-1"),
        ([GOOD_SET], {"t1": json.dumps([{**GOOD_CARD, "hp": "sixty"}])}, "t1.json"),
        ([GOOD_SET], {"t1": json.dumps({"not": "a list"})}, "t1.json"),
        ([GOOD_SET], {"zz": json.dumps([GOOD_CARD])}, "zz.json"),
        ([{**GOOD_SET, "releaseDate": "soon"}], {"t1": json.dumps([GOOD_CARD])}, "en.json"),
    ],
)
def test_a_malformed_file_raises_a_value_error_naming_it(tmp_path, sets, cards, named):
    root = _write_tree(tmp_path, sets, cards)
    with pytest.raises(ValueError, match=named.replace(".", r"\.")):
        load_pokemon(root)


def test_a_missing_sets_file_raises_a_value_error_naming_it(tmp_path):
    with pytest.raises(ValueError, match=r"en\.json"):
        load_pokemon(tmp_path)


def test_the_data_lookup_follows_the_environment_variable(tmp_path, monkeypatch):
    (tmp_path / "pokemon-tcg-data").mkdir()
    monkeypatch.setenv("PODIUM_CARD_DATA_DIR", str(tmp_path))
    assert data_root() == tmp_path
    assert data_dir("pokemon-tcg-data") == tmp_path / "pokemon-tcg-data"


def test_missing_data_skips_with_the_reason_but_fails_on_ci(tmp_path, monkeypatch):
    monkeypatch.setenv("PODIUM_CARD_DATA_DIR", str(tmp_path / "nowhere"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="card data not found"):
        data_dir("pokemon-tcg-data")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="card data not found"):
        data_dir("pokemon-tcg-data")
