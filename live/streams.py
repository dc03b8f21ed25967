"""The live streams: Server-Sent Events per tournament event and per stream station.

``GET /api/v1/events/{id}/stream/`` and ``GET /api/v1/events/{id}/stations/{slug}/stream/``
answer ``text/event-stream``: one event per live event (``id`` its number,
``event`` its kind, ``data`` one line of JSON), a ``: ping`` comment every
``PODIUM_LIVE_HEARTBEAT`` seconds, and a ``retry`` hint.  A client that
reconnects sends ``Last-Event-ID`` (browsers do it themselves) and is sent what
it missed; a page that renders the state as of number N opens the stream with
``?last_event_id=N``.  No id, or one older than what is kept: the stream starts
with a ``snapshot`` event (the current state, with the number it is as of).
A station's stream carries the station's feature match and what concerns its
table, and the event's round, timer and standings.  ``?player=ID`` (a player's
page) makes the event's stream the player's own: the event's round, timer and
standings, and of the tables' news only their own tables' (``LiveEvent.players``);
its snapshot has only their tables.  At a round's end that is two results per
player's page instead of every table's.

``GET /api/v1/events/{id}/judge-calls/stream/`` is the event's *staff stream*: the
judges' queue (:mod:`floor`) follows it.  It carries the private live events alone
(``LiveEvent.private``: a judge call opened, claimed, resolved or cancelled), which no
public stream carries (a player's own stream carries those of the player's table).  It
is opened with the session of someone the policy lets answer judge calls (the browser
sends its cookie with an ``EventSource``); asked again at each opening.  Its snapshot is
only the number it is as of: the page reads the queue itself.

The ASGI server serves them with :func:`route`, a small ASGI application in
front of Django's (config/asgi.py): Django's ASGI handler keeps a thread for
each request while it lasts, and an idle stream must hold no thread and no
database connection.  The process's hub (:mod:`live.hub`) feeds every stream;
what a stream needs from the database it reads in the hub's one thread.  The
same streams are Django async views too (their URLs, and Django's async test
client); a WSGI server (gunicorn) answers them 503 ``stream_unavailable``:
its workers must not be held by streams.

Errors answer in the API's JSON shape: 404 ``not_found``/``station_not_found``/
``player_not_found`` (no registration of the player at the event), 400 ``invalid``
for a ``Last-Event-ID`` or a ``player`` that is no number; the staff stream 401
``not_authenticated`` and 403 ``permission_denied``.  CORS: the stream
answers the origins ``PODIUM_CORS_ORIGINS`` allows (preflights are Django's).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.cookie import parse_cookie
from django.http.request import split_domain_port, validate_host
from django.http.response import HttpResponseBase
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_safe

from live.hub import CLOSE, PING, Subscription, frame, get_hub

#: The browser waits this long before reconnecting (milliseconds).
RETRY_MS = 1000


def _body(code: str, message: str, fields: dict | None = None) -> dict:
    """The API's error shape."""
    body: dict = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    return {"error": body}


def _error(code: str, message: str, status: int, fields: dict | None = None) -> JsonResponse:
    return JsonResponse(_body(code, message, fields), status=status)


_BAD_ID = gettext_lazy("Last-Event-ID is the number of the last event received.")
_BAD_PLAYER = gettext_lazy("A player's id is a number.")


def parse_number(raw: str | None) -> tuple[int | None, bool]:
    """``(number, valid)`` of an optional number in a header or parameter: ``Last-Event-ID`` (or
    ``last_event_id``), the number of the last event received, and ``player``, a player's id (``None``: absent)."""
    if raw is None or raw.strip() == "":
        return None, True
    raw = raw.strip()
    if not raw.isdigit() or len(raw) > 18:
        return None, False
    return int(raw), True


