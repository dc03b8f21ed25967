"""REST API of the tournaments app (``/api/v1/``).

One view per operation; input and output serializers sit with the view.
Views translate HTTP to a service call or a selector and back; the rules live
in :mod:`tournaments.services`.  Errors use the shape of :mod:`core.api`.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, STAFF, FormatFilterNegotiation, error_responses, id_field
from core.exceptions import Conflict
from games.formats import FORMATS
from tournaments import selectors, services
from tournaments.models import Event, Player, PodResult, Registration, Round

# --- shared output shapes ---------------------------------------------------------------------


@extend_schema_serializer(component_name="Player")
class PlayerOutput(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    external_id = serializers.CharField(allow_null=True)


@extend_schema_serializer(component_name="Event")
class EventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=sorted(FORMATS))
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


@extend_schema_serializer(component_name="Seat")
class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField(source="seat_order")
    player = PlayerOutput()
    placement = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    points_before = serializers.IntegerField(allow_null=True, help_text="Match points when the round was paired.")
    rank_before = serializers.IntegerField(allow_null=True, help_text="Standing when the round was paired.")
    cut_seed = serializers.IntegerField(allow_null=True, help_text="Top-cut seed; null in Swiss rounds.")
    reasons = serializers.ListField(child=serializers.CharField(), help_text="The pairing's reason codes.")
    why = serializers.SerializerMethodField(help_text="The reasons in sentences.")

    def get_why(self, seat) -> list[str]:
        return self.context.get("why", {}).get(seat.player_id, [])


@extend_schema_serializer(component_name="Table")
class TableOutput(serializers.Serializer):
    table = serializers.IntegerField(source="table_number", allow_null=True)
    bye = serializers.BooleanField(source="is_bye")
    reported = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()

    def get_reported(self, pod) -> bool:
        return hasattr(pod, "result")

    @extend_schema_field(SeatOutput(many=True))
    def get_seats(self, pod) -> list[dict]:
        seats = getattr(pod, "seat_list", None)  # loaded with the table by selectors.pod_detail
        return SeatOutput(pod.seats.all() if seats is None else seats, many=True, context=self.context).data


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
        pods = selectors.round_pods(round_=round_)
        why = selectors.seat_explanations(round_=round_, pods=pods)
        return TableOutput(pods, many=True, context={"why": why}).data


#: Table numbers are stored as ``integer``: a fixed table beyond this would fail in the database.
MAX_TABLE = 2**31 - 1


def _event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("organiser"), pk=event_id)


# --- formats ---------------------------------------------------------------------------------


class FormatListApi(APIView):
    permission_classes = [AllowAny]

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

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(FORMATS.values(), many=True).data)


# --- events ------------------------------------------------------------------------------------


class EventListCreateApi(APIView):
    content_negotiation_class = FormatFilterNegotiation

    @extend_schema_serializer(component_name="EventCreate")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        format = serializers.ChoiceField(choices=sorted(FORMATS))
        planned_rounds = serializers.IntegerField(min_value=1, max_value=30)
        date = serializers.DateField()
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
        tiebreakers = serializers.ChoiceField(choices=Event.Tiebreakers.values, default=Event.Tiebreakers.CLASSIC)
        players_per_table = serializers.IntegerField(
            required=False, allow_null=True, default=None, help_text="2 for 1v1 Swiss in a pod format."
        )
        pod_leftovers = serializers.ChoiceField(choices=Event.Leftovers.values, default=Event.Leftovers.TABLES)

    @extend_schema(
        responses=EventOutput(many=True),
        parameters=[OpenApiParameter("format", str, enum=sorted(FORMATS), description="Only events of this format.")],
    )
    def get(self, request: Request) -> Response:
        events = selectors.event_list()
        fmt = request.query_params.get("format")
        if fmt:
            events = events.filter(format=fmt)
        return Response(EventOutput(events[:500], many=True).data)

    @extend_schema(request=InputSerializer, responses={201: EventOutput, **error_responses(*BODY, *SIGNED_IN)})
    def post(self, request: Request) -> Response:
        """Create an event; the signed-in user becomes its organiser."""
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
        players_per_table = serializers.IntegerField(required=False, allow_null=True)
        pod_leftovers = serializers.ChoiceField(choices=Event.Leftovers.values, required=False)

    @extend_schema(responses={200: EventOutput, **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(EventOutput(_event(event_id)).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            200: EventOutput,
            **error_responses(*BODY, *STAFF, "not_found", "event_finished", "event_started", "rounds_already_paired"),
        },
    )
    def patch(self, request: Request, event_id: int) -> Response:
        """Change settings; pairing settings only before round 1, planned rounds never below those paired."""
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
        round_ = services.top_cut_start(event=_event(event_id), by=request.user, **serializer.validated_data)
        return Response(RoundOutput(round_).data, status=status.HTTP_201_CREATED)


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


# --- registrations -------------------------------------------------------------------------------


@extend_schema_serializer(component_name="Registration")
class RegistrationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    player = PlayerOutput()
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()
    dropped_after_round = serializers.IntegerField(allow_null=True)
    late_entry_round = serializers.IntegerField(allow_null=True, help_text="Late entry: first round paired in.")
    missed_rounds = serializers.IntegerField(help_text="Rounds lost by entering late.")
    fixed_table = serializers.IntegerField(allow_null=True)
    assigned_byes = serializers.SerializerMethodField(help_text="Rounds the organiser gave this player a bye.")

    def get_assigned_byes(self, registration) -> list[int]:
        return sorted(b.round_number for b in registration.bye_assignments.all())


class RegistrationListCreateApi(APIView):
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
        event = _event(event_id)
        return Response(RegistrationOutput(selectors.event_registrations(event=event), many=True).data)

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
        """Register an existing player (``player``) or a new one (``display_name``).

        Registering checked in once round 1 is paired is a late entry: a loss for each round missed.
        """
        event = _event(event_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = None
        if "player" in data:
            player = Player.objects.filter(pk=data["player"]).first()
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
        return Response(RegistrationOutput(registration).data, status=status.HTTP_201_CREATED)


def _registration(event_id: int, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event", "player"), pk=registration_id, event_id=event_id
    )


class RegistrationCheckInApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="CheckIn")
    class InputSerializer(serializers.Serializer):
        checked_in = serializers.BooleanField(default=True)

    @extend_schema(
        request=InputSerializer,
        responses={200: RegistrationOutput, **error_responses(*BODY, *STAFF, "not_found", "event_finished", "dropped")},
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = services.registration_check_in(
            registration=_registration(event_id, registration_id), by=request.user, **serializer.validated_data
        )
        return Response(RegistrationOutput(registration).data)


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
        return Response(RegistrationOutput(registration).data)


class ByeAssignApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ByeAssign")
    class InputSerializer(serializers.Serializer):
        round = serializers.IntegerField(min_value=1, help_text="A round not paired yet.")

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
        return Response(
            RegistrationOutput(_registration(event_id, registration_id)).data, status=status.HTTP_201_CREATED
        )


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
        return Response(RegistrationOutput(_registration(event_id, registration_id)).data)


class RegistrationDropApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: RegistrationOutput, **error_responses(*STAFF, "not_found", "event_finished")}
    )
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        """Drop the player from future rounds; their results and standing stay."""
        registration = services.registration_drop(
            registration=_registration(event_id, registration_id), by=request.user
        )
        return Response(RegistrationOutput(registration).data)


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


class RoundListStartApi(APIView):
    @extend_schema(responses={200: RoundOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        return Response(RoundOutput(event.rounds.order_by("number"), many=True).data)

    @extend_schema(
        request=PairInput,
        responses={
            201: RoundOutput,
            **error_responses(
                *BODY, *STAFF, "not_found", "event_finished", "round_incomplete", "rounds_complete",
                "not_enough_players", "pairing_impossible", "rematch_unavoidable", "top_cut_complete",
            ),
        },
    )  # fmt: skip
    def post(self, request: Request, event_id: int) -> Response:
        """Start the next round: pair players and return the tables with their seats.

        A 1v1 round that cannot avoid a rematch answers 409 ``rematch_unavoidable``;
        send ``allow_rematches: true`` to pair it anyway.
        """
        serializer = PairInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = services.round_start(event=_event(event_id), by=request.user, **serializer.validated_data)
        return Response(RoundOutput(round_).data, status=status.HTTP_201_CREATED)


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
        round_ = services.round_repair(
            event=_event(event_id), round_number=number, by=request.user, **serializer.validated_data
        )
        return Response(RoundOutput(round_).data, status=status.HTTP_201_CREATED)


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
        round_, warnings = services.round_swap(
            event=_event(event_id), round_number=number, player_a=a, player_b=b, by=request.user
        )
        return Response(self.OutputSerializer({"round": round_, "warnings": warnings}).data)


class RoundDetailApi(APIView):
    @extend_schema(responses={200: RoundOutput, **error_responses("not_found")})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(event_id)
        round_ = get_object_or_404(event.rounds, number=number)
        return Response(RoundOutput(round_).data)


@extend_schema_serializer(component_name="Placement")
class PlacementInput(serializers.Serializer):
    player = id_field()
    placement = serializers.IntegerField(min_value=1, max_value=8)


class ResultReportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ResultReport")
    class InputSerializer(serializers.Serializer):
        placements = serializers.ListSerializer(
            child=PlacementInput(),
            allow_empty=False,
            max_length=8,
            help_text="Every seated player with a placement: 1 for the winner; players who drew share 1.",
        )

        def validate_placements(self, value: list[dict]) -> list[dict]:
            players = [item["player"] for item in value]
            if len(set(players)) != len(players):
                raise serializers.ValidationError("A player is listed twice.")
            return value

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
        """Report a table's placements: ``1`` for the winner; players who drew share ``1``."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        placements = {item["player"]: item["placement"] for item in serializer.validated_data["placements"]}
        result, created = services.pod_result_report(
            event=_event(event_id),
            round_number=number,
            table_number=table,
            placements=placements,
            by=request.user,
            source=PodResult.Source.API,
        )
        pod = selectors.pod_detail(pod_id=result.pod_id)
        return Response(TableOutput(pod).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


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
    game_win_pct = serializers.FloatField()
    opp_game_win_pct = serializers.FloatField()
    dropped = serializers.BooleanField()


class StandingsApi(APIView):
    @extend_schema_serializer(component_name="Standings")
    class OutputSerializer(serializers.Serializer):
        event = serializers.IntegerField()
        current = serializers.BooleanField(help_text="False while the standings task catches up with new results.")
        results_version = serializers.IntegerField()
        standings = StandingOutput(many=True)

    @extend_schema(responses={200: OutputSerializer, **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        return Response(
            self.OutputSerializer(
                {
                    "event": event.pk,
                    "current": event.standings_current,
                    "results_version": event.standings_version,
                    "standings": selectors.event_standings(event=event),
                }
            ).data
        )


class PlayerListCreateApi(APIView):
    class FilterSerializer(serializers.Serializer):
        q = serializers.CharField(
            required=False, allow_blank=True, trim_whitespace=False,
            help_text="Only players whose display name contains this (any case).",
        )  # fmt: skip

    @extend_schema_serializer(component_name="PlayerCreate")
    class InputSerializer(serializers.Serializer):
        display_name = serializers.CharField(max_length=100)
        external_id = serializers.CharField(max_length=64, required=False, allow_blank=True)

    @extend_schema(
        parameters=[FilterSerializer],
        responses={200: PlayerOutput(many=True), **error_responses("invalid")},
    )
    def get(self, request: Request) -> Response:
        """Players by name, at most 500."""
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        players = Player.objects.all()
        if filters.validated_data.get("q"):
            players = players.filter(display_name__icontains=filters.validated_data["q"])
        return Response(PlayerOutput(players[:500], many=True).data)

    @extend_schema(
        request=InputSerializer, responses={201: PlayerOutput, **error_responses(*BODY, *SIGNED_IN, "duplicate_player")}
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.player_create(**serializer.validated_data)
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)
