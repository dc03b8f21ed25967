from django.urls import path

from tournaments.apis import (
    audit,
    events,
    formats,
    penalties,
    phases,
    players,
    registrations,
    results,
    rounds,
    staff,
    standings,
)

E = "events/<int:event_id>/"
R = E + "registrations/<int:registration_id>/"
T = E + "rounds/<int:number>/tables/<int:table>/"

urlpatterns = [
    path("formats/", formats.FormatListApi.as_view(), name="format-list"),
    path("players/", players.PlayerListCreateApi.as_view(), name="player-list"),
    path("players/claim/", players.PlayerClaimApi.as_view(), name="player-claim"),
    path("events/", events.EventListCreateApi.as_view(), name="event-list"),
    path(E, events.EventDetailApi.as_view(), name="event-detail"),
    path(E + "finish/", events.EventFinishApi.as_view(), name="event-finish"),
    path(E + "structure/", events.EventStructureApi.as_view(), name="event-structure"),
    path(E + "top-cut/", events.TopCutStartApi.as_view(), name="top-cut-start"),
    path(E + "phases/", phases.EventPhasesApi.as_view(), name="event-phases"),
    path(E + "phases/<int:number>/advance/", phases.PhaseAdvanceApi.as_view(), name="phase-advance"),
    path(E + "phases/<int:number>/advance/undo/", phases.PhaseAdvanceUndoApi.as_view(), name="phase-advance-undo"),
    path(E + "phases/<int:number>/standings/", phases.PhaseStandingsApi.as_view(), name="phase-standings"),
    path(E + "staff/", staff.EventStaffApi.as_view(), name="event-staff"),
    path(E + "staff/<str:username>/", staff.EventStaffRemoveApi.as_view(), name="event-staff-remove"),
    path(E + "audit/", audit.EventAuditApi.as_view(), name="event-audit"),
    path(E + "penalties/", penalties.PenaltyListIssueApi.as_view(), name="penalty-list"),
    path(E + "penalties/<int:penalty_id>/rescind/", penalties.PenaltyRescindApi.as_view(), name="penalty-rescind"),
    path(E + "register/", registrations.EventRegisterApi.as_view(), name="event-register"),
    path(E + "registrations/", registrations.RegistrationListCreateApi.as_view(), name="registration-list"),
    path(E + "registrations/import/", registrations.RosterImportApi.as_view(), name="registration-import"),
    path(R, registrations.RegistrationDetailApi.as_view(), name="registration-detail"),
    path(R + "byes/", registrations.ByeAssignApi.as_view(), name="registration-bye-assign"),
    path(R + "byes/<int:number>/", registrations.ByeUnassignApi.as_view(), name="registration-bye-unassign"),
    path(R + "check-in/", registrations.RegistrationCheckInApi.as_view(), name="registration-check-in"),
    path(
        R + "stream-consent/", registrations.RegistrationStreamConsentApi.as_view(), name="registration-stream-consent"
    ),
    path(R + "drop/", registrations.RegistrationDropApi.as_view(), name="registration-drop"),
    path(R + "undrop/", registrations.RegistrationUndropApi.as_view(), name="registration-undrop"),
    path(R + "withdraw/", registrations.RegistrationWithdrawApi.as_view(), name="registration-withdraw"),
    path(R + "accept/", registrations.RegistrationAcceptApi.as_view(), name="registration-accept"),
    path(R + "decline/", registrations.RegistrationDeclineApi.as_view(), name="registration-decline"),
    path(R + "claim-code/", registrations.PlayerClaimCodeApi.as_view(), name="registration-claim-code"),
    path(E + "rounds/", rounds.RoundListStartApi.as_view(), name="round-list"),
    path(E + "rounds/<int:number>/", rounds.RoundDetailApi.as_view(), name="round-detail"),
    path(E + "rounds/<int:number>/repair/", rounds.RoundRepairApi.as_view(), name="round-repair"),
    path(E + "rounds/<int:number>/swap/", rounds.RoundSwapApi.as_view(), name="round-swap"),
    path(E + "rounds/<int:number>/publish/", rounds.RoundPublishApi.as_view(), name="round-publish"),
    path(E + "rounds/<int:number>/undo/", rounds.RoundUndoApi.as_view(), name="round-undo"),
    path(T + "result/", results.ResultReportApi.as_view(), name="result-report"),
    path(T + "report/", results.TablePlayerReportApi.as_view(), name="result-player-report"),
    path(T + "confirm/", results.TableConfirmApi.as_view(), name="result-confirm"),
    path(T + "report/accept/", results.TableReportAcceptApi.as_view(), name="result-report-accept"),
    path(T + "correction/", results.ResultCorrectApi.as_view(), name="result-correct"),
    path(E + "standings/", standings.StandingsApi.as_view(), name="standings"),
]