async def _opening(
    event_id: int,
    station: str | None,
    raw_last: str | None,
    raw_player: str | None,
    *,
    staff: bool = False,
    session_key: str | None = None,
) -> tuple[int | None, int | None, tuple[int, dict] | None]:
    """``(last event id, player, refusal)`` of a stream asked for: the refusal, when there is one, is its status and
    the API's error body (one check for the Django view and for the plain ASGI application).  ``staff``: the
    event's staff stream, for the signed-in user of ``session_key`` (the session cookie's value)."""
    last, last_valid = parse_number(raw_last)
    player, player_valid = parse_number(raw_player)
    if not (last_valid and player_valid):
        fields = {"Last-Event-ID": [str(_BAD_ID)]} if not last_valid else {}
        fields |= {"player": [str(_BAD_PLAYER)]} if not player_valid else {}
        return None, None, (400, _body("invalid", gettext("The request has invalid fields."), fields))
    hub = get_hub()
    if staff:
        refused = await hub.staff_refusal(event_id, session_key)
        if refused is not None:
            return None, None, (refused[0], _body(refused[1], refused[2]))
        return last, None, None
    if not await hub.exists(event_id, None):
        return None, None, (404, _body("not_found", gettext("Event %(event)s does not exist.") % {"event": event_id}))
    if station is not None and not await hub.exists(event_id, station):
        return (
            None,
            None,
            (
                404,
                _body(
                    "station_not_found",
                    gettext("Event %(event)s has no station '%(station)s'.") % {"event": event_id, "station": station},
                ),
            ),
        )
    if player is not None and not await hub.exists(event_id, None, player):
        return (
            None,
            None,
            (
                404,
                _body(
                    "player_not_found",
                    gettext("Event %(event)s has no player %(player)s.") % {"event": event_id, "player": player},
                ),
            ),
        )
    return last, player, None


@require_safe
async def event_stream(request: HttpRequest, event_id: int) -> HttpResponseBase:
    return await _stream(request, event_id, None, request.GET.get("player"))


@require_safe
async def station_stream(request: HttpRequest, event_id: int, slug: str) -> HttpResponseBase:
    return await _stream(request, event_id, slug, None)


@require_safe
async def staff_stream(request: HttpRequest, event_id: int) -> HttpResponseBase:
    return await _stream(request, event_id, None, None, staff=True)


