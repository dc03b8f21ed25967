"""REST API of the decks app."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, STAFF, error_responses
from decks import services
from decks.checking import deck_check
from decks.models import DeckRecheck, DeckVersion
from games.formats import FORMATS
from games.formats.deckrules import ROLES
from tournaments.models import Event, Registration
from tournaments.policy import can_view_decklist, can_view_hidden_decklists


class DeckCheckAnonThrottle(AnonRateThrottle):
    scope = "deck_checks_anon"


@extend_schema_serializer(component_name="Violation")
class ViolationOutput(serializers.Serializer):
    code = serializers.CharField()
    rule = serializers.CharField()
    message = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())


class DeckCheckApi(APIView):
    """Check a decklist against a format's deck construction rules, without registering it."""

    permission_classes = [AllowAny]
    throttle_classes = [DeckCheckAnonThrottle]

    @extend_schema_serializer(component_name="DeckCheck")
    class InputSerializer(serializers.Serializer):
        format = serializers.ChoiceField(choices=sorted(FORMATS))
        decklist = serializers.CharField(max_length=50_000, allow_blank=True, trim_whitespace=False)
        roles = serializers.DictField(
            child=serializers.CharField(max_length=300), required=False, default=dict,
            help_text=f"Role -> card reference. Roles: {', '.join(ROLES)}.",
        )  # fmt: skip
        options = serializers.DictField(required=False, default=dict)

        def validate_roles(self, value: dict) -> dict:
            unknown = sorted(set(value) - set(ROLES))
            if unknown:
                raise serializers.ValidationError(f"Unknown role(s): {', '.join(unknown)}. Roles: {', '.join(ROLES)}.")
            return value

    @extend_schema_serializer(component_name="DeckCheckResult")
    class OutputSerializer(serializers.Serializer):
        legal = serializers.BooleanField()
        card_count = serializers.IntegerField()
        violations = ViolationOutput(many=True)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            **error_responses(*BODY, "unknown_banlist", "invalid_option", "throttled"),
        },
    )
    def post(self, request: Request) -> Response:
        """Check a list; anonymous callers are throttled per address."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = deck_check(**serializer.validated_data)
        return Response(result.as_dict())


# --- registered decks --------------------------------------------------------------------------


@extend_schema_serializer(component_name="DeckVersion")
class DeckVersionOutput(serializers.Serializer):
    """A deck version.  Until the event publishes its decklists, anyone may see a deck's status (legal,
    illegal, pending), but only the player and the staff who may see hidden decklists see what would name
    its cards: the list, its roles, its card count and its violations (``null`` for everyone else)."""

    id = serializers.IntegerField()
    registration = serializers.IntegerField(source="registration_id")
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=DeckVersion.Status.choices)
    card_count = serializers.IntegerField(allow_null=True, help_text="null until checked, or while hidden from you.")
    violations = ViolationOutput(many=True, allow_null=True, help_text="null while the decklist is hidden from you.")
    roles = serializers.DictField(
        child=serializers.CharField(), allow_null=True, help_text="null while the decklist is hidden from you."
    )
    submitted_at = serializers.DateTimeField()
    checked_at = serializers.DateTimeField(allow_null=True)
    decklist = serializers.CharField(allow_null=True, help_text="null while the decklist is hidden from you.")

    #: What only the player and staff who may see hidden decklists read before publication.
    PRIVATE = ("card_count", "violations", "roles", "decklist")

    def to_representation(self, version: DeckVersion) -> dict:
        data = super().to_representation(version)
        if not (self.context.get("show_all") or can_view_decklist(self.context.get("viewer"), version.registration)):
            data.update(dict.fromkeys(self.PRIVATE))
        return data


def _registration(event_id: int, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event", "player"), pk=registration_id, event_id=event_id
    )


class DeckVersionListSubmitApi(APIView):
    """A registration's deck versions (newest first), and submitting a new one."""

    @extend_schema_serializer(component_name="DeckSubmit")
    class InputSerializer(serializers.Serializer):
        decklist = serializers.CharField(max_length=50_000, trim_whitespace=False)
        roles = serializers.DictField(child=serializers.CharField(max_length=300), required=False, default=dict)

    @extend_schema(responses={200: DeckVersionOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int, registration_id: int) -> Response:
        registration = _registration(event_id, registration_id)
        versions = registration.deck_versions.order_by("-number")
        return Response(DeckVersionOutput(versions, many=True, context={"viewer": request.user}).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: DeckVersionOutput,
            **error_responses(*BODY, "unknown_role", *STAFF, "not_found", "deck_locked"),
        },
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        registration = _registration(event_id, registration_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = services.deck_submit(registration=registration, by=request.user, **serializer.validated_data)
        version.refresh_from_db()  # validated already when tasks run in-process
        # The player or the event's organisers: they see what they submitted.
        return Response(DeckVersionOutput(version, context={"show_all": True}).data, status=status.HTTP_201_CREATED)


class EventDeckStatusApi(APIView):
    """Deck status of every entry: public; the lists and their violations once published (or for the player
    and the staff who may see hidden decklists)."""

    @extend_schema_serializer(component_name="RegistrationDeck")
    class OutputSerializer(serializers.Serializer):
        registration = serializers.IntegerField(source="registration_id")
        player = serializers.CharField(source="registration.player.display_name")
        version = DeckVersionOutput(source="*")

    @extend_schema(responses={200: OutputSerializer(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        event = get_object_or_404(Event, pk=event_id)
        versions = services.latest_versions(event).select_related("registration__player", "registration__event")
        context = {"viewer": request.user, "show_all": can_view_hidden_decklists(request.user, event)}
        return Response(self.OutputSerializer(versions, many=True, context=context).data)


class DeckRecheckApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="DeckRecheck")
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        total = serializers.IntegerField()
        done = serializers.IntegerField()
        finished = serializers.SerializerMethodField()

        def get_finished(self, run) -> bool:
            return run.finished_at is not None

    @extend_schema(request=None, responses={202: OutputSerializer, **error_responses(*STAFF, "not_found")})
    def post(self, request: Request, event_id: int) -> Response:
        run = services.deck_recheck_start(event=get_object_or_404(Event, pk=event_id), by=request.user)
        run.refresh_from_db()
        return Response(self.OutputSerializer(run).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses={200: OutputSerializer, **error_responses(*SIGNED_IN, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The latest re-check of the event's decks and its progress."""
        run = get_object_or_404(DeckRecheck.objects.filter(event_id=event_id).order_by("-started_at")[:1])
        return Response(self.OutputSerializer(run).data)


class EventDeckOptionsApi(APIView):
    """Deck rule options of an event: ``{"banlist": "2026.05 TCG"}`` (Deck Masters), ``{"deck_size": 50}`` (Mintayn)."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="DeckOptions")
    class InputSerializer(serializers.Serializer):
        deck_options = serializers.DictField()

    @extend_schema(
        request=InputSerializer,
        responses={
            200: InputSerializer,
            **error_responses(*BODY, "invalid_option", *STAFF, "not_found", "deck_locked"),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = services.event_deck_options_set(
            event=get_object_or_404(Event, pk=event_id),
            by=request.user,
            options=serializer.validated_data["deck_options"],
        )
        return Response({"deck_options": event.deck_options})
