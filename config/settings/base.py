"""Podium settings.

Everything that differs between a laptop and production comes from the
environment:

* ``DATABASE_URL`` - default: a SQLite file in ``var/`` (the embedded default).
  Production: ``postgres://user:password@host:5432/podium``.
* ``REDIS_URL`` - default: none, and Celery tasks run in-process (eagerly) so
  the app needs no services.  When set, tasks go to Redis and a worker started
  with ``celery -A config worker`` runs them; the cache uses Redis too.
* ``SECRET_KEY`` - required unless ``DEBUG`` is on; with ``DEBUG`` off a weak
  one (short, repetitive, Django's insecure default) stops the start.
* ``DEBUG`` - default off.
* ``ALLOWED_HOSTS`` - comma-separated; default ``localhost,127.0.0.1`` (plus
  ``testserver`` for tests).
* ``PODIUM_CARD_DATA_DIR`` - where card data is imported from (never
  committed); default ``../shared/data`` beside the checkout when present.
* ``EMAIL_URL`` - how mail (password resets) is sent; default
  ``consolemail://`` (printed on the console, which ``check --deploy``
  refuses).  Production: ``smtp+tls://user:password@smtp.example.org:587``
  (or ``smtp+ssl://...:465``), and ``DEFAULT_FROM_EMAIL`` the sender
  (``Podium <podium@example.org>``).
* ``SECURE_SSL_REDIRECT``, ``SESSION_COOKIE_SECURE``, ``CSRF_COOKIE_SECURE``,
  ``SECURE_HSTS_SECONDS``, ``SECURE_HSTS_INCLUDE_SUBDOMAINS``,
  ``SECURE_HSTS_PRELOAD`` - each read from the variable of its name; secure
  (on, HSTS a year) unless ``DEBUG`` is on.  ``SECURE_PROXY_SSL_HEADER`` - the
  header a trusted proxy marks HTTPS requests with (``X-Forwarded-Proto`` when
  proxies are configured).  The retired ``PODIUM_HTTPS`` and ``PODIUM_HSTS_*``
  stop the start, naming what to set instead.
* ``PODIUM_PROXIES`` - the reverse proxies (addresses or networks) whose
  ``X-Forwarded-For`` and HTTPS header are believed; default none.
* ``TIME_ZONE`` - new events' time zone (each event has its own); default
  ``UTC``.  ``PODIUM_PAPER`` - new events' paper for printouts, ``a4``
  (default) or ``letter``.
* ``PODIUM_SITE_URL``, ``VAPID_PUBLIC_KEY``, ``VAPID_PRIVATE_KEY``, ``VAPID_SUBJECT``,
  ``PODIUM_ROUND_ENDING_MINUTES`` - the players' notifications (e-mail and Web
  Push): the site's address in their links, the push key pair
  (``manage.py vapid_keys``), the contact for push services, and how early a
  round's end is announced.
* ``PODIUM_TASK_TIME_LIMIT``, ``PODIUM_SWEEP_SECONDS`` - the longest a task
  runs and how often the sweeps ask again for work left undone.
* ``PODIUM_WRITE_RATE``, ``PODIUM_DECK_CHECK_RATE``, ``PODIUM_SIGNUP_RATE`` -
  the throttles; ``PODIUM_TOKEN_HOURS`` - how long an API token lasts;
  ``PODIUM_OPEN_ORGANISING`` - every account may create events.
* ``PODIUM_SIGNIN_ATTEMPTS`` / ``PODIUM_SIGNIN_COOLOFF_MINUTES`` - failed
  sign-ins of one username from one address before it is locked out, and for
  how long; default 5 and 15.
* ``PODIUM_LOG_FORMAT`` (``text`` or ``json``), ``LOG_LEVEL`` - the log lines
  (core.logging); ``PODIUM_METRICS_TOKEN``, ``PODIUM_METRICS_NETWORKS`` - who
  may read ``/metrics`` (core.metrics); ``SENTRY_DSN``, ``SENTRY_ENVIRONMENT``,
  ``SENTRY_RELEASE`` - error reporting (core.errors).
"""

from __future__ import annotations

import datetime
import os
import zoneinfo
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from config.settings.env import (
    read_bool,
    read_choice,
    read_database,
    read_email_address,
    read_float,
    read_header,
    read_int,
    read_list,
    read_mailer,
    read_networks,
    read_rate,
    read_redis_url,
    weak_secret_key,
)
from core import logging as podium_logging

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("PODIUM_VAR_DIR", BASE_DIR / "var"))

