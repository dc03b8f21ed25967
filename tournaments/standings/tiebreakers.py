"""Tiebreakers as pure functions, and the conventions that choose them.

Each function takes flat per-player lists (indexed by the engine's dense
player index) and returns one; none knows about tables or ids, so each can be
tested on its own with the numbers a rulebook gives.  A *convention* is a
:class:`TiebreakConfig`: which tiebreakers follow match points, in which
order, and the constants they use.  Terms (match, bye, opponent, MWP) are
defined in the package docstring.

Presets
-------

* :data:`CLASSIC` - what Podium has always computed, the default: MWP = match
  points in non-bye matches / (win points x non-bye matches), 25 % floor,
  then OMW%, OOMW%.
* :data:`POKEMON` - Play! Pokémon: late-entry penalty, opponents' win % (a
  win counts 1, a tie 1/2, a loss 0, over rounds played, byes removed, 25 %
  floor, 75 % cap for a player who dropped), opponents' opponents' win %,
  then head-to-head between exactly two tied players.  The late penalty and
  head-to-head are 1v1 Swiss tiebreakers: pods rank on their own order.
* :data:`MAGIC` - Magic Tournament Rules, Appendix C: OMW% (MWP = match points
  / 3 x rounds played, byes counted as won matches, 0.33 floor), game-win %,
  opponents' game-win %.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import fsum

#: Late-entry penalty: rounds missed before joining, fewer first (Play! Pokémon, 1v1 only).
LATE_ENTRY = "late_entry"
OPP_MATCH_WIN_PCT = "opp_match_win_pct"
OPP_OPP_MATCH_WIN_PCT = "opp_opp_match_win_pct"
GAME_WIN_PCT = "game_win_pct"
OPP_GAME_WIN_PCT = "opp_game_win_pct"
#: Only between exactly two players tied on everything before it; always last.
HEAD_TO_HEAD = "head_to_head"
TIEBREAKERS = frozenset(
    {LATE_ENTRY, OPP_MATCH_WIN_PCT, OPP_OPP_MATCH_WIN_PCT, GAME_WIN_PCT, OPP_GAME_WIN_PCT, HEAD_TO_HEAD}
)


@dataclass(frozen=True, slots=True)
class TiebreakConfig:
    """One convention: the tiebreakers after match points, in order, and their constants."""

    name: str
    #: Tiebreakers applied after match points, in order (names from :data:`TIEBREAKERS`).
    order: tuple[str, ...]
    #: A player's match-win percentage is never lower than this when their opponents average it.
    win_pct_floor: float
    #: Whether byes count in a player's own MWP (as won matches) or are left out.
    byes_in_win_pct: bool = False
    #: ``None``: MWP = match points / (win points x matches).  A number: MWP =
    #: (wins + tie_credit x draws) / matches, the Pokémon "win %".
    tie_credit: float | None = None
    #: Highest MWP a player who dropped contributes to their opponents (``None``: no cap).
    dropped_win_pct_cap: float | None = None
    #: Match points a win is worth, the MWP denominator; ``None``: ``scoring.win_points``.
    win_points: int | None = None
    #: Game points for a game won / drawn (a lost game is worth 0).
    game_win_points: int = 3
    game_draw_points: int = 1
    #: Games (won, lost, drawn) a bye is worth, when the bye's seat does not say.
    bye_games: tuple[int, int, int] = (2, 0, 0)
    game_win_pct_floor: float = 0.33

    def __post_init__(self) -> None:
        unknown = [name for name in self.order if name not in TIEBREAKERS]
        if unknown:
            raise ValueError(f"unknown tiebreakers {unknown}; known: {sorted(TIEBREAKERS)}")
        if len(set(self.order)) != len(self.order):
            raise ValueError(f"a tiebreaker is listed twice in {self.order}")
        if HEAD_TO_HEAD in self.order and self.order[-1] != HEAD_TO_HEAD:
            raise ValueError("head_to_head can only be the last tiebreaker")
        for label, value in (("win_pct_floor", self.win_pct_floor), ("game_win_pct_floor", self.game_win_pct_floor)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{label} must be within 0..1, got {value}")
        cap = self.dropped_win_pct_cap
        if cap is not None and not self.win_pct_floor <= cap <= 1.0:
            raise ValueError(f"dropped_win_pct_cap must be within win_pct_floor..1, got {cap}")
        if self.tie_credit is not None and not 0.0 <= self.tie_credit <= 1.0:
            raise ValueError(f"tie_credit must be within 0..1, got {self.tie_credit}")
        if self.win_points is not None and self.win_points <= 0:
            raise ValueError(f"win_points must be positive, got {self.win_points}")
        if self.game_win_points <= 0 or not 0 <= self.game_draw_points <= self.game_win_points:
            raise ValueError("game points must satisfy 0 <= draw <= win and win > 0")
        if min(self.bye_games) < 0:
            raise ValueError(f"bye_games cannot be negative, got {self.bye_games}")


#: Podium's historical order; the default, so results stored before conventions existed do not move.
CLASSIC = TiebreakConfig(name="classic", order=(OPP_MATCH_WIN_PCT, OPP_OPP_MATCH_WIN_PCT), win_pct_floor=0.25)

#: Play! Pokémon (see the module docstring and ``tests/tournaments/test_tiebreakers.py`` for sources).
POKEMON = TiebreakConfig(
    name="pokemon",
    order=(LATE_ENTRY, OPP_MATCH_WIN_PCT, OPP_OPP_MATCH_WIN_PCT, HEAD_TO_HEAD),
    win_pct_floor=0.25,
    tie_credit=0.5,
    dropped_win_pct_cap=0.75,
)

#: Magic Tournament Rules section 3.1 and Appendix C.
MAGIC = TiebreakConfig(
    name="magic",
    order=(OPP_MATCH_WIN_PCT, GAME_WIN_PCT, OPP_GAME_WIN_PCT),
    win_pct_floor=0.33,
    byes_in_win_pct=True,
    game_win_pct_floor=0.33,
)

CONVENTIONS = {config.name: config for config in (CLASSIC, POKEMON, MAGIC)}


def match_win_pcts(
    *,
    points: Sequence[int],
    wins: Sequence[int],
    draws: Sequence[int],
    matches: Sequence[int],
    byes: Sequence[int],
    bye_points: int,
    dropped: Sequence[bool],
    config: TiebreakConfig,
    win_points: int,
) -> list[float]:
    """Each player's MWP as their opponents see it: floored, capped at 1 (or the dropped cap).

    ``points``, ``wins`` and ``matches`` include byes (``byes`` of them, each
    worth ``bye_points``); whether byes count is the config's choice.  A player
    with no match that counts gets the floor.
    """
    floor = config.win_pct_floor
    cap = config.dropped_win_pct_cap
    credit = config.tie_credit
    keep_byes = config.byes_in_win_pct
    pcts = [floor] * len(points)
    for i, played in enumerate(matches):
        bye_count = 0 if keep_byes else byes[i]
        played -= bye_count
        if not played:
            continue
        if credit is None:
            pct = (points[i] - bye_count * bye_points) / (win_points * played)
        else:
            pct = (wins[i] - bye_count + credit * draws[i]) / played
        ceiling = cap if cap is not None and dropped[i] else 1.0
        pcts[i] = min(max(pct, floor), ceiling)
    return pcts


def game_points(won: int, lost: int, drawn: int, *, config: TiebreakConfig = MAGIC) -> int:
    """Game points for a game record: ``game_win_points`` a win, ``game_draw_points`` a draw, 0 a loss."""
    return won * config.game_win_points + drawn * config.game_draw_points


def game_win_pcts(*, points: Sequence[int], games: Sequence[int], config: TiebreakConfig = MAGIC) -> list[float]:
    """Game points / (game win points x games played); 0.0 for a player with no game.

    Not floored: the floor (``config.game_win_pct_floor``) applies when the
    figure is averaged for an opponent (OGW%), as the MTR does it.
    """
    per_game = config.game_win_points
    return [p / (per_game * g) if g else 0.0 for p, g in zip(points, games, strict=True)]


def opponent_means(opponents: Sequence[Sequence[int]], values: Sequence[float]) -> list[float]:
    """Per player, the mean of ``values`` over their opponents, meeting by meeting; 0.0 without opponents.

    :func:`math.fsum` rounds the exact sum once, so the mean does not depend on
    the order the opponents were met in.
    """
    get = values.__getitem__
    return [fsum(map(get, met)) / len(met) if met else 0.0 for met in opponents]


def head_to_head(meetings: Sequence[tuple[int, int]], a: int, b: int) -> int | None:
    """The one of ``a`` and ``b`` who won more of their ``meetings``, or ``None`` when even.

    ``meetings`` are ``(winner, loser)`` pairs of 1v1 matches between the two
    (draws are left out: they favour neither).
    """
    score = 0
    for winner, loser in meetings:
        if (winner, loser) == (a, b):
            score += 1
        elif (winner, loser) == (b, a):
            score -= 1
    if score > 0:
        return a
    if score < 0:
        return b
    return None
