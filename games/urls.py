"""The judge console's pages; included by ``config.urls`` under the ``games`` namespace."""

from django.urls import path

from games import views

urlpatterns = [
    path(
        "dashboard/events/<int:event_id>/rounds/<int:number>/tables/<int:table>/game/",
        views.console_table,
        name="console-table",
    ),
    path(
        "dashboard/events/<int:event_id>/rounds/<int:number>/tables/<int:table>/game/start/",
        views.console_create,
        name="console-create",
    ),
    path("dashboard/games/<int:game_id>/", views.console, name="console"),
    path("dashboard/games/<int:game_id>/events/", views.console_append, name="console-append"),
    path("dashboard/games/<int:game_id>/events/<int:seq>/void/", views.console_void, name="console-void"),
]
