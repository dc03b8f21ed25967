"""The sign-up page is throttled per address like the API's sign-up, and both count against one allowance."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.support.throttles import fresh_address, throttle_rates

pytestmark = pytest.mark.django_db


def sign_up(username: str, *, address: str, **extra):
    body = {"username": username, "password1": "throttle me 12345", "password2": "throttle me 12345"}
    return Client(REMOTE_ADDR=address).post(reverse("signup"), body, **extra)


def test_past_the_limit_the_sign_up_page_answers_429_with_a_clear_message_and_makes_nothing():
    me = fresh_address()
    with throttle_rates(signups_anon="2/hour"):
        answers = [sign_up(name, address=me).status_code for name in ("ann", "bea", "cid")]
        refused = sign_up("dee", address=me)
    assert answers == [302, 302, 429]
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    body = refused.content.decode()
    assert "Too many accounts were made from your address" in body and 'role="alert"' in body
    assert 'name="username"' in body and 'value="dee"' in body  # the form is still there, filled in
    assert not get_user_model().objects.filter(username__in=["cid", "dee"]).exists()


def test_another_address_still_signs_up_and_a_forged_forwarded_address_buys_nothing():
    me = fresh_address()
    with throttle_rates(signups_anon="1/hour"):
        assert sign_up("ann", address=me).status_code == 302
        assert sign_up("bea", address=me, HTTP_X_FORWARDED_FOR=fresh_address()).status_code == 429
        assert sign_up("cid", address=fresh_address()).status_code == 302


def test_reading_the_page_does_not_count_and_the_page_and_the_api_share_one_allowance():
    me = fresh_address()
    with throttle_rates(signups_anon="2/hour"):
        for _ in range(3):
            assert Client(REMOTE_ADDR=me).get(reverse("signup")).status_code == 200
        api = APIClient(REMOTE_ADDR=me).post(
            "/api/v1/auth/signup/", {"username": "ann", "password": "throttle me 12345"}, format="json"
        )
        assert api.status_code == 201
        assert sign_up("bea", address=me).status_code == 302
        assert sign_up("cid", address=me).status_code == 429
