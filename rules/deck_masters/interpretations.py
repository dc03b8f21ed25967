"""Yu-Gi-Oh! Deck Masters: where Podium reads the rulebook, one row per choice; the docs and its page show them."""

from __future__ import annotations

from rules.options import Interpretation
from rules.speech import phrase

INTERPRETATIONS: tuple[Interpretation, ...] = (
    Interpretation(
        "DUEL SETUP",
        "A Deck must be legal for play before a Deck Master is chosen from it.",
        phrase(
            "Legal for play means the standard TCG construction rules (Main Deck 40 to 60 cards, Extra and Side Deck 15 "
            "at most, 3 copies of a card) and a Forbidden & Limited list: the newest imported TCG list unless the event "
            "picks one."
        ),
        "banlist",
    ),
    Interpretation(
        "DUEL SETUP",
        "A monster chosen to be a Deck Master is considered to be in the Deck.",
        phrase(
            "The Deck Master is one of the list's own cards, not a copy on top of it: a Deck Master the list does not "
            "hold is refused."
        ),
    ),
    Interpretation(
        "SUMMARY",
        "Both players choose one Deck Master from their respective Decks before the Duel begins.",
        phrase(
            "The Deck is the Main and the Extra Deck, where Fusion monsters live; a Deck Master found only in the Side "
            "Deck is refused."
        ),
    ),
    Interpretation(
        "DUEL SETUP",
        "Only Monster Cards are allowed to be Deck Masters. This includes Normal, Effect, Fusion and Ritual Monster "
        "Cards.",
        phrase(
            "Any Monster Card may be a Deck Master, Synchro, Xyz, Pendulum and Link monsters included: the list predates "
            "them."
        ),
    ),
    Interpretation(
        "DUEL SETUP",
        "Silent: which of a player's Decks the copy limits count.",
        phrase(
            "Copy and banlist limits count the Main, Extra and Side Deck together, as the TCG rules do; a card listed "
            "under several passcodes gets the strictest limit."
        ),
    ),
    Interpretation(
        "DUEL SETUP",
        "If a Match (3 Duels) is being played, then the player can use a different Deck Master for each Duel.",
        phrase(
            "A duel starts with the Deck Master the player had for the match's previous duel (the first duel: the one of "
            "their registered deck) unless the duel's options name another monster."
        ),
    ),
    Interpretation(
        "standard duel rules",
        "Silent: the turn structure (the rulebook builds on a standard duel).",
        phrase(
            "The engine records the standard phases to tell the Damage Step: phases only move forward, and the Battle "
            "Phase goes Start Step, then Battle Step and Damage Step in turn, then End Step."
        ),
    ),
    Interpretation(
        "standard duel rules",
        "Silent: a first-turn attack restriction.",
        phrase("None is enforced."),
    ),
    Interpretation(
        "SUMMONING YOUR DECK MASTER",
        "At any time during either player’s turn (except during the Damage Step), you may Special Summon your Deck "
        "Master",
        phrase(
            "A turn must be in progress: nothing is recorded between turns. A phase not yet recorded is not the Damage "
            "Step."
        ),
    ),
    Interpretation(
        "SUMMARY",
        "It is possible for an Ability to create exceptions to any rule, and to override other card effects or "
        "Abilities.",
        phrase(
            "A summon by an Ability (Mysterious Puppeteer summoning the opponent's Deck Master) is not held to the Damage "
            "Step restriction; the player's own summon is."
        ),
    ),
    Interpretation(
        "THE DECK MASTER POSITION",
        "A card in a Deck Master Position is considered to be completely separate from the rest of the game",
        phrase(
            "A Deck Master leaves its Position only by its summon or by an Ability that says so; its loss there is "
            "recorded with the Ability named."
        ),
    ),
    Interpretation(
        "CHANGING YOUR DECK MASTER",
        "the newly Summoned monster becomes your new Deck Master, and your old (Tributed) Deck Master returns to "
        "being a regular Monster Card.",
        phrase(
            "The Deck Master Position stays empty: if the new Deck Master leaves the field the player loses, as with the "
            "first. Only a Deck Master on the field can be Tributed."
        ),
    ),
    Interpretation(
        "DECK MASTERS ON THE FIELD",
        "You cannot Tribute your Deck Master, unless it is for a Tribute Summon (but not a Tribute Set), a Fusion "
        "Summon or a Ritual Summon.",
        phrase(
            "A replacement by Tribute Summon is in face-up Attack Position (in defence it would be a Tribute Set); "
            "Fusion and Ritual Summons may be in either position."
        ),
    ),
    Interpretation(
        "THE ABILITY",
        "If I have 10,000 Life Points or less, I cannot activate the Ability of “Blast Juggler”.",
        phrase("An LP cost must be strictly less than the player's LP."),
    ),
    Interpretation(
        "THE ABILITY",
        "Many Abilities have restrictions on when they can be activated (e.g. when a monster is Summoned, or during "
        "your Main Phase only) and/or how often they can be activated (e.g. once per turn).",
        phrase(
            "The rulebook describes a few Deck Masters' Abilities (Hyper Hammerhead: once per turn, 700 LP; Blast Juggler: "
            "10,000 LP; Goldd, Wu-Lord of Dark World and Mysterious Puppeteer: whether they reach the Deck Master "
            "Position) and Podium applies those limits; for any other Deck Master the judge states them in the entry. "
            "An activation counts, and its cost is paid, even when the Ability is negated."
        ),
    ),
    Interpretation(
        "THE ABILITY",
        "If there are no restrictions, then they can be activated at any time except the Damage Step.",
        phrase("No Ability is activated in the Damage Step unless the judge states that its own text allows it."),
    ),
    Interpretation(
        "CHANGING YOUR DECK MASTER",
        "The only ways to replace your Deck Master are to Tribute it for a Tribute Summon, Fusion Summon or Ritual "
        "Summon.",
        phrase(
            "A Tribute Summon is a Normal Summon: only in its player's own turn, in a recorded Main Phase. Fusion and "
            "Ritual Summons follow the card that makes them and are not held to it."
        ),
    ),
    Interpretation(
        "WINNING WITH DECK MASTERS",
        "(i.e. both players lose the Duel at the same time), the Duel is declared a Draw instead.",
        phrase(
            "Both Deck Masters lost in one event, or both players reaching 0 LP in one LP change, is a draw. Losses "
            "recorded in separate events are not simultaneous: the first ends the duel."
        ),
    ),
    Interpretation(
        "DUEL SETUP",
        "Silent: a drawn duel in a Match (3 Duels).",
        phrase(
            "A drawn duel does not count: the match goes to the first player with 2 duel wins, so it can last more than "
            "3 duels."
        ),
    ),
    Interpretation(
        "DUEL SETUP",
        "Silent: a match unfinished when time is called.",
        phrase(
            "The duel in progress counts for the player the judge placed first, if only one; then more duel wins wins "
            "the match, and equal duel wins is a match draw."
        ),
    ),
)
