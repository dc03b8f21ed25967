"""A stream writes what waits in its queue at once: one write per wake-up, not one per event.

In a round's burst of results every result goes to every stream of the event; a stream process that
wrote each one separately fell a minute behind with 4,000 streams (``bench championship``), and the
next round's pairing waited behind the backlog.  What goes out is the same frames in the same order.
"""

from __future__ import annotations

import asyncio

from live import streams
from live.hub import CLOSE, PING, Subscription, frame
from live.publish import Message


class _Hub:
    """The hub's side of a stream: a subscription whose queue the test fills."""

    def __init__(self, subscription: Subscription) -> None:
        self.subscription = subscription
        self.unsubscribed = False

    async def subscribe(
        self, event_id: int, station: str | None, player: int | None = None, *, staff: bool = False
    ) -> Subscription:
        return self.subscription

    async def replay(self, subscription: Subscription, after: int) -> list:
        return []

    def unsubscribe(self, subscription: Subscription) -> None:
        self.unsubscribed = True


def _item(seq: int) -> tuple[Message, bytes]:
    message = Message(event_id=1, seq=seq, kind="table.result", data={"table": seq}, stations=None)
    return message, frame(message.kind, message.seq, message.data)


def _writes(monkeypatch, queued: list, *, last: int = 3) -> tuple[list[bytes], _Hub]:
    subscription = Subscription(event_id=1, station=None)
    hub = _Hub(subscription)
    monkeypatch.setattr(streams, "get_hub", lambda: hub)

    async def run() -> list[bytes]:
        frames = streams._frames(1, None, last)
        writes = [await anext(frames)]  # the retry line
        for item in queued:
            subscription.queue.put_nowait(item)
        async for chunk in frames:
            writes.append(chunk)
        return writes

    return asyncio.run(run()), hub


def test_the_events_waiting_in_a_streams_queue_go_out_in_one_write_in_order(monkeypatch):
    writes, hub = _writes(monkeypatch, [_item(4), _item(5), PING, _item(6), CLOSE])
    assert writes[1:] == [_item(4)[1] + _item(5)[1] + PING + _item(6)[1]]
    assert hub.unsubscribed


def test_a_batch_skips_what_the_stream_already_sent_and_ends_at_a_close(monkeypatch):
    writes, _ = _writes(monkeypatch, [_item(3), _item(4), _item(4), CLOSE, _item(5)], last=3)
    assert writes[1:] == [_item(4)[1]]


def test_a_close_alone_ends_the_stream_without_a_write(monkeypatch):
    writes, hub = _writes(monkeypatch, [CLOSE])
    assert len(writes) == 1 and hub.unsubscribed
