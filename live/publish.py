"""Numbering live events after their commit, and sending them to every process's streams.

A live event is written, unnumbered, in the transaction of the change
(:mod:`live.readers`); once that has committed, the reader asks this process's
publisher thread for it (:func:`publish_soon`: the request that made the change
does not wait; ``PODIUM_LIVE_PUBLISH_THREAD=false`` publishes in the caller, as
the tests do), and :func:`live_events_publish`
numbers every unnumbered event of the tournament event in one short
transaction that holds the event's :class:`~live.models.LiveStream` row, so the
numbers follow the order they are given and a number, once a client has seen
it, is never followed by a smaller one committed later.  Then it sends them:

* with ``PODIUM_LIVE_REDIS_URL`` (default ``REDIS_URL``), one message per event
  on the site's pub/sub channel (``PODIUM_LIVE_CHANNEL``), which every process
  serving streams reads (:mod:`live.hub`);
* without Redis (the embedded default), to this process's own hub.

Sending never fails the change and never waits long: Redis gets one short
attempt (``PODIUM_REDIS_TIMEOUT``), and after a failure this process leaves it
alone for a few seconds.  Nothing is lost: the events are numbered in the
database, and the hubs read what they missed from there when Redis is back (and
every few seconds).  Unnumbered events whose change committed but whose
publisher died are numbered by the sweep (:func:`live_events_publish_pending`).
"""

from __future__ import annotations

import datetime
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from live.models import LiveEvent, LiveStream

logger = logging.getLogger(__name__)

#: After a failed send, this process leaves Redis alone for this long (the hubs catch up from the database).
BREAKER_SECONDS = 5.0
#: Unnumbered events older than this are the sweep's: their publisher is gone.
ORPHAN_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class Message:
    """A numbered live event as it travels: the tournament event, its number, kind, data, and the stations and
    players whose streams carry it (``None``: every one's)."""

    event_id: int
    seq: int
    kind: str
    data: dict[str, Any]
    stations: list[str] | None
    players: list[int] | None = None
    #: Only the event's staff stream and the named players' own streams carry it (:attr:`LiveEvent.private`).
    private: bool = False

    def encode(self) -> str:
        body = {
            "e": self.event_id,
            "s": self.seq,
            "k": self.kind,
            "d": self.data,
            "st": self.stations,
            "p": self.players,
        }
        if self.private:
            body["pv"] = True
        return json.dumps(body)

    @classmethod
    def decode(cls, raw: str | bytes) -> Message:
        body = json.loads(raw)
        return cls(
            event_id=int(body["e"]), seq=int(body["s"]), kind=str(body["k"]), data=body["d"], stations=body["st"],
            players=body.get("p"),  # a message sent by a process of the release before has none: every player's
            private=bool(body.get("pv", False)),
        )  # fmt: skip

    @classmethod
    def of(cls, row: LiveEvent) -> Message:
        return cls(
            event_id=row.event_id, seq=int(row.seq or 0), kind=row.kind, data=row.data, stations=row.stations,
            players=row.players, private=bool(row.private),
        )  # fmt: skip

    def for_station(self, slug: str | None) -> bool:
        return slug is None or self.stations is None or slug in self.stations

    def for_player(self, player: int | None) -> bool:
        return player is None or self.players is None or player in self.players

    def for_stream(self, station: str | None, player: int | None, staff: bool = False) -> bool:
        """Whether the stream of the station (or the event's), for the player (or for everyone), carries it; the
        staff stream (``staff``) carries the private events alone, and of the others only a named player's does."""
        if staff:
            return self.private
        if self.private:
            return player is not None and player in (self.players or ())
        return self.for_station(station) and self.for_player(player)


_pending: set[int] = set()
_wake = threading.Condition()
_publisher: tuple[int, threading.Thread] | None = None  # (pid, thread): a forked worker starts its own


def publish_soon(event_id: int) -> None:
    """Have the event's unnumbered live events published: by this process's publisher thread, or at once."""
    global _publisher
    if not settings.PODIUM_LIVE_PUBLISH_THREAD:
        live_events_publish(event_id)
        return
    with _wake:
        _pending.add(event_id)
        if _publisher is None or _publisher[0] != os.getpid() or not _publisher[1].is_alive():
            thread = threading.Thread(target=_publish_forever, name="podium-live-publisher", daemon=True)
            _publisher = (os.getpid(), thread)
            thread.start()
        _wake.notify()


def _publish_forever() -> None:
    from django.db import connection

    while True:
        with _wake:
            while not _pending:
                _wake.wait()
            event_ids = sorted(_pending)
            _pending.clear()
        for event_id in event_ids:
            try:
                live_events_publish(event_id)
            except Exception:  # noqa: BLE001 - the events stay unnumbered: the sweep publishes them
                logger.exception("Live events of event %s not published", event_id)
                connection.close()


