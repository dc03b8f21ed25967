from django.urls import path

from decks import views

urlpatterns = [
    path("events/<int:event_id>/deck/", views.player_deck, name="player-deck"),
    path("events/<int:event_id>/deck/status/", views.deck_status_fragment, name="player-deck-status"),
    path("events/<int:event_id>/decks/<int:registration_id>/", views.public_decklist, name="decklist"),
    path("dashboard/events/<int:event_id>/decks/", views.organiser_decks, name="organiser"),
    path("dashboard/events/<int:event_id>/decks/progress/", views.recheck_progress, name="recheck-progress"),
    path("dashboard/events/<int:event_id>/decks/recheck/", views.recheck_start, name="recheck"),
    path("dashboard/events/<int:event_id>/decks/publish/", views.publish, name="publish"),
    path("dashboard/events/<int:event_id>/decks/options/", views.deck_options, name="options"),
    path("dashboard/events/<int:event_id>/decks/<int:registration_id>/ruling/", views.ruling, name="ruling"),
    path(
        "dashboard/events/<int:event_id>/decks/<int:registration_id>/ruling/clear/",
        views.ruling_clear,
        name="ruling-clear",
    ),
]
