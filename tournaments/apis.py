"""REST API of the tournaments app (``/api/v1/``).

One view per operation; input and output serializers sit with the view.
Views translate HTTP to a service call or a selector and back; the rules live
in :mod:`tournaments.services`, who may do what in :mod:`tournaments.policy`.
Errors use the shape of :mod:`core.api`.

Privacy: a player's id from outside Podium (``external_id``: a Pokémon Player
ID, a Konami ID) is shown to the player themselves and to the event's staff who
manage its registrations (site staff everywhere); anyone else reads ``null``.
Serializers learn who is asking from their context (:func:`_context`).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import (
    BODY,
    MAX_INT,
    MAX_SMALLINT,
    SIGNED_IN,
    STAFF,
    FormatField,
    Pagination,
    error_responses,
    id_field,
    page_parameters,
    paginated,
)
from core.exceptions import Conflict
from rules import FORMATS
from tournaments import policy, selectors, services
from tournaments.models import Event, EventStaff, Penalty, Pod, PodResult, Registration, ResultReport, Round
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.selectors.people import AUDIT_KINDS, event_audit_of_kind, pod_open_report
from tournaments.services import registrations as registration_services
from tournaments.services import results as result_services
from tournaments.services import staff as staff_services


def serializer_context(request: Request, event: Event | None = None, **extra) -> dict:
    """Serializer context: who is reading, and whether they see every player's private fields.

    At an event, staff who manage its registrations see them; elsewhere only
    site staff do.  A player always sees their own.
    """
    user = request.user
    private = (
        policy.manages_every_event(user) if event is None else policy.can(user, Action.MANAGE_REGISTRATIONS, event)
    )
    return {"viewer": user, "private": private, **extra}


# --- shared output shapes ---------------------------------------------------------------------


@extend_schema_serializer(component_name="Player")
class PlayerOutput(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    external_id = serializers.SerializerMethodField(
        help_text="An id from outside Podium (Pokémon Player ID, Konami ID): shown to the player and to the staff "
        "who manage the event's registrations, null for everyone else."
    )

    def get_external_id(self, player) -> str | None:
        if self.context.get("private") or policy.is_player(self.context.get("viewer"), player):
            return player.external_id
        return None


@extend_schema_serializer(component_name="HouseRule")
class HouseRuleOutput(serializers.Serializer):
    option = serializers.CharField()
    label = serializers.CharField()
    value = serializers.JSONField()
    description = serializers.CharField()
    rule = serializers.CharField(help_text="The rulebook section the house rule departs from.")


@extend_schema_serializer(component_name="Event")
class EventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = FormatField()
    status = serializers.ChoiceField(choices=Event.Status.choices)
    planned_rounds = serializers.IntegerField()
    date = serializers.DateField()
    venue = serializers.CharField()
    organiser = serializers.CharField(source="organiser.username")
    tiebreakers = serializers.ChoiceField(choices=Event.Tiebreakers.values)
    players_per_table = serializers.IntegerField(allow_null=True)
    pod_leftovers = serializers.ChoiceField(choices=Event.Leftovers.values)
    top_cut_size = serializers.IntegerField()
    standings_current = serializers.BooleanField()
    registration_open = serializers.BooleanField(help_text="Players register themselves (until the deadline).")
    registration_deadline = serializers.DateTimeField(allow_null=True)
    capacity = serializers.IntegerField(
        allow_null=True, help_text="At most this many registered players; more join the waiting list. null: no limit."
    )
    check_in_open = serializers.BooleanField(help_text="Players check themselves in.")
    player_reports = serializers.BooleanField(
        help_text="Players report their table's result and the other players confirm it; staff results are final."
    )
    casters_see_decklists = serializers.BooleanField(help_text="Casters see decklists before they are published.")
    magic_floor = serializers.ChoiceField(
        choices=Event.Floor.values, help_text="The Magic tiebreakers' floor: 0.33, or exactly 1/3."
    )
    options = serializers.SerializerMethodField(
        help_text="Every option of the format with the value this event plays by (the rulebook's default unless "
        "the organiser chose a variant or a house rule); the format's options are listed at /api/v1/formats/."
    )
    house_rules = serializers.SerializerMethodField(
        help_text="The options this event sets to a house rule: where it departs from the rulebook's text."
    )

    def get_options(self, event) -> dict[str, Any]:
        return event.format_spec.effective_options(event.options)

    @extend_schema_field(HouseRuleOutput(many=True))
    def get_house_rules(self, event) -> list[dict[str, Any]]:
        return [
            {"option": o.name, "label": o.label, "value": value, "description": o.describe(value), "rule": o.rule}
            for o, value in event.house_rules
        ]


@extend_schema_serializer(component_name="FinalPlacement")
class FinalPlacementOutput(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 = champion; players out in the same round share a place.")
    label = serializers.CharField(
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

    @extend_schema_field(FinalPlacementOutput(many=True))
    def get_final_placements(self, event) -> list[dict[str, Any]]:
        return FinalPlacementOutput(self.context.get("final_placements", []), many=True).data


@extend_schema_serializer(component_name="Seat")
class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField(source="seat_order")
    player = PlayerOutput()
    placement = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    games_won = serializers.IntegerField(allow_null=True, help_text="1v1 game score: games won (null: not given).")
    games_lost = serializers.IntegerField(allow_null=True)
    games_drawn = serializers.IntegerField(allow_null=True)
    points_before = serializers.IntegerField(allow_null=True, help_text="Match points when the round was paired.")
    rank_before = serializers.IntegerField(allow_null=True, help_text="Standing when the round was paired.")
    cut_seed = serializers.IntegerField(allow_null=True, help_text="Top-cut seed; null in Swiss rounds.")
    reasons = serializers.ListField(child=serializers.CharField(), help_text="The pairing's reason codes.")
    why = serializers.SerializerMethodField(help_text="The reasons in sentences.")

    def get_why(self, seat) -> list[str]:
        return self.context.get("why", {}).get(seat.player_id, [])


#: The most games of one kind a 1v1 game score may give (the services check the match's own limits).
MAX_GAMES = 99


@extend_schema_serializer(component_name="Placement")
class PlacementInput(serializers.Serializer):
    player = id_field()
    placement = serializers.IntegerField(min_value=1, max_value=8)


@extend_schema_serializer(component_name="GameScore")
class GameScoreSerializer(serializers.Serializer):
    """One player's games in a 1v1 match: 2-1 is won 2, lost 1 (and 1-2 for the opponent)."""

    player = id_field()
    won = serializers.IntegerField(min_value=0, max_value=MAX_GAMES)
    lost = serializers.IntegerField(min_value=0, max_value=MAX_GAMES)
    drawn = serializers.IntegerField(min_value=0, max_value=MAX_GAMES)


