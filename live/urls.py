from django.urls import path, register_converter

from live import views


class TimerAction:
    """What the round timer's buttons post: anything else is no page (404)."""

    regex = "start|pause|resume|extend"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TimerAction, "timer_action")

L = "live/events/<int:event_id>/"

urlpatterns = [
    path("events/<int:event_id>/bracket/", views.bracket_page, name="bracket"),
    path(L + "stations/<slug:slug>/", views.station_overlay, name="station-overlay"),
    path(L + "overlays/standings/", views.standings_overlay, name="standings-overlay"),
    path(L + "overlays/pairings/", views.pairings_overlay, name="pairings-overlay"),
    path(L + "overlays/bracket/", views.bracket_overlay, name="bracket-overlay"),
    path(L + "overlays/timer/", views.timer_overlay, name="timer-overlay"),
    path(L + "display/", views.venue_display, name="display"),
    path(L + "caster/", views.caster, name="caster"),
    path(L + "caster/stations/", views.caster_station_add, name="caster-station-add"),
    path(L + "caster/stations/<slug:slug>/", views.caster_station_update, name="caster-station-update"),
    path(L + "caster/tokens/", views.caster_token_add, name="caster-token-add"),
    path(L + "caster/tokens/<int:token_id>/revoke/", views.caster_token_revoke, name="caster-token-revoke"),
    path(L + "timer/", views.timer_card, name="timer-card"),
    path(L + "rounds/<int:number>/timer/<timer_action:action>/", views.timer_action, name="timer-action"),
    path(L + "rounds/<int:number>/tables/<int:table>/extension/", views.table_extension, name="table-extension"),
    path(L + "print/pairings/", views.print_pairings, name="print-pairings"),
    path(L + "print/slips/", views.print_slips, name="print-slips"),
    path(L + "print/standings/", views.print_standings, name="print-standings"),
    path(L + "print/bracket/", views.print_bracket, name="print-bracket"),
]
