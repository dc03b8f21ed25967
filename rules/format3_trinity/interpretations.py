"""Format3 Trinity: where Podium reads the rulebook, one row per choice; the docs and its page show them."""

from __future__ import annotations

from rules.options import Interpretation
from rules.speech import phrase

INTERPRETATIONS: tuple[Interpretation, ...] = (
    Interpretation(
        "A Quick Review",
        "Games of “Signature” are best of 1 by nature, and are intended to be a casual way to play with 3 or more "
        "players.",
        phrase(
            "Events seat pods of 4, and pods of 3 when the numbers don't divide by 4; a pod of 5 only when it avoids a "
            "bye (exactly 5 players). Each table plays one game."
        ),
    ),
    Interpretation(
        "Rule Set #3 Playing the Game",
        "A round is completed once each player currently in the game has taken a turn during the current round.",
        phrase(
            "Only players still in count: a player who goes out before their turn does not hold the round up. Rounds "
            "start with whoever is next clockwise."
        ),
    ),
    Interpretation(
        "Rule Set #3 Playing the Game",
        "unless there are no other valid targets remaining in play.",
        phrase(
            "Checked against the players still in who have not been targeted this round; the judge may attest that they "
            "have no Pokémon to target. Only attacks target, one target player each."
        ),
    ),
    Interpretation(
        "Rule Set #3 Playing the Game",
        "unless you are simply unable due to having no valid targets remaining in play or by having insufficient "
        "energy to perform an attack.",
        phrase(
            "An Active that cannot attack (Asleep, Paralyzed, a card effect) is simply unable too. No reason is needed "
            "on the first turn of the game or while the player's Active is Knocked Out and unreplaced. A pass for no "
            "valid target is refused while another player still in has an Active in play (the targeting limit only "
            "decides which of them is valid); a player whose Active is Knocked Out and unreplaced may still have a "
            "Bench, which the engine does not see, so only they leave the pass to the judge."
        ),
    ),
    Interpretation(
        "Rule Set #3 Playing the Game",
        "you do not promote a benched Pokemon to the active spot until the end of the round",
        phrase(
            "Meanwhile the player keeps taking turns and their Bench can be attacked. An Active Knocked Out in the "
            "round-end window (a Check-Up) must be replaced before the next round starts as well."
        ),
    ),
    Interpretation(
        "Rule Set #3 Playing the Game",
        "Silent: who takes the prize cards for a Knock Out at a table of 3 or more.",
        phrase(
            "The opponent the judge names takes them, as the official rules have it for a player's own Knock Outs; a "
            "Knock Out worth more prize cards than the taker has left gives what is left."
        ),
    ),
    Interpretation(
        "A Quick Review",
        "all other rules questions are directed to the current official rules for the game.",
        phrase(
            "Deck out follows the official rule: a player who cannot draw at the start of their turn is out, and it is "
            "the first thing recorded in that turn."
        ),
    ),
    Interpretation(
        "A Quick Review",
        "Silent: how the others place when a player takes their last prize card.",
        phrase(
            "Taking the last prize card ends the game: that player places 1 and the players still in follow by prize "
            "cards taken, players level sharing a place."
        ),
    ),
    Interpretation(
        "Rule Set #3 Playing the Game",
        "Silent: how players who go out place.",
        phrase(
            "A player out places by elimination order (the first out of n places n); players who run out of Pokémon at "
            "the same round end share the best of the places they take up."
        ),
    ),
    Interpretation(
        "Rule Set #3 Playing the Game",
        "Silent: every player still in running out of Pokémon at the same round end.",
        phrase("They share first place (a draw)."),
    ),
    Interpretation(
        "A Quick Review",
        "Silent: two win conditions met at the same time.",
        phrase(
            "The first recorded event that meets one ends the game; the judge records Knock Outs in the order the "
            "official rules resolve them."
        ),
    ),
    Interpretation(
        "Rule Set #1 Deck Construction",
        "you may have up to 3 “Rule Box” cards, minimum of 1 (which is required to be a Basic “Rule Box” Pokemon, "
        "aka your “Signature” Pokemon)",
        phrase(
            "Trainer and Energy cards with a Rule Box (Prism Star) count towards the 3; ACE SPEC and a TAG TEAM "
            "Supporter's banner do not. Copies count, the Signature included."
        ),
    ),
    Interpretation(
        "Rule Set #1 Deck Construction",
        "you are restricted to using no more than 3 “Types” [...] “Normal”, etc.",
        phrase(
            "A deck's types are the printed types of its Pokémon (both of a dual type) and those its Basic Energy "
            "provide; Colorless counts. Trainers and Special Energy add none."
        ),
    ),
    Interpretation(
        "Rule Set #1 Deck Construction",
        "The restriction is based off of the Card Name itself",
        phrase("Pokémon count by name, not species: Charmander and Charizard ex may both be played."),
    ),
    Interpretation(
        "Rule Set #1 Deck Construction",
        "Finally, the legal card pool consists of cards from Black & White forward.",
        phrase(
            "A card is legal in a printing from the Black & White series or released on or after the Black & White set "
            "(2011-04-25): later series and side products are in, Call of Legends and older are out."
        ),
    ),
    Interpretation(
        "Rule Set #1 Deck Construction",
        "Silent: the deck limits printed on cards.",
        phrase(
            "They still apply: at most 1 ACE SPEC card, 1 Radiant Pokémon, 1 Pokémon Star and 1 Prism Star card of a name."
        ),
    ),
)
