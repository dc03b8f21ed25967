"""A league task that finds its job held by another run asks to run again later (it once crashed on a name)."""

from __future__ import annotations

import pytest
from celery.exceptions import Retry

from core import jobs
from leagues import tasks
from leagues.tasks import ratings_key, season_key


@pytest.mark.parametrize(
    ("task", "argument", "key"),
    [(tasks.update_ratings, "deck-masters", ratings_key("deck-masters")), (tasks.recompute_season, 1, season_key(1))],
    ids=["ratings", "season"],
)
def test_a_busy_job_is_retried_not_crashed(task, argument, key) -> None:
    with jobs.claim(key) as held:
        assert held
        with pytest.raises(Retry):
            task.apply(args=[argument], throw=True)
