"""REST API of the decks app."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, STAFF, FormatField, Pagination, SaidField, error_responses, paginated
from core.doorway import enter
from core.throttling import DeckCheckThrottle, UserWriteThrottle
from decks import doors as deck_doors
from decks import selectors, services
from decks.checking import DECKLIST_MAX_LENGTH, LISTED_PER_CODE, STORED_VIOLATIONS, deck_check
from decks.models import DeckVerdictOverride, DeckVersion
from rules.deckrules import ROLES
from tournaments import doors
from tournaments.models import Registration
from tournaments.policy import Action, can, can_view_decklist, can_view_hidden_decklists, is_player


@extend_schema_serializer(component_name="Violation")
class ViolationOutput(serializers.Serializer):
    code = serializers.CharField()
    rule = serializers.CharField()
    message = SaidField(help_text="The violation in words, in the request's language (``code`` never changes).")
    cards = serializers.ListField(child=serializers.CharField())


class DeckCheckApi(APIView):
    """Check a decklist against a format's deck construction rules, without registering it."""

    permission_classes = [AllowAny]
    throttle_classes = [DeckCheckThrottle, UserWriteThrottle]

    @extend_schema_serializer(component_name="DeckCheck")
    class InputSerializer(serializers.Serializer):
        format = FormatField()
        decklist = serializers.CharField(max_length=DECKLIST_MAX_LENGTH, allow_blank=True, trim_whitespace=False)
        roles = serializers.DictField(
            child=serializers.CharField(max_length=300), required=False, default=dict,
            help_text=f"Role -> card reference. Roles: {', '.join(ROLES)}.",
        )  # fmt: skip
        options = serializers.DictField(required=False, default=dict)

        def validate_roles(self, value: dict) -> dict:
            unknown = sorted(set(value) - set(ROLES))
            if unknown:
                raise serializers.ValidationError(
                    _("Unknown role(s): %(unknown)s. Roles: %(roles)s.")
                    % {"unknown": ", ".join(unknown), "roles": ", ".join(ROLES)}
                )
            return value

    @extend_schema_serializer(component_name="DeckCheckResult")
    class OutputSerializer(serializers.Serializer):
        legal = serializers.BooleanField()
        card_count = serializers.IntegerField()
        violation_count = serializers.IntegerField(help_text="Every violation found, listed or not.")
        violations_by_code = serializers.DictField(
            child=serializers.IntegerField(), help_text="How many violations of each code were found."
        )
        violations = ViolationOutput(
            many=True, help_text=f"The violations, at most {LISTED_PER_CODE} of each code (the first ones)."
        )

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
        return Response(self.OutputSerializer(result.as_dict(per_code=LISTED_PER_CODE)).data)


# --- registered decks --------------------------------------------------------------------------


@extend_schema_serializer(component_name="DeckRuling")
class DeckRulingOutput(serializers.Serializer):
    """A judge's ruling in force on a deck version: its status wins over the checker's verdict."""

    status = serializers.ChoiceField(choices=DeckVerdictOverride.Status.choices)
    reason = serializers.CharField()
    by = serializers.SerializerMethodField(
        help_text="Who ruled (username); null when the account is gone, or for readers who are neither the player "
        "nor staff who may see hidden decklists."
    )
    at = serializers.DateTimeField()

    def get_by(self, ruling: DeckVerdictOverride) -> str | None:
        return ruling.by.get_username() if ruling.by is not None else None


