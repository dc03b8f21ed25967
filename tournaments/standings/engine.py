"""The standings engine.  Terms and the contract are in the package docstring.

Players are mapped once to dense indices, and every per-player figure lives
in a numpy array (:mod:`tournaments.standings.arrays`).  An event of 1v1
tables and byes without game scores, by far the most common, is read in two
passes over the seats and checked as a whole; anything else (a pod, a game
score, a table those passes cannot vouch for) goes table by table: the fast 1v1
loop, then the careful loop, which also words the errors.  The tiebreakers
are then array operations, each giving to the last bit what its plain-Python
definition in :mod:`tournaments.standings.tiebreakers` gives (the opponents'
means summed as :func:`math.fsum` sums, the rounding Python's), and the order
is one ``np.lexsort``.  Nothing loops over pairs of players, so the cost
grows with the number of seats reported.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import chain, repeat
from typing import NamedTuple, NoReturn, cast

import numpy as np

from rules.base import Scoring
from tournaments.standings import arrays
from tournaments.standings.arrays import DECIMALS
from tournaments.standings.tiebreakers import (
    CONVENTIONS,
    GAME_WIN_PCT,
    HEAD_TO_HEAD,
    LATE_ENTRY,
    OPP_GAME_WIN_PCT,
    OPP_MATCH_WIN_PCT,
    OPP_OPP_MATCH_WIN_PCT,
    TiebreakConfig,
    head_to_head,
)

__all__ = [
    "DECIMALS",
    "SeatResult",
    "Standing",
    "TableResult",
    "compute_standings",
    "resolve_convention",
    "seat_points",
]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's result at one table."""

    player_id: int
    #: 1 = won; players sharing first place drew.
    placement: int
    #: True when another player at the table has the same placement.
    shared: bool = False
    #: Games (won, lost, drawn) in this match, for game-win percentages (1v1 and byes only).
    #: ``None``: the match counts as one game won, lost or drawn (a bye as ``bye_games``).
    games: tuple[int, int, int] | None = None


@dataclass(frozen=True, slots=True)
class TableResult:
    """Everyone's result at one table in one round; a bye is one seat, placement 1."""

    round_number: int
    seats: tuple[SeatResult, ...]


class Standing(NamedTuple):
    """One line of the standings, with the tiebreakers that placed it.

    Figures that mean nothing at the event's tables are 0.0
    (``opp_avg_points`` outside pods, the game-win figures in pods).  A
    named tuple, immutable like the other records here: the engine builds
    thousands of them per call, and a tuple is built at C speed where a frozen
    dataclass stores each field through ``object.__setattr__``.
    """

    #: 1 = best; players with identical keys share a rank ("1, 2, 2, 4").
    rank: int
    player_id: int
    #: Match points.
    points: int
    wins: int
    draws: int
    #: Late-entry rounds included.
    losses: int
    #: Byes are also counted in ``wins``.
    byes: int
    #: Tables played, byes and late-entry rounds included.
    matches: int
    #: 0..1, rounded to 6 decimals.
    opp_match_win_pct: float
    opp_opp_match_win_pct: float
    #: Mean match points per round of the opponents (pods); 0.0 for 1v1 events.
    opp_avg_points: float
    dropped: bool
    #: Game points / (3 x games played), not floored (1v1; the Magic convention ranks on it).
    game_win_pct: float = 0.0
    #: Mean of the opponents' game-win percentages, each floored (1v1; the Magic convention ranks on it).
    opp_game_win_pct: float = 0.0
    #: True when head-to-head decided the order between this player and the one tied with them.
    head_to_head: bool = False
    #: Rounds missed by entering late, counted as losses (Pokémon late-entry penalty).
    late_rounds: int = 0


