"""The language of a request: which of Podium's languages (``settings.LANGUAGES``) a page is written in.

The first of these that names one of them wins:

1. the signed-in account's setting (``accounts.Preferences.language``; blank: follow the rest), kept in the session
   at sign-in and when it changes, so finding it costs no query;
2. the language cookie, which the switcher in every page's footer sets (Django's ``set_language``), for visitors
   without an account too;
3. on an event's public pages and its venue display (:data:`EVENT_PAGES`), the event's default language
   (``Event.language``; blank: the site's), applied when the view has loaded the event (:func:`event_entered`, called
   by the event's door, :mod:`core.doorway`), so it costs no query either;
4. the browser's ``Accept-Language``;
5. ``settings.LANGUAGE_CODE``.

The API (``/api/``) is for programs: it follows ``Accept-Language`` alone (then ``LANGUAGE_CODE``); its error codes
never change, only the human messages.

:class:`LanguageMiddleware` is Django's ``LocaleMiddleware`` (the ``Content-Language`` and ``Vary`` headers) with
this choice in place of Django's own.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.cache import cache_page
from django.views.i18n import JavaScriptCatalog

#: The codes of Podium's languages (the API's and the forms' choices).
LANGUAGE_CODES: tuple[str, ...] = tuple(code for code, _name in settings.LANGUAGES)

#: The session's copy of the signed-in account's language ("" : none chosen), written at sign-in and on a change.
SESSION_KEY = "podium_account_language"

#: The pages where the event's default language comes before the browser's: ``namespace:url_name`` of views that
#: enter an event through its door.  The dashboard is the staff's and follows their own language.
EVENT_PAGES = frozenset(
    {
        "public:event",
        "public:pairings",
        "public:pairings-by-name",
        "public:standings",
        "live:bracket",
        "live:display",
        "live:standings-overlay",
        "live:pairings-overlay",
        "live:bracket-overlay",
        "live:timer-overlay",
        "live:station-overlay",
        "live:print-pairings",
        "live:print-slips",
        "live:print-standings",
        "live:print-bracket",
    }
)


def supported(code: str | None) -> str:
    """The language of ``settings.LANGUAGES`` that ``code`` names (``pt-BR`` → ``pt-br``, ``es-MX`` → ``es``), or ""."""
    if not code:
        return ""
    try:
        # Tags are case-insensitive (RFC 5646); LANGUAGES spells them in lower case.
        return translation.get_supported_language_variant(code.lower())
    except LookupError:
        return ""


#: Languages whose nouns keep their capital inside a sentence (German's "Runde 2", "Verwarnung").
NOUNS_KEEP_CAPITALS = frozenset({"de"})


def in_sentence(label: Any) -> str:
    """A label ("Round 2", "Dropped", "Warning") inside a sentence of the active language: its first letter in
    lower case ("Publish round 2"), except in a language whose nouns keep their capital ("Runde 2 veröffentlichen")."""
    text = str(label)
    language = (translation.get_language() or "en").split("-")[0].lower()
    if language in NOUNS_KEEP_CAPITALS:
        return text
    return text[:1].lower() + text[1:]


def browser_language(header: str) -> str:
    """The first language of an ``Accept-Language`` header (in the order of its weights) that Podium speaks, or ""."""
    for code, _weight in parse_accept_lang_header(header):
        if code == "*":
            break
        language = supported(code)
        if language:
            return language
    return ""


@dataclass(frozen=True)
class LanguageChoice:
    """What a request says about its language, each "" when it says nothing; :meth:`language` applies the order."""

    account: str = ""
    cookie: str = ""
    browser: str = ""
    #: On an event's public page: its default language may come before the browser's.
    event_page: bool = False

    def language(self, *, event: str = "") -> str:
        """The language to use; ``event`` is the event's default language, on its pages."""
        candidates = [self.account, self.cookie, event if self.event_page else "", self.browser]
        return next((code for code in candidates if code), settings.LANGUAGE_CODE)


def language_choice(request: HttpRequest) -> LanguageChoice:
    """What ``request`` says about its language (the API: only its ``Accept-Language``)."""
    browser = browser_language(request.headers.get("Accept-Language", ""))
    if request.path.startswith("/api/"):
        return LanguageChoice(browser=browser)
    account = ""
    # The session is read only when the request has one (a visitor without a cookie costs no query).
    if settings.SESSION_COOKIE_NAME in request.COOKIES and hasattr(request, "session"):
        account = supported(request.session.get(SESSION_KEY, ""))
    cookie = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    return LanguageChoice(account=account, cookie=cookie, browser=browser)


class LanguageMiddleware(LocaleMiddleware):
    """Activates the request's language (:func:`language_choice`); on an event's page, the view's door activates the
    event's default language where it comes first (:func:`event_entered`)."""

    def process_request(self, request: HttpRequest) -> None:
        choice = language_choice(request)
        request.language_choice = choice  # type: ignore[attr-defined]
        translation.activate(choice.language())
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        response = super().process_response(request, response)  # Content-Language, Vary: Accept-Language
        if not request.path.startswith("/api/"):  # the language cookie (and the session's setting) chose it too
            patch_vary_headers(response, ("Cookie",))
        return response

    def process_view(self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: Any) -> None:
        match = request.resolver_match
        if match is not None and match.view_name in EVENT_PAGES:
            choice: LanguageChoice = request.language_choice  # type: ignore[attr-defined]
            request.language_choice = LanguageChoice(  # type: ignore[attr-defined]
                account=choice.account, cookie=choice.cookie, browser=choice.browser, event_page=True
            )


def event_entered(request: Any, event: Any) -> None:
    """An event's door let ``request`` in: on the event's public pages, its default language (when it has one)
    comes before the browser's."""
    choice: LanguageChoice | None = getattr(request, "language_choice", None)
    if choice is None or not choice.event_page:
        return
    language = choice.language(event=supported(getattr(event, "language", "")))
    if language != translation.get_language():
        translation.activate(language)
        request.LANGUAGE_CODE = language


def remember_account_language(request: HttpRequest, language: str) -> None:
    """Keep the signed-in account's language in its session (at sign-in, and when the account's setting changes)."""
    if hasattr(request, "session"):
        request.session[SESSION_KEY] = language


def _catalogues_version() -> str:
    """Changes when a compiled catalogue does (a deploy restarts the processes): the cached JavaScript catalogues of
    the old translations are not served after it."""
    stamps = sorted(f"{mo}:{mo.stat().st_mtime_ns}" for mo in Path(settings.LOCALE_PATHS[0]).glob("*/LC_MESSAGES/*.mo"))
    return hashlib.sha256("\n".join(stamps).encode()).hexdigest()[:12]


_CATALOGUE = JavaScriptCatalog.as_view(domain="djangojs")


@cache_page(24 * 3600, key_prefix=f"jsi18n-{_catalogues_version()}")
def javascript_catalogue(request: HttpRequest, language: str) -> HttpResponse:
    """The translations of ``static/js`` in ``language`` (its URL names it, so an event's page in the event's language
    gets its scripts' words in it too): Django's ``JavaScriptCatalog``, cached a day by the server and the browser."""
    with translation.override(language):
        return _CATALOGUE(request)

