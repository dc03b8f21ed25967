"""The leagues API: leagues, seasons, season standings, ratings, the meta report.

Anyone reads public leagues, leaderboards and meta reports; a private league
answers 404 to whoever may not read it.  Changes need a signed-in user whom
:mod:`tournaments.policy` allows.  Lists are paginated with ``limit`` and
``offset`` (``count``, ``next``, ``previous``, ``results``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, SIGNED_IN, STAFF, Pagination, error_responses, id_field
from core.doorway import enter
from leagues import doors as league_doors
from leagues import selectors, services
from leagues.models import League, Season
from leagues.points import PRESETS
from tournaments import doors
from tournaments.models import EventStaff

# --- output ------------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="PointsTable")
class PointsTableSerializer(serializers.Serializer):
    placement = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=10_000), min_length=2,
                                    max_length=2),
        required=False, max_length=64,
        help_text="[down to placing, points] bands: [[1, 15], [2, 12], [4, 10]] is 1st 15, 2nd 12, 3rd-4th 10.",
    )  # fmt: skip
    match_win = serializers.IntegerField(min_value=0, max_value=10_000, required=False, help_text="Per 1v1 match won.")
    match_draw = serializers.IntegerField(min_value=0, max_value=10_000, required=False)
    pod_placement = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=10_000), required=False, max_length=8,
        help_text="Per pod: points for 1st, 2nd, ...",
    )  # fmt: skip
    attendance = serializers.IntegerField(min_value=0, max_value=10_000, required=False)
    best_n = serializers.IntegerField(
        min_value=1, max_value=1000, required=False, allow_null=True, help_text="Count the best N events; null: all."
    )


@extend_schema_serializer(component_name="PointsPreset")
class PresetOutput(serializers.Serializer):
    slug = serializers.CharField()
    # DRF takes fields out of the class; the stubs see Field's attribute overridden (djangorestframework-stubs#158).
    label = serializers.CharField()  # type: ignore[assignment]
    description = serializers.CharField()
    points_table = serializers.SerializerMethodField()

    def get_points_table(self, preset) -> PointsTableSerializer:
        return preset.table.as_json()


@extend_schema_serializer(component_name="SeasonSummary")
class SeasonSummaryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


@extend_schema_serializer(component_name="League")
class LeagueOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    formats = serializers.ListField(child=serializers.CharField())
    is_public = serializers.BooleanField()
    organiser = serializers.CharField(source="organiser.username")


@extend_schema_serializer(component_name="LeagueDetail")
class LeagueDetailOutput(LeagueOutput):
    seasons = SeasonSummaryOutput(many=True)


@extend_schema_serializer(component_name="SeasonEvent")
class SeasonEventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    date = serializers.DateField()
    status = serializers.CharField()
    decklists_public = serializers.BooleanField()


#: Where :func:`_season_answer` puts a season's events, in date order, for :class:`SeasonOutput` (the model has no
#: such attribute: its events are linked through ``season_events``).
SEASON_EVENTS_ATTR = "events"


@extend_schema_serializer(component_name="Season")
class SeasonOutput(serializers.Serializer):
    id = serializers.IntegerField()
    league = serializers.IntegerField(source="league_id")
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    preset = serializers.CharField(help_text="The preset the points table started from, or custom.")
    points_table = PointsTableSerializer()
    current = serializers.BooleanField(source="standings_current", help_text="False while the season task catches up.")
    events = SeasonEventOutput(many=True)


@extend_schema_serializer(component_name="SeasonStanding")
class SeasonStandingOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.SerializerMethodField()
    points = serializers.IntegerField()
    events_played = serializers.IntegerField()
    events_counted = serializers.IntegerField(help_text="Events counted towards the points (the best N).")
    average_placing = serializers.FloatField()
    best_placing = serializers.IntegerField()
    head_to_head = serializers.BooleanField(help_text="Head-to-head decided this player's place against a tie.")
    events = serializers.ListField(child=serializers.DictField(), help_text="{event, points, placing, counted}")

    def get_player(self, line) -> dict:
        return {"id": line.player_id, "display_name": line.player.display_name}


@extend_schema_serializer(component_name="Rating")
class RatingOutput(serializers.Serializer):
    format = serializers.CharField()
    player = serializers.SerializerMethodField()
    rating = serializers.FloatField(help_text="The displayed rating: mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()

    def get_player(self, row) -> dict:
        return {"id": row.player_id, "display_name": row.player.display_name}


@extend_schema_serializer(component_name="RatingChange")
class RatingChangeOutput(serializers.Serializer):
    format = serializers.CharField()
    event = serializers.IntegerField(source="pod.round.event_id")
    event_name = serializers.CharField(source="pod.round.event.name")
    date = serializers.DateField(source="pod.round.event.date")
    placement = serializers.IntegerField()
    rating = serializers.FloatField(source="rating_after")
    mu = serializers.FloatField(source="mu_after")
    sigma = serializers.FloatField(source="sigma_after")
    games = serializers.IntegerField()


@extend_schema_serializer(component_name="MetaRow")
class MetaRowOutput(serializers.Serializer):
    archetype = serializers.CharField()
    hidden = serializers.BooleanField(help_text="Players of events whose decklists are not published: counted only.")
    players = serializers.IntegerField()
    share = serializers.FloatField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    in_cut = serializers.IntegerField()
    conversion = serializers.FloatField(allow_null=True, help_text="Share of its players who made the top cut.")


@extend_schema_serializer(component_name="MetaReport")
class MetaReportOutput(serializers.Serializer):
    players = serializers.IntegerField()
    events = serializers.IntegerField()
    rows = MetaRowOutput(many=True)


@extend_schema_serializer(component_name="SeatFigures")
class SeatFiguresOutput(serializers.Serializer):
    seat = serializers.IntegerField(
        help_text="1 = the first to play in a pod; in 1v1, the player higher in the "
        "standings when the round was paired (who plays first is decided at the table)."
    )
    tables = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="Placement 1, held alone.")
    shared_firsts = serializers.IntegerField(help_text="Placement 1 shared with another seat (a draw).")
    win_rate = serializers.FloatField(help_text="wins / tables.")
    ci95_low = serializers.FloatField(source="low", help_text="The win rate's 95 % Wilson interval: its low end.")
    ci95_high = serializers.FloatField(source="high", help_text="The win rate's 95 % Wilson interval: its high end.")
    average_points = serializers.FloatField()
    average_placement = serializers.FloatField()


@extend_schema_serializer(component_name="SeatGroup")
class SeatGroupOutput(serializers.Serializer):
    format = serializers.CharField()
    table_size = serializers.IntegerField(
        source="size", help_text="Sizes are never pooled: 3- and 4-player pods apart."
    )
    tables = serializers.IntegerField()
    shared_tables = serializers.IntegerField(help_text="Tables whose first place was shared.")
    fair_share = serializers.FloatField(help_text="1 / table_size: each seat's win rate with no seat advantage.")
    too_small = serializers.BooleanField(
        help_text="Fewer tables than min_tables: too few to tell a seat advantage from chance."
    )
    seats = SeatFiguresOutput(many=True)


@extend_schema_serializer(component_name="SeatReport")
class SeatReportOutput(serializers.Serializer):
    groups = SeatGroupOutput(
        many=True, help_text="Per format and table size (Swiss rounds; top-cut seats follow the seeds)."
    )
    byes = serializers.IntegerField(help_text="Byes left out (no table).")
    unreported = serializers.IntegerField(help_text="Tables left out: no result yet.")
    min_tables = serializers.IntegerField()


# --- leagues -----------------------------------------------------------------------------------------


class PresetListApi(generics.ListAPIView):
    pagination_class = Pagination
    serializer_class = PresetOutput

    def get_queryset(self):
        return list(PRESETS.values())

    @extend_schema(responses={200: PresetOutput(many=True)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The points presets a season starts from."""
        return super().get(request, *args, **kwargs)


