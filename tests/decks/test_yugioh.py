"""Yu-Gi-Oh! card pool, banlists and decklists: the importer and the .ydk / ydke parsers.

Real-data tests read ``ygo/`` under the shared card data (see ``tests/support/data.py``); nothing of
it is copied here.  Hand-made records are used where a case is easier to state small.
"""

from __future__ import annotations

import base64
import json
import struct
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.importers.yugioh import (
    banlist_date,
    load_cardinfo,
    load_lflists,
    newest_tcg,
    parse_cardinfo,
    parse_lflist,
    parse_lflists,
)
from decks.parsers.yugioh import (
    ParsedYdk,
    YugiohIndex,
    parse_ydk,
    parse_ydke,
    parse_yugioh,
    resolve_reference,
    resolve_yugioh,
)
from rules.cards import Banlist, YugiohCard, YugiohCardType
from rules.deckrules import Problem
from tests.support.data import data_dir

BLUE_EYES = 89631139
ASH_BLOSSOM = 14558127


@pytest.fixture(scope="module")
def cardinfo_path() -> Path:
    return data_dir("ygo", "cardinfo.json")


@pytest.fixture(scope="module")
def cards(cardinfo_path: Path) -> list[YugiohCard]:
    return load_cardinfo(cardinfo_path)


@pytest.fixture(scope="module")
def raw_cards(cardinfo_path: Path) -> list[dict]:
    return json.loads(cardinfo_path.read_text(encoding="utf-8"))["data"]


@pytest.fixture(scope="module")
def index(cards: list[YugiohCard]) -> YugiohIndex:
    return YugiohIndex.build(cards)


@pytest.fixture(scope="module")
def by_passcode(cards: list[YugiohCard]) -> dict[int, YugiohCard]:
    """Main passcodes only, so that resolving alternates is the resolver's own work."""
    return {card.passcode: card for card in cards}


def by_name(cards: Sequence[YugiohCard], name: str) -> YugiohCard:
    return next(card for card in cards if card.name == name)


def encode_ydke(main: Sequence[int], extra: Sequence[int], side: Sequence[int]) -> str:
    """The ydke link of three passcode lists, written independently of the parser."""
    parts = [base64.b64encode(b"".join(struct.pack("<I", p) for p in zone)).decode() for zone in (main, extra, side)]
    return "ydke://" + "!".join(parts) + "!"


def deck_files() -> list[Path]:
    return sorted(data_dir("ygo", "decks").rglob("*.ydk"))


# --------------------------------------------------------------------------- cardinfo.json


def test_it_loads_one_card_per_passcode_of_the_real_cardinfo(cards, raw_cards):
    assert len(cards) == len({record["id"] for record in raw_cards})
    assert 13_700 < len(cards) <= 13_762
    assert len({card.key for card in cards}) == len(cards)
    assert all(card.key == str(card.passcode) for card in cards)


def test_it_reports_how_long_loading_the_real_cardinfo_takes(cardinfo_path, capsys):
    started = time.perf_counter()
    loaded = load_cardinfo(cardinfo_path)
    elapsed = time.perf_counter() - started
    with capsys.disabled():
        print(f"\nload_cardinfo: {len(loaded)} cards in {elapsed * 1000:.0f} ms")


def test_blue_eyes_white_dragon_is_a_normal_monster_of_the_main_deck(cards):
    blue_eyes = by_name(cards, "Blue-Eyes White Dragon")
    assert blue_eyes.passcode == BLUE_EYES
    assert blue_eyes.card_type == YugiohCardType.MONSTER
    assert blue_eyes.monster_kinds == ("Normal",)
    assert blue_eyes.extra_deck is False
    assert (blue_eyes.race, blue_eyes.level) == ("Dragon", 8)


def test_a_fusion_monster_belongs_to_the_extra_deck(cards):
    flame_swordsman = by_name(cards, "Flame Swordsman")
    assert flame_swordsman.monster_kinds == ("Fusion",)
    assert flame_swordsman.extra_deck is True


