"""Mintayn Master: where Podium reads the rulebook, one row per choice; the docs and its page show them."""

from __future__ import annotations

from rules.options import Interpretation
from rules.speech import phrase

INTERPRETATIONS: tuple[Interpretation, ...] = (
    Interpretation(
        "Master Format — Timing Sequence",
        "Mana Step The active player may place exactly one card from their hand face-down into the Mana Zone. [...] "
        "Selection Step The active player chooses exactly one card from their deck [...] Main / Spell Phase [...] "
        "Summon Phase",
        phrase(
            "The turn player's actions follow the sequence (Mana Step, Selection Step, Main / Spell Phase, Summon Phase, "
            "Position Step, Evolution Step, Attack Phase, End Phase): steps may be skipped, an action of a step already "
            "over is refused (step_order; mana_step_over for the Mana Step), and nothing passes the Selection Step "
            "without the selection or a recorded cannot select. Effects (Special Summons, Counters, LP changes, mana "
            "placed by an effect) belong to no step."
        ),
    ),
    Interpretation(
        "Balance Levers & Variants",
        "LP: 6000 (faster), 8000 (default), 10000 (epic).",
        phrase("Every player starts at 8000 LP; an event may choose 6000 or 10000."),
        "starting_lp",
    ),
    Interpretation(
        "Balance Levers & Variants",
        "Mana rate: 1 per turn (default); 2 for accelerated play.",
        phrase(
            "The turn player puts 1 card a turn into the Mana Zone in the Mana Step; at the accelerated rate, 2 cards."
        ),
        "mana_rate",
    ),
    Interpretation(
        "Balance Levers & Variants",
        "Deck size: 60 (default); 50 or 70 in experimental formats.",
        phrase("Decks are exactly 60 cards; an event may choose 50 or 70, and decks are checked against it."),
        "deck_size",
    ),
    Interpretation(
        "Balance Levers & Variants",
        "Hand size: 10 (default); 8–12 in variant play.",
        phrase(
            "The End Phase hand limit is 10, or 8 to 12 as the event sets it: a turn ends with the hand size after the "
            "discard, and a hand over the limit is refused."
        ),
        "hand_size",
    ),
    Interpretation(
        "Balance Levers & Variants",
        "Starting hand: 7/8 (default); adjust for faster or slower openers.",
        phrase(
            "P1 selects 7 cards and P2 8. Podium offers 5/6, 6/7, 7/8, 8/9 and 9/10: P2 keeps one card more than P1, as "
            "in the default."
        ),
        "starting_hand",
    ),
    Interpretation(
        "Mana Step",
        "Each card provides 1 mana of its class color",
        phrase(
            "Each Mana Zone card gives 1 mana a turn. Spent mana comes back at the start of its owner's own turn, so "
            "mana for Counters on the opponent's turn must be left unspent; removing a mana card takes unspent mana first."
        ),
    ),
    Interpretation(
        "Win Condition",
        "No deck-out win or loss: the game continues even if you cannot select.",
        phrase(
            "A turn does not end without the selection unless the judge records that the player cannot select (an "
            "empty deck, a card that prevents it); that player plays on."
        ),
    ),
    Interpretation(
        "Evolution Rules",
        "Evolve only face-up monsters.",
        phrase("The rulebook gives no way to place a monster face-down, so every monster is face-up."),
    ),
    Interpretation(
        "Position Step",
        "Monsters may be set to Attack Position (AP) or Defense Position (DP).",
        phrase(
            "Only a monster in Attack Position declares attacks; a monster that switched this turn cannot attack in "
            "either position."
        ),
    ),
    Interpretation(
        "Direct Attacks",
        "If opponent controls no monsters, monsters may attack LP directly.",
        phrase(
            "An attack on LP is allowed only then; board and global attacks are not direct attacks. LP damage is "
            "recorded after the counter window."
        ),
    ),
    Interpretation(
        "Counter Cards",
        "Playable only on the opponent’s turn or during combat windows.",
        phrase(
            "On their own turn a player counters only in an attack's combat window, so in a Spell's chain only the "
            "opponent counters. A Counter on the opponent's turn with no chain open starts one."
        ),
    ),
    Interpretation(
        "Chains & Counterplay",
        "Cap: 3 links per player (6 total).",
        phrase(
            "A chain is open from the Spell, attack or first Counter until the next event that is not a Counter; each "
            "player adds at most 3 links to it."
        ),
    ),
    Interpretation(
        "Spell Cards",
        "Require mana to cast; are class-bound (need a matching monster).",
        phrase("A Spell or Counter needs its player to control a monster of its class."),
    ),
    Interpretation(
        "Prime Singulars",
        "Conditions: must control ≥2 monsters and meet its printed condition (e.g., ≤2000 LP).",
        phrase(
            "The 2 monsters are counted before it is played, a monster it replaces included; only a Prime Singular "
            "replaces a monster."
        ),
    ),
    Interpretation(
        "Victory & End of Game",
        "Silent: what happens when both players reach 0 LP at once.",
        phrase("The game is a draw: both players place 1."),
    ),
    Interpretation(
        "Tournament Guidelines",
        "Silent: what happens when time runs out.",
        phrase("When time is called the judge records the placements and the reason."),
    ),
)
