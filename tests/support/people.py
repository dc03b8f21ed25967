"""People for the tests: the event staff by role and signing in as someone.

- ``ROLES``: one staff account per role (``cora`` co-organiser, ``sam`` scorekeeper, ``jo`` judge, ``cass`` caster).
- :func:`with_staff`: add those accounts to an event as its staff.
- :func:`as_user`: a test client signed in as ``user``.
- :func:`token_for`: a new API token of ``user`` (its key, for ``Authorization: Token <key>``).
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


def token_for(user) -> str:
    from accounts.services import account_token

    return account_token(user=user)
