"""The player's pages (namespace ``accounts``); Django's auth views keep their own names (see ``config/urls.py``)."""

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("me/", views.me, name="me"),
    path("me/language/", views.language_setting, name="language"),
    path("claim/", views.claim, name="claim"),
    path("claim/<str:code>/", views.claim, name="claim-link"),
    path("events/<int:event_id>/check-in/", views.check_in, name="check-in"),
    path("events/<int:event_id>/panel/", views.panel, name="panel"),
    path("events/<int:event_id>/register/", views.register, name="register"),
    path("events/<int:event_id>/withdraw/", views.withdraw, name="withdraw"),
    path("events/<int:event_id>/invitation/accept/", views.invitation_accept, name="invitation-accept"),
    path("events/<int:event_id>/invitation/decline/", views.invitation_decline, name="invitation-decline"),
    path("events/<int:event_id>/drop/", views.drop, name="drop"),
    path("events/<int:event_id>/stream-consent/", views.stream_consent, name="stream-consent"),
    path("events/<int:event_id>/result/", views.report, name="report"),
    path("events/<int:event_id>/result/answer/", views.respond, name="respond"),
]