def seat_points(seat: SeatResult, *, table_size: int, scoring: Scoring) -> int:
    """Match points one seat earned at a table of ``table_size`` (1 = a bye)."""
    if table_size == 1:
        _check_bye(seat, round_number=None)
        return scoring.bye_points
    return scoring.points_for(table_size=table_size, placement=seat.placement, shared=seat.shared)


def resolve_convention(convention: str | TiebreakConfig, *, win_pct_floor: float | None = None) -> TiebreakConfig:
    """The :class:`TiebreakConfig` for ``convention`` (a preset name or a config), floor overridden if given."""
    if isinstance(convention, TiebreakConfig):
        config = convention
    else:
        try:
            config = CONVENTIONS[convention]
        except KeyError:
            raise ValueError(f"unknown convention {convention!r}; known: {sorted(CONVENTIONS)}") from None
    if win_pct_floor is not None:
        if not 0.0 <= win_pct_floor <= 1.0:
            raise ValueError(f"win_pct_floor must be within 0..1, got {win_pct_floor}")
        if config.dropped_win_pct_cap is not None and win_pct_floor > config.dropped_win_pct_cap:
            raise ValueError(f"win_pct_floor {win_pct_floor} is above the dropped cap {config.dropped_win_pct_cap}")
        config = replace(config, win_pct_floor=win_pct_floor)
    return config


class _NeedsCare(Exception):
    """Raised by the fast path for a table it cannot vouch for; the careful loop takes over."""


class _Tally:
    """Per-player counters in flat lists indexed by the dense player index."""

    __slots__ = ("points", "wins", "draws", "byes", "matches", "game_points", "games", "opponents")

    def __init__(self, count: int) -> None:
        self.points = [0] * count
        self.wins = [0] * count
        self.draws = [0] * count
        self.byes = [0] * count
        self.matches = [0] * count
        self.game_points = [0] * count
        self.games = [0] * count
        self.opponents: list[list[int]] = [[] for _ in range(count)]


def compute_standings(
    player_ids: Sequence[int],
    results: Sequence[TableResult],
    *,
    scoring: Scoring,
    multiplayer: bool,
    dropped: Collection[int] = (),
    win_pct_floor: float | None = None,
    convention: str | TiebreakConfig = "classic",
    late_rounds: Mapping[int, int] | None = None,
) -> list[Standing]:
    """Rank ``player_ids`` on ``results``, best first.

    ``multiplayer`` selects the pod order (opponents' average points before
    OMW%); ``dropped`` players stay in the list, flagged.  ``convention``
    (``"classic"``, ``"pokemon"``, ``"magic"`` or a :class:`TiebreakConfig`)
    chooses the 1v1 tiebreakers and their constants; ``win_pct_floor``
    overrides its MWP floor.  ``late_rounds`` maps a player to the rounds they
    missed by entering late: each counts as a loss, and in a 1v1 event under
    a convention with the late-entry tiebreaker it places them below players
    on the same points (pods have no late-entry tiebreaker).  Raises
    ``ValueError`` on input that does not describe a possible event (see the
    package docstring).
    """
    return _compute_standings(
        player_ids, results, scoring=scoring, multiplayer=multiplayer, dropped=dropped,
        win_pct_floor=win_pct_floor, convention=convention, late_rounds=late_rounds,
    )  # fmt: skip


