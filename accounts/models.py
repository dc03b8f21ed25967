"""What an account keeps of its own besides Django's user: its preferences."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Preferences(models.Model):
    """An account's choices about how Podium speaks to it (one row per account, made when first set)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences")
    #: One of ``settings.LANGUAGES``; blank: the browser's (or the language switcher's, or an event's default).
    language = models.CharField(
        _("language"), max_length=7, choices=settings.LANGUAGES, blank=True, default=""
    )

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return f"Preferences of {self.user_id}"
