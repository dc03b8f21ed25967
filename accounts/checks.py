"""Deployment checks of the account settings (``manage.py check --deploy``)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Warning, register

SMTP = "django.core.mail.backends.smtp.EmailBackend"


@register("podium", deploy=True)
def check_sender(app_configs, **kwargs) -> list[Warning]:
    """Real mail (password resets) needs a real sender: the default one is a placeholder on ``.invalid``."""
    mailer = getattr(settings, "MAILERS", {}).get("default", {})
    sender = settings.DEFAULT_FROM_EMAIL.rstrip(">").strip()
    if mailer.get("BACKEND") == SMTP and sender.endswith(".invalid"):
        return [
            Warning(
                f"EMAIL_URL sends real mail but the sender is the placeholder {settings.DEFAULT_FROM_EMAIL!r}.",
                hint="Set DEFAULT_FROM_EMAIL to an address of your domain, e.g. 'Podium <podium@example.org>'.",
                id="accounts.W001",
            )
        ]
    return []
