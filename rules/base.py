"""What a format means to Podium, as plain data.

A *format* is a set of rules an event is played under (``master-trainer``,
``deck-masters`` ...).  Everything the rest of the app needs to know about a
format lives on its :class:`Format` record:

* **table sizes** - how many players sit at one table (a *pod* when more than
  two).  ``min``/``max`` bound a legal table; ``preferred`` is what the pairing
  engine aims for.  1v1 formats have ``TableSize(2, 2, 2)``.
* **scoring** - the match points a seat earns for its *placement* (1 = won)
  at a table of a given size, for a shared placement (a draw) and for a bye.
* **starting life** - life / LP every player starts a game with.
* **games per match** - 1, or 3 for a best-of-three match (Deck Masters).
* **engine** - the format's game engine (:class:`~rules.engine.Engine`):
  what the judge console records a game with; its ``VOCABULARY`` and
  ``QUICK_ENTRIES`` are the format's entry vocabulary (:attr:`Format.vocabulary`).
* **deck rules** - an object with ``check(deck, options) -> violations``
  (:class:`~rules.deckrules.DeckRules`; each format's ``deck`` module).
  ``family`` names the card family, and so the card pool and decklist parser a deck is read with.
* **match result** - for formats whose table plays a match of several games, the
  hook turning the finished games' results into the match's placements
  (``None`` while the match goes on); ``None`` for formats without matches.
* **turn_of(state)** - the player whose turn is under way in an engine state, or ``None``.
* **options** - the choices an event makes once (:class:`~rules.options.Option`): the rulebook's
  variants and Podium's house rules, each read by the deck rules, the engine or the pairing
  (``uses``); :meth:`Format.clean_options` checks an event's, :meth:`Format.effective_options`
  fills in the defaults, :meth:`Format.table_size_for` gives the tables an event's options seat.
* **interpretations** - :class:`~rules.options.Interpretation` rows: the rulebook's text, Podium's
  choice, the option that changes it.  The docs and the format's page show them.
* **counters** - what a stream overlay shows of each player during a game (:class:`Counter`: Life,
  LP, Energy Pool, Badge Tokens, prizes ...), read from the engine's player state.
* **status_conditions(player)** - the Status Conditions a stream overlay shows on a player's
  Creatures (``("Poisoned",)``), read from the engine's player state; none by default.
* **time called** - the end-of-round procedure (:class:`TimeCalled`): what the tables still
  playing do when the round's time is up (extra turns), shown when the round timer reaches zero.

Each format's package builds its record (``rules/<package>/__init__.py``)
and the registry (:mod:`rules`) lists it once; see docs/adding-a-format.md.

This module is pure Python: no Django imports, so pairing, standings, deck
rules and game engines can all read it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from rules.engine import EventSpec, QuickEntry, State, turn_player
from rules.options import Interpretation, Option, Use, clean, effective

if TYPE_CHECKING:
    from rules.deckrules import DeckRules
    from rules.engine import Engine

#: Finished games' results (``state["result"]`` of each, in the order played) -> the match's
#: placements ``{str(player id): placement}``, or ``None`` while the match goes on.
MatchResult = Callable[[Sequence[Mapping[str, Any]]], dict[str, int] | None]
#: An engine state -> the id of the player whose turn is under way, or ``None``.
TurnOf = Callable[[State], Any]
#: An event's options -> the table sizes they seat (a house rule that allows smaller tables).
TablesFor = Callable[[Mapping[str, Any]], "TableSize"]


#: A player's state in a game (one of ``state["players"]``) -> what an overlay shows of it.
CounterRead = Callable[[Mapping[str, Any]], "int | str | None"]
#: A player's state in a game -> the Status Conditions an overlay shows on their Creatures, in order.
ConditionsRead = Callable[[Mapping[str, Any]], "tuple[str, ...]"]


def no_status_conditions(player: Mapping[str, Any]) -> tuple[str, ...]:
    """A format whose overlay shows no Status Conditions."""
    return ()


@dataclass(frozen=True, slots=True)
class Counter:
    """One figure a stream overlay shows for each player during a game: ``Counter("life", "Life", read)``.

    ``name`` is stable (overlays style it: ``.counter-life``); ``read`` takes the player's state
    and gives a number or a short text (``None``: not shown for that player).
    """

    name: str
    #: A phrase (:mod:`rules.speech`): pages say it in the reader's language.
    label: str
    read: CounterRead


def player_value(key: str) -> CounterRead:
    """A counter that shows the player state's ``key`` as it is."""

    def read(player: Mapping[str, Any]) -> int | str | None:
        value = player.get(key)
        return value if isinstance(value, int | str) and not isinstance(value, bool) else None

    return read


