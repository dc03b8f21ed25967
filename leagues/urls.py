from django.urls import path

from leagues import views

urlpatterns = [
    path("leagues/", views.league_list, name="list"),
    path("leagues/new/", views.league_create, name="create"),
    path("leagues/<int:league_id>/", views.league_detail, name="league"),
    path("leagues/<int:league_id>/manage/", views.league_manage, name="manage"),
    path("leagues/<int:league_id>/manage/seasons/", views.season_create, name="season-create"),
    path("leagues/<int:league_id>/manage/staff/", views.league_staff_add, name="staff-add"),
    path("leagues/<int:league_id>/manage/seasons/<int:season_id>/points/", views.season_points, name="season-points"),
    path("leagues/<int:league_id>/manage/seasons/<int:season_id>/events/", views.season_event_add, name="season-event"),
    path("seasons/<int:season_id>/", views.season_detail, name="season"),
    path("seasons/<int:season_id>/meta/", views.season_meta, name="season-meta"),
    path("seasons/<int:season_id>/standings.csv", views.export_season_csv, name="season-csv"),
    path("seasons/<int:season_id>/seats/", views.season_seats, name="season-seats"),
    path("seasons/<int:season_id>/seats.csv", views.export_season_seats_csv, name="season-seats-csv"),
    path("events/<int:event_id>/seats/", views.event_seats, name="event-seats"),
    path("events/<int:event_id>/export/seats.csv", views.export_seats_csv, name="export-seats"),
    path("events/<int:event_id>/meta/", views.event_meta, name="event-meta"),
    path("events/<int:event_id>/export/standings.csv", views.export_standings_csv, name="export-standings"),
    path("events/<int:event_id>/export/results.csv", views.export_results_csv, name="export-results"),
    path("events/<int:event_id>/export/decklists.csv", views.export_decklists_csv, name="export-decklists"),
    path("events/<int:event_id>/export/standings.json", views.export_standings_json, name="export-json"),
    path("events/<int:event_id>/export/event.tdf", views.export_tdf, name="export-tdf"),
    path("dashboard/events/<int:event_id>/archetypes/", views.event_archetypes, name="archetypes"),
    path(
        "dashboard/events/<int:event_id>/archetypes/<int:registration_id>/",
        views.archetype_name,
        name="archetype-name",
    ),
    path("ratings/<slug:format_slug>/", views.leaderboard, name="leaderboard"),
    path("players/<int:player_id>/ratings/", views.player_ratings, name="player-ratings"),
]
