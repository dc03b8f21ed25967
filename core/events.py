"""Domain events: what happened, recorded by a service in its transaction, delivered to readers after commit.

Every change a service makes that someone outside it cares about is one
*domain event*, named ``<entity>.<verb>`` (``round.started``,
``result.corrected``, ``game.entry_recorded``, ``deck.submitted``).  The
service calls :func:`record` once, inside its transaction, at the point where
the change is made.  Nothing else in a service hands work on: no
``transaction.on_commit``, no Celery call, no "and also update X".

Terms
=====

*domain event*
    A :class:`DomainEvent`: its ``action``, the tournament event it belongs
    to (``event_id``), who did it (``actor_id``), what it is about in words
    (``subject``), the values before and after as plain JSON, the reason when
    one was given, and ``data``: further facts for readers (ids, flags) that
    the audit trail does not show.  Plain data only, so it can be stored or
    sent as it is.

*handler* (:func:`handler`)
    Runs when the event is recorded, in the service's transaction: what it
    writes commits or rolls back with the change, and if it fails the change
    fails.  For writes that must exist exactly when the change does: the
    audit trail's entry, the mark that an event's standings are out of date.

*reader* (:func:`reader`)
    Runs after the transaction commits, never for a change that rolled back
    (a savepoint rolled back takes its events with it).  A reader that fails
    is logged and the other readers still run: a committed write is never
    failed by one.  Readers must be quick (they hand work to Celery through
    :mod:`core.jobs`, which never waits long for a broker).  Standings,
    deck checks, and later the live push and league points, are readers.

Handlers and readers subscribe to actions by name (or to :data:`ANY`); each
app subscribes its own in its ``readers`` module, loaded by its
``AppConfig.ready``.  This module names no app: the arrows point into it.

Every name is one of the catalogue's (:class:`core.domain_actions.DomainAction`):
recording, subscribing to or asking about any other name raises
:class:`ValueError` at once, so a misspelt reader fails when its module is
imported rather than never being called.
"""

from __future__ import annotations

import datetime
import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from difflib import get_close_matches
from functools import partial
from typing import Any

from django.db import models, transaction

from core.domain_actions import BY_NAME, DomainAction

logger = logging.getLogger(__name__)

#: Subscribe to every action.
ANY = "*"

Callback = Callable[["DomainEvent"], None]

_handlers: dict[str, list[Callback]] = defaultdict(list)
#: Handlers that run after every other handler of the action (see :func:`handler`'s ``last``).
_last_handlers: dict[str, list[Callback]] = defaultdict(list)
_readers: dict[str, list[Callback]] = defaultdict(list)


@dataclass(frozen=True, slots=True)
class DomainEvent:
    action: str
    event_id: int | None
    actor_id: int | None = None
    subject: str = ""
    before: Any = None
    after: Any = None
    reason: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)
    #: Shown in the audit trail (``False`` for facts kept elsewhere, e.g. a game's own log).
    audited: bool = True


def plain(value: Any) -> Any:
    """``value`` as plain JSON: model instances as their ids, dates as ISO text, amounts as text, containers
    recursively."""
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal):  # an amount (an entry fee): exact, as text
        return str(value)
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    return value


def known(action: str) -> DomainAction:
    """The catalogue's action of this name; :class:`ValueError` (naming the closest) for any other."""
    found = BY_NAME.get(action)
    if found is None:
        close = get_close_matches(str(action), BY_NAME, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"{action!r} is not a domain event of core.domain_actions{hint}")
    return found


