"""What many test modules share, in one place: test modules import from here (and use conftest fixtures), never
from another test module (``tests/test_architecture.py`` checks it).

- :mod:`tests.support.events`: an event with registered players, every table of a round reported, a whole Swiss.
- :mod:`tests.support.played_event`: a running event with many rounds played, built in bulk (query counts).
- :mod:`tests.support.games`: a seated table, the games API driven one entry at a time, each format's
  scripted game (with each format's event builders in :mod:`tests.support.games.deck_masters`, ...).
- :mod:`tests.support.decks`: the made-up Mintayn card list, the rulings tests' staff, and legal decks of
  real cards per Pokémon format; :mod:`tests.support.data`: where the real card data is.
- :mod:`tests.support.people`: the event staff by role, and signing in as someone.
- :mod:`tests.support.pages`: a dashboard page's path, a page's visible text.
- :mod:`tests.support.standings`, :mod:`tests.support.pairing`: results and fields for the pure engines.
- :mod:`tests.support.openapi`: the OpenAPI schema generated in-process, and ways to read it;
  :mod:`tests.support.api_checks`: the same schema for schemathesis, and the checks every answer passes.
- :mod:`tests.support.concurrency`: run calls at the same moment on separate threads.
- :mod:`tests.support.browser`: what the browser tests check on a page (axe-core, overflow).

Model factories stay in :mod:`tests.factories`.
"""
