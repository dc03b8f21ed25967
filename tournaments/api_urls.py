from django.urls import path

from tournaments import apis

E = "events/<int:event_id>/"
R = E + "registrations/<int:registration_id>/"
T = E + "rounds/<int:number>/tables/<int:table>/"

urlpatterns = [
    path("formats/", apis.FormatListApi.as_view(), name="format-list"),
    path("players/", apis.PlayerListCreateApi.as_view(), name="player-list"),
    path("players/claim/", apis.PlayerClaimApi.as_view(), name="player-claim"),
    path("events/", apis.EventListCreateApi.as_view(), name="event-list"),
    path(E, apis.EventDetailApi.as_view(), name="event-detail"),
    path(E + "finish/", apis.EventFinishApi.as_view(), name="event-finish"),
    path(E + "structure/", apis.EventStructureApi.as_view(), name="event-structure"),
    path(E + "top-cut/", apis.TopCutStartApi.as_view(), name="top-cut-start"),
    path(E + "staff/", apis.EventStaffApi.as_view(), name="event-staff"),
    path(E + "staff/<str:username>/", apis.EventStaffRemoveApi.as_view(), name="event-staff-remove"),
    path(E + "audit/", apis.EventAuditApi.as_view(), name="event-audit"),
    path(E + "penalties/", apis.PenaltyListIssueApi.as_view(), name="penalty-list"),
    path(E + "penalties/<int:penalty_id>/rescind/", apis.PenaltyRescindApi.as_view(), name="penalty-rescind"),
    path(E + "register/", apis.EventRegisterApi.as_view(), name="event-register"),
    path(E + "registrations/", apis.RegistrationListCreateApi.as_view(), name="registration-list"),
    path(R, apis.RegistrationDetailApi.as_view(), name="registration-detail"),
    path(R + "byes/", apis.ByeAssignApi.as_view(), name="registration-bye-assign"),
    path(R + "byes/<int:number>/", apis.ByeUnassignApi.as_view(), name="registration-bye-unassign"),
    path(R + "check-in/", apis.RegistrationCheckInApi.as_view(), name="registration-check-in"),
    path(R + "drop/", apis.RegistrationDropApi.as_view(), name="registration-drop"),
    path(R + "undrop/", apis.RegistrationUndropApi.as_view(), name="registration-undrop"),
    path(R + "withdraw/", apis.RegistrationWithdrawApi.as_view(), name="registration-withdraw"),
    path(R + "accept/", apis.RegistrationAcceptApi.as_view(), name="registration-accept"),
    path(R + "decline/", apis.RegistrationDeclineApi.as_view(), name="registration-decline"),
    path(R + "claim-code/", apis.PlayerClaimCodeApi.as_view(), name="registration-claim-code"),
    path(E + "rounds/", apis.RoundListStartApi.as_view(), name="round-list"),
    path(E + "rounds/<int:number>/", apis.RoundDetailApi.as_view(), name="round-detail"),
    path(E + "rounds/<int:number>/repair/", apis.RoundRepairApi.as_view(), name="round-repair"),
    path(E + "rounds/<int:number>/swap/", apis.RoundSwapApi.as_view(), name="round-swap"),
    path(T + "result/", apis.ResultReportApi.as_view(), name="result-report"),
    path(T + "report/", apis.TablePlayerReportApi.as_view(), name="result-player-report"),
    path(T + "confirm/", apis.TableConfirmApi.as_view(), name="result-confirm"),
    path(T + "report/accept/", apis.TableReportAcceptApi.as_view(), name="result-report-accept"),
    path(T + "correction/", apis.ResultCorrectApi.as_view(), name="result-correct"),
    path(E + "standings/", apis.StandingsApi.as_view(), name="standings"),
]