def _compute_standings(
    player_ids: Sequence[int],
    results: Sequence[TableResult],
    *,
    scoring: Scoring,
    multiplayer: bool,
    dropped: Collection[int] = (),
    win_pct_floor: float | None = None,
    convention: str | TiebreakConfig = "classic",
    late_rounds: Mapping[int, int] | None = None,
) -> list[Standing]:
    config = resolve_convention(convention, win_pct_floor=win_pct_floor)
    if scoring.win_points <= 0:
        raise ValueError(f"scoring.win_points must be positive, got {scoring.win_points}")
    win_points = config.win_points or scoring.win_points

    index: dict[int, int] = dict(zip(player_ids, range(len(player_ids)), strict=True))
    if len(index) != len(player_ids):
        seen: set[int] = set()
        for player_id in player_ids:
            if player_id in seen:
                raise ValueError(f"player {player_id} is listed twice in player_ids")
            seen.add(player_id)
    ids = list(index)
    count = len(ids)
    for player_id in dropped:
        if player_id not in index:
            raise ValueError(f"dropped player {player_id} is not in player_ids")
    dropped_ids = frozenset(dropped)
    late = [0] * count
    for player_id, missed in (late_rounds or {}).items():
        if player_id not in index:
            raise ValueError(f"late player {player_id} is not in player_ids")
        if not isinstance(missed, int) or missed < 0:
            raise ValueError(f"player {player_id} missed {missed!r} rounds; expected a whole number >= 0")
        late[index[player_id]] = missed

    id_array = _int_ids(ids)
    tally = None
    pair_values = _pair_values(scoring)
    if pair_values is not None:
        tally = arrays.tally_one_vs_one(
            results, id_array, values=pair_values, bye_points=scoring.bye_points,
            game_points=(config.game_win_points, config.game_draw_points), bye_games=config.bye_games,
        )  # fmt: skip
    if tally is None:
        tally = _tally_in_python(results, index, scoring, config)
    points, wins, draws, byes, matches = tally.points, tally.wins, tally.draws, tally.byes, tally.matches
    player, opponent = tally.player, tally.opponent
    meetings = np.bincount(player, minlength=count)
    late_array = np.array(late, dtype=np.int64)
    if late_rounds:
        matches = matches + late_array

    is_dropped = np.zeros(count, dtype=bool)
    if dropped_ids:
        is_dropped[[index[player_id] for player_id in dropped_ids]] = True
    mwp = _match_win_pcts(points, wins, draws, matches, byes, is_dropped, config, scoring.bye_points, win_points)
    omw_exact = arrays.opponent_means(player, opponent, mwp, meetings)
    omw = arrays.round_half_even(omw_exact)
    oomw = arrays.round_half_even(arrays.opponent_means(player, opponent, omw_exact, meetings))

    zeros = np.zeros(count)
    opp_avg = gwp = ogw = zeros
    if multiplayer:
        per_match = np.divide(points, matches, out=np.zeros(count), where=matches > 0)
        opp_avg = arrays.round_half_even(arrays.opponent_means(player, opponent, per_match, meetings))
        # Whatever the convention: its late-entry penalty and head-to-head are 1v1 Swiss conventions.
        order: tuple[str, ...] = ("opp_avg_points", OPP_MATCH_WIN_PCT, OPP_OPP_MATCH_WIN_PCT)
    else:
        order = config.order
        # Published by every convention (the game scores say them); only the Magic one ranks on them.
        games = tally.games
        raw = np.divide(tally.game_points, config.game_win_points * games, out=np.zeros(count), where=games > 0)
        floored = np.maximum(raw, config.game_win_pct_floor)
        ogw = arrays.round_half_even(arrays.opponent_means(player, opponent, floored, meetings))
        gwp = arrays.round_half_even(raw)

    # Descending on every figure (ascending on rounds missed), then ascending player id.
    columns = {
        LATE_ENTRY: late_array,
        "opp_avg_points": -opp_avg,
        OPP_MATCH_WIN_PCT: -omw,
        OPP_OPP_MATCH_WIN_PCT: -oomw,
        GAME_WIN_PCT: -gwp,
        OPP_GAME_WIN_PCT: -ogw,
    }
    keys = [-points, *(columns[name] for name in order if name != HEAD_TO_HEAD)]
    ranked_array = _rank_order(keys, ids, id_array)
    in_order = [key[ranked_array] for key in keys]
    new_key = np.zeros(count, dtype=bool)
    new_key[:1] = True
    for key in in_order:
        new_key[1:] |= key[1:] != key[:-1]
    ranks = np.maximum.accumulate(np.where(new_key, np.arange(1, count + 1), 0)).tolist()
    ranked = ranked_array.tolist()
    decided: frozenset[int] = frozenset()
    if HEAD_TO_HEAD in order and not multiplayer:
        ranked, ranks, decided = _break_ties_head_to_head(ranked, ranks, ids, results)
        ranked_array = np.array(ranked, dtype=np.intp)

    # One row per player in ranked order, assembled column by column at C speed.
    # A column that is the same for everyone (0.0 for the figures that mean nothing at the event's tables,
    # nobody dropped or late, no tie decided head-to-head) is one value repeated, not an array taken apart.
    losses = matches - wins - draws
    head_to_head_decided: np.ndarray | bool = False
    if decided:
        head_to_head_decided = np.zeros(count, dtype=bool)
        head_to_head_decided[list(decided)] = True
    numbers = (
        points, wins, draws, losses, byes, matches, omw, oomw,
        0.0 if opp_avg is zeros else opp_avg, is_dropped if dropped_ids else False,
        0.0 if gwp is zeros else gwp, 0.0 if ogw is zeros else ogw,
        head_to_head_decided, late_array if late_rounds else 0,
    )  # fmt: skip
    columns_in_order = (
        column[ranked_array].tolist() if isinstance(column, np.ndarray) else [column] * count for column in numbers
    )
    rows = zip(ranks, map(ids.__getitem__, ranked), *columns_in_order, strict=True)
    # The rows hold numbers only, so they can never be part of a reference cycle; but building thousands of
    # tuples triggers the cyclic garbage collector again and again, which cost as much as building them.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return list(map(_new_tuple, repeat(Standing), rows))
    finally:
        if collecting:
            gc.enable()