def _placement_list(placements: dict | None) -> list[dict]:
    """``{"<player id>": placement}`` as stored, as the API's list (winners first)."""
    items = sorted((placements or {}).items(), key=lambda item: (item[1], int(item[0])))
    return [{"player": int(player), "placement": placement} for player, placement in items]


def _game_list(games: dict | None) -> list[dict] | None:
    """``{"<player id>": [won, lost, drawn]}`` as stored, as the API's list."""
    if games is None:
        return None
    items = sorted(games.items(), key=lambda item: int(item[0]))
    return [{"player": int(p), "won": s[0], "lost": s[1], "drawn": s[2]} for p, s in items]


@extend_schema_serializer(component_name="TableReportResponse")
class ReportResponseOutput(serializers.Serializer):
    player = PlayerOutput()
    agrees = serializers.BooleanField()
    placements = PlacementInput(many=True, allow_null=True, help_text="What they say happened instead, or null.")
    games = GameScoreSerializer(many=True, allow_null=True)
    answered_at = serializers.DateTimeField()


#: The states of a report still open (the others, confirmed and settled, are in the table's result).
OPEN_REPORT_STATUSES = [ResultReport.Status.PENDING.value, ResultReport.Status.DISPUTED.value]


@extend_schema_serializer(component_name="TableReport")
class ReportOutput(serializers.Serializer):
    """A player's report of the table's result, waiting for the other players (pending) or disputed."""

    status = serializers.ChoiceField(
        choices=OPEN_REPORT_STATUSES,
        help_text="pending: waiting for the other players to confirm; disputed: staff settle the table.",
    )
    reported_by = PlayerOutput()
    reported_at = serializers.DateTimeField()
    placements = PlacementInput(many=True)
    games = GameScoreSerializer(many=True, allow_null=True)
    intentional_draw = serializers.BooleanField()
    responses = ReportResponseOutput(many=True, help_text="The other players' answers so far.")


def report_data(report: ResultReport) -> dict:
    return {
        "status": report.status,
        "reported_by": report.player,
        "reported_at": report.created_at,
        "placements": _placement_list(report.placements),
        "games": _game_list(report.games),
        "intentional_draw": report.intentional_draw,
        "responses": [
            {
                "player": response.player,
                "agrees": response.agrees,
                "placements": _placement_list(response.placements) if response.placements else None,
                "games": _game_list(response.games),
                "answered_at": response.created_at,
            }
            for response in people_selectors.report_responses(report=report)
        ],
    }


@extend_schema_serializer(component_name="Table")
class TableOutput(serializers.Serializer):
    table = serializers.IntegerField(source="table_number", allow_null=True)
    bye = serializers.BooleanField(source="is_bye")
    reported = serializers.SerializerMethodField(help_text="The table has its result (final).")
    intentional_draw = serializers.SerializerMethodField(help_text="The result is an intentional draw.")
    corrected = serializers.SerializerMethodField(help_text="The result was corrected after it was recorded.")
    seats = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField(
        help_text="The players' report waiting for confirmation or disputed; null when there is none."
    )

    def get_reported(self, pod) -> bool:
        return hasattr(pod, "result")

    def get_intentional_draw(self, pod) -> bool:
        result = getattr(pod, "result", None)
        return bool(result and result.intentional_draw)

    def get_corrected(self, pod) -> bool:
        result = getattr(pod, "result", None)
        return bool(result and result.corrected_at)

    @extend_schema_field(SeatOutput(many=True))
    def get_seats(self, pod) -> list[dict]:
        return SeatOutput(selectors.pod_seats(pod=pod), many=True, context=self.context).data

    @extend_schema_field(ReportOutput(allow_null=True))
    def get_report(self, pod) -> dict | None:
        reports = self.context.get("reports")  # the round's open reports, loaded once for all its tables
        report = _open_report(pod) if reports is None else reports.get(pod.pk)
        return None if report is None else ReportOutput(report_data(report), context=self.context).data


def _open_report(pod: Pod) -> ResultReport | None:
    """The table's open report; a table with its result has none (a result settles or confirms it)."""
    return None if hasattr(pod, "result") else pod_open_report(pod_id=pod.pk)


@extend_schema_serializer(component_name="Round")
class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=Round.Stage.choices)
    label = serializers.SerializerMethodField()
    seed = serializers.CharField()  # a 62-bit integer: a string so JavaScript clients keep every digit
    objective = serializers.CharField(allow_null=True, help_text="The pairing engine's objective value.")
    rematches = serializers.IntegerField()
    edited = serializers.BooleanField(help_text="Changed by hand (a swap) after pairing.")
    completed = serializers.SerializerMethodField()
    tables = serializers.SerializerMethodField()

    def get_completed(self, round_) -> bool:
        return round_.completed_at is not None

    def get_label(self, round_) -> str:
        return selectors.round_label(round_=round_)

    @extend_schema_field(TableOutput(many=True))
    def get_tables(self, round_) -> list[dict]:
        # The views load every round's tables at once (selectors.rounds_load_tables); a round they did not is
        # loaded here on its own.
        if not hasattr(round_, selectors.TABLES_ATTR):
            selectors.rounds_load_tables(rounds=[round_])
        pods = getattr(round_, selectors.TABLES_ATTR)
        context = {
            **self.context,
            "why": selectors.seat_explanations(round_=round_, pods=pods),
            "reports": getattr(round_, selectors.REPORTS_ATTR),
        }
        return TableOutput(pods, many=True, context=context).data


