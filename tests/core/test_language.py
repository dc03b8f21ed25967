"""A request's language (core.language): the account's setting, then the switcher's cookie, then on an event's public
pages its default language, then the browser's, then English; the API follows the browser's alone."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from accounts import services as account_services
from accounts.models import Preferences
from core.language import LanguageChoice, browser_language, in_sentence
from tests.factories import EventFactory
from tournaments import services

# --- the order, without a request ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "choice, event, expected",
    [
        (LanguageChoice(), "", "en"),
        (LanguageChoice(browser="es"), "", "es"),
        (LanguageChoice(browser="es", event_page=True), "fr", "fr"),
        (LanguageChoice(browser="es"), "fr", "es"),  # not an event's public page: the event's language is not asked
        (LanguageChoice(cookie="de", browser="es", event_page=True), "fr", "de"),
        (LanguageChoice(account="pt-br", cookie="de", browser="es", event_page=True), "fr", "pt-br"),
        (LanguageChoice(event_page=True), "", "en"),
    ],
)
def test_the_first_language_said_wins_account_cookie_event_browser_site(choice, event, expected):
    assert choice.language(event=event) == expected


@pytest.mark.parametrize(
    "header, expected",
    [
        ("es-MX,es;q=0.9,en;q=0.8", "es"),
        ("pt-BR,pt;q=0.9", "pt-br"),
        ("ja,de;q=0.5", "de"),
        ("ja", ""),
        ("*", ""),
        ("", ""),
    ],
)
def test_the_browsers_language_is_the_first_podium_speaks(header, expected):
    assert browser_language(header) == expected


# --- pages -------------------------------------------------------------------------------------------------------


def _language(answer) -> str:
    return answer.headers["Content-Language"]


@pytest.mark.django_db
def test_a_visitor_gets_the_pages_in_their_browsers_language(client):
    answer = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    assert _language(answer) == "es"
    page = answer.content.decode()
    assert '<html lang="es">' in page and "Iniciar sesión" in page and "Saltar al contenido" in page
    # The scripts' words come in the page's language too.
    assert '<script src="/jsi18n/es/" defer></script>' in page


@pytest.mark.django_db
def test_the_switcher_sets_a_cookie_that_beats_the_browser_for_a_visitor(client):
    answer = client.post("/language/", {"language": "de", "next": "/accounts/login/"})
    assert answer.status_code == 302 and answer.headers["Location"] == "/accounts/login/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="es")
    assert _language(page) == "de" and "Anmelden" in page.content.decode()


@pytest.mark.django_db
def test_the_switcher_refuses_a_language_podium_does_not_speak(client):
    client.post("/language/", {"language": "xx", "next": "/"})
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert client.get("/language/").status_code == 405  # a change is a POST (with its CSRF token)


@pytest.mark.django_db
def test_the_accounts_setting_beats_the_cookie_and_follows_it_from_sign_in(client, django_user_model):
    user = django_user_model.objects.create_user(username="ash", password="pw")
    account_services.account_language_set(user=user, language="pt-BR")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(user)  # the setting is kept in the session at sign-in: no query per page
    page = client.get("/me/", HTTP_ACCEPT_LANGUAGE="es")
    assert _language(page) == "pt-br" and "Meus eventos" in page.content.decode()


@pytest.mark.django_db
def test_the_switcher_also_changes_a_signed_in_accounts_setting(client, django_user_model):
    user = django_user_model.objects.create_user(username="ash", password="pw")
    account_services.account_language_set(user=user, language="de")
    client.force_login(user)
    client.post("/language/", {"language": "fr", "next": "/me/"})
    assert Preferences.objects.get(user=user).language == "fr"
    assert _language(client.get("/me/")) == "fr"


@pytest.fixture
def french_event(organiser):
    event = EventFactory(organiser=organiser)
    services.event_update(event=event, by=organiser, language="fr")
    return event


@pytest.mark.django_db
def test_an_events_public_pages_and_venue_display_speak_its_language_before_the_browsers(client, french_event):
    for url in (
        f"/events/{french_event.pk}/",
        f"/events/{french_event.pk}/pairings/",
        f"/events/{french_event.pk}/standings/",
        f"/live/events/{french_event.pk}/display/",
    ):
        answer = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
        assert answer.status_code == 200 and _language(answer) == "fr", url


@pytest.mark.django_db
def test_a_visitors_cookie_beats_the_events_language(client, french_event):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert _language(client.get(f"/events/{french_event.pk}/", HTTP_ACCEPT_LANGUAGE="de")) == "es"


@pytest.mark.django_db
def test_the_dashboard_follows_the_staffs_own_language_not_the_events(client, organiser, french_event):
    client.force_login(organiser)
    answer = client.get(f"/dashboard/events/{french_event.pk}/", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 200 and _language(answer) == "de"


@pytest.mark.django_db
def test_an_event_without_a_language_leaves_its_pages_in_the_browsers(client, organiser):
    event = EventFactory(organiser=organiser)
    assert _language(client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="pt-BR")) == "pt-br"


# --- the API ------------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_apis_messages_follow_accept_language_and_its_codes_never_change(anon_api, client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"  # a page's cookie: not the API's
    english = anon_api.get("/api/v1/me/").json()["error"]
    spanish = anon_api.get("/api/v1/me/", HTTP_ACCEPT_LANGUAGE="es").json()["error"]
    assert english["code"] == spanish["code"] == "not_authenticated"
    assert spanish["message"] != english["message"] and "autenticación" in spanish["message"]
    assert client.get("/api/v1/me/").headers["Content-Language"] == "en"


@pytest.mark.django_db
def test_an_events_language_is_set_and_read_through_the_api(api, organiser):
    event = EventFactory(organiser=organiser)
    answer = api.patch(f"/api/v1/events/{event.pk}/", {"language": "pt-br"}, format="json")
    assert answer.status_code == 200 and answer.json()["language"] == "pt-br"
    refused = api.patch(f"/api/v1/events/{event.pk}/", {"language": "klingon"}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["fields"].keys() == {"language"}
    created = api.post(
        "/api/v1/events/",
        {"name": "Copa", "format": "deck-masters", "planned_rounds": 3, "date": "2026-12-05", "language": "es"},
        format="json",
    )
    assert created.status_code == 201 and created.json()["language"] == "es"


@pytest.mark.django_db
def test_the_dashboards_settings_page_sets_the_events_language(client, organiser):
    event = EventFactory(organiser=organiser)
    client.force_login(organiser)
    page = client.get(f"/dashboard/events/{event.pk}/settings/").content.decode()
    assert 'name="language"' in page and "Español" in page


# --- the scripts' words ---------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_scripts_catalogue_is_served_per_language_and_cached(client):
    answer = client.get("/jsi18n/es/", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 200 and "javascript" in answer.headers["Content-Type"]
    assert "La mesa %(table)s est\\u00e1 llamando a un juez." in answer.content.decode() or (
        "La mesa %(table)s está llamando a un juez." in answer.content.decode()
    )
    assert "max-age=86400" in answer.headers["Cache-Control"]
    assert client.get("/jsi18n/xx/").status_code == 404


@pytest.mark.parametrize(
    "language, label, expected",
    [("en", "Round 2", "round 2"), ("es", "Ronda 2", "ronda 2"), ("fr", "Top 8", "top 8"), ("de", "Runde 2", "Runde 2")],
)
def test_a_label_inside_a_sentence_loses_its_capital_except_where_nouns_keep_theirs(language, label, expected):
    with translation.override(language):
        assert in_sentence(label) == expected