_new_tuple = tuple.__new__


def _int_ids(ids: list[int]) -> np.ndarray | None:
    """``ids`` as an int64 array, or ``None`` when they are not all whole numbers that fit."""
    try:
        if ids and type(sum(ids)) is not int:
            return None
        return np.fromiter(ids, np.int64, len(ids))
    except (TypeError, OverflowError):
        return None


def _rank_order(keys: list[np.ndarray], ids: list[int], id_array: np.ndarray | None) -> np.ndarray:
    """Dense indices best first: ascending on ``keys`` (the first decides), then on player id."""
    if id_array is not None:
        return np.lexsort((id_array, *reversed(keys)))
    by_id = sorted(range(len(ids)), key=ids.__getitem__)
    rows = list(zip(*(key.tolist() for key in keys), strict=True))
    return np.array(sorted(by_id, key=rows.__getitem__), dtype=np.intp)


def _match_win_pcts(
    points: np.ndarray, wins: np.ndarray, draws: np.ndarray, matches: np.ndarray, byes: np.ndarray,
    dropped: np.ndarray, config: TiebreakConfig, bye_points: int, win_points: int,
) -> np.ndarray:  # fmt: skip
    """:func:`~tournaments.standings.tiebreakers.match_win_pcts` on arrays, the same operations in the same order."""
    bye_count = np.zeros_like(byes) if config.byes_in_win_pct else byes
    played = matches - bye_count
    counted = played > 0
    if config.tie_credit is None:
        pct = np.divide(points - bye_count * bye_points, win_points * played, out=np.zeros(len(points)),
                        where=counted)  # fmt: skip
    else:
        pct = np.divide(wins - bye_count + config.tie_credit * draws, played, out=np.zeros(len(points)),
                        where=counted)  # fmt: skip
    cap = config.dropped_win_pct_cap
    ceiling = np.where(dropped, cap, 1.0) if cap is not None else 1.0
    return np.where(counted, np.minimum(np.maximum(pct, config.win_pct_floor), ceiling), config.win_pct_floor)


