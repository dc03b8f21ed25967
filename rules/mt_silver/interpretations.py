"""Mt. Silver: where Podium reads the rulebook (4.1.0), one row per choice; the docs and its page show them."""

from __future__ import annotations

from rules.options import Interpretation
from rules.speech import phrase

INTERPRETATIONS: tuple[Interpretation, ...] = (
    Interpretation(
        "Preparation",
        "To play Mt. Silver, 4 players come together",
        phrase(
            "A game is 4 players; players left over when the event's numbers don't divide by 4 get byes. The house rule "
            "seats 3-player pods instead of byes: the rules work unchanged with 3."
        ),
        "three_player_pods",
    ),
    Interpretation(
        "Play",
        "Players cannot play supporters or attack until the last player's first turn.",
        phrase(
            "The opening ends when the last player still in starts their first turn: Supporters, the Pokémon Trainer's "
            "ability and attacks are allowed from that turn on."
        ),
    ),
    Interpretation(
        "Play",
        "A player can use their Pokémon Trainer's ability as their supporter card for the turn.",
        phrase("It shares the official rules' one-Supporter-a-turn limit with Supporter cards."),
    ),
    Interpretation(
        "Play",
        "When a player takes a Badge Token, that player may choose to explore one of the remaining Area Piles of "
        "Mt. Silver in a draft!",
        phrase(
            "Each Badge Token taken opens its own draft offer, explored or declined before a turn ends or starts; a self "
            "Knock Out queues the opponents clockwise from the owner's left. Offers still queued lapse with the last pile."
        ),
    ),
    Interpretation(
        "Play",
        "The remaining cards are passed clockwise, with each player taking a card until no cards remain.",
        phrase("A draft goes around the players still in the game, players with no Pokémon in play included."),
    ),
    Interpretation(
        "Play",
        "Silent: Knock Outs at the same time (Destined Fight, a Check-Up).",
        phrase(
            "They are recorded as one event, so the end-of-game checks see all of them; the Champion check comes before "
            "the one-player-with-Pokémon check."
        ),
    ),
    Interpretation(
        "Play",
        "Once all of a player's Badge Tokens are taken, that player becomes the Champion and the game ends.",
        phrase("Two players completing their Badge Tokens at the same time are both Champion and share first place."),
    ),
    Interpretation(
        "Play",
        "Silent: Knock Outs at the same time leaving nobody with Pokémon in play.",
        phrase("The game ends with everyone still in ranked by Badge Tokens taken, players level sharing a place."),
    ),
    Interpretation(
        "Objective",
        "Silent: how the players other than the Champion place.",
        phrase(
            "The players still in place by Badge Tokens taken, most first, players level sharing a place. A player out "
            "by a judge action places below everyone still in, by elimination order."
        ),
    ),
    Interpretation(
        "Additional Rules",
        "When a Pokémon is Knocked Out from a special condition, consider the Knock Out to come from the player who "
        "caused the special condition.",
        phrase(
            "A condition applied again belongs to whoever applied it last; one a player caused on their own Active makes "
            "its Knock Out a self Knock Out."
        ),
    ),
    Interpretation(
        "Additional Rules",
        "Silent: a Knock Out by a condition caused by a player who has since left the game.",
        phrase("It earns nobody a Badge Token."),
    ),
    Interpretation(
        "Play",
        "When a player Knocks Out their own Pokémon, all opponents take one Badge Token.",
        phrase("Only the opponents still in take one: a player out by a judge action takes no Badge Tokens."),
    ),
    Interpretation(
        "Region Deck",
        "The only restriction is that no two cards can share the same set and card number.",
        phrase(
            "It has no Basic Energy exemption, and it covers the region deck only: the Pokémon Trainer, starting "
            "Pokémon and starting energy may share a print with a card of the region deck."
        ),
    ),
    Interpretation(
        "Region Deck",
        "International cards are allowed, but they must fulfill the slots of the English cards sets.",
        phrase(
            "Decklists name English prints, so an international card is registered as the English print it matches."
        ),
    ),
    Interpretation(
        "Region Deck",
        "Silent: the deck limits printed on cards (ACE SPEC, Radiant Pokémon).",
        phrase(
            "They are not enforced: the print rule is the region deck's only restriction, and at the table all region "
            "decks are shuffled into one deck."
        ),
    ),
)
