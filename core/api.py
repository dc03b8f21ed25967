"""One JSON error shape for the whole API, and its description in the OpenAPI schema.

Every error answer looks like::

    {"error": {"code": "round_incomplete", "message": "...", "fields": {"placements": ["..."]}}}

``fields`` is present for validation errors (one list of messages per field).
User errors (DRF's own exceptions, Django's ``ValidationError`` and
:class:`core.exceptions.ApplicationError`) map to 4xx.  A database that cannot
answer (:data:`DATABASE_UNAVAILABLE`: it is down, unreachable, or refused the
connection) is a 503 ``service_unavailable`` with ``Retry-After``: the request
may well succeed in a moment, and it is no bug.  Anything else is left to
Django and becomes a 500, because it is a bug.

:data:`ERROR_CODES` is the catalogue of codes the API answers, each with its
status; API views document theirs with :func:`error_responses`, which builds
the ``responses`` entries of ``@extend_schema`` from a list of codes, so the
schema names every code an operation can answer under the right status.

One API view belongs to no app: :class:`UnknownApi`, which answers a URL under
``/api/`` that no operation matches with this shape rather than the site's HTML
404 page; Django's own error answers under ``/api/`` (``handler400`` ...) do the
same for what fails before a view.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext, gettext_lazy
from django.views import defaults
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema_field, extend_schema_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback
from rest_framework.views import exception_handler as drf_exception_handler

from core.exceptions import ApplicationError
from core.middleware import MAX_URL_LENGTH
from rules import FORMATS
from rules.speech import say_any

logger = logging.getLogger(__name__)

#: What the database driver raises when the database cannot answer: it is down or unreachable, refused the
#: connection, or lost it (Django's wrappers of the driver's errors).
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)
#: How long a client is asked to wait before trying again while the database is unavailable.
RETRY_AFTER_SECONDS = 10
UNAVAILABLE_MESSAGE = gettext_lazy(
    "The service is unavailable for a moment (its database does not answer): try again shortly."
)


def _error(code: str, message: str, status_code: int, fields: Any = None, extra: dict | None = None) -> Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    if extra:
        body.update(extra)
    return Response({"error": body}, status=status_code)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    request = context.get("request")
    anonymous = request is not None and not (request.user and request.user.is_authenticated)
    if isinstance(exc, ApplicationError):
        if exc.status_code == 403 and anonymous:
            return _unauthenticated(context)
        fields = {exc.field: [exc.message]} if exc.field else None
        return _error(exc.code, exc.message, exc.status_code, fields, exc.extra)
    if isinstance(exc, TOO_LARGE):
        return _error("too_large", str(TOO_LARGE_MESSAGE), status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, DATABASE_UNAVAILABLE):
        set_rollback()
        _log_unavailable(request, exc)
        unavailable = _error("service_unavailable", str(UNAVAILABLE_MESSAGE), status.HTTP_503_SERVICE_UNAVAILABLE)
        unavailable["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return unavailable
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.PermissionDenied) and anonymous:
        return _unauthenticated(context)

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        invalid = exc.detail
        at_fault = invalid if isinstance(invalid, dict) else {"non_field_errors": invalid}
        return _error("invalid", gettext("The request has invalid fields."), status.HTTP_400_BAD_REQUEST, at_fault)
    if isinstance(exc, exceptions.ParseError):
        return _error("parse_error", str(exc.detail), status.HTTP_400_BAD_REQUEST, {"body": [str(exc.detail)]})
    code = getattr(exc, "default_code", "error")
    message = getattr(exc, "detail", str(exc))
    response.data = {"error": {"code": code, "message": str(message)}}
    return response


def _log_unavailable(request: Any, exc: BaseException) -> None:
    where = f"{request.method} {request.path}" if request is not None else "a request"
    logger.error("The database did not answer %s: %s", where, exc)


def _unauthenticated(context: dict) -> Response:
    """401 for a request without credentials that only a signed-in user could make (403 stays for those who may
    not), with the ``WWW-Authenticate`` header saying how to sign in."""
    response = _error("not_authenticated", str(exceptions.NotAuthenticated.default_detail), 401)
    view, request = context.get("view"), context.get("request")
    header = view.get_authenticate_header(request) if view is not None and request is not None else None
    response["WWW-Authenticate"] = header or "Token"
    return response


#: A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (or with more fields than ``DATA_UPLOAD_MAX_NUMBER_FIELDS``).
TOO_LARGE = (RequestDataTooBig, TooManyFieldsSent)
TOO_LARGE_MESSAGE = gettext_lazy("The request body is too large.")


# --- error answers of Django itself, under /api/ ----------------------------------------------------------
#
# What fails before or outside an API view (a URL no operation matches, a body Django refuses to read, a bug)
# reaches Django's error handlers (``handler400`` ... in config/urls.py, with DEBUG off): under /api/ they answer
# the error shape, elsewhere the site's pages.


def _json_error(code: str, message: str, status_code: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status_code)


def handler400(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not request.path.startswith("/api/"):
        return defaults.bad_request(request, exception)
    if isinstance(exception, TOO_LARGE):
        return _json_error("too_large", str(TOO_LARGE_MESSAGE), 413)
    return _json_error("bad_request", gettext("The request is malformed."), 400)


def handler403(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not request.path.startswith("/api/"):
        return defaults.permission_denied(request, exception)
    return _json_error("permission_denied", gettext("You may not do this."), 403)


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not request.path.startswith("/api/"):
        return defaults.page_not_found(request, exception)
    return _json_error("not_found", gettext("Not found."), 404)


def handler500(request: HttpRequest) -> HttpResponse:
    if not request.path.startswith("/api/"):
        return defaults.server_error(request)
    # Django calls this while it handles the exception (outside the API views: a middleware's query).
    failure = sys.exc_info()[1]
    if isinstance(failure, DATABASE_UNAVAILABLE):
        _log_unavailable(request, failure)
        response = _json_error("service_unavailable", str(UNAVAILABLE_MESSAGE), 503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return _json_error("server_error", gettext("Something went wrong on our side; it has been logged."), 500)


# --- the error shape in the OpenAPI schema ------------------------------------------------------


@extend_schema_serializer(component_name="FileProblem")
class FileProblemSerializer(serializers.Serializer):
    """One problem of an uploaded file."""

    line = serializers.IntegerField(allow_null=True, help_text="1 is the first line; null for the file as a whole.")
    column = serializers.CharField(help_text="The column (or TOM element) at fault; empty for the whole line.")
    message = serializers.CharField()


@extend_schema_serializer(component_name="Error")
class ErrorSerializer(serializers.Serializer):
    """What went wrong: a stable ``code`` for programs, a ``message`` for people, and the fields at fault."""

    code = serializers.CharField(help_text="Stable and machine-readable; each operation lists the codes it answers.")
    message = serializers.CharField(help_text="The reason in a sentence, for people.")
    rule = serializers.CharField(required=False, help_text="Games: the rulebook section that refuses the entry.")
    version = serializers.IntegerField(required=False, help_text="``stale_version``: the game's current version.")
    state = serializers.DictField(required=False, help_text="``stale_version``: the game's current state.")
    blocking_seq = serializers.IntegerField(
        required=False, help_text="``void_breaks_log``: the later entry the void would make invalid."
    )
    lines = FileProblemSerializer(
        many=True, required=False,
        help_text="``invalid_roster``, ``unreadable_file``: every problem of the file, in the file's order.",
    )  # fmt: skip

    def get_fields(self) -> dict[str, serializers.Field]:
        # The answer's key is ``fields``, which a serializer cannot declare as a class attribute.
        declared = super().get_fields()
        fields = {"code": declared.pop("code"), "message": declared.pop("message")}
        fields["fields"] = serializers.DictField(
            required=False,
            help_text="Input at fault: a list of messages per field (nested like the input for nested fields).",
        )
        return {**fields, **declared}


@extend_schema_serializer(component_name="ErrorResponse")
class ErrorResponseSerializer(serializers.Serializer):
    error = ErrorSerializer()


#: Every code the API answers, with its status and what it means.  Services raise most of them
#: (``code=`` of :class:`core.exceptions.ApplicationError` and its subclasses); DRF raises
#: ``parse_error``, ``unsupported_media_type``, ``not_authenticated``, ``authentication_failed``,
#: ``not_found`` and ``throttled``.
ERROR_CODES: dict[str, tuple[int, str]] = {
    "invalid": (400, "a field is missing or wrong: `fields` names each one with its messages"),
    "parse_error": (400, "the body is not valid JSON (or form data)"),
    "unknown_format": (400, "no format has that slug"),
    "unknown_role": (400, "a deck role the formats don't have"),
    "invalid_option": (400, "an option the format doesn't have, or a value it doesn't allow"),
    "unknown_banlist": (400, "no banlist of that name has been imported"),
    "bye": (400, "a bye has no game to record"),
    "invalid_deck_master": (400, "a Deck Masters duel's named Deck Master is a Spell or Trap Card: only Monster Cards "
                                 "may be Deck Masters"),
    "unknown_card": (400, "no card of the imported card pool has that name or passcode"),
    "use_void": (400, "entries are voided with the void operation"),
    "unreadable_file": (400, "the file is no roster Podium reads: not UTF-8 text, a spreadsheet's own format, or XML "
                             "that is no TOM file (`lines` says where, when it is known)"),
    "invalid_roster": (400, "lines of the roster file are wrong (nothing was imported): `lines` lists every one with "
                            "its `line`, `column` and `message`"),
    "top_cut_needs_winner": (400, "the entry would end a top-cut table's game or match without one winner (a draw): "
                                  "play on until someone wins; `rule` names the rule"),
    "not_authenticated": (401, "no token or session: sign in first (the `WWW-Authenticate` header says how)"),
    "authentication_failed": (401, "the token is not valid, has expired or was revoked by signing out"),
    "permission_denied": (403, "only the event's organiser or staff may do this"),
    "not_found": (404, "no event, registration, penalty, round, table or game has that id (or the path is no API "
                       "URL)"),
    "round_not_found": (404, "that round has not been paired"),
    "table_not_found": (404, "the round has no table with that number"),
    "entry_not_found": (404, "the game has no entry with that number"),
    "too_few_players": (409, "too few players entered for a recommendation"),
    "duplicate_player": (409, "a player with that external id already exists"),
    "already_registered": (409, "the player is already registered for this event"),
    "event_finished": (409, "the event is finished"),
    "event_started": (409, "play has started: pairing settings are fixed, and players no longer register or withdraw"),
    "rounds_already_paired": (409, "planned rounds cannot be fewer than the Swiss rounds paired"),
    "top_cut_started": (409, "the top cut has started"),
    "dropped": (409, "the player has dropped"),
    "fixed_table_taken": (409, "another player is fixed to that table"),
    "round_already_paired": (409, "that round is already paired"),
    "round_incomplete": (409, "tables of the current round have no result yet"),
    "rounds_complete": (409, "every planned Swiss round has been played"),
    "not_enough_players": (409, "too few active players for a table"),
    "pairing_impossible": (409, "the pairing engine found no pairing (e.g. fixed tables that cannot all be kept)"),
    "rematch_unavoidable": (409, "every pairing has a rematch: send `allow_rematches: true` to accept the fewest"),
    "top_cut_complete": (409, "the top-cut final has been played"),
    "round_closed": (409, "only the current round can change"),
    "top_cut_round": (409, "top-cut tables follow the seeds: they are never re-paired or swapped"),
    "round_has_results": (409, "a table concerned already has a result or a game record"),
    "round_published": (409, "the round is already published"),
    "keep_apart_exists": (409, "the two players are already kept apart"),
    "round_not_published": (409, "the round is staged: staff publish it before players see or report it"),
    "no_swiss_rounds": (409, "no Swiss round has been played"),
    "swiss_incomplete": (409, "planned Swiss rounds remain"),
    "no_top_cut": (409, "no top cut is recommended for the attendance: give a size"),
    "phase_not_found": (404, "the event has no phase with that number"),
    "planned_by_phases": (409, "the event's rounds come from its phases: change the phases' rounds"),
    "phase_not_advanced": (409, "the phase before has not advanced its players (or, to undo, this one has not)"),
    "phase_incomplete": (409, "rounds of the phase remain to be played"),
    "phase_advanced": (409, "the phase's players have advanced: it cannot change or advance again"),
    "phase_started": (409, "the next phase has a paired round: its players' advance stands"),
    "last_phase": (409, "the last phase has no next phase: the top cut or the end follows it"),
    "nobody_advances": (409, "no player meets the phase's rule for going on"),
    "result_exists": (409, "the table already has a (different) result"),
    "deck_locked": (409, "decks are locked: the event has started"),
    "not_latest_version": (409, "a newer version of the deck replaced this one: rule on the latest"),
    "no_ruling": (409, "the deck version has no ruling to clear"),
    "game_in_progress": (409, "the table's current game is still in progress"),
    "pairing_changed": (409, "the round was paired again since the table was read: read its tables again"),
    "game_over": (409, "the table's game is over"),
    "game_superseded": (409, "the game is closed: the table's result was recorded by hand while it was in progress"),
    "stale_version": (409, "someone recorded an entry since `expected_version`: the answer carries the current "
                      "`version` and `state`"),
    "later_game_exists": (409, "a later game of this table exists"),
    "already_void": (409, "the entry is already void, or is itself a void"),
    "void_breaks_log": (409, "without the entry, a later one would be refused: `blocking_seq` names it"),
    "not_at_table": (403, "only the players seated at this table may report or confirm its result"),
    "unknown_user": (404, "no account has that username"),
    "not_staff": (404, "that account has no role at this event"),
    "unknown_claim_code": (404, "no player record has that claim code"),
    "no_report": (404, "nobody has reported this table's result yet"),
    "already_organiser": (409, "the organiser already runs the event"),
    "registration_closed": (409, "registration for the event is closed (or its deadline has passed)"),
    "registration_not_yet_open": (409, "registration is not open to this player yet: the message says when it opens "
                                  "for them (priority players earlier)"),
    "no_lottery": (409, "the event's places are not drawn by lottery"),
    "lottery_drawn": (409, "the lottery has already been drawn (a draw is never repeated)"),
    "entry_fee_unpaid": (409, "the player has not paid the entry fee, and the organiser checks in paid players only"),
    "not_registered": (409, "the player is on the waiting list, invited or has withdrawn"),
    "not_invited": (409, "the registration is no invitation waiting for an answer (withdrawn, declined, or no "
                         "invitation at all)"),
    "check_in_closed": (409, "players check themselves in only while the organiser keeps check-in open"),
    "round_in_progress": (409, "the player's table has no result yet: drop after it is reported"),
    "already_claimed": (409, "the player record is already linked to an account"),
    "player_has_history": (409, "the account already has a player history of its own"),
    "player_reports_off": (409, "the event takes results from its staff only"),
    "already_answered": (409, "the player has already reported or answered for this table"),
    "own_report": (409, "the reporting player does not confirm their own report"),
    "report_disputed": (409, "the players disagree about the table: staff enter its result to settle it"),
    "no_result": (409, "the table has no result to correct"),
    "cut_advanced": (409, "the next cut round is paired from this table's winner"),
    "already_rescinded": (409, "the penalty is already rescinded"),
    "unknown_preset": (400, "no points preset has that name (see /api/v1/points-presets/)"),
    "invalid_points_table": (400, "a points table that cannot be: negative points, bands out of order, best N below 1"),
    "event_not_in_season": (404, "the event is not in that season"),
    "format_in_use": (409, "events of that format are in the league's seasons: remove them first"),
    "format_not_in_league": (409, "the league does not hold the event's format"),
    "event_in_season": (409, "the event is in another season: send `move: true` to move it"),
    "ratings_unavailable": (409, "no ratings to seed by: seed round 1 at random"),
    "station_not_found": (404, "the event has no stream station of that name"),
    "station_exists": (409, "the event already has a stream station of that name"),
    "stream_opt_out": (409, "a player at that table opted out of being streamed (`players` names them): it cannot be a "
                            "feature match"),
    "decklist_hidden": (409, "decklists are not public yet and the organiser does not let casters see them"),
    "round_finished": (409, "the round is over (every table has its result, a later round has started, or the event "
                            "is finished): its clock no longer runs"),
    "timer_started": (409, "the round's clock has already started"),
    "timer_not_started": (409, "the round's clock has not started"),
    "timer_paused": (409, "the round's clock is already paused"),
    "timer_running": (409, "the round's clock is running: only a paused clock resumes"),
    "no_table": (409, "the player has no table in the event's current round to call a judge to"),
    "call_open": (409, "the table already has a judge call waiting or claimed: `call` names it"),
    "call_claimed": (409, "another judge has claimed the call: `claimed_by` names them"),
    "call_closed": (409, "the call is already resolved or cancelled"),
    "call_not_found": (404, "the event has no judge call with that id"),
    "not_a_judge": (400, "that account answers no judge calls at this event (add it to the staff as a judge first)"),
    "deck_check_not_found": (404, "the event has no deck check with that id"),
    "table_checked": (409, "a table asked for already has a deck check in that round"),
    "too_few_tables": (409, "the round has fewer tables left to deck-check than asked for"),
    "deck_check_started": (409, "the deck check has already started"),
    "deck_check_recorded": (409, "the deck check's end and outcome are already recorded"),
    "assignment_not_found": (404, "the event has no judge assignment with that id"),
    "file_too_large": (413, "the file is larger than the operation takes (a roster: 2 MB)"),
    "too_large": (413, "the body is larger than the server accepts (`DATA_UPLOAD_MAX_MEMORY_SIZE`, 2.5 MB)"),
    "uri_too_long": (414, f"the URL (path and query string) is longer than the server accepts ({MAX_URL_LENGTH:,} "
                          "characters)"),
    "unsupported_media_type": (415, "the body is neither JSON nor form data"),
    "throttled": (429, "too many requests: wait and retry"),
    "stream_unavailable": (503, "this server does not serve the live streams: the ASGI server (uvicorn) does"),
    "service_unavailable": (503, "the database does not answer for a moment: retry after `Retry-After` seconds"),
}  # fmt: skip

#: Codes every operation with a request body can answer.
BODY = ("invalid", "parse_error", "unsupported_media_type")
#: Codes of an operation open to any signed-in user.
SIGNED_IN = ("not_authenticated", "authentication_failed")
#: Codes of an operation reserved to the event's organiser or staff.
STAFF = (*SIGNED_IN, "permission_denied")

_STATUS_TITLES = {
    400: "The request is invalid.",
    401: "Not signed in: no credentials, or a token that is not valid.",
    403: "Signed in, but not allowed.",
    404: "Not found.",
    409: "The current state refuses the request.",
    413: "The body is too large.",
    414: "The URL is too long.",
    415: "Unsupported media type.",
    429: "Throttled.",
    503: "Unavailable: on this server, or for a moment.",
}

#: The line of a 400 that also carries the game engines' own refusals.
ENGINE_RULES_LINE = (
    "- any rule code of the format's engine (e.g. `not_your_turn`): the rules refuse it; "
    "`rule` names the rulebook section (see docs/games/)"
)


def error_responses(*codes: str, engine_rules: bool = False) -> dict[int, OpenApiResponse]:
    """``@extend_schema`` responses for the error ``codes`` of an operation, grouped by status.

    Each status gets the :class:`ErrorResponseSerializer` body and a description
    listing its codes (``- `code`: meaning``).  ``engine_rules``: the operation
    also answers 400 with the codes of the format's game engine.  An unknown code
    raises ``KeyError`` at import time, so the catalogue cannot fall behind.
    """
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys(codes):
        by_status.setdefault(ERROR_CODES[code][0], []).append(code)
    if engine_rules:
        by_status.setdefault(400, [])
    return {
        status_code: OpenApiResponse(
            ErrorResponseSerializer,
            description=_describe(status_code, names, engine_rules=engine_rules and status_code == 400),
        )
        for status_code, names in sorted(by_status.items())
    }


def _describe(status_code: int, codes: Iterable[str], *, engine_rules: bool) -> str:
    lines = [f"- `{code}`: {ERROR_CODES[code][1]}" for code in codes]
    if engine_rules:
        lines.append(ENGINE_RULES_LINE)
    return _STATUS_TITLES[status_code] + " Codes:\n\n" + "\n".join(lines)


def document_shared_errors(result: dict, generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular post-processing hook: the codes any operation may answer, added where they apply.

    * 401 ``authentication_failed``: every operation that takes a token (a bad one is refused, even for a read);
    * 400 ``invalid``: every operation with query parameters (a NUL character in one, see :mod:`core.middleware`);
    * 413 ``too_large``: every operation with a request body;
    * 429 ``throttled``: every write (signed-in accounts' writes are throttled, :mod:`core.throttling`);
    * 414 ``uri_too_long`` and 503 ``service_unavailable``: every operation (a URL over the length any takes,
      :mod:`core.middleware`; the database not answering for a moment).

    A status the operation documents already gets the code added to its list; a new one gets the error body.
    """
    for methods in result.get("paths", {}).values():
        for method, operation in methods.items():
            shared = ["uri_too_long", "service_unavailable"]
            if any(requirement for requirement in operation.get("security", [{}])):
                shared.append("authentication_failed")
            if any(parameter.get("in") == "query" for parameter in operation.get("parameters", [])):
                shared.append("invalid")
            if "requestBody" in operation:
                shared.append("too_large")
            if method in ("post", "put", "patch", "delete"):
                shared.append("throttled")
            for code in shared:
                _add_code(operation.setdefault("responses", {}), code)
    return result


