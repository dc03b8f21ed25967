"""People for the tests: the event staff by role and signing in as someone.

- ``ROLES``: one staff account per role (``cora`` co-organiser, ``sam`` scorekeeper, ``jo`` judge, ``cass`` caster).
- :func:`with_staff`: add those accounts to an event as its staff.
- :func:`as_user`: a test client signed in as ``user``.
"""

from __future__ import annotations

from tournaments.models import Event
from tournaments.services import staff

ROLES = {"cora": "co_organiser", "sam": "scorekeeper", "jo": "judge", "cass": "caster"}


def with_staff(event: Event, users) -> Event:
    for username, role in ROLES.items():
        staff.staff_add(event=event, username=username, role=role, by=users["organiser"])
    return event


def as_user(client, user):
    client.force_login(user)
    return client