@extend_schema_serializer(component_name="DeckVersion")
class DeckVersionOutput(serializers.Serializer):
    """A deck version.  Until the event publishes its decklists, anyone may see a deck's status (legal,
    illegal, pending), but only the player and the staff who may see hidden decklists see what would name
    its cards: the list, its roles, its card count, its violations, the checker's own verdict and a judge's
    ruling with its reason (``null`` for everyone else)."""

    id = serializers.IntegerField()
    registration = serializers.IntegerField(source="registration_id")
    number = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=DeckVersion.Status.choices, source="effective_status",
        help_text="The deck's status: a judge's ruling when there is one, else the deck checker's verdict.",
    )  # fmt: skip
    checked_status = serializers.ChoiceField(
        choices=DeckVersion.Status.choices, source="status", allow_null=True,
        help_text="The deck checker's verdict, whatever a ruling says; null while the decklist is hidden from you.",
    )  # fmt: skip
    ruling = DeckRulingOutput(
        allow_null=True, help_text="The judge's ruling in force; null: none, or the decklist is hidden from you."
    )
    card_count = serializers.IntegerField(allow_null=True, help_text="null until checked, or while hidden from you.")
    violations = ViolationOutput(
        many=True, allow_null=True,
        help_text=f"The checker's violations, at most {STORED_VIOLATIONS} (the first of every code, then the first "
        "ones: `violation_count` counts them all); null while the decklist is hidden from you.",
    )  # fmt: skip
    violation_count = serializers.IntegerField(
        allow_null=True, help_text="Every violation the checker found, listed or not; null while hidden from you."
    )
    violations_by_code = serializers.DictField(
        child=serializers.IntegerField(), allow_null=True,
        help_text="How many violations of each code the checker found; null while hidden from you.",
    )  # fmt: skip
    roles = serializers.DictField(
        child=serializers.CharField(), allow_null=True, help_text="null while the decklist is hidden from you."
    )
    submitted_at = serializers.DateTimeField()
    checked_at = serializers.DateTimeField(allow_null=True)
    decklist = serializers.CharField(allow_null=True, help_text="null while the decklist is hidden from you.")

    #: What only the player and staff who may see hidden decklists read before publication.
    PRIVATE = (
        "card_count", "violations", "violation_count", "violations_by_code", "roles", "decklist", "checked_status",
        "ruling",
    )  # fmt: skip

    def to_representation(self, version: DeckVersion) -> dict:
        """The view decides what its reader may see (``show_all``: every list, ``staff``: who ruled, see
        :func:`_sight`), so that no answer reads the reader's roles here; only whether they are the deck's
        player is asked per version, which needs no query."""
        data = super().to_representation(version)
        viewer = self.context.get("viewer")
        if not (self.context.get("show_all") or is_player(viewer, version.registration.player)):
            data.update(dict.fromkeys(self.PRIVATE))
        elif data["ruling"] and not (self.context.get("staff") or is_player(viewer, version.registration.player)):
            # Once published, anyone reads the ruling; who made it stays with the player and the staff.
            data["ruling"]["by"] = None
        return data


def _sight(viewer: AbstractBaseUser | AnonymousUser, registration: Registration, versions: list[DeckVersion]) -> dict:
    """The context of :class:`DeckVersionOutput` for ``viewer`` reading ``versions`` of one registration's deck.

    The reader's roles are read (one query, remembered for the request) only when the answer depends on them:
    the list is hidden from everyone but the player and the staff until published, and who made a ruling
    from everyone but them for good."""
    own = is_player(viewer, registration.player)
    ruled = any(v.ruling_id for v in versions)
    return {
        "viewer": viewer,
        "show_all": can_view_decklist(viewer, registration),
        "staff": own or (ruled and can(viewer, Action.SEE_HIDDEN_DECKLISTS, registration.event)),
    }