DEBUG = read_bool("DEBUG", default=False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off (set DEBUG=true for local use).")
    # Local development only; `manage.py check --deploy` flags the prefix.
    SECRET_KEY = "django-insecure-podium-local-development-only"
elif not DEBUG and weak_secret_key(SECRET_KEY):
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak for production: it needs 50 characters or more, at least 5 of them different, and "
        "no 'django-insecure-' prefix. Make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

ALLOWED_HOSTS = read_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = read_list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "corsheaders",
    "accounts",
    "tournaments",
    "decks",
    "games",
    "leagues",
    "live",
    "floor",
    "notifications",
    # The entry points with commands of their own: ``manage.py demo`` and ``manage.py bench AREA``.
    "demo",
    "bench",
]

MIDDLEWARE = [
    # First: the request's id (its log lines, the X-Request-ID answer), then its time and status for /metrics.
    "core.logging.RequestIdMiddleware",
    "core.metrics.RequestMetricsMiddleware",
    # Then: forwarding headers count only from the proxies in PODIUM_PROXIES (core.proxies).
    "core.proxies.ForwardedHeadersMiddleware",
    # Then the API's and the streams' CORS preflights are answered (see "Live" below).
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # A NUL in the path or a query parameter: 404 / 400 before any view or query sees it.
    "core.middleware.UnsafeInputMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An ETag on every GET answer that is not streamed, and 304 for a client that already has it (overlays that poll).
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The request's language (core.language): after the session, before CommonMiddleware (Django's order for
    # LocaleMiddleware); it reads the signed-in account's setting once AuthenticationMiddleware has run, lazily.
    "core.language.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a sign-in refused for too many failures into the locked-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.navigation",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------
VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {"default": read_database("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'podium.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions make concurrent writers wait instead of failing
    # with "database is locked" when a result and a standings task overlap.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})
else:
    # Keep each process's connection across requests (a new PostgreSQL connection costs a backend process),
    # checked before reuse so a server restart costs one failed check, not a failed request.
    DATABASES["default"]["CONN_MAX_AGE"] = read_float("PODIUM_DB_CONN_MAX_AGE", default=60.0)
    if read_bool("PODIUM_ASGI", default=False):
        # Under the ASGI server (config/asgi.py sets PODIUM_ASGI) each request's sync code runs in a thread of its
        # own, so a connection kept after the request would never be used again: Django's advice is to close it.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Parameters bound by the server, so psycopg prepares the statements a process repeats (a result report's
    # dozen queries are planned once per connection, not once per request). Off behind a PgBouncer in
    # transaction mode, which cannot keep prepared statements.
    if read_bool("PODIUM_DB_SERVER_SIDE_BINDING", default=True):
        DATABASES["default"].setdefault("OPTIONS", {}).update({"server_side_binding": True, "prepare_threshold": 2})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis, cache and Celery -------------------------------------------------
REDIS_URL = read_redis_url("REDIS_URL")
#: Seconds a request may spend on an unreachable Redis before it gives up (the sweeps catch up).
REDIS_TIMEOUT = read_float("PODIUM_REDIS_TIMEOUT", default=1.0)
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "core.cache.RedisCache",  # Django's, one client per pool (core.cache)
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
# No caller reads a task's return value: no result backend, so sending a task never waits on one.
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
#: The longest a task may run: at 90 % it is asked to stop (and lets go of its job's claim), at 100 % its worker
#: process is killed.  Every Podium task takes seconds; a claim on a job lasts this long and 15 s more (core.jobs).
PODIUM_TASK_TIME_LIMIT = read_float("PODIUM_TASK_TIME_LIMIT", default=120.0)
CELERY_TASK_TIME_LIMIT = PODIUM_TASK_TIME_LIMIT
CELERY_TASK_SOFT_TIME_LIMIT = 0.9 * PODIUM_TASK_TIME_LIMIT
#: A message a worker took and never acknowledged (it was killed) goes back to the queue after this long: longer
#: than any run (the time limit) plus the longest a retried task waits for its turn (60 s), so a message still
#: being worked on is never handed out twice.
PODIUM_VISIBILITY_TIMEOUT = PODIUM_TASK_TIME_LIMIT + 120
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Sending a task from a request: one short attempt and one retry, then core.jobs lets it go.
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_timeout": 2 * REDIS_TIMEOUT,
    "socket_connect_timeout": REDIS_TIMEOUT,
    "visibility_timeout": PODIUM_VISIBILITY_TIMEOUT,
    # Workers look for such messages every 10 s (kombu's default: every 100 s) and when they start.
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
#: The queue tasks go to and workers read (``-Q``); a private one lets benchmarks and tests run beside a site.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("PODIUM_TASK_QUEUE", "celery")
#: The sweeps (run by ``celery beat``, or a worker started with ``--beat``) ask again for work left
#: undone, e.g. while the broker was away: standings older than their results, decks still pending.
PODIUM_SWEEP_SECONDS = read_float("PODIUM_SWEEP_SECONDS", default=30.0)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "standings-sweep": {"task": "tournaments.tasks.sweep_stale_standings", "schedule": PODIUM_SWEEP_SECONDS},
    "deck-checks-sweep": {"task": "decks.tasks.sweep_pending_decks", "schedule": PODIUM_SWEEP_SECONDS},
    "leagues-sweep": {"task": "leagues.tasks.sweep_leagues", "schedule": PODIUM_SWEEP_SECONDS},
    "live-sweep": {"task": "live.tasks.sweep_live_events", "schedule": PODIUM_SWEEP_SECONDS},
    "lottery-draws": {"task": "tournaments.tasks.sweep_lottery_draws", "schedule": PODIUM_SWEEP_SECONDS},
    "notifications-sweep": {"task": "notifications.tasks.sweep_notifications", "schedule": PODIUM_SWEEP_SECONDS},
}

# --- Auth ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: a new password, however it is set, signs the account's API tokens out (accounts.passwords).
    {"NAME": "accounts.passwords.NewPasswordRevokesTokens"},
]
#: Every signed-in account may create events and player records (a club's own server); off: only site staff and
#: the accounts they give the organiser permission (tournaments.policy).
PODIUM_OPEN_ORGANISING = read_bool("PODIUM_OPEN_ORGANISING", default=False)
LOGIN_URL = "login"
#: Players land on their own page; organisers find their dashboard from there and from the top bar.
LOGIN_REDIRECT_URL = "accounts:me"
LOGOUT_REDIRECT_URL = "public:home"
AUTHENTICATION_BACKENDS = [
    # First: refuses every sign-in of a locked-out username and address before a password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Sign-in throttling (django-axes): failures are counted per username *and* address together, so a
# guesser is stopped without locking the owner out from elsewhere, and one venue's shared wifi is not
# locked for everyone by a few typos.  A successful sign-in or a password reset clears the count.
AXES_FAILURE_LIMIT = read_int("PODIUM_SIGNIN_ATTEMPTS", default=5, minimum=1)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=read_float("PODIUM_SIGNIN_COOLOFF_MINUTES", default=15.0))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
#: A failure while locked out does not restart the cool-off (a script retrying would otherwise never get out).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
#: Only failures are kept (and only until they expire): no log of every sign-in with its address.
AXES_DISABLE_ACCESS_LOG = True
AXES_LOCKOUT_CALLABLE = "accounts.security.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
#: Log lockouts by the parameters that lock (username and address), not every detail of every client.
AXES_VERBOSE = False

# --- Email ----------------------------------------------------------------------
MAILERS = {"default": read_mailer("EMAIL_URL", default="consolemail://")}
DEFAULT_FROM_EMAIL = read_email_address("DEFAULT_FROM_EMAIL", default="Podium <podium@podium.invalid>")
SERVER_EMAIL = read_email_address("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
EMAIL_SUBJECT_PREFIX = "[Podium] "

# --- Notifications (notifications/) ----------------------------------------------------------------------
#: This site's address as players open it: the links in e-mails and pushes.
PODIUM_SITE_URL = os.environ.get("PODIUM_SITE_URL", "").strip() or "http://127.0.0.1:8000"
#: Web Push (VAPID): the key pair (base64url; ``manage.py vapid_keys`` makes one) and the contact push services may
#: write to.  Without keys push is off, except with DEBUG on, where a pair is made once and kept in var/vapid.json.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
_SENDER_ADDRESS = DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "").strip() or f"mailto:{_SENDER_ADDRESS}"
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (manage.py vapid_keys makes a pair).")
if not VAPID_SUBJECT.startswith(("mailto:", "https:")):
    raise ImproperlyConfigured(f"VAPID_SUBJECT={VAPID_SUBJECT!r}: a mailto: or https: address.")
#: Push to http and local addresses too (a development push service; the tests'): otherwise only https addresses
#: of named hosts, so a browser's subscription cannot make the server post into its own network.
PODIUM_PUSH_LOCAL_ENDPOINTS = read_bool("PODIUM_PUSH_LOCAL_ENDPOINTS", default=DEBUG)
#: Players hear that their round ends soon this many minutes before its clock runs out.
PODIUM_ROUND_ENDING_MINUTES = read_int("PODIUM_ROUND_ENDING_MINUTES", default=5, minimum=1)

# --- HTTPS, proxies and the browser's protections -------------------------------------------------
#: Reverse proxies in front of the app (addresses or networks): only their X-Forwarded-For and
#: X-Forwarded-Proto are believed, and from anyone else those headers are dropped (core.proxies).
PODIUM_PROXIES = read_networks("PODIUM_PROXIES")
AXES_CLIENT_IP_CALLABLE = "core.proxies.client_ip"
#: Variables that switched HTTPS on before the settings took Django's names: a deployment still setting them
#: is told what to set instead rather than silently getting other values.
_RETIRED = {
    "PODIUM_HTTPS": "SECURE_SSL_REDIRECT, SESSION_COOKIE_SECURE and CSRF_COOKIE_SECURE (on by default when DEBUG "
    "is off)",
    "PODIUM_HSTS_SECONDS": "SECURE_HSTS_SECONDS",
    "PODIUM_HSTS_SUBDOMAINS": "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "PODIUM_HSTS_PRELOAD": "SECURE_HSTS_PRELOAD",
}
for _old, _new in _RETIRED.items():
    if _old in os.environ:
        raise ImproperlyConfigured(f"{_old} is no longer read: set {_new} instead.")
# Each security setting is read from the variable of its own name; secure unless DEBUG is on.
_SECURE = not DEBUG
SECURE_SSL_REDIRECT = read_bool("SECURE_SSL_REDIRECT", default=_SECURE)
SESSION_COOKIE_SECURE = read_bool("SESSION_COOKIE_SECURE", default=_SECURE)
CSRF_COOKIE_SECURE = read_bool("CSRF_COOKIE_SECURE", default=_SECURE)
SECURE_HSTS_SECONDS = read_int("SECURE_HSTS_SECONDS", default=365 * 24 * 3600 if _SECURE else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = read_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=_SECURE)
SECURE_HSTS_PRELOAD = read_bool("SECURE_HSTS_PRELOAD", default=_SECURE)
#: Load balancers probe the health endpoints over plain HTTP inside the network: they are never redirected.
SECURE_REDIRECT_EXEMPT = [r"^health/", r"^metrics$"]
#: The header (and value) a trusted proxy sets on requests that came over HTTPS; by default X-Forwarded-Proto
#: when proxies are configured.
_ssl_header = read_header("SECURE_PROXY_SSL_HEADER", default="X-Forwarded-Proto: https" if PODIUM_PROXIES else "")
if _ssl_header:
    SECURE_PROXY_SSL_HEADER = _ssl_header
#: The Content-Security-Policy of every answer: the pages load scripts, styles and images from Podium itself
#: only (no inline script or style, no eval), are never framed, and post forms to Podium only.
SECURE_CSP: dict[str, list[str]] = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# --- I18n, static ----------------------------------------------------------------
#: English is the source language (the msgids); the others are catalogues in locale/ (compiled by bin/setup).
#: A request's language: the account's setting, the language cookie, the event's default on its public pages and
#: venue display, the browser's Accept-Language, then LANGUAGE_CODE (core.language).
LANGUAGE_CODE = "en"
#: Dates, times and numbers in pages follow the active language's formats (Django's named formats; always on).
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("pt-br", "Português (Brasil)"),
    ("de", "Deutsch"),
    ("fr", "Français"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
#: Podium's named date and time formats per language, over Django's (config/formats).
FORMAT_MODULE_PATH = ["config.formats"]
#: The switcher's choice (django.views.i18n.set_language) lasts a year, for visitors without an account too.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC").strip()
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (ValueError, zoneinfo.ZoneInfoNotFoundError):
    raise ImproperlyConfigured(
        f"TIME_ZONE={TIME_ZONE!r} is no time zone of the tz database: give a name such as Europe/Berlin or UTC."
    ) from None
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)  # whitenoise warns on every request when it is missing
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- REST framework ------------------------------------------------------------
REST_FRAMEWORK = {
    # The token first: a request without credentials that needs them gets 401 with "WWW-Authenticate: Token".
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "core.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    # JSON only: every answer under /api/ is JSON (the interactive docs are Swagger UI at /api/docs/).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON nested too deep, or holding a NUL or a lone surrogate, is refused (core.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Every list: ?limit= (default 100, at most 1,000) and ?offset=, with count, next and previous (core.api).
    "DEFAULT_PAGINATION_CLASS": "core.api.Pagination",
    # JSON only, so ?format= picks no renderer: it is the events list's filter (only /api/schema/ reads it).
    "URL_FORMAT_OVERRIDE": None,
    # Signed-in accounts' writes, per account; anonymous deck checks and sign-ups per address (core.throttling).
    "DEFAULT_THROTTLE_CLASSES": ["core.throttling.UserWriteThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        # Anonymous deck checks (bots, deck builders): per client IP, in the shared cache.
        "deck_checks_anon": read_rate("PODIUM_DECK_CHECK_RATE", "60/min"),
        # Sign-ups through the API, per client IP.
        "signups_anon": read_rate("PODIUM_SIGNUP_RATE", "20/hour"),
        # Every write (POST, PUT, PATCH, DELETE) of a signed-in account, per account.
        "writes_user": read_rate("PODIUM_WRITE_RATE", "600/min"),
    },
    # The client's address is core.proxies.client_ip; DRF's own reading of X-Forwarded-For is never used.
    "NUM_PROXIES": 0,
}
#: API tokens (django-rest-knox, core.auth): stored as a SHA-512 digest, valid this long after each sign-in.
REST_KNOX = {
    "TOKEN_TTL": datetime.timedelta(hours=read_float("PODIUM_TOKEN_HOURS", default=10.0)),
    "AUTH_HEADER_PREFIX": "Token",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Podium API",
    "DESCRIPTION": (
        "Events, players, rounds, pairings, results and standings for community card-game formats.\n\n"
        "Anyone reads; changes need a token (`Authorization: Token <key>`, from `POST /api/v1/auth/token/`) "
        "or the dashboard's session, and an event's changes its organiser or staff. Every error answers "
        '`{"error": {"code", "message", "fields"}}`; each operation lists the codes it can answer.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No deep links: with them Swagger UI puts a link inside each operation's button, a control nested in a
    # control that keyboard and screen-reader users can't reach on its own (axe's nested-interactive).
    # No syntax colours: Swagger UI's themes colour some tokens below AA contrast on their dark background.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "syntaxHighlight": {"activated": False}},
    # Tags and operation ids from the path after the version: "events", "games", ... rather than "v1".
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    # The enum names (drf-spectacular's own hook), then the error codes every operation shares (core.api).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api.document_shared_errors",
    ],
    # Inputs and outputs are separate components; request components get the suffix "Request".
    "COMPONENT_SPLIT_REQUEST": True,
    # PATCH inputs are not partial here: their components say what each operation requires.
    "COMPONENT_SPLIT_PATCH": False,
    # Ids in paths are ``<int:...>``: digits only, anything else is no API URL at all.
    "PATH_CONVERTER_OVERRIDES": {"int": {"type": "integer", "minimum": 0}},
    # Choices sharing a field name get names of their own (else "Status7a3Enum" and the like).
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournaments.models.Event.Status",
        "GameStatusEnum": "games.models.Game.Status",
        "DeckVersionStatusEnum": "decks.models.DeckVersion.Status",
        "DeckRulingStatusEnum": "decks.models.DeckVerdictOverride.Status",
        "RoundStageEnum": "tournaments.models.Round.Stage",
        "PhasePresetEnum": "tournaments.standings.phases.PRESET_CHOICES",
        "LanguageEnum": "core.language.LANGUAGE_CODES",
        # The league points presets kept the name they had before the phases' preset came.
        "PresetEnum": "leagues.points.PRESETS",
        "NotificationKindEnum": "notifications.kinds.Kind",
    },
}

