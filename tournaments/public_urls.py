from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("events/<int:event_id>/", views.public_event, name="event"),
    path("events/<int:event_id>/pairings/", views.public_pairings, name="pairings"),
    path("events/<int:event_id>/pairings/by-name/", views.public_pairings_by_name, name="pairings-by-name"),
    path("events/<int:event_id>/standings/", views.public_standings, name="standings"),
    path("formats/<slug:slug>/", views.format_rules, name="format-rules"),
]
