"""The top cut: how long the Swiss should be, how many players it cuts to, and the elimination bracket.

Pure Python, like the rest of :mod:`tournaments.pairing`: player ids and seeds
in, seat tuples out; no Django.  The service that runs an event's top cut
loads the final Swiss standings, calls these functions and writes the tables
back.

Terms
=====

cut / top cut
    After the Swiss rounds the best ``size`` players of the standings play a
    single-elimination playoff; everybody else is done.  ``0`` means no cut.
seed
    A player's Swiss rank among those who made the cut: 1 = best.  Seeds
    decide the bracket and the seats; they never change during the cut.
bracket order
    The order of the seeds down the bracket (and down the table numbers) in a
    1v1 cut: :func:`bracket_order`.  Adjacent pairs play each other in the
    first cut round; the winners of tables 1 and 2 meet next, and so on.
pod cut
    Multiplayer formats cut to one final pod (``pod_size`` players) or to
    ``pod_size`` semi-final pods whose winners form the final pod
    (``pod_size ** 2`` players).  Only the winner of a pod goes through.
seats
    A cut table is seated by seed, best seed first: seat 1 of a pod goes
    first; in 1v1 seat 1 is the better seed (who chooses play or draw).
final
    The last table of the cut: one table left (:func:`is_final`).

Recommended structures
======================

:func:`recommended_structure` returns Swiss rounds and cut size for an
attendance.  1v1 events follow a published table (``convention``); pod events
follow Podium's own rule, written out in that function's docstring.

``"pokemon"`` - Play! Pokémon Tournament Rules Handbook, structure "TCG Single
Day" (the League Cup structure, TRH 5.5.6.1).  The handbook counts players per
age division; Podium counts the players of the event.

=========  ============  =======
players    Swiss rounds  top cut
=========  ============  =======
4-8        3             none
9-12       4             top 4
13-20      5             top 4
21-32      5             top 8
33-64      6             top 8
65-128     7             top 8
129-226    8             top 8
227-409    9             top 8
410+       10            top 8
=========  ============  =======

The handbook PDF could not be read directly when this was written.  The table
is taken from two independent secondary sources that quote it and agree row
for row: a research note that cites TRH 5.5.6.1 (revision of September 1,
2026, "unchanged since January 1, 2025"; it gives *elimination rounds*, 2 or
3, from which the cut of 4 or 8 follows) and the cut rules of another
organiser tool that cites the May 21, 2026 revision.  A top 2 for 9-12
players and a top 16 or top 32 for the largest fields, as some remember older
handbooks, appear in neither source and are not used.

``"magic"`` and ``"classic"`` - Magic Tournament Rules, Appendix E
("Recommended Number of Rounds in Swiss Tournaments"), read from the Magic
judges' published copy of the appendix:

=========  =============  =======
players    Swiss rounds   playoff
=========  =============  =======
5-8        3 (see below)  none
9-16       5              top 4
17-32      5              top 8
33-64      6              top 8
65-128     7              top 8
129-226    8              top 8
227-409    9              top 8
410+       10             top 8
=========  =============  =======

For 9-16 players the appendix has two rows: 4 rounds and a top 8 when the
playoff is a booster draft (Limited), 5 rounds and a top 4 for all other
formats.  Podium uses the second.  For 5-8 players the appendix recommends 3
rounds of single elimination and no Swiss; Podium does not run a pure
single-elimination event, so it recommends 3 Swiss rounds and no cut instead:
the same number of rounds, and with 8 players exactly one player can finish
3-0.

Below both tables (2-3 players for ``"pokemon"``, 2-4 for ``"magic"``; MTR's
4-player row is for team events only) Podium recommends ``ceil(log2(players))``
Swiss rounds and no cut.

Contract
========

* Every function checks its arguments and raises :class:`PairingError` for a
  caller's mistake (wrong type, out of range, a cut of the wrong size, a
  winner who did not sit at the table they won, a bracket already finished).
  Nothing is random: the same arguments always give the same answer.
* A 1v1 cut that is not a power of two gives its top seeds *cut byes*: a table
  of one each in the first cut round, which they win (:func:`cut_byes`).  A pod
  cut has ``pod_size`` or ``pod_size ** 2`` players, or between them ``k`` top
  seeds straight into the final pod (:func:`pod_cut_byes`); ``pod_size`` in
  3..5.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeGuard

from tournaments.pairing.types import PairingError

__all__ = [
    "CONVENTIONS",
    "Structure",
    "attendance_rows",
    "bracket_order",
    "cut_byes",
    "cut_sizes",
    "first_cut_round",
    "is_final",
    "next_cut_round",
    "pod_cut_byes",
    "recommended_structure",
]

#: The 1v1 conventions :func:`recommended_structure` knows.  ``"classic"`` uses the Magic table.
CONVENTIONS = ("pokemon", "magic", "classic")

#: Pod sizes a pod cut supports.
MIN_POD_SIZE = 3
MAX_POD_SIZE = 5

#: Cut sizes an organiser may pick for a 1v1 event, largest last: the powers of two, and 6, 12 and 24, whose top
#: seeds get byes into the second round (a top 6 is a bracket of 8 where seeds 1 and 2 have a bye).
ONE_VS_ONE_CUTS = (2, 4, 6, 8, 12, 16, 24, 32)

_POKEMON_SOURCE = "Play! Pokémon Tournament Rules Handbook, TCG Single Day structure (Swiss rounds and top cut table)"
_MAGIC_SOURCE = "Magic Tournament Rules, Appendix E"

# (largest attendance of the row, Swiss rounds, top cut); the last row has no upper bound.
_POKEMON_TABLE: tuple[tuple[int | None, int, int], ...] = (
    (8, 3, 0),
    (12, 4, 4),
    (20, 5, 4),
    (32, 5, 8),
    (64, 6, 8),
    (128, 7, 8),
    (226, 8, 8),
    (409, 9, 8),
    (None, 10, 8),
)
_MAGIC_TABLE: tuple[tuple[int | None, int, int], ...] = (
    (8, 3, 0),  # MTR: 3 rounds of single elimination, no Swiss (see the module docstring)
    (16, 5, 4),
    (32, 5, 8),
    (64, 6, 8),
    (128, 7, 8),
    (226, 8, 8),
    (409, 9, 8),
    (None, 10, 8),
)
# convention -> (table, source, smallest attendance the table covers: below it Podium's own rule applies)
_TABLES: dict[str, tuple[tuple[tuple[int | None, int, int], ...], str, int]] = {
    "pokemon": (_POKEMON_TABLE, _POKEMON_SOURCE, 4),
    "magic": (_MAGIC_TABLE, _MAGIC_SOURCE, 5),
    "classic": (_MAGIC_TABLE, _MAGIC_SOURCE, 5),
}


@dataclass(frozen=True, slots=True)
class Structure:
    """A recommended event structure: Swiss rounds, then a cut."""

    #: Recommended number of Swiss rounds.
    swiss_rounds: int
    #: Recommended cut size; 0 = no cut.
    top_cut: int
    #: Where the recommendation comes from, for people to read.
    source: str


def attendance_table(*, tiebreakers: str, family: str) -> str:
    """Which attendance table an event follows: its tiebreaker convention when that is Pokémon or
    Magic, otherwise its game's (the Pokémon table for Pokémon TCG formats, the Magic table else)."""
    if tiebreakers in ("pokemon", "magic"):
        return tiebreakers
    return "pokemon" if family == "pokemon" else "magic"


