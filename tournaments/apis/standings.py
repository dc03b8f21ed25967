"""An event's standings, paged."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import Pagination, error_responses, page_parameters
from core.doorway import enter
from tournaments import doors, selectors
from tournaments.apis.outputs import PlayerOutput, serializer_context


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
        event = enter(request, doors.EVENT, event_id)
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
