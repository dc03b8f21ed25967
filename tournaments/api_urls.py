from django.urls import path

from tournaments import apis

urlpatterns = [
    path("formats/", apis.FormatListApi.as_view(), name="format-list"),
    path("players/", apis.PlayerListCreateApi.as_view(), name="player-list"),
    path("events/", apis.EventListCreateApi.as_view(), name="event-list"),
    path("events/<int:event_id>/", apis.EventDetailApi.as_view(), name="event-detail"),
    path("events/<int:event_id>/finish/", apis.EventFinishApi.as_view(), name="event-finish"),
    path("events/<int:event_id>/registrations/", apis.RegistrationListCreateApi.as_view(), name="registration-list"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/check-in/",
        apis.RegistrationCheckInApi.as_view(),
        name="registration-check-in",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/drop/",
        apis.RegistrationDropApi.as_view(),
        name="registration-drop",
    ),
    path("events/<int:event_id>/rounds/", apis.RoundListStartApi.as_view(), name="round-list"),
    path("events/<int:event_id>/rounds/<int:number>/", apis.RoundDetailApi.as_view(), name="round-detail"),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/result/",
        apis.ResultReportApi.as_view(),
        name="result-report",
    ),
    path("events/<int:event_id>/standings/", apis.StandingsApi.as_view(), name="standings"),
]
