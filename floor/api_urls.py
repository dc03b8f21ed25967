"""The venue floor's API URLs; included by ``config.urls`` under ``api/v1/`` (namespace ``floor-api``).  The judges'
live stream, ``events/{id}/judge-calls/stream/``, is :mod:`live.streams`'s."""

from django.urls import path

from floor import apis

E = "events/<int:event_id>/"
C = E + "judge-calls/<int:call_id>/"
D = E + "deck-checks/<int:check_id>/"

urlpatterns = [
    path(E + "judge-calls/", apis.JudgeCallListOpenApi.as_view(), name="judge-call-list"),
    path(C + "claim/", apis.JudgeCallClaimApi.as_view(), name="judge-call-claim"),
    path(C + "resolve/", apis.JudgeCallResolveApi.as_view(), name="judge-call-resolve"),
    path(C + "cancel/", apis.JudgeCallCancelApi.as_view(), name="judge-call-cancel"),
    path(E + "deck-checks/", apis.DeckCheckListPickApi.as_view(), name="deck-check-list"),
    path(D + "start/", apis.DeckCheckStartApi.as_view(), name="deck-check-start"),
    path(D + "finish/", apis.DeckCheckFinishApi.as_view(), name="deck-check-finish"),
    path(D + "penalties/", apis.DeckCheckPenaltyApi.as_view(), name="deck-check-penalty"),
    path(E + "judge-assignments/", apis.JudgeAssignmentListCreateApi.as_view(), name="judge-assignment-list"),
    path(
        E + "judge-assignments/<int:assignment_id>/unassign/",
        apis.JudgeAssignmentUnassignApi.as_view(),
        name="judge-assignment-unassign",
    ),
]
