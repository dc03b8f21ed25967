"""The notifications API: ``GET/PUT /api/v1/me/notifications/`` (your choices per kind and channel) and
``POST/DELETE /api/v1/me/push-subscriptions/`` (a browser's ``PushSubscription`` JSON)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, error_responses
from notifications import push, selectors, services
from notifications.kinds import Kind


@extend_schema_serializer(component_name="NotificationChoice")
class ChoiceOutput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Kind.choices)
    label = serializers.CharField(help_text="The kind in words, in your language.")  # type: ignore[assignment]
    email = serializers.BooleanField()
    push = serializers.BooleanField(help_text="Sent to every browser you subscribed (push-subscriptions/).")


@extend_schema_serializer(component_name="NotificationSettings")
class SettingsOutput(serializers.Serializer):
    kinds = ChoiceOutput(many=True)
    push_subscriptions = serializers.IntegerField(help_text="How many of your browsers receive pushes.")
    vapid_public_key = serializers.CharField(
        help_text="The applicationServerKey to subscribe with (base64url); empty: this server sends no pushes."
    )


def _settings(user) -> dict:
    return {
        "kinds": selectors.choices_of(user=user),
        "push_subscriptions": selectors.push_subscription_count(user=user),
        "vapid_public_key": push.public_key(),
    }


class NotificationSettingsApi(APIView):
    """Your notifications: for each kind, whether it is sent by e-mail and by push."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="NotificationSettingsChange")
    class InputSerializer(serializers.Serializer):
        @extend_schema_serializer(component_name="NotificationChoiceChange")
        class ChoiceInput(serializers.Serializer):
            kind = serializers.ChoiceField(choices=Kind.choices)
            email = serializers.BooleanField(required=False)
            push = serializers.BooleanField(required=False)

        kinds = ChoiceInput(many=True, help_text="The kinds to change; a channel left out keeps its choice.")

    @extend_schema(responses={200: SettingsOutput, **error_responses(*SIGNED_IN)})
    def get(self, request: Request) -> Response:
        return Response(SettingsOutput(_settings(request.user)).data)

    @extend_schema(request=InputSerializer, responses={200: SettingsOutput, **error_responses(*BODY, *SIGNED_IN)})
    def put(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        choices = {
            item["kind"]: {c: item[c] for c in ("email", "push") if c in item} for item in data.validated_data["kinds"]
        }
        services.preferences_set(user=request.user, choices=choices)
        return Response(SettingsOutput(_settings(request.user)).data)


class PushSubscriptionApi(APIView):
    """Your browsers' push subscriptions: POST the ``PushSubscription`` JSON a browser gives
    (``subscription.toJSON()``), DELETE its endpoint when it unsubscribes."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="PushSubscriptionAdd")
    class InputSerializer(serializers.Serializer):
        @extend_schema_serializer(component_name="PushSubscriptionKeys")
        class Keys(serializers.Serializer):
            p256dh = serializers.CharField(max_length=200)
            auth = serializers.CharField(max_length=100)

        endpoint = serializers.URLField(max_length=1000)
        # The browser's name; milliseconds since 1970, bounded as every integer a body takes (never stored).
        expirationTime = serializers.IntegerField(  # noqa: N815
            required=False, allow_null=True, min_value=0, max_value=2**53 - 1
        )
        keys = Keys()

    @extend_schema_serializer(component_name="PushSubscriptionRemove")
    class RemoveSerializer(serializers.Serializer):
        endpoint = serializers.URLField(max_length=1000)

    @extend_schema(request=InputSerializer, responses={201: SettingsOutput, **error_responses(*BODY, *SIGNED_IN)})
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        found = data.validated_data
        services.push_subscription_add(
            user=request.user, endpoint=found["endpoint"], p256dh=found["keys"]["p256dh"], auth=found["keys"]["auth"],
            user_agent=request.headers.get("User-Agent", ""),
        )  # fmt: skip
        return Response(SettingsOutput(_settings(request.user)).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RemoveSerializer, responses={204: None, **error_responses(*BODY, *SIGNED_IN)})
    def delete(self, request: Request) -> Response:
        data = self.RemoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.push_subscription_remove(user=request.user, endpoint=data.validated_data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)
