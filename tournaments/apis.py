"""REST API of the tournaments app (``/api/v1/``).

One view per operation; input and output serializers sit with the view.
Views translate HTTP to a service call or a selector and back; the rules live
in :mod:`tournaments.services`.  Errors use the shape of :mod:`core.api`.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.formats import FORMATS
from tournaments import selectors, services
from tournaments.models import Event, Player, PodResult, Registration

# --- shared output shapes ---------------------------------------------------------------------


class PlayerOutput(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    external_id = serializers.CharField(allow_null=True)


class EventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    status = serializers.CharField()
    planned_rounds = serializers.IntegerField()
    date = serializers.DateField()
    venue = serializers.CharField()
    organiser = serializers.CharField(source="organiser.username")
    tiebreakers = serializers.CharField()
    standings_current = serializers.BooleanField()


class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField(source="seat_order")
    player = PlayerOutput()
    placement = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)


class TableOutput(serializers.Serializer):
    table = serializers.IntegerField(source="table_number", allow_null=True)
    bye = serializers.BooleanField(source="is_bye")
    reported = serializers.SerializerMethodField()
    seats = SeatOutput(many=True)

    def get_reported(self, pod) -> bool:
        return hasattr(pod, "result")


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    seed = serializers.CharField()  # a 62-bit integer: a string so JavaScript clients keep every digit
    rematches = serializers.IntegerField()
    completed = serializers.SerializerMethodField()
    tables = serializers.SerializerMethodField()

    def get_completed(self, round_) -> bool:
        return round_.completed_at is not None

    @extend_schema(responses=TableOutput(many=True))
    def get_tables(self, round_) -> list[dict]:
        return TableOutput(selectors.round_pods(round_=round_), many=True).data


def _event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("organiser"), pk=event_id)


# --- formats ---------------------------------------------------------------------------------


class FormatListApi(APIView):
    permission_classes = [AllowAny]

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
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        format = serializers.ChoiceField(choices=sorted(FORMATS))
        planned_rounds = serializers.IntegerField(min_value=1, max_value=30)
        date = serializers.DateField()
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
        tiebreakers = serializers.ChoiceField(choices=Event.Tiebreakers.values, default=Event.Tiebreakers.CLASSIC)

    @extend_schema(responses=EventOutput(many=True))
    def get(self, request: Request) -> Response:
        events = selectors.event_list()
        fmt = request.query_params.get("format")
        if fmt:
            events = events.filter(format=fmt)
        return Response(EventOutput(events[:500], many=True).data)

    @extend_schema(request=InputSerializer, responses={201: EventOutput})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = services.event_create(organiser=request.user, **serializer.validated_data)
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


class EventDetailApi(APIView):
    @extend_schema(responses=EventOutput)
    def get(self, request: Request, event_id: int) -> Response:
        return Response(EventOutput(_event(event_id)).data)


class EventFinishApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=EventOutput)
    def post(self, request: Request, event_id: int) -> Response:
        event = services.event_finish(event=_event(event_id), by=request.user)
        return Response(EventOutput(event).data)


# --- registrations -------------------------------------------------------------------------------


class RegistrationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    player = PlayerOutput()
    checked_in = serializers.BooleanField()
    dropped = serializers.BooleanField()
    dropped_after_round = serializers.IntegerField(allow_null=True)


class RegistrationListCreateApi(APIView):
    class InputSerializer(serializers.Serializer):
        player = serializers.IntegerField(required=False, help_text="Id of an existing player.")
        display_name = serializers.CharField(max_length=100, required=False, help_text="Name of a new player.")
        external_id = serializers.CharField(max_length=64, required=False, allow_blank=True)
        checked_in = serializers.BooleanField(default=False)

        def validate(self, data: dict) -> dict:
            if "player" not in data and not data.get("display_name", "").strip():
                raise serializers.ValidationError({"display_name": ["Give an existing player's id or a display name."]})
            return data

    @extend_schema(responses=RegistrationOutput(many=True))
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        return Response(RegistrationOutput(selectors.event_registrations(event=event), many=True).data)

    @extend_schema(request=InputSerializer, responses={201: RegistrationOutput})
    def post(self, request: Request, event_id: int) -> Response:
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

    class InputSerializer(serializers.Serializer):
        checked_in = serializers.BooleanField(default=True)

    @extend_schema(request=InputSerializer, responses=RegistrationOutput)
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = services.registration_check_in(
            registration=_registration(event_id, registration_id), by=request.user, **serializer.validated_data
        )
        return Response(RegistrationOutput(registration).data)


class RegistrationDropApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=RegistrationOutput)
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        registration = services.registration_drop(
            registration=_registration(event_id, registration_id), by=request.user
        )
        return Response(RegistrationOutput(registration).data)


# --- rounds, pairings and results ----------------------------------------------------------------


class RoundListStartApi(APIView):
    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        return Response(RoundOutput(event.rounds.order_by("number"), many=True).data)

    @extend_schema(request=None, responses={201: RoundOutput})
    def post(self, request: Request, event_id: int) -> Response:
        """Start the next round: pair players and return the tables with their seats."""
        round_ = services.round_start(event=_event(event_id), by=request.user)
        return Response(RoundOutput(round_).data, status=status.HTTP_201_CREATED)


class RoundDetailApi(APIView):
    @extend_schema(responses=RoundOutput)
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = _event(event_id)
        round_ = get_object_or_404(event.rounds, number=number)
        return Response(RoundOutput(round_).data)


class PlacementInput(serializers.Serializer):
    player = serializers.IntegerField()
    placement = serializers.IntegerField(min_value=1, max_value=8)


class ResultReportApi(APIView):
    permission_classes = [IsAuthenticated]

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

    @extend_schema(request=InputSerializer, responses={201: TableOutput, 200: TableOutput})
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
    class OutputSerializer(serializers.Serializer):
        event = serializers.IntegerField()
        current = serializers.BooleanField(help_text="False while the standings task catches up with new results.")
        results_version = serializers.IntegerField()
        standings = StandingOutput(many=True)

    @extend_schema(responses=OutputSerializer)
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
    class InputSerializer(serializers.Serializer):
        display_name = serializers.CharField(max_length=100)
        external_id = serializers.CharField(max_length=64, required=False, allow_blank=True)

    @extend_schema(responses=PlayerOutput(many=True))
    def get(self, request: Request) -> Response:
        players = Player.objects.all()
        q = request.query_params.get("q")
        if q:
            players = players.filter(display_name__icontains=q)
        return Response(PlayerOutput(players[:500], many=True).data)

    @extend_schema(request=InputSerializer, responses={201: PlayerOutput})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.player_create(**serializer.validated_data)
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)
