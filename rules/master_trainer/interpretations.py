"""Master Trainer: where Podium reads the handbook (v6.7), one row per choice; the docs and its page show them."""

from __future__ import annotations

from rules.options import Interpretation
from rules.speech import phrase

INTERPRETATIONS: tuple[Interpretation, ...] = (
    Interpretation(
        "§3.2",
        "The game immediately ends when any of the following occur: Life Depletion [...] Deck-Out [...] Field Break",
        phrase(
            "By default the first of these ends the game whatever the number of players: the player who met it places "
            "last among the players still in, and the others place by Life total, highest first, players level sharing "
            "a place. The house rule puts that player out and plays on to the last player standing, placing by "
            "elimination order."
        ),
        "game_end",
    ),
    Interpretation(
        "§1",
        "designed for long-form strategic gameplay for 2–4 players.",
        phrase(
            "Events seat pods of 4, and pods of 3 when the numbers don't divide by 4; a table of 2 only when nothing "
            "else seats everyone (5 players: a 3 and a 2), scored as a duel."
        ),
    ),
    Interpretation(
        "§6",
        "Silent: the setup places no Active Creature.",
        phrase(
            "The handbook plays on the Pokémon TCG, whose setup places a Basic Active, so every player starts with an "
            "Active Creature; Basics benched at setup are recorded before the first turn."
        ),
    ),
    Interpretation(
        "§9.2",
        "Newly played Sources do not generate Energy until your next turn.",
        phrase(
            "The Source placed at setup is not newly played: a player's first turn gives 2 Energy. A Source put into "
            "play by an effect in another player's turn generates from its owner's next turn."
        ),
    ),
    Interpretation(
        "§15, §13",
        "Players may perform up to three Support card actions per turn.",
        phrase(
            "The per-turn limits (Support actions, movement, Healing Echo) count per player in every turn, since Items "
            "are instant speed. A forced movement counts for the player performing it, not the owner of the Creatures."
        ),
    ),
    Interpretation(
        "§12.3",
        "heal your Player Life equal to 50% of the amount healed, rounded down, up to a maximum of 50 Player Life "
        "per turn.",
        phrase(
            "Player Life never rises above 200, and the cap counts Life actually healed. A Stadium's or Tool's "
            "continuous effect is passive (no Echo); a Supporter's played effect is Support healing."
        ),
    ),
    Interpretation(
        "§19",
        "that player must immediately choose a Benched Pokémon they control and move it to the Active Spot if able.",
        phrase(
            "Bench Locked Creatures and an exhausted Master are not able; with none able the player stays without an "
            "Active until the start of their next turn."
        ),
    ),
    Interpretation(
        "§19",
        "if that player still controls no Active Pokémon at the start of their next turn and cannot immediately "
        "place one into the Active Spot, they lose the game due to Field Break.",
        phrase(
            "Field Break is checked only at the start of the player's turn. Placing one at once means a benched "
            "Creature or a Basic from hand, not deploying the Master (a Main Phase action with a cost)."
        ),
    ),
    Interpretation(
        "§8.4",
        "cannot return to the Active Spot until the start of your next turn.",
        phrase(
            "Only the Active Spot is forbidden: an exhausted Master may be deployed to the Bench, and it goes Active "
            "from its owner's next turn."
        ),
    ),
    Interpretation(
        "§17.3",
        "Control at least 8 Energy Sources [...] The Paragon enters the Active Spot.",
        phrase(
            "Every Source in play counts, newly played and Exhausted ones included. The Active the Paragon displaces "
            "goes to the Bench, Bench Locked and not as a movement; with a full Bench a Creature must go first."
        ),
    ),
    Interpretation(
        "§17.4",
        "choose one: Option A Send 1 Energy Source you control to the Lost Zone if you cannot, the Paragon is "
        "Knocked Out.",
        phrase(
            "Option A is the only option, so the Drain is mandatory while the player has a Source; an Exhausted Source "
            "goes first unless the player names a ready one."
        ),
    ),
    Interpretation(
        "§17.5",
        "cannot be recovered [...] replayed [...] replaced",
        phrase("A Paragon that leaves play by any means, not only by a Knock Out, cannot come back."),
    ),
    Interpretation(
        "§14",
        "During your Main Phase if your Bench is full you may release one Benched Creature.",
        phrase("One release per turn."),
    ),
    Interpretation(
        "§16",
        "Silent: what becomes of the Stadium of a player who is out.",
        phrase("An eliminated player's cards leave the game, their Stadium with them."),
    ),
    Interpretation(
        "§10",
        "Silent: a player who goes out during their own turn.",
        phrase("That turn is over: the next player starts theirs without an end of turn."),
    ),
    Interpretation(
        "§4.3",
        "Each deck may contain only one high-tier evolution class of Creature.",
        phrase(
            "VMAX, VSTAR and V-UNION count as V, TAG TEAM GX as GX, M Pokémon-EX as EX and Mega Evolution ex as ex; "
            "Prism Star, Radiant, BREAK and the other Rule Box classes are not high-tier."
        ),
    ),
    Interpretation(
        "§4.2",
        "Creatures are checked by their base species name.",
        phrase(
            "A TAG TEAM counts as every species it shows. The Master is part of the deck, so a Master and an Apex of "
            "one species break the rule."
        ),
    ),
    Interpretation(
        "§4.4, §17",
        "Each player may only deploy one paragon per game",
        phrase("The Paragon is optional: a deck without one is legal and cannot ascend."),
    ),
    Interpretation(
        "§8.5",
        "Your: [...] Master [...] Apex [...] Paragon [...] must share at least one",
        phrase(
            "All three must share one thing (a type printed on all three, one species, or one evolution line through "
            "all three), a stronger rule than the pairwise matches of §4.4 and §17.2."
        ),
    ),
    Interpretation(
        "§18",
        "Silent: which Status Conditions there are, and which Creatures they affect.",
        phrase(
            "The handbook plays on the Pokémon TCG: its Special Conditions (Asleep, Burned, Confused, Paralyzed, "
            "Poisoned) are the Status Conditions, and they affect the Active only; a Creature leaving the Active Spot "
            "(to the Bench or out of play) loses its condition."
        ),
    ),
    Interpretation(
        "§18",
        "Only one Status Condition may affect Creatures at a time.",
        phrase(
            "One per Creature, not one in the whole game: the section goes on about each condition's own duration and "
            'removal, and §8.3 speaks of a Creature\'s "status conditions". A second condition on an affected Creature '
            'is refused, not swapped in (§3: the "cannot" effect always takes priority); the judge records the '
            "removal first when a card says so."
        ),
    ),
    Interpretation(
        "§18",
        "Status Conditions: - last a maximum of two turns",
        phrase(
            'Every player\'s turn counts, as in "each turn" (§9.3) and the per-turn limits; the handbook says "your '
            "turn\" when it means the owner's. The turn a condition is applied in is the first: it expires at the end "
            "of the next turn, whoever's it is."
        ),
    ),
    Interpretation(
        "§18",
        "Status Conditions: [...] - cannot be immediately reapplied after removal",
        phrase(
            '"Immediate" as the glossary\'s Bench Lock ("A restriction preventing immediate return to the Active '
            'Spot"), which §13.1 makes last "until your next turn": a condition removed by an effect or expired '
            "cannot be applied to that Creature again until the start of its owner's next turn. Another condition "
            "may be."
        ),
    ),
    Interpretation(
        "§3, §11.1",
        "Card text always overrides the rulebook. [...] Item cards may be played: - during any player's turn [...] "
        "- in response to effects",
        phrase(
            "A Creature an effect puts into play (an Item benching a Basic) may enter in any player's turn, within the "
            "Bench's 5 and into an empty Active Spot only; played from the hand it stays a Main Phase action of its "
            "owner's turn."
        ),
    ),
    Interpretation(
        "§3",
        "Card text always overrides the rulebook.",
        phrase(
            "Deck limits printed on cards hold: at most 1 ACE SPEC card, 1 Radiant Pokémon, 1 Pokémon Star and 1 Prism "
            "Star card of a name."
        ),
    ),
)
