"""The live push's figure in ``/metrics`` (core.metrics): streams open on every stream server."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.metrics_core import GaugeMetricFamily, Metric

from core.metrics import figures
from live.hub import open_streams


@figures("live")
def live_figures() -> Iterator[Metric]:
    yield GaugeMetricFamily("podium_live_open_streams", "Live streams open on every stream server.", open_streams())
