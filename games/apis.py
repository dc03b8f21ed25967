"""REST API of the games app: games at a table, their event log, and the state (with an ETag)."""

from __future__ import annotations

from django.utils.http import parse_etags
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, MAX_INT, STAFF, FormatField, Pagination, error_responses, paginated
from core.doorway import enter
from games import doors, selectors, services
from games.models import Game


@extend_schema_serializer(component_name="Game")
class GameOutput(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.IntegerField(source="pod.round.event_id")
    round = serializers.IntegerField(source="pod.round.number")
    table = serializers.IntegerField(source="pod.table_number")
    number = serializers.IntegerField()
    format = FormatField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField(help_text="Log entries so far: send it back as expected_version.")
    players = serializers.ListField(child=serializers.IntegerField())
    state = serializers.DictField()


@extend_schema_serializer(component_name="GameEntry")
class EntryOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.DictField()
    recorded_by = serializers.CharField(source="recorded_by.username", allow_null=True, default=None)
    recorded_at = serializers.DateTimeField()
    voided_by = serializers.IntegerField(source="voided_by.seq", allow_null=True, default=None)


def _etag(game: Game) -> str:
    return f'"game-{game.pk}-v{game.version}"'


#: The ``ETag`` header of an answer carrying a game's state.
ETAG = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, required=True, response=[200, 201],
    description="The game's version, for ``If-None-Match``.",
)  # fmt: skip


def _state_response(game: Game, status_code: int = 200) -> Response:
    response = Response(GameOutput(game).data, status=status_code)
    response["ETag"] = _etag(game)
    return response


class GameCreateApi(APIView):
    """Start the game of a table (for Deck Masters: the next duel of its best-of-3 match)."""

    pagination_class = Pagination

    @extend_schema_serializer(component_name="GameCreate")
    class InputSerializer(serializers.Serializer):
        options = serializers.DictField(
            required=False, default=dict,
            help_text="Options of this game only (a Deck Masters duel's named Deck Masters); the format's options "
            "are the event's (an option the event sets may only repeat its value).",
        )  # fmt: skip

    @extend_schema(
        request=InputSerializer,
        parameters=[ETAG],
        responses={
            201: GameOutput,
            **error_responses(
                *BODY, "bye", "invalid_option", "invalid_deck_master", "unknown_card", *STAFF, "not_found", "result_exists", "game_in_progress", "game_over",
                "pairing_changed",
                engine_rules=True,
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        pod = enter(request, doors.TABLE, event_id, number, table)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = services.game_create(pod=pod, by=request.user, options=serializer.validated_data["options"])
        return _state_response(game, status.HTTP_201_CREATED)

    @extend_schema(responses={200: GameOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """The table's games, first to last (an empty list for a table that does not exist)."""
        games = selectors.table_games_at(event_id=event_id, number=number, table=table)
        return paginated(self, request, games, lambda page: GameOutput(page, many=True).data)


class GameStateApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "If-None-Match", str, OpenApiParameter.HEADER,
                description="The ETag of the state you have: answered 304 while it is current.",
            ),
            ETAG,
        ],
        responses={
            200: GameOutput,
            304: OpenApiResponse(description="Not modified: the state you have is current."),
            **error_responses("not_found"),
        },
    )  # fmt: skip
    def get(self, request: Request, game_id: int) -> Response:
        game = enter(request, doors.GAME, game_id)
        wanted = parse_etags(request.headers.get("If-None-Match", ""))
        if "*" in wanted or _etag(game) in wanted or f"W/{_etag(game)}" in wanted:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
            response["ETag"] = _etag(game)
            return response
        return _state_response(game)


class GameEventListAppendApi(APIView):
    pagination_class = Pagination

    @extend_schema_serializer(component_name="GameEntryAppend")
    class InputSerializer(serializers.Serializer):
        expected_version = serializers.IntegerField(min_value=0, max_value=MAX_INT)
        type = serializers.CharField(max_length=40)
        # DRF takes fields out of the class; the stubs see Serializer.data overridden (djangorestframework-stubs#78).
        data = serializers.DictField(required=False, default=dict)  # type: ignore[assignment]

    @extend_schema(responses={200: EntryOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, game_id: int) -> Response:
        game = enter(request, doors.GAME, game_id)
        entries = selectors.game_entries(game=game)
        return paginated(self, request, entries, lambda page: EntryOutput(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        parameters=[ETAG],
        responses={
            201: GameOutput,
            **error_responses(
                *BODY, "use_void", "top_cut_needs_winner", *STAFF, "not_found", "stale_version", "game_superseded",
                engine_rules=True,
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, game_id: int) -> Response:
        """Append an entry. A stale ``expected_version`` gets 409 with the current state; a refused event, 400 with its rule.

        An entry that would end a top-cut table's game (or match) in a draw is refused (``top_cut_needs_winner``)
        and nothing is stored; an entry that ends a game otherwise makes its placements the table's result,
        reported by you. A game whose table's result was recorded by hand while it was in progress is closed
        (status ``superseded``) and takes no entry (``game_superseded``)."""
        game = enter(request, doors.GAME, game_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        game, _ = services.game_event_append(
            game=game,
            expected_version=data["expected_version"],
            type=data["type"],
            data=data["data"],
            by=request.user,
        )
        return _state_response(game, status.HTTP_201_CREATED)


class GameEventVoidApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="GameEntryVoid")
    class InputSerializer(serializers.Serializer):
        expected_version = serializers.IntegerField(min_value=0, max_value=MAX_INT)
        reason = serializers.CharField(max_length=500)

    @extend_schema(
        request=InputSerializer,
        parameters=[ETAG],
        responses={
            201: GameOutput,
            **error_responses(
                *BODY, "top_cut_needs_winner", *STAFF, "not_found", "entry_not_found", "stale_version",
                "game_superseded", "result_exists", "later_game_exists", "already_void", "void_breaks_log",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, game_id: int, seq: int) -> Response:
        game = enter(request, doors.GAME, game_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game, _ = services.game_event_void(game=game, seq=seq, by=request.user, **serializer.validated_data)
        return _state_response(game, status.HTTP_201_CREATED)