def _tally_in_python(
    results: Sequence[TableResult], index: dict[int, int], scoring: Scoring, config: TiebreakConfig
) -> arrays.Tally:
    """The tally of any event, table by table (the fast 1v1 loop first, then the careful one), as arrays."""
    tally = _Tally(len(index))
    _tally_results(tally, results, index, scoring, config)
    lengths = np.fromiter(map(len, tally.opponents), np.intp, len(index))
    return arrays.Tally(
        points=np.array(tally.points, dtype=np.int64),
        wins=np.array(tally.wins, dtype=np.int64),
        draws=np.array(tally.draws, dtype=np.int64),
        byes=np.array(tally.byes, dtype=np.int64),
        matches=np.array(tally.matches, dtype=np.int64),
        game_points=np.array(tally.game_points, dtype=np.int64),
        games=np.array(tally.games, dtype=np.int64),
        player=np.repeat(np.arange(len(index)), lengths),
        opponent=np.fromiter(chain.from_iterable(tally.opponents), np.intp, int(lengths.sum())),
    )


def _ranks(ranked: list[int], keys: list[tuple[float, ...]]) -> list[int]:
    """Competition ranks ("1, 2, 2, 4") for players in ``ranked`` order."""
    ranks = []
    rank = 0
    previous = None
    for position, i in enumerate(ranked, start=1):
        key = keys[i]
        if key != previous:
            rank = position
            previous = key
        ranks.append(rank)
    return ranks


def _break_ties_head_to_head(
    ranked: list[int], ranks: list[int], ids: list[int], results: Sequence[TableResult]
) -> tuple[list[int], list[int], frozenset[int]]:
    """Order each tie of exactly two players by their head-to-head record; untie them when it decides.

    Ties are rare, so the meetings are looked up in one extra pass over the
    results only when there is a tie of two.
    """
    pairs: dict[frozenset[int], int] = {}  # {ids of the two}: position of the first
    count = len(ranked)
    for position in range(count - 1):
        rank = ranks[position]
        if (
            ranks[position + 1] == rank
            and (position == 0 or ranks[position - 1] != rank)
            and (position + 2 >= count or ranks[position + 2] != rank)
        ):
            pairs[frozenset((ids[ranked[position]], ids[ranked[position + 1]]))] = position
    if not pairs:
        return ranked, ranks, frozenset()

    meetings: dict[frozenset[int], list[tuple[int, int]]] = {pair: [] for pair in pairs}
    involved = frozenset().union(*pairs)
    for table in results:
        seats = table.seats
        if len(seats) == 2 and seats[0].player_id in involved:
            met = meetings.get(frozenset((seats[0].player_id, seats[1].player_id)))
            if met is not None and not seats[0].shared:
                winner, loser = seats if seats[0].placement < seats[1].placement else seats[::-1]
                met.append((winner.player_id, loser.player_id))

    ranked = list(ranked)
    ranks = list(ranks)
    decided: set[int] = set()
    for pair, position in pairs.items():
        first, second = ranked[position], ranked[position + 1]
        better = head_to_head(meetings[pair], ids[first], ids[second])
        if better is None:
            continue
        if better == ids[second]:
            ranked[position], ranked[position + 1] = second, first
        ranks[position + 1] = position + 2
        decided.update((first, second))
    return ranked, ranks, frozenset(decided)


def _tally_results(
    tally: _Tally, results: Sequence[TableResult], index: dict[int, int], scoring: Scoring, config: TiebreakConfig
) -> None:
    """Fill ``tally`` from ``results``: 1v1 tables through the fast path when it can, the rest carefully."""
    values = _pair_values(scoring)
    if values is not None:
        rest = _tally_pairs(tally, results, index, values, config)
        if rest is not None:
            _tally_carefully(tally, rest, index, scoring, config)
            return
    _tally_carefully(tally, results, index, scoring, config)


