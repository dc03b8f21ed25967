"""``GET /metrics``: Podium's figures for Prometheus (the ``prometheus-client`` package).

**Requests.**  ``podium_http_request_duration_seconds`` (a histogram) times every request Django answers, labelled
by ``method`` (GET, POST ..., anything else ``other``), ``view`` (the URL pattern's name, or the pattern itself
when it has none; ``unmatched`` for what no pattern answers, e.g. a 404 or a static file) and ``status``
(``2xx`` ... ``5xx``): never the raw path, so the number of series stays fixed whatever clients send.

**The domain**, read when Prometheus asks:

* ``podium_live_open_streams``: streams open on every stream server (each reports its count to the live Redis
  every ``PODIUM_LIVE_HEARTBEAT`` seconds: :func:`live.hub.open_streams`; added by ``live/figures.py``);
* ``podium_standings_stale_events`` and ``podium_standings_lag_seconds``: events whose stored standings are
  older than their results, and how long the oldest has lagged (``tournaments/figures.py``);
* ``podium_task_queue_length``: tasks waiting in the Celery queue (``PODIUM_TASK_QUEUE``) in Redis;
* ``podium_tasks_failed_total{task}``: tasks that failed for good, counted by the workers (:mod:`core.health`);
* ``podium_sweeps_total`` and ``podium_sweep_age_seconds``, ``podium_worker_heartbeat_age_seconds``: the
  sweeps' runs and the last one, the workers' last heartbeat (what ``/health/ready/`` reads);
* ``podium_metrics_source_up{source}``: 1 when that source (``standings``, ``live``, ``queue``, ``cache``) could
  be read, else 0 and its figures are left out.

**Several processes.**  gunicorn's workers each time their own requests: in prometheus-client's multiprocess mode
(``PROMETHEUS_MULTIPROC_DIR``, which config/gunicorn.conf.py sets up, empties at start and tidies as workers exit)
they write to files there, and whichever worker answers ``/metrics`` adds them all up.  Without that variable (one
process, ``./bin/run``) the figures are the process's own.

**Who may read it.**  Nobody unless ``PODIUM_METRICS_TOKEN`` or ``PODIUM_METRICS_NETWORKS`` is set (404 then):
a request with ``Authorization: Bearer <PODIUM_METRICS_TOKEN>``, or whose client address (:func:`core.proxies
.client_ip`) is in ``PODIUM_METRICS_NETWORKS``, is answered; any other gets 401.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client import multiprocess as prometheus_multiprocess
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import REGISTRY, Collector

logger = logging.getLogger(__name__)

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"

REQUEST_DURATION = Histogram(
    "podium_http_request_duration_seconds",
    "Time Podium took to answer a request, by method, view (URL pattern) and status class.",
    ["method", "view", "status"],
)


def view_label(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:
        return UNMATCHED
    return match.view_name or match.route or UNMATCHED


class RequestMetricsMiddleware:
    """Times each request (everything after it in ``MIDDLEWARE``, and the view) into the histogram."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            return response
        finally:
            method = request.method if request.method in METHODS else "other"
            REQUEST_DURATION.labels(method, view_label(request), f"{status // 100}xx").observe(
                time.perf_counter() - started
            )


# --- the domain's figures, read at each scrape ---------------------------------------------------------------------


def _queue_length() -> int:
    """Messages waiting in the task queue: kombu's Redis transport keeps a list per queue and priority."""
    import redis

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    client = redis.Redis.from_url(
        settings.REDIS_URL or "", socket_connect_timeout=settings.REDIS_TIMEOUT, socket_timeout=settings.REDIS_TIMEOUT
    )
    try:
        names = [queue, *(f"{queue}\x06\x16{priority}" for priority in (3, 6, 9))]
        with client.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.llen(name)
            return sum(pipe.execute())
    finally:
        client.close()


