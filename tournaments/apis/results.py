"""A table's result: entered by staff, reported and confirmed by its players, accepted, corrected."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, STAFF, error_responses
from core.doorway import enter
from tournaments import doors, selectors, services
from tournaments.apis.outputs import GameScoreSerializer, PlacementInput, TableOutput, _open_report, serializer_context
from tournaments.models import Event, Pod, PodResult
from tournaments.services import results as result_services


class OutcomeInput(serializers.Serializer):
    """What a table's result says: placements, and for 1v1 the game score or an intentional draw."""

    placements: serializers.ListSerializer[Any] = serializers.ListSerializer(
        child=PlacementInput(),
        allow_empty=False,
        max_length=8,
        help_text="Every seated player with a placement: 1 for the winner; players who drew share 1.",
    )
    games: serializers.ListSerializer[Any] = serializers.ListSerializer(
        child=GameScoreSerializer(),
        required=False,
        allow_null=True,
        default=None,
        min_length=2,
        max_length=2,
        help_text="1v1 only, optional: each player's games won, lost and drawn (2-1 for one is 1-2 for the other). "
        "The Magic tiebreakers use them.",
    )
    intentional_draw = serializers.BooleanField(
        default=False,
        help_text="1v1: an agreed draw, not played out (both placement 1; no games, or 0-0-0). Its unplayed games "
        "are worth no game points, unlike a drawn game.",
    )

    def validate_placements(self, value: list[dict]) -> list[dict]:
        players = [item["player"] for item in value]
        if len(set(players)) != len(players):
            raise serializers.ValidationError(_("A player is listed twice."))
        return value

    def validate_games(self, value: list[dict] | None) -> list[dict] | None:
        if value is not None and len({item["player"] for item in value}) != len(value):
            raise serializers.ValidationError(_("A player is listed twice."))
        return value

    def outcome(self) -> dict:
        """The service's arguments: ``placements``, ``games`` and ``intentional_draw``."""
        data = self.validated_data
        games = data.get("games")
        return {
            "placements": {item["player"]: item["placement"] for item in data["placements"]},
            "games": None if games is None else {g["player"]: (g["won"], g["lost"], g["drawn"]) for g in games},
            "intentional_draw": data["intentional_draw"],
        }


def _table_context(request: Request, event: Event, pod: Pod) -> dict:
    """The reader's context for answering one table, with its open report (a query unless it has its result)."""
    report = _open_report(pod)
    return serializer_context(request, event, reports={pod.pk: report} if report else {})


class ResultReportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ResultReport")
    class InputSerializer(OutcomeInput):
        pass

    @extend_schema(
        request=InputSerializer,
        responses={
            201: TableOutput,
            200: OpenApiResponse(TableOutput, description="The same result again: accepted, nothing changed."),
            **error_responses(
                *BODY, *STAFF, "not_found", "round_not_found", "table_not_found", "event_finished", "round_closed",
                "result_exists",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Enter a table's result as staff: final at once.

        Placements: ``1`` for the winner; players who drew share ``1``. Organisers and scorekeepers; judges
        for a table whose players' report is disputed or waiting (they settle it). A different result for a
        table that has one is a correction (``correction/``).
        """
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT_READ_BY_SERVICE, event_id)
        result, created = services.pod_result_report(
            event=event,
            round_number=number,
            table_number=table,
            by=request.user,
            source=PodResult.Source.API,
            **serializer.outcome(),
        )
        pod = selectors.pod_answered(result=result)
        event = pod.round.event  # as the service read it, locked (no query)
        return Response(
            TableOutput(pod, context=_table_context(request, event, pod)).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


#: What a player's report or answer did (:class:`tournaments.services.results.ReportAnswer`).
REPORT_STATES = [
    ("pending", "reported: waiting for the other players to confirm"),
    ("confirmed", "every player agreed: the result is final"),
    ("disputed", "the players disagree: staff settle the table"),
    ("unchanged", "the same report or result again: nothing changed"),
]


@extend_schema_serializer(component_name="ReportAnswer")
class ReportAnswerOutput(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=[s for s, _ in REPORT_STATES], help_text="; ".join(f"{s}: {text}" for s, text in REPORT_STATES) + "."
    )
    table = TableOutput(help_text="The table with its result when final, else with the open report.")


def _report_answer(request: Request, event: Event, answer: result_services.ReportAnswer, created: bool) -> Response:
    decided = answer.result or answer.report
    assert decided is not None  # the table's result when final, else its open report
    pod = selectors.pod_detail(pod_id=decided.pod_id)
    body = ReportAnswerOutput({"state": answer.state, "table": pod}, context=_table_context(request, event, pod)).data
    return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


#: The codes of a player answering for their table.
TABLE_PLAYER = (
    *SIGNED_IN,
    "not_at_table",
    "not_found",
    "round_not_found",
    "table_not_found",
    "event_finished",
    "round_not_published",
)


class TablePlayerReportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="PlayerReport")
    class InputSerializer(OutcomeInput):
        pass

    @extend_schema(
        request=InputSerializer,
        responses={
            201: ReportAnswerOutput,
            200: OpenApiResponse(ReportAnswerOutput, description="The same report again: nothing changed."),
            **error_responses(
                *BODY, *TABLE_PLAYER, "player_reports_off", "round_closed", "result_exists", "already_answered"
            ),
        },
    )
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Report your table's result (players at the table, when the event takes player reports).

        It counts once every other player at the table confirms it (``confirm/``). If another player's
        report is open, the same result confirms it and a different one disputes it: staff settle it.
        """
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        answer = result_services.result_player_report(
            event=event, round_number=number, table_number=table, by=request.user, **serializer.outcome()
        )
        return _report_answer(request, event, answer, created=answer.state != "unchanged")


class TableConfirmApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ReportConfirm")
    class InputSerializer(serializers.Serializer):
        agrees = serializers.BooleanField(help_text="true: the report is right; false: dispute it (staff settle it).")

    @extend_schema(
        request=InputSerializer,
        responses={
            200: ReportAnswerOutput,
            **error_responses(
                *BODY, *TABLE_PLAYER, "no_report", "round_closed", "result_exists", "own_report", "already_answered"
            ),
        },
    )
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Confirm or dispute the result another player at your table reported."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        answer = result_services.result_respond(
            event=event, round_number=number, table_number=table, by=request.user, **serializer.validated_data
        )
        return _report_answer(request, event, answer, created=False)


class TableReportAcceptApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: ReportAnswerOutput,
            **error_responses(
                *STAFF, "not_found", "round_not_found", "table_not_found", "event_finished", "round_closed",
                "result_exists", "no_report", "report_disputed", "invalid",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Accept the table's waiting player report as it stands: it becomes the table's result.

        For a report nobody else can confirm (a walk-in has no account). Organisers, scorekeepers and judges
        (those who settle a table); recorded as a confirmation by you. A disputed report is settled by entering
        the result (``result/``).
        """
        event = enter(request, doors.EVENT, event_id)
        answer = result_services.result_report_accept(
            event=event, round_number=number, table_number=table, by=request.user
        )
        return _report_answer(request, event, answer, created=False)


class ResultCorrectApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="Correction")
    class InputSerializer(OutcomeInput):
        reason = serializers.CharField(max_length=1000, help_text="Why the result changes (kept in the audit trail).")

    @extend_schema_serializer(component_name="CorrectionResult")
    class OutputSerializer(serializers.Serializer):
        table = TableOutput()
        later_rounds = serializers.ListField(
            child=serializers.IntegerField(),
            help_text="Rounds paired after the corrected one: they stay as they were paired.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            **error_responses(
                *BODY, *STAFF, "not_found", "round_not_found", "table_not_found", "no_result", "cut_advanced"
            ),
        },
    )
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Correct a recorded result of any round, with a reason; the standings are recomputed.

        Organisers and scorekeepers; once the event is finished, its organiser only. Rounds paired since
        stay as they are (``later_rounds``).
        """
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        correction = result_services.result_correct(
            event=event,
            round_number=number,
            table_number=table,
            reason=serializer.validated_data["reason"],
            by=request.user,
            **serializer.outcome(),
        )
        pod = selectors.pod_detail(pod_id=correction.result.pod_id)
        answer = {"table": pod, "later_rounds": correction.later_rounds}
        return Response(self.OutputSerializer(answer, context=_table_context(request, event, pod)).data)
