"""Checks of the account settings: the one every start runs, and the deployment ones (``manage.py check --deploy``)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, Warning, register

from accounts.passwords import VALIDATOR

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


@register("podium")
def check_new_password_revokes_tokens(app_configs, **kwargs) -> list[Error]:
    """Without :class:`accounts.passwords.NewPasswordRevokesTokens` a changed password would leave the account's
    API tokens working: a thief's token would outlive the owner's new password."""
    names = [validator.get("NAME") for validator in settings.AUTH_PASSWORD_VALIDATORS]
    if VALIDATOR not in names:
        return [
            Error(
                "AUTH_PASSWORD_VALIDATORS lacks the entry that signs API tokens out when a password changes.",
                hint=f'Keep {{"NAME": "{VALIDATOR}"}} in AUTH_PASSWORD_VALIDATORS.',
                id="accounts.E001",
            )
        ]
    return []
