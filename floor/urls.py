"""The venue floor's pages; included by ``config.urls`` under the ``floor`` namespace."""

from django.urls import path, register_converter


class _Choice:
    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class CallAction(_Choice):
    """What a judge does to a call: anything else is no page (404)."""

    regex = "claim|resolve|cancel"


class PlayerCallAction(_Choice):
    regex = "call|cancel"


class CheckAction(_Choice):
    regex = "start|finish|penalty"


register_converter(CallAction, "call_action")
register_converter(PlayerCallAction, "player_call_action")
register_converter(CheckAction, "check_action")

from floor import views  # noqa: E402

D = "dashboard/events/<int:event_id>/"

urlpatterns = [
    path(D + "judge/", views.judge_page, name="judge"),
    path(D + "judge/calls/", views.judge_call_open, name="judge-call-open"),
    path(D + "judge/calls/<int:call_id>/<call_action:action>/", views.judge_call_action, name="judge-call-action"),
    path(D + "judge/assignments/", views.judge_assign, name="judge-assign"),
    path(D + "judge/assignments/<int:assignment_id>/unassign/", views.judge_unassign, name="judge-unassign"),
    path(D + "deck-checks/", views.deck_checks, name="deck-checks"),
    path(D + "deck-checks/export.csv", views.deck_checks_export, name="deck-checks-export"),
    path(D + "deck-checks/<int:check_id>/<check_action:action>/", views.deck_check_action, name="deck-check-action"),
    path("events/<int:event_id>/judge-call/<player_call_action:action>/", views.player_call, name="player-call"),
]
