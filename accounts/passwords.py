"""A new password signs the account's API tokens out, however it was set.

Django tells every configured password validator (``AUTH_PASSWORD_VALIDATORS``)
after a user saved with a new password: ``password_changed(password, user)``,
called by ``AbstractBaseUser.save()`` whenever ``set_password()`` came before it.
Every way of setting a password goes through there: the password-change page,
the reset link, the admin, ``manage.py changepassword`` and any service.  A
mere re-hash of the same password (a sign-in upgrading an old hash) is not a
change and does not call it.

:class:`NewPasswordRevokesTokens` is the validator that listens: it accepts every
password and, on a change, deletes the account's API tokens
(:func:`accounts.services.account_tokens_revoke`).  Browser sessions need
nothing of it: Django ends the account's other sessions itself (a session
carries a hash of the password it signed in with), and the password-change
page keeps the browser that made the change signed in
(``update_session_auth_hash``).  Without it in the settings the system checks
fail (``accounts.E001``, :mod:`accounts.checks`).
"""

from __future__ import annotations

from typing import Any

from accounts.services import account_tokens_revoke

#: Its dotted path, as ``AUTH_PASSWORD_VALIDATORS`` names it.
VALIDATOR = "accounts.passwords.NewPasswordRevokesTokens"


class NewPasswordRevokesTokens:
    """Validates nothing; signs the account's API tokens out once a new password is saved."""

    def validate(self, password: str, user: Any = None) -> None:
        return None

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is not None and user.pk is not None:
            account_tokens_revoke(user=user)

    def get_help_text(self) -> str:
        return "A new password signs out your other browsers and the apps and scripts that used the old one."
