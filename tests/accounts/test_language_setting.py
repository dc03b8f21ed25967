"""The account's language: chosen at sign-up (the browser's by default), changed on /me/ and through the API
(``GET``/``PATCH /api/v1/me/``), blank to follow the browser."""

from __future__ import annotations

import re

import pytest

from accounts.models import Preferences

pytestmark = pytest.mark.django_db


def test_sign_up_offers_the_browsers_language_and_keeps_the_choice(client):
    page = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<option value="de" selected>Deutsch</option>' in page
    answer = client.post(
        "/accounts/signup/",
        {"username": "ash", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7", "language": "es"},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert answer.status_code == 302
    assert Preferences.objects.get(user__username="ash").language == "es"
    assert client.get("/me/", HTTP_ACCEPT_LANGUAGE="de").headers["Content-Language"] == "es"


def test_sign_up_without_a_language_follows_the_browser(client):
    client.post(
        "/accounts/signup/",
        {"username": "gary", "password1": "a long pass phrase 7", "password2": "a long pass phrase 7", "language": ""},
    )
    assert not Preferences.objects.filter(user__username="gary").exists()
    assert client.get("/me/", HTTP_ACCEPT_LANGUAGE="fr").headers["Content-Language"] == "fr"


def test_the_player_changes_their_language_on_their_page(client, django_user_model):
    user = django_user_model.objects.create_user(username="ash", password="pw")
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert 'action="/me/language/"' in page and '<option value="" selected>' in page
    answer = client.post("/me/language/", {"language": "pt-br"}, follow=True)
    assert Preferences.objects.get(user=user).language == "pt-br"
    assert answer.headers["Content-Language"] == "pt-br" and "Seu idioma foi salvo." in answer.content.decode()
    assert '<option value="pt-br" selected>' in answer.content.decode()
    client.post("/me/language/", {"language": ""})  # back to the browser's
    assert Preferences.objects.get(user=user).language == ""
    assert client.get("/me/", HTTP_ACCEPT_LANGUAGE="de").headers["Content-Language"] == "de"


def test_me_in_the_api_has_the_language_and_patch_changes_it(api, organiser):
    before = api.get("/api/v1/me/").json()
    assert before["language"] == "" and before["username"] == "organiser"
    answer = api.patch("/api/v1/me/", {"language": "pt-br"}, format="json")
    assert answer.status_code == 200 and answer.json() == {**before, "language": "pt-br"}
    assert Preferences.objects.get(user=organiser).language == "pt-br"


def test_the_api_refuses_a_language_podium_does_not_speak(api):
    answer = api.patch("/api/v1/me/", {"language": "tlh"}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "invalid" and set(error["fields"]) == {"language"}


def test_a_language_the_page_does_not_offer_is_refused_with_a_message_and_the_setting_kept(client, django_user_model):
    user = django_user_model.objects.create_user(username="ash", password="pw")
    client.force_login(user)
    client.post("/me/language/", {"language": "es"})
    answer = client.post("/me/language/", {"language": "tlh"}, follow=True)
    error = re.search(r'<li class="msg msg-error">([^<]*)</li>', answer.content.decode())
    assert answer.status_code == 200 and error and "tlh" in error.group(1)
    assert Preferences.objects.get(user=user).language == "es"
