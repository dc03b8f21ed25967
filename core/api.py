"""One JSON error shape for the whole API.

Every error answer looks like::

    {"error": {"code": "round_incomplete", "message": "...", "fields": {"placements": ["..."]}}}

``fields`` is present for validation errors (one list of messages per field).
User errors (DRF's own exceptions, Django's ``ValidationError`` and
:class:`core.exceptions.ApplicationError`) map to 4xx; anything else is left to
Django and becomes a 500, because it is a bug.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.exceptions import ApplicationError


def _error(code: str, message: str, status_code: int, fields: Any = None, extra: dict | None = None) -> Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    if extra:
        body.update(extra)
    return Response({"error": body}, status=status_code)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, ApplicationError):
        fields = {exc.field: [exc.message]} if exc.field else None
        return _error(exc.code, exc.message, exc.status_code, fields, exc.extra)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        fields = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        return _error("invalid", "The request has invalid fields.", status.HTTP_400_BAD_REQUEST, fields)
    if isinstance(exc, exceptions.ParseError):
        return _error("parse_error", str(exc.detail), status.HTTP_400_BAD_REQUEST, {"body": [str(exc.detail)]})
    code = getattr(exc, "default_code", "error")
    detail = getattr(exc, "detail", str(exc))
    response.data = {"error": {"code": code, "message": str(detail)}}
    return response
