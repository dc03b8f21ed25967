"""Events: listing and creating them, their settings, the structure recommended, the top cut, finishing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import (
    BODY,
    MAX_SMALLINT,
    SIGNED_IN,
    STAFF,
    FormatField,
    Pagination,
    error_responses,
    id_field,
    paginated,
)
from core.doorway import enter
from core.exceptions import Conflict
from core.language import LANGUAGE_CODES
from tournaments import doors, filters, selectors, services
from tournaments.apis._common import MAX_TABLE
from tournaments.apis.outputs import EventOutput, RoundOutput, serializer_context
from tournaments.models import Event
from tournaments.selectors import cutline as cutline_selectors


@extend_schema_serializer(component_name="FinalPlacement")
class FinalPlacementOutput(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 = champion; players out in the same round share a place.")
    # DRF takes fields out of the class; the stubs see Field's attribute overridden (djangorestframework-stubs#158).
    label = serializers.CharField(  # type: ignore[assignment]
        help_text="Champion, Finalist, Semi-finalist, Quarter-finalist, Top 16 ... (pods: Champion, 2nd, 3rd ... for "
        "the final pod; the semi-final pods' other players: Semi-finalist, 2nd at their pod ...)"
    )
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)


@extend_schema_serializer(component_name="EventDetail")
class EventDetailOutput(EventOutput):
    final_placements = serializers.SerializerMethodField(
        help_text="Once the top cut's final has its result: every player of the cut by the round they went out in "
        "(the bracket: GET /api/v1/events/{id}/bracket/). Empty before."
    )

    priority_players = serializers.SerializerMethodField(
        help_text="Priority by an earned invite: the ids of the players named."
    )

    def get_priority_players(self, event) -> list[int]:
        return selectors.event_priority_players(event=event)

    @extend_schema_field(FinalPlacementOutput(many=True))
    def get_final_placements(self, event) -> list[dict[str, Any]]:
        # many=True makes a ListSerializer, whose data is a list; the stubs type the answer as the Serializer's.
        return FinalPlacementOutput(self.context.get("final_placements", []), many=True).data  # type: ignore[return-value]


class EventListCreateApi(APIView):
    pagination_class = Pagination

    class FilterSerializer(serializers.Serializer):
        """The list's filters (documented here, read by :mod:`tournaments.filters`); a parameter that is none of them
        (nor ``limit``, ``offset``) is a 400 naming it, and an empty one filters nothing (as a form's empty field)."""

        format = FormatField(required=False, help_text="Only events of this format (its slug).")
        status = serializers.CharField(
            required=False, max_length=100,
            help_text="Only events in these states: registration, running, finished (comma-separated, e.g. "
            "registration,running).",
        )  # fmt: skip
        date_from = serializers.DateField(required=False, help_text="Only events held on this day (ISO) or later.")
        date_to = serializers.DateField(required=False, help_text="Only events held on this day (ISO) or earlier.")
        q = serializers.CharField(
            required=False, max_length=200, help_text="Only events whose name contains this (any case)."
        )

        def to_internal_value(self, data: Any) -> Any:
            # The page /events/ reads the same parameters: one reading for both (tournaments.filters).
            given, errors = filters.read_event_filters(data, also=("limit", "offset"))
            if errors:
                raise serializers.ValidationError(errors)
            return {"filters": given}

    @extend_schema_serializer(component_name="EventCreate")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        format = FormatField()
        planned_rounds = serializers.IntegerField(min_value=1, max_value=30)
        date = serializers.DateField()
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
        time_zone = serializers.CharField(
            max_length=64, required=False,
            help_text="Where the event is held, an IANA name (Europe/Paris, America/New_York); default: the site's.",
        )  # fmt: skip
        paper = serializers.ChoiceField(
            choices=Event.Paper.values, required=False, help_text="The printouts' paper; default: the site's."
        )
        language = serializers.ChoiceField(
            choices=LANGUAGE_CODES, required=False, allow_blank=True, default="",
            help_text="The default language of its public pages and venue display; blank: the visitor's browser's.",
        )  # fmt: skip
        tiebreakers = serializers.ChoiceField(choices=Event.Tiebreakers.values, default=Event.Tiebreakers.CLASSIC)
        players_per_table = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=2, max_value=MAX_SMALLINT,
            help_text="2 for 1v1 Swiss in a pod format.",
        )  # fmt: skip
        pod_leftovers = serializers.ChoiceField(choices=Event.Leftovers.values, default=Event.Leftovers.TABLES)
        options = serializers.DictField(
            required=False, default=dict,
            help_text="The format's options: {name: value} (see /api/v1/formats/); left out, the rulebook's default.",
        )  # fmt: skip

    @extend_schema(parameters=[FilterSerializer], responses={200: EventOutput(many=True), **error_responses("invalid")})
    def get(self, request: Request) -> Response:
        """Events, newest first; ``?format=deck-masters`` keeps one format's, ``?status=registration,running`` those
        in these states, ``?date_from=2026-12-01&date_to=2026-12-31`` those held in December (both days included),
        ``?q=cup`` those with "cup" in their name."""
        wanted = self.FilterSerializer(data=request.query_params)
        wanted.is_valid(raise_exception=True)
        events = selectors.events_matching(**wanted.validated_data["filters"].as_selector_arguments())
        return paginated(self, request, events, lambda page: EventOutput(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={201: EventOutput, **error_responses(*BODY, "invalid_option", *SIGNED_IN, "permission_denied")},
    )
    def post(self, request: Request) -> Response:
        """Create an event (organisers: see ``PODIUM_OPEN_ORGANISING``); the signed-in user becomes its organiser."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = services.event_create(organiser=request.user, **serializer.validated_data)
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


class EventDetailApi(APIView):
    @extend_schema_serializer(component_name="EventUpdate")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200, required=False)
        planned_rounds = serializers.IntegerField(min_value=1, max_value=30, required=False)
        date = serializers.DateField(required=False)
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
        time_zone = serializers.CharField(
            max_length=64, required=False,
            help_text="Where the event is held, an IANA name (Europe/Paris, America/New_York).",
        )  # fmt: skip
        paper = serializers.ChoiceField(choices=Event.Paper.values, required=False, help_text="The printouts' paper.")
        language = serializers.ChoiceField(
            choices=LANGUAGE_CODES, required=False, allow_blank=True,
            help_text="The default language of its public pages and venue display; blank: the visitor's browser's.",
        )  # fmt: skip
        tiebreakers = serializers.ChoiceField(choices=Event.Tiebreakers.values, required=False)
        players_per_table = serializers.IntegerField(
            required=False, allow_null=True, min_value=2, max_value=MAX_SMALLINT
        )
        pod_leftovers = serializers.ChoiceField(choices=Event.Leftovers.values, required=False)
        registration_open = serializers.BooleanField(required=False)
        registration_deadline = serializers.DateTimeField(
            required=False,
            allow_null=True,
            help_text="Self-registration closes at this time (without an offset: in the event's time zone); null: "
            "no deadline.",
        )
        capacity = serializers.IntegerField(
            required=False, allow_null=True, min_value=1, max_value=MAX_TABLE,
            help_text="null: no limit. A larger capacity promotes players from the waiting list, in order.",
        )  # fmt: skip
        planned_cut_size = serializers.IntegerField(
            required=False, allow_null=True, min_value=0, max_value=MAX_SMALLINT,
            help_text="The top cut planned, until it starts: 0 none; 1v1 2, 4, 8, 16 or 32; pods one pod or a pod "
            "of pods. null: the recommendation for the attendance. The cut line follows it.",
        )  # fmt: skip
        lottery = serializers.BooleanField(
            required=False, help_text="Places by lottery (needs a capacity): players apply until it is drawn."
        )
        lottery_draw_at = serializers.DateTimeField(
            required=False, allow_null=True,
            help_text="The lottery draws itself at this time (without an offset: in the event's time zone); null: "
            "the organiser draws it (POST lottery/draw/).",
        )  # fmt: skip
        registration_opens_at = serializers.DateTimeField(
            required=False, allow_null=True, help_text="Self-registration opens to everyone at this time."
        )
        priority_opens_at = serializers.DateTimeField(
            required=False, allow_null=True,
            help_text="Priority players register from this time on (before `registration_opens_at`).",
        )  # fmt: skip
        priority_season = serializers.IntegerField(
            source="priority_season_id", required=False, allow_null=True, min_value=1, max_value=MAX_TABLE,
            help_text="Priority by league points: a season's id (with `priority_min_points`).",
        )  # fmt: skip
        priority_min_points = serializers.IntegerField(
            required=False, allow_null=True, min_value=0, max_value=MAX_TABLE,
            help_text="Priority by league points: at least this many in the season's standings.",
        )  # fmt: skip
        priority_players = serializers.ListField(
            child=id_field(), required=False, max_length=5000,
            help_text="Priority by an earned invite: the players' ids (the whole list).",
        )  # fmt: skip
        entry_fee = serializers.DecimalField(
            max_digits=8, decimal_places=2, required=False, allow_null=True, min_value=Decimal(0),
            help_text="The entry fee (with `fee_currency`); null: free.",
        )  # fmt: skip
        fee_currency = serializers.CharField(
            max_length=3, required=False, allow_blank=True, help_text="ISO 4217: EUR, USD, GBP."
        )
        checkout_url = serializers.CharField(
            max_length=500, required=False, allow_blank=True,
            help_text="The organiser's own checkout page (https://...): Podium takes no payment.",
        )  # fmt: skip
        unpaid_check_in = serializers.BooleanField(
            required=False, help_text="Players who have not paid may check in (false: `entry_fee_unpaid`)."
        )
        check_in_open = serializers.BooleanField(required=False)
        player_reports = serializers.BooleanField(required=False)
        casters_see_decklists = serializers.BooleanField(required=False)
        stage_pairings = serializers.BooleanField(
            required=False, help_text="Staff publish each paired round before players see it."
        )
        magic_floor = serializers.ChoiceField(choices=Event.Floor.values, required=False)
        options = serializers.DictField(
            required=False,
            help_text="Change some of the format's options ({name: value}; null: back to the rulebook's default), "
            "until round 1 is paired.",
        )

    @extend_schema(responses={200: EventDetailOutput, **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        event = enter(request, doors.EVENT, event_id)
        bracket = selectors.top_cut_bracket(event=event)
        placements = bracket.placements if bracket else []
        return Response(EventDetailOutput(event, context={"final_placements": placements}).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: EventOutput,
            **error_responses(
                *BODY,
                "invalid_option",
                *STAFF,
                "not_found",
                "event_finished",
                "event_started",
                "rounds_already_paired",
                "top_cut_started",
                "lottery_drawn",
            ),
        },
    )
    def patch(self, request: Request, event_id: int) -> Response:
        """Change settings; pairing settings only before round 1, planned rounds never below those paired.

        Also the players' windows: self-registration (``registration_open``, its deadline and the
        ``capacity``), self check-in (``check_in_open``) and player reports (``player_reports``); scarce places
        (a ``lottery``, priority windows) and the entry fee.
        """
        event = enter(request, doors.EVENT, event_id)
        serializer = self.InputSerializer(data=request.data)
        with timezone.override(event.time_zone):  # a deadline without an offset is the event's wall-clock time
            serializer.is_valid(raise_exception=True)
        event = services.event_update(event=event, by=request.user, **serializer.validated_data)
        return Response(EventOutput(event).data)


class EventStructureApi(APIView):
    @extend_schema_serializer(component_name="EventStructure")
    class OutputSerializer(serializers.Serializer):
        players = serializers.IntegerField(
            help_text="Players entered: everyone who has played a Swiss round (dropped or not) and everyone "
            "checked in who has not dropped. The recommendation and the cut follow this one count."
        )
        swiss_rounds = serializers.IntegerField(help_text="Recommended Swiss rounds.")
        top_cut = serializers.IntegerField(help_text="Recommended top cut, 0 = none.")
        cut_sizes = serializers.ListField(
            child=serializers.IntegerField(), help_text="Cut sizes possible now, from the players who have not dropped."
        )
        table = serializers.CharField(help_text="The attendance table followed: pokemon or magic.")
        # DRF takes fields out of the class; the stubs see Field's attribute overridden (djangorestframework-stubs#158).
        source = serializers.CharField()  # type: ignore[assignment]

    @extend_schema(responses={200: OutputSerializer, **error_responses("not_found", "too_few_players")})
    def get(self, request: Request, event_id: int) -> Response:
        """Recommended number of Swiss rounds and top cut for the attendance."""
        event = enter(request, doors.EVENT, event_id)
        structure = selectors.event_structure(event=event)
        if structure is None:
            raise Conflict(
                _("Too few players entered for a recommendation: it needs at least %(minimum)s.")
                % {"minimum": selectors.structure_minimum(event)},
                code="too_few_players",
            )
        return Response(self.OutputSerializer(structure).data)


@extend_schema_serializer(component_name="CutLinePlayer")
class CutLinePlayerOutput(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField()
    points = serializers.IntegerField(source="need.points")
    rounds_left = serializers.IntegerField(source="need.rounds_left", help_text="Swiss rounds still to play.")
    status = serializers.ChoiceField(
        source="need.status",
        choices=["in", "control", "alive", "out"],
        help_text="in: in the cut whatever happens; control: a result of theirs guarantees it "
        "(guaranteed_with); alive: possible but it depends on other tables too; out: out of reach.",
    )
    guaranteed_with = serializers.IntegerField(
        source="need.guaranteed_with",
        allow_null=True,
        help_text="Fewest further points that guarantee a place whatever the other results and the "
        "tiebreakers, under any pairings (conservative); null: none does.",
    )
    guaranteed_record = serializers.SerializerMethodField(
        help_text="A record (wins-losses-draws) worth guaranteed_with, the one affording the most losses: "
        "that record or better."
    )
    possible_with = serializers.IntegerField(
        source="need.possible_with",
        allow_null=True,
        help_text="Fewest further points with which a place is still possible in the best case; null: out of reach.",
    )
    likely_with = serializers.IntegerField(
        source="need.likely_with", allow_null=True, help_text="Fewest further points that reach the projected line."
    )
    best_case = serializers.IntegerField(source="need.best_case", help_text="Points if they win every round left.")
    message = serializers.SerializerMethodField(help_text="What they need, in a sentence.")

    def get_guaranteed_record(self, row) -> str | None:
        record = row.need.guaranteed_record
        return None if record is None else str(record)

    def get_message(self, row) -> str:
        return cutline_selectors.need_words(row.need)


class EventCutLineApi(APIView):
    @extend_schema_serializer(component_name="CutLine")
    class OutputSerializer(serializers.Serializer):
        state = serializers.ChoiceField(
            choices=["swiss", "no_cut", "cut_started", "finished"],
            help_text="swiss: the lines apply; otherwise message says why there are none.",
        )
        message = serializers.CharField()
        cut_size = serializers.IntegerField(help_text="The cut the lines are for; 0: none.")
        cut_source = serializers.ChoiceField(
            choices=["planned", "recommended", "started"],
            help_text="planned: the organiser's planned_cut_size; recommended: the attendance table's; started.",
        )
        rounds_left = serializers.IntegerField(source="line.rounds_left", allow_null=True, default=None)
        safe_line = serializers.IntegerField(
            source="line.safe_line",
            allow_null=True,
            default=None,
            help_text="Final points that are in whoever finishes on them; null: none yet.",
        )
        projected_line = serializers.IntegerField(
            source="line.projected_line",
            allow_null=True,
            default=None,
            help_text="A projection: the median points of the last place in the cut over simulated Swiss rounds.",
        )
        projected_low = serializers.IntegerField(source="line.projected_low", allow_null=True, default=None)
        projected_high = serializers.IntegerField(source="line.projected_high", allow_null=True, default=None)
        simulations = serializers.IntegerField(source="line.simulations", allow_null=True, default=None)
        seed = serializers.IntegerField(
            source="line.seed", allow_null=True, default=None, help_text="The projection's seed (the results version)."
        )
        caveat = serializers.SerializerMethodField()
        players = CutLinePlayerOutput(source="rows", many=True, help_text="Active players in standings order.")

        def get_caveat(self, cut) -> str:
            return str(cutline_selectors.CAVEAT)

    @extend_schema(responses={200: OutputSerializer, **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """What each active player needs for the top cut: the record that guarantees it, whether it is still
        possible, and the event's safe and projected lines (only while the Swiss runs towards a cut)."""
        event = enter(request, doors.EVENT, event_id)
        return Response(self.OutputSerializer(cutline_selectors.event_cut_line(event=event)).data)


class TopCutStartApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="TopCutStart")
    class InputSerializer(serializers.Serializer):
        size = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            min_value=2,
            max_value=MAX_SMALLINT,
            help_text="Players in the cut; default: recommended.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            201: RoundOutput,
            **error_responses(
                *BODY, *STAFF, "not_found", "event_finished", "round_incomplete", "top_cut_started",
                "no_swiss_rounds", "swiss_incomplete", "no_top_cut",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Start the top cut: a seeded single-elimination bracket (1v1) or semi-final and final pods."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        round_ = services.top_cut_start(event=event, by=request.user, **serializer.validated_data)
        return Response(
            RoundOutput(round_, context=serializer_context(request, event)).data, status=status.HTTP_201_CREATED
        )


class EventFinishApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: EventOutput, **error_responses(*STAFF, "not_found", "event_finished", "round_incomplete")},
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Finish the event once every table has a result."""
        event = services.event_finish(event=enter(request, doors.EVENT, event_id), by=request.user)
        return Response(EventOutput(event).data)
