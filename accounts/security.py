"""Sign-in throttling hooks for django-axes: the locked-out answer (the client's address is core.proxies').

Terms: a *lockout* refuses every sign-in of one username from one address
(``AXES_LOCKOUT_PARAMETERS``) after ``AXES_FAILURE_LIMIT`` failures, for
``AXES_COOLOFF_TIME``.  Pages get the locked-out page; the API gets its error
shape with the code ``throttled`` (HTTP 429).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def lockout_response(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """HTTP 429: the locked-out page, or for the API the project's error shape."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    message = _("Too many failed sign-ins: this account is locked from your address for %(minutes)s minutes.") % {
        "minutes": minutes
    }
    status = settings.AXES_HTTP_RESPONSE_CODE
    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "throttled", "message": message}}, status=status)
    context = {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT}
    return render(request, "accounts/locked_out.html", context, status=status)