def test_exactly_the_fusion_synchro_xyz_and_link_frames_and_their_pendulums_are_extra_deck(cards, raw_cards):
    frames = {record["id"]: record["frameType"] for record in raw_cards}
    extra_frames = {"fusion", "synchro", "xyz", "link", "fusion_pendulum", "synchro_pendulum", "xyz_pendulum"}
    assert {frames[card.passcode] for card in cards if card.extra_deck} == extra_frames
    assert all(card.extra_deck == (frames[card.passcode] in extra_frames) for card in cards)


def test_monster_kinds_are_the_words_of_the_type_line(cards):
    assert by_name(cards, "Formula Synchron").monster_kinds == ("Synchro", "Tuner")
    assert by_name(cards, "Odd-Eyes Pendulum Dragon").monster_kinds == ("Pendulum", "Effect")
    assert by_name(cards, "Gem-Knight Pearl").monster_kinds == ("Xyz",)
    assert by_name(cards, "Decode Talker").monster_kinds == ("Link",)
    assert by_name(cards, "Ash Blossom & Joyous Spring").monster_kinds == ("Tuner", "Effect")


def test_spells_and_traps_have_their_property_as_race_and_no_monster_kinds(cards):
    pot = by_name(cards, "Pot of Greed")
    assert (pot.card_type, pot.race, pot.monster_kinds, pot.level, pot.extra_deck) == (
        YugiohCardType.SPELL,
        "Normal",
        (),
        None,
        False,
    )
    assert by_name(cards, "Solemn Judgment").card_type == YugiohCardType.TRAP
    assert Counter(card.card_type for card in cards)[YugiohCardType.SPELL] > 2000


def test_other_arts_of_a_card_are_its_alternate_passcodes(cards, index):
    flame_swordsman = by_name(cards, "Flame Swordsman")
    assert flame_swordsman.alternate_passcodes == (45231178,)
    assert index.by_passcode[45231178] is flame_swordsman
    assert by_name(cards, "Blue-Eyes White Dragon").alternate_passcodes == ()


def test_records_sharing_a_passcode_keep_the_one_with_a_tcg_date_without_the_disambiguator(cards):
    azamina = [card for card in cards if card.passcode == 17749468]
    assert [card.name for card in azamina] == ["Azamina"]
    assert not any(card.name.endswith(" (card)") for card in cards)


def test_a_duplicate_passcode_is_noted_and_the_first_record_kept_when_neither_is_dated():
    payload = {
        "data": [
            {"id": 1, "name": "First", "type": "Spell Card", "frameType": "spell", "race": "Normal"},
            {"id": 1, "name": "Second", "type": "Trap Card", "frameType": "trap", "race": "Normal"},
        ]
    }
    loaded, notes = parse_cardinfo(payload)
    assert [card.name for card in loaded] == ["First"]
    assert len(notes) == 1 and "'Second' left out" in notes[0]


def test_records_that_are_not_monster_spell_or_trap_cards_are_left_out_with_a_note():
    payload = {
        "data": [
            {"id": 5, "name": "A Skill", "type": "Skill Card", "frameType": "skill"},
            {"id": 6, "name": "A Token", "type": "Token", "frameType": "token"},
            {"id": "x", "name": "Broken"},
            {
                "id": 7,
                "name": "Tuner",
                "type": "Tuner Monster",
                "frameType": "effect",
                "level": 3,
                "card_images": [{"id": 7}, {"id": 8}],
            },
        ]
    }
    loaded, notes = parse_cardinfo(payload)
    assert [(card.name, card.monster_kinds, card.alternate_passcodes) for card in loaded] == [
        ("Tuner", ("Tuner", "Effect"), (8,))
    ]
    assert len(notes) == 3


def test_a_file_that_is_not_a_cardinfo_is_refused():
    with pytest.raises(ValueError, match="cardinfo"):
        parse_cardinfo({"cards": []})


# --------------------------------------------------------------------------- .lflist.conf


@pytest.fixture(scope="module")
def banlists() -> list[Banlist]:
    return load_lflists(data_dir("ygo", "lflists"))


def test_the_real_tcg_list_has_its_documented_counts(banlists):
    tcg = next(b for b in banlists if b.name == "2026.05 TCG")
    assert tcg.date == "2026-05"
    assert tcg.whitelist is False
    assert Counter(tcg.limits.values()) == {0: 121, 1: 98, 2: 10}


