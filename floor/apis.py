"""The venue floor's API: judge calls, deck checks, judges' tables."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, STAFF, Pagination, error_responses, id_field, paginated
from core.doorway import enter
from floor import doors as floor_doors
from floor import selectors, services
from floor.models import DeckCheck, JudgeCall
from live.services import MAX_EXTRA_MINUTES
from tournaments import doors, policy
from tournaments import selectors as tournament_selectors
from tournaments.apis._common import MAX_ROUND
from tournaments.models import Event
from tournaments.policy import Action

#: What refusing extra time for a table answers (:func:`live.services.table_time_extend`).
EXTENSION_ERRORS = ("round_finished", "result_exists")
MAX_TABLE = 100_000


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


@extend_schema_serializer(component_name="FloorPlayer")
class SeatedOutput(serializers.Serializer):
    id = serializers.IntegerField(source="player_id")
    display_name = serializers.CharField(source="player.display_name")


@extend_schema_serializer(component_name="JudgeCall")
class JudgeCallOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round_number")
    table = serializers.IntegerField(source="table_number")
    state = serializers.ChoiceField(
        choices=JudgeCall.State.choices, help_text="open (waiting), claimed (a judge is coming), resolved, cancelled."
    )
    reason = serializers.CharField(help_text="What the caller said, or empty.")
    players = SeatedOutput(source="pod.seats.all", many=True, help_text="The players seated at the table.")
    called_by_player = serializers.IntegerField(
        source="called_by_player_id", allow_null=True, help_text="The player who called; null: staff opened it."
    )
    called_at = serializers.DateTimeField()
    claimed_by = serializers.SerializerMethodField(help_text="The judge who claimed it (username), or null.")
    claimed_at = serializers.DateTimeField(allow_null=True)
    resolved_by = serializers.SerializerMethodField(help_text="Who resolved or cancelled it (username), or null.")
    resolved_at = serializers.DateTimeField(allow_null=True, help_text="When it was resolved or cancelled.")
    note = serializers.SerializerMethodField(help_text="The judge's note: for the event's staff, null for players.")
    extension_minutes = serializers.SerializerMethodField(help_text="Extra time given to the table, or null.")

    def get_claimed_by(self, call) -> str | None:
        return _username(call.claimed_by)

    def get_resolved_by(self, call) -> str | None:
        return _username(call.resolved_by)

    def get_note(self, call) -> str | None:
        return call.note if self.context.get("staff") else None

    def get_extension_minutes(self, call) -> int | None:
        return call.extension.seconds // 60 if call.extension_id and call.extension else None


def _staff(request: Request, event: Event, action: Action = Action.ANSWER_JUDGE_CALLS) -> dict[str, Any]:
    return {"staff": policy.can(request.user, action, event)}


def _call_answer(request: Request, event: Event, call: JudgeCall, code: int = status.HTTP_200_OK) -> Response:
    call = selectors.event_call(event=event, call_id=call.pk)
    return Response(JudgeCallOutput(call, context=_staff(request, event)).data, status=code)


class JudgeCallListOpenApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="JudgeCallOpen")
    class InputSerializer(serializers.Serializer):
        table = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=1, max_value=MAX_TABLE,
            help_text="The table of the current round (staff: required; a player: their own, which is the default).",
        )  # fmt: skip
        reason = serializers.CharField(
            max_length=200, required=False, allow_blank=True, default="", help_text="What it is about (optional)."
        )

    class FilterSerializer(serializers.Serializer):
        state = serializers.ListField(
            child=serializers.ChoiceField(choices=JudgeCall.State.values), required=False,
            help_text="Only calls in these states (`?state=open&state=claimed`: the queue); default: all.",
        )  # fmt: skip

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "state", str, many=True, enum=JudgeCall.State.values, required=False,
                description="Only calls in these states (`?state=open&state=claimed`: the queue); default: all.",
            )
        ],
        responses={200: JudgeCallOutput(many=True), **error_responses("invalid", *SIGNED_IN, "not_found")},
    )  # fmt: skip
    def get(self, request: Request, event_id: int) -> Response:
        """The event's judge calls, the oldest first: all of them for the staff who answer them, your tables' for a
        player."""
        event = enter(request, doors.EVENT, event_id)
        filters = self.FilterSerializer(data={"state": request.query_params.getlist("state")})
        filters.is_valid(raise_exception=True)
        context = _staff(request, event)
        states = filters.validated_data.get("state") or None
        if context["staff"]:
            calls: Any = selectors.event_calls(event=event, states=states)
        else:
            player = tournament_selectors.player_of(request.user)
            calls = selectors.player_calls(event=event, player=player) if player is not None else []
            if states and player is not None:
                calls = calls.filter(state__in=states)
        return paginated(self, request, calls, lambda page: JudgeCallOutput(page, many=True, context=context).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: JudgeCallOutput,
            **error_responses(*BODY, *SIGNED_IN, "not_found", "not_at_table", "no_table", "call_open",
                              "table_not_found", "event_finished"),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Call a judge to a table of the current round: a player to their own table, the event's judges to any.

        One call per table at a time: a second is 409 ``call_open`` (``call`` names the one waiting)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        call = services.judge_call_open(event=event, by=request.user, **serializer.validated_data)
        return _call_answer(request, event, call, status.HTTP_201_CREATED)


class JudgeCallClaimApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: JudgeCallOutput,
            **error_responses(*STAFF, "not_found", "call_not_found", "call_claimed", "call_closed", "event_finished"),
        },
    )
    def post(self, request: Request, event_id: int, call_id: int) -> Response:
        """A judge takes the call: the players see that a judge is coming. Claimed by another judge: 409
        ``call_claimed`` (``claimed_by`` names them)."""
        event = enter(request, doors.EVENT, event_id)
        call = enter(request, floor_doors.CALL, event, call_id)
        call = services.judge_call_claim(call=call, by=request.user)
        return _call_answer(request, event, call)


class JudgeCallResolveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="JudgeCallResolve")
    class InputSerializer(serializers.Serializer):
        note = serializers.CharField(max_length=2000, help_text="How it was resolved (the ruling), for the staff.")
        minutes = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=1, max_value=MAX_EXTRA_MINUTES,
            help_text="Extra time for the table (kept in its extensions), or none.",
        )  # fmt: skip

    @extend_schema(
        request=InputSerializer,
        responses={
            200: JudgeCallOutput,
            **error_responses(*BODY, *STAFF, "not_found", "call_not_found", "call_claimed", "call_closed",
                              "event_finished", *EXTENSION_ERRORS),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, call_id: int) -> Response:
        """Resolve the call with a note, and give the table extra time if it needs it. A call claimed by another
        judge is theirs to resolve (409 ``call_claimed``)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        call = enter(request, floor_doors.CALL, event, call_id)
        call = services.judge_call_resolve(call=call, by=request.user, **serializer.validated_data)
        return _call_answer(request, event, call)


class JudgeCallCancelApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="JudgeCallCancel")
    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")

    @extend_schema(
        request=InputSerializer,
        responses={
            200: JudgeCallOutput,
            **error_responses(*BODY, *STAFF, "not_found", "call_not_found", "call_closed"),
        },
    )
    def post(self, request: Request, event_id: int, call_id: int) -> Response:
        """Cancel a call that waits or is claimed: a player seated at the table, or the staff who answer calls."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        call = enter(request, floor_doors.CALL, event, call_id)
        call = services.judge_call_cancel(call=call, by=request.user, **serializer.validated_data)
        return _call_answer(request, event, call)


# --- deck checks -------------------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="DeckCheckPenalty")
class LinkedPenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    penalty = serializers.CharField()
    player = serializers.IntegerField(source="registration.player_id")
    infraction = serializers.CharField()


@extend_schema_serializer(component_name="DeckCheck")
class DeckCheckOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round_number")
    table = serializers.IntegerField(source="table_number")
    players = SeatedOutput(source="pod.seats.all", many=True)
    status = serializers.ChoiceField(choices=["picked", "started", "recorded"])
    picked_at = serializers.DateTimeField()
    seed = serializers.SerializerMethodField(help_text="The seed of the random draw that picked it; null: by hand.")
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    outcome = serializers.ChoiceField(
        choices=DeckCheck.Outcome.choices, allow_blank=True, help_text="Empty until recorded."
    )
    note = serializers.CharField()
    judge = serializers.SerializerMethodField(help_text="Who checked (username), or null.")
    extension_minutes = serializers.SerializerMethodField(help_text="Extra time given to the table, or null.")
    penalties = LinkedPenaltyOutput(many=True, source="penalties.all")

    def get_seed(self, check) -> int | None:
        return check.draw.seed if check.draw_id and check.draw else None

    def get_judge(self, check) -> str | None:
        return _username(check.judge)

    def get_extension_minutes(self, check) -> int | None:
        return check.extension.seconds // 60 if check.extension_id and check.extension else None


def _check_answer(event: Event, check: DeckCheck) -> Response:
    return Response(DeckCheckOutput(selectors.event_deck_check(event=event, check_id=check.pk)).data)


class DeckCheckListPickApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="DeckCheckPick")
    class InputSerializer(serializers.Serializer):
        round = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=1, max_value=MAX_ROUND,
            help_text="The round; default: the current one.",
        )  # fmt: skip
        tables = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_TABLE), required=False, allow_null=True,
            default=None, max_length=services.MAX_PICK, help_text="Tables picked by hand (or give `count`).",
        )  # fmt: skip
        count = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=1, max_value=services.MAX_PICK,
            help_text="How many tables to draw at random (or give `tables`).",
        )  # fmt: skip
        seed = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=0, max_value=services.MAX_SEED,
            help_text="The draw's seed (kept; the same seed draws the same tables); default: a random one. Tables "
            "whose players were checked in an earlier round are drawn only after every other table.",
        )  # fmt: skip

        def validate(self, attrs: dict) -> dict:
            if (attrs.get("tables") is None) == (attrs.get("count") is None):
                raise serializers.ValidationError(
                    {"tables": [_("Give either the tables or how many to draw (count).")]}
                )
            return attrs

    @extend_schema_serializer(component_name="DeckChecksPicked")
    class OutputSerializer(serializers.Serializer):
        seed = serializers.IntegerField(allow_null=True, help_text="The random draw's seed; null: picked by hand.")
        checks = DeckCheckOutput(many=True)

    @extend_schema(responses={200: DeckCheckOutput(many=True), **error_responses(*STAFF, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The event's deck-check log, by round and table, for its staff (the dashboard's page exports it as CSV)."""
        event = enter(request, doors.event(), event_id)
        checks = selectors.event_deck_checks(event=event)
        return paginated(self, request, checks, lambda page: DeckCheckOutput(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            **error_responses(*BODY, *STAFF, "not_found", "round_not_found", "table_not_found", "table_checked",
                              "too_few_tables", "event_finished"),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Pick tables of a round for deck checks: by hand (`tables`) or at random (`count`, `seed`)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        event = enter(request, doors.EVENT, event_id)
        checks, draw = services.deck_checks_pick(
            event=event, by=request.user, round_number=data["round"], tables=data["tables"], count=data["count"],
            seed=data["seed"],
        )  # fmt: skip
        fresh = list(selectors.event_deck_checks(event=event).filter(pk__in=[c.pk for c in checks]))
        fresh.sort(key=lambda c: [x.pk for x in checks].index(c.pk))
        body = {"seed": draw.seed if draw is not None else None, "checks": DeckCheckOutput(fresh, many=True).data}
        return Response(body, status=status.HTTP_201_CREATED)


class DeckCheckStartApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: DeckCheckOutput,
            **error_responses(*STAFF, "not_found", "deck_check_not_found", "deck_check_started", "event_finished"),
        },
    )
    def post(self, request: Request, event_id: int, check_id: int) -> Response:
        """Start the deck check (its start time is kept)."""
        event = enter(request, doors.EVENT, event_id)
        check = enter(request, floor_doors.DECK_CHECK, event, check_id)
        return _check_answer(event, services.deck_check_start(check=check, by=request.user))


class DeckCheckFinishApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="DeckCheckFinish")
    class InputSerializer(serializers.Serializer):
        outcome = serializers.ChoiceField(choices=DeckCheck.Outcome.choices)
        note = serializers.CharField(
            max_length=2000,
            required=False,
            allow_blank=True,
            default="",
            help_text="Required when a problem was found.",
        )
        minutes = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=1, max_value=MAX_EXTRA_MINUTES,
            help_text="Extra time for the table for the check (kept in its extensions), or none.",
        )  # fmt: skip

    @extend_schema(
        request=InputSerializer,
        responses={
            200: DeckCheckOutput,
            **error_responses(*BODY, *STAFF, "not_found", "deck_check_not_found", "deck_check_recorded",
                              "event_finished", *EXTENSION_ERRORS),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, check_id: int) -> Response:
        """Record the check's end and outcome (and the table's extra time); a check not started starts now too."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        check = enter(request, floor_doors.DECK_CHECK, event, check_id)
        return _check_answer(
            event, services.deck_check_finish(check=check, by=request.user, **serializer.validated_data)
        )


class DeckCheckPenaltyApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="DeckCheckPenaltyLink")
    class InputSerializer(serializers.Serializer):
        penalty = id_field(help_text="A penalty given to a player at the table (give it first: `penalties/`).")

    @extend_schema(
        request=InputSerializer,
        responses={200: DeckCheckOutput, **error_responses(*BODY, *STAFF, "not_found", "deck_check_not_found")},
    )
    def post(self, request: Request, event_id: int, check_id: int) -> Response:
        """Link a penalty given for what the check found."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        check = enter(request, floor_doors.DECK_CHECK, event, check_id)
        check = services.deck_check_penalty_link(
            check=check, by=request.user, penalty_id=serializer.validated_data["penalty"]
        )
        return _check_answer(event, check)


# --- judges' tables ----------------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="JudgeAssignment")
class AssignmentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    judge = serializers.CharField(source="judge.username")
    first_table = serializers.IntegerField()
    last_table = serializers.IntegerField()
    round = serializers.IntegerField(source="round_number", allow_null=True, help_text="null: every round.")
    assigned_at = serializers.DateTimeField()


class JudgeAssignmentListCreateApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="JudgeAssign")
    class InputSerializer(serializers.Serializer):
        judge = serializers.CharField(max_length=150, help_text="The judge's username (on the event's staff).")
        first_table = serializers.IntegerField(min_value=1, max_value=MAX_TABLE)
        last_table = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=1, max_value=MAX_TABLE,
            help_text="The last table of the range; default: the first (one table).",
        )  # fmt: skip
        round = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=1, max_value=MAX_ROUND,
            help_text="One round; default: every round of the event.",
        )  # fmt: skip

        def validate(self, attrs: dict) -> dict:
            last = attrs.get("last_table")
            if last is not None and last < attrs["first_table"]:
                raise serializers.ValidationError({"last_table": [_("The last table comes after the first.")]})
            return attrs

    @extend_schema(responses={200: AssignmentOutput(many=True), **error_responses(*STAFF, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """Which judge watches which tables."""
        event = enter(request, doors.event(), event_id)
        rows = selectors.event_assignments(event=event)
        return paginated(self, request, rows, lambda page: AssignmentOutput(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: AssignmentOutput,
            **error_responses(*BODY, *STAFF, "not_found", "not_a_judge", "event_finished"),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Assign a judge to a table or a run of tables, for the event or one round."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        event = enter(request, doors.EVENT, event_id)
        assignment = services.judge_assign(
            event=event, by=request.user, judge=data["judge"], first_table=data["first_table"],
            last_table=data["last_table"], round_number=data["round"],
        )  # fmt: skip
        return Response(AssignmentOutput(assignment).data, status=status.HTTP_201_CREATED)


class JudgeAssignmentUnassignApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: None, **error_responses(*STAFF, "not_found", "assignment_not_found")},
    )
    def post(self, request: Request, event_id: int, assignment_id: int) -> Response:
        """Take the judge off these tables."""
        event = enter(request, doors.EVENT, event_id)
        assignment = enter(request, floor_doors.ASSIGNMENT, event, assignment_id)
        services.judge_unassign(assignment=assignment, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
