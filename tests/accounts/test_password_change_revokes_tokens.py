"""A new password, however it is set, signs every API token of the account out; the browser that changed it stays
signed in, the account's other browsers are signed out, and a mere re-hash of the same password changes nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.hashers import make_password
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from accounts import services
from tests.accounts.conftest import signed_in

pytestmark = pytest.mark.django_db

NEW = "Pikachu-Thunder-77"


def token_works(key: str) -> bool:
    return APIClient().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200


def test_changing_the_password_on_its_page_signs_out_the_tokens_and_the_other_browsers_only(users):
    ash = users("ash")
    phone, bot = services.account_token(user=ash), services.account_token(user=ash)
    here, elsewhere = signed_in(Client(), ash), signed_in(Client(), ash)
    assert token_works(phone) and token_works(bot)
    response = here.post(reverse("password_change"), {"old_password": "pw", "new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    assert not token_works(phone) and not token_works(bot)
    assert here.get(reverse("accounts:me")).status_code == 200
    assert elsewhere.get(reverse("accounts:me")).status_code == 302  # to the sign-in page


def test_a_wrong_old_password_changes_nothing_and_the_tokens_keep_working(users):
    ash = users("ash")
    phone = services.account_token(user=ash)
    refused = signed_in(Client(), ash).post(
        reverse("password_change"), {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW}
    )
    assert refused.status_code == 200 and token_works(phone)


def test_setting_a_new_password_through_the_reset_link_signs_out_the_tokens_and_every_browser(client, users):
    ash = users("ash")
    phone = services.account_token(user=ash)
    elsewhere = signed_in(Client(), ash)
    client.post(reverse("password_reset"), {"email": "ash@example.org"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    assert not token_works(phone)
    assert elsewhere.get(reverse("accounts:me")).status_code == 302


def test_a_new_password_set_in_the_admin_signs_out_the_tokens(users, django_user_model):
    ash = users("ash")
    phone = services.account_token(user=ash)
    boss = django_user_model.objects.create_superuser(username="boss", password="pw", email="boss@example.org")
    admin = signed_in(Client(), boss)
    answer = admin.post(
        reverse("admin:auth_user_password_change", args=[ash.pk]),
        {"password1": NEW, "password2": NEW, "usable_password": "true"},
    )
    assert answer.status_code == 302, answer.content.decode()
    ash.refresh_from_db()
    assert ash.check_password(NEW) and not token_works(phone)


def test_a_password_set_by_code_and_saved_signs_out_the_tokens_and_a_new_one_works(users):
    # What `manage.py changepassword` and any service do.
    ash = users("ash")
    old = services.account_token(user=ash)
    ash.set_password(NEW)
    ash.save()
    assert not token_works(old)
    assert token_works(services.account_token(user=ash))


@override_settings(
    PASSWORD_HASHERS=[
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.ScryptPasswordHasher",
    ]
)
def test_signing_in_with_a_password_stored_by_an_older_hasher_re_hashes_it_and_keeps_the_tokens(users):
    ash = users("ash")
    ash.password = make_password("pw", hasher="scrypt")
    ash.save(update_fields=["password"])
    phone = services.account_token(user=ash)
    signed = APIClient(REMOTE_ADDR="198.51.100.7").post(reverse("api-token"), {"username": "ash", "password": "pw"})
    assert signed.status_code == 200
    ash.refresh_from_db()
    assert ash.password.startswith("md5$")  # re-hashed, the password itself unchanged
    assert token_works(phone) and token_works(signed.json()["token"])


def test_the_system_checks_fail_without_the_entry_that_revokes_tokens(settings):
    from accounts.checks import check_new_password_revokes_tokens

    assert check_new_password_revokes_tokens(None) == []
    settings.AUTH_PASSWORD_VALIDATORS = settings.AUTH_PASSWORD_VALIDATORS[:-1]
    assert [error.id for error in check_new_password_revokes_tokens(None)] == ["accounts.E001"]
