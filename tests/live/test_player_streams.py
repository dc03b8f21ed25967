"""The hub hands a live event to the streams that carry it: the event's and stations' streams as before, and of
the players' own streams only those its players name.  At a round's end every result went to every player's page:
2,000 results to 4,000 pages is 8 million writes (``bench championship``); to the table's players it is 4,000."""

from __future__ import annotations

import asyncio

from live.hub import Subscription, _Followed
from live.publish import Message


def _message(players: list[int] | None, stations: list[str] | None = None) -> Message:
    return Message(event_id=1, seq=1, kind="table.result", data={}, stations=stations, players=players)


def _followed(*subscriptions: Subscription) -> _Followed:
    followed = _Followed()
    for subscription in subscriptions:
        followed.add(subscription)
    return followed


def test_a_tables_news_goes_to_the_events_streams_and_its_players_own_only():
    async def run() -> None:
        event, station = Subscription(1, None), Subscription(1, "stream-1")
        mine, yours, theirs = Subscription(1, None, 7), Subscription(1, None, 8), Subscription(1, None, 9)
        also_mine = Subscription(1, None, 7)  # the same player on a second device
        followed = _followed(event, station, mine, yours, theirs, also_mine)
        assert set(followed.receivers(_message([7, 8], stations=[]))) == {event, mine, also_mine, yours}
        assert set(followed.receivers(_message([7, 8], stations=["stream-1"]))) == {event, station, mine, also_mine,
                                                                                    yours}  # fmt: skip
        assert set(followed.receivers(_message(None))) == {event, station, mine, yours, theirs, also_mine}
        assert set(followed.receivers(_message([]))) == {event, station}  # a feature match: no player's
        followed.discard(mine)
        followed.discard(theirs)
        assert set(followed.receivers(_message([7, 9]))) == {event, station, also_mine}
        assert 9 not in followed.by_player and followed.subscriptions == {event, station, yours, also_mine}

    asyncio.run(run())


def test_a_message_from_a_process_of_the_release_before_goes_to_every_players_stream():
    before = '{"e": 1, "s": 4, "k": "table.result", "d": {}, "st": []}'
    message = Message.decode(before)
    assert message.players is None and message.for_stream(None, 7)
    assert not Message.decode('{"e": 1, "s": 4, "k": "t", "d": {}, "st": [], "p": [8]}').for_stream(None, 7)
