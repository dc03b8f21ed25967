"""``manage.py bench games`` prints a table and ends with one JSON line (figures are not asserted)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_the_games_benchmark_ends_with_a_json_line_of_figures():
    out = io.StringIO()
    call_command("bench", "games", "--quick", stdout=out)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    assert figures["area"] == "games"
    assert {"append_median_ms", "replay_10k_engine_ms", "replay_db_log_ms"} <= set(figures)
    assert figures["appends"] == 60
