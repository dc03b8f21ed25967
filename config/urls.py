from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.apis import MeApi, SignUpApi
from core.api import TokenCreateApi, UnknownApi

urlpatterns = [
    path("admin/", admin.site.urls),
    # Sign-in and sign-out keep their URLs and names ("login", "logout"); sign-up and passwords join them.
    path("accounts/", include("accounts.auth_urls")),
    path("api/v1/me/", MeApi.as_view(), name="me"),
    path("api/v1/", include("tournaments.api_urls")),
    path("api/v1/", include("decks.api_urls")),
    path("api/v1/", include("games.api_urls")),
    path("api/v1/", include(("live.api_urls", "live-api"))),
    path("api/v1/auth/token/", TokenCreateApi.as_view(), name="api-token"),
    path("api/v1/auth/signup/", SignUpApi.as_view(), name="api-signup"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    # Ending in a slash, like every API URL: a URL without one still gets APPEND_SLASH's redirect.
    re_path(r"^api/[\s\S]*/$", UnknownApi.as_view()),
    path("dashboard/", include(("tournaments.dashboard_urls", "dashboard"))),
    path("", include("accounts.urls")),
    path("", include(("decks.urls", "decks"))),
    path("", include(("games.urls", "games"))),
    path("", include(("live.urls", "live"))),
    path("", include(("tournaments.public_urls", "public"))),
]
