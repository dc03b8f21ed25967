"""Podium's URLs and one that fails on purpose: what error reporting is tested with."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler400, handler403, handler404, handler500
from config.urls import urlpatterns as podium_urlpatterns

FAILURE = "A view failed on purpose (the error reporting test)"


def fail(request: HttpRequest) -> HttpResponse:
    raise RuntimeError(FAILURE)


urlpatterns = [path("api/v1/observability-test/fail/", fail), *podium_urlpatterns]
__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
