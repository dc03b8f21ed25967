from django.urls import path

from leagues import apis

L = "leagues/<int:league_id>/"
S = "seasons/<int:season_id>/"

urlpatterns = [
    path("points-presets/", apis.PresetListApi.as_view(), name="points-presets"),
    path("leagues/", apis.LeagueListCreateApi.as_view(), name="league-list"),
    path(L, apis.LeagueDetailApi.as_view(), name="league-detail"),
    path(L + "staff/", apis.LeagueStaffApi.as_view(), name="league-staff"),
    path(L + "staff/<str:username>/", apis.LeagueStaffRemoveApi.as_view(), name="league-staff-remove"),
    path(L + "seasons/", apis.SeasonCreateApi.as_view(), name="season-create"),
    path(S, apis.SeasonDetailApi.as_view(), name="season-detail"),
    path(S + "events/", apis.SeasonEventAddApi.as_view(), name="season-event-add"),
    path(S + "events/<int:event_id>/", apis.SeasonEventRemoveApi.as_view(), name="season-event-remove"),
    path(S + "standings/", apis.SeasonStandingsApi.as_view(), name="season-standings"),
    path(S + "meta/", apis.SeasonMetaApi.as_view(), name="season-meta"),
    path(S + "seats/", apis.SeasonSeatsApi.as_view(), name="season-seats"),
    path("events/<int:event_id>/seats/", apis.EventSeatsApi.as_view(), name="event-seats"),
    path("events/<int:event_id>/meta/", apis.EventMetaApi.as_view(), name="event-meta"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/archetype/",
        apis.ArchetypeNameApi.as_view(),
        name="registration-archetype",
    ),
    path("ratings/<str:format_slug>/", apis.LeaderboardApi.as_view(), name="leaderboard"),
    path("players/<int:player_id>/ratings/", apis.PlayerRatingsApi.as_view(), name="player-ratings"),
]