# --- Live: the push to overlays, CORS -----------------------------------------------------
#: Redis for the live push between processes (pub/sub); default: REDIS_URL.  Without either, one process pushes
#: to its own streams (the embedded default).
PODIUM_LIVE_REDIS_URL = read_redis_url("PODIUM_LIVE_REDIS_URL") or REDIS_URL
#: The pub/sub channel of this site's live events: Redis channels are shared by every database number of a server,
#: so two sites (or test runs) on one Redis need different ones.  Default: from the database's name.
PODIUM_LIVE_CHANNEL = os.environ.get("PODIUM_LIVE_CHANNEL") or f"podium:live:{DATABASES['default']['NAME']}"
#: Seconds between heartbeats on an idle stream (a comment line that keeps proxies from closing it).
PODIUM_LIVE_HEARTBEAT = read_float("PODIUM_LIVE_HEARTBEAT", default=15.0)
#: Live events are numbered and sent by a thread of each process, after the commit (the request does not wait).
PODIUM_LIVE_PUBLISH_THREAD = read_bool("PODIUM_LIVE_PUBLISH_THREAD", default=True)
#: Live events kept per tournament event for clients that reconnect; an older Last-Event-ID gets a snapshot first.
PODIUM_LIVE_KEEP = read_int("PODIUM_LIVE_KEEP", default=2000, minimum=10)
#: Origins whose pages may read the public API and the streams (overlays in other tools): "*" for any.
PODIUM_CORS_ORIGINS = read_list("PODIUM_CORS_ORIGINS", default=["*"])
CORS_ALLOW_ALL_ORIGINS = PODIUM_CORS_ORIGINS == ["*"]
CORS_ALLOWED_ORIGINS = [] if CORS_ALLOW_ALL_ORIGINS else PODIUM_CORS_ORIGINS
#: Reads only, without cookies: a page elsewhere reads what anyone may read (and an overlay token's extras); writes
#: from another origin are not allowed.
CORS_URLS_REGEX = r"^/(api/v1/|live/).*$"
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = ["accept", "authorization", "cache-control", "if-none-match", "last-event-id", "x-overlay-token"]
CORS_EXPOSE_HEADERS = ["ETag"]