def test_every_passcode_of_the_real_tcg_list_is_a_card(banlists, index):
    tcg = next(b for b in banlists if b.name == "2026.05 TCG")
    assert all(passcode in index.by_passcode for passcode in tcg.limits)


def test_every_real_list_is_read_and_the_goat_list_is_a_whitelist(banlists):
    assert sorted(b.name for b in banlists) == [
        "2005.4 GOAT",
        "2026.05 TCG",
        "2026.05 Traditional",
        "2026.05 Worlds",
        "2026.07 OCG",
    ]
    goat = next(b for b in banlists if b.name == "2005.4 GOAT")
    assert goat.whitelist is True and goat.date == "2005-04"
    assert [b.name for b in banlists if b.whitelist] == ["2005.4 GOAT"]


def test_the_newest_tcg_list_is_chosen_by_the_date_in_its_name(banlists):
    assert newest_tcg(banlists).name == "2026.05 TCG"  # the OCG list is newer but not TCG
    older = Banlist(name="2025.04 TCG", date=banlist_date("2025.04 TCG"))
    newer = Banlist(name="2026.09 TCG", date=banlist_date("2026.09 TCG"))
    assert newest_tcg([older, *banlists, newer]) is newer
    assert newest_tcg([b for b in banlists if not b.is_tcg]) is None


def test_a_file_may_hold_several_lists_and_each_is_found_by_name():
    text = (
        "#[2025.01 TCG]\n!2025.01 TCG\n#Forbidden\n55144522 0 --Pot of Greed\n"
        "!2025.04 TCG\n$whitelist\n55144522 1 --Pot of Greed\n89631139 3 --Blue-Eyes White Dragon\n"
    )
    first, second = parse_lflists(text)
    assert (first.name, first.limits, first.whitelist) == ("2025.01 TCG", {55144522: 0}, False)
    assert (second.name, second.date, second.whitelist) == ("2025.04 TCG", "2025-04", True)
    assert parse_lflist(text, "2025.04 TCG") == second
    with pytest.raises(ValueError, match="2025.01 TCG"):
        parse_lflist(text, "2030.01 TCG")


def test_a_bare_list_without_header_takes_the_name_given():
    banlist = parse_lflist("\ufeff# my list\r\n55144522 0 --Pot of Greed\r\n\r\n70368879 1\r\n", "House rules")
    assert (banlist.name, banlist.date, banlist.limits) == ("House rules", None, {55144522: 0, 70368879: 1})


def test_an_unreadable_banlist_line_is_an_error_naming_the_line():
    with pytest.raises(ValueError, match="line 3"):
        parse_lflists("!2025.01 TCG\n55144522 0\nPot of Greed 0\n")
    with pytest.raises(ValueError, match="outside"):
        parse_lflists("!2025.01 TCG\n55144522 7\n")


def test_a_banlist_allows_the_strictest_limit_of_a_cards_passcodes_and_whitelists_forbid_the_rest():
    banlist = Banlist(name="x", date=None, limits={10: 2, 11: 1})
    assert banlist.allowed([10]) == 2
    assert banlist.allowed([10, 11]) == 1
    assert banlist.allowed([12]) == 3
    assert Banlist(name="w", date=None, limits={10: 3}, whitelist=True).allowed([12]) == 0


# --------------------------------------------------------------------------- .ydk


def test_every_real_deck_file_parses_without_problems():
    files = deck_files()
    assert len(files) >= 10
    for path in files:
        parsed = parse_ydk(path.read_text(encoding="utf-8"))
        assert parsed.problems == [], path.name
        assert len(parsed.main) >= 40, path.name


