"""The request a page reads ``request.htmx`` from, typed.

django-htmx's middleware (``MIDDLEWARE`` in ``config/settings``) gives every request an ``htmx`` attribute, true
when htmx sent it (``HX-Request``); Django's ``HttpRequest`` does not declare it.  A page that asks whether htmx
sent its request annotates it as :class:`HtmxHttpRequest`, the class django-htmx's documentation suggests, so the
type checker knows the attribute is there.  Nothing builds one: the request stays Django's.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
