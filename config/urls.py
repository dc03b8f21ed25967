from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import views as account_views
from accounts.apis import MeApi, SignUpApi, TokenCreateApi, TokenRevokeAllApi, TokenRevokeApi
from core import health, language, metrics, pwa
from core.api import SchemaNegotiation, UnknownApi

#: The one exception to the Content-Security-Policy: the API docs page (drf-spectacular's Swagger UI) has inline
#: styles, so its styles may be inline; scripts stay files of Podium's own.
DOCS_CSP = csp_override({**settings.SECURE_CSP, "style-src": [CSP.SELF, CSP.UNSAFE_INLINE]})

urlpatterns = [
    path("admin/", admin.site.urls),
    # Sign-in and sign-out keep their URLs and names ("login", "logout"); sign-up and passwords join them.
    path("accounts/", include("accounts.auth_urls")),
    path("api/v1/me/", MeApi.as_view(), name="me"),
    path("api/v1/", include("tournaments.api_urls")),
    path("api/v1/", include("decks.api_urls")),
    path("api/v1/", include("games.api_urls")),
    path("api/v1/", include("leagues.api_urls")),
    path("api/v1/", include(("live.api_urls", "live-api"))),
    path("api/v1/", include(("floor.api_urls", "floor-api"))),
    path("api/v1/", include(("notifications.api_urls", "notifications-api"))),
    path("api/v1/auth/token/", TokenCreateApi.as_view(), name="api-token"),
    path("api/v1/auth/logout/", TokenRevokeApi.as_view(), name="api-logout"),
    path("api/v1/auth/logout-all/", TokenRevokeAllApi.as_view(), name="api-logout-all"),
    path("api/v1/auth/signup/", SignUpApi.as_view(), name="api-signup"),
    path("api/schema/", SpectacularAPIView.as_view(content_negotiation_class=SchemaNegotiation), name="schema"),
    # Swagger UI with its start-up script served as a file (no inline script), in a page of Podium's own
    # (templates/api/docs.html: its language, title, landmarks and colours with AA contrast).
    path(
        "api/docs/",
        DOCS_CSP(SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/docs.html")),
        name="api-docs",
    ),
    # Ending in a slash, like every API URL: a URL without one still gets APPEND_SLASH's redirect.
    re_path(r"^api/[\s\S]*/$", UnknownApi.as_view()),
    # For operators and load balancers (core.health): the process answers; what it depends on answers.
    path("health/live/", health.live, name="health-live"),
    path("health/ready/", health.ready, name="health-ready"),
    # For Prometheus (core.metrics): only with PODIUM_METRICS_TOKEN or PODIUM_METRICS_NETWORKS, else 404.
    path("metrics", metrics.metrics, name="metrics"),
    # The language switcher (every page's footer) and the scripts' translations, one URL per language.
    path("language/", account_views.language_switch, name="set-language"),
    re_path(
        rf"^jsi18n/(?P<language>{'|'.join(language.LANGUAGE_CODES)})/$",
        language.javascript_catalogue,
        name="javascript-catalogue",
    ),
    # The installable app (core.pwa): its manifest, its service worker (at the root: its scope is the whole site)
    # and the page it shows for a page it has no copy of.
    path("manifest.webmanifest", pwa.manifest, name="pwa-manifest"),
    path("sw.js", pwa.service_worker, name="pwa-service-worker"),
    path("offline/", pwa.offline, name="pwa-offline"),
    path("dashboard/", include(("tournaments.dashboard_urls", "dashboard"))),
    path("", include(("floor.urls", "floor"))),
    path("", include("accounts.urls")),
    path("", include("notifications.urls")),
    path("", include(("decks.urls", "decks"))),
    path("", include(("games.urls", "games"))),
    path("", include(("leagues.urls", "leagues"))),
    path("", include(("live.urls", "live"))),
    path("", include(("tournaments.public_urls", "public"))),
]

# Under /api/ Django's own error answers (a URL nothing matches, a body it refuses to read, a bug) have the API's
# error shape; elsewhere they are the site's pages (core.api).
handler400 = "core.api.handler400"
handler403 = "core.api.handler403"
handler404 = "core.api.handler404"
handler500 = "core.api.handler500"