@dataclass(frozen=True, slots=True)
class TimeCalled:
    """The end-of-round procedure: what the tables still playing do when the round's time is up.

    ``procedure`` is said to the players and shown on the dashboard, the venue display and the
    timer overlay; ``extra_turns`` counts the turns played after the one in progress; ``source``
    says where the procedure comes from (the rulebooks of these formats set no round time, so it
    is Podium's reading of the parent game's tournament rules).  The judge then ends each game
    with a ``time_called`` entry, placing the players as the procedure says.  ``procedure`` is a phrase
    (:mod:`rules.speech`): pages say it in the reader's language.
    """

    procedure: str
    extra_turns: int
    source: str


class GameFamily(StrEnum):
    POKEMON = "pokemon"
    YUGIOH = "yugioh"
    MINTAYN = "mintayn"


@dataclass(frozen=True, slots=True)
class TableSize:
    """Players per table: any size in ``[min, max]``, ``preferred`` first."""

    min: int
    max: int
    preferred: int

    def __post_init__(self) -> None:
        if not (2 <= self.min <= self.preferred <= self.max):
            raise ValueError(f"bad table size {self.min}..{self.max} (preferred {self.preferred})")

    @property
    def is_one_vs_one(self) -> bool:
        return self.max == 2


@dataclass(frozen=True, slots=True)
class Scoring:
    """Match points by placement.

    ``placement_points[size]`` lists the points for 1st, 2nd, ... at a table of
    ``size`` players.  Players who share first place (a draw, an intentional
    draw, time called with no winner) each get ``draw_points``.  Players who
    share a lower place get the points of the best place they share.  A bye
    scores ``bye_points`` and counts as a match win.
    """

    placement_points: Mapping[int, tuple[int, ...]]
    draw_points: int
    bye_points: int
    #: Points a match win is worth; the denominator of win percentages.
    win_points: int = 3

    def points_for(self, *, table_size: int, placement: int, shared: bool = False) -> int:
        table = self.placement_points.get(table_size)
        if table is None:
            raise ValueError(f"no scoring for a table of {table_size}")
        if not 1 <= placement <= table_size:
            raise ValueError(f"placement {placement} is outside 1..{table_size}")
        if shared and placement == 1:
            return self.draw_points
        return table[placement - 1]


