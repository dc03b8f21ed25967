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
table, and the event's round, timer and standings.

These are async views (served by the ASGI server): an open stream holds no
thread and no database connection; the process's hub (:mod:`live.hub`) feeds it.
Errors answer in the API's JSON shape: 404 ``not_found``/``station_not_found``,
400 ``invalid`` for a ``Last-Event-ID`` that is no number.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.http import require_safe

from live.hub import CLOSE, PING, Subscription, frame, get_hub

#: The browser waits this long before reconnecting (milliseconds).
RETRY_MS = 1000


def _error(code: str, message: str, status: int, fields: dict | None = None) -> JsonResponse:
    body: dict = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    return JsonResponse({"error": body}, status=status)


def _last_event_id(request: HttpRequest) -> tuple[int | None, JsonResponse | None]:
    raw = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id")
    if raw is None or raw.strip() == "":
        return None, None
    raw = raw.strip()
    if not raw.isdigit() or len(raw) > 18:
        message = "Last-Event-ID is the number of the last event received."
        return None, _error("invalid", "The request has invalid fields.", 400, {"Last-Event-ID": [message]})
    return int(raw), None


@require_safe
async def event_stream(request: HttpRequest, event_id: int) -> HttpResponse:
    return await _stream(request, event_id, None)


@require_safe
async def station_stream(request: HttpRequest, event_id: int, slug: str) -> HttpResponse:
    return await _stream(request, event_id, slug)


async def _stream(request: HttpRequest, event_id: int, station: str | None) -> HttpResponse:
    last, error = _last_event_id(request)
    if error is not None:
        return error
    hub = get_hub()
    if not await hub.exists(event_id, None):
        return _error("not_found", f"Event {event_id} does not exist.", 404)
    if station is not None and not await hub.exists(event_id, station):
        return _error("station_not_found", f"Event {event_id} has no station {station!r}.", 404)
    response = StreamingHttpResponse(_frames(event_id, station, last), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _snapshot(event_id: int, station: str | None) -> tuple[int, dict]:
    from live import selectors

    def read() -> dict:
        event = selectors.event_by_id(event_id=event_id)
        if event is None:
            return {"seq": 0, "event": None}
        if station is None:
            return selectors.event_snapshot(event=event)
        found = selectors.station_of(event=event, slug=station)
        if found is None:
            return {"seq": selectors.last_seq(event_id=event_id), "station": None}
        found.event = event
        return selectors.station_snapshot(station=found)

    data = await get_hub().run_db(read)
    return int(data["seq"]), data


async def _frames(event_id: int, station: str | None, last: int | None) -> AsyncIterator[bytes]:
    hub = get_hub()
    subscription: Subscription = await hub.subscribe(event_id, station)
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        sent = -1
        backlog = None if last is None else await hub.replay(subscription, last)
        if backlog is None:
            seq, data = await _snapshot(event_id, station)
            yield frame("snapshot", seq, data)
            sent = seq
            # What the queue holds from before the snapshot's number is in the snapshot.
            backlog = await hub.replay(subscription, seq) if seq < subscription.since else []
            backlog = backlog or []
        else:
            sent = last
        for message, encoded in backlog:
            if message.seq > sent and message.for_station(station):
                yield encoded
                sent = message.seq
        while True:
            item = await subscription.queue.get()
            if item is PING:
                yield PING
                continue
            if item is CLOSE:
                return
            message, encoded = item
            if message.seq <= sent:
                continue
            yield encoded
            sent = message.seq
    finally:
        hub.unsubscribe(subscription)