def recommended_structure(players: int, *, convention: str, pod_size: int | None = None) -> Structure:
    """The recommended Swiss rounds and cut for ``players`` players.

    1v1 (``pod_size`` is ``None``): the row of the ``convention``'s table
    (``"pokemon"``, ``"magic"``, or ``"classic"`` which is the Magic table) that
    holds ``players``; the tables and their sources are in the module
    docstring.  Below a table's first row: ``ceil(log2(players))`` rounds, no
    cut.  Fewer than 2 players: :class:`PairingError`.

    Pods (``pod_size`` = the preferred pod size ``P``, 3 to 5): no published
    table exists, so this is Podium's own rule; ``convention`` is checked but
    not used.

    * Swiss rounds: the smallest ``k`` with ``P ** k >= players``, plus one.
      ``k`` rounds are enough for one player to win a pod every round (each
      pod has one winner, so each round divides the unbeaten players by
      ``P``); the extra round absorbs drawn pods and spreads who goes first.
      Pods of 4: 4 players 2 rounds, 5-16 players 3, 17-64 4, 65-256 5.
    * Cut: none below ``2 * P`` players (a final pod would hold more than half
      the field); one final pod (``P``) from ``2 * P`` players; ``P`` semi-final
      pods and a final (``P ** 2``) from ``4 * P ** 2`` players, so a cut that
      costs two extra rounds takes at most a quarter of the field.  Pods of 4:
      no cut below 8, top 4 from 8, top 16 from 64.
    * Fewer players than ``P``: :class:`PairingError`.
    """
    _check_count(players, "players")
    if convention not in CONVENTIONS:
        raise PairingError(f"convention must be one of {', '.join(CONVENTIONS)}, not {convention!r}")
    if pod_size is not None:
        return _pod_structure(players, _checked_pod_size(pod_size))
    if players < 2:
        raise PairingError(f"a 1v1 event needs at least 2 players, not {players}")
    table, source, floor = _TABLES[convention]
    if players < floor:
        return Structure(
            swiss_rounds=_ceil_log(players, 2),
            top_cut=0,
            source=f"Podium's rule below the table of {source} ({floor}+ players): ceil(log2(players)) rounds, no cut",
        )
    for largest, rounds, cut in table:
        if largest is None or players <= largest:
            return Structure(swiss_rounds=rounds, top_cut=cut, source=source)
    raise AssertionError("the last row of every table is open-ended")  # pragma: no cover


