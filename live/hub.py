"""One hub per serving process: it receives the live events and fans them out to the streams open there.

Every stream (:mod:`live.streams`) is a :class:`Subscription` of the process's
:class:`Hub`, which runs in the ASGI server's event loop:

* **Receiving.**  With Redis, one pub/sub connection per process reads the
  site's channel; without it, :func:`deliver_in_process` hands it what this
  process published.  The hub delivers each tournament event's live events in
  order, once: a number it has already delivered is dropped, and a gap (a
  message lost while Redis was away) is filled from the database first.
* **Catching up.**  After Redis reconnects, and every ``PODIUM_LIVE_HEARTBEAT``
  seconds, the hub reads the last numbers of the events it follows from the
  database and delivers what it missed; the same tick numbers events left
  unnumbered by a process that died (:func:`live.publish.live_events_publish_pending`)
  and sends every stream a heartbeat.
* **Replaying.**  A stream that starts with ``Last-Event-ID`` is sent what came
  after it: from the hub's memory of the event's recent events when it reaches
  back that far, else from the database.  Further back than the database keeps
  (``PODIUM_LIVE_KEEP``), or with no id at all, the stream starts with a
  snapshot of the current state.
* **Counting.**  On the same tick the hub writes how many streams it has open
  to the live Redis (a key per process that expires after three ticks), and
  :func:`open_streams` adds them up for ``/metrics`` (:mod:`core.metrics`),
  wherever it is served; without Redis it counts this process's own.
* **Staff streams.**  The event's staff stream (the judges' queue) receives the
  private live events alone, and they go to no public stream: only to it and to
  the own streams of the players they name (:meth:`Hub.staff_refusal` decides who
  may open one, from the session, in the hub's thread).
* **Slow clients.**  Each stream has a bounded queue; a client that falls that
  far behind is disconnected, and its browser reconnects with its last id.

The database is read in one thread of the hub's own (an idle stream holds no
thread and no connection), so a thousand streams share one connection.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from django.utils.translation import gettext

from live import publish
from live.publish import Message

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Live events of each followed tournament event kept in memory for streams that start behind.
RECENT = 512
#: Frames a stream may be behind before it is disconnected (its client reconnects with its last id).
QUEUE_SIZE = 2000
#: Existing events and stations are remembered this long (seconds).
LOOKUP_SECONDS = 30.0

PING = b": ping\n\n"
#: Put in a queue to end its stream (the client fell behind, or the hub lost events it cannot replay).
CLOSE = object()


def frame(kind: str, seq: int, data: Any) -> bytes:
    """A Server-Sent Event: ``id``, ``event`` and one ``data`` line of JSON."""
    return f"id: {seq}\nevent: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


@dataclass(eq=False)
class Subscription:
    event_id: int
    station: str | None
    #: A player's own stream: only the player's tables' events of a table (:meth:`Message.for_player`).
    player: int | None = None
    #: The event's staff stream (the judges' queue): the private live events alone (:attr:`Message.private`).
    staff: bool = False
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    #: The hub's last delivered number when the stream subscribed: the replay reaches up to it.
    since: int = 0

    def put(self, item: Any) -> None:
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self._close_now()

    def _close_now(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(CLOSE)


@dataclass
class _Followed:
    """What the hub knows of one tournament event that has streams open here."""

    subscriptions: set[Subscription] = field(default_factory=set)
    #: The same, by who they are for: the event's and stations' streams, and each player's own.  A table's live
    #: event goes to the first and to its players' only, so a round's results cost a write per stream that
    #: shows them, not one per stream of the event.
    broad: set[Subscription] = field(default_factory=set)
    by_player: dict[int, set[Subscription]] = field(default_factory=dict)
    #: The staff streams: the private live events go to these and to the players they name, and to no other.
    staff: set[Subscription] = field(default_factory=set)

    def add(self, subscription: Subscription) -> None:
        self.subscriptions.add(subscription)
        if subscription.staff:
            self.staff.add(subscription)
        elif subscription.player is None:
            self.broad.add(subscription)
        else:
            self.by_player.setdefault(subscription.player, set()).add(subscription)

    def discard(self, subscription: Subscription) -> None:
        self.subscriptions.discard(subscription)
        if subscription.staff:
            self.staff.discard(subscription)
            return
        if subscription.player is None:
            self.broad.discard(subscription)
            return
        mine = self.by_player.get(subscription.player)
        if mine is not None:
            mine.discard(subscription)
            if not mine:
                del self.by_player[subscription.player]

    def receivers(self, message: Message) -> list[Subscription]:
        """The streams that carry the message."""
        if message.private:
            found = list(self.staff)
            for player in message.players or ():
                found.extend(self.by_player.get(player, ()))
            return found
        if message.players is None:
            return [s for s in self.subscriptions if not s.staff and message.for_station(s.station)]
        found = [s for s in self.broad if message.for_station(s.station)]
        for player in message.players:
            found.extend(self.by_player.get(player, ()))
        return found

    #: The last number delivered (``None`` while it is being read).
    last: int | None = None
    recent: deque[tuple[Message, bytes]] = field(default_factory=lambda: deque(maxlen=RECENT))
    #: Messages that arrived while ``last`` was being read.
    early: list[Message] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.followed: dict[int, _Followed] = {}
        self.db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="podium-live-db")
        self.lookups: dict[tuple[int, str | None, int | None], float] = {}
        self.redis_connected = False
        self.report_key = f"{streams_key_prefix()}{socket.gethostname()}:{os.getpid()}:{next(_hub_numbers)}"
        self.reporter: Any = None
        self.tasks: list[asyncio.Task] = [loop.create_task(self._tick())]
        if settings.PODIUM_LIVE_REDIS_URL:
            self.tasks.append(loop.create_task(self._listen()))

    # --- the database, in the hub's thread ---------------------------------------------------------------------

    async def run_db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        def call() -> T:
            try:
                return function(*args, **kwargs)
            except (OperationalError, InterfaceError):
                connection.close()  # a connection the server dropped: one more try on a new one
                return function(*args, **kwargs)

        return await self.loop.run_in_executor(self.db, call)

    async def exists(self, event_id: int, station: str | None, player: int | None = None) -> bool:
        """Whether the event (and its station, or the player's registration there) exists; remembered a while once
        it does."""
        key = (event_id, station, player)
        if self.lookups.get(key, 0.0) > time.monotonic():
            return True
        from live import selectors
        from tournaments import selectors as tournament_selectors

        def look() -> bool:
            event = selectors.event_by_id(event_id=event_id)
            return (
                event is not None
                and (station is None or selectors.station_of(event=event, slug=station) is not None)
                and (player is None or tournament_selectors.player_is_registered(event_id=event_id, player_id=player))
            )

        found = await self.run_db(look)
        if found:
            self.lookups[key] = time.monotonic() + LOOKUP_SECONDS
        return found

    async def staff_refusal(self, event_id: int, session_key: str | None) -> tuple[int, str, str] | None:
        """``None`` when the signed-in user of the session (its cookie's key) may follow the event's staff stream
        (the policy's :data:`~tournaments.policy.Action.ANSWER_JUDGE_CALLS`); else the status, code and sentence
        of the refusal.  Asked at every opening: a judge taken off the staff stops at the next reconnect."""
        from importlib import import_module

        from django.contrib import auth
        from django.http import HttpRequest

        from live import selectors
        from tournaments import policy
        from tournaments.policy import Action

        def look() -> tuple[int, str, str] | None:
            request = HttpRequest()
            request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key or None)
            user = auth.get_user(request)
            if not user.is_authenticated:
                return 401, "not_authenticated", gettext("Sign in to follow the judge calls.")
            event = selectors.event_by_id(event_id=event_id)
            if event is None:
                return 404, "not_found", gettext("Event %(event)s does not exist.") % {"event": event_id}
            message = policy.refusal(user, event, Action.ANSWER_JUDGE_CALLS)
            return None if message is None else (403, "permission_denied", message)

        return await self.run_db(look)

    # --- subscribing ------------------------------------------------------------------------------------------

    async def subscribe(
        self, event_id: int, station: str | None, player: int | None = None, *, staff: bool = False
    ) -> Subscription:
        followed = self.followed.get(event_id)
        subscription = Subscription(event_id=event_id, station=station, player=player, staff=staff)
        if followed is None:
            followed = self.followed[event_id] = _Followed()
            followed.add(subscription)
            await self._start_following(event_id, followed)
        else:
            followed.add(subscription)
            await followed.ready.wait()
        subscription.since = followed.last or 0
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        followed = self.followed.get(subscription.event_id)
        if followed is None:
            return
        followed.discard(subscription)
        if not followed.subscriptions and followed.ready.is_set():
            del self.followed[subscription.event_id]

    async def _start_following(self, event_id: int, followed: _Followed) -> None:
        from live import selectors

        def read() -> tuple[int, list[Message]]:
            last = selectors.last_seq(event_id=event_id)
            rows = selectors.live_events_after(event_id=event_id, seq=max(0, last - RECENT), limit=RECENT)
            return last, [Message.of(row) for row in rows]

        try:
            last, recent = await self.run_db(read)
        except Exception:
            self.followed.pop(event_id, None)
            raise
        for message in recent:
            if message.seq <= last:
                followed.recent.append((message, frame(message.kind, message.seq, message.data)))
        followed.last = last
        followed.ready.set()
        early, followed.early = followed.early, []
        for message in early:
            await self._receive(message)

    async def replay(self, subscription: Subscription, after: int) -> list[tuple[Message, bytes]] | None:
        """What the stream missed after ``after``, up to where its queue starts; ``None``: too far back (the
        stream starts with a snapshot)."""
        followed = self.followed[subscription.event_id]
        upto = subscription.since
        if after > upto:
            return None  # ahead of what this process has seen (a database reset, or a number still on its way)
        if after == upto:
            return []
        recent = [item for item in followed.recent if after < item[0].seq <= upto]
        if recent and recent[0][0].seq == after + 1:
            return recent
        from live import selectors

        def read() -> list[Message] | None:
            first = selectors.first_kept_seq(event_id=subscription.event_id)
            if first is None or first > after + 1:
                return None
            rows = selectors.live_events_after(event_id=subscription.event_id, seq=after, limit=upto - after)
            return [Message.of(row) for row in rows]

        messages = await self.run_db(read)
        if messages is None:
            return None
        return [(m, frame(m.kind, m.seq, m.data)) for m in messages if m.seq <= upto]

    # --- receiving --------------------------------------------------------------------------------------------

    def deliver_threadsafe(self, messages: list[Message]) -> None:
        def receive_all() -> None:
            self.loop.create_task(self._receive_all(messages))

        self.loop.call_soon_threadsafe(receive_all)

    async def _receive_all(self, messages: list[Message]) -> None:
        for message in messages:
            await self._receive(message)

    async def _receive(self, message: Message) -> None:
        followed = self.followed.get(message.event_id)
        if followed is None:
            return
        if followed.last is None:
            followed.early.append(message)
            return
        if message.seq <= followed.last:
            return
        if message.seq > followed.last + 1:
            await self._catch_up(message.event_id)
            if message.seq <= (followed.last or 0):
                return
        self._dispatch(followed, message)

    def _dispatch(self, followed: _Followed, message: Message) -> None:
        encoded = frame(message.kind, message.seq, message.data)
        followed.last = message.seq
        followed.recent.append((message, encoded))
        for subscription in followed.receivers(message):
            subscription.put((message, encoded))

    async def _catch_up(self, event_id: int) -> None:
        """Deliver what the database has after the last number delivered (a message lost on the way)."""
        followed = self.followed.get(event_id)
        if followed is None or followed.last is None:
            return
        from live import selectors

        after = followed.last
        rows = await self.run_db(
            selectors.live_events_after, event_id=event_id, seq=after, limit=settings.PODIUM_LIVE_KEEP
        )
        if rows and rows[0].seq != after + 1:
            # Gone from the database too: every stream starts again from a snapshot.
            for subscription in list(followed.subscriptions):
                subscription.put(CLOSE)
            followed.last = rows[-1].seq
            return
        for row in rows:
            if row.seq == (followed.last or 0) + 1:
                self._dispatch(followed, Message.of(row))

    async def _catch_up_all(self) -> None:
        from live import selectors

        ids = [event_id for event_id, followed in self.followed.items() if followed.last is not None]
        if not ids:
            return
        lasts = await self.run_db(lambda: {i: selectors.last_seq(event_id=i) for i in ids})
        for event_id, last in lasts.items():
            followed = self.followed.get(event_id)
            if followed is not None and followed.last is not None and last > followed.last:
                await self._catch_up(event_id)

    # --- the background tasks ---------------------------------------------------------------------------------

    async def _tick(self) -> None:
        from live.publish import live_events_publish_pending

        while True:
            await asyncio.sleep(settings.PODIUM_LIVE_HEARTBEAT)
            now = time.monotonic()
            self.lookups = {key: until for key, until in self.lookups.items() if until > now}
            for followed in self.followed.values():
                for subscription in followed.subscriptions:
                    subscription.put(PING)
            await self._report_streams()
            try:
                await self.run_db(live_events_publish_pending)
                await self._catch_up_all()
            except Exception:  # noqa: BLE001 - the database may be away: next tick
                logger.exception("The live hub could not catch up from the database")

    def open_streams(self) -> int:
        return sum(len(followed.subscriptions) for followed in self.followed.values())

    async def _report_streams(self) -> None:
        """This hub's count of open streams, to the live Redis, for three ticks (a process that dies drops out)."""
        if not settings.PODIUM_LIVE_REDIS_URL:
            return
        import redis.asyncio as aioredis

        try:
            if self.reporter is None:
                self.reporter = aioredis.Redis.from_url(
                    settings.PODIUM_LIVE_REDIS_URL, socket_connect_timeout=2, socket_timeout=2
                )
            ttl = max(5, int(3 * settings.PODIUM_LIVE_HEARTBEAT) + 1)
            await self.reporter.set(self.report_key, self.open_streams(), ex=ttl)
        except Exception as exc:  # noqa: BLE001 - a count not reported is a gap in a graph, nothing more
            logger.debug("The live hub could not report its streams (%s)", exc)

    async def _listen(self) -> None:
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        backoff = 0.05
        while True:
            client = aioredis.Redis.from_url(settings.PODIUM_LIVE_REDIS_URL, socket_connect_timeout=2)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(settings.PODIUM_LIVE_CHANNEL)
                self.redis_connected = True
                backoff = 0.05
                await self._catch_up_all()  # what was sent while this process was not listening
                while True:
                    message = await pubsub.get_message(timeout=None)
                    if message is not None and message["type"] == "message":
                        await self._receive(Message.decode(message["data"]))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                if self.redis_connected:
                    logger.warning("The live hub lost Redis (%s): reconnecting", exc)
            except Exception:  # noqa: BLE001 - a bad message must not stop the hub
                logger.exception("The live hub failed on a message")
            finally:
                self.redis_connected = False
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except Exception:  # noqa: BLE001 - the connection is gone anyway
                    pass
            await asyncio.sleep(backoff)
            backoff = min(1.0, backoff * 2)


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
_hubs_lock = threading.Lock()
_hub_numbers = itertools.count(1)


def streams_key_prefix() -> str:
    """Where the stream servers' counts are kept: beside the site's channel, so two sites never add up."""
    return f"{settings.PODIUM_LIVE_CHANNEL}:streams:"


def open_streams() -> int:
    """Streams open on every stream server of the site (their last reports), or on this process without Redis."""
    if not settings.PODIUM_LIVE_REDIS_URL:
        with _hubs_lock:
            hubs = list(_hubs.values())
        return sum(hub.open_streams() for hub in hubs)
    import redis

    client = redis.Redis.from_url(
        settings.PODIUM_LIVE_REDIS_URL,
        socket_connect_timeout=settings.REDIS_TIMEOUT,
        socket_timeout=settings.REDIS_TIMEOUT,
    )
    try:
        pattern = "".join("\\" + c if c in "*?[]\\" else c for c in streams_key_prefix()) + "*"
        keys = list(client.scan_iter(match=pattern, count=1000))
        return sum(int(value) for value in (client.mget(keys) if keys else []) if value is not None)
    finally:
        client.close()


def get_hub() -> Hub:
    """The hub of the running event loop (started with the first stream)."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = Hub(loop)
        return hub


def deliver_in_process(messages: list[Message]) -> None:
    """Without Redis: hand what this process published to its hubs (from any thread)."""
    with _hubs_lock:
        hubs = list(_hubs.values())
    for hub in hubs:
        if not hub.loop.is_closed():
            hub.deliver_threadsafe(messages)


publish.LOCAL_HUBS.append(deliver_in_process)