def _add_code(responses: dict, code: str) -> None:
    status_code = ERROR_CODES[code][0]
    response = responses.get(str(status_code))
    if response is None:
        responses[str(status_code)] = {
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
            "description": _describe(status_code, [code], engine_rules=False),
        }
    elif f"- `{code}`:" not in response.get("description", ""):
        response["description"] += f"\n- `{code}`: {ERROR_CODES[code][1]}"


# --- input shared by the API views ----------------------------------------------------------------

#: The largest id the database stores (ids are ``bigint``); ids in a body are checked against it.
MAX_ID = 2**63 - 1
#: The largest value of an ``integer`` column (table numbers, versions, capacities).
MAX_INT = 2**31 - 1
#: The largest value of a ``smallint`` column (round numbers, players per table, cut sizes).
MAX_SMALLINT = 2**15 - 1


class FormatField(serializers.ChoiceField):
    """A format's slug: one of the formats registered when the value is read (:mod:`rules`), so a format added
    to the registry after start-up (a plug-in, a test's toy format) is accepted like the others."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=sorted(FORMATS), **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        self.choices = sorted(FORMATS)
        return super().to_internal_value(data)


@extend_schema_field(OpenApiTypes.STR)
class SaidField(serializers.Field):
    """A stored sentence of the rules (a violation, a refused entry: ``{"message", "template", "params"}``, see
    :mod:`rules.speech`) said in the request's language; a row from before phrases keeps its English ``message``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, value: Any) -> str:
        return say_any(value)


