"""REST API of accounts: sign-up for a phone app or a bot (the token comes back with the new account)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from accounts import services
from accounts.forms import SignUpForm
from core.api import BODY, error_responses

#: Form fields -> the API's field names (the API takes the password once).
_FIELD_NAMES = {"password1": "password", "password2": "password"}


class SignUpAnonThrottle(AnonRateThrottle):
    scope = "signups_anon"


class SignUpApi(APIView):
    """Create an account and its player profile; answers the API token of the new account."""

    permission_classes = [AllowAny]
    authentication_classes: list = []  # no session, so no CSRF check: the request proves nothing about a browser
    throttle_classes = [SignUpAnonThrottle]

    @extend_schema_serializer(component_name="SignUp")
    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150, help_text="Letters, digits and @ . + - _ only.")
        password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
        display_name = serializers.CharField(
            max_length=100, required=False, allow_blank=True, default="",
            help_text="How organisers and other players see you; the username when empty.",
        )  # fmt: skip
        email = serializers.EmailField(
            required=False, allow_blank=True, default="", help_text="Only to reset a forgotten password."
        )

        def validate(self, attrs: dict) -> dict:
            form = SignUpForm(
                data={
                    "username": attrs["username"],
                    "display_name": attrs["display_name"],
                    "email": attrs["email"],
                    "password1": attrs["password"],
                    "password2": attrs["password"],
                }
            )
            if not form.is_valid():
                errors: dict[str, list[str]] = {}
                for field, messages in form.errors.items():
                    errors.setdefault(_FIELD_NAMES.get(field, field), []).extend(messages)
                raise serializers.ValidationError({field: sorted(set(m)) for field, m in errors.items()})
            return attrs

    @extend_schema_serializer(component_name="SignedUp")
    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        player = serializers.IntegerField(help_text="Your player ID.")
        display_name = serializers.CharField()
        token = serializers.CharField(help_text="For `Authorization: Token <key>`.")

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer, **error_responses(*BODY, "throttled")},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        """Sign up: the same rules as the sign-up page (a free username and address, a strong enough password)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.account_sign_up(**serializer.validated_data)
        token, _ = Token.objects.get_or_create(user=user)
        answer = {
            "username": user.get_username(),
            "player": user.player.pk,
            "display_name": user.player.display_name,
            "token": token.key,
        }
        return Response(self.OutputSerializer(answer).data, status=status.HTTP_201_CREATED)