#: The apps' figures, by source (``standings``, ``live`` ...): each app adds its own when it is ready
#: (:func:`figures`), so core reads no app; each is read at every scrape.
SOURCES: dict[str, Callable[[], Iterable[Metric]]] = {}


def figures(source: str) -> Callable[[Callable[[], Iterable[Metric]]], Callable[[], Iterable[Metric]]]:
    """Decorator: ``read()`` yields the metric families of ``source`` (read at each scrape)."""

    def register(read: Callable[[], Iterable[Metric]]) -> Callable[[], Iterable[Metric]]:
        SOURCES[source] = read
        return read

    return register


class DomainCollector(Collector):
    """The figures of the running site, read when Prometheus asks (each part on its own: one down, the rest read)."""

    def describe(self) -> list[Metric]:
        return []  # read only at scrape time, never when registered

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("podium_metrics_source_up", "1 when this source could be read.", labels=["source"])
        sources = {"queue": self._queue, "cache": self._cache, **SOURCES}
        for source, read in sorted(sources.items()):
            try:
                found = list(read())
            except Exception as exc:  # noqa: BLE001 - a source that is down is a figure, not an error of /metrics
                logger.warning("/metrics could not read the %s: %s", source, type(exc).__name__)
                up.add_metric([source], 0)
                continue
            up.add_metric([source], 1)
            yield from found
        yield up

    def _queue(self) -> Iterator[Metric]:
        if not settings.REDIS_URL:
            return  # tasks run in-process: no queue
        yield GaugeMetricFamily(
            "podium_task_queue_length", "Tasks waiting in the Celery queue (PODIUM_TASK_QUEUE).", _queue_length()
        )

    def _cache(self) -> Iterator[Metric]:
        from celery import current_app

        from core import health

        failed = CounterMetricFamily("podium_tasks_failed", "Tasks that failed for good, by task.", labels=["task"])
        names = sorted(name for name in current_app.tasks if not name.startswith("celery."))
        for task, count in sorted(health.task_failures(names).items()):
            failed.add_metric([task], count)
        yield failed
        yield CounterMetricFamily("podium_sweeps", "Runs of the periodic sweeps.", health.sweep_runs())
        for name, key, text in (
            ("podium_sweep_age_seconds", health.SWEEPS_KEY, "Seconds since a sweep last ran."),
            ("podium_worker_heartbeat_age_seconds", health.HEARTBEAT_KEY, "Seconds since a worker's last heartbeat."),
        ):
            ago = health.seconds_since(key)
            if ago is not None:  # never seen: no figure (alert on its absence)
                yield GaugeMetricFamily(name, text, ago)


class _ThisProcess(Collector):
    """This process's own metrics (one process: no multiprocess directory)."""

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def registry() -> CollectorRegistry:
    found = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        prometheus_multiprocess.MultiProcessCollector(found)
    else:
        found.register(_ThisProcess())
    found.register(DomainCollector())
    return found


# --- the view ----------------------------------------------------------------------------------------------------


def _bearer(request: HttpRequest) -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _from_listed_network(request: HttpRequest) -> bool:
    from core.proxies import client_ip

    address = client_ip(request)
    if not address or not settings.PODIUM_METRICS_NETWORKS:
        return False
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(parsed in ipaddress.ip_network(network) for network in settings.PODIUM_METRICS_NETWORKS)


def allowed(request: HttpRequest) -> bool:
    token = settings.PODIUM_METRICS_TOKEN
    sent = _bearer(request)
    if token and sent is not None and hmac.compare_digest(sent.encode(), token.encode()):
        return True
    return _from_listed_network(request)


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    if not settings.PODIUM_METRICS_TOKEN and not settings.PODIUM_METRICS_NETWORKS:
        return HttpResponse("Not found.\n", status=404, content_type="text/plain")
    if not allowed(request):
        response = HttpResponse("A bearer token is needed.\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_PLAIN_0_0_4)