#: Table numbers are stored as ``integer``: a fixed table beyond this would fail in the database.
MAX_TABLE = MAX_INT
#: Round numbers are stored as ``smallint``.
MAX_ROUND = MAX_SMALLINT


def _event(event_id: int) -> Event:
    return get_object_or_404(selectors.events_with_organiser(), pk=event_id)


# --- formats ---------------------------------------------------------------------------------


@extend_schema_serializer(component_name="FormatOption")
class FormatOptionOutput(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    default = serializers.JSONField(allow_null=True)
    choices = serializers.ListField(child=serializers.JSONField(), required=False, help_text="The values allowed.")
    minimum = serializers.IntegerField(required=False, help_text="With maximum: the integers allowed.")
    maximum = serializers.IntegerField(required=False)
    named = serializers.BooleanField(required=False, help_text="The value names an imported banlist.")
    uses = serializers.ListField(child=serializers.ChoiceField(choices=["deck", "game", "tables"]))
    rule = serializers.CharField()
    quote = serializers.CharField()
    house_rule = serializers.BooleanField()
    help = serializers.CharField()


@extend_schema_serializer(component_name="Interpretation")
class InterpretationOutput(serializers.Serializer):
    rule = serializers.CharField()
    text = serializers.CharField(help_text="The rulebook's words (or what it leaves unsaid).")
    choice = serializers.CharField(help_text="What Podium does.")
    option = serializers.CharField(allow_null=True, help_text="The event option that changes it, if any.")


class FormatListApi(APIView):
    permission_classes = [AllowAny]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="Format")
    class OutputSerializer(serializers.Serializer):
        slug = serializers.CharField()
        name = serializers.CharField()
        family = serializers.CharField()
        min_players = serializers.IntegerField(source="table_size.min")
        max_players = serializers.IntegerField(source="table_size.max")
        preferred_players = serializers.IntegerField(source="table_size.preferred")
        starting_life = serializers.IntegerField()
        games_per_match = serializers.IntegerField()
        options = serializers.SerializerMethodField(
            help_text="The options an event may set: the rulebook's variants and Podium's house rules (house_rule: "
            "a value other than the default departs from the rulebook's text), each with its values, default, "
            "where it is used (deck rules, game engine, tables) and the rulebook's words."
        )
        interpretations = serializers.SerializerMethodField(
            help_text="Where Podium reads the rulebook: its text, Podium's choice, the option that changes it."
        )

        @extend_schema_field(FormatOptionOutput(many=True))
        def get_options(self, fmt) -> list[dict[str, Any]]:
            return [o.as_dict() for o in fmt.options]

        @extend_schema_field(InterpretationOutput(many=True))
        def get_interpretations(self, fmt) -> list[dict[str, Any]]:
            return [i.as_dict() for i in fmt.interpretations]

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return paginated(
            self, request, list(FORMATS.values()), lambda page: self.OutputSerializer(page, many=True).data
        )


# --- events ------------------------------------------------------------------------------------