def _pair_values(scoring: Scoring) -> tuple[int, int, int] | None:
    """Points for a 1v1 win, draw and loss; None when the fast path cannot score 1v1 tables this way."""
    try:
        win = scoring.points_for(table_size=2, placement=1)
        draw = scoring.points_for(table_size=2, placement=1, shared=True)
        loss = scoring.points_for(table_size=2, placement=2)
        # Both seats placed 2nd is a loss for each: the fast path scores it as one.
        both_lost = scoring.points_for(table_size=2, placement=2, shared=True)
    except ValueError:
        return None
    return (win, draw, loss) if both_lost == loss else None


def _tally_pairs(
    tally: _Tally,
    results: Sequence[TableResult],
    index: dict[int, int],
    values: tuple[int, int, int],
    config: TiebreakConfig,
) -> list[TableResult] | None:
    """The fast path for 1v1 tables; returns the other tables for the careful loop.

    Returns None, having changed nothing, when a 1v1 table needs the careful
    loop (which then takes every table and words the error, if any).  Games
    are counted as if every match were one game won, lost or drawn; the
    tables with a game score are then put right, one by one.
    """
    count = len(tally.points)
    opponents: list[list[int]] = [[] for _ in range(count)]
    wins = [0] * count
    draws = [0] * count
    rest: list[TableResult] = []
    scored: list[tuple[int, int, TableResult]] = []
    try:
        for table in results:
            try:
                first, second = table.seats
            except ValueError:  # a bye or a pod: rare in a 1v1 event, and cheaper than a len() per table
                rest.append(table)
                continue
            i = index[first.player_id]
            j = index[second.player_id]
            if i == j:
                raise _NeedsCare
            if first.games is not None or second.games is not None:
                scored.append((i, j, table))
            opponents[i].append(j)
            opponents[j].append(i)
            placement = first.placement
            other = second.placement
            if placement == other:
                if not (first.shared and second.shared):
                    raise _NeedsCare
                if placement == 1:
                    draws[i] += 1
                    draws[j] += 1
                elif placement != 2:
                    raise _NeedsCare
            else:
                if first.shared or second.shared:
                    raise _NeedsCare
                if placement == 1 and other == 2:
                    wins[i] += 1
                elif placement == 2 and other == 1:
                    wins[j] += 1
                else:
                    raise _NeedsCare
    except (_NeedsCare, KeyError):
        return None

    game_win, game_draw = config.game_win_points, config.game_draw_points
    game_points = [won * game_win + drew * game_draw for won, drew in zip(wins, draws, strict=True)]
    games = [len(met) for met in opponents]
    for i, j, table in scored:
        first, second = table.seats
        score, mirror = first.games, second.games
        try:
            won, lost, drawn = score  # type: ignore[misc]
        except (TypeError, ValueError):
            return None
        # Both seats give the score, as each other's mirror, in whole numbers >= 0 (else the careful loop
        # words the error; one seat alone giving it is rare enough to leave to it too).
        if not (
            type(won) is int and type(lost) is int and type(drawn) is int
            and won >= 0 and lost >= 0 and drawn >= 0
            and mirror == (lost, won, drawn)
            and type(mirror[0]) is int and type(mirror[1]) is int and type(mirror[2]) is int
        ):  # fmt: skip
            return None
        # Take out the one game each seat was counted with, and put in the score.
        if first.placement == 1:
            game_points[i] += won * game_win + drawn * game_draw - (game_draw if first.shared else game_win)
            game_points[j] += lost * game_win + drawn * game_draw - (game_draw if second.shared else 0)
        else:
            game_points[i] += won * game_win + drawn * game_draw
            game_points[j] += lost * game_win + drawn * game_draw - (game_win if second.placement == 1 else 0)
        played = won + lost + drawn - 1
        games[i] += played
        games[j] += played

    win_value, draw_value, loss_value = values
    points, matches = tally.points, tally.matches
    for i, met in enumerate(opponents):
        played = len(met)
        if played:
            won = wins[i]
            drew = draws[i]
            points[i] = won * win_value + drew * draw_value + (played - won - drew) * loss_value
            matches[i] = played
    # The fast path runs first, on an empty tally: its lists can simply replace the tally's.
    tally.wins = wins
    tally.draws = draws
    tally.opponents = opponents
    tally.game_points = game_points
    tally.games = games
    return rest


