"""The language a user reads their notifications in."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def language_for(user: Any) -> str:
    """The user's chosen language (their profile's, once accounts keeps one), else the site's (``LANGUAGE_CODE``)."""
    return getattr(getattr(user, "profile", None), "language", "") or settings.LANGUAGE_CODE
