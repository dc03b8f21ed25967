from django.urls import path

from decks import apis

urlpatterns = [
    path("deck-checks/", apis.DeckCheckApi.as_view(), name="deck-check"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/decks/",
        apis.DeckVersionListSubmitApi.as_view(),
        name="deck-versions",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/decks/<int:number>/ruling/",
        apis.DeckRulingApi.as_view(),
        name="deck-ruling",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/decks/<int:number>/ruling/clear/",
        apis.DeckRulingClearApi.as_view(),
        name="deck-ruling-clear",
    ),
    path("events/<int:event_id>/decks/", apis.EventDeckStatusApi.as_view(), name="event-decks"),
    path("events/<int:event_id>/deck-options/", apis.EventDeckOptionsApi.as_view(), name="deck-options"),
    path("events/<int:event_id>/decks/recheck/", apis.DeckRecheckApi.as_view(), name="deck-recheck"),
]