def _tally_carefully(
    tally: _Tally, results: Sequence[TableResult], index: dict[int, int], scoring: Scoring, config: TiebreakConfig
) -> None:
    """Any tables, one at a time, validating each; the errors are worded here."""
    points, wins, draws, byes, matches = tally.points, tally.wins, tally.draws, tally.byes, tally.matches
    game_points, games, opponents = tally.game_points, tally.games, tally.opponents
    bye_points = scoring.bye_points
    game_win, game_draw = config.game_win_points, config.game_draw_points
    # The points of every seat shape, per table size, filled in the first time
    # a size is seen: a dict hit per seat instead of a points_for call.
    values_by_size: dict[int, dict[int, int]] = {}

    for table in results:
        seats = table.seats
        size = len(seats)
        if size == 1:
            seat = seats[0]
            try:
                i = index[seat.player_id]
            except KeyError:
                _reject_players(table, index)
            _check_bye(seat, round_number=table.round_number)
            won, lost, drawn = config.bye_games if seat.games is None else _check_games(seat.games, table)
            points[i] += bye_points
            wins[i] += 1
            byes[i] += 1
            matches[i] += 1
            game_points[i] += won * game_win + drawn * game_draw
            games[i] += won + lost + drawn
            continue

        values = values_by_size.get(size)
        if values is None:
            values = values_by_size[size] = _seat_values(scoring, table)
        if size == 2:
            # 1v1, by far the most common table: the general case below, unrolled.
            first, second = seats
            try:
                i = index[first.player_id]
                j = index[second.player_id]
            except KeyError:
                _reject_players(table, index)
            if i == j:
                _reject_players(table, index)
            placement_i = first.placement
            placement_j = second.placement
            shared = placement_i == placement_j
            if first.shared != shared or second.shared != shared:
                _reject_shared(table)
            value_i = values.get(2 * placement_i + shared)
            value_j = values.get(2 * placement_j + shared)
            if value_i is None or value_j is None:
                _reject_placements(table)
            points[i] += value_i
            points[j] += value_j
            matches[i] += 1
            matches[j] += 1
            opponents[i].append(j)
            opponents[j].append(i)
            if placement_i == 1:
                if shared:
                    draws[i] += 1
                    draws[j] += 1
                    games_i = games_j = _ONE_DRAWN
                else:
                    wins[i] += 1
                    games_i, games_j = _ONE_WON, _ONE_LOST
            elif placement_j == 1:
                wins[j] += 1
                games_i, games_j = _ONE_LOST, _ONE_WON
            else:
                games_i = games_j = _ONE_LOST
            if first.games is not None or second.games is not None:
                games_i, games_j = _match_games(table)
            won, lost, drawn = games_i
            game_points[i] += won * game_win + drawn * game_draw
            games[i] += won + lost + drawn
            won, lost, drawn = games_j
            game_points[j] += won * game_win + drawn * game_draw
            games[j] += won + lost + drawn
            continue

        try:
            seated = [index[seat.player_id] for seat in seats]
        except KeyError:
            _reject_players(table, index)
        if len(set(seated)) != size:
            _reject_players(table, index)
        placements = [seat.placement for seat in seats]
        for seat, i in zip(seats, seated, strict=True):
            placement = seat.placement
            shared = placements.count(placement) > 1
            if seat.shared != shared:
                _reject_shared(table)
            value = values.get(2 * placement + shared)
            if value is None:
                _reject_placements(table)
            points[i] += value
            matches[i] += 1
            if placement == 1:
                if shared:
                    draws[i] += 1
                else:
                    wins[i] += 1
            if seat.games is not None:
                raise ValueError(
                    f"a table of {size} in round {table.round_number} has game scores; only 1v1 matches do"
                )
            met = opponents[i]
            for j in seated:
                if j != i:
                    met.append(j)


