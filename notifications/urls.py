"""The notifications pages (namespace ``notifications``): the player's choices, and the e-mails' unsubscribe link."""

from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("me/notifications/", views.preferences, name="settings"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
