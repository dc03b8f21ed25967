"""REST API of accounts: sign-up for a phone app or a bot (the token comes back with the new account), and
``GET /api/v1/me/``: the signed-in player's language and events, with their current table and their opponents' deck status.

The player's own view sits here, above the tournaments and decks apps it reads from (neither reads the other's
deck statuses); it reuses the tournaments API's serializers for events, registrations and reports."""

from __future__ import annotations

import dataclasses
from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors, services
from accounts.forms import SignUpForm
from core.api import BODY, SIGNED_IN, error_responses
from core.auth import TokenAuthentication
from core.language import LANGUAGE_CODES, remember_account_language
from core.throttling import SignUpThrottle
from decks.models import DeckVersion
from tournaments import selectors as tournament_selectors
from tournaments.apis.outputs import (
    EventOutput,
    PlayerOutput,
    RegistrationOutput,
    ReportOutput,
    report_data,
    serializer_context,
)
from tournaments.models import Player, Registration
from tournaments.selectors.people import registrations_load_byes, table_open_report

#: Form fields -> the API's field names (the API takes the password once).
_FIELD_NAMES = {"password1": "password", "password2": "password"}


class SignUpApi(APIView):
    """Create an account and its player profile; answers the API token of the new account."""

    permission_classes = [AllowAny]
    authentication_classes: list = []  # no session, so no CSRF check: the request proves nothing about a browser
    throttle_classes = [SignUpThrottle]

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
        language = serializers.CharField(
            max_length=10, required=False, allow_blank=True, default="",
            help_text="The language Podium speaks to you in (`es`, `pt-br`, `de`, `fr`, `en`); blank: your "
            "browser's (the `Accept-Language` of each request).",
        )  # fmt: skip

        def validate(self, attrs: dict) -> dict:
            form = SignUpForm(
                data={
                    "username": attrs["username"],
                    "display_name": attrs["display_name"],
                    "email": attrs["email"],
                    "password1": attrs["password"],
                    "password2": attrs["password"],
                    "language": attrs["language"].strip().lower(),
                }
            )
            if not form.is_valid():
                errors: dict[str, list[str]] = {}
                for field, messages in form.errors.items():
                    errors.setdefault(_FIELD_NAMES.get(field, field), []).extend(map(str, messages))
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
        token = services.account_token(user=user)
        answer = {
            "username": user.get_username(),
            "player": user.player.pk,
            "display_name": user.player.display_name,
            "token": token,
        }
        return Response(self.OutputSerializer(answer).data, status=status.HTTP_201_CREATED)


# --- API tokens: signing in and out -----------------------------------------------------------------------------


