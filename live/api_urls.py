from django.urls import path

from live import apis, streams

E = "events/<int:event_id>/"
R = E + "rounds/<int:number>/"

urlpatterns = [
    path(E + "stream/", streams.event_stream, name="event-stream"),
    path(E + "live/", apis.LiveSnapshotApi.as_view(), name="event-live"),
    path(E + "bracket/", apis.BracketApi.as_view(), name="event-bracket"),
    path(E + "stations/", apis.StationListCreateApi.as_view(), name="station-list"),
    path(E + "stations/<slug:slug>/", apis.StationDetailApi.as_view(), name="station-detail"),
    path(E + "stations/<slug:slug>/stream/", streams.station_stream, name="station-stream"),
    path(E + "judge-calls/stream/", streams.staff_stream, name="judge-call-stream"),
    path(E + "overlay-tokens/", apis.OverlayTokenListCreateApi.as_view(), name="overlay-token-list"),
    path(
        E + "overlay-tokens/<int:token_id>/revoke/", apis.OverlayTokenRevokeApi.as_view(), name="overlay-token-revoke"
    ),
    path(R + "timer/", apis.TimerApi.as_view(), name="timer"),
    path(R + "timer/start/", apis.TimerStartApi.as_view(), name="timer-start"),
    path(R + "timer/pause/", apis.TimerPauseApi.as_view(), name="timer-pause"),
    path(R + "timer/resume/", apis.TimerResumeApi.as_view(), name="timer-resume"),
    path(R + "timer/extend/", apis.TimerExtendApi.as_view(), name="timer-extend"),
    path(R + "tables/<int:table>/extension/", apis.TableExtensionApi.as_view(), name="table-extension"),
]
