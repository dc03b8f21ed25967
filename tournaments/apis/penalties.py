"""Penalties: the event's list, giving one, rescinding one."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, STAFF, Pagination, error_responses, id_field, paginated
from core.doorway import enter
from tournaments import doors, policy, selectors, services
from tournaments.apis._common import MAX_ROUND
from tournaments.apis.outputs import PlayerOutput, serializer_context
from tournaments.models import Event, Penalty
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors


@extend_schema_serializer(component_name="Penalty")
class PenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    registration = serializers.IntegerField(source="registration_id", help_text="The player's registration.")
    player = PlayerOutput(source="registration.player")
    round = serializers.IntegerField(
        source="round_number", allow_null=True, help_text="The round it was given in; null: before round 1."
    )
    penalty = serializers.ChoiceField(choices=Penalty.Kind.choices)
    infraction = serializers.CharField(help_text='What the player did: "Drawing extra cards".')
    note = serializers.SerializerMethodField(help_text="The judge's notes: for the event's staff, null for the player.")
    issued_by = serializers.SerializerMethodField(help_text="Who gave it (username); null: the account is gone.")
    issued_at = serializers.DateTimeField()
    rescinded = serializers.BooleanField(help_text="Rescinded: kept on record, no longer in force.")
    rescinded_at = serializers.DateTimeField(allow_null=True)
    rescinded_by = serializers.SerializerMethodField(help_text="Who rescinded it (username), or null.")
    rescind_reason = serializers.CharField(help_text="Why it was rescinded, or empty.")

    def get_note(self, penalty) -> str | None:
        return penalty.note if self.context.get("staff") else None

    def get_issued_by(self, penalty) -> str | None:
        return penalty.issued_by.get_username() if penalty.issued_by else None

    def get_rescinded_by(self, penalty) -> str | None:
        return penalty.rescinded_by.get_username() if penalty.rescinded_by else None


def _penalty_context(request: Request, event: Event) -> dict:
    """The reader's context for penalties: the event's staff (anyone on its dashboard) read the judges' notes."""
    return serializer_context(request, event, staff=policy.can(request.user, Action.USE_DASHBOARD, event))


class PenaltyListIssueApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="PenaltyIssue")
    class InputSerializer(serializers.Serializer):
        registration = id_field(help_text="The registration of the player at this event.")
        penalty = serializers.ChoiceField(choices=Penalty.Kind.choices)
        infraction = serializers.CharField(max_length=200, help_text='What the player did: "Drawing extra cards".')
        note = serializers.CharField(
            max_length=2000, required=False, allow_blank=True, default="", help_text="Notes for the staff."
        )
        round = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=1, max_value=MAX_ROUND,
            help_text="The round it was given in, a round already paired; default: the current round.",
        )  # fmt: skip

    @extend_schema(responses={200: PenaltyOutput(many=True), **error_responses(*SIGNED_IN, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The event's penalties, newest first: all of them for its staff, your own for a player."""
        event = enter(request, doors.EVENT, event_id)
        context = _penalty_context(request, event)
        penalties: QuerySet[Penalty] | list[Penalty]
        if context["staff"]:
            penalties = people_selectors.event_penalties(event=event)
        else:
            player = selectors.player_of(request.user)
            mine = people_selectors.player_penalties(player=player, event_ids=[event.pk]) if player else {}
            penalties = mine.get(event.pk, [])
        return paginated(self, request, penalties, lambda page: PenaltyOutput(page, many=True, context=context).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: PenaltyOutput,
            **error_responses(*BODY, *STAFF, "not_found", "event_finished", "not_registered"),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Give a player a penalty for an infraction (organisers and judges); a disqualification also drops them.

        A game or a match loss is recorded here; enter the table's result as it stands after the penalty.
        """
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        event = enter(request, doors.EVENT, event_id)
        penalty = services.penalty_issue(
            event=event, registration_id=data["registration"], penalty=data["penalty"],
            infraction=data["infraction"], note=data["note"], round_number=data["round"], by=request.user,
        )  # fmt: skip
        return Response(
            PenaltyOutput(penalty, context=_penalty_context(request, event)).data, status=status.HTTP_201_CREATED
        )


class PenaltyRescindApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="PenaltyRescind")
    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=1000, help_text="Why it is rescinded (kept with it and audited).")

    @extend_schema(
        request=InputSerializer,
        responses={
            200: PenaltyOutput,
            **error_responses(*BODY, *STAFF, "not_found", "event_finished", "already_rescinded"),
        },
    )
    def post(self, request: Request, event_id: int, penalty_id: int) -> Response:
        """Rescind a penalty: it stays on record, marked, with the reason. A rescinded disqualification leaves
        the player dropped (undo the drop with ``undrop/`` if they play on)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        penalty = enter(request, doors.PENALTY_OF_EVENT, event, penalty_id)
        penalty = services.penalty_rescind(penalty=penalty, by=request.user, reason=serializer.validated_data["reason"])
        penalty = people_selectors.event_penalty(event=event, penalty_id=penalty.pk)
        return Response(PenaltyOutput(penalty, context=_penalty_context(request, event)).data)