# --- Podium ----------------------------------------------------------------------
#: The paper new events' printouts are laid out for (each event may choose): ``a4`` or ``letter``.
PODIUM_PAPER = os.environ.get("PODIUM_PAPER", "a4").strip().lower()
if PODIUM_PAPER not in ("a4", "letter"):
    raise ImproperlyConfigured(f"PODIUM_PAPER={PODIUM_PAPER!r}: use a4 or letter.")
_shared_data = BASE_DIR.parent / "shared" / "data"
PODIUM_CARD_DATA_DIR = Path(os.environ.get("PODIUM_CARD_DATA_DIR", _shared_data))

# --- Logs, metrics and errors (core.logging, core.metrics, core.errors) ---------------------------------------------
#: ``text`` (``time level logger request_id message``) or ``json`` (one object per line): every process's lines,
#: the web servers' access logs included.
PODIUM_LOG_FORMAT = read_choice("PODIUM_LOG_FORMAT", default="text", choices=("text", "json"))
LOG_LEVEL = read_choice(
    "LOG_LEVEL", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"), upper=True
)
LOGGING = podium_logging.config(log_format=PODIUM_LOG_FORMAT, level=LOG_LEVEL)
#: Applies LOGGING, then gives the servers' own loggers (uvicorn's, gunicorn's) the same format.
LOGGING_CONFIG = "core.logging.configure"
#: ``/metrics`` (Prometheus) answers a request with ``Authorization: Bearer <this>`` ...
PODIUM_METRICS_TOKEN = os.environ.get("PODIUM_METRICS_TOKEN", "").strip()
#: ... or from these addresses or networks (the client's address, behind PODIUM_PROXIES); with neither it is a 404.
PODIUM_METRICS_NETWORKS = read_networks("PODIUM_METRICS_NETWORKS")
#: Errors (a server error's exception, a failed task) are sent to Sentry (or a service speaking its protocol)
#: when set; no personal data (cookies, addresses, users) is sent.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
SENTRY_ENVIRONMENT = os.environ.get("SENTRY_ENVIRONMENT", "").strip() or ("development" if DEBUG else "production")
#: The release errors are reported under (e.g. the deployed commit); default: none.
SENTRY_RELEASE = os.environ.get("SENTRY_RELEASE", "").strip() or None
if SENTRY_DSN:
    from core.errors import start_error_reporting

    start_error_reporting(dsn=SENTRY_DSN, environment=SENTRY_ENVIRONMENT, release=SENTRY_RELEASE)
