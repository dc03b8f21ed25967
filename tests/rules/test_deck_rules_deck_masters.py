"""Deck Masters deck construction: every rule code, each with a legal and an illegal deck.

Decks are built from real cards of the shared data (``ygo/cardinfo.json``) and judged against the
real newest TCG Forbidden & Limited list where a banlist is needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

import pytest

from decks.importers.yugioh import load_cardinfo, load_lflists, newest_tcg
from decks.parsers.yugioh import parse_ydk, resolve_yugioh
from rules.cards import Banlist, YugiohCard
from rules.deck_masters.deck import check
from rules.deckrules import Deck, Entry, Problem, Violation
from tests.support.data import data_dir


@pytest.fixture(scope="module")
def cards() -> dict[str, YugiohCard]:
    return {card.name: card for card in load_cardinfo(data_dir("ygo", "cardinfo.json"))}


@pytest.fixture(scope="module")
def tcg() -> Banlist:
    banlist = newest_tcg(load_lflists(data_dir("ygo", "lflists")))
    assert banlist is not None and banlist.name == "2026.05 TCG"
    return banlist


#: Cards the tests name, kept out of the fillers.
NAMED = {"Blue-Eyes White Dragon", "Dark Magician", "Pot of Greed", "Mirror Force", "Flame Swordsman"}


@pytest.fixture(scope="module")
def fillers(cards, tcg) -> list[YugiohCard]:
    """Main Deck cards the TCG list does not restrict, to fill decks with (3 copies each)."""
    free = [
        card
        for card in cards.values()
        if not card.extra_deck
        and card.name not in NAMED
        and tcg.allowed((card.passcode, *card.alternate_passcodes)) == 3
    ]
    return sorted(free, key=lambda card: card.passcode)[:40]


@pytest.fixture(scope="module")
def extras(cards, tcg) -> list[YugiohCard]:
    free = [
        card
        for card in cards.values()
        if card.extra_deck and card.name not in NAMED and tcg.allowed((card.passcode, *card.alternate_passcodes)) == 3
    ]
    return sorted(free, key=lambda card: card.passcode)[:10]


def spread(pool: Iterable[YugiohCard], total: int, zone: str) -> list[Entry]:
    """``total`` cards of ``zone`` from ``pool``, 3 copies of each card and the rest of the last."""
    entries = []
    for card in pool:
        if total <= 0:
            break
        entries.append(Entry(card=card, count=min(3, total), zone=zone))
        total -= entries[-1].count
    assert total <= 0, "the pool is too small"
    return entries


def build(
    cards: Mapping[str, YugiohCard],
    fillers: list[YugiohCard],
    extras: list[YugiohCard],
    *,
    main: int = 40,
    extra: int = 0,
    side: int = 0,
    with_cards: Iterable[tuple[str, int, str]] = (),
    master: str | None = "Blue-Eyes White Dragon",
    problems: tuple[Problem, ...] = (),
) -> Deck:
    """A deck of real cards: ``with_cards`` (name, copies, zone) first, then fillers up to the sizes."""
    named = [Entry(card=cards[name], count=count, zone=zone) for name, count, zone in with_cards]
    counts = {z: sum(e.count for e in named if e.zone == z) for z in ("main", "extra", "side")}
    used = {e.card.name for e in named}
    main_pool = [c for c in fillers if c.name not in used]
    entries = named + spread(main_pool, main - counts["main"], "main")
    side_pool = [c for c in reversed(main_pool) if c.name not in {e.card.name for e in entries}]
    entries += spread(side_pool, side - counts["side"], "side")
    entries += spread([c for c in extras if c.name not in used], extra - counts["extra"], "extra")
    roles = {"deck_master": cards[master]} if master else {}
    return Deck(entries=tuple(entries), roles=roles, problems=problems)


def codes(violations: list[Violation]) -> list[str]:
    return [v.code for v in violations]


@pytest.fixture
def deck(cards, fillers, extras):
    def make(**kwargs) -> Deck:
        kwargs.setdefault("with_cards", [("Blue-Eyes White Dragon", 3, "main")])
        return build(cards, fillers, extras, **kwargs)

    return make


# --------------------------------------------------------------------------- a legal deck


def test_a_deck_of_40_with_its_deck_master_in_it_is_legal(deck, tcg):
    legal = deck()
    assert legal.count("main") == 40
    assert check(legal) == []
    assert check(legal, {"banlist": tcg}) == []


def test_a_real_tactical_try_deck_is_legal_under_the_newest_tcg_list(cards, tcg):
    path = data_dir("ygo", "decks", "ProjectIgnis-Distribution", "TacticalTry_Decisive_Strike_Cyber_Dragon.ydk")
    entries, problems = resolve_yugioh(parse_ydk(path.read_text()), {c.passcode: c for c in cards.values()})
    master = next(e.card for e in entries if e.card.card_type == "Monster" and e.zone == "main")
    assert check(Deck(tuple(entries), {"deck_master": master}, tuple(problems)), {"banlist": tcg}) == []


def test_every_violation_names_its_rule_and_says_what_is_wrong(deck, cards, tcg):
    bad = deck(
        main=61,
        extra=16,
        side=16,
        with_cards=[("Pot of Greed", 1, "main"), ("Blue-Eyes White Dragon", 4, "main")],
        master="Pot of Greed",
    )
    violations = check(bad, {"banlist": tcg})
    assert set(codes(violations)) == {
        "main_size",
        "extra_size",
        "side_size",
        "copy_limit",
        "banlist",
        "deck_master_invalid",
    }
    assert all(v.rule == "DUEL SETUP" and v.message.endswith(".") for v in violations)


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize("main", [40, 60])
def test_a_main_deck_of_40_to_60_cards_is_legal(deck, main):
    assert check(deck(main=main)) == []


@pytest.mark.parametrize("main", [39, 61])
def test_a_main_deck_outside_40_to_60_cards_is_a_main_size_violation(deck, main):
    (violation,) = check(deck(main=main))
    assert violation.code == "main_size"
    assert f"it holds {main}" in violation.message


def test_an_extra_deck_of_15_is_legal_and_of_16_is_an_extra_size_violation(deck):
    assert check(deck(extra=15)) == []
    assert codes(check(deck(extra=16))) == ["extra_size"]


def test_a_side_deck_of_15_is_legal_and_of_16_is_a_side_size_violation(deck):
    assert check(deck(side=15)) == []
    assert codes(check(deck(side=16))) == ["side_size"]


# --------------------------------------------------------------------------- copies


def test_three_copies_including_the_deck_master_are_legal(deck):
    assert check(deck(with_cards=[("Blue-Eyes White Dragon", 2, "main"), ("Blue-Eyes White Dragon", 1, "side")])) == []


def test_four_copies_across_the_main_and_side_deck_are_a_copy_limit_violation(deck):
    (violation,) = check(
        deck(with_cards=[("Blue-Eyes White Dragon", 3, "main"), ("Blue-Eyes White Dragon", 1, "side")])
    )
    assert violation.code == "copy_limit"
    assert violation.cards == ("Blue-Eyes White Dragon",)
    assert "the deck has 4" in violation.message


def test_the_deck_master_is_one_of_the_three_copies_not_a_fourth(deck):
    # Three copies listed and one of them chosen as Deck Master: still three copies.
    assert check(deck(with_cards=[("Blue-Eyes White Dragon", 3, "main")])) == []


def test_alternate_arts_of_a_card_count_as_the_same_card(deck, cards):
    flame = cards["Flame Swordsman"]
    alternate = replace(flame, key="45231178", passcode=45231178, alternate_passcodes=(flame.passcode,))
    legal = deck()
    illegal = Deck(entries=(*legal.entries, Entry(flame, 2, "extra"), Entry(alternate, 2, "extra")), roles=legal.roles)
    assert codes(check(illegal)) == ["copy_limit"]


# --------------------------------------------------------------------------- banlist


def test_a_limited_card_once_and_a_semi_limited_card_twice_are_legal(deck, cards, tcg):
    limited, semi = limited_cards(cards, tcg)
    legal = deck(with_cards=[("Blue-Eyes White Dragon", 3, "main"), (limited.name, 1, "main"), (semi.name, 2, "side")])
    assert check(legal, {"banlist": tcg}) == []


def test_a_forbidden_card_is_a_banlist_violation(deck, tcg):
    (violation,) = check(
        deck(with_cards=[("Blue-Eyes White Dragon", 3, "main"), ("Pot of Greed", 1, "side")]), {"banlist": tcg}
    )
    assert (violation.code, violation.cards) == ("banlist", ("Pot of Greed",))
    assert violation.message == "Pot of Greed is Forbidden on the 2026.05 TCG list; the deck has 1."


def test_a_limited_card_twice_and_a_semi_limited_card_three_times_are_banlist_violations(deck, cards, tcg):
    limited, semi = limited_cards(cards, tcg)
    illegal = deck(
        with_cards=[("Blue-Eyes White Dragon", 3, "main"), (limited.name, 2, "main"), (semi.name, 3, "main")]
    )
    violations = check(illegal, {"banlist": tcg})
    assert [(v.code, v.cards) for v in violations] == [("banlist", (limited.name,)), ("banlist", (semi.name,))]
    assert "is Limited on the 2026.05 TCG list (1 copy at most); the deck has 2." in violations[0].message
    assert "is Semi-Limited on the 2026.05 TCG list (2 copies at most); the deck has 3." in violations[1].message


def test_a_card_listed_under_its_alternate_passcode_is_restricted_too(deck, cards):
    apollousa = cards["Apollousa, Bow of the Goddess"]
    banlist = Banlist(name="alt only", date=None, limits={apollousa.alternate_passcodes[0]: 0})
    illegal = deck(extra=1, with_cards=[("Blue-Eyes White Dragon", 3, "main"), (apollousa.name, 1, "extra")])
    assert codes(check(illegal, {"banlist": banlist})) == ["banlist"]


def test_a_whitelist_forbids_the_cards_it_does_not_name(deck, cards):
    names = {"Blue-Eyes White Dragon"} | {e.card.name for e in deck().entries}
    whitelist = Banlist(
        name="2005.4 GOAT", date="2005-04", limits={cards[n].passcode: 3 for n in names}, whitelist=True
    )
    assert check(deck(), {"banlist": whitelist}) == []
    (violation,) = check(
        deck(with_cards=[("Blue-Eyes White Dragon", 3, "main"), ("Dark Magician", 1, "side")]), {"banlist": whitelist}
    )
    assert violation.code == "banlist"
    assert "Dark Magician is not on the 2005.4 GOAT list" in violation.message


def test_without_a_banlist_there_is_no_banlist_check(deck):
    assert check(deck(with_cards=[("Blue-Eyes White Dragon", 3, "main"), ("Pot of Greed", 1, "main")])) == []


def test_a_card_over_three_copies_is_a_copy_limit_not_also_a_banlist_violation(deck, tcg):
    four = deck(with_cards=[("Blue-Eyes White Dragon", 4, "main")])
    assert codes(check(four, {"banlist": tcg})) == ["copy_limit"]


# --------------------------------------------------------------------------- the Deck Master


def test_no_deck_master_is_a_role_missing_violation(deck):
    (violation,) = check(deck(master=None))
    assert violation.code == "role_missing"


def test_a_spell_or_trap_deck_master_is_a_deck_master_invalid_violation(deck):
    spell = check(deck(with_cards=[("Pot of Greed", 1, "main")], master="Pot of Greed"))
    assert codes(spell) == ["deck_master_invalid"]
    assert spell[0].cards == ("Pot of Greed",)
    assert "Pot of Greed is a Spell Card" in spell[0].message
    trap = check(deck(with_cards=[("Mirror Force", 1, "main")], master="Mirror Force"))
    assert codes(trap) == ["deck_master_invalid"]


@pytest.mark.parametrize("master", ["Flame Swordsman", "Stardust Dragon", "Decode Talker"])
def test_any_monster_of_the_extra_deck_may_be_the_deck_master(deck, master):
    assert check(deck(extra=1, with_cards=[(master, 1, "extra")], master=master)) == []


def test_a_deck_master_not_in_the_deck_is_a_role_not_in_deck_violation(deck):
    (violation,) = check(deck(master="Dark Magician"))
    assert (violation.code, violation.cards) == ("role_not_in_deck", ("Dark Magician",))


def test_a_deck_master_only_in_the_side_deck_is_a_role_not_in_deck_violation(deck):
    (violation,) = check(deck(with_cards=[("Dark Magician", 1, "side")], master="Dark Magician"))
    assert violation.code == "role_not_in_deck"
    assert "only in the Side Deck" in violation.message


def test_a_spell_deck_master_outside_the_deck_breaks_both_rules(deck):
    assert codes(check(deck(master="Pot of Greed"))) == ["deck_master_invalid", "role_not_in_deck"]


# --------------------------------------------------------------------------- problems and options


def test_decklist_problems_are_reported_first(deck):
    problem = Problem(
        code="unknown_card", line=23, text="14558128", message="Passcode 14558128 is not in the card pool."
    )
    violations = check(deck(main=39, problems=(problem,)))
    assert codes(violations) == ["unknown_card", "main_size"]
    assert violations[0].rule == "decklist"


def test_unknown_options_and_a_banlist_that_is_not_a_banlist_are_refused(deck):
    with pytest.raises(ValueError, match="unknown"):
        check(deck(), {"deck_size": 40})
    with pytest.raises(ValueError, match="Banlist"):
        check(deck(), {"banlist": "2026.05 TCG"})
    assert check(deck(), {"banlist": None}) == []


def limited_cards(cards: Mapping[str, YugiohCard], tcg: Banlist) -> tuple[YugiohCard, YugiohCard]:
    """A Limited and a Semi-Limited Main Deck card of the real list."""
    by_passcode = {c.passcode: c for c in cards.values()}
    main_deck = [(by_passcode[p], n) for p, n in sorted(tcg.limits.items()) if p in by_passcode]
    limited = next(card for card, n in main_deck if n == 1 and not card.extra_deck)
    semi = next(card for card, n in main_deck if n == 2 and not card.extra_deck)
    return limited, semi
