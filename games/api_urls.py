from django.urls import path

from games import apis

urlpatterns = [
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/games/",
        apis.GameCreateApi.as_view(),
        name="game-create",
    ),
    path("games/<int:game_id>/", apis.GameStateApi.as_view(), name="game-state"),
    path("games/<int:game_id>/events/", apis.GameEventListAppendApi.as_view(), name="game-events"),
    path("games/<int:game_id>/events/<int:seq>/void/", apis.GameEventVoidApi.as_view(), name="game-event-void"),
]