def id_field(**kwargs: Any) -> serializers.IntegerField:
    """An integer field holding the id of a row: 1 to :data:`MAX_ID` (beyond, the database would fail)."""
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


# --- the API views of no app ----------------------------------------------------------------------


class UnknownApi(APIView):
    """A URL under ``/api/`` that no operation matches: 404 in the one error shape, for every method."""

    permission_classes = [AllowAny]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        raise exceptions.NotFound()


# --- lists ------------------------------------------------------------------------------------------------------


#: The most rows a page of a list holds.
MAX_LIMIT = 1000


class Pagination(LimitOffsetPagination):
    """Every list of the API: ``?limit=`` (default :attr:`default_limit`, 1 to :attr:`max_limit`) and ``?offset=``
    (0 or more); the answer is ``{"count", "next", "previous", "results"}`` (links to the neighbouring pages, or
    ``null``).  A limit or an offset that is no whole number in its range is a 400 naming it, as the schema says;
    an offset past any list is the same empty page (offsets stop at :data:`MAX_INT`, which the database can skip)."""

    default_limit = 100
    max_limit = MAX_LIMIT
    limit_query_description = f"Rows per page: 1 to {max_limit} (default {default_limit})."
    offset_query_description = "Rows to skip: 0 or more."

    class PageInput(serializers.Serializer):
        limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_LIMIT)
        offset = serializers.IntegerField(required=False, min_value=0)

    def _page(self, request: Request) -> dict[str, int]:
        """The request's ``limit`` and ``offset``, checked together (a 400 names every one at fault)."""
        given = {name: request.query_params[name] for name in ("limit", "offset") if name in request.query_params}
        page = self.PageInput(data=given)
        page.is_valid(raise_exception=True)
        return page.validated_data

    def get_limit(self, request: Request) -> int:
        return self._page(request).get("limit", self.default_limit)

    def get_offset(self, request: Request) -> int:
        return min(self._page(request).get("offset", 0), MAX_INT)

    def get_schema_operation_parameters(self, view: Any) -> list[dict]:
        ranges = {"limit": LIMIT_RANGE, "offset": OFFSET_RANGE}
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"].update(ranges[parameter["name"]])
        return parameters


