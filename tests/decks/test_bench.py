"""``manage.py bench decks`` prints a table and ends with one JSON line (figures are not asserted)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("card_catalogue")]


def test_the_decks_benchmark_ends_with_a_json_line_of_figures(settings):
    settings.REDIS_URL = None  # the Celery row needs its own worker: measured by hand, not in the suite
    out = io.StringIO()
    call_command("bench", "decks", "--quick", stdout=out)
    lines = out.getvalue().strip().splitlines()
    figures = json.loads(lines[-1])
    assert figures["area"] == "decks"
    assert figures["mt75_card_count"] == 75
    assert {"pokemon_import_s", "mt75_check_median_ms", "mt75_rules_median_ms", "celery_path"} <= set(figures)
    assert any("legal 75-card Master Trainer" in line for line in lines)
    # The legal deck is legal (the benchmark stops otherwise); the illegal one is measured apart.
    assert figures["mt76_illegal"]["card_count"] == 76
    assert figures["mt76_illegal"]["violations"] == ["deck_size", "singleton_species"]