#: A 1v1 match without game scores counts as one game (won, lost, drawn).
_ONE_WON, _ONE_LOST, _ONE_DRAWN = (1, 0, 0), (0, 1, 0), (0, 0, 1)


def _match_games(table: TableResult) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """Both seats' (won, lost, drawn) games at a 1v1 table where at least one seat gives them."""
    first, second = table.seats
    games_first, games_second = first.games, second.games
    if games_first is None:
        games_second = _check_games(games_second, table)
        return (games_second[1], games_second[0], games_second[2]), games_second
    games_first = _check_games(games_first, table)
    if games_second is None:
        return games_first, (games_first[1], games_first[0], games_first[2])
    games_second = _check_games(games_second, table)
    if games_second != (games_first[1], games_first[0], games_first[2]):
        raise ValueError(
            f"the game scores at a table in round {table.round_number} disagree: player {first.player_id} "
            f"{games_first}, player {second.player_id} {games_second} (won, lost, drawn)"
        )
    return games_first, games_second


def _check_games(games: object, table: TableResult) -> tuple[int, int, int]:
    try:
        # Unpacking checks the shape: a non-iterable raises TypeError, a wrong length ValueError.
        won, lost, drawn = cast(Iterable[object], games)
    except (TypeError, ValueError):
        won = lost = drawn = None
    if not (type(won) is int and type(lost) is int and type(drawn) is int and min(won, lost, drawn) >= 0):
        raise ValueError(
            f"a seat in round {table.round_number} has games={games!r}; expected (won, lost, drawn), each >= 0"
        )
    return won, lost, drawn


def _seat_values(scoring: Scoring, table: TableResult) -> dict[int, int]:
    """The points of each seat shape at a table the size of ``table``.

    Keyed by ``2 * placement + shared``, so the hot loop looks a seat up with
    one small int instead of building a tuple; a placement outside
    ``1..size`` has no key.
    """
    size = len(table.seats)
    if size == 0:
        raise ValueError(f"a table in round {table.round_number} has no seats")
    try:
        return {
            2 * placement + shared: scoring.points_for(table_size=size, placement=placement, shared=shared)
            for placement in range(1, size + 1)
            for shared in (False, True)
        }
    except ValueError as error:
        raise ValueError(f"round {table.round_number}: {error}") from None


def _check_bye(seat: SeatResult, *, round_number: int | None) -> None:
    if seat.placement != 1 or seat.shared:
        where = "" if round_number is None else f" in round {round_number}"
        raise ValueError(
            f"player {seat.player_id} has a one-seat table{where} (a bye) with "
            f"placement={seat.placement}, shared={seat.shared}; a bye is placement 1, not shared"
        )


def _reject_players(table: TableResult, index: Mapping[int, int]) -> NoReturn:
    for seat in table.seats:
        if seat.player_id not in index:
            raise ValueError(
                f"round {table.round_number} has a result for player {seat.player_id}, who is not in player_ids"
            )
    raise ValueError(f"a player is seated twice at one table in round {table.round_number}: {table}")


def _reject_shared(table: TableResult) -> NoReturn:
    raise ValueError(
        f"a table in round {table.round_number} has a shared flag that disagrees with its placements "
        "(shared must be True exactly for placements another seat also has): "
        + ", ".join(f"player {s.player_id} placed {s.placement} shared={s.shared}" for s in table.seats)
    )


def _reject_placements(table: TableResult) -> NoReturn:
    size = len(table.seats)
    raise ValueError(
        f"a table of {size} in round {table.round_number} has a placement outside 1..{size}: "
        + ", ".join(f"player {s.player_id} placed {s.placement}" for s in table.seats)
    )