#: What the schema says of ``limit`` and ``offset`` (the answer is a 400 outside it).
LIMIT_RANGE = {"minimum": 1, "maximum": MAX_LIMIT}
OFFSET_RANGE = {"minimum": 0}


def page_parameters() -> list[OpenApiParameter]:
    """The query parameters of a list the schema cannot see is one (the standings' rows in an object)."""
    return [
        OpenApiParameter("limit", {"type": "integer", **LIMIT_RANGE}, description=Pagination.limit_query_description),
        OpenApiParameter("offset", {"type": "integer", **OFFSET_RANGE},
                         description=Pagination.offset_query_description),
    ]  # fmt: skip


def paginated(view: APIView, request: Request, rows: Any, serialize: Any) -> Response:
    """The page of ``rows`` (a queryset: counted and sliced in the database; or a list) that ``request`` asks for,
    as ``serialize(page)`` in the :class:`Pagination` envelope.  The view names ``pagination_class = Pagination``
    so the schema documents the envelope and its parameters."""
    paginator = Pagination()
    page: list[Any] | None = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(serialize(page))


# --- the schema itself ------------------------------------------------------------------------------------------


class SchemaNegotiation(DefaultContentNegotiation):
    """``/api/schema/?format=json`` (or ``yaml``): the one place ``?format=`` picks the renderer.  Everywhere else
    ``?format=`` is no switch of DRF's (``URL_FORMAT_OVERRIDE`` is off: the API answers JSON only), so it can be
    the events list's filter by game format."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        wanted = request.query_params.get("format")
        if wanted:
            for renderer in renderers:
                if renderer.format == wanted:
                    return renderer, renderer.media_type
        return super().select_renderer(request, renderers, format_suffix)