def record(
    *,
    action: DomainAction,
    event: Any,
    by: Any = None,
    subject: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
    audit: bool | None = None,
    **data: Any,
) -> DomainEvent:
    """Record that ``action`` happened (call it inside the change's transaction).

    ``event`` is the tournament event (a model instance, its id, or ``None``);
    ``by`` the user who acted (anonymous or ``None`` for the system).  Whether
    it goes into the audit trail is the catalogue's to say: ``audit``, when
    given, must agree with it.  The handlers run now; the readers once the
    transaction commits (at once when no transaction is open).
    """
    catalogued = known(action)
    name, audited = catalogued.value, catalogued.about.audited
    if audit is not None and audit != audited:
        raise ValueError(f"{name!r} is {'' if audited else 'not '}audited (core.domain_actions): record it so")
    actor_id = by.pk if by is not None and getattr(by, "is_authenticated", False) else None
    domain_event = DomainEvent(
        action=name,
        event_id=getattr(event, "pk", event),
        actor_id=actor_id,
        subject=subject,
        before=plain(before),
        after=plain(after),
        reason=reason,
        data=plain(data),
        audited=audited,
    )
    for callback in _in_order(name):
        callback(domain_event)
    for callback in (*_readers.get(name, ()), *_readers.get(ANY, ())):
        transaction.on_commit(partial(_deliver, callback, domain_event), robust=True)
    return domain_event


def _deliver(callback: Callback, domain_event: DomainEvent) -> None:
    try:
        callback(domain_event)
    except Exception:  # noqa: BLE001 - the write has committed; a reader's failure is logged, never raised
        logger.exception(
            "Reader %s failed on %s (event %s)", _name(callback), domain_event.action, domain_event.event_id
        )


def _name(callback: Callback) -> str:
    return f"{getattr(callback, '__module__', '?')}.{getattr(callback, '__qualname__', repr(callback))}"


def _subscribe(table: dict[str, list[Callback]], actions: Iterable[str]) -> Callable[[Callback], Callback]:
    names = tuple(action if action == ANY else known(action).value for action in actions)
    if not names:
        raise ValueError("subscribe to at least one action (or ANY)")

    def decorate(callback: Callback) -> Callback:
        for name in names:
            if callback not in table[name]:  # a module loaded twice subscribes once
                table[name].append(callback)
        return callback

    return decorate


def handler(*actions: str, last: bool = False) -> Callable[[Callback], Callback]:
    """Subscribe a handler: it runs in the recording transaction (see the module docstring).

    ``last``: it runs after every other handler of the action.  For a write that locks a row other
    transactions wait for (an event's results version, which every result of the event updates): the
    lock is held from that write to the commit, so the fewer statements come after it, the shorter
    the queue behind it.  Handlers marked ``last`` run in the order they subscribed.
    """
    return _subscribe(_last_handlers if last else _handlers, actions)


def _in_order(action: str) -> tuple[Callback, ...]:
    """The handlers of ``action`` in the order they run: its own, then ``ANY``'s, then the ``last`` ones."""
    return (
        *_handlers.get(action, ()), *_handlers.get(ANY, ()),
        *_last_handlers.get(action, ()), *_last_handlers.get(ANY, ()),
    )  # fmt: skip


def reader(*actions: str) -> Callable[[Callback], Callback]:
    """Subscribe a reader: it runs after commit, and its failure never fails the write."""
    return _subscribe(_readers, actions)


def unsubscribe(callback: Callback) -> None:
    """Take a handler or reader off every action (tests that subscribe their own)."""
    for table in (_handlers, _last_handlers, _readers):
        for callbacks in table.values():
            while callback in callbacks:
                callbacks.remove(callback)


def subscribers(action: str) -> tuple[list[str], list[str]]:
    """The names of the handlers and the readers of ``action`` (for the docs and the tests)."""
    action = known(action).value
    return (
        [_name(c) for c in _in_order(action)],
        [_name(c) for c in (*_readers.get(action, ()), *_readers.get(ANY, ()))],
    )


def subscriptions() -> list[tuple[str, bool, list[str]]]:
    """Every subscriber: its name, whether it is a handler (else a reader), and its actions (``ANY`` for all)."""
    found: dict[tuple[str, bool], list[str]] = {}
    for is_handler, table in ((True, _handlers), (True, _last_handlers), (False, _readers)):
        for action, callbacks in table.items():
            for callback in callbacks:
                found.setdefault((_name(callback), is_handler), []).append(action)
    return [(name, is_handler, actions) for (name, is_handler), actions in found.items()]