class EventListCreateApi(APIView):
    pagination_class = Pagination

    class FilterSerializer(serializers.Serializer):
        format = FormatField(required=False, help_text="Only events of this format (its slug).")

    @extend_schema_serializer(component_name="EventCreate")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        format = FormatField()
        planned_rounds = serializers.IntegerField(min_value=1, max_value=30)
        date = serializers.DateField()
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
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
        """Events, newest first; ``?format=deck-masters`` keeps one format's."""
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        events = selectors.events_of_format(fmt=filters.validated_data.get("format"))
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
        tiebreakers = serializers.ChoiceField(choices=Event.Tiebreakers.values, required=False)
        players_per_table = serializers.IntegerField(
            required=False, allow_null=True, min_value=2, max_value=MAX_SMALLINT
        )
        pod_leftovers = serializers.ChoiceField(choices=Event.Leftovers.values, required=False)
        registration_open = serializers.BooleanField(required=False)
        registration_deadline = serializers.DateTimeField(
            required=False, allow_null=True, help_text="Self-registration closes at this time; null: no deadline."
        )
        capacity = serializers.IntegerField(
            required=False, allow_null=True, min_value=1, max_value=MAX_TABLE,
            help_text="null: no limit. A larger capacity promotes players from the waiting list, in order.",
        )  # fmt: skip
        check_in_open = serializers.BooleanField(required=False)
        player_reports = serializers.BooleanField(required=False)
        casters_see_decklists = serializers.BooleanField(required=False)
        magic_floor = serializers.ChoiceField(choices=Event.Floor.values, required=False)
        options = serializers.DictField(
            required=False,
            help_text="Change some of the format's options ({name: value}; null: back to the rulebook's default), "
            "until round 1 is paired.",
        )

    @extend_schema(responses={200: EventDetailOutput, **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        bracket = selectors.top_cut_bracket(event=event)
        placements = bracket.placements if bracket else []
        return Response(EventDetailOutput(event, context={"final_placements": placements}).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: EventOutput,
            **error_responses(
                *BODY, "invalid_option", *STAFF, "not_found", "event_finished", "event_started", "rounds_already_paired"
            ),
        },
    )
    def patch(self, request: Request, event_id: int) -> Response:
        """Change settings; pairing settings only before round 1, planned rounds never below those paired.

        Also the players' windows: self-registration (``registration_open``, its deadline and the
        ``capacity``), self check-in (``check_in_open``) and player reports (``player_reports``).
        """
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = services.event_update(event=_event(event_id), by=request.user, **serializer.validated_data)
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
        source = serializers.CharField()

    @extend_schema(responses={200: OutputSerializer, **error_responses("not_found", "too_few_players")})
    def get(self, request: Request, event_id: int) -> Response:
        """Recommended number of Swiss rounds and top cut for the attendance."""
        event = _event(event_id)
        structure = selectors.event_structure(event=event)
        if structure is None:
            raise Conflict(
                f"Too few players entered for a recommendation: it needs at least {selectors.structure_minimum(event)}.",
                code="too_few_players",
            )
        return Response(self.OutputSerializer(structure).data)


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
        event = _event(event_id)
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
        event = services.event_finish(event=_event(event_id), by=request.user)
        return Response(EventOutput(event).data)


# --- event staff -----------------------------------------------------------------------------------


@extend_schema_serializer(component_name="StaffMember")
class StaffOutput(serializers.Serializer):
    user = serializers.CharField(source="user.username", help_text="The account's username.")
    role = serializers.ChoiceField(choices=EventStaff.Role.choices)
    added_at = serializers.DateTimeField(source="created_at")


class EventStaffApi(APIView):
    """The event's staff: users with a role (co-organiser, scorekeeper, judge, caster), for its organisers."""

    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="StaffAdd")
    class InputSerializer(serializers.Serializer):
        user = serializers.CharField(max_length=150, help_text="The account's username.")
        role = serializers.ChoiceField(choices=EventStaff.Role.choices)

    @extend_schema(responses={200: StaffOutput(many=True), **error_responses(*STAFF, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        policy.ensure(request.user, Action.MANAGE_STAFF, event)
        staff = selectors.event_staff(event=event)
        return paginated(self, request, staff, lambda page: StaffOutput(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: StaffOutput,
            200: OpenApiResponse(StaffOutput, description="The account had a role at the event: it has this one now."),
            **error_responses(*BODY, *STAFF, "not_found", "unknown_user", "already_organiser"),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Give an account a role at the event (or change the role it has)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = _event(event_id)
        username = serializer.validated_data["user"]
        had_role = people_selectors.has_staff_role(event=event, username=username)
        member = staff_services.staff_add(
            event=event, username=username, role=serializer.validated_data["role"], by=request.user
        )
        return Response(StaffOutput(member).data, status=status.HTTP_200_OK if had_role else status.HTTP_201_CREATED)


class EventStaffRemoveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            204: OpenApiResponse(description="Removed: the account has no role at the event any more."),
            **error_responses(*STAFF, "not_found", "unknown_user", "not_staff"),
        },
    )
    def delete(self, request: Request, event_id: int, username: str) -> Response:
        """Take the account's role at the event away (the staff left: ``GET .../staff/``)."""
        event = _event(event_id)
        staff_services.staff_remove(event=event, username=username, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- registrations -------------------------------------------------------------------------------


@extend_schema_serializer(component_name="Registration")
class RegistrationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    player = PlayerOutput()
    status = serializers.ChoiceField(
        choices=Registration.Status.choices,
        help_text="registered: in the event; waitlisted: waiting for a place (promoted in order); withdrawn: left "
        "before play (or an invitation declined or withdrawn); invited: staff entered a player record linked to an "
        "account, and its player has not accepted (accept/) or declined (decline/) yet: not in the event until "
        "then, and seen only by the player and the event's staff.",
    )
    self_registered = serializers.BooleanField(help_text="The player registered themselves (not a walk-in).")
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()
    dropped_after_round = serializers.IntegerField(allow_null=True)
    late_entry_round = serializers.IntegerField(allow_null=True, help_text="Late entry: first round paired in.")
    missed_rounds = serializers.IntegerField(help_text="Rounds lost by entering late.")
    fixed_table = serializers.IntegerField(allow_null=True)
    assigned_byes = serializers.SerializerMethodField(help_text="Rounds the organiser gave this player a bye.")

    def get_assigned_byes(self, registration) -> list[int]:
        return people_selectors.registration_byes(registration=registration)


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
                raise serializers.ValidationError({"display_name": ["Give an existing player's id or a display name."]})
            return data

    @extend_schema(responses={200: RegistrationOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """Every registration: players in the event, waiting for a place, and withdrawn; invitations not answered
        yet for the event's staff."""
        event = _event(event_id)
        context = serializer_context(request, event)
        registrations = selectors.event_registrations(event=event, invitations=context["private"])
        return paginated(
            self, request, registrations, lambda page: RegistrationOutput(page, many=True, context=context).data
        )

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
        entry: a loss for each round missed. A player record linked to an account (but yours) is invited:
        ``status: "invited"``, in the event once the player accepts (``accept/``), never checked in before.
        """
        event = _event(event_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = None
        if "player" in data:
            player = people_selectors.player_get(player_id=data["player"])
            if player is None:
                raise serializers.ValidationError({"player": [f"Player {data['player']} does not exist."]})
        registration = services.registration_create(
            event=event,
            by=request.user,
            player=player,
            display_name=data.get("display_name", ""),
            external_id=data.get("external_id"),
            checked_in=data["checked_in"],
        )
        return Response(
            RegistrationOutput(registration, context=serializer_context(request, event)).data,
            status=status.HTTP_201_CREATED,
        )


class EventRegisterApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            201: RegistrationOutput,
            **error_responses(
                *SIGNED_IN, "not_found", "event_finished", "top_cut_started", "event_started", "registration_closed",
                "already_registered",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Register yourself while the event's registration is open: ``waitlisted`` when it is full.

        A new account gets its player profile here. Leave with ``withdraw`` before play starts.
        """
        event = _event(event_id)
        registration = registration_services.registration_self_register(event=event, by=request.user)
        return Response(
            RegistrationOutput(
                _registration(event_id, registration.pk), context=serializer_context(request, event)
            ).data,
            status=status.HTTP_201_CREATED,
        )


def _registration(event_id: int, registration_id: int) -> Registration:
    return get_object_or_404(people_selectors.registrations_with_player(event_id=event_id), pk=registration_id)


def _registration_answer(request: Request, registration: Registration, status_code: int = 200) -> Response:
    return Response(
        RegistrationOutput(registration, context=serializer_context(request, registration.event)).data,
        status=status_code,
    )


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
                *BODY, *STAFF, "not_found", "event_finished", "check_in_closed", "not_registered", "dropped"
            ),
        },
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """Check in (or out): staff at any time, the player themselves while the event's check-in is open."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = services.registration_check_in(
            registration=_registration(event_id, registration_id), by=request.user, **serializer.validated_data
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
            registration=_registration(event_id, registration_id), by=request.user, **serializer.validated_data
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
        registration = _registration(event_id, registration_id)
        services.bye_assign(registration=registration, round_number=serializer.validated_data["round"], by=request.user)
        return _registration_answer(request, _registration(event_id, registration_id), status.HTTP_201_CREATED)


class ByeUnassignApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: RegistrationOutput, **error_responses(*STAFF, "not_found", "round_already_paired")},
    )
    def delete(self, request: Request, event_id: int, registration_id: int, number: int) -> Response:
        """Take back a bye assigned for a round not paired yet; answers the registration."""
        registration = _registration(event_id, registration_id)
        services.bye_unassign(registration=registration, round_number=number, by=request.user)
        return _registration_answer(request, _registration(event_id, registration_id))


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
            registration=_registration(event_id, registration_id), by=request.user
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
            registration=_registration(event_id, registration_id), by=request.user, **serializer.validated_data
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
            registration=_registration(event_id, registration_id), by=request.user
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
            registration=_registration(event_id, registration_id), by=request.user
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
            registration=_registration(event_id, registration_id), by=request.user
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
            registration=_registration(event_id, registration_id), by=request.user
        )
        return Response(self.OutputSerializer({"code": code}).data, status=status.HTTP_201_CREATED)


# --- rounds, pairings and results ----------------------------------------------------------------


@extend_schema_serializer(component_name="RoundPair")
class PairInput(serializers.Serializer):
    allow_rematches = serializers.BooleanField(
        default=False, help_text="1v1: accept the fewest rematches when no rematch-free pairing exists."
    )
    seed = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=2**62 - 1,
        help_text="Reproduce a pairing: the same players, history and seed give the same tables.",
    )  # fmt: skip


@extend_schema_serializer(component_name="RoundStart")
class RoundStartInput(PairInput):
    seeding = serializers.ChoiceField(
        choices=["random", "rating"], default="random",
        help_text="Round 1: seat at random, or by the players' displayed ratings in the format (the strongest "
        "kept apart). Later rounds ignore it.",
    )  # fmt: skip


class RoundListStartApi(APIView):
    pagination_class = Pagination

    @extend_schema(responses={200: RoundOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The event's rounds in order, each with its tables."""
        event = _event(event_id)
        context = serializer_context(request, event)

        def serialize(page: list[Round]) -> list:
            return RoundOutput(selectors.rounds_load_tables(rounds=list(page)), many=True, context=context).data

        return paginated(self, request, selectors.event_rounds(event=event), serialize)

    @extend_schema(
        request=RoundStartInput,
        responses={
            201: RoundOutput,
            **error_responses(
                *BODY, *STAFF, "not_found", "event_finished", "round_incomplete", "rounds_complete",
                "not_enough_players", "pairing_impossible", "rematch_unavoidable", "top_cut_complete",
                "ratings_unavailable",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Start the next round: pair players and return the tables with their seats.

        A 1v1 round that cannot avoid a rematch answers 409 ``rematch_unavoidable``;
        send ``allow_rematches: true`` to pair it anyway.
        """
        serializer = RoundStartInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = _event(event_id)
        round_ = services.round_start(event=event, by=request.user, **serializer.validated_data)
        selectors.rounds_load_tables(rounds=[round_])
        return Response(
            RoundOutput(round_, context=serializer_context(request, event)).data, status=status.HTTP_201_CREATED
        )


class RoundRepairApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=PairInput,
        responses={
            201: RoundOutput,
            **error_responses(
                *BODY, *STAFF, "not_found", "round_not_found", "event_finished", "round_closed", "top_cut_round",
                "round_has_results", "not_enough_players", "pairing_impossible", "rematch_unavoidable",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Pair the current round again; only before any table has a result or a game record."""
        serializer = PairInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = _event(event_id)
        round_ = services.round_repair(event=event, round_number=number, by=request.user, **serializer.validated_data)
        selectors.rounds_load_tables(rounds=[round_])
        return Response(
            RoundOutput(round_, context=serializer_context(request, event)).data, status=status.HTTP_201_CREATED
        )


class RoundSwapApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="RoundSwap")
    class InputSerializer(serializers.Serializer):
        players = serializers.ListField(
            child=id_field(), min_length=2, max_length=2, help_text="The two player ids to swap."
        )

    @extend_schema_serializer(component_name="RoundSwapResult")
    class OutputSerializer(serializers.Serializer):
        round = RoundOutput()
        warnings = serializers.ListField(child=serializers.CharField(), help_text="Rematches the swap creates.")

    @extend_schema(
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            **error_responses(
                *BODY, *STAFF, "not_found", "round_not_found", "event_finished", "round_closed", "top_cut_round",
                "round_has_results",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int) -> Response:
        """Swap two players' seats in the current round (tables without results only)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        a, b = serializer.validated_data["players"]
        event = _event(event_id)
        round_, warnings = services.round_swap(
            event=event, round_number=number, player_a=a, player_b=b, by=request.user
        )
        selectors.rounds_load_tables(rounds=[round_])
        answer = {"round": round_, "warnings": warnings}
        return Response(self.OutputSerializer(answer, context=serializer_context(request, event)).data)


class RoundDetailApi(APIView):
    @extend_schema(responses={200: RoundOutput, **error_responses("not_found")})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(event_id)
        round_ = get_object_or_404(selectors.rounds_of(event=event), number=number)
        selectors.rounds_load_tables(rounds=[round_])
        return Response(RoundOutput(round_, context=serializer_context(request, event)).data)


class OutcomeInput(serializers.Serializer):
    """What a table's result says: placements, and for 1v1 the game score or an intentional draw."""

    placements = serializers.ListSerializer(
        child=PlacementInput(),
        allow_empty=False,
        max_length=8,
        help_text="Every seated player with a placement: 1 for the winner; players who drew share 1.",
    )
    games = serializers.ListSerializer(
        child=GameScoreSerializer(),
        required=False,
        allow_null=True,
        default=None,
        min_length=2,
        max_length=2,
        help_text="1v1 only, optional: each player's games won, lost and drawn (2-1 for one is 1-2 for the other). "
        "The Magic tiebreakers use them.",
    )
    intentional_draw = serializers.BooleanField(
        default=False,
        help_text="1v1: an agreed draw, not played out (both placement 1; no games, or 0-0-0). Its unplayed games "
        "are worth no game points, unlike a drawn game.",
    )

    def validate_placements(self, value: list[dict]) -> list[dict]:
        players = [item["player"] for item in value]
        if len(set(players)) != len(players):
            raise serializers.ValidationError("A player is listed twice.")
        return value

    def validate_games(self, value: list[dict] | None) -> list[dict] | None:
        if value is not None and len({item["player"] for item in value}) != len(value):
            raise serializers.ValidationError("A player is listed twice.")
        return value

    def outcome(self) -> dict:
        """The service's arguments: ``placements``, ``games`` and ``intentional_draw``."""
        data = self.validated_data
        games = data.get("games")
        return {
            "placements": {item["player"]: item["placement"] for item in data["placements"]},
            "games": None if games is None else {g["player"]: (g["won"], g["lost"], g["drawn"]) for g in games},
            "intentional_draw": data["intentional_draw"],
        }


def _table_context(request: Request, event: Event, pod: Pod) -> dict:
    """The reader's context for answering one table, with its open report (a query unless it has its result)."""
    report = _open_report(pod)
    return serializer_context(request, event, reports={pod.pk: report} if report else {})


class ResultReportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ResultReport")
    class InputSerializer(OutcomeInput):
        pass

    @extend_schema(
        request=InputSerializer,
        responses={
            201: TableOutput,
            200: OpenApiResponse(TableOutput, description="The same result again: accepted, nothing changed."),
            **error_responses(
                *BODY, *STAFF, "not_found", "round_not_found", "table_not_found", "event_finished", "round_closed",
                "result_exists",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Enter a table's result as staff: final at once.

        Placements: ``1`` for the winner; players who drew share ``1``. Organisers and scorekeepers; judges
        for a table whose players' report is disputed or waiting (they settle it). A different result for a
        table that has one is a correction (``correction/``).
        """
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = _event(event_id)
        result, created = services.pod_result_report(
            event=event,
            round_number=number,
            table_number=table,
            by=request.user,
            source=PodResult.Source.API,
            **serializer.outcome(),
        )
        pod = selectors.pod_detail(pod_id=result.pod_id)
        return Response(
            TableOutput(pod, context=_table_context(request, event, pod)).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


#: What a player's report or answer did (:class:`tournaments.services.results.ReportAnswer`).
REPORT_STATES = [
    ("pending", "reported: waiting for the other players to confirm"),
    ("confirmed", "every player agreed: the result is final"),
    ("disputed", "the players disagree: staff settle the table"),
    ("unchanged", "the same report or result again: nothing changed"),
]


@extend_schema_serializer(component_name="ReportAnswer")
class ReportAnswerOutput(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=[s for s, _ in REPORT_STATES], help_text="; ".join(f"{s}: {text}" for s, text in REPORT_STATES) + "."
    )
    table = TableOutput(help_text="The table with its result when final, else with the open report.")


def _report_answer(request: Request, event: Event, answer: result_services.ReportAnswer, created: bool) -> Response:
    pod = selectors.pod_detail(pod_id=answer.result.pod_id if answer.result else answer.report.pod_id)
    body = ReportAnswerOutput({"state": answer.state, "table": pod}, context=_table_context(request, event, pod)).data
    return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


#: The codes of a player answering for their table.
TABLE_PLAYER = (*SIGNED_IN, "not_at_table", "not_found", "round_not_found", "table_not_found", "event_finished")


class TablePlayerReportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="PlayerReport")
    class InputSerializer(OutcomeInput):
        pass

    @extend_schema(
        request=InputSerializer,
        responses={
            201: ReportAnswerOutput,
            200: OpenApiResponse(ReportAnswerOutput, description="The same report again: nothing changed."),
            **error_responses(
                *BODY, *TABLE_PLAYER, "player_reports_off", "round_closed", "result_exists", "already_answered"
            ),
        },
    )
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Report your table's result (players at the table, when the event takes player reports).

        It counts once every other player at the table confirms it (``confirm/``). If another player's
        report is open, the same result confirms it and a different one disputes it: staff settle it.
        """
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = _event(event_id)
        answer = result_services.result_player_report(
            event=event, round_number=number, table_number=table, by=request.user, **serializer.outcome()
        )
        return _report_answer(request, event, answer, created=answer.state != "unchanged")


class TableConfirmApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ReportConfirm")
    class InputSerializer(serializers.Serializer):
        agrees = serializers.BooleanField(help_text="true: the report is right; false: dispute it (staff settle it).")

    @extend_schema(
        request=InputSerializer,
        responses={
            200: ReportAnswerOutput,
            **error_responses(
                *BODY, *TABLE_PLAYER, "no_report", "round_closed", "result_exists", "own_report", "already_answered"
            ),
        },
    )
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Confirm or dispute the result another player at your table reported."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = _event(event_id)
        answer = result_services.result_respond(
            event=event, round_number=number, table_number=table, by=request.user, **serializer.validated_data
        )
        return _report_answer(request, event, answer, created=False)


class TableReportAcceptApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            200: ReportAnswerOutput,
            **error_responses(
                *STAFF, "not_found", "round_not_found", "table_not_found", "event_finished", "round_closed",
                "result_exists", "no_report", "report_disputed", "invalid",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Accept the table's waiting player report as it stands: it becomes the table's result.

        For a report nobody else can confirm (a walk-in has no account). Organisers, scorekeepers and judges
        (those who settle a table); recorded as a confirmation by you. A disputed report is settled by entering
        the result (``result/``).
        """
        event = _event(event_id)
        answer = result_services.result_report_accept(
            event=event, round_number=number, table_number=table, by=request.user
        )
        return _report_answer(request, event, answer, created=False)


class ResultCorrectApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="Correction")
    class InputSerializer(OutcomeInput):
        reason = serializers.CharField(max_length=1000, help_text="Why the result changes (kept in the audit trail).")

    @extend_schema_serializer(component_name="CorrectionResult")
    class OutputSerializer(serializers.Serializer):
        table = TableOutput()
        later_rounds = serializers.ListField(
            child=serializers.IntegerField(),
            help_text="Rounds paired after the corrected one: they stay as they were paired.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            **error_responses(
                *BODY, *STAFF, "not_found", "round_not_found", "table_not_found", "no_result", "cut_advanced"
            ),
        },
    )
    def post(self, request: Request, event_id: int, number: int, table: int) -> Response:
        """Correct a recorded result of any round, with a reason; the standings are recomputed.

        Organisers and scorekeepers; once the event is finished, its organiser only. Rounds paired since
        stay as they are (``later_rounds``).
        """
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = _event(event_id)
        correction = result_services.result_correct(
            event=event,
            round_number=number,
            table_number=table,
            reason=serializer.validated_data["reason"],
            by=request.user,
            **serializer.outcome(),
        )
        pod = selectors.pod_detail(pod_id=correction.result.pod_id)
        answer = {"table": pod, "later_rounds": correction.later_rounds}
        return Response(self.OutputSerializer(answer, context=_table_context(request, event, pod)).data)


@extend_schema_serializer(component_name="Standing")
class StandingOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerOutput()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    matches = serializers.IntegerField()
    opp_match_win_pct = serializers.FloatField()
    opp_opp_match_win_pct = serializers.FloatField()
    opp_avg_points = serializers.FloatField()
    game_win_pct = serializers.FloatField(
        help_text="1v1: game points / (3 x games played), from the game scores (a match without one is one game, "
        "a bye 2-0), whichever tiebreakers the event ranks on; 0 in pods."
    )
    opp_game_win_pct = serializers.FloatField(help_text="1v1: the opponents' game-win percentages, each floored.")
    dropped = serializers.BooleanField()


class StandingsApi(APIView):
    @extend_schema_serializer(component_name="Standings")
    class OutputSerializer(serializers.Serializer):
        event = serializers.IntegerField()
        current = serializers.BooleanField(
            help_text="False while the standings task catches up with new results: the figures are not current."
        )
        results_version = serializers.IntegerField()
        count = serializers.IntegerField(help_text="Rows in the whole table (``limit`` and ``offset`` page it).")
        next = serializers.URLField(allow_null=True, help_text="The next page, or null.")
        previous = serializers.URLField(allow_null=True, help_text="The previous page, or null.")
        standings = StandingOutput(many=True, help_text="This page of the table, by rank.")

    @extend_schema(parameters=page_parameters(), responses={200: OutputSerializer, **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The standings, by rank, paged like every list (``limit``, ``offset``).

        Until the worker has stored them (it is catching up, or down), an event with players lists them at zero
        with ``current: false``: never an empty table for an event that has players."""
        event = _event(event_id)
        standings = selectors.standings_read(event=event)
        paginator = Pagination()
        page = paginator.paginate_queryset(standings.rows, request, view=self)
        answer = {
            "event": event.pk,
            "current": standings.current,
            "results_version": event.standings_version,
            "count": paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "standings": page,
        }
        return Response(self.OutputSerializer(answer, context=serializer_context(request, event)).data)


# --- players -------------------------------------------------------------------------------------


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
                raise serializers.ValidationError({"q": ["Search by name (q) or by event (event)."]})
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


# --- the audit trail --------------------------------------------------------------------------


@extend_schema_serializer(component_name="AuditEntry")
class AuditEntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    time = serializers.DateTimeField(source="created_at")
    actor = serializers.SerializerMethodField(help_text="Who made the change (username); null: Podium itself.")
    action = serializers.CharField(help_text="<entity>.<verb>: result.corrected, registration.dropped, ...")
    subject = serializers.CharField(help_text='What it happened to, in words: "Round 2, table 3", "Ash (#12)".')
    before = serializers.JSONField(allow_null=True, help_text="The values before the change (null: none).")
    after = serializers.JSONField(allow_null=True, help_text="The values after it (null: none).")
    reason = serializers.CharField(help_text="The reason given (corrections, undone drops), or empty.")

    def get_actor(self, entry) -> str | None:
        return entry.actor.get_username() if entry.actor else None


class EventAuditApi(generics.ListAPIView):
    """The event's audit trail, newest first: every change made through Podium, who made it and when."""

    permission_classes = [IsAuthenticated]
    pagination_class = Pagination
    serializer_class = AuditEntryOutput

    class FilterSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(
            choices=sorted(AUDIT_KINDS), required=False, help_text="Only entries of this kind (default: all)."
        )

    def get_queryset(self):
        event = _event(self.kwargs["event_id"])
        policy.ensure(self.request.user, Action.READ_AUDIT, event)
        filters = self.FilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return event_audit_of_kind(event=event, kind=filters.validated_data.get("kind"))

    @extend_schema(
        parameters=[FilterSerializer],
        responses={200: AuditEntryOutput(many=True), **error_responses("invalid", *STAFF, "not_found")},
    )
    def get(self, request: Request, *args, **kwargs) -> Response:
        """Paged like every list (``limit``, ``offset``); ``kind`` keeps one kind of change."""
        return super().get(request, *args, **kwargs)


# --- penalties --------------------------------------------------------------------------------


@extend_schema_serializer(component_name="Penalty")
class PenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    registration = serializers.IntegerField(source="registration_id", help_text="The player's registration.")
    player = PlayerOutput(source="registration.player")
    round = serializers.IntegerField(
        source="round_number", allow_null=True, help_text="The round it was given in; null: before round 1."
    )
    penalty = serializers.ChoiceField(choices=Penalty.Kind.choices)
    infraction = serializers.CharField(help_text='What the player did: "Drawing extra cards".')
    note = serializers.SerializerMethodField(help_text="The judge's notes: for the event's staff, null for the player.")
    issued_by = serializers.SerializerMethodField(help_text="Who gave it (username); null: the account is gone.")
    issued_at = serializers.DateTimeField()
    rescinded = serializers.BooleanField(help_text="Rescinded: kept on record, no longer in force.")
    rescinded_at = serializers.DateTimeField(allow_null=True)
    rescinded_by = serializers.SerializerMethodField(help_text="Who rescinded it (username), or null.")
    rescind_reason = serializers.CharField(help_text="Why it was rescinded, or empty.")

    def get_note(self, penalty) -> str | None:
        return penalty.note if self.context.get("staff") else None

    def get_issued_by(self, penalty) -> str | None:
        return penalty.issued_by.get_username() if penalty.issued_by else None

    def get_rescinded_by(self, penalty) -> str | None:
        return penalty.rescinded_by.get_username() if penalty.rescinded_by else None


def _penalty_context(request: Request, event: Event) -> dict:
    """The reader's context for penalties: the event's staff (anyone on its dashboard) read the judges' notes."""
    return serializer_context(request, event, staff=policy.can(request.user, Action.USE_DASHBOARD, event))


class PenaltyListIssueApi(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="PenaltyIssue")
    class InputSerializer(serializers.Serializer):
        registration = id_field(help_text="The registration of the player at this event.")
        penalty = serializers.ChoiceField(choices=Penalty.Kind.choices)
        infraction = serializers.CharField(max_length=200, help_text='What the player did: "Drawing extra cards".')
        note = serializers.CharField(
            max_length=2000, required=False, allow_blank=True, default="", help_text="Notes for the staff."
        )
        round = serializers.IntegerField(
            required=False, allow_null=True, default=None, min_value=1, max_value=MAX_ROUND,
            help_text="The round it was given in, a round already paired; default: the current round.",
        )  # fmt: skip

    @extend_schema(responses={200: PenaltyOutput(many=True), **error_responses(*SIGNED_IN, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The event's penalties, newest first: all of them for its staff, your own for a player."""
        event = _event(event_id)
        context = _penalty_context(request, event)
        if context["staff"]:
            penalties = people_selectors.event_penalties(event=event)
        else:
            player = selectors.player_of(request.user)
            mine = people_selectors.player_penalties(player=player, event_ids=[event.pk]) if player else {}
            penalties = mine.get(event.pk, [])
        return paginated(self, request, penalties, lambda page: PenaltyOutput(page, many=True, context=context).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: PenaltyOutput,
            **error_responses(*BODY, *STAFF, "not_found", "event_finished", "not_registered"),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Give a player a penalty for an infraction (organisers and judges); a disqualification also drops them.

        A game or a match loss is recorded here; enter the table's result as it stands after the penalty.
        """
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        event = _event(event_id)
        penalty = services.penalty_issue(
            event=event, registration_id=data["registration"], penalty=data["penalty"],
            infraction=data["infraction"], note=data["note"], round_number=data["round"], by=request.user,
        )  # fmt: skip
        return Response(
            PenaltyOutput(penalty, context=_penalty_context(request, event)).data, status=status.HTTP_201_CREATED
        )


class PenaltyRescindApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="PenaltyRescind")
    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=1000, help_text="Why it is rescinded (kept with it and audited).")

    @extend_schema(
        request=InputSerializer,
        responses={
            200: PenaltyOutput,
            **error_responses(*BODY, *STAFF, "not_found", "event_finished", "already_rescinded"),
        },
    )
    def post(self, request: Request, event_id: int, penalty_id: int) -> Response:
        """Rescind a penalty: it stays on record, marked, with the reason. A rescinded disqualification leaves
        the player dropped (undo the drop with ``undrop/`` if they play on)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = _event(event_id)
        penalty = get_object_or_404(people_selectors.penalties_with_event(event=event), pk=penalty_id)
        penalty = services.penalty_rescind(penalty=penalty, by=request.user, reason=serializer.validated_data["reason"])
        penalty = people_selectors.event_penalty(event=event, penalty_id=penalty.pk)
        return Response(PenaltyOutput(penalty, context=_penalty_context(request, event)).data)
