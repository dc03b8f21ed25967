"""Requests whose URL no page or operation could answer without a server error are answered here, first.

A NUL character in a query parameter (``?q=a%00b``) or in the path reaches
PostgreSQL as text it refuses, so a filter or a lookup would fail with a 500.
Nothing Podium stores holds one, so:

* in the path: 404, no such page or resource;
* in a query parameter's name or value: 400 naming the parameter.

Under ``/api/`` the answer has the API's error shape (:mod:`core.api`); elsewhere it is the site's 400 or 404
page.  JSON bodies get the same checks from :mod:`core.parsers`; form fields from Django's and DRF's own
``ProhibitNullCharactersValidator``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from core.parsers import NUL, shown

API_PREFIX = "/api/"


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
        if NUL in request.path:
            if is_api(request):
                return JsonResponse({"error": {"code": "not_found", "message": "Not found."}}, status=404)
            return defaults.page_not_found(request, exception=None)
        name = _unsafe_parameter(request)
        if name is not None:
            message = "Null characters are not allowed."
            if is_api(request):
                body = {
                    "code": "invalid",
                    "message": "The request has invalid fields.",
                    "fields": {shown(name): [message]},
                }
                return JsonResponse({"error": body}, status=400)
            return defaults.bad_request(request, exception=None)
        return self.get_response(request)
