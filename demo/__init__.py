"""The demo, run by ``python manage.py demo``: an entry point like ``config`` and ``bench``, above every app.

It seeds a demo event of every format (players, a played round, decks, a game in progress and the stream station),
an event open for registration and a league with a season of played nights, through the same services the
dashboard and the API use.

- :mod:`demo.management.commands.demo`: the command, its accounts and its events.
- :mod:`demo.league`: the demo's league, a season of played events in two formats.
- :mod:`demo.big_event`: the demo's big event, two days with byes, staged pairings and the judges' floor.
- :mod:`demo.people`: players entering the demo's events as the staff enter them.
"""
