"""Sign-in throttling (django-axes): a username from one address is locked after repeated failures, for a while."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("axes_on")]

LIMIT = 5


@pytest.fixture
def axes_on():
    with override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=LIMIT):
        yield


def sign_in(client, username: str, password: str, address: str = "203.0.113.7"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def fail(client, username: str, times: int, address: str = "203.0.113.7"):
    for _ in range(times):
        response = sign_in(client, username, "wrong", address)
    return response


def test_wrong_passwords_are_refused_on_the_sign_in_form_until_the_limit(client, users):
    users("ash")
    response = fail(client, "ash", LIMIT - 1)
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_at_the_limit_the_account_is_locked_from_that_address_even_with_the_right_password(client, users):
    users("ash")
    locked = fail(client, "ash", LIMIT)
    assert locked.status_code == 429
    body = locked.content.decode()
    assert "Too many failed sign-ins" in body and "15 minutes" in body and reverse("password_reset") in body
    right = sign_in(client, "ash", "pw")
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lock_is_by_username_and_address_together(client, users):
    users("ash"), users("gary")
    fail(client, "ash", LIMIT)
    # The owner elsewhere, and another player on the same venue wifi, still sign in.
    assert sign_in(client, "ash", "pw", address="198.51.100.20").status_code == 302
    client.logout()
    assert sign_in(client, "gary", "pw").status_code == 302


def test_the_lock_lifts_after_the_cool_off(client, users):
    from axes.models import AccessAttempt

    users("ash")
    fail(client, "ash", LIMIT)
    AccessAttempt.objects.update(attempt_time=timezone.now() - datetime.timedelta(minutes=16))
    assert sign_in(client, "ash", "pw").status_code == 302


def test_a_success_before_the_limit_clears_the_count(client, users):
    users("ash")
    fail(client, "ash", LIMIT - 1)
    assert sign_in(client, "ash", "pw").status_code == 302
    client.logout()
    assert fail(client, "ash", LIMIT - 1).status_code == 200  # counting starts again


def test_setting_a_new_password_by_email_lifts_the_lock(client, users):
    users("ash")
    fail(client, "ash", LIMIT)
    client.post(reverse("password_reset"), {"email": "ash@example.org"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": "Pikachu-Thunder-77", "new_password2": "Pikachu-Thunder-77"}
    )
    assert sign_in(client, "ash", "Pikachu-Thunder-77").status_code == 302


def test_the_admin_sign_in_is_throttled_too(client, django_user_model):
    django_user_model.objects.create_user(username="boss", password="pw", is_staff=True)
    for _ in range(LIMIT):
        response = client.post(
            reverse("admin:login"), {"username": "boss", "password": "wrong"}, REMOTE_ADDR="203.0.113.7"
        )
    assert response.status_code == 429


def test_the_api_token_endpoint_is_throttled_with_the_error_shape(client, users):
    users("ash")
    url = reverse("api-token")
    for _ in range(LIMIT):
        client.post(url, {"username": "ash", "password": "wrong"}, REMOTE_ADDR="203.0.113.7")
    response = client.post(url, {"username": "ash", "password": "pw"}, REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert "token" not in response.json()
