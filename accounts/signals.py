"""Receivers: a signed-in account's language is kept in its session (:mod:`core.language`); a lockout seen by the API's sign-in reaches the middleware that answers it.

django-axes marks the request it was given as locked out, and its middleware
answers for the marked request.  The API's token view hands axes DRF's request,
a wrapper around Django's: the mark is copied onto the request inside, so the
API answers 429 ``throttled`` like the pages do, not a plain "wrong password".
"""

from __future__ import annotations

from axes.signals import user_locked_out
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from accounts import selectors
from core.language import remember_account_language


@receiver(user_logged_in, dispatch_uid="accounts.remember_language")
def remember_language(sender, request=None, user=None, **kwargs) -> None:
    """The account's language setting, in the session it signed in with: pages find it there without a query."""
    if request is not None and user is not None:
        remember_account_language(getattr(request, "_request", request), selectors.account_language(user))


@receiver(user_locked_out, dispatch_uid="accounts.mark_wrapped_request")
def mark_wrapped_request(sender, request=None, **kwargs) -> None:
    inner = getattr(request, "_request", None)
    if inner is not None and inner is not request:
        inner.axes_locked_out = True
        inner.axes_credentials = getattr(request, "axes_credentials", None)