class LeagueListCreateApi(generics.ListAPIView):
    """Public leagues, and the private ones you run (paginated with ``limit`` and ``offset``)."""

    pagination_class = Pagination
    serializer_class = LeagueOutput

    def get_queryset(self):
        return selectors.league_list(user=self.request.user)

    @extend_schema_serializer(component_name="LeagueCreate")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        formats = serializers.ListField(
            child=serializers.CharField(max_length=40), min_length=1, max_length=10,
            help_text="Format slugs (see /api/v1/formats/): the events its seasons may hold.",
        )  # fmt: skip
        description = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
        is_public = serializers.BooleanField(default=True)

    @extend_schema(responses={200: LeagueOutput(many=True)})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Public leagues, and the private ones you run (paginated)."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        request=InputSerializer, responses={201: LeagueDetailOutput, **error_responses(*BODY, "unknown_format",
                                                                                       *SIGNED_IN)}
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        """Create a league; you become its organiser."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        league = services.league_create(by=request.user, **serializer.validated_data)
        return Response(_league_answer(league, []), status=status.HTTP_201_CREATED)


def _league_answer(league: League, seasons: list[Season]) -> dict:
    data = LeagueOutput(league).data
    data["seasons"] = SeasonSummaryOutput(seasons, many=True).data
    return data


class LeagueDetailApi(APIView):
    @extend_schema_serializer(component_name="LeagueUpdate")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200, required=False)
        formats = serializers.ListField(
            child=serializers.CharField(max_length=40), min_length=1, max_length=10, required=False
        )
        description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
        is_public = serializers.BooleanField(required=False)

    @extend_schema(responses={200: LeagueDetailOutput, **error_responses("not_found")})
    def get(self, request: Request, league_id: int) -> Response:
        league = enter(request, league_doors.LEAGUE, league_id)
        return Response(_league_answer(league, selectors.league_seasons(league=league)))

    @extend_schema(
        request=InputSerializer,
        responses={
            200: LeagueDetailOutput,
            **error_responses(*BODY, "unknown_format", *STAFF, "not_found", "format_in_use"),
        },
    )
    def patch(self, request: Request, league_id: int) -> Response:
        """Change the league's name, description, formats or visibility (its organisers)."""
        league = enter(request, league_doors.LEAGUE, league_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        league = services.league_update(league=league, by=request.user, **serializer.validated_data)
        return Response(_league_answer(league, selectors.league_seasons(league=league)))


class LeagueStaffApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="LeagueStaffAdd")
    class InputSerializer(serializers.Serializer):
        user = serializers.CharField(max_length=150, help_text="The account's username.")
        role = serializers.ChoiceField(choices=EventStaff.Role.choices)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: None,
            **error_responses(*BODY, *STAFF, "not_found", "unknown_user", "already_organiser"),
        },
    )
    def post(self, request: Request, league_id: int) -> Response:
        """Give an account a role in the league: they hold it at every event of its seasons."""
        league = enter(request, league_doors.LEAGUE, league_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.league_staff_add(
            league=league, username=serializer.validated_data["user"], role=serializer.validated_data["role"],
            by=request.user,
        )  # fmt: skip
        return Response(status=status.HTTP_201_CREATED)


class LeagueStaffRemoveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, **error_responses(*STAFF, "not_found", "unknown_user", "not_staff")})
    def delete(self, request: Request, league_id: int, username: str) -> Response:
        league = enter(request, league_doors.LEAGUE, league_id)
        services.league_staff_remove(league=league, username=username, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- seasons -----------------------------------------------------------------------------------------


def _season_answer(season: Season) -> dict:
    setattr(season, SEASON_EVENTS_ATTR, selectors.season_events(season=season))
    return SeasonOutput(season).data


class SeasonCreateApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="SeasonCreate")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        starts_on = serializers.DateField()
        ends_on = serializers.DateField()
        preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False, help_text="Default: balanced.")
        points_table = PointsTableSerializer(required=False, help_text="An edited table (overrides the preset's).")

    @extend_schema(
        request=InputSerializer,
        responses={201: SeasonOutput, **error_responses(*BODY, *STAFF, "not_found", "invalid_points_table")},
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = enter(request, league_doors.LEAGUE, league_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        season = services.season_create(league=league, by=request.user, **serializer.validated_data)
        return Response(_season_answer(season), status=status.HTTP_201_CREATED)


class SeasonDetailApi(APIView):
    @extend_schema_serializer(component_name="SeasonUpdate")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200, required=False)
        starts_on = serializers.DateField(required=False)
        ends_on = serializers.DateField(required=False)
        preset = serializers.ChoiceField(choices=sorted(PRESETS), required=False)
        points_table = PointsTableSerializer(required=False)
        reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="",
                                       help_text="Why (kept in the league's trail).")  # fmt: skip

    @extend_schema(responses={200: SeasonOutput, **error_responses("not_found")})
    def get(self, request: Request, season_id: int) -> Response:
        return Response(_season_answer(enter(request, league_doors.SEASON, season_id)))

    @extend_schema(
        request=InputSerializer,
        responses={200: SeasonOutput, **error_responses(*BODY, *STAFF, "not_found", "invalid_points_table")},
    )
    def patch(self, request: Request, season_id: int) -> Response:
        """Change the season's name, dates or points table: allowed with results (standings are recomputed)."""
        season = enter(request, league_doors.SEASON, season_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        season = services.season_update(season=season, by=request.user, **serializer.validated_data)
        return Response(_season_answer(season))


class SeasonEventAddApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="SeasonEventAdd")
    class InputSerializer(serializers.Serializer):
        event = id_field()
        move = serializers.BooleanField(default=False, help_text="Move it here from the season it is in.")

    @extend_schema(
        request=InputSerializer,
        responses={
            201: SeasonOutput,
            **error_responses(*BODY, *STAFF, "not_found", "format_not_in_league", "event_in_season"),
        },
    )
    def post(self, request: Request, season_id: int) -> Response:
        """Put one of your events in the season (one season per event; the league must hold its format)."""
        season = enter(request, league_doors.SEASON, season_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, serializer.validated_data["event"])
        services.season_event_add(season=season, event=event, by=request.user, move=serializer.validated_data["move"])
        return Response(_season_answer(season), status=status.HTTP_201_CREATED)


class SeasonEventRemoveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, **error_responses(*STAFF, "not_found", "event_not_in_season")})
    def delete(self, request: Request, season_id: int, event_id: int) -> Response:
        season = enter(request, league_doors.SEASON, season_id)
        event = enter(request, doors.EVENT, event_id)
        services.season_event_remove(season=season, event=event, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonStandingsApi(generics.ListAPIView):
    pagination_class = Pagination
    serializer_class = SeasonStandingOutput

    def get_queryset(self):
        return selectors.season_standings(season=enter(self.request, league_doors.SEASON, self.kwargs["season_id"]))

    @extend_schema(responses={200: SeasonStandingOutput(many=True), **error_responses("not_found")})
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The season's standings, best first (paginated): points, then events played, average placing,
        head-to-head."""
        return super().get(request, *args, **kwargs)


class SeasonMetaApi(APIView):
    @extend_schema(responses={200: MetaReportOutput, **error_responses("not_found")})
    def get(self, request: Request, season_id: int) -> Response:
        """The season's meta: archetypes of events whose lists are published; the others counted only."""
        season = enter(request, league_doors.SEASON, season_id)
        report = selectors.meta_report(events=selectors.season_events(season=season))
        return Response(MetaReportOutput(report).data)


class EventMetaApi(APIView):
    @extend_schema(responses={200: MetaReportOutput, **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """The event's meta: its archetypes once its decklists are published, counts only before."""
        event = enter(request, doors.EVENT, event_id)
        return Response(MetaReportOutput(selectors.meta_report(events=[event])).data)


class EventSeatsApi(APIView):
    @extend_schema(responses={200: SeatReportOutput, **error_responses("not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        """How each seat did at the event, per table size: tables, wins, shared firsts, win rate with its 95 %
        Wilson interval, average points and placement (byes and tables without a result left out)."""
        event = enter(request, doors.EVENT, event_id)
        return Response(SeatReportOutput(selectors.event_seat_report(event=event)).data)


class SeasonSeatsApi(APIView):
    @extend_schema(responses={200: SeatReportOutput, **error_responses("not_found")})
    def get(self, request: Request, season_id: int) -> Response:
        """How each seat did over the season's events, per format and table size (as the event's)."""
        season = enter(request, league_doors.SEASON, season_id)
        return Response(SeatReportOutput(selectors.season_seat_report(season=season)).data)


# --- ratings -----------------------------------------------------------------------------------------


class LeaderboardApi(generics.ListAPIView):
    pagination_class = Pagination
    serializer_class = RatingOutput

    class FilterSerializer(serializers.Serializer):
        min_games = serializers.IntegerField(
            min_value=1, max_value=10_000, default=selectors.MIN_GAMES, help_text="Only players with this many games."
        )

    def get_queryset(self):
        format_slug = self.kwargs["format_slug"]
        enter(self.request, doors.FORMAT, format_slug)
        filters = self.FilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return selectors.leaderboard_query(format_slug=format_slug, min_games=filters.validated_data["min_games"])

    @extend_schema(
        parameters=[FilterSerializer],
        responses={200: RatingOutput(many=True), **error_responses("invalid", "not_found")},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The format's leaderboard by displayed rating (mu - 3 sigma), players with at least ``min_games``."""
        return super().get(request, *args, **kwargs)


@extend_schema_serializer(component_name="PlayerRatings")
class PlayerRatingsOutput(serializers.Serializer):
    ratings = RatingOutput(many=True)
    history = RatingChangeOutput(many=True)


class PlayerRatingsApi(APIView):
    @extend_schema(responses={200: PlayerRatingsOutput, **error_responses("not_found")})
    def get(self, request: Request, player_id: int) -> Response:
        """A player's rating in each format and its history, in play order (the last 500 changes)."""
        player = enter(request, league_doors.PLAYER, player_id)
        answer = {
            "ratings": selectors.player_ratings(player=player),
            "history": selectors.rating_history(player=player),
        }
        return Response(PlayerRatingsOutput(answer).data)


# --- archetypes --------------------------------------------------------------------------------------


class ArchetypeNameApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="ArchetypeName")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100, allow_blank=True, help_text="Empty: Podium's name again.")

    @extend_schema(
        request=InputSerializer, responses={200: InputSerializer, **error_responses(*BODY, *STAFF, "not_found")}
    )
    def put(self, request: Request, event_id: int, registration_id: int) -> Response:
        """The organiser's name for the player's deck in the meta report (over the one Podium gives it)."""
        registration = enter(request, league_doors.REGISTRATION, event_id, registration_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        named = services.archetype_name_set(
            registration=registration, name=serializer.validated_data["name"], by=request.user
        )
        return Response({"name": named.name if named else ""})
