"""Keep-apart pairs: players the pairing keeps apart (family, teammates), for the event's registration staff."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, STAFF, Pagination, error_responses, id_field, paginated
from core.doorway import enter
from tournaments import doors, services
from tournaments.apis.outputs import PlayerOutput, serializer_context
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors


@extend_schema_serializer(component_name="KeepApart")
class KeepApartOutput(serializers.Serializer):
    id = serializers.IntegerField()
    players = serializers.SerializerMethodField()
    note = serializers.CharField()
    created_at = serializers.DateTimeField()

    def get_players(self, pair) -> list[dict]:
        return [PlayerOutput(p, context=self.context).data for p in (pair.player_a, pair.player_b)]


class KeepApartListCreateApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="KeepApartAdd")
    class InputSerializer(serializers.Serializer):
        players = serializers.ListField(child=id_field(), min_length=2, max_length=2, help_text="The two players' ids.")
        note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                     help_text="Why, for the staff: 'siblings', 'same team'.")  # fmt: skip

    @extend_schema(responses={200: KeepApartOutput(many=True), **error_responses(*STAFF, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The players the pairing keeps apart (staff who manage registrations only: it says who is family)."""
        event = enter(request, doors.event(Action.MANAGE_REGISTRATIONS), event_id)
        context = serializer_context(request, event)

        def serialize(page: list) -> list:
            return KeepApartOutput(page, many=True, context=context).data  # type: ignore[return-value]

        return paginated(self, request, people_selectors.keep_apart_pairs(event=event), serialize)

    @extend_schema(
        request=InputSerializer,
        responses={201: KeepApartOutput, **error_responses(*BODY, *STAFF, "not_found", "event_finished",
                                                           "keep_apart_exists")},
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Keep two players apart from the next pairing on: they sit together only when no pairing avoids it
        without more rematches (a kept-apart pair weighs as a rematch)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        a, b = serializer.validated_data["players"]
        pair = services.keep_apart_add(event=event, player_a=a, player_b=b, note=serializer.validated_data["note"],
                                       by=request.user)  # fmt: skip
        pair = people_selectors.keep_apart_pair(event=event, pair_id=pair.pk)
        return Response(KeepApartOutput(pair, context=serializer_context(request, event)).data,
                        status=status.HTTP_201_CREATED)  # fmt: skip


class KeepApartRemoveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None, **error_responses(*STAFF, "not_found")})
    def delete(self, request: Request, event_id: int, pair_id: int) -> Response:
        """Stop keeping the two players apart (from the next pairing on)."""
        event = enter(request, doors.EVENT, event_id)
        pair = enter(request, doors.KEEP_APART, event, pair_id)
        services.keep_apart_remove(pair=pair, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