@dataclass(frozen=True, slots=True, kw_only=True)
class Format:
    """Everything a format is; built once by the format's package, listed once in the registry."""

    slug: str
    name: str
    family: GameFamily
    table_size: TableSize
    scoring: Scoring
    starting_life: int
    games_per_match: int = 1
    rulebook: str = ""
    #: Cards with a role in the format, chosen when registering a deck (see ``deckrules.ROLES``).
    deck_roles: tuple[str, ...] = ()
    #: The options an event may set once: the rulebook's variants and Podium's house rules.
    options: tuple[Option, ...] = ()
    #: Where Podium reads the rulebook: its text, Podium's choice, the option that changes it.
    interpretations: tuple[Interpretation, ...] = ()
    #: The tables an event's options seat, when an option changes them (``None``: always ``table_size``).
    tables_for: TablesFor | None = None
    #: The game engine a table's games are recorded with.
    engine: Engine
    #: The deck rules: ``deck_rules.check(deck, options)`` lists the violations.
    deck_rules: DeckRules
    #: Best of several games: the match's placements from its games' results (``None`` for one game per table).
    match_result: MatchResult | None = None
    #: Whose turn is under way in a state of this format's engine (``None`` between turns).
    turn_of: TurnOf = turn_player
    #: What a stream overlay shows of each player during a game, in order.
    counters: tuple[Counter, ...] = ()
    #: The Status Conditions a stream overlay shows on each player's Creatures during a game.
    status_conditions: ConditionsRead = no_status_conditions
    #: The end-of-round procedure when the round's time is up (``None``: the judge decides).
    time_called: TimeCalled | None = None

    def __post_init__(self) -> None:
        # The engine answers to the slug its format registers: the slug is written once, here.
        self.engine.slug = self.slug
        if (self.match_result is None) != (self.games_per_match == 1):
            raise ValueError(f"{self.slug}: a format with matches of several games needs its match_result hook")
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.slug}: two options share a name")
        unknown = {i.option for i in self.interpretations if i.option is not None} - set(names)
        if unknown:
            raise ValueError(f"{self.slug}: interpretations name options it does not have: {sorted(unknown)}")

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def options_for(self, use: Use) -> tuple[Option, ...]:
        """The options the deck rules, the engine or the pairing read."""
        return tuple(o for o in self.options if use in o.uses)

    def clean_options(
        self, given: Mapping[str, Any], *, use: Use | None = None, names: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """``given`` checked (only the options with ``use``, when given): what an event stores.

        Raises :class:`~rules.options.OptionError` naming the values allowed.
        """
        offered = self.options if use is None else self.options_for(use)
        return clean(offered, given, format_name=self.name, names=names)

    def effective_options(self, stored: Mapping[str, Any], *, use: Use | None = None) -> dict[str, Any]:
        """Every option's value for an event that stored ``stored`` (defaults filled in)."""
        return effective(self.options, stored, use=use)

    def house_rules(self, stored: Mapping[str, Any]) -> list[tuple[Option, Any]]:
        """The options an event set to a house rule, with their values."""
        return [(o, stored[o.name]) for o in self.options if o.name in stored and o.is_house_rule(stored[o.name])]

    def table_size_for(self, stored: Mapping[str, Any]) -> TableSize:
        """The tables an event with these options seats."""
        if self.tables_for is None:
            return self.table_size
        return self.tables_for(self.effective_options(stored, use=Use.TABLES))

    @property
    def is_one_vs_one(self) -> bool:
        return self.table_size.is_one_vs_one

    @property
    def vocabulary(self) -> Mapping[str, EventSpec]:
        """The entries the judge console records for this format: the engine's vocabulary."""
        return self.engine.VOCABULARY

    @property
    def quick_entries(self) -> Sequence[QuickEntry]:
        """The one-tap entries the console offers for this format."""
        return self.engine.QUICK_ENTRIES


#: 1v1 scoring as every Swiss event uses it: win 3, draw 1, loss 0, bye = win.
ONE_VS_ONE = Scoring(placement_points={2: (3, 0)}, draw_points=1, bye_points=3)

#: Pod scoring: the winner takes 3 (a match win, as in 1v1), the runner-up of
#: a 3- or 4-player pod 1 (they outlasted the rest), everyone else 0.  A pod
#: that ends with no single winner gives each player sharing first place 1, as
#: a draw does in 1v1.  A 2-player table (Master Trainer only) scores as 1v1.
POD = Scoring(
    placement_points={2: (3, 0), 3: (3, 1, 0), 4: (3, 1, 0, 0), 5: (3, 1, 0, 0, 0)},
    draw_points=1,
    bye_points=3,
)
