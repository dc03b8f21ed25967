"""Podium's log lines: one format for every process, and the request id that ties a request's lines together.

Every line has the time (UTC, ISO 8601 with milliseconds), the level, the logger's name and the request id (``-``
outside a request)::

    2026-11-27T17:30:00.123Z INFO gunicorn.access 4f1c0d2e9a8b4c7d9e0f1a2b3c4d5e6f 10.0.0.2 "GET /api/v1/events/ HTTP/1.0" 200 5123 12ms

``PODIUM_LOG_FORMAT=json`` writes one JSON object per line instead: ``time``, ``level``, ``logger``,
``request_id``, ``message`` (and ``exception``, the traceback, when there is one).

**The request id.**  A request sent by a trusted proxy (``PODIUM_PROXIES``, :mod:`core.proxies`) keeps the
``X-Request-ID`` the proxy gave it when the value is well formed (:data:`REQUEST_ID`: letters, digits and
``.-_:``, at most 128), so the proxy's lines and Podium's share it; every other request gets a new one (32 hex
digits, as nginx's ``$request_id``).  It is held in a context variable for the request's lines
(:class:`RequestIdFilter` puts it on each record) and sent back as the ``X-Request-ID`` response header.  Under
WSGI (gunicorn) :func:`wsgi_request_id` (config/wsgi.py) decides it for the request's handling; under ASGI
(uvicorn) :func:`asgi_request_id`, in front of the streams and Django (config/asgi.py), for the request's task;
:class:`RequestIdMiddleware` keeps the one decided, or decides it (Django's test client), and answers it.

**The servers' own lines.**  gunicorn's (``gunicorn.error``, and its access log ``gunicorn.access``) are written
by :class:`GunicornLogger` (``logger_class`` in config/gunicorn.conf.py), which gives the access line the
request id of the response's header.  uvicorn configures its loggers before it loads the app; when Django starts
(:func:`configure`, Django's ``LOGGING_CONFIG``) their handlers are given Podium's format, so uvicorn's access log
keeps its switch (``--no-access-log``: no handler, no line).

**Celery's workers** write their lines (to standard error, or ``--logfile``) in the same format; a task's lines
carry the task's id where a request's carry the request id (config/celery.py).

**A bad Host** (``DisallowedHost``, what scanners send all day) is one line of ``django.security.DisallowedHost``
at WARNING, without the traceback Django attaches (:class:`OneLineFilter`).

This module imports no Django at import time: gunicorn's master loads it before any Django setting.
"""

from __future__ import annotations

import contextvars
import datetime
import json
import logging
import logging.config
import re
import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from gunicorn import glogging  # the production web server (pinned); its logger is extended below

#: A request id taken from a trusted proxy: what nginx's ``$request_id`` and the usual tracing ids look like.
REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
HEADER = "X-Request-ID"
#: Shown where a line belongs to no request.
NO_REQUEST = "-"
FORMATS = ("text", "json")

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar("podium_request_id", default=None)


def current_request_id() -> str | None:
    return request_id_var.get()


def new_request_id() -> str:
    return uuid.uuid4().hex


def choose_request_id(peer: str | None, sent: str | None) -> str:
    """The request's id: the one a trusted proxy sent, when well formed; else a new one."""
    if sent and REQUEST_ID.fullmatch(sent):
        from core.proxies import is_trusted

        if is_trusted(peer):
            return sent
    return new_request_id()


# --- records and formats -----------------------------------------------------------------------------------------


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every record (``record.request_id``), ``-`` outside a request."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id_var.get() or NO_REQUEST
        return True


class OneLineFilter(logging.Filter):
    """A client's mistake worth one line, not a traceback: the exception is dropped, the level is WARNING."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def _time(record: logging.LogRecord) -> str:
    moment = datetime.datetime.fromtimestamp(record.created, tz=datetime.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _request_id(record: logging.LogRecord) -> str:
    return getattr(record, "request_id", None) or request_id_var.get() or NO_REQUEST


class TextFormatter(logging.Formatter):
    """``time level logger request_id message`` (a traceback, when there is one, on the lines after)."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{_time(record)} {record.levelname} {record.name} {_request_id(record)} {record.getMessage()}"
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line += "\n" + record.exc_text
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``time``, ``level``, ``logger``, ``request_id``, ``message`` [, ``exception``]."""

    def format(self, record: logging.LogRecord) -> str:
        rid = _request_id(record)
        line: dict[str, Any] = {
            "time": _time(record),
            "level": record.levelname,
            "logger": record.name,
            "request_id": None if rid == NO_REQUEST else rid,
            "message": record.getMessage(),
        }
        status = getattr(record, "status_code", None)
        if isinstance(status, int):
            line["status_code"] = status
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


def formatter(log_format: str = "text") -> logging.Formatter:
    return JsonFormatter() if log_format == "json" else TextFormatter()


def config(*, log_format: str, level: str) -> dict[str, Any]:
    """Django's ``LOGGING``: everything to standard error in Podium's format."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {"()": "core.logging.RequestIdFilter"},
            "one_line": {"()": "core.logging.OneLineFilter"},
        },
        "formatters": {"podium": {"()": "core.logging.formatter", "log_format": log_format}},
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": "podium", "filters": ["request_id"]},
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Django's own "django" logger would add a second handler (its default config); one is enough.
            "django": {"handlers": [], "level": level, "propagate": True},
            "django.security.DisallowedHost": {"filters": ["one_line"], "propagate": True},
            # runserver's request lines (Django's default gives them a handler of their own).
            "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
        },
    }