class DeckVersionListSubmitApi(APIView):
    """A registration's deck versions (newest first), and submitting a new one."""

    pagination_class = Pagination

    @extend_schema_serializer(component_name="DeckSubmit")
    class InputSerializer(serializers.Serializer):
        decklist = serializers.CharField(max_length=DECKLIST_MAX_LENGTH, trim_whitespace=False)
        roles = serializers.DictField(child=serializers.CharField(max_length=300), required=False, default=dict)

    @extend_schema(responses={200: DeckVersionOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int, registration_id: int) -> Response:
        registration = enter(request, doors.REGISTRATION, event_id, registration_id)
        versions = selectors.deck_versions_ruled(registration=registration)
        context = _sight(request.user, registration, versions)
        return paginated(self, request, versions, lambda page: DeckVersionOutput(page, many=True, context=context).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: DeckVersionOutput,
            **error_responses(*BODY, "unknown_role", *STAFF, "not_found", "deck_locked"),
        },
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        registration = enter(request, doors.REGISTRATION, event_id, registration_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = services.deck_submit(registration=registration, by=request.user, **serializer.validated_data)
        version = selectors.deck_version_refreshed(version=version)  # validated already when tasks run in-process
        # The player or the event's organisers: they see what they submitted.
        return Response(DeckVersionOutput(version, context={"show_all": True}).data, status=status.HTTP_201_CREATED)


class EventDeckStatusApi(APIView):
    """Deck status of every entry: public; the lists and their violations once published (or for the player
    and the staff who may see hidden decklists)."""

    pagination_class = Pagination

    @extend_schema_serializer(component_name="RegistrationDeck")
    class OutputSerializer(serializers.Serializer):
        registration = serializers.IntegerField(source="registration_id")
        player = serializers.CharField(source="registration.player.display_name")
        version = DeckVersionOutput(source="*")

    @extend_schema(responses={200: OutputSerializer(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        event = enter(request, doors.EVENT, event_id)
        versions = selectors.latest_versions_listed(event=event)
        context = {
            "viewer": request.user,
            "show_all": can_view_hidden_decklists(request.user, event),
            "staff": can(request.user, Action.SEE_HIDDEN_DECKLISTS, event),
        }
        return paginated(
            self, request, versions, lambda page: self.OutputSerializer(page, many=True, context=context).data
        )


class DeckRulingApi(APIView):
    """A judge's ruling on a registration's deck version (its latest): legal or illegal, with a reason."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="DeckRulingCreate")
    class InputSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=DeckVerdictOverride.Status.choices)
        reason = serializers.CharField(
            max_length=services.REASON_MAX, help_text="Why the deck is ruled so (kept with the ruling and in the "
            "audit trail)."
        )  # fmt: skip

    @extend_schema(
        request=InputSerializer,
        responses={
            200: DeckVersionOutput,
            **error_responses(*BODY, *STAFF, "not_found", "not_latest_version"),
        },
    )
    def post(self, request: Request, event_id: int, registration_id: int, number: int) -> Response:
        """Rule on the deck: its status is the ruling's (the checker's verdict stays as it was); it replaces a
        ruling in force.  The event's organisers and judges, also after the event."""
        version = _version(request, event_id, registration_id, number)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = services.deck_verdict_override(version=version, by=request.user, **serializer.validated_data)
        return Response(_version_answer(version, request))


class DeckRulingClearApi(APIView):
    """Clear the ruling on a registration's deck version (its latest): the checker's verdict stands again."""

    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="DeckRulingClear")
    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(
            max_length=services.REASON_MAX, help_text="Why the ruling is cleared (kept in the audit trail)."
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            200: DeckVersionOutput,
            **error_responses(*BODY, *STAFF, "not_found", "not_latest_version", "no_ruling"),
        },
    )
    def post(self, request: Request, event_id: int, registration_id: int, number: int) -> Response:
        """The event's organisers and judges; the ruling stays in the deck's history."""
        version = _version(request, event_id, registration_id, number)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = services.deck_verdict_clear(version=version, by=request.user, **serializer.validated_data)
        return Response(_version_answer(version, request))


def _version(request: Request, event_id: int, registration_id: int, number: int) -> DeckVersion:
    return enter(request, deck_doors.VERSION, enter(request, doors.REGISTRATION, event_id, registration_id), number)


def _version_answer(version: DeckVersion, request: Request) -> dict:
    version = selectors.deck_version_with_registration(version_id=version.pk)
    return DeckVersionOutput(version, context=_sight(request.user, version.registration, [version])).data


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
        run = services.deck_recheck_start(event=enter(request, doors.EVENT, event_id), by=request.user)
        run = selectors.deck_recheck_refreshed(run=run)
        return Response(self.OutputSerializer(run).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses={200: OutputSerializer, **error_responses(*SIGNED_IN, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The latest re-check of the event's decks and its progress."""
        run = enter(request, deck_doors.RECHECK, event_id)
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
            event=enter(request, doors.EVENT, event_id),
            by=request.user,
            options=serializer.validated_data["deck_options"],
        )
        return Response({"deck_options": event.deck_options})
