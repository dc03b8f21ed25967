"""``docs/domain-events.md``, written from the catalogue (:mod:`core.domain_actions`) and the subscriptions the
apps make when they load (:mod:`core.events`).  Edit the catalogue, then rewrite the page::

    DEBUG=true python -m core.events_doc

``tests/core/test_domain_event_catalogue.py`` fails while the committed page differs from what this writes.
"""

from __future__ import annotations

import os
from pathlib import Path

from core import events
from core.domain_actions import DomainAction

PAGE = Path(__file__).resolve().parent.parent / "docs" / "domain-events.md"

_INTRO = """\
# Domain events

<!-- Written by `python -m core.events_doc` from `core/domain_actions.py`: edit the catalogue, not this page. -->

Every change a service makes is recorded once, inside its transaction, as a domain event
(`core.events.record`). Handlers run in that transaction; readers run after it commits, and a
failing reader never fails the change (see the docstring of `core/events.py`). A new consumer —
the live push to overlays, league points, ratings — is a new reader in its app's `readers.py`, not a
new call in every service. Action names are contracts, like the API's error codes: the audit trail
shows them, and readers subscribe to them. Each is a constant of the catalogue,
`core.domain_actions.DomainAction` (`DomainAction.ROUND_STARTED` is `round.started`), and
`core.events` refuses to record, or to subscribe anything to, a name that is not in it: a misspelt
reader fails the test suite when its module is imported.

Each event carries the tournament event's id (`event_id`, empty for what belongs to no event: a
league's changes, a claimed player record, a card import's re-checks, ratings), the acting user's id,
the subject in words, the values before and after as plain JSON, the reason when one was given, and
`data` (the facts in the fourth column). **Audited** events are the audit trail's entries: the
catalogue says which, and `record` refuses a service that says otherwise.

| action | recorded by | audited | `data` | subscribers besides the audit trail |
|---|---|---|---|---|
"""

_GROUPS = """
"Standings" is two subscribers in `tournaments/readers.py`: a handler that bumps
`Event.results_version` in the change's transaction (so the sweep finds standings older than their
results even if every later step is lost), and a reader that asks for a recompute after the commit,
coalesced per event.

"Live" is `live/readers.py`: a handler that writes the overlays' *live event* (`round.started`, `table.result`,
`table.report_changed`, `standings.updated`, `game.state_changed`, `timer.changed`, `feature.changed`) in the change's
transaction, with the facts as they are there, and a reader that numbers it after the commit and sends it to the
streams (Redis pub/sub, or this process's own streams without Redis). A live event that cannot be built is logged
and never fails the change. The live events' kinds are the overlays' contract, not domain events: some share a
domain event's name.

"Leagues: the format's ratings" is a reader in `leagues/readers.py` that asks for the format's ratings to be
brought up to date, coalesced per format (`leagues.tasks.update_ratings`).

## Subscribers

Who subscribes to what, as the apps subscribe when they load (each app's `readers.py`). Handlers run in the
change's transaction; readers after it commits.

| subscriber | runs | actions |
|---|---|---|
"""


def _row(*cells: str) -> str:
    return "| " + " | ".join(cells) + " |"


def markdown() -> str:
    """The page, from the catalogue and the subscriptions made so far (every app's, once Django is set up)."""
    lines = [_INTRO.rstrip("\n")]
    for action in DomainAction:
        about = action.about
        lines.append(_row(f"`{action}`", about.recorded_by, "✓" if about.audited else "", about.data, about.readers))
    lines.append(_GROUPS.rstrip("\n"))
    subscribed = sorted(events.subscriptions(), key=lambda s: (not s[1], s[0]))
    for name, is_handler, actions in subscribed:
        names = "every action" if events.ANY in actions else ", ".join(f"`{a}`" for a in sorted(actions))
        lines.append(_row(f"`{name}`", "in the transaction" if is_handler else "after the commit", names))
    return "\n".join(lines) + "\n"


def main() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    django.setup()  # each app's ready() loads its readers: their subscriptions are on the page
    PAGE.write_text(markdown(), encoding="utf-8")
    print(f"wrote {PAGE.name}: {len(DomainAction)} actions")


if __name__ == "__main__":
    main()
