"""Points tables and their presets (terms in :mod:`leagues.points`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The most bands a placement table may have, and the longest pod table (a pod seats at most 5).
MAX_BANDS = 64
MAX_POD = 8
#: No single part of a table is worth more than this (points are stored as whole numbers).
MAX_POINTS = 10_000


@dataclass(frozen=True, slots=True)
class PointsTable:
    """What one event is worth to a player; see the package docstring."""

    #: ``(down to placing, points)`` bands, placings strictly increasing: ``((1, 15), (2, 12), (4, 10))``.
    placement: tuple[tuple[int, int], ...] = ()
    match_win: int = 0
    match_draw: int = 0
    #: Points for 1st, 2nd, ... at a pod table of the Swiss rounds.
    pod_placement: tuple[int, ...] = ()
    attendance: int = 0
    #: Count only the player's best N events (``None``: all).
    best_n: int | None = None

    def __post_init__(self) -> None:
        for name in ("match_win", "match_draw", "attendance"):
            _check_points(name, getattr(self, name))
        if len(self.placement) > MAX_BANDS:
            raise ValueError(f"placement: at most {MAX_BANDS} bands")
        last = 0
        for band in self.placement:
            if len(band) != 2 or not all(_is_int(v) for v in band):
                raise ValueError("placement: each band is [down to placing, points]")
            down_to, points = band
            if down_to <= last:
                raise ValueError("placement: bands go down the placings, each below the one before (1, 2, 4, 8 ...)")
            _check_points("placement", points)
            last = down_to
        if len(self.pod_placement) > MAX_POD:
            raise ValueError(f"pod_placement: at most {MAX_POD} places")
        for points in self.pod_placement:
            _check_points("pod_placement", points)
        if self.best_n is not None and (not _is_int(self.best_n) or not 1 <= self.best_n <= 1000):
            raise ValueError("best_n: a whole number from 1 to 1000, or null for every event")

    def placement_points(self, placing: int) -> int:
        for down_to, points in self.placement:
            if placing <= down_to:
                return points
        return 0

    def pod_points(self, placement: int, sharing: int) -> int:
        """Points for a pod place shared by ``sharing`` players (1 = not shared): the mean of the places they
        cover, rounded down."""
        places = [self.pod_placement[p - 1] if p <= len(self.pod_placement) else 0
                  for p in range(placement, placement + sharing)]  # fmt: skip
        return sum(places) // len(places)

    def as_json(self) -> dict[str, Any]:
        return {
            "placement": [list(band) for band in self.placement],
            "match_win": self.match_win,
            "match_draw": self.match_draw,
            "pod_placement": list(self.pod_placement),
            "attendance": self.attendance,
            "best_n": self.best_n,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PointsTable:
        """A table from its JSON shape (missing parts are zero); ``ValueError`` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError("a points table is an object")
        unknown = sorted(set(data) - {"placement", "match_win", "match_draw", "pod_placement", "attendance", "best_n"})
        if unknown:
            raise ValueError(f"unknown part(s) of a points table: {', '.join(unknown)}")
        placement = data.get("placement") or []
        pods = data.get("pod_placement") or []
        if not isinstance(placement, list | tuple) or not all(isinstance(b, list | tuple) for b in placement):
            raise ValueError("placement: a list of [down to placing, points] bands")
        if not isinstance(pods, list | tuple):
            raise ValueError("pod_placement: a list of points, 1st place first")
        values = {k: data.get(k, 0) for k in ("match_win", "match_draw", "attendance")}
        for name, value in values.items():
            if not _is_int(value):
                raise ValueError(f"{name}: a whole number of points")
        if not all(_is_int(p) for p in pods):
            raise ValueError("pod_placement: a list of points, 1st place first")
        return cls(
            placement=tuple(tuple(band) for band in placement),
            pod_placement=tuple(pods),
            best_n=data.get("best_n"),
            **values,
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_points(name: str, value: object) -> None:
    if not _is_int(value) or not 0 <= value <= MAX_POINTS:  # type: ignore[operator]
        raise ValueError(f"{name}: whole points from 0 to {MAX_POINTS}")


@dataclass(frozen=True, slots=True)
class Preset:
    slug: str
    label: str
    description: str
    table: PointsTable


#: The presets a season starts from (then edits as it likes).  ``balanced`` is the default.
PRESETS: dict[str, Preset] = {
    p.slug: p
    for p in (
        Preset(
            "balanced",
            "Balanced league night",
            "Placing (1st 8, 2nd 6, 3rd-4th 4, 5th-8th 2), 2 a match win and 1 a draw, pods 3/2/1/0, 2 for attending.",
            PointsTable(
                placement=((1, 8), (2, 6), (4, 4), (8, 2)),
                match_win=2,
                match_draw=1,
                pod_placement=(3, 2, 1, 0),
                attendance=2,
            ),  # fmt: skip
        ),
        Preset(
            "placement",
            "Final placing (cup style)",
            "Placing only, the top cut counted: 1st 15, 2nd 12, 3rd-4th 10, 5th-8th 8, 9th-16th 4.",
            PointsTable(placement=((1, 15), (2, 12), (4, 10), (8, 8), (16, 4))),
        ),
        Preset(
            "match_wins",
            "Match wins",
            "3 a match win, 1 a draw (a bye is a win), 1 for attending.",
            PointsTable(match_win=3, match_draw=1, attendance=1),
        ),
        Preset(
            "pods",
            "Pod placings",
            "Each pod: 1st 4, 2nd 3, 3rd 2, 4th 1 (a bye is a 1st), 1 for attending.",
            PointsTable(pod_placement=(4, 3, 2, 1), attendance=1),
        ),
        Preset(
            "attendance",
            "Attendance",
            "1 point for every event played: the season rewards turning up.",
            PointsTable(attendance=1),
        ),
    )
}


def preset(slug: str) -> Preset:
    try:
        return PRESETS[slug]
    except KeyError:
        raise ValueError(f"unknown preset {slug!r}; known: {', '.join(PRESETS)}") from None
