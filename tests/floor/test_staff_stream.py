"""The judges' queue is pushed live: the event's staff stream carries the judge calls' changes, the table's players'
own streams carry their table's, and no public stream carries any.  The stream is opened with the session of
someone who answers judge calls (401 without one, 403 for anyone else).

The stream test runs the plain ASGI application (:func:`live.streams.route`) in this process, its hub fed without
Redis, and opens a call from another thread, committed, as a request would."""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client

from floor import services
from live import hub as live_hub
from live import streams
from live.hub import Subscription, _Followed
from live.publish import Message


def _private(players: list[int]) -> Message:
    return Message(event_id=1, seq=1, kind="judge_call.changed", data={}, stations=[], players=players, private=True)


def test_a_private_live_event_goes_to_the_staff_streams_and_the_players_it_names_only():
    async def run() -> None:
        event, station, staff = Subscription(1, None), Subscription(1, "stream-1"), Subscription(1, None, staff=True)
        mine, theirs = Subscription(1, None, 7), Subscription(1, None, 9)
        followed = _Followed()
        for subscription in (event, station, staff, mine, theirs):
            followed.add(subscription)
        assert set(followed.receivers(_private([7, 8]))) == {staff, mine}
        public = Message(event_id=1, seq=2, kind="table.result", data={}, stations=None, players=None)
        assert staff not in followed.receivers(public)
        followed.discard(staff)
        assert set(followed.receivers(_private([7]))) == {mine} and not followed.staff

    asyncio.run(run())
    message = _private([7])
    assert message.for_stream(None, None, staff=True) and message.for_stream(None, 7)
    assert not message.for_stream(None, None) and not message.for_stream(None, 9) and not message.for_stream("s", None)
    assert Message.decode(message.encode()) == message
    assert not Message(1, 1, "table.result", {}, None).for_stream(None, None, staff=True)


async def _django(scope, receive, send) -> None:  # the streams never reach Django's application here
    raise AssertionError(scope["path"])


def _scope(event_id: int, path: str, cookie: str = "", query: bytes = b"") -> dict:
    headers = [(b"host", b"testserver")] + ([(b"cookie", cookie.encode())] if cookie else [])
    return {"type": "http", "method": "GET", "path": f"/api/v1/events/{event_id}/{path}", "query_string": query,
            "headers": headers}  # fmt: skip


class _Client:
    """One stream's answer as it comes: its status and the bytes of its body."""

    def __init__(self) -> None:
        self.status = 0
        self.body = b""
        self.gone = asyncio.Event()

    async def send(self, message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        else:
            self.body += message.get("body", b"")

    async def receive(self):
        await self.gone.wait()
        return {"type": "http.disconnect"}


async def _until(check, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def _session(client, user) -> str:
    client.force_login(user)
    return f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}"


@pytest.mark.django_db(transaction=True)
def test_a_judges_stream_receives_a_new_call_and_the_public_stream_does_not(floor_event, crew, client, settings):
    settings.PODIUM_LIVE_REDIS_URL = None
    settings.PODIUM_LIVE_PUBLISH_THREAD = False
    judge, player = _session(client, crew["jo"]), ""
    pat = floor_event.registrations.get(player__user=crew["pat"]).player_id
    app = streams.route(_django)

    async def run() -> None:
        clients = {name: _Client() for name in ("judge", "public", "pat", "nobody", "eve")}
        paths = {
            "judge": _scope(floor_event.pk, "judge-calls/stream/", judge),
            "public": _scope(floor_event.pk, "stream/"),
            "pat": _scope(floor_event.pk, "stream/", query=f"player={pat}".encode()),
            "nobody": _scope(floor_event.pk, "judge-calls/stream/", player),
            "eve": _scope(floor_event.pk, "judge-calls/stream/", eve),
        }
        tasks = [asyncio.ensure_future(app(paths[n], clients[n].receive, clients[n].send)) for n in clients]
        await _until(lambda: all(b"snapshot" in clients[n].body for n in ("judge", "public", "pat")))
        await _until(lambda: clients["nobody"].status and clients["eve"].status)
        assert (clients["nobody"].status, clients["eve"].status) == (401, 403)
        assert b"not_authenticated" in clients["nobody"].body and b"permission_denied" in clients["eve"].body

        def open_call():  # as a request would: in a thread of its own, committed, its connection closed after
            try:
                return services.judge_call_open(event=floor_event, by=crew["pat"])
            finally:
                connection.close()

        call = await asyncio.get_running_loop().run_in_executor(None, open_call)
        await _until(
            lambda: b"judge_call.changed" in clients["judge"].body and b"judge_call.changed" in clients["pat"].body
        )
        assert f'"call":{call.pk}'.encode() in clients["judge"].body and b'"state":"open"' in clients["judge"].body
        assert b"judge_call" not in clients["public"].body
        for one in clients.values():
            one.gone.set()
        await asyncio.gather(*tasks)
        hub = live_hub.get_hub()
        await hub.run_db(lambda: connection.close())  # the hub thread's own connection
        for task in hub.tasks:
            task.cancel()
        hub.db.shutdown(wait=True)
        with live_hub._hubs_lock:
            live_hub._hubs.pop(hub.loop, None)

    eve = _session(Client(), crew["eve"])
    asyncio.run(run())
