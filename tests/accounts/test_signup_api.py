"""Sign-up through the API: a phone app or a bot makes an account and gets its token, by the sign-up page's rules."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.support.throttles import fresh_address, throttle_rates
from tournaments.models import Player

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/signup/"


def sign_up(body: dict, *, address: str = "198.51.100.20"):
    return APIClient(REMOTE_ADDR=address).post(URL, body, format="json")


def test_sign_up_makes_the_account_its_player_and_a_token_that_works():
    answer = sign_up({"username": "misty", "password": "cerulean gym 1995", "display_name": "Misty W.",
                      "email": "misty@example.org"})  # fmt: skip
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    user = get_user_model().objects.get(username="misty")
    assert user.check_password("cerulean gym 1995") and user.email == "misty@example.org"
    assert body == {"username": "misty", "player": user.player.pk, "display_name": "Misty W.", "token": body["token"]}
    me = APIClient().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert me.status_code == 200 and me.json()["player"]["display_name"] == "Misty W."


def test_without_a_display_name_the_player_is_named_after_the_username():
    assert sign_up({"username": "brock", "password": "pewter gym 1995"}).status_code == 201
    assert Player.objects.get(user__username="brock").display_name == "brock"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "ash", "password": "short"}, "password"),  # too short
        ({"username": "ash", "password": "password"}, "password"),  # too common
        ({"username": "ash", "password": "1234567890123"}, "password"),  # all digits
        ({"username": "ash ketchum", "password": "pallet town 1996"}, "username"),
        ({"username": "ash", "password": "pallet town 1996", "email": "not-an-address"}, "email"),
        ({"password": "pallet town 1996"}, "username"),
        ({"username": "ash"}, "password"),
    ],
)
def test_bad_input_is_a_400_at_its_field_and_makes_nothing(body, field):
    answer = sign_up(body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "invalid" and field in error["fields"], error
    assert not get_user_model().objects.exists()


def test_a_taken_username_or_address_is_refused_and_the_first_account_is_untouched(django_user_model):
    first = django_user_model.objects.create_user(username="gary", password="viridian gym 1", email="gary@example.org")
    for body, field in (
        ({"username": "GARY", "password": "another pass 22"}, "username"),
        ({"username": "blue", "password": "another pass 22", "email": "Gary@Example.org"}, "email"),
    ):
        answer = sign_up(body)
        assert answer.status_code == 400 and field in answer.json()["error"]["fields"], answer.json()
    first.refresh_from_db()
    assert first.check_password("viridian gym 1") and django_user_model.objects.count() == 1


def test_a_token_or_session_sent_along_is_ignored_the_new_account_is_made():
    client = APIClient(REMOTE_ADDR="198.51.100.21")
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert client.post(URL, {"username": "erika", "password": "celadon gym 1996"}, format="json").status_code == 201


def test_sign_ups_are_throttled_per_address_with_the_error_shape():
    # The counts live in the shared cache and outlive a run: this run's client is one nobody has seen.
    me = fresh_address()
    with throttle_rates(signups_anon="2/hour"):
        answers = [
            sign_up({"username": n, "password": "throttle me 12345"}, address=me).status_code
            for n in ("ann", "bea", "cid")
        ]
        assert answers == [201, 201, 429]
        refused = sign_up({"username": "dee", "password": "throttle me 12345"}, address=me)
    assert refused.json()["error"]["code"] == "throttled" and "Retry-After" in refused.headers
    assert not get_user_model().objects.filter(username__in=["cid", "dee"]).exists()


def test_a_language_chosen_at_sign_up_is_the_accounts_and_a_language_podium_lacks_is_a_field_error():
    answer = sign_up({"username": "ana", "password": "ciudad verde 1995", "language": "pt-BR"})
    assert answer.status_code == 201, answer.json()
    me = APIClient().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert me.json()["language"] == "pt-br"
    refused = sign_up({"username": "kai", "password": "ciudad verde 1995", "language": "tlh"}, address="198.51.100.21")
    assert refused.status_code == 400 and "language" in refused.json()["error"]["fields"]
