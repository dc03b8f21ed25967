from django.urls import path

from tournaments import apis

urlpatterns = [
    path("formats/", apis.FormatListApi.as_view(), name="format-list"),
    path("players/", apis.PlayerListCreateApi.as_view(), name="player-list"),
    path("events/", apis.EventListCreateApi.as_view(), name="event-list"),
    path("events/<int:event_id>/", apis.EventDetailApi.as_view(), name="event-detail"),
    path("events/<int:event_id>/finish/", apis.EventFinishApi.as_view(), name="event-finish"),
    path("events/<int:event_id>/structure/", apis.EventStructureApi.as_view(), name="event-structure"),
    path("events/<int:event_id>/top-cut/", apis.TopCutStartApi.as_view(), name="top-cut-start"),
    path("events/<int:event_id>/registrations/", apis.RegistrationListCreateApi.as_view(), name="registration-list"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/",
        apis.RegistrationDetailApi.as_view(),
        name="registration-detail",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/byes/",
        apis.ByeAssignApi.as_view(),
        name="registration-bye-assign",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/byes/<int:number>/",
        apis.ByeUnassignApi.as_view(),
        name="registration-bye-unassign",
    ),
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
    path("events/<int:event_id>/rounds/<int:number>/repair/", apis.RoundRepairApi.as_view(), name="round-repair"),
    path("events/<int:event_id>/rounds/<int:number>/swap/", apis.RoundSwapApi.as_view(), name="round-swap"),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/result/",
        apis.ResultReportApi.as_view(),
        name="result-report",
    ),
    path("events/<int:event_id>/standings/", apis.StandingsApi.as_view(), name="standings"),
]