def attendance_rows(*, convention: str, pod_size: int | None = None) -> tuple[tuple[int, int | None, Structure], ...]:
    """The recommendation as a table: ``(fewest players, most players or None, structure)`` for every run of
    attendances with the same Swiss rounds and cut, smallest first.

    1v1: from 2 players to the open-ended last row of the convention's table.  Pods: from ``pod_size`` players up
    to ``4 * pod_size ** 4`` (pods of 4: 1,024), where the last row stops: the rule has no last row.
    """
    smallest = 2 if pod_size is None else _checked_pod_size(pod_size)
    if pod_size is None:
        if convention not in CONVENTIONS:
            raise PairingError(f"convention must be one of {', '.join(CONVENTIONS)}, not {convention!r}")
        table, _, _ = _TABLES[convention]
        largest = max(row[0] for row in table if row[0] is not None) + 1
    else:
        largest = 4 * pod_size**4
    rows: list[tuple[int, int | None, Structure]] = []
    for players in range(smallest, largest + 1):
        structure = recommended_structure(players, convention=convention, pod_size=pod_size)
        if rows and (rows[-1][2].swiss_rounds, rows[-1][2].top_cut) == (structure.swiss_rounds, structure.top_cut):
            rows[-1] = (rows[-1][0], players, rows[-1][2])
        else:
            rows.append((players, players, structure))
    if pod_size is None:
        rows[-1] = (rows[-1][0], None, rows[-1][2])
    return tuple(rows)


def cut_sizes(*, players: int, pod_size: int | None = None) -> tuple[int, ...]:
    """The cut sizes an organiser may choose for this attendance, smallest first.

    1v1: the sizes of :data:`ONE_VS_ONE_CUTS` that do not exceed ``players``.
    Pods: a final pod (``pod_size``), semi-final pods (``pod_size ** 2``), and
    between them the cuts whose top seeds go straight to the final pod
    (:func:`pod_cut_byes`: in pods of 4, a top 7, 10 or 13).  "No cut" (0) is
    always allowed and not listed.
    """
    _check_count(players, "players")
    sizes: tuple[int, ...]
    if pod_size is None:
        sizes = ONE_VS_ONE_CUTS
    else:
        p = _checked_pod_size(pod_size)
        sizes = tuple(p + j * (p - 1) for j in range(p + 1))  # k byes: k + (p - k) * p players, k = p .. 0
    return tuple(size for size in sizes if size <= players)


