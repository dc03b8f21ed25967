from django.urls import path

from tournaments.views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("events/", public.events, name="events"),
    path("events/<int:event_id>/", public.public_event, name="event"),
    path("events/<int:event_id>/pairings/", public.public_pairings, name="pairings"),
    path("events/<int:event_id>/pairings/by-name/", public.public_pairings_by_name, name="pairings-by-name"),
    path("events/<int:event_id>/standings/", public.public_standings, name="standings"),
    path("formats/<slug:slug>/", public.format_rules, name="format-rules"),
]
