"""The language a user reads their notifications in: their account's setting (``accounts.Preferences``, set on
``/me/``, at sign-up or through the API), else the site's (``LANGUAGE_CODE``): a mail has no browser to ask."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def language_for(user: Any) -> str:
    """The user's chosen language, else ``LANGUAGE_CODE``.  (Read through the relation rather than an import:
    ``accounts`` sits above this app.)"""
    # A user without preferences raises RelatedObjectDoesNotExist, an AttributeError: getattr's default covers it.
    return getattr(getattr(user, "preferences", None), "language", "") or settings.LANGUAGE_CODE
