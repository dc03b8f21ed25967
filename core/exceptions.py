"""The one error family services raise for bad requests.

A service raises :class:`ApplicationError` when a request breaks a rule a user
can fix ("results are missing for tables 3 and 7").  Views turn it into a form
error, the API into a 400/409 with the shape documented in :mod:`core.api`.
Anything else that escapes is a bug and becomes a 500.

The ``message`` is for people, in the language of the request: services word it with ``gettext`` when they
raise (named placeholders, ``_("Round %(round)s ...") % {...}``); the ``code`` is for programs and never changes.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from rules.speech import Phrase, say


class ApplicationError(Exception):
    status_code = 400

    def __init__(
        self, message: str, *, code: str = "invalid", field: str | None = None, extra: dict[str, Any] | None = None
    ):
        #: A phrase of the rules (:mod:`rules.speech`) as given, for who says it with more (the players' names).
        self.phrase = message if isinstance(message, Phrase) else None
        message = say(message)  # in the request's language
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field
        self.extra = extra or {}


class NotFound(ApplicationError):
    status_code = 404

    def __init__(self, message: str, *, code: str = "not_found", **kwargs: Any):
        super().__init__(message, code=code, **kwargs)


class Conflict(ApplicationError):
    """The request is well-formed but the current state refuses it (409)."""

    status_code = 409

    def __init__(self, message: str, *, code: str = "conflict", **kwargs: Any):
        super().__init__(message, code=code, **kwargs)


class NotAuthenticated(ApplicationError):
    """Only a signed-in user may do this, and nobody is signed in (401)."""

    status_code = 401

    def __init__(self, message: str | None = None, *, code: str = "not_authenticated", **kwargs: Any):
        super().__init__(gettext("Sign in first.") if message is None else message, code=code, **kwargs)


class PermissionDenied(ApplicationError):
    status_code = 403

    def __init__(self, message: str | None = None, *, code: str = "permission_denied", **kwargs: Any):
        super().__init__(gettext("You may not change this event.") if message is None else message, code=code, **kwargs)


class TooLarge(ApplicationError):
    """What was sent is larger than the operation takes (413): an uploaded file over its limit."""

    status_code = 413

    def __init__(self, message: str, *, code: str = "file_too_large", **kwargs: Any):
        super().__init__(message, code=code, **kwargs)