class TokenCreateApi(APIView):
    """Sign in for the API: a new token for a username and password (django-axes locks out password guessers)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []  # the password is the credential: no session, no CSRF check

    @extend_schema_serializer(component_name="TokenCreate")
    class InputSerializer(AuthTokenSerializer):
        pass

    @extend_schema_serializer(component_name="Token")
    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField(
            help_text="For `Authorization: Token <key>`: a new one at each sign-in, valid for PODIUM_TOKEN_HOURS "
            "(10 by default) or until signed out."
        )

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer, **error_responses(*BODY)}, auth=[])
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        token = services.account_token(user=serializer.validated_data["user"])
        return Response(self.OutputSerializer({"token": token}).data)


class TokenRevokeApi(APIView):
    """Sign out: the token this request is sent with stops working."""

    permission_classes = [IsAuthenticated]
    authentication_classes = [TokenAuthentication]

    @extend_schema(request=None, responses={204: None, **error_responses(*SIGNED_IN)})
    def post(self, request: Request) -> Response:
        services.account_token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRevokeAllApi(APIView):
    """Sign out everywhere: every token of the account stops working (a lost phone, a leaked script)."""

    permission_classes = [IsAuthenticated]
    authentication_classes = [TokenAuthentication]

    @extend_schema(request=None, responses={204: None, **error_responses(*SIGNED_IN)})
    def post(self, request: Request) -> Response:
        services.account_tokens_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- the signed-in player: GET /api/v1/me/ ---------------------------------------------------------------------


@extend_schema_serializer(component_name="MyOpponent")
class OpponentOutput(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField(source="name")
    seat = serializers.IntegerField()
    deck_status = serializers.ChoiceField(
        choices=DeckVersion.Status.choices, allow_null=True, help_text="Their deck's status; null: no deck submitted."
    )


@extend_schema_serializer(component_name="MyTable")
class MyTableOutput(serializers.Serializer):
    round = serializers.IntegerField(source="round_number")
    round_label = serializers.CharField()
    table = serializers.IntegerField(source="table_number", allow_null=True, help_text="null: a bye.")
    seat = serializers.IntegerField()
    goes_first = serializers.BooleanField()
    opponents = OpponentOutput(many=True)
    reported = serializers.BooleanField(help_text="The table's result is recorded (final).")
    report = serializers.SerializerMethodField(help_text="The players' report waiting or disputed, or null.")
    to_answer = serializers.SerializerMethodField(
        help_text="Another player's report waits for you to confirm or dispute it (confirm/)."
    )

    @extend_schema_field(ReportOutput(allow_null=True))
    def get_report(self, table: dict) -> dict | None:
        report = table["open_report"]
        return None if report is None else ReportOutput(report_data(report), context=self.context).data

    def get_to_answer(self, table: dict) -> bool:
        return table["report_status"] is not None and not table["reported_by_me"] and not table["answered"]


@extend_schema_serializer(component_name="MyRound")
class MyRoundOutput(serializers.Serializer):
    round = serializers.IntegerField(source="round_number")
    table = serializers.IntegerField(source="table_number", allow_null=True, help_text="null: a bye.")
    opponents = serializers.ListField(child=serializers.CharField())
    placement = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    games = serializers.SerializerMethodField(help_text="1v1 game score [won, lost, drawn], or null.")

    def get_games(self, row) -> list[int] | None:
        return None if row.games is None else list(row.games)


@extend_schema_serializer(component_name="MyEvent")
class MyEventOutput(serializers.Serializer):
    event = EventOutput()
    registration = RegistrationOutput()
    table = MyTableOutput(allow_null=True, help_text="Running events: your table in the current round, or null.")
    history = MyRoundOutput(many=True, help_text="Running events: your rounds so far.")


class MeApi(APIView):
    """You, for a phone app or a bot: your language setting, your player and your events with your current table;
    ``PATCH`` changes your language."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="MeUpdate")
    class InputSerializer(serializers.Serializer):
        language = serializers.ChoiceField(
            choices=LANGUAGE_CODES, allow_blank=True,
            help_text="The language Podium speaks to you in; blank: your browser's.",
        )  # fmt: skip

    @extend_schema_serializer(component_name="Me")
    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        language = serializers.CharField(help_text="Your language setting; blank: your browser's.")
        player = PlayerOutput(allow_null=True, help_text="Your player profile; null until you first register.")
        upcoming = MyEventOutput(many=True)
        running = MyEventOutput(many=True)
        past = MyEventOutput(many=True)

    @extend_schema(responses={200: OutputSerializer, **error_responses(*SIGNED_IN)})
    def get(self, request: Request) -> Response:
        player = tournament_selectors.player_of(request.user)
        answer: dict[str, Any] = {
            "username": request.user.get_username(),
            "language": selectors.account_language(request.user),
            "player": player,
            "upcoming": [],
            "running": [],
            "past": [],
        }
        if player is not None:
            events = tournament_selectors.player_events(player=player)
            everything = [*events.upcoming, *events.running, *events.past]
            registrations_load_byes(registrations=everything)
            for key, registrations in (
                ("upcoming", events.upcoming), ("running", events.running), ("past", events.past)
            ):  # fmt: skip
                answer[key] = [
                    self._entry(registration, player, running=key == "running") for registration in registrations
                ]
        return Response(self.OutputSerializer(answer, context=serializer_context(request)).data)

    @extend_schema(
        request=InputSerializer, responses={200: OutputSerializer, **error_responses(*SIGNED_IN, *BODY)}
    )
    def patch(self, request: Request) -> Response:
        """Change your settings: ``language``."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        language = services.account_language_set(user=request.user, language=serializer.validated_data["language"])
        if isinstance(request.successful_authenticator, SessionAuthentication):  # this session speaks it at once
            remember_account_language(request._request, language)
        return self.get(request)

    @staticmethod
    def _entry(registration: Registration, player: Player, *, running: bool) -> dict:
        event = registration.event
        entry: dict[str, Any] = {"event": event, "registration": registration, "table": None, "history": []}
        if running:
            table = selectors.player_table(event=event, player=player)
            if table is not None:
                report = None
                if table.report_status is not None and table.table_number is not None:  # a bye has no report
                    report = table_open_report(
                        event=event, round_number=table.round_number, table_number=table.table_number
                    )
                entry["table"] = {**dataclasses.asdict(table), "open_report": report}
            entry["history"] = tournament_selectors.player_history(event=event, player=player)
        return entry