def cut_byes(size: int, *, pod_size: int | None = None) -> int:
    """How many top seeds of a cut of ``size`` skip its first round (a *cut bye*): they sit alone at a table of
    their own, which they win, and meet the first round's winners in the second.

    1v1: the bracket is the next power of two, and the seeds without an opponent in it have the byes (a top 6:
    seeds 1 and 2; a top 12: seeds 1-4).  Pods: :func:`pod_cut_byes`.  :class:`PairingError` for a size the cut
    cannot take.
    """
    if pod_size is not None:
        return pod_cut_byes(size, pod_size=pod_size)
    if not _is_int(size) or size < 2:
        raise PairingError(f"a 1v1 cut needs at least 2 players, not {size!r}")
    bracket = 1 << (size - 1).bit_length()
    return bracket - size


def pod_cut_byes(size: int, *, pod_size: int) -> int:
    """Pods of ``P``: the top ``k`` seeds go straight to the final pod and the other ``size - k`` play ``P - k``
    semi-final pods of ``P``, whose winners fill the final pod: ``size = k + (P - k) * P``.  A final pod alone
    (``size == P``) has no byes to speak of: 0.  In pods of 4: a top 13 has 1 bye, a top 10 two, a top 7 three.
    """
    p = _checked_pod_size(pod_size)
    if size == p:
        return 0
    if not _is_int(size) or size < p or size > p * p or (p * p - size) % (p - 1):
        raise PairingError(
            f"a cut in pods of {p} takes {', '.join(str(p + j * (p - 1)) for j in range(p + 1))} players, not {size!r}"
        )
    return (p * p - size) // (p - 1)


def bracket_order(size: int) -> tuple[int, ...]:
    """Seeds ``1..size`` in bracket order: adjacent pairs meet in the first round.

    The standard single-elimination bracket: the order for ``2 * n`` seats each
    seed ``s`` of the order for ``n`` next to its mirror ``2 * n + 1 - s``.  So
    seed ``s`` opens against ``size + 1 - s``, and when the better seed always
    wins the last ``2 ** k`` players are seeds ``1..2 ** k``: 1 and 2 meet only
    in the final, the top four only in the semi-finals.  ``size`` must be a
    power of two of at least 2; else :class:`PairingError`.
    """
    _check_power_of_two(size)
    order = [1, 2]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seat for seed in order for seat in (seed, mirror - seed)]
    return tuple(order)


