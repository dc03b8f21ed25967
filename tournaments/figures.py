"""The tournaments' figures in ``/metrics`` (core.metrics): how far the stored standings lag the results."""

from __future__ import annotations

from collections.abc import Iterator

from django.utils import timezone
from prometheus_client.metrics_core import GaugeMetricFamily, Metric

from core.metrics import figures
from tournaments.selectors import standings_lag


@figures("standings")
def standings_figures() -> Iterator[Metric]:
    count, oldest = standings_lag()
    yield GaugeMetricFamily(
        "podium_standings_stale_events", "Events whose stored standings are older than their results.", count
    )
    lag = 0.0 if oldest is None else max(0.0, (timezone.now() - oldest).total_seconds())
    yield GaugeMetricFamily(
        "podium_standings_lag_seconds", "How long the most outdated stored standings have lagged their results.", lag
    )
