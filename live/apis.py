"""The live API: what overlays read (the event's live snapshot, a station's feature match, the bracket), and the
operations of the round timer, tables' extra time, stream stations and overlay tokens.

Reads are public; a station's feature match shows hidden decklists to a reader with the event's overlay token
(``?token=`` or ``X-Overlay-Token``) when the organiser lets casters see them, and to staff who may see them.  The
streams themselves are :mod:`live.streams` (async views, not in this schema: an OpenAPI client cannot follow them).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, STAFF, Pagination, error_responses, id_field, paginated
from core.doorway import enter
from live import doors as live_doors
from live import payloads, selectors, services
from tournaments import doors, policy
from tournaments import selectors as tournament_selectors
from tournaments.models import Event
from tournaments.policy import Action

TOKEN = OpenApiParameter(
    "token", str, description="The event's overlay token: hidden decklists, when casters may see them."
)


def decks_visible(request: Request, event: Event) -> bool:
    """Whether this reader sees hidden decklists: published, staff who may, or a valid overlay token (which
    sees them when casters may).  A token that is not valid is refused."""
    key = request.query_params.get("token") or request.headers.get("X-Overlay-Token")
    if key:
        if selectors.token_of(event=event, key=key) is None:
            raise exceptions.AuthenticationFailed(gettext("The overlay token is not valid (or was revoked)."))
        return policy.overlay_token_sees_hidden_decklists(event)
    return policy.can_view_hidden_decklists(request.user, event)


# --- reads -------------------------------------------------------------------------------------------------------


class LiveSnapshotApi(APIView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **error_responses("not_found")},
        description="Everything the event's overlays and venue screens show, as of live number `seq`: the current "
        "`round` and its `tables`, the `timer` (a `deadline` to count down to, and the `server_time` to correct "
        "a clock by), the first `standings`, the `stations`, the top-cut `bracket`. Then follow "
        "`GET /api/v1/events/{id}/stream/?last_event_id=<seq>` (Server-Sent Events; `&player=<id>`: a player's own "
        "stream, with the event's round, clock and standings and only the player's tables' news).",
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(payloads.event_snapshot(selectors.event_snapshot(event=enter(request, doors.EVENT, event_id))))


class BracketApi(APIView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **error_responses("not_found")},
        description="The top cut as a bracket: its `rounds`, played and to come (a table to come names the tables "
        "whose winners sit there, `fed_by`), and once the final has its result the final `placements` "
        "(champion, finalist, semi-finalists ...). Before the cut: size 0 and no rounds.",
    )
    def get(self, request: Request, event_id: int) -> Response:
        bracket = payloads.bracket_data(
            tournament_selectors.top_cut_bracket(event=enter(request, doors.EVENT, event_id))
        )
        return Response(bracket or {"size": 0, "pods": False, "complete": False, "rounds": [], "placements": []})


@extend_schema_serializer(component_name="Station")
class StationOutput(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    table = serializers.IntegerField(source="table_number", allow_null=True)
    decklist_on_air = serializers.IntegerField(source="revealed_player_id", allow_null=True)
    overlay_url = serializers.SerializerMethodField()
    stream_url = serializers.SerializerMethodField()

    def get_overlay_url(self, station) -> str:
        return f"/live/events/{station.event_id}/stations/{station.slug}/"

    def get_stream_url(self, station) -> str:
        return f"/api/v1/events/{station.event_id}/stations/{station.slug}/stream/"


class StationListCreateApi(APIView):
    pagination_class = Pagination

    @extend_schema_serializer(component_name="StationCreate")
    class InputSerializer(serializers.Serializer):
        slug = serializers.CharField(max_length=40, help_text="In the station's URLs: lower-case, like stream-1.")
        name = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")

    def get_permissions(self) -> list[BasePermission]:
        return [IsAuthenticated()] if self.request.method == "POST" else []

    @extend_schema(responses={200: StationOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        stations = selectors.stations_of(event=enter(request, doors.EVENT, event_id))
        return paginated(self, request, stations, lambda page: StationOutput(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: StationOutput, **error_responses(*BODY, *STAFF, "not_found", "station_exists")},
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Add a stream station (casters and organisers): its overlay URL stays the same across rounds."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        station = services.station_create(
            event=enter(request, doors.EVENT, event_id), by=request.user, **serializer.validated_data
        )
        return Response(StationOutput(station).data, status=status.HTTP_201_CREATED)


class StationDetailApi(APIView):
    @extend_schema_serializer(component_name="StationUpdate")
    class InputSerializer(serializers.Serializer):
        table = serializers.IntegerField(
            required=False, allow_null=True, min_value=1, max_value=2**31 - 1,
            help_text="A table of the current round; null: none.",
        )  # fmt: skip
        decklist_on_air = id_field(
            required=False, allow_null=True, help_text="The player whose decklist the overlay shows; null: none."
        )

    def get_permissions(self) -> list[BasePermission]:
        return [IsAuthenticated()] if self.request.method == "PATCH" else []

    @extend_schema(
        parameters=[TOKEN],
        responses={
            200: OpenApiTypes.OBJECT,
            **error_responses("authentication_failed", "not_found", "station_not_found"),
        },  # fmt: skip
        description="The station's feature match: the table in the current round, the players in seat order with "
        "their records, who is active, the format's counters from the game in progress, games won in a best of "
        "3, deck names (when the reader may see them), the timer and the decklist on air.",
    )
    def get(self, request: Request, event_id: int, slug: str) -> Response:
        event = enter(request, doors.EVENT, event_id)
        station = enter(request, live_doors.STATION, event, slug)
        data = payloads.feature_match(
            selectors.feature_match(station=station, decks_visible=decks_visible(request, event))
        )
        return Response({"seq": selectors.last_seq(event_id=event.pk), **data})

    @extend_schema(
        request=InputSerializer,
        responses={
            200: StationOutput,
            **error_responses(
                *BODY,
                *STAFF,
                "not_found",
                "station_not_found",
                "round_not_found",
                "table_not_found",
                "stream_opt_out",
                "decklist_hidden",
            ),  # fmt: skip
        },
    )
    def patch(self, request: Request, event_id: int, slug: str) -> Response:
        """Point the station at a table (casters and organisers), or put a decklist on air (or take it off).

        A table where a player who opted out of being streamed sits is refused (409 ``stream_opt_out``; the error's
        ``players`` names them)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changes: dict[str, Any] = {}
        if "table" in serializer.validated_data:
            changes["table_number"] = serializer.validated_data["table"]
        if "decklist_on_air" in serializer.validated_data:
            changes["revealed_player"] = serializer.validated_data["decklist_on_air"]
        event = enter(request, doors.EVENT, event_id)
        station = services.station_update(
            station=enter(request, live_doors.STATION, event, slug), by=request.user, **changes
        )
        return Response(StationOutput(station).data)


