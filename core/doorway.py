"""The one doorway of every page and API view: load the object the URL names, ask the policy, answer its refusal.

A view names a :class:`Door` (what to load, which question to ask the policy) and goes through it::

    event = enter(request, doors.event(Action.PAIR_ROUNDS), event_id)

:func:`enter` loads the object (a missing one is "Event 12 does not exist."), hides it when the door says the user
may not know it exists (a private league: the same 404), and refuses with the policy's sentence for the action
(one text per action, :mod:`tournaments.policy`).  The answer is in the voice of whoever asked: a page gets Django's
404 and 403 pages, an API view (a DRF ``Request``) the API's error shape (:mod:`core.api`: 404, 403, or 401 when
nobody is signed in).  :func:`admit` answers the policy's refusal to a question about an object already loaded, or about none (may this
user create events at all?).

The doors themselves are declared next to what they load: events and registrations in ``tournaments.doors``,
games in ``games.doors``, leagues and seasons in ``leagues.doors``.  A new app's page picks one; it writes no guard.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as PagePermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext
from rest_framework.request import Request

from core.exceptions import NotFound as ApiNotFound
from core.exceptions import PermissionDenied as ApiPermissionDenied

#: ``(request, object) -> the policy's refusal, or None when the request may go on``.
type Refusal = Callable[[Any, Any], str | None]


def _let_in(request: Any, obj: Any) -> str | None:
    return None


def _shown(request: Any, obj: Any) -> bool:
    return False


@dataclass(frozen=True)
class Door[T]:
    """What a view loads from its URL, and the policy's question it asks before it goes on.

    ``load(*ids)`` returns the object or raises ``ObjectDoesNotExist``; ``what`` names it in the not-found answer
    ("Event" → "Event 12 does not exist."); ``hidden(request, obj)`` answers 404 as if it did not exist;
    ``refusal(request, obj)`` is the policy's sentence when the request may not go on, None when it may.
    ``missing`` says it otherwise, formatted with the ids ("Event {0.pk} has no station {1!r}."), and ``code`` is
    the API's error code for it.  ``what`` and ``missing`` are English, marked with ``gettext_noop`` where the
    door is declared, and translated when the answer is given.  ``entered(request, obj)``, when given, is told that
    the request was let in.
    """

    what: str
    load: Callable[..., T]
    refusal: Refusal = field(default=_let_in)
    hidden: Callable[[Any, T], bool] = field(default=_shown)
    missing: str | None = None
    code: str = "not_found"
    #: Called with ``(request, obj)`` once the request is let in (an event's pages take its default language:
    #: :func:`core.language.event_entered`).
    entered: Callable[[Any, T], None] | None = None

    def asking(self, refusal: Refusal) -> Door[T]:
        """The same object behind another of the policy's questions."""
        return replace(self, refusal=refusal)


def _is_api(request: Any) -> bool:
    return isinstance(request, Request)


def _missing(request: Any, door: Door[Any], ids: tuple[Any, ...]) -> Exception:
    what = gettext(door.what)
    if door.missing is not None:
        message = gettext(door.missing).format(*ids)
    elif ids:
        # Translators: "what" is the kind of thing the address names: Event, Round, Table, League...
        message = gettext("%(what)s %(id)s does not exist.") % {"what": what, "id": ids[-1]}
    else:
        message = gettext("No such %(what)s.") % {"what": what.lower()}
    return ApiNotFound(message, code=door.code) if _is_api(request) else Http404(message)


def refuse(request: Any, message: str) -> Exception:
    """The refusal in the asker's voice: the 403 page, or the API's 403 (401 when nobody is signed in)."""
    return ApiPermissionDenied(message) if _is_api(request) else PagePermissionDenied(message)


def enter[T](request: HttpRequest | Request, door: Door[T], *ids: Any) -> T:
    """The object ``door`` loads from ``ids``, if the request may go on; the 404 or the policy's refusal otherwise."""
    try:
        obj = door.load(*ids)
    except ObjectDoesNotExist:
        raise _missing(request, door, ids) from None
    if door.hidden(request, obj):
        raise _missing(request, door, ids)
    message = door.refusal(request, obj)
    if message is not None:
        raise refuse(request, message)
    if door.entered is not None:
        door.entered(request, obj)
    return obj


def admit(request: HttpRequest | Request, refusal: str | None) -> None:
    """Go on when the policy's answer to a question asked of an object already loaded, or of none (may this user
    create events?), is no refusal (None); answer its refusal otherwise."""
    if refusal is not None:
        raise refuse(request, refusal)