#: PostgreSQL: the stream's row, made if need be and locked, with its last number (one statement).
_LOCK_STREAM = """
    INSERT INTO {stream} (event_id, last_seq) VALUES (%(event)s, 0)
    ON CONFLICT (event_id) DO UPDATE SET last_seq = {stream}.last_seq
    RETURNING last_seq
"""
#: PostgreSQL: number the unnumbered events after ``last``, in the order they were written, and move the stream's
#: last number with them (one statement, read once the lock is held, so it sees every number given before).
_NUMBER = """
    WITH numbered AS (
        SELECT id, %(last)s + row_number() OVER (ORDER BY id) AS seq
        FROM {events} WHERE event_id = %(event)s AND seq IS NULL
    ), moved AS (
        UPDATE {events} AS l SET seq = n.seq FROM numbered AS n WHERE l.id = n.id
        RETURNING l.id, l.event_id, l.seq, l.kind, l.data, l.stations, l.players, l.private, l.created_at
    ), stream AS (
        UPDATE {stream} SET last_seq = (SELECT max(seq) FROM numbered)
        WHERE event_id = %(event)s AND EXISTS (SELECT 1 FROM numbered)
    )
    SELECT * FROM moved ORDER BY seq
"""


def live_events_publish(event_id: int) -> list[Message]:
    """Number the event's unnumbered live events, in the order they were written, and send them.

    On PostgreSQL two statements in a short transaction: the stream's row locked, then the numbering."""
    if connection.vendor == "postgresql":
        names = {"stream": LiveStream._meta.db_table, "events": LiveEvent._meta.db_table}
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(_LOCK_STREAM.format(**names), {"event": event_id})
                last = cursor.fetchone()[0]
            pending = list(LiveEvent.objects.raw(_NUMBER.format(**names), {"event": event_id, "last": last}))
            if not pending:
                return []
            _forget_old(event_id, int(pending[-1].seq or 0), before=last)
        messages = [Message.of(row) for row in pending]
        send(messages)
        return messages
    with transaction.atomic():
        LiveStream.objects.bulk_create([LiveStream(event_id=event_id)], ignore_conflicts=True)
        stream = LiveStream.objects.select_for_update().get(event_id=event_id)
        pending = list(LiveEvent.objects.filter(event_id=event_id, seq__isnull=True).order_by("id"))
        if not pending:
            return []
        seq = stream.last_seq
        for row in pending:
            seq += 1
            row.seq = seq
        LiveEvent.objects.bulk_update(pending, ["seq"])
        stream.last_seq = seq
        stream.save(update_fields=["last_seq"])
        _forget_old(event_id, seq, before=stream.last_seq - len(pending))
    messages = [Message.of(row) for row in pending]
    send(messages)
    return messages


def _forget_old(event_id: int, seq: int, *, before: int) -> None:
    """Keep the last ``PODIUM_LIVE_KEEP`` events of the event (checked every hundred numbers)."""
    keep = settings.PODIUM_LIVE_KEEP
    if seq // 100 != before // 100 and seq > keep:
        LiveEvent.objects.filter(event_id=event_id, seq__lte=seq - keep).delete()


def live_events_publish_pending(*, older_than: float = ORPHAN_SECONDS) -> int:
    """Number and send the live events whose publisher never did (a process that died after the commit)."""
    cutoff = timezone.now() - datetime.timedelta(seconds=older_than)
    events = LiveEvent.objects.filter(seq__isnull=True, created_at__lt=cutoff).order_by().values_list("event_id")
    count = 0
    for event_id in sorted({row[0] for row in events}):
        count += len(live_events_publish(event_id))
    return count


# --- sending -----------------------------------------------------------------------------------------------------

_lock = threading.Lock()
_client: Any = None
_broken_until = 0.0


def _redis():
    global _client
    with _lock:
        if _client is None:
            import redis

            timeout = settings.REDIS_TIMEOUT
            _client = redis.Redis.from_url(
                str(settings.PODIUM_LIVE_REDIS_URL), socket_connect_timeout=timeout, socket_timeout=timeout
            )
        return _client


#: This process's hubs, without Redis: each takes the numbered events (:mod:`live.hub` adds itself).
LOCAL_HUBS: list[Callable[[list[Message]], None]] = []


def deliver_locally(messages: list[Message]) -> None:
    """Without Redis: hand what this process published to its own hubs (from any thread)."""
    for deliver in LOCAL_HUBS:
        deliver(messages)


def send(messages: list[Message]) -> None:
    """Hand numbered events to every process's hub: over Redis when configured, else to this process's hub."""
    global _broken_until
    if not messages:
        return
    if not settings.PODIUM_LIVE_REDIS_URL:
        deliver_locally(messages)
        return
    if time.monotonic() < _broken_until:
        return
    try:
        client = _redis()
        with client.pipeline(transaction=False) as pipe:
            for message in messages:
                pipe.publish(settings.PODIUM_LIVE_CHANNEL, message.encode())
            pipe.execute()
    except Exception as exc:  # noqa: BLE001 - numbered in the database: the hubs catch up when Redis is back
        _broken_until = time.monotonic() + BREAKER_SECONDS
        logger.warning("Live events %s of event %s not sent to Redis (%s): the streams catch up from the database",
                       [m.seq for m in messages], messages[0].event_id, exc)  # fmt: skip


def reset_sender() -> None:
    """Forget the Redis client and the breaker (tests that point the live push at another Redis)."""
    global _client, _broken_until
    with _lock:
        _client = None
        _broken_until = 0.0