def test_every_real_deck_resolves_and_unknown_passcodes_are_reported_not_raised(by_passcode, index):
    unknown: dict[str, list[Problem]] = {}
    for path in deck_files():
        parsed = parse_ydk(path.read_text(encoding="utf-8"))
        entries, problems = resolve_yugioh(parsed, by_passcode)
        listed = [passcode for zone in ("main", "extra", "side") for passcode, _ in parsed.zone(zone)]
        known = [passcode for passcode in listed if passcode in index.by_passcode]
        assert sum(entry.count for entry in entries) == len(known), path.name
        assert {int(p.text) for p in problems} == set(listed) - set(known), path.name
        assert all(e.zone == ("extra" if e.card.extra_deck else "main") for e in entries if e.zone != "side")
        if problems:
            unknown[path.name] = problems
    assert set(unknown) == {"AI_ABC.ydk", "AI_BE2025.ydk"}
    (ash,) = unknown["AI_ABC.ydk"]
    assert (ash.code, ash.line, ash.text, ash.suggestion) == (
        "unknown_card",
        23,
        "14558128",
        "Ash Blossom & Joyous Spring",
    )
    (three,) = unknown["AI_BE2025.ydk"]
    assert (three.code, three.line, three.text) == ("unknown_card", 6, "67886895")
    assert "3 copies" in three.message


def test_comments_blank_lines_and_section_headers_are_skipped_and_lines_numbered():
    text = "#created by someone\r\n#main\r\n89631139\r\n\r\n89631139 --Blue-Eyes\r\n#extra\r\n45231177\r\n!side\r\n55144522\r\n"
    parsed = parse_ydk(text)
    assert parsed == ParsedYdk(main=[(BLUE_EYES, 3), (BLUE_EYES, 5)], extra=[(45231177, 7)], side=[(55144522, 9)])


def test_lines_that_are_not_passcodes_are_unparseable_problems():
    parsed = parse_ydk("#main\n89631139\nBlue-Eyes White Dragon\n!notaside\n99999999999\n")
    assert parsed.main == [(BLUE_EYES, 2)]
    assert [(p.code, p.line, p.text) for p in parsed.problems] == [
        ("unparseable_line", 3, "Blue-Eyes White Dragon"),
        ("unparseable_line", 4, "!notaside"),
        ("unparseable_line", 5, "99999999999"),
    ]


def test_passcodes_before_any_section_belong_to_the_main_deck():
    assert parse_ydk("89631139\n").main == [(BLUE_EYES, 1)]


def test_copies_are_added_up_and_cards_are_placed_by_what_they_are(cards, by_passcode):
    flame_swordsman = by_name(cards, "Flame Swordsman")
    parsed = parse_ydk(f"#main\n89631139\n{flame_swordsman.passcode}\n89631139\n#extra\n89631139\n!side\n45231177\n")
    entries, problems = resolve_yugioh(parsed, by_passcode)
    assert problems == []
    assert [(e.card.name, e.count, e.zone, e.line) for e in entries] == [
        ("Blue-Eyes White Dragon", 3, "main", 2),
        ("Flame Swordsman", 1, "extra", 3),
        ("Flame Swordsman", 1, "side", 8),
    ]


def test_an_alternate_art_passcode_resolves_to_its_card(cards, by_passcode):
    entries, problems = resolve_yugioh(parse_ydk("#extra\n45231178\n"), by_passcode)
    assert problems == []
    assert [(e.card.passcode, e.zone) for e in entries] == [(by_name(cards, "Flame Swordsman").passcode, "extra")]


def test_an_unknown_passcode_named_elsewhere_is_suggested_by_that_name(by_passcode):
    _, (problem,) = resolve_yugioh(parse_ydk("#main\n123\n"), by_passcode, names={123: "pot of greed"})
    assert problem.suggestion == "Pot of Greed"
    assert "(pot of greed)" in problem.message


# --------------------------------------------------------------------------- ydke://


def test_a_ydke_link_round_trips_a_real_deck():
    for path in deck_files():
        parsed = parse_ydk(path.read_text(encoding="utf-8"))
        zones = [[p for p, _ in parsed.zone(z)] for z in ("main", "extra", "side")]
        again = parse_ydke(encode_ydke(*zones))
        assert again.problems == []
        assert [[p for p, _ in again.zone(z)] for z in ("main", "extra", "side")] == zones
        assert {line for z in ("main", "extra", "side") for _, line in again.zone(z)} <= {1}


