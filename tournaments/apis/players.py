"""Players: finding and creating player records, claiming one with a code."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, Pagination, error_responses, id_field, paginated
from tournaments import services
from tournaments.apis.outputs import PlayerOutput, serializer_context
from tournaments.selectors import people as people_selectors
from tournaments.services import registrations as registration_services


class PlayerListCreateApi(APIView):
    pagination_class = Pagination

    class FilterSerializer(serializers.Serializer):
        q = serializers.CharField(
            required=False, min_length=2, max_length=100, trim_whitespace=False,
            help_text="Players whose display name contains this (any case): at least 2 characters.",
        )  # fmt: skip
        event = id_field(required=False, help_text="Players registered for this event (waiting list included).")

        def validate(self, data: dict) -> dict:
            if not data.get("q") and not data.get("event"):
                raise serializers.ValidationError({"q": [_("Search by name (q) or by event (event).")]})
            return data

    @extend_schema_serializer(component_name="PlayerCreate")
    class InputSerializer(serializers.Serializer):
        display_name = serializers.CharField(max_length=100)
        external_id = serializers.CharField(max_length=64, required=False, allow_blank=True)

    @extend_schema(
        parameters=[FilterSerializer],
        responses={200: PlayerOutput(many=True), **error_responses("invalid")},
    )
    def get(self, request: Request) -> Response:
        """Find players by name (``q``) or by event (``event``), or both: their ids and names, as the public
        standings show them (an external id only to those who may see it)."""
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        players = people_selectors.player_search(**filters.validated_data)
        context = serializer_context(request)
        return paginated(self, request, players, lambda page: PlayerOutput(page, many=True, context=context).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: PlayerOutput, **error_responses(*BODY, *SIGNED_IN, "permission_denied", "duplicate_player")},
    )
    def post(self, request: Request) -> Response:
        """Create a player record (organisers)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.player_create(**serializer.validated_data, by=request.user)
        # The caller gave the external id: they read it back.
        return Response(PlayerOutput(player, context={"private": True}).data, status=status.HTTP_201_CREATED)


class PlayerClaimApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="PlayerClaim")
    class InputSerializer(serializers.Serializer):
        code = serializers.CharField(max_length=32, help_text="The code the organiser gave you.")

    @extend_schema(
        request=InputSerializer,
        responses={
            200: PlayerOutput,
            **error_responses(*BODY, *SIGNED_IN, "unknown_claim_code", "already_claimed", "player_has_history"),
        },
    )
    def post(self, request: Request) -> Response:
        """Link the player record of a claim code to your account, so its history is yours; answers the player."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = registration_services.player_claim(user=request.user, code=serializer.validated_data["code"])
        return Response(PlayerOutput(player, context=serializer_context(request)).data)
