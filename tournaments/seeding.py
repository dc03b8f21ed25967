"""Where seeding round 1 by rating reads the players' ratings.

Ratings live in the leagues app, above this one; it registers the function
that reads them (:func:`rating_source`) when it starts.  The round service asks
:func:`rating_ranks` for each player's place by displayed rating.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.translation import gettext as _

from core.exceptions import Conflict

#: ``(format slug, player ids) -> {player id: displayed rating}`` for the players who have one.
RatingSource = Callable[[str, Sequence[int]], dict[int, float]]

_source: RatingSource | None = None


def rating_source(source: RatingSource) -> RatingSource:
    global _source
    _source = source
    return source


def rating_ranks(format_slug: str, player_ids: Sequence[int]) -> dict[int, int]:
    """``{player id: place by rating}``, 1 = highest; players without a rating rank as a new player does (a
    displayed rating of 0), equal ratings share a place."""
    if _source is None:
        raise Conflict(_("Ratings are not available here: seed round 1 at random."), code="ratings_unavailable")
    ratings = _source(format_slug, player_ids)
    values = {p: ratings.get(p, 0.0) for p in player_ids}
    ordered = sorted(set(values.values()), reverse=True)
    place, ranks_by_value = 1, {}
    for value in ordered:
        ranks_by_value[value] = place
        place += sum(1 for v in values.values() if v == value)
    return {p: ranks_by_value[v] for p, v in values.items()}
