"""The meta report: which decks are played, how they do, and how often they reach the top cut.

A pure engine: plain records in, plain rows out, no Django.

Terms
=====

**Archetype.**  The name a deck goes by.  Podium names a registered deck by
its format's identity card(s), the cards a player names with a role when
registering it: the Master (Master Trainer), the Signature Pokémon (Format3
Trinity), the Deck Master (Deck Masters), the Trainer and starting Pokémon
(Mt. Silver: "Trainer / starter").  A format without such a role (Mintayn
Master) names it by its most played key card: the card with the most copies
in the list, basic Energy left out, the first listed among equals.  A card
reference loses its set code and number ("Charizard ex OBF 125" is
"Charizard ex").  The organiser may name a deck otherwise; that name wins.

**Hidden.**  Before an event publishes its decklists, its decks' archetypes
are nobody's business: the report counts those players under
:data:`HIDDEN` (how many, never what they play or how it did).

**Entry** (:class:`Entry`).  One player at one event: the archetype (or
``None`` when hidden or no deck), their match record over every table they
played (Swiss and cut; a win is a 1st place not shared, a draw a shared 1st,
anything else a loss; byes are not matches), and whether they made the top
cut.

**Row** (:class:`Row`).  Per archetype: players, share of the field,
matches won, drawn and lost, *win rate* (wins + draws / 2) / matches, and
*conversion*: the share of its players who made the cut (``None`` where no
event had a cut).

Rows are sorted by players (most first), then name; :data:`HIDDEN` comes
last.  The output does not depend on the order of the entries.
"""

from __future__ import annotations

from leagues.meta.archetypes import IDENTITY_ROLES, archetype_name, card_name
from leagues.meta.report import HIDDEN, UNKNOWN, Entry, Report, Row, meta_report

__all__ = [
    "HIDDEN",
    "IDENTITY_ROLES",
    "UNKNOWN",
    "Entry",
    "Report",
    "Row",
    "archetype_name",
    "card_name",
    "meta_report",
]
