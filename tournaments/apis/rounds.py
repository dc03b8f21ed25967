"""Rounds: pairing the next one, pairing it again, swapping two players, reading them with their tables."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, STAFF, Pagination, error_responses, id_field, paginated
from core.doorway import enter
from tournaments import doors, policy, selectors, services
from tournaments.apis.outputs import RoundOutput, serializer_context
from tournaments.models import Round
from tournaments.policy import Action


@extend_schema_serializer(component_name="RoundPair")
class PairInput(serializers.Serializer):
    allow_rematches = serializers.BooleanField(
        default=False, help_text="1v1: accept the fewest rematches when no rematch-free pairing exists."
    )
    seed = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=2**62 - 1,
        help_text="Reproduce a pairing: the same players, history and seed give the same tables.",
    )  # fmt: skip


@extend_schema_serializer(component_name="RoundStart")
class RoundStartInput(PairInput):
    seeding = serializers.ChoiceField(
        choices=["random", "rating"], default="random",
        help_text="Round 1: seat at random, or by the players' displayed ratings in the format (the strongest "
        "kept apart). Later rounds ignore it.",
    )  # fmt: skip


class RoundListStartApi(APIView):
    pagination_class = Pagination

    @extend_schema(responses={200: RoundOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The event's rounds in order, each with its tables (a staged round only to the event's staff, until it is
        published)."""
        event = enter(request, doors.EVENT, event_id)
        context = serializer_context(request, event)

        def serialize(page: list[Round]) -> list:
            # many=True makes a ListSerializer, whose data is a list; the stubs type the answer as the Serializer's.
            return RoundOutput(selectors.rounds_load_tables(rounds=list(page)), many=True, context=context).data  # type: ignore[return-value]

        staff = policy.can(request.user, Action.USE_DASHBOARD, event)
        return paginated(self, request, selectors.event_rounds(event=event, published_only=not staff), serialize)

    @extend_schema(
        request=RoundStartInput,
        responses={
            201: RoundOutput,
            **error_responses(
                *BODY, *STAFF, "not_found", "event_finished", "round_incomplete", "phase_not_advanced", "rounds_complete",
                "not_enough_players", "pairing_impossible", "rematch_unavoidable", "top_cut_complete",
                "ratings_unavailable",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Start the next round: pair players and return the tables with their seats.

        A 1v1 round that cannot avoid a rematch answers 409 ``rematch_unavoidable``;
        send ``allow_rematches: true`` to pair it anyway.
        """
        serializer = RoundStartInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        round_ = services.round_start(event=event, by=request.user, **serializer.validated_data)
        selectors.rounds_load_tables(rounds=[round_])
        return Response(
            RoundOutput(round_, context=serializer_context(request, event)).data, status=status.HTTP_201_CREATED
        )


class RoundRepairApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=PairInput,
        responses={
            201: RoundOutput,
            **error_responses(
                *BODY, *STAFF, "not_found", "round_not_found", "event_finished", "round_closed", "top_cut_round",
                "round_has_results", "not_enough_players", "pairing_impossible", "rematch_unavoidable",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Pair the current round again; only before any table has a result or a game record."""
        serializer = PairInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        round_ = services.round_repair(event=event, round_number=number, by=request.user, **serializer.validated_data)
        selectors.rounds_load_tables(rounds=[round_])
        return Response(
            RoundOutput(round_, context=serializer_context(request, event)).data, status=status.HTTP_201_CREATED
        )


class RoundSwapApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="RoundSwap")
    class InputSerializer(serializers.Serializer):
        players = serializers.ListField(
            child=id_field(), min_length=2, max_length=2, help_text="The two player ids to swap."
        )

    @extend_schema_serializer(component_name="RoundSwapResult")
    class OutputSerializer(serializers.Serializer):
        round = RoundOutput()
        warnings = serializers.ListField(child=serializers.CharField(), help_text="Rematches the swap creates.")

    @extend_schema(
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            **error_responses(
                *BODY, *STAFF, "not_found", "round_not_found", "event_finished", "round_closed", "top_cut_round",
                "round_has_results",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Swap two players' seats in the current round (tables without results only)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        a, b = serializer.validated_data["players"]
        event = enter(request, doors.EVENT, event_id)
        round_, warnings = services.round_swap(
            event=event, round_number=number, player_a=a, player_b=b, by=request.user
        )
        selectors.rounds_load_tables(rounds=[round_])
        answer = {"round": round_, "warnings": warnings}
        return Response(self.OutputSerializer(answer, context=serializer_context(request, event)).data)


class RoundDetailApi(APIView):
    @extend_schema(responses={200: RoundOutput, **error_responses("not_found")})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = enter(request, doors.EVENT, event_id)
        round_ = enter(request, doors.ROUND, event, number)
        selectors.rounds_load_tables(rounds=[round_])
        return Response(RoundOutput(round_, context=serializer_context(request, event)).data)


class RoundPublishApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: RoundOutput,
            **error_responses(*STAFF, "not_found", "round_not_found", "event_finished", "round_closed",
                              "round_published"),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Publish a staged round: the players' pages, the public pages and API, streams and overlays show it."""
        event = enter(request, doors.EVENT, event_id)
        round_ = services.round_publish(event=event, round_number=number, by=request.user)
        selectors.rounds_load_tables(rounds=[round_])
        return Response(RoundOutput(round_, context=serializer_context(request, event)).data)


class RoundUndoApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            204: None,
            **error_responses(*STAFF, "not_found", "round_not_found", "event_finished", "round_closed",
                              "round_has_results"),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Take back the latest round's start (Swiss or cut) before any table has a result or a game record: the
        round is deleted as if never paired; undoing the cut's first round ends the cut."""
        event = enter(request, doors.EVENT, event_id)
        services.round_start_undo(event=event, round_number=number, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
