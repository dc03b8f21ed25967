"""Scarce places and fees: a registration's entry fee marked paid or unpaid, and the lottery's draw."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, STAFF, error_responses
from core.doorway import enter
from tournaments import doors, lottery
from tournaments.apis.outputs import RegistrationOutput, serializer_context
from tournaments.apis.registrations import _registration_answer
from tournaments.services import entry as entry_services


class RegistrationPaymentApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="RegistrationPayment")
    class InputSerializer(serializers.Serializer):
        paid = serializers.BooleanField(help_text="true: the entry fee is paid (now, by you); false: unpaid again.")

    @extend_schema(
        request=InputSerializer,
        responses={200: RegistrationOutput, **error_responses(*BODY, *STAFF, "not_found")},
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """Mark the player's entry fee paid or unpaid (players pay at the organiser's checkout: Podium takes no
        payment). Marking it twice changes nothing; each change is in the audit trail."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = entry_services.registration_mark_paid(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id),
            by=request.user,
            paid=serializer.validated_data["paid"],
        )
        return _registration_answer(request, registration)


class LotteryDrawApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="LotteryDrawInput")
    class InputSerializer(serializers.Serializer):
        seed = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=0, max_value=lottery.SEED_LIMIT - 1,
            help_text="The draw's seed (to repeat a draw made elsewhere); left out: a fresh one, recorded.",
        )  # fmt: skip

    @extend_schema_serializer(component_name="LotteryDraw")
    class OutputSerializer(serializers.Serializer):
        seed = serializers.IntegerField(help_text="The same applicants and seed give the same draw.")
        drawn_at = serializers.DateTimeField()
        places = serializers.IntegerField(help_text="Places the draw filled: the capacity less the players in.")
        winners = RegistrationOutput(many=True, help_text="Registered now, in drawn order.")
        waiting = RegistrationOutput(many=True, help_text="The waiting list, in drawn order (promoted in it).")

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            **error_responses(*BODY, *STAFF, "not_found", "no_lottery", "lottery_drawn", "event_started"),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Draw the event's lottery: the applicants in a seeded order, the first fill the capacity, the others
        join the waiting list in drawn order. Audited with the seed and the winners; never drawn twice."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        outcome = entry_services.lottery_draw(event=event, by=request.user, seed=serializer.validated_data["seed"])
        context = serializer_context(request, event)
        answer = {
            "seed": outcome.seed, "drawn_at": outcome.drawn_at, "places": outcome.places,
            "winners": RegistrationOutput(outcome.winners, many=True, context=context).data,
            "waiting": RegistrationOutput(outcome.waiting, many=True, context=context).data,
        }  # fmt: skip
        return Response(answer, status=status.HTTP_201_CREATED)
