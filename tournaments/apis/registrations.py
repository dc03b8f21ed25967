"""Entries and invitations, self-registration, check-in, fixed tables, byes, drops, withdrawals, claim codes (the
entry fee's paid state and the lottery's draw are in :mod:`tournaments.apis.entry`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, STAFF, Pagination, error_responses, id_field, paginated
from core.doorway import enter
from tournaments import doors, roster, selectors, services
from tournaments.apis._common import MAX_ROUND, MAX_TABLE
from tournaments.apis.outputs import RegistrationOutput, serializer_context
from tournaments.models import Registration
from tournaments.selectors import people as people_selectors
from tournaments.services import registrations as registration_services


class RegistrationListCreateApi(APIView):
    pagination_class = Pagination

    @extend_schema_serializer(component_name="RegistrationCreate")
    class InputSerializer(serializers.Serializer):
        player = id_field(required=False, help_text="Id of an existing player.")
        display_name = serializers.CharField(max_length=100, required=False, help_text="Name of a new player.")
        external_id = serializers.CharField(max_length=64, required=False, allow_blank=True)
        checked_in = serializers.BooleanField(default=False)

        def validate(self, data: dict) -> dict:
            if "player" not in data and not data.get("display_name", "").strip():
                raise serializers.ValidationError(
                    {"display_name": [_("Give an existing player's id or a display name.")]}
                )
            return data

    @extend_schema(responses={200: RegistrationOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """Every registration: players in the event, waiting for a place, and withdrawn; invitations not answered
        yet for the event's staff."""
        event = enter(request, doors.EVENT, event_id)
        context = serializer_context(request, event)
        registrations = selectors.event_registrations(event=event, invitations=context["private"])

        def page_answer(page: list[Registration]) -> Any:
            # The page's warnings (another event the same day) in one query.
            warnings = people_selectors.entry_warnings(event=event, registrations=page)
            return RegistrationOutput(page, many=True, context={**context, "warnings": warnings}).data

        return paginated(self, request, registrations, page_answer)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: RegistrationOutput,
            **error_responses(
                *BODY, *STAFF, "not_found", "event_finished", "top_cut_started", "already_registered",
                "duplicate_player",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Register a walk-in: an existing player (``player``) or a new one (``display_name``).

        Staff may register beyond the capacity. Registering checked in once round 1 is paired is a late
        entry: a loss for each round missed. ``warnings`` lists what refuses nothing (``overlapping_event``: the
        player also holds a place at another event that day). A player record linked to an account (but yours) is invited:
        ``status: "invited"``, in the event once the player accepts (``accept/``), never checked in before.
        """
        event = enter(request, doors.EVENT, event_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = None
        if "player" in data:
            player = people_selectors.player_get(player_id=data["player"])
            if player is None:
                raise serializers.ValidationError(
                    {"player": [_("Player %(player)s does not exist.") % {"player": data["player"]}]}
                )
        registration = services.registration_create(
            event=event,
            by=request.user,
            player=player,
            display_name=data.get("display_name", ""),
            external_id=data.get("external_id"),
            checked_in=data["checked_in"],
        )
        return _registration_answer(request, registration, status.HTTP_201_CREATED, warn=True)


class RosterImportApi(APIView):
    @extend_schema_serializer(component_name="RosterImport")
    class InputSerializer(serializers.Serializer):
        file = serializers.FileField(
            required=False, help_text="The roster file (multipart): CSV with a header row, or a TOM `.tdf`."
        )
        text = serializers.CharField(
            required=False, trim_whitespace=False, help_text="The file's text instead of a file (JSON or a form)."
        )
        checked_in = serializers.BooleanField(
            default=False, help_text="Check in the players whose row does not say (every player of a `.tdf`)."
        )

        def validate(self, data: dict) -> dict:
            if ("file" in data) == ("text" in data):
                raise serializers.ValidationError(
                    {"file": [_("Send the roster as `file` or as `text` (one of them).")]}
                )
            return data

    @extend_schema_serializer(component_name="RosterImported")
    class OutputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=["csv", "tdf"], help_text="How the file was read.")
        registered = serializers.IntegerField(help_text="Players in the event now.")
        invited = serializers.IntegerField(help_text="Player records linked to an account: invited, as by hand.")
        registrations = RegistrationOutput(many=True, help_text="In the file's order.")

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            **error_responses(
                *BODY, *STAFF, "not_found", "event_finished", "top_cut_started", "unreadable_file", "invalid_roster",
                "file_too_large",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Register every player of a roster file, or none: a CSV (columns `name`, `player_id`, `checked_in`,
        `fixed_table`) or a TOM `.tdf`.

        Each player is entered as a walk-in by hand is (one audit entry each): a player ID that is an existing
        player's reuses the record, and invites its player when it is linked to an account. Every problem of
        the file is answered at once (`invalid_roster`, with `lines`), and then nothing is stored.
        """
        event = enter(request, doors.EVENT, event_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        content = data["file"].read(roster.MAX_BYTES + 1) if "file" in data else data["text"].encode()
        imported = services.roster_import(event=event, by=request.user, data=content, checked_in=data["checked_in"])
        context = serializer_context(request, event)
        answer = {
            "kind": imported.kind, "registered": imported.registered, "invited": imported.invited,
            "registrations": RegistrationOutput(imported.registrations, many=True, context=context).data,
        }  # fmt: skip
        return Response(answer, status=status.HTTP_201_CREATED)


class EventRegisterApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: RegistrationOutput,
            **error_responses(
                *SIGNED_IN, "not_found", "event_finished", "top_cut_started", "event_started", "registration_closed",
                "registration_not_yet_open", "already_registered",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Register yourself while the event's registration is open: ``waitlisted`` when it is full, ``applied``
        while its lottery takes applications.

        Before your window opens (``registration_opens_at``; priority players from ``priority_opens_at``) the
        answer is ``registration_not_yet_open``, saying when it opens for you. A new account gets its player
        profile here. Leave with ``withdraw`` before play starts. ``warnings`` lists what refuses nothing
        (``overlapping_event``: you also hold a place at another event that day).
        """
        event = enter(request, doors.EVENT, event_id)
        registration = registration_services.registration_self_register(event=event, by=request.user)
        return _registration_answer(
            request, enter(request, doors.REGISTRATION, event_id, registration.pk), status.HTTP_201_CREATED, warn=True
        )


def _registration_answer(
    request: Request, registration: Registration, status_code: int = 200, *, warn: bool = False
) -> Response:
    """The registration as the API shows it; ``warn``: with its warnings (where it is made)."""
    event = registration.event
    context = serializer_context(request, event)
    if warn:
        context["warnings"] = people_selectors.entry_warnings(event=event, registrations=[registration])
    return Response(RegistrationOutput(registration, context=context).data, status=status_code)


class RegistrationCheckInApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="CheckIn")
    class InputSerializer(serializers.Serializer):
        checked_in = serializers.BooleanField(default=True)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: RegistrationOutput,
            **error_responses(
                *BODY,
                *STAFF,
                "not_found",
                "event_finished",
                "check_in_closed",
                "not_registered",
                "dropped",
                "entry_fee_unpaid",
            ),
        },
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """Check in (or out): staff at any time, the player themselves while the event's check-in is open.

        Where the organiser checks in paid players only (``unpaid_check_in`` off), an unpaid entry fee is refused
        (``entry_fee_unpaid``)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = services.registration_check_in(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id),
            by=request.user,
            **serializer.validated_data,
        )
        return _registration_answer(request, registration)


class RegistrationDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="RegistrationUpdate")
    class InputSerializer(serializers.Serializer):
        fixed_table = serializers.IntegerField(
            allow_null=True, min_value=1, max_value=MAX_TABLE,
            help_text="The table this player always sits at; null to free them.",
        )  # fmt: skip

    @extend_schema(
        request=InputSerializer,
        responses={
            200: RegistrationOutput,
            **error_responses(*BODY, *STAFF, "not_found", "event_finished", "fixed_table_taken"),
        },
    )
    def patch(self, request: Request, event_id: int, registration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = services.registration_update(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id),
            by=request.user,
            **serializer.validated_data,
        )
        return _registration_answer(request, registration)


class RegistrationStreamConsentApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="StreamConsent")
    class InputSerializer(serializers.Serializer):
        stream_opt_out = serializers.BooleanField(
            help_text="true: the player is not to be streamed (no station shows their table); false: they may be."
        )

    @extend_schema(
        request=InputSerializer,
        responses={200: RegistrationOutput, **error_responses(*BODY, *STAFF, "not_found")},
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """Opt the player out of being streamed, or back in: the player themselves or the event's staff, at any time
        (audited).  A stream station showing their table stops showing it; none may be pointed at it while they are
        opted out (``stream_opt_out`` on the station's update)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = services.registration_stream_consent_set(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id),
            by=request.user,
            **serializer.validated_data,
        )
        return _registration_answer(request, registration)


class ByeAssignApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ByeAssign")
    class InputSerializer(serializers.Serializer):
        round = serializers.IntegerField(min_value=1, max_value=MAX_ROUND, help_text="A round not paired yet.")

    @extend_schema(
        request=InputSerializer,
        responses={
            201: RegistrationOutput,
            **error_responses(*BODY, *STAFF, "not_found", "event_finished", "dropped", "round_already_paired"),
        },
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """Give the player a bye (a win) in a round that has not been paired yet."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = enter(request, doors.REGISTRATION, event_id, registration_id)
        services.bye_assign(registration=registration, round_number=serializer.validated_data["round"], by=request.user)
        return _registration_answer(
            request, enter(request, doors.REGISTRATION, event_id, registration_id), status.HTTP_201_CREATED
        )


class ByeUnassignApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: RegistrationOutput, **error_responses(*STAFF, "not_found", "round_already_paired")},
    )
    def delete(self, request: Request, event_id: int, registration_id: int, number: int) -> Response:
        """Take back a bye assigned for a round not paired yet; answers the registration."""
        registration = enter(request, doors.REGISTRATION, event_id, registration_id)
        services.bye_unassign(registration=registration, round_number=number, by=request.user)
        return _registration_answer(request, enter(request, doors.REGISTRATION, event_id, registration_id))


class RegistrationDropApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: RegistrationOutput,
            **error_responses(*STAFF, "not_found", "event_finished", "not_registered", "round_in_progress"),
        },
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """Drop the player from future rounds; their results and standing stay.

        Staff at any time; the player themselves between rounds (not while their table waits for its result).
        """
        registration = services.registration_drop(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id), by=request.user
        )
        return _registration_answer(request, registration)


class RegistrationUndropApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="Undrop")
    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=1000, help_text="Why the drop is undone (kept in the audit trail).")

    @extend_schema(
        request=InputSerializer,
        responses={200: RegistrationOutput, **error_responses(*BODY, *STAFF, "not_found", "event_finished")},
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """Undo a drop (a correction): the player is paired again from the next round."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = registration_services.registration_undrop(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id),
            by=request.user,
            **serializer.validated_data,
        )
        return _registration_answer(request, registration)


class RegistrationWithdrawApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: RegistrationOutput, **error_responses(*STAFF, "not_found", "event_started")}
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """Leave the event (or its waiting list) before play starts: the first player waiting takes the place.

        The player themselves or the staff. Once play has started, a player drops instead. Staff withdraw an
        invitation at any time (the player declines it).
        """
        registration = registration_services.registration_withdraw(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id), by=request.user
        )
        return _registration_answer(request, registration)


class RegistrationAcceptApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: RegistrationOutput,
            **error_responses(*STAFF, "not_found", "not_invited", "event_finished", "top_cut_started"),
        },
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """The invited player accepts staff's invitation: registered (not checked in yet). Accepting twice
        changes nothing."""
        registration = registration_services.registration_accept(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id), by=request.user
        )
        return _registration_answer(request, registration)


class RegistrationDeclineApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: RegistrationOutput, **error_responses(*STAFF, "not_found", "not_invited")}
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """The invited player declines staff's invitation: ``withdrawn``. Declining twice changes nothing."""
        registration = registration_services.registration_decline(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id), by=request.user
        )
        return _registration_answer(request, registration)


class PlayerClaimCodeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ClaimCode")
    class OutputSerializer(serializers.Serializer):
        code = serializers.CharField(
            help_text="Give it to the player: they claim the record with POST /players/claim/."
        )

    @extend_schema(
        request=None,
        responses={201: OutputSerializer, **error_responses(*STAFF, "not_found", "already_claimed")},
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """A new code for the walk-in to claim their player record with an account (earlier codes stop working)."""
        code = registration_services.player_claim_code_create(
            registration=enter(request, doors.REGISTRATION, event_id, registration_id), by=request.user
        )
        return Response(self.OutputSerializer({"code": code}).data, status=status.HTTP_201_CREATED)
