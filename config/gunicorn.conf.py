"""gunicorn's settings for Podium's web server: ``gunicorn -c config/gunicorn.conf.py config.wsgi --workers 4 ...``.

gunicorn answers a request line longer than its ``limit_request_line`` itself, with an HTML page, before Podium
sees the request: an API client would get a 414 in HTML rather than the API's JSON error.  So the limit here is
gunicorn's largest (8,190 bytes; 0, unlimited, would let a client send a request line as long as it likes), above
Podium's own limit on a URL (``core.middleware.MAX_URL_LENGTH``, 4,096 characters, with room for the method and
the HTTP version): Podium answers a URL between the two with its 414 ``uri_too_long`` (the JSON error under
``/api/``), and only a request line over 8,190 bytes still gets gunicorn's page.

It also turns the access log on (standard output) and gives every line Podium's format (:mod:`core.logging`),
and sets up prometheus-client's multiprocess mode for ``/metrics`` (:mod:`core.metrics`): see below.

Options given on the command line (``--workers``, ``--bind`` ...) win over this file.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

#: gunicorn's largest finite limit (larger values are cut to it), in bytes of the whole request line.
limit_request_line = 8190

#: Which forwarded headers to believe is Podium's to decide (``PODIUM_PROXIES``, core.proxies), not gunicorn's: by
#: default gunicorn would take ``X-Forwarded-Proto: https`` from any process on 127.0.0.1 and call the request secure.
secure_scheme_headers: dict[str, str] = {}

# --- Logs: Podium's format (core.logging), the access log on standard output -----------------------------------

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # core.logging, wherever gunicorn is started

#: Every line as Podium's (time, level, logger, request id; ``PODIUM_LOG_FORMAT=json`` for JSON), the access line
#: with the id of the response's ``X-Request-ID``.
logger_class = "core.logging.GunicornLogger"
accesslog = "-"
#: The peer, the request line, the status, the bytes sent and the milliseconds it took (the time is the line's own).
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'

# --- Metrics: prometheus-client's multiprocess mode (core.metrics) -----------------------------------------------
# Each worker writes its figures to files in PROMETHEUS_MULTIPROC_DIR and /metrics adds every worker's up.  The
# directory must be empty when the server starts (figures of an earlier run would be added in): one of gunicorn's
# own, made here, unless the environment names one, which is emptied at start.  It must be set before a worker
# imports prometheus_client, so here, in the master, before any worker forks.

_made_metrics_dir = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
if _made_metrics_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="podium-metrics-")


def on_starting(server):
    directory = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    directory.mkdir(parents=True, exist_ok=True)
    for leftover in directory.glob("*.db"):
        leftover.unlink()


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _made_metrics_dir:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
