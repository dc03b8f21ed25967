"""API tokens: stored hashed, expiring, revoked by signing out (django-rest-knox).

``POST /api/v1/auth/token/`` with a username and password answers a new token
(``{"token": ...}``) for ``Authorization: Token <key>``.  Only a digest of it is
stored; it expires ``PODIUM_TOKEN_HOURS`` after it was issued; ``POST
/api/v1/auth/logout/`` revokes the token it is sent with, ``logout-all/``
every token of the account, and so does a new password (:mod:`accounts.services`
makes and revokes them; :mod:`accounts.passwords` on a password change).
Each sign-in makes a token of its own, so signing a script out leaves the
others signed in.

:class:`TokenAuthentication` is knox's, refusing a malformed key (knox keys are
64 hexadecimal digits) before any query: a key with a NUL or a non-UTF-8 byte
would otherwise reach the database, or the decoder, and fail there.  It comes
first in ``DEFAULT_AUTHENTICATION_CLASSES``, so a request without credentials
that needs them is answered 401 with ``WWW-Authenticate: Token``.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox import auth as knox_auth
from rest_framework import exceptions

#: A knox key: 64 hexadecimal digits (``AUTH_TOKEN_CHARACTER_LENGTH``).
KEY = re.compile(rb"^[0-9a-f]{64}$")


class TokenAuthentication(knox_auth.TokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> Any:
        if not KEY.match(token):
            raise exceptions.AuthenticationFailed(gettext("Invalid token."))
        return super().authenticate_credentials(token)

    def _cleanup_token(self, auth_token) -> bool:
        """Refuse (and delete) this token if it has expired.  Knox also sweeps the account's other expired tokens
        here, a query on every request; they go when the account next signs in (:mod:`accounts.services`)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


class TokenScheme(OpenApiAuthenticationExtension):
    """The token in the OpenAPI schema: ``Authorization: Token <key>``."""

    target_class = "core.auth.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Token")