# --- the round timer --------------------------------------------------------------------------------------------


class TimerApi(APIView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **error_responses("not_found", "round_not_found")},
        description="The round's clock: `state` (not_started, running, paused, or finished once every table has "
        "its result), the `deadline` to count down to "
        "while it runs, `remaining` seconds, `server_time`, `time_up`, and the format's end-of-round `procedure`.",
    )
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = enter(request, doors.EVENT, event_id)
        round_ = enter(request, live_doors.ROUND, event, number)
        return Response(payloads.timer_view(round_, selectors.round_timer(round_=round_)))


class _MinutesInput(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=1, max_value=services.MAX_ROUND_MINUTES)


TIMER_ERRORS = (*STAFF, "not_found", "round_not_found", "round_finished")


def _timer_answer(event: Event, number: int) -> Response:
    round_ = tournament_selectors.round_get(event=event, number=number)
    return Response(payloads.timer_view(round_, selectors.round_timer(round_=round_) if round_ else None))


class TimerStartApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="TimerStart")
    class InputSerializer(_MinutesInput):
        pass

    @extend_schema(
        request=InputSerializer,
        responses={200: OpenApiTypes.OBJECT, **error_responses(*BODY, *TIMER_ERRORS, "timer_started")},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Start the round's clock: time is up `minutes` from now (overlays and pages count down to the deadline)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        services.timer_start(event=event, round_number=number, by=request.user, **serializer.validated_data)
        return _timer_answer(event, number)


class TimerPauseApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, **error_responses(
        *TIMER_ERRORS, "timer_not_started", "timer_paused")})  # fmt: skip
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Pause the round's clock."""
        event = enter(request, doors.EVENT, event_id)
        services.timer_pause(event=event, round_number=number, by=request.user)
        return _timer_answer(event, number)


class TimerResumeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, **error_responses(
        *TIMER_ERRORS, "timer_not_started", "timer_running")})  # fmt: skip
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Let the paused clock run again."""
        event = enter(request, doors.EVENT, event_id)
        services.timer_resume(event=event, round_number=number, by=request.user)
        return _timer_answer(event, number)


class TimerExtendApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="TimerExtend")
    class InputSerializer(serializers.Serializer):
        minutes = serializers.IntegerField(min_value=1, max_value=services.MAX_EXTRA_MINUTES)

    @extend_schema(
        request=InputSerializer,
        responses={200: OpenApiTypes.OBJECT, **error_responses(*BODY, *TIMER_ERRORS, "timer_not_started")},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Give the whole round `minutes` more."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        services.timer_extend(event=event, round_number=number, by=request.user, **serializer.validated_data)
        return _timer_answer(event, number)


class TableExtensionApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="TableExtension")
    class InputSerializer(serializers.Serializer):
        minutes = serializers.IntegerField(min_value=1, max_value=services.MAX_EXTRA_MINUTES)
        reason = serializers.CharField(max_length=200)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OpenApiTypes.OBJECT,
            **error_responses(*BODY, *TIMER_ERRORS, "table_not_found", "result_exists"),
        },
    )
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """A judge gives one table extra time (kept in its history): the table's own deadline moves."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        extension = services.table_time_extend(
            event=event, round_number=number, table_number=table, by=request.user, **serializer.validated_data
        )
        round_ = tournament_selectors.round_get(event=event, number=number)
        assert round_ is not None  # the service extended a table of this round
        extra = selectors.table_extensions(pod_ids=[extension.pod_id]).get(extension.pod_id, 0)
        timer = payloads.timer_view(round_, selectors.round_timer(round_=round_), extra_seconds=extra)
        body = {"table": table, "minutes": extension.seconds // 60, "reason": extension.reason, "timer": timer}
        return Response(body, status=status.HTTP_201_CREATED)


# --- overlay tokens ---------------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="OverlayToken")
class TokenOutput(serializers.Serializer):
    id = serializers.IntegerField()
    # DRF takes fields out of the class; the stubs see Field's attribute overridden (djangorestframework-stubs#158).
    label = serializers.CharField()  # type: ignore[assignment]
    prefix = serializers.CharField(
        help_text="The key's first characters, to tell tokens apart (only its digest is kept)."
    )
    created_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)


@extend_schema_serializer(component_name="OverlayTokenCreated")
class NewTokenOutput(TokenOutput):
    key = serializers.CharField(help_text="For `?token=<key>` on an overlay URL: answered this once, never again.")


class OverlayTokenListCreateApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="OverlayTokenCreate")
    class InputSerializer(serializers.Serializer):
        # DRF takes fields out of the class; the stubs see Field's attribute overridden (djangorestframework-stubs#158).
        label = serializers.CharField(max_length=100)  # type: ignore[assignment]

    @extend_schema(responses={200: TokenOutput(many=True), **error_responses(*STAFF, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The event's overlay tokens (casters and organisers)."""
        tokens = selectors.tokens_of(event=enter(request, doors.event(Action.RUN_STREAM), event_id))
        return paginated(self, request, tokens, lambda page: TokenOutput(page, many=True).data)

    @extend_schema(
        request=InputSerializer, responses={201: NewTokenOutput, **error_responses(*BODY, *STAFF, "not_found")}
    )
    def post(self, request: Request, event_id: int) -> Response:
        """A read-only key for overlays: add `?token=<key>` to a station's overlay URL.  The key is in this answer
        only: Podium keeps its digest."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, key = services.overlay_token_create(
            event=enter(request, doors.EVENT, event_id), by=request.user, **serializer.validated_data
        )
        return Response({**TokenOutput(token).data, "key": key}, status=status.HTTP_201_CREATED)


class OverlayTokenRevokeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: TokenOutput, **error_responses(*STAFF, "not_found")})
    def post(self, request: Request, event_id: int, token_id: int) -> Response:
        event = enter(request, doors.event(Action.RUN_STREAM), event_id)
        token = enter(request, live_doors.TOKEN, event, token_id)
        token = services.overlay_token_revoke(token=token, by=request.user)
        return Response(TokenOutput(token).data)