def test_a_pasted_decklist_is_read_as_ydke_or_ydk_by_its_look():
    link = encode_ydke([BLUE_EYES], [], [ASH_BLOSSOM])
    assert parse_yugioh(f"  {link}\n").side == [(ASH_BLOSSOM, 1)]
    assert parse_yugioh("#main\n89631139\n").main == [(BLUE_EYES, 2)]


@pytest.mark.parametrize(
    "link",
    [
        "https://example.com/deck",
        "ydke://AAAA!",
        "ydke://AAAA!AAAA!AAAA!AAAA!",
        "ydke://@@@@!!!",
        "ydke://AAA!!!",  # 2 bytes: not a whole passcode
    ],
)
def test_a_malformed_ydke_link_is_one_problem_not_an_exception(link):
    parsed = parse_ydke(link)
    assert [(p.code, p.line) for p in parsed.problems] == [("unparseable_line", 1)]


def test_an_empty_ydke_deck_is_read_as_empty():
    assert parse_ydke("ydke://!!!") == ParsedYdk()


# --------------------------------------------------------------------------- references


def test_a_reference_is_a_passcode_or_a_name_in_any_case_or_accents(index, cards):
    blue_eyes = by_name(cards, "Blue-Eyes White Dragon")
    assert resolve_reference("89631139", index) is blue_eyes
    assert resolve_reference("  blue-eyes WHITE dragon ", index) is blue_eyes
    assert resolve_reference("45231178", index) is by_name(cards, "Flame Swordsman")
    assert resolve_reference("Cu Chulainn the Awakened", index) is by_name(cards, "Cú Chulainn the Awakened")
    assert resolve_reference("beast machine king barbaros ur", index).name == "Beast Machine King Barbaros Ür"


def test_an_unknown_reference_is_a_problem_with_a_suggestion(index):
    problem = resolve_reference("Blue Eyes White Dragon", index)
    assert isinstance(problem, Problem)
    assert (problem.code, problem.suggestion) == ("unknown_card", "Blue-Eyes White Dragon")
    by_code = resolve_reference("14558128", index)
    assert isinstance(by_code, Problem) and by_code.suggestion == "Ash Blossom & Joyous Spring"
    nothing = resolve_reference("zzzzqqqq", index)
    assert isinstance(nothing, Problem) and nothing.suggestion is None


# --------------------------------------------------------------------------- properties

SMALL_POOL = {
    BLUE_EYES: YugiohCard(
        key=str(BLUE_EYES),
        passcode=BLUE_EYES,
        name="Blue-Eyes White Dragon",
        card_type=YugiohCardType.MONSTER,
        monster_kinds=("Normal",),
        extra_deck=False,
        alternate_passcodes=(BLUE_EYES + 1,),
    )
}
ydk_lines = st.one_of(
    st.sampled_from(["#main", "#extra", "!side", "#created by x", "", "89631139", "89631140", "1"]),
    st.integers(min_value=0, max_value=2**40).map(str),
    st.text(max_size=30),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ydk_lines, max_size=30), st.sampled_from(["\n", "\r\n", "\r"]))
def test_parsing_and_resolving_any_ydk_text_never_raises(lines, newline):
    parsed = parse_ydk(newline.join(lines))
    entries, problems = resolve_yugioh(parsed, SMALL_POOL)
    assert all(p.code in ("unparseable_line", "unknown_card") for p in problems)
    assert all(entry.count > 0 for entry in entries)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_parsing_any_text_as_a_decklist_never_raises(text):
    parse_yugioh(text)
    parse_ydke(text)
    parse_ydke("ydke://" + text)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", max_size=40), max_size=5
    )
)
def test_parsing_any_base64_looking_ydke_link_never_raises(segments):
    parsed = parse_ydke("ydke://" + "!".join(segments))
    resolve_yugioh(parsed, SMALL_POOL)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=2**32 - 1), max_size=60),
    st.lists(st.integers(min_value=0, max_value=2**32 - 1), max_size=15),
    st.lists(st.integers(min_value=0, max_value=2**32 - 1), max_size=15),
)
def test_any_ydke_link_round_trips(main, extra, side):
    parsed = parse_ydke(encode_ydke(main, extra, side))
    assert parsed.problems == []
    assert [[p for p, _ in parsed.zone(z)] for z in ("main", "extra", "side")] == [main, extra, side]