#: The servers' loggers whose handlers (set up by the server before Django starts) take Podium's format.
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "gunicorn.error", "gunicorn.access")


def adopt(loggers: tuple[str | logging.Logger, ...], log_format: str) -> None:
    """Give the handlers these loggers already have Podium's format and the request id (idempotent)."""
    for found in loggers:
        for handler in (logging.getLogger(found) if isinstance(found, str) else found).handlers:
            handler.setFormatter(formatter(log_format))
            if not any(isinstance(f, RequestIdFilter) for f in handler.filters):
                handler.addFilter(RequestIdFilter())


def configure(logging_settings: dict[str, Any]) -> None:
    """Django's ``LOGGING_CONFIG``: apply ``LOGGING``, then give the servers' own handlers the same format."""
    from django.conf import settings

    logging.config.dictConfig(logging_settings)
    adopt(SERVER_LOGGERS, settings.PODIUM_LOG_FORMAT)


# --- the request id of a request ---------------------------------------------------------------------------------


class RequestIdMiddleware:
    """First in ``MIDDLEWARE``: the request's id on its log lines, ``request.request_id`` and the response."""

    def __init__(self, get_response: Callable[[Any], Any]):
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        # Under ASGI the id was decided in front of Django (asgi_request_id) and is already this context's.
        rid = request_id_var.get() or choose_request_id(request.META.get("REMOTE_ADDR"), request.headers.get(HEADER))
        request.request_id = rid
        token = request_id_var.set(rid)
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
        response[HEADER] = rid
        return response


def wsgi_request_id(app: Callable[..., Any]) -> Callable[..., Any]:
    """The WSGI server's side: the id is this request's for all of Django's handling, its own lines about the
    answer (``django.request``'s 4xx and 5xx) included, which come after the middleware has returned."""

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        rid = choose_request_id(environ.get("REMOTE_ADDR"), environ.get("HTTP_X_REQUEST_ID"))
        token = request_id_var.set(rid)
        try:
            return app(environ, start_response)
        finally:
            request_id_var.reset(token)

    return application


type Scope = dict[str, Any]
type Receive = Callable[[], Awaitable[Mapping[str, Any]]]
type Send = Callable[[Mapping[str, Any]], Awaitable[None]]
type Application = Callable[[Scope, Receive, Send], Awaitable[None]]

_HEADER_BYTES = HEADER.lower().encode()


def asgi_request_id(app: Application) -> Application:
    """The ASGI server's side: each HTTP request's task gets its id (its log lines, uvicorn's access line) and
    its response the header."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        sent = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == _HEADER_BYTES), None)
        client = scope.get("client")
        rid = choose_request_id(client[0] if client else None, sent)
        request_id_var.set(rid)  # this request's task only: uvicorn runs each request in a task of its own

        async def send_with_id(message: Mapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != _HEADER_BYTES]
                message = {**message, "headers": [*headers, (_HEADER_BYTES, rid.encode())]}
            await send(message)

        return await app(scope, receive, send_with_id)

    return application


# --- gunicorn ----------------------------------------------------------------------------------------------------


class GunicornLogger(glogging.Logger):
    """gunicorn's logger in Podium's format; its access line carries the request id of the response's header."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        import os

        adopt(("gunicorn.error", "gunicorn.access"), os.environ.get("PODIUM_LOG_FORMAT", "text").strip().lower())

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        headers = resp.headers.items() if hasattr(resp.headers, "items") else resp.headers
        rid = next((v for k, v in headers if k.lower() == "x-request-id"), None)
        token = request_id_var.set(rid)
        try:
            super().access(resp, req, environ, request_time)
        finally:
            request_id_var.reset(token)