async def _stream(
    request: HttpRequest, event_id: int, station: str | None, raw_player: str | None, *, staff: bool = False
) -> HttpResponseBase:
    if isinstance(request, WSGIRequest):
        return _error(
            "stream_unavailable",
            gettext("Streams are served by the ASGI server (uvicorn config.asgi:application)."),
            503,
        )
    raw_last = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id")
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME) if staff else None
    last, player, refusal = await _opening(
        event_id, station, raw_last, raw_player, staff=staff, session_key=session_key
    )
    if refusal is not None:
        return JsonResponse(refusal[1], status=refusal[0])
    frames = _frames(event_id, station, last, player, staff=staff)
    response = StreamingHttpResponse(frames, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _snapshot(
    event_id: int, station: str | None, player: int | None = None, staff: bool = False
) -> tuple[int, dict]:
    from live import payloads, selectors

    def read() -> dict:
        if staff:
            return {"seq": selectors.last_seq(event_id=event_id)}
        event = selectors.event_by_id(event_id=event_id)
        if event is None:
            return {"seq": 0, "event": None}
        if station is None:
            return payloads.event_snapshot(selectors.event_snapshot(event=event, player=player))
        found = selectors.station_of(event=event, slug=station)
        if found is None:
            return {"seq": selectors.last_seq(event_id=event_id), "station": None}
        found.event = event
        seq = selectors.last_seq(event_id=event_id)
        return payloads.station_snapshot(seq=seq, match=selectors.feature_match(station=found, decks_visible=False))

    data = await get_hub().run_db(read)
    return int(data["seq"]), data


async def _frames(
    event_id: int, station: str | None, last: int | None, player: int | None = None, *, staff: bool = False
) -> AsyncGenerator[bytes, None]:
    hub = get_hub()
    subscription: Subscription = await hub.subscribe(event_id, station, player, staff=staff)
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        sent = -1
        backlog = None if last is None else await hub.replay(subscription, last)
        if last is None or backlog is None:
            seq, data = await _snapshot(event_id, station, player, staff)
            yield frame("snapshot", seq, data)
            sent = seq
            # What the queue holds from before the snapshot's number is in the snapshot.
            backlog = await hub.replay(subscription, seq) if seq < subscription.since else []
            backlog = backlog or []
        else:
            sent = last
        for message, encoded in backlog:
            if message.seq > sent and message.for_stream(station, player, staff):
                yield encoded
                sent = message.seq
        queue = subscription.queue
        while True:
            items = [await queue.get()]
            # Whatever else is waiting goes out with it, in one write: in a burst (a round's results, each sent
            # to every stream of the event) a stream's cost is then per write, not per event, and the stream
            # processes keep up instead of queueing the next round's pairing behind thousands of writes.
            while not queue.empty():
                items.append(queue.get_nowait())
            chunk, closing = [], False
            for item in items:
                if item is PING:
                    chunk.append(PING)
                elif item is CLOSE:
                    closing = True
                    break
                else:
                    message, encoded = item
                    if message.seq > sent:
                        chunk.append(encoded)
                        sent = message.seq
            if chunk:
                yield b"".join(chunk)
            if closing:
                return
    finally:
        hub.unsubscribe(subscription)


# --- the streams as a plain ASGI application, in front of Django's ---------------------------------------------

STREAM_PATH = re.compile(
    r"^/api/v1/events/(?P<event>[0-9]{1,18})/"
    r"(?:stations/(?P<station>[-a-zA-Z0-9_]{1,50})/|(?P<staff>judge-calls/))?stream/$"
)


#: An ASGI application and its arguments, as Django's ASGI handler takes them: the scope and the messages are dicts.
type Scope = dict[str, Any]
type Receive = Callable[[], Awaitable[Mapping[str, Any]]]
type Send = Callable[[Mapping[str, Any]], Awaitable[None]]
type Application = Callable[[Scope, Receive, Send], Awaitable[None]]


def route(django_application: Application) -> Application:
    """The ASGI application: the streams' GETs here, everything else (their CORS preflights too) to Django."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            found = STREAM_PATH.match(scope["path"])
            if found is not None:
                return await serve(
                    scope, receive, send, int(found["event"]), found["station"], staff=found["staff"] is not None
                )
        return await django_application(scope, receive, send)

    return application


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _cors(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    origin = headers.get("origin")
    if not origin:
        return []
    if settings.CORS_ALLOW_ALL_ORIGINS:
        return [(b"access-control-allow-origin", b"*")]
    if origin in settings.CORS_ALLOWED_ORIGINS:
        return [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin")]
    return []


async def _answer_json(send: Send, status: int, body: dict, extra: list[tuple[bytes, bytes]]) -> None:
    payload = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()), *extra]})  # fmt: skip
    await send({"type": "http.response.body", "body": payload})


def _host_allowed(headers: dict[str, str]) -> bool:
    host, _ = split_domain_port(headers.get("host", ""))
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return bool(host) and validate_host(host, allowed)


async def serve(
    scope: Scope, receive: Receive, send: Send, event_id: int, station: str | None, *, staff: bool = False
) -> None:
    headers = _headers(scope)
    cors = _cors(headers)
    if not _host_allowed(headers):
        return await _answer_json(send, 400, _body("invalid", gettext("Bad host.")), cors)
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    raw_last = headers.get("last-event-id") or (query.get("last_event_id") or [None])[0]
    raw_player = None if station is not None or staff else (query.get("player") or [None])[0]
    session_key = parse_cookie(headers.get("cookie", "")).get(settings.SESSION_COOKIE_NAME) if staff else None
    last, player, refusal = await _opening(
        event_id, station, raw_last, raw_player, staff=staff, session_key=session_key
    )
    if refusal is not None:
        return await _answer_json(send, refusal[0], refusal[1], cors)
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache, no-store"),
        (b"x-accel-buffering", b"no"), *cors]})  # fmt: skip
    if scope["method"] == "HEAD":
        return await send({"type": "http.response.body", "body": b""})

    async def write() -> None:
        frames = _frames(event_id, station, last, player, staff=staff)
        try:
            async for chunk in frames:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        finally:
            await frames.aclose()

    async def disconnected() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    writer, watcher = asyncio.ensure_future(write()), asyncio.ensure_future(disconnected())
    try:
        await asyncio.wait({writer, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (writer, watcher):
            task.cancel()
        await asyncio.gather(writer, watcher, return_exceptions=True)
    if not watcher.cancelled() and watcher.done() and watcher.exception() is None:
        return  # the client went away
    try:
        await send({"type": "http.response.body", "body": b""})
    except Exception:  # noqa: BLE001 - the connection is gone
        pass
