"""Account changes: signing up makes the account and the player profile that goes with it, in one transaction;
API tokens are made at each sign-in and revoked by signing out (django-rest-knox: stored as a digest, expiring
``PODIUM_TOKEN_HOURS`` after they were made)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Field
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.models import AuthToken

from accounts.models import Preferences
from core.exceptions import ApplicationError
from tournaments.services import events, registrations


def account_sign_up(*, username: str, password: str, email: str = "", display_name: str = "", language: str = ""):
    """A new account with its player profile (named ``display_name``, or the username), and its language when
    one is chosen (:func:`account_language_set`).

    The caller has validated the input with :class:`accounts.forms.SignUpForm`
    (a free username, a free address, a password the validators accept).
    """
    with transaction.atomic():
        user = get_user_model().objects.create_user(username=username, email=email, password=password)
        registrations.player_for_user(user, display_name=display_name)
        if language:
            account_language_set(user=user, language=language)
    return user


def site_organiser_create(*, username: str) -> tuple[Any, str | None]:
    """The account that runs a venue's own server (``./bin/run --venue``): site staff (the admin and every event)
    with the organiser permission, made with a random password once.  Returns the account and its password, or
    ``None`` for the password when the account is already there (it is left as it is: a second start changes
    nothing, so a password the organiser changed stays theirs)."""
    User = get_user_model()
    username = username.strip()
    field = User._meta.get_field(User.USERNAME_FIELD)
    try:
        if isinstance(field, Field):  # the model's own rules: the characters allowed, the length
            field.run_validators(username)
    except ValidationError as exc:
        raise ApplicationError(
            _("'%(username)s' cannot be a username: %(problems)s")
            % {"username": username, "problems": " ".join(exc.messages)},
            field="username",
        ) from None
    if not username:
        raise ApplicationError(_("The organiser account needs a username."), field="username")
    with transaction.atomic():
        existing = User.objects.filter(username=username).first()
        if existing is not None:
            return existing, None
        password = secrets.token_urlsafe(12)
        user = User.objects.create_superuser(username=username, email="", password=password)
        events.organiser_permission_grant(user=user)
    return user, password


def account_token(*, user) -> str:
    """A new API token for the account (a phone app or a bot signs in with it): its key, shown this once.

    The account's tokens that have expired are deleted here (a request with one is refused anyway)."""
    AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
    _, key = AuthToken.objects.create(user=user)
    return key


def account_token_revoke(*, token: AuthToken) -> None:
    """Sign a token out: it no longer authenticates anyone."""
    token.delete()


def account_tokens_revoke(*, user) -> int:
    """Sign every token of the account out (a lost phone, a leaked script, a new password: see
    :mod:`accounts.passwords`); returns how many there were."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return deleted


def account_language_set(*, user, language: str) -> str:
    """The account's language: one of ``settings.LANGUAGES`` (``pt-BR`` is read as ``pt-br``), or "" to follow the
    browser.  Returns the language kept."""
    from core.language import supported

    wanted = language.strip()
    kept = supported(wanted) if wanted else ""
    if wanted and kept.lower() != wanted.lower():
        raise ApplicationError(
            _("Podium does not speak %(language)s: choose one of %(languages)s.")
            % {"language": wanted, "languages": ", ".join(code for code, _name in settings.LANGUAGES)},
            field="language",
        )
    Preferences.objects.update_or_create(user=user, defaults={"language": kept})
    return kept