def first_cut_round(seeded: Sequence[int], *, pod_size: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The tables of the first cut round, in table order; each table's seats by seed, best first.

    ``seeded`` holds the ids of the players who made the cut, seed 1 first.

    * 1v1: the tables follow :func:`bracket_order` of the next power of two:
      with 8 players 1v8, 4v5, 2v7, 3v6.  A seed whose opponent in that
      bracket does not exist has a table of one (a cut bye): a top 6 is
      (1,), 4v5, (2,), 3v6.
    * Pods, ``len(seeded) == pod_size``: one final pod.
    * Pods, ``k`` cut byes (:func:`pod_cut_byes`): seeds ``1..k`` each at a
      table of one, first; the others in ``pod_size - k`` semi-final pods
      filled snake-wise as below.
    * Pods, ``len(seeded) == pod_size ** 2``: ``pod_size`` semi-final pods
      filled snake-wise: seeds ``1..P`` go to pods A..P in order, the next ``P``
      seeds back from the last pod to A, and so on.  16 players in pods of 4:
      A = 1, 8, 9, 16; B = 2, 7, 10, 15; C = 3, 6, 11, 14; D = 4, 5, 12, 13.
      The top ``P`` seeds are in different pods and every pod gets one player
      from each band of ``P`` seeds.

    Any other length, a repeated id, or an id that is not an integer:
    :class:`PairingError`.
    """
    ids = _checked_ids(seeded, "seeded")
    n = len(ids)
    if pod_size is None:
        if n < 2:
            raise PairingError(f"a 1v1 cut needs at least 2 players, not {n}")
        size = n + cut_byes(n)
        order = bracket_order(size)
        pairs = (sorted(order[i : i + 2]) for i in range(0, size, 2))
        return tuple((ids[better - 1], ids[worse - 1]) if worse <= n else (ids[better - 1],) for better, worse in pairs)
    p = _checked_pod_size(pod_size)
    if n == p:
        return (tuple(ids),)
    byes = pod_cut_byes(n, pod_size=p)
    pods: list[list[int]] = [[] for _ in range(p - byes)]
    rest = ids[byes:]
    for band in range(p):
        members = rest[band * (p - byes) : (band + 1) * (p - byes)]
        if band % 2:
            members = members[::-1]
        for pod, player in zip(pods, members, strict=True):
            pod.append(player)
    return tuple((player,) for player in ids[:byes]) + tuple(tuple(pod) for pod in pods)


def next_cut_round(
    previous: Sequence[Sequence[int]],
    winners: Mapping[int, int] | Sequence[int],
    seed_of: Mapping[int, int],
    *,
    pod_size: int | None = None,
) -> tuple[tuple[int, ...], ...]:
    """The tables of the next cut round from the previous round's tables and winners.

    ``previous`` is the previous cut round's tables (seat tuples) in table
    order.  ``winners`` names each table's winner: a sequence aligned with
    ``previous`` (``winners[i]`` won ``previous[i]``) or a mapping from table
    number (1 = the first table of ``previous``, as in
    :attr:`~tournaments.pairing.types.Table.number`) to the winner's id, with
    exactly one entry per table.  ``seed_of`` maps player ids to seeds; every
    winner needs one, and the winners' seeds must differ.

    * 1v1: the winners of tables 1 and 2 meet at table 1, of tables 3 and 4 at
      table 2, and so on, so the bracket keeps its order; seats by seed, better
      seed first.  ``previous`` must be an even number of two-seat tables.
    * Pods: the winners of the ``pod_size`` semi-final pods form the final
      pod, seated by seed.
    * One previous table is the final: :class:`PairingError` ("the final has
      been played").

    Also :class:`PairingError` for a winner who did not sit at the table they
    won, a player seated twice, a number of winners that does not match the
    tables, or a missing seed.
    """
    p = None if pod_size is None else _checked_pod_size(pod_size)
    tables = [_checked_ids(table, f"table {number}") for number, table in enumerate(previous, start=1)]
    if not tables:
        raise PairingError("previous must hold the tables of the previous cut round, not nothing")
    if len(tables) == 1:
        raise PairingError("the final has been played: there is no next cut round")
    if p is None and len(tables) % 2:
        raise PairingError(f"a 1v1 cut round has an even number of tables before the final, not {len(tables)}")
    if p is not None and len(tables) != p:
        raise PairingError(f"a semi-final round in pods of {p} has {p} pods, not {len(tables)}")
    seated: set[int] = set()
    for number, table in enumerate(tables, start=1):
        if p is None and len(table) not in (1, 2):
            raise PairingError(f"table {number} has {len(table)} seats: a 1v1 cut table has 2 (1: a cut bye)")
        if seated.intersection(table):
            raise PairingError(f"table {number} seats a player who is already seated at another table")
        seated.update(table)
    won = _winners_by_table(winners, len(tables))
    for number, (table, winner) in enumerate(zip(tables, won, strict=True), start=1):
        if winner not in table:
            raise PairingError(f"player {winner!r} is named the winner of table {number} but was not seated there")
    seeds = _seeds_of(won, seed_of)

    def by_seed(players: Sequence[int]) -> tuple[int, ...]:
        return tuple(sorted(players, key=seeds.__getitem__))

    if p is None:
        return tuple(by_seed(won[i : i + 2]) for i in range(0, len(won), 2))
    return (by_seed(won),)


def is_final(tables: Sequence[Sequence[int]]) -> bool:
    """Whether these cut-round tables are the final: exactly one table left."""
    return len(tables) == 1


# --- checks -------------------------------------------------------------------------------------


def _is_int(value: object) -> TypeGuard[int]:
    """An integer that is not a bool (``True`` is not a player count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_count(value: object, name: str) -> None:
    if not _is_int(value) or value < 0:
        raise PairingError(f"{name} must be a non-negative integer, not {value!r}")


def _check_power_of_two(size: object) -> None:
    if not _is_int(size) or size < 2 or size & (size - 1):
        raise PairingError(f"a bracket size must be a power of two of at least 2, not {size!r}")


def _checked_pod_size(pod_size: object) -> int:
    if not _is_int(pod_size) or not MIN_POD_SIZE <= pod_size <= MAX_POD_SIZE:
        raise PairingError(f"pod_size must be an integer from {MIN_POD_SIZE} to {MAX_POD_SIZE}, not {pod_size!r}")
    return pod_size


def _checked_ids(ids: object, name: str) -> list[int]:
    if isinstance(ids, str | bytes) or not isinstance(ids, Sequence):
        raise PairingError(f"{name} must be a sequence of player ids, not {type(ids).__name__}")
    checked = list(ids)
    if not all(_is_int(i) for i in checked):
        raise PairingError(f"{name}: player ids must be integers, not {checked!r}")
    if len(set(checked)) != len(checked):
        raise PairingError(f"{name}: a player appears twice in {checked!r}")
    return checked


def _ceil_log(n: int, base: int) -> int:
    """The smallest ``k >= 0`` with ``base ** k >= n``, in integers (no float rounding)."""
    k, reach = 0, 1
    while reach < n:
        k, reach = k + 1, reach * base
    return k


def _pod_structure(players: int, p: int) -> Structure:
    if players < p:
        raise PairingError(f"an event in pods of {p} needs at least {p} players, not {players}")
    if players >= 4 * p * p:
        cut = p * p
    elif players >= 2 * p:
        cut = p
    else:
        cut = 0
    return Structure(
        swiss_rounds=_ceil_log(players, p) + 1,
        top_cut=cut,
        source=f"Podium's rule for pods of {p} (no published table): ceil(log{p}(players)) + 1 rounds; "
        f"top {p} from {2 * p} players, top {p * p} from {4 * p * p}",
    )


def _winners_by_table(winners: object, tables: int) -> list[int]:
    if isinstance(winners, Mapping):
        expected = set(range(1, tables + 1))
        if set(winners) != expected:
            raise PairingError(
                f"winners must map each table number 1..{tables} to its winner, not tables {sorted(winners, key=repr)!r}"
            )
        won = [winners[number] for number in range(1, tables + 1)]
    elif isinstance(winners, Sequence) and not isinstance(winners, str | bytes):
        won = list(winners)
        if len(won) != tables:
            raise PairingError(f"{len(won)} winner(s) for {tables} table(s): name one winner per table")
    else:
        raise PairingError(f"winners must be a sequence or a mapping of table numbers, not {type(winners).__name__}")
    if not all(_is_int(w) for w in won):
        raise PairingError(f"winners must be player ids (integers), not {won!r}")
    return won


def _seeds_of(players: Sequence[int], seed_of: Mapping[int, int]) -> dict[int, int]:
    if not isinstance(seed_of, Mapping):
        raise PairingError(f"seed_of must map player ids to seeds, not {type(seed_of).__name__}")
    missing = [p for p in players if p not in seed_of]
    if missing:
        raise PairingError(f"no seed for player(s) {missing!r}")
    seeds = {p: seed_of[p] for p in players}
    if not all(_is_int(s) for s in seeds.values()):
        raise PairingError(f"seeds must be integers, not {seeds!r}")
    if len(set(seeds.values())) != len(seeds):
        raise PairingError(f"two winners share a seed: {seeds!r}")
    return seeds
