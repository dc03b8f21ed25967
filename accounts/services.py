"""Account changes: signing up makes the account and the player profile that goes with it, in one transaction."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from rest_framework.authtoken.models import Token

from tournaments.services import registrations


def account_sign_up(*, username: str, password: str, email: str = "", display_name: str = ""):
    """A new account with its player profile (named ``display_name``, or the username).

    The caller has validated the input with :class:`accounts.forms.SignUpForm`
    (a free username, a free address, a password the validators accept).
    """
    with transaction.atomic():
        user = get_user_model().objects.create_user(username=username, email=email, password=password)
        registrations.player_for_user(user, display_name=display_name)
    return user


def account_token(*, user) -> Token:
    """The account's API token, made the first time it is asked for (a phone app or a bot signs in with it)."""
    token, _ = Token.objects.get_or_create(user=user)
    return token
