"""The standings engine.  Terms and the contract are in the package docstring.

It is written for speed in plain Python: players are mapped once to dense
list indices and every per-player figure lives in a flat list.  1v1 tables,
by far the most common, go through a fast path: one tight loop that reads
each table once, validates it with a few comparisons, counts wins and draws
and records the opponents; points, matches and losses follow from those
counts afterwards.  Anything else (a pod, a bye, a table the fast path
cannot vouch for, game scores a convention ranks on) goes through the
careful loop, which also words the errors.  Each tiebreaker is then one pass
over the flat lists (:mod:`tournaments.standings.tiebreakers`).  Nothing
loops over pairs of players, so the cost grows with the number of seats
reported.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from itertools import starmap
from typing import NoReturn, cast

from rules.base import Scoring
from tournaments.standings.tiebreakers import (
    CONVENTIONS,
    GAME_WIN_PCT,
    HEAD_TO_HEAD,
    LATE_ENTRY,
    OPP_GAME_WIN_PCT,
    OPP_MATCH_WIN_PCT,
    OPP_OPP_MATCH_WIN_PCT,
    TiebreakConfig,
    game_win_pcts,
    head_to_head,
    match_win_pcts,
    opponent_means,
)

#: Decimals the tiebreakers are published with, and compared at.
DECIMALS = 6


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


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings, with the tiebreakers that placed it.

    Figures that mean nothing at the event's tables are 0.0
    (``opp_avg_points`` outside pods, the game-win figures in pods).
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

    index: dict[int, int] = {}
    for player_id in player_ids:
        if player_id in index:
            raise ValueError(f"player {player_id} is listed twice in player_ids")
        index[player_id] = len(index)
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

    tally = _Tally(count)
    _tally_results(tally, results, index, scoring, config)
    points, wins, draws, byes, matches = tally.points, tally.wins, tally.draws, tally.byes, tally.matches
    opponents = tally.opponents
    if late_rounds:
        for i, missed in enumerate(late):
            if missed:
                matches[i] += missed

    is_dropped = [player_id in dropped_ids for player_id in ids]
    mwp = match_win_pcts(
        points=points, wins=wins, draws=draws, matches=matches, byes=byes, bye_points=scoring.bye_points,
        dropped=is_dropped, config=config, win_points=win_points,
    )  # fmt: skip
    omw_exact = opponent_means(opponents, mwp)
    omw = [round(value, DECIMALS) for value in omw_exact]
    oomw = [round(value, DECIMALS) for value in opponent_means(opponents, omw_exact)]

    zeros = [0.0] * count
    opp_avg = gwp = ogw = zeros
    if multiplayer:
        per_match = [points[i] / matches[i] if matches[i] else 0.0 for i in range(count)]
        opp_avg = [round(value, DECIMALS) for value in opponent_means(opponents, per_match)]
        # Whatever the convention: its late-entry penalty and head-to-head are 1v1 Swiss conventions.
        order: tuple[str, ...] = ("opp_avg_points", OPP_MATCH_WIN_PCT, OPP_OPP_MATCH_WIN_PCT)
    else:
        order = config.order
        # Published by every convention (the game scores say them); only the Magic one ranks on them.
        raw = game_win_pcts(points=tally.game_points, games=tally.games, config=config)
        floor = config.game_win_pct_floor
        ogw = [round(v, DECIMALS) for v in opponent_means(opponents, [max(g, floor) for g in raw])]
        gwp = [round(value, DECIMALS) for value in raw]

    # Descending on every figure (ascending on rounds missed), then ascending player id:
    # sorting by id first, then (stably) by the key, keeps both sorts' keys C-level.
    columns: dict[str, Callable[[], Sequence[float]]] = {
        LATE_ENTRY: lambda: late,
        "opp_avg_points": lambda: [-v for v in opp_avg],
        OPP_MATCH_WIN_PCT: lambda: [-v for v in omw],
        OPP_OPP_MATCH_WIN_PCT: lambda: [-v for v in oomw],
        GAME_WIN_PCT: lambda: [-v for v in gwp],
        OPP_GAME_WIN_PCT: lambda: [-v for v in ogw],
    }
    keys = list(zip([-p for p in points], *(columns[name]() for name in order if name != HEAD_TO_HEAD), strict=True))
    ranked = sorted(sorted(range(count), key=ids.__getitem__), key=keys.__getitem__)
    ranks = _ranks(ranked, keys)
    decided: frozenset[int] = frozenset()
    if HEAD_TO_HEAD in order and not multiplayer:
        ranked, ranks, decided = _break_ties_head_to_head(ranked, ranks, ids, results)

    # One row per player in ranked order, assembled column by column at C speed.
    losses = [m - w - d for m, w, d in zip(matches, wins, draws, strict=True)]
    head_to_head_decided = [i in decided for i in range(count)] if decided else [False] * count
    columns_in_rank_order = (
        map(column.__getitem__, ranked)
        for column in (
            ids, points, wins, draws, losses, byes, matches, omw, oomw, opp_avg, is_dropped, gwp, ogw,
            head_to_head_decided, late,
        )
    )  # fmt: skip
    return list(starmap(_standing, zip(ranks, *columns_in_rank_order, strict=True)))


# A frozen dataclass's ``__init__`` stores each field through
# ``object.__setattr__``, which made building the output the slowest step for
# large events.  The slots' own descriptors store the same values in about
# half the time; the result is an ordinary, equal, frozen ``Standing``.
_new_object = object.__new__
_FIELDS = (
    "rank", "player_id", "points", "wins", "draws", "losses", "byes", "matches", "opp_match_win_pct",
    "opp_opp_match_win_pct", "opp_avg_points", "dropped", "game_win_pct", "opp_game_win_pct", "head_to_head",
    "late_rounds",
)  # fmt: skip
if tuple(field.name for field in fields(Standing)) != _FIELDS:
    raise ImportError("Standing's fields changed: update _FIELDS and _standing() in tournaments/standings/engine.py")
(
    _set_rank, _set_player_id, _set_points, _set_wins, _set_draws, _set_losses, _set_byes, _set_matches,
    _set_omw, _set_oomw, _set_opp_avg, _set_dropped, _set_gwp, _set_ogw, _set_h2h, _set_late,
) = (getattr(Standing, name).__set__ for name in _FIELDS)  # fmt: skip


def _standing(
    rank: int, player_id: int, points: int, wins: int, draws: int, losses: int, byes: int, matches: int,
    omw: float, oomw: float, opp_avg: float, dropped: bool, gwp: float, ogw: float, h2h: bool, late: int,
) -> Standing:  # fmt: skip
    """``Standing(...)`` with every field given positionally, built without the frozen ``__init__``."""
    standing = _new_object(Standing)
    _set_rank(standing, rank)
    _set_player_id(standing, player_id)
    _set_points(standing, points)
    _set_wins(standing, wins)
    _set_draws(standing, draws)
    _set_losses(standing, losses)
    _set_byes(standing, byes)
    _set_matches(standing, matches)
    _set_omw(standing, omw)
    _set_oomw(standing, oomw)
    _set_opp_avg(standing, opp_avg)
    _set_dropped(standing, dropped)
    _set_gwp(standing, gwp)
    _set_ogw(standing, ogw)
    _set_h2h(standing, h2h)
    _set_late(standing, late)
    return standing


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
