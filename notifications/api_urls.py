"""The notifications API's URLs; included by ``config.urls`` under ``api/v1/`` (namespace ``notifications-api``)."""

from django.urls import path

from notifications import apis

urlpatterns = [
    path("me/notifications/", apis.NotificationSettingsApi.as_view(), name="settings"),
    path("me/push-subscriptions/", apis.PushSubscriptionApi.as_view(), name="push-subscriptions"),
]
