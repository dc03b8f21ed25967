"""An event's phases (day 1, day 2): the plan, advancing players from one phase to the next, and each phase's
own standings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, MAX_ID, MAX_SMALLINT, STAFF, error_responses
from core.doorway import enter
from tournaments import doors, services
from tournaments.apis.outputs import PlayerOutput, serializer_context
from tournaments.apis.standings import StandingOutput
from tournaments.selectors import standings as standings_selectors
from tournaments.standings import phases as phase_rules

#: The most match points a threshold can ask (a PositiveIntegerField holds far more; no event comes near it).
MAX_POINTS = 100_000


@extend_schema_serializer(component_name="Phase")
class PhaseOutput(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    rounds = serializers.IntegerField()
    first_round = serializers.IntegerField()
    last_round = serializers.IntegerField()
    advance_points = serializers.IntegerField(
        allow_null=True, help_text="Players with at least this many match points go on to the next phase."
    )
    advance_top = serializers.IntegerField(
        allow_null=True, help_text="The first this many players of the phase's standings go on."
    )
    rule = serializers.CharField(help_text="The rule in words: '19 match points or more', 'the top 64'.")
    status = serializers.ChoiceField(
        choices=["planned", "playing", "advanced", "finished"],
        help_text="planned (no round paired yet), playing, advanced (its players went on), finished (the last "
        "phase, once the cut started or the event finished).",
    )
    advanced_count = serializers.IntegerField(allow_null=True)
    advanced_at = serializers.DateTimeField(allow_null=True)
    players = serializers.IntegerField(help_text="Players in the phase (phase 1: every registered player).")


@extend_schema_serializer(component_name="PhasePlan")
class PhasePlanInput(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_SMALLINT)
    advance_points = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=MAX_POINTS
    )
    advance_top = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=2, max_value=MAX_ID)


class EventPhasesApi(APIView):
    @extend_schema_serializer(component_name="EventPhases")
    class OutputSerializer(serializers.Serializer):
        event = serializers.IntegerField()
        planned_rounds = serializers.IntegerField(help_text="Swiss rounds in all: the phases' rounds added up.")
        phases = PhaseOutput(many=True, help_text="Empty: the event is one phase of all its Swiss rounds.")

    @extend_schema_serializer(component_name="EventPhasesSet")
    class InputSerializer(serializers.Serializer):
        phases = PhasePlanInput(
            many=True, required=False, help_text="The whole plan, in order ([] removes the phases)."
        )
        preset = serializers.ChoiceField(
            choices=phase_rules.PRESET_CHOICES, required=False,
            help_text="Instead of `phases`: `pokemon_day2` is Play! Pokémon's two-day Regional (9 rounds, 19 "
            "match points or more play 5 more rounds on day 2, then a top 8).",
        )  # fmt: skip

    def _answer(self, event) -> Response:
        event, rows = standings_selectors.event_phases_now(event_id=event.pk)
        return Response(self.OutputSerializer({"event": event.pk, "planned_rounds": event.planned_rounds,
                                               "phases": rows}).data)  # fmt: skip

    @extend_schema(responses={200: OutputSerializer, **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The event's phases: rounds, the rule for going on, and where each stands."""
        return self._answer(enter(request, doors.EVENT, event_id))

    @extend_schema(
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            **error_responses(
                *BODY, *STAFF, "not_found", "event_finished", "top_cut_started", "phase_advanced",
                "rounds_already_paired",
            ),
        },
    )  # fmt: skip
    def put(self, request: Request, event_id: int) -> Response:
        """Replace the plan (or apply a preset); the event's planned rounds become the phases' total."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        event = enter(request, doors.EVENT, event_id)
        plan = None if "phases" not in data else [phase_rules.PhasePlan(**p) for p in data["phases"]]
        services.event_phases_set(event=event, by=request.user, phases=plan, preset=data.get("preset"))
        return self._answer(event)


class PhaseAdvanceApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="PhaseAdvanced")
    class OutputSerializer(serializers.Serializer):
        phase = serializers.IntegerField(help_text="The phase that ended.")
        advanced = serializers.ListField(
            child=serializers.IntegerField(), help_text="The ids of the players who go on, in standings order."
        )
        count = serializers.IntegerField()

    @extend_schema(
        request=None,
        responses={
            200: OutputSerializer,
            **error_responses(
                *STAFF, "not_found", "phase_not_found", "event_finished", "last_phase", "phase_advanced",
                "phase_not_advanced", "phase_incomplete", "round_incomplete", "nobody_advances",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """End the phase: every player its rule lets through goes on to the next phase; the others' event is
        over (their record and standing stay)."""
        event = enter(request, doors.EVENT, event_id)
        going_on = services.phase_advance(event=event, number=number, by=request.user)
        return Response(self.OutputSerializer({"phase": number, "advanced": going_on, "count": len(going_on)}).data)


class PhaseAdvanceUndoApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: EventPhasesApi.OutputSerializer,
            **error_responses(
                *STAFF, "not_found", "phase_not_found", "event_finished", "phase_not_advanced", "phase_started"
            ),
        },
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Take the advance back (before the next phase's first round is paired): everyone is in the phase again."""
        event = enter(request, doors.EVENT, event_id)
        services.phase_advance_undo(event=event, number=number, by=request.user)
        return EventPhasesApi()._answer(event)


@extend_schema_serializer(component_name="PhaseStanding")
class PhaseStandingOutput(StandingOutput):
    advanced = serializers.BooleanField(help_text="The player went on to the next phase.")


class PhaseStandingsApi(APIView):
    @extend_schema_serializer(component_name="PhaseStandings")
    class OutputSerializer(serializers.Serializer):
        event = serializers.IntegerField()
        phase = PhaseOutput()
        standings = PhaseStandingOutput(many=True, help_text="By rank, over the phase's rounds only.")

    @extend_schema(responses={200: OutputSerializer, **error_responses("not_found", "phase_not_found")})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        """The phase's own standings: the rounds up to its last one, as they decided who went on (computed now,
        from the results as they stand)."""
        event = enter(request, doors.EVENT, event_id)
        phase = enter(request, doors.PHASE, event, number)
        lines = [
            {**row, "advanced": row["went_on"]}
            for row in standings_selectors.phase_standing_rows(event=event, number=number)
        ]
        answer = {"event": event.pk, "phase": phase, "standings": lines}
        return Response(self.OutputSerializer(answer, context=serializer_context(request, event)).data)


__all__ = ["EventPhasesApi", "PhaseAdvanceApi", "PhaseAdvanceUndoApi", "PhaseStandingsApi", "PlayerOutput"]
