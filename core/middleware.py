"""Requests whose URL no page or operation could answer without a server error are answered here, first.

A NUL character in a query parameter (``?q=a%00b``) or in the path reaches
PostgreSQL as text it refuses, so a filter or a lookup would fail with a 500.
Nothing Podium stores holds one, so:

* in the path: 404, no such page or resource;
* in a query parameter's name or value: 400 naming the parameter.

A URL (path and query string) longer than :data:`MAX_URL_LENGTH` characters is 414: no page or operation takes
one that long.  The web server's own limit on the request line is set above it (``config/gunicorn.conf.py``), so
it is this answer a client gets, not the server's page.

Under ``/api/`` the answer has the API's error shape (:mod:`core.api`); elsewhere it is the site's 400 or 404
page (with status 414 for a URL too long).  JSON bodies get the same checks from :mod:`core.parsers`; form
fields from Django's and DRF's own ``ProhibitNullCharactersValidator``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext, gettext_lazy
from django.views import defaults

from core.parsers import NUL, shown

API_PREFIX = "/api/"

#: The longest URL (path and query string, as sent) Podium answers; gunicorn's limit on the whole request line
#: (``limit_request_line`` in ``config/gunicorn.conf.py``) must stay above it, with room for the method and version.
MAX_URL_LENGTH = 4096
URL_TOO_LONG = gettext_lazy("The URL is longer than the server accepts (%(most)s characters): send less in the query.")


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _unsafe_parameter(request: HttpRequest) -> str | None:
    for name, values in request.GET.lists():
        if NUL in name or any(NUL in value for value in values):
            return name
    return None


class UnsafeInputMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if len(request.get_full_path()) > MAX_URL_LENGTH:
            if is_api(request):
                return JsonResponse(
                    {"error": {"code": "uri_too_long", "message": str(URL_TOO_LONG) % {"most": f"{MAX_URL_LENGTH:,}"}}},
                    status=414,
                )
            response = defaults.bad_request(request, exception=None)
            response.status_code = 414
            return response
        if NUL in request.path:
            if is_api(request):
                return JsonResponse({"error": {"code": "not_found", "message": gettext("Not found.")}}, status=404)
            return defaults.page_not_found(request, exception=None)
        name = _unsafe_parameter(request)
        if name is not None:
            message = gettext("Null characters are not allowed.")
            if is_api(request):
                body = {
                    "code": "invalid",
                    "message": gettext("The request has invalid fields."),
                    "fields": {shown(name): [message]},
                }
                return JsonResponse({"error": body}, status=400)
            return defaults.bad_request(request, exception=None)
        return self.get_response(request)
